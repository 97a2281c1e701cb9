"""Content folders as flat ``file, key -> value`` tables, and their difference.

``key`` is the dotted path inside the file (``bloodsucker.hp`` in
``monsters.toml``, ``fight.max_rounds`` in ``rules.toml``); lists are compared
whole. A folder may be a content folder or a report folder holding one in
``content/`` (``zonesim report --out`` saves it there)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from sim.content.load import ContentError

CONTENT_MARK = "rules.toml"


def resolve_content(folder, option="folder") -> Path:
    """The content folder ``folder`` names: itself, or its ``content/`` (a report
    folder's saved content). One-line errors for a missing or foreign folder."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ContentError(f"{option}: {folder}: folder not found; give a content folder "
                           "(`zonesim content init DIR`) or a report folder")
    for candidate in (folder, folder / "content"):
        if (candidate / CONTENT_MARK).is_file():
            return candidate
    raise ContentError(f"{option}: {folder}: not a content folder (no {CONTENT_MARK}) nor a report folder with "
                       "content/; give a folder made by `zonesim content init DIR` or `zonesim report --out DIR`")


def flatten(table: dict, prefix="") -> dict:
    """``{"a": {"b": 1}}`` as ``{"a.b": 1}``; lists and scalars are leaves."""
    out = {}
    for key, value in table.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, path + "."))
        else:
            out[path] = value
    return out


def read_flat(folder: Path) -> dict:
    """Every TOML file of a content folder (maps included), as ``(file, key) -> value``."""
    out = {}
    for path in sorted(folder.rglob("*.toml")):
        name = path.relative_to(folder).as_posix()
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ContentError(f"{path}: malformed TOML: {exc}") from None
        out.update({(name, key): value for key, value in flatten(raw).items()})
    return out


def content_diff(base: Path, new: Path) -> list[dict]:
    """Every ``{"file", "key", "base", "new"}`` that differs (``None``: absent on that side), in file order."""
    a, b = read_flat(Path(base)), read_flat(Path(new))
    order = {k: i for i, k in enumerate([*a, *(k for k in b if k not in a)])}
    return [{"file": f, "key": k, "base": a.get((f, k)), "new": b.get((f, k))}
            for f, k in sorted(order, key=lambda fk: (fk[0], order[fk]))
            if a.get((f, k)) != b.get((f, k)) or ((f, k) in a) != ((f, k) in b)]
