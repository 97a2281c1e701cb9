"""Hex maps of the Zone: terrain types (``terrain.toml``) and map files (``maps/*.toml``).

A map is a grid of terrain letters in the "odd-r" offset layout: odd rows sit
half a hex to the right, coordinates are ``(col, row)`` from ``(0, 0)`` at the
top left, and a hex's neighbours come in ``sim.hexgrid.MAP_ORDER``. Entering a
hex costs its terrain's steps (Z-35; a road hex costs 1, along or onto the
road, Z-36); Epicentre hexes are paid from the base budget only (Z-26). The
default map is ``maps/zone.toml`` (Z-43).

Every problem raises ``ContentError`` with one line naming the file, the place
and the fix.
"""

from __future__ import annotations

import string
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import numpy as np

from sim import hexgrid
from sim.content.load import DEFAULT_DIR, ContentError, Entry, read_entry, read_toml

TERRAIN_FILE = "terrain.toml"
TERRAIN_FIELDS = {
    "name": ("str", False, None), "letter": ("str", True, None),
    "cost": ("int", True, 1), "epicentre": ("bool", False, None),
}
IMPASSABLE = "impassable"         # the terrain id no base or site may stand on
SITE_KINDS = ("artefact", "anomaly")
BASE_BUDGET = 6                   # Z-34 [G] steps per day without equipment
JETPACK_STEPS = 3                 # Z-25 the best movement item: 9 steps in all


@dataclass(frozen=True)
class Base:
    """A base (Z-40) at ``at = (col, row)``."""

    id: str
    at: tuple[int, int]


@dataclass(frozen=True)
class Site:
    """An artefact site or anomaly field at ``at = (col, row)``."""

    id: str
    at: tuple[int, int]
    kind: str


@dataclass(frozen=True, eq=False)
class HexMap:
    """A loaded map; every grid is indexed ``[row, col]`` and read-only."""

    name: str
    width: int
    height: int
    terrain: np.ndarray     # int8 index into ``terrain_ids``
    cost: np.ndarray        # int64 steps to enter the hex (Z-35, Z-36)
    epicentre: np.ndarray   # bool, paid from the base budget only (Z-26)
    danger: np.ndarray      # int8 event level 0-9 (Z-39)
    bases: tuple[Base, ...]
    sites: tuple[Site, ...]
    terrain_ids: tuple[str, ...]
    path: Path

    def in_bounds(self, col, row):
        """Whether ``(col, row)`` lies on the map."""
        return 0 <= col < self.width and 0 <= row < self.height

    def neighbours(self, col, row):
        """The on-map neighbours ``(col, row)`` of ``(col, row)``, in the map's order (Z-43, ``sim.hexgrid``)."""
        return [(c, r) for r, c in hexgrid.neighbours(row, col, self.height, self.width, hexgrid.MAP_ORDER)]

    def neighbour_table(self):
        """int64 ``[hex, direction]``: flat neighbour indices in the map's order, -1 off the map."""
        return hexgrid.neighbour_table(self.height, self.width, hexgrid.MAP_ORDER)

    def point(self, point_id):
        """The ``(col, row)`` of the base or site ``point_id``."""
        for point in self.bases + self.sites:
            if point.id == point_id:
                return point.at
        known = ", ".join(p.id for p in self.bases + self.sites)
        raise ContentError(f"{self.path}: no base or site '{point_id}'; use one of: {known}")

    def day_limit(self, base_budget, extra_steps):
        """Most steps a day may have spent once each hex is entered (int64 [row, col]).

        ``base_budget + extra_steps`` (Z-25, Z-34), but only ``base_budget`` for
        an Epicentre hex: equipment steps never pay for it (Z-26).
        """
        return np.where(self.epicentre, base_budget, base_budget + extra_steps).astype(np.int64)


def default_map_path():
    """The shipped default Zone map (Z-43)."""
    return DEFAULT_DIR / "maps" / "zone.toml"


