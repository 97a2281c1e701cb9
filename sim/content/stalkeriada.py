"""Stalkeriada content (``stalkeriada.toml``): the City loop, shop prices, the
Borscht price table, the fence mix and the Zone's tiles (RULES S-01..S-24).
``ContentError`` names the file, the table and the field."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from sim.content.load import Content, ContentError, read_entry, read_toml

STALKERIADA_FILE = "stalkeriada.toml"
TILE_KINDS = ("loot", "zuda", "mosquito_bald", "fire_fluff", "devils_cabbage", "trap", "swamp_2", "swamp_3",
              "jelly_basement", "grass", "corridor", "golden_ball", "pointer", "jumping_pointer", "stop", "flip")
SQUARE_KINDS = ("empty", "exit", "shop", "police", "borscht", "butcher", "jelly_order")
FENCE_KINDS = ("gap", "fence", "ambush")
MAX_CELLS = 400
DIE = ("int", True, 1)
G = ("int", True, 0)
DICE = {("police", "arrest_on"), ("police", "release_on"), ("borscht", "partner_on"), ("jelly", "order_on"),
        ("jelly", "fill_on"), ("jelly", "spill_on"), ("jelly", "accident_on"), ("fence", "gap_ambush_on"),
        ("fence", "pliers_ambush_on"), ("zone", "trap_survive_on"), ("zone", "golden_ball_life_roll"),
        ("zone", "golden_ball_visa_roll")}  # d6 rolls: 1..6, or 7 for "never"
SECTIONS = {
    "game": {"round_cap": ("int", True, 1)},
    "city": {"start_money": G, "reentry_percent": G},
    "police": {"arrest_on": DIE, "release_on": DIE},
    "shop": {"ozk": G, "pliers": G, "nut": G, "exit_visa": ("int", True, 1)},
    "borscht": {"partner_on": DIE, "partner_deposit": G, "partner_bonus": G, "partner_share_percent": G},
    "butcher": {"fee": G},
    "jelly": {"order_on": DIE, "reward": G, "fill_on": DIE, "spill_on": ("int", True, 0), "accident_on": DIE},
    "fence": {"cells": ("int", True, 1), "gap": G, "fence": G, "ambush": G, "gap_ambush_on": DIE,
              "pliers_ambush_on": DIE},
    "zone": {"rows": ("int", True, 1), "cols": ("int", True, 1), "backpack": ("int", True, 1),
             "trap_survive_on": DIE, "golden_ball_bonus": G, "golden_ball_life_roll": DIE,
             "golden_ball_visa_roll": DIE, "swamp_2_hummocks": ("int", True, 1), "swamp_3_hummocks": ("int", True, 1),
             "nut_range": ("int", True, 1)},
    "tiles": {kind: G for kind in TILE_KINDS},
}
LISTS = {"city": "squares", "borscht": "prices"}


@dataclass(frozen=True)
class StalkeriadaContent:
    """A validated ``stalkeriada.toml``: ``settings[table][field]``, the City's
    squares, the Borscht prices by d6 roll and the tile counts."""

    path: Path
    settings: MappingProxyType
    squares: tuple
    prices: tuple
    assumed: tuple

    def tile_list(self):
        """Every tile, each kind repeated by its count, in ``TILE_KINDS`` order."""
        return [k for k in TILE_KINDS for _ in range(self.settings["tiles"][k])]


def _squares(path, value):
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ContentError(f"{path}: city.squares: expected a list of square names")
    for v in value:
        if v not in SQUARE_KINDS:
            raise ContentError(f"{path}: city.squares: '{v}' is not a square; use one of: {', '.join(SQUARE_KINDS)}")
    missing = [k for k in SQUARE_KINDS[1:] if k not in value]
    if missing:
        raise ContentError(f"{path}: city.squares: the City needs {', '.join(missing)}; add them to the loop")
    return tuple(value)


def _prices(path, value):
    if (not isinstance(value, list) or len(value) != 6
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)):
        raise ContentError(f"{path}: borscht.prices: expected 6 whole prices >= 0 (one per d6 roll), got {value!r}")
    return tuple(value)


def _check(path, s):
    """Cross-field rules: dice thresholds, fence width, tiles filling the Zone."""
    for table, field in sorted(DICE):
        if s[table][field] > 7:
            raise ContentError(f"{path}: {table}.{field}: {s[table][field]} is not a d6 roll; use 1..6 (7: never)")
    for table, field in (("borscht", "partner_share_percent"), ("city", "reentry_percent")):
        if s[table][field] > 100:
            raise ContentError(f"{path}: {table}.{field}: {s[table][field]} is over 100; use 0..100")
    zone, fence = s["zone"], s["fence"]
    if zone["golden_ball_life_roll"] == zone["golden_ball_visa_roll"] <= 6:
        raise ContentError(f"{path}: zone.golden_ball_visa_roll: {zone['golden_ball_visa_roll']} is also the life "
                           "roll; give the two outcomes different rolls")
    cells = zone["rows"] * zone["cols"]
    if cells > MAX_CELLS:
        raise ContentError(f"{path}: zone: {zone['rows']} x {zone['cols']} cells is over {MAX_CELLS}; make it smaller")
    if fence["cells"] > zone["cols"]:
        raise ContentError(f"{path}: fence.cells: {fence['cells']} fence cells but only {zone['cols']} front-row "
                           f"cells; use at most {zone['cols']}")
    if fence["gap"] + fence["fence"] + fence["ambush"] == 0:
        raise ContentError(f"{path}: fence: gap, fence and ambush weights are all 0; give one a weight")
    total = sum(s["tiles"].values())
    if total != cells:
        grass = s["tiles"]["grass"] + cells - total
        fix = f"set grass = {grass}" if grass >= 0 else f"remove {total - cells} tiles"
        raise ContentError(f"{path}: tiles: {total} tiles for a {zone['rows']} x {zone['cols']} Zone of {cells} "
                           f"cells; {fix}")


def load_stalkeriada(content: Content) -> StalkeriadaContent:
    """Load and validate ``stalkeriada.toml`` of the content folder."""
    directory = Path(content.directory)
    path = directory / STALKERIADA_FILE
    raw = read_toml(directory, STALKERIADA_FILE)
    for key in raw:
        if key not in SECTIONS:
            raise ContentError(f"{path}: [{key}]: unknown section; known: {', '.join(SECTIONS)}")
    settings, lists, assumed = {}, {}, []
    for section, fields in SECTIONS.items():
        table = raw.get(section)
        if not isinstance(table, dict):
            raise ContentError(f"{path}: [{section}]: missing section; copy it from the default {STALKERIADA_FILE}")
        table = dict(table)
        if section in LISTS:
            name = LISTS[section]
            if name not in table:
                raise ContentError(f"{path}: {section}.{name}: missing required field; add `{name} = [...]`")
            lists[name] = table.pop(name)
            if isinstance(table.get("assumed"), list):
                table["assumed"] = [a for a in table["assumed"] if a != name]
                assumed += [f"{path.name}: {section}.{name}"] if name in raw[section]["assumed"] else []
        entry = read_entry(path, "stalkeriada", section, table, fields, {})
        settings[section] = MappingProxyType(dict(entry.fields))
        assumed += [f"{path.name}: {section}.{f}" for f in sorted(entry.assumed)]
    _check(path, settings)
    return StalkeriadaContent(path, MappingProxyType(settings), _squares(path, lists["squares"]),
                              _prices(path, lists["prices"]), tuple(assumed))
