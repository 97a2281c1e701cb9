"""Edited copies of a content folder: one value set in a TOML file's text, comments
and layout kept, and a whole copy of the folder with one file replaced."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from sim.content.load import ContentError
from sim.content.loadout import LoadoutError


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(float(value)) if isinstance(value, float) else str(value)


def set_value(text: str, key: str, value) -> str:
    """``text`` (a TOML file) with ``key`` (dotted: ``table.field``, ``table[n].field``
    for the n-th of an array of tables, or a top-level ``field``) set to ``value``,
    comments and layout kept."""
    table, _, field = key.rpartition(".")
    lines = text.splitlines(keepends=True)
    headers = [i for i, line in enumerate(lines) if re.match(r"\s*\[", line)]
    if not table:
        start = 0
    else:
        array = re.fullmatch(r"(.*)\[(\d+)\]", table)
        pattern = (rf"\s*\[\[\s*{re.escape(array.group(1))}\s*\]\]" if array else rf"\s*\[\s*{re.escape(table)}\s*\]")
        found = [i for i in headers if re.match(pattern + r"\s*(#.*)?$", lines[i])]
        nth = int(array.group(2)) if array else 0
        if len(found) <= nth:
            raise ContentError(f"{key}: table not found as a [header]; set it by hand")
        start = found[nth] + 1
    end = next((i for i in headers if i >= start), len(lines))
    for i in range(start, end):
        m = re.match(rf"(\s*{re.escape(field)}\s*=\s*)([^#\n]*?)(\s*(#.*)?\n?)$", lines[i])
        if m:
            lines[i] = m.group(1) + _toml(value) + m.group(3)
            return "".join(lines)
    raise ContentError(f"{key}: not found as `{field} = ...` in its table; set it by hand")


def set_or_add(text: str, table: str, field: str, rendered: str) -> str:
    """``text`` with ``field = rendered`` (TOML text) in ``[table]``: the line replaced if it is
    there, else added under the table's header (comments and layout kept)."""
    try:
        return set_value(text, f"{table}.{field}", _Raw(rendered))
    except ContentError:
        lines = text.splitlines(keepends=True)
        header = next((i for i, line in enumerate(lines) if re.match(rf"\s*\[\s*{re.escape(table)}\s*\]", line)),
                      None)
        if header is None:
            raise ContentError(f"[{table}]: not found as a [header]; set {field} by hand") from None
        return "".join(lines[:header + 1] + [f"{field} = {rendered}\n"] + lines[header + 1:])


class _Raw(str):
    """TOML text written as it is (``_toml`` of a str)."""


def copy_content_with(source: Path, target: Path, name: str, text: str) -> Path:
    """A copy of the content folder ``source`` at ``target`` with file ``name``
    holding ``text``; the folder appears whole or not at all."""
    if target.exists():
        raise LoadoutError(f"{target}: already exists; give a new folder for the tuned content")
    staging = target.with_name(target.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(source, staging)
    (staging / name).write_text(text, encoding="utf-8")
    staging.rename(target)
    return target


def with_prices(content, prices: dict):
    """The content with some items' prices replaced (``{item_id: G}``), in memory."""
    from dataclasses import replace
    from types import MappingProxyType

    items = dict(content.items)
    for item_id, price in prices.items():
        entry = items[item_id]
        items[item_id] = replace(entry, fields=MappingProxyType({**entry.fields, "price": int(price)}))
    return replace(content, items=MappingProxyType(items))


def write_item_prices(source: Path, target: Path, prices: dict) -> Path:
    """A copy of the content folder ``source`` at ``target`` whose ``items.toml``
    carries ``prices`` (``{item_id: G}``), comments and layout kept."""
    import tomllib

    text = (source / "items.toml").read_text(encoding="utf-8")
    family = {item_id: fam for fam, table in tomllib.loads(text).items() if isinstance(table, dict)
              for item_id in table}
    for item_id, price in prices.items():
        text = set_value(text, f"{family[item_id]}.{item_id}.price", int(price))
    return copy_content_with(source, target, "items.toml", text)


def write_shop_prices(source: Path, target: Path, prices: dict) -> Path:
    """A copy of the content folder ``source`` at ``target`` whose ``stalkeriada.toml``
    [shop] has ``prices`` (``{item: G}``, S-04), comments and layout kept."""
    text = (source / "stalkeriada.toml").read_text(encoding="utf-8")
    for item, price in prices.items():
        text = set_value(text, f"shop.{item}", int(price))
    return copy_content_with(source, target, "stalkeriada.toml", text)


def set_table(text: str, table: str, lines: list) -> str:
    """``text`` (a TOML file) with the table ``[table]`` holding exactly ``lines``
    (``key = value`` text), replacing the table if it is there, else appended."""
    out = text.splitlines(keepends=True)
    header = next((i for i, line in enumerate(out) if re.match(rf"\s*\[\s*{re.escape(table)}\s*\]", line)), None)
    block = [f"[{table}]\n", *(line + "\n" for line in lines)]
    if header is None:
        return "".join(out).rstrip("\n") + "\n\n" + "".join(block)
    end = next((i for i in range(header + 1, len(out)) if re.match(r"\s*\[", out[i])), len(out))
    return "".join(out[:header] + block + (["\n"] if end < len(out) else []) + out[end:])