def load_terrain(content_dir=None) -> dict:
    """The terrain types of ``content_dir/terrain.toml`` (default: the shipped set), id -> ``Entry``."""
    directory = Path(content_dir) if content_dir is not None else DEFAULT_DIR
    path = directory / TERRAIN_FILE
    terrain, owner = {}, {}
    for terrain_id, table in read_toml(directory, TERRAIN_FILE).items():
        entry = read_entry(path, "terrain", terrain_id, table, TERRAIN_FIELDS, {})
        letter = entry["letter"]
        if len(letter) != 1 or letter not in string.ascii_uppercase:
            raise ContentError(f"{path}: {terrain_id}.letter: '{letter}' is not one capital letter; use one of A-Z")
        if letter in owner:
            raise ContentError(f"{path}: {terrain_id}.letter: '{letter}' is already the letter of "
                               f"{owner[letter]}; give each terrain its own letter")
        owner[letter] = terrain_id
        fields = {"name": terrain_id, "epicentre": False, **entry.fields}
        terrain[terrain_id] = Entry(terrain_id, "terrain", TERRAIN_FILE, MappingProxyType(fields), entry.assumed)
    if not terrain:
        raise ContentError(f"{path}: defines no terrain; add tables like [road] with letter and cost")
    return terrain


def grid_rows(text):
    """The non-blank lines of a grid string, split into values."""
    return [line.split() for line in text.splitlines() if line.strip()]


def _terrain_grid(path, text, letters):
    """Parse the ``[map] terrain`` string into terrain indices [row, col]."""
    if not isinstance(text, str):
        raise ContentError(f"{path}: [map] terrain: expected a string of letter rows, got {type(text).__name__}")
    rows = grid_rows(text)
    if not rows:
        raise ContentError(f"{path}: [map] terrain: no rows; write one row of letters per line")
    for r, row in enumerate(rows):
        if len(row) != len(rows[0]):
            raise ContentError(f"{path}: terrain row {r} has {len(row)} hexes, row 0 has {len(rows[0])}; "
                               f"every row needs the same count")
        for c, letter in enumerate(row):
            if letter not in letters:
                raise ContentError(f"{path}: terrain row {r}, col {c}: unknown letter '{letter}'; "
                                   f"use one of {', '.join(letters)}")
    return np.array([[letters[x] for x in row] for row in rows], dtype=np.int8)


def _danger_grid(path, text, shape):
    """Parse the optional ``[map] danger`` string (digits 0-9, the terrain's shape; zeros if absent)."""
    if text is None:
        return np.zeros(shape, dtype=np.int8)
    if not isinstance(text, str):
        raise ContentError(f"{path}: [map] danger: expected a string of digit rows, got {type(text).__name__}")
    rows = grid_rows(text)
    if len(rows) != shape[0]:
        raise ContentError(f"{path}: danger has {len(rows)} rows, terrain has {shape[0]}; "
                           f"give one danger row per terrain row")
    for r, row in enumerate(rows):
        if len(row) != shape[1]:
            raise ContentError(f"{path}: danger row {r} has {len(row)} values, terrain rows have {shape[1]}; "
                               f"give one digit per hex")
        for c, value in enumerate(row):
            if len(value) != 1 or value not in string.digits:
                raise ContentError(f"{path}: danger row {r}, col {c}: '{value}' is not a digit; use 0-9")
    return np.array(rows, dtype=np.int8)


def _point(path, key, i, table, shape, blocked):
    """Validate entry ``i`` of ``[[bases]]`` or ``[[sites]]`` into a ``Base`` or ``Site``."""
    where = f"{path}: {key}[{i}]"
    if not isinstance(table, dict):
        raise ContentError(f"{where}: expected a table [[{key}]] with id and at, got {table!r}")
    fields = ("id", "at", "kind") if key == "sites" else ("id", "at")
    for field in table:
        if field not in fields:
            raise ContentError(f"{where}.{field}: unknown field; known fields: {', '.join(fields)}")
    for field in fields:
        if field not in table:
            raise ContentError(f"{where}.{field}: missing required field; add `{field} = ...`")
    point_id, at = table["id"], table["at"]
    if not isinstance(point_id, str) or not point_id:
        raise ContentError(f"{where}.id: expected a non-empty string, got {point_id!r}")
    where = f"{path}: {key[:-1]} '{point_id}'"
    if not (isinstance(at, list) and len(at) == 2 and all(type(x) is int for x in at)):
        raise ContentError(f"{where}.at: expected [col, row], two integers, got {at!r}")
    col, row = at
    if not (0 <= col < shape[1] and 0 <= row < shape[0]):
        raise ContentError(f"{where} at [{col}, {row}] is off the map (col 0-{shape[1] - 1}, "
                           f"row 0-{shape[0] - 1}); move it onto the map")
    if blocked[row, col]:
        raise ContentError(f"{where} at [{col}, {row}] stands on an impassable hex; "
                           f"move it or change that hex's letter")
    if key == "bases":
        return Base(point_id, (col, row))
    if table["kind"] not in SITE_KINDS:
        raise ContentError(f"{where}.kind: '{table['kind']}' is not allowed; use one of: {', '.join(SITE_KINDS)}")
    return Site(point_id, (col, row), table["kind"])


