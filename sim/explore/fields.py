"""The explorer's form: every number a designer may edit, the text typed into
a field as the value TOML reads, and edited copies of the content folder
written by ``sim.content.edit`` (comments and layout kept) and checked by the
same loaders as every command, so a refused value gets the loader's one line."""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

from sim.compare.sensitivity import assumed_parameters
from sim.content.edit import copy_content_with, set_value
from sim.content.load import ContentError

FIRST_FILES = ("items.toml", "monsters.toml", "rules.toml", "characters.toml")
"""The files shown first; the others follow in name order."""


@dataclass(frozen=True)
class Field:
    """One number of the form: its file, dotted key, value in the baseline and the
    swing ``zonesim sensitivity`` gives it (``None`` for a price, which it leaves to ``tune``)."""

    file: str
    key: str
    base: object
    low: object = None
    high: object = None

    @property
    def table(self) -> str:
        return self.key.rpartition(".")[0]

    @property
    def name(self) -> str:
        return self.key.rpartition(".")[2]


def item_prices(folder: Path) -> list[Field]:
    """Every item's price in ``items.toml`` (Z-42), in file order."""
    raw = tomllib.loads((Path(folder) / "items.toml").read_text(encoding="utf-8"))
    return [Field("items.toml", f"{family}.{item}.price", table["price"])
            for family, items in raw.items() if isinstance(items, dict)
            for item, table in items.items() if isinstance(table, dict) and "price" in table]


def file_rank(name: str) -> tuple:
    return (FIRST_FILES.index(name) if name in FIRST_FILES else len(FIRST_FILES), name)


def content_fields(folder: Path) -> list[Field]:
    """Every assumed [A] number of the content folder (``sim.compare.sensitivity``)
    and every item's price, by file, then table in file order (a price first in its table)."""
    fields = item_prices(folder) + [Field(p.file, p.key, p.base, p.low, p.high)
                                    for p in assumed_parameters(Path(folder))]
    order = {}
    for f in fields:
        order.setdefault((f.file, f.table), len(order))
    return sorted(fields, key=lambda f: (file_rank(f.file), order[(f.file, f.table)], f.name != "price"))


def table_names(folder: Path, fields) -> dict:
    """``{(file, table): name}`` of the tables of ``fields`` that carry a ``name``."""
    out, raw = {}, {}
    for f in fields:
        if f.file not in raw:
            raw[f.file] = tomllib.loads((Path(folder) / f.file).read_text(encoding="utf-8"))
        table = raw[f.file]
        for part in filter(None, f.table.split(".")):
            array = re.fullmatch(r"(.*)\[(\d+)\]", part)
            table = table[array.group(1)][int(array.group(2))] if array else table[part]
        if isinstance(table.get("name"), str):
            out[(f.file, f.table)] = table["name"]
    return out


def parse(text: str):
    """What a field's text stands for, as TOML reads it: a number or a flag
    (``20``, ``0.5``, ``true``), else the text as a string, which the loader refuses
    where a number belongs (with its own one-line message)."""
    text = text.strip()
    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text
    return value if isinstance(value, (bool, int, float)) else text


def same(value, base) -> bool:
    """``value`` is the baseline's: equal and of the same type (``1`` is not ``true``, ``20.0`` not ``20``)."""
    return type(value) is type(base) and value == base


def literal(value):
    """``value`` as ``sim.content.edit.set_value`` writes it: numbers and flags as
    they are, a string quoted (a TOML basic string)."""
    return json.dumps(value) if isinstance(value, str) else value


def shown(value) -> str:
    """A value as a field shows it (TOML spelling)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value) if isinstance(value, str) else str(value)


def edited_texts(folder: Path, edits: dict) -> dict:
    """``{file: text}`` of the files ``edits`` (``{(file, key): value}``) change,
    each value set in the file's text by ``set_value``."""
    texts = {}
    for (file, key), value in sorted(edits.items(), key=lambda e: e[0]):
        text = texts[file] if file in texts else (Path(folder) / file).read_text(encoding="utf-8")
        texts[file] = set_value(text, key, literal(value))
    return texts


def write_draft(base: Path, target: Path, edits: dict) -> Path:
    """A copy of the content folder ``base`` at ``target`` with ``edits``."""
    shutil.copytree(base, target)
    for file, text in edited_texts(base, edits).items():
        (target / file).write_text(text, encoding="utf-8")
    return target


def load_whole(folder: Path):
    """The content of ``folder`` checked whole, by the loaders every command runs first
    (``sim.checks.checked_content``: maps, journey, skirmish, Stalkeriada, economy and report files)."""
    from sim.content import load_content
    from sim.checks import check_whole

    game = load_content(folder)
    check_whole(game)
    return game


def check_folder(folder: Path):
    """The content of ``folder`` loaded and checked whole (``load_whole``); else a
    ``ContentError`` whose one line names the file within the folder."""
    from sim.errors import ZonesimError

    folder = Path(folder)
    try:
        return load_whole(folder)
    except ZonesimError as exc:
        raise ContentError(str(exc).replace(f"{folder}/", "").replace(str(folder), "the content")) from None


def save_copy(source: Path, target: Path) -> Path:
    """The content folder ``source`` copied to the new folder ``target``, whole or not at all
    (``sim.content.edit.copy_content_with``)."""
    target = Path(target)
    if target.exists():
        raise ContentError(f"{target}: already exists; give a new folder for the edited content")
    if not target.parent.is_dir():
        raise ContentError(f"{target.parent}: folder not found; give a folder inside an existing one")
    name = "rules.toml"
    return copy_content_with(Path(source), target, name, (Path(source) / name).read_text(encoding="utf-8"))
