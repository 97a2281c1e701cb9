"""Content folders as flat ``file, key -> value`` tables, and their difference.

``key`` is the dotted path inside the file (``bloodsucker.hp`` in
``monsters.toml``, ``fight.max_rounds`` in ``rules.toml``); lists are compared
whole. A folder may be a content folder or a report folder holding one in
``content/`` (``zonesim report --out`` saves it there)."""

from __future__ import annotations

import tomllib
from itertools import groupby, zip_longest
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


def diff_lines(diff: list[dict], base: Path, new: Path) -> list[str]:
    """``diff`` (of folders ``base`` and ``new``) in words, one line each: a file only
    one side has as one line, a grid (a multi-line text such as a map's terrain)
    by the rows that changed, any other field as ``key: base -> new``."""
    lines = []
    for file, entries in groupby(diff, key=lambda d: d["file"]):
        entries = list(entries)
        fields = f"{len(entries)} field{'s' * (len(entries) != 1)}"
        if not (Path(base) / file).is_file():
            lines.append(f"{file}: a new file ({fields})")
        elif not (Path(new) / file).is_file():
            lines.append(f"{file}: removed ({fields})")
        else:
            lines += [f"{file}  {line}" for d in entries for line in _field_lines(d)]
    return lines


def _field_lines(d: dict) -> list[str]:
    old, new = d["base"], d["new"]
    if isinstance(old, str) and isinstance(new, str) and "\n" in old + new:
        return [f"{d['key']} row {row}: {a!r} -> {b!r}"
                for row, (a, b) in enumerate(zip_longest(old.splitlines(), new.splitlines())) if a != b]
    return [f"{d['key']}: {old!r} -> {new!r}"]