def _points(path, raw, key, shape, blocked):
    """All entries of ``[[bases]]`` or ``[[sites]]``."""
    tables = raw.get(key, [])
    if not isinstance(tables, list):
        raise ContentError(f"{path}: {key}: expected [[{key}]] tables, got {type(tables).__name__}")
    return tuple(_point(path, key, i, table, shape, blocked) for i, table in enumerate(tables))


def _check_unique(path, points):
    """Base and site ids must be unique."""
    seen = set()
    for point in points:
        if point.id in seen:
            raise ContentError(f"{path}: '{point.id}' is used by two bases or sites; give each its own id")
        seen.add(point.id)


def _reached(hexmap, start, enterable):
    """Every hex reachable from ``start`` moving only into ``enterable`` hexes (a bool set)."""
    reached = {start}
    queue = deque([start])
    while queue:
        for col, row in hexmap.neighbours(*queue.popleft()):
            if (col, row) not in reached and enterable[row, col]:
                reached.add((col, row))
                queue.append((col, row))
    return reached


def reachable_from(hexmap, at):
    """Every hex a stalker can reach from ``at`` with the jetpack's budget (Z-25, Z-26, Z-35)."""
    return _reached(hexmap, at, hexmap.cost <= hexmap.day_limit(BASE_BUDGET, JETPACK_STEPS))


def _check_bases_connected(hexmap):
    """Every base must reach every other, with the jetpack's budget (Z-25, Z-26, Z-35)."""
    for base in hexmap.bases:
        reached = reachable_from(hexmap, base.at)
        for other in hexmap.bases:
            if other.at not in reached:
                raise ContentError(
                    f"{hexmap.path}: base '{other.id}' cannot be reached from base '{base.id}', even with a "
                    f"jetpack ({BASE_BUDGET + JETPACK_STEPS} steps a day); open a route of cheaper hexes between them"
                )


def load_map(path, terrain=None) -> HexMap:
    """Load and validate a map file; ``terrain`` from ``load_terrain`` (default: the shipped set)."""
    path = Path(path)
    terrain = load_terrain() if terrain is None else terrain
    raw = read_toml(path.parent, path.name)
    for key in raw:
        if key not in ("map", "bases", "sites"):
            raise ContentError(f"{path}: [{key}]: unknown section; known: map, bases, sites")
    table = raw.get("map")
    if not isinstance(table, dict) or "terrain" not in table:
        raise ContentError(f'{path}: [map] terrain: missing; add [map] with terrain = """...""" (one row per line)')
    for key in table:
        if key not in ("name", "terrain", "danger"):
            raise ContentError(f"{path}: [map] {key}: unknown field; known fields: name, terrain, danger")
    if not isinstance(table.get("name", ""), str):
        raise ContentError(f"{path}: [map] name: expected a string, got {table['name']!r}")
    grid = _terrain_grid(path, table["terrain"], {e["letter"]: i for i, e in enumerate(terrain.values())})
    ids = tuple(terrain)
    blocked = grid == ids.index(IMPASSABLE) if IMPASSABLE in ids else np.zeros(grid.shape, bool)
    bases = _points(path, raw, "bases", grid.shape, blocked)
    sites = _points(path, raw, "sites", grid.shape, blocked)
    _check_unique(path, bases + sites)
    hexmap = HexMap(
        name=table.get("name", path.stem), width=grid.shape[1], height=grid.shape[0], terrain=grid,
        cost=np.array([e["cost"] for e in terrain.values()], dtype=np.int64)[grid],
        epicentre=np.array([e["epicentre"] for e in terrain.values()], dtype=bool)[grid],
        danger=_danger_grid(path, table.get("danger"), grid.shape),
        bases=bases, sites=sites, terrain_ids=ids, path=path,
    )
    for array in (hexmap.terrain, hexmap.cost, hexmap.epicentre, hexmap.danger):
        array.setflags(write=False)
    _check_bases_connected(hexmap)
    return hexmap
