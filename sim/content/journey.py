"""Journey content (``journey.toml``): the map to use, event tables by danger
level, monster groups, traps, skill events, finds and orders (Z-39, Z-41, K-06,
K-08). Validated into plain tuples of entries; ``ContentError`` names the file,
the entry and the field."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from sim.content.load import DEFAULT_DIR, Content, ContentError, read_entry, read_toml
from sim.content.maps import HexMap, load_map, load_terrain, reachable_from

JOURNEY_FILE = "journey.toml"
EVENT_KINDS = ("nothing", "monster", "trap", "skill", "find")
DANGER_LEVELS = 10
FIND_KINDS = ("money", "artefact", "item")

_BAND = {"min_danger": ("int", True, 0), "max_danger": ("int", True, 0), "weight": ("int", True, 0)}
SECTIONS = {
    "journey": {"map": ("str", True, None), "start_base": ("str", True, None), "max_group": ("int", True, 1),
                "military_base": ("str", False, None), "location_radius": ("int", False, 0),
                "order_offer": ("int", False, 0), "goal_orders": ("int", False, 1)},
    "progression": {"influence_start": ("int", True, 0), "reroll_cost": ("int", True, 0),
                    "extra_one_fails": ("bool", True, None), "xp_per_monster_hp": ("int", True, 0),
                    "xp_per_order": ("int", True, 0), "influence_per_order": ("int", True, 0),
                    "influence_per_win": ("int", False, 0), "influence_price": ("int", False, 0),
                    "asset_limit": ("int", False, 0)},
}
MAX_ORDERS = 62  # cards of the order deck (sim.kernels.journey.MAX_ORDERS: the kernel keeps them as bits)
LEVEL_LISTS = ("level_xp", "level_hp", "level_influence", "level_points")  # [progression] rewards of levels 2..12
MAX_ATTRIBUTES = 8  # K-08: the journey kernel's room for attributes (sim.kernels.journey.MAX_ATTRIBUTES)
LISTS = {
    "monster_groups": {"monsters": ("list", True, None), **_BAND},
    "traps": {"id": ("str", True, None), "dice": ("int", True, 0), "bonus": ("int", True, None),
              "avoid_on": ("int", True, 1), **_BAND},
    "skill_events": {"id": ("str", True, None), "attribute": ("str", True, None), "target": ("int", True, None),
                     "damage_dice": ("int", True, 0), "missed_turns": ("int", True, 0), **_BAND},
    "finds": {"id": ("str", True, None), "kind": (FIND_KINDS, True, None), "amount": ("int", True, 0),
              "item": ("str", False, None), **_BAND},
    "orders": {"id": ("str", True, None), "destination": ("str", True, None), "reward": ("int", True, 0),
               "step_penalty": ("int", True, 0)},
}


@dataclass(frozen=True)
class JourneyContent:
    """A validated ``journey.toml`` with its map."""

    path: Path
    hexmap: HexMap
    settings: MappingProxyType      # [journey] and [progression] fields
    attributes: MappingProxyType    # K-08 attribute -> value
    events: MappingProxyType        # kind -> weights at danger 0..9 (Z-39)
    monster_groups: tuple
    traps: tuple
    skill_events: tuple
    finds: tuple
    orders: tuple


def _list_entries(path, raw, section, fields, check_list):
    """Validate ``[[section]]`` tables; ``list`` fields go to ``check_list``."""
    tables = raw.get(section, [])
    if not isinstance(tables, list):
        raise ContentError(f"{path}: {section}: expected [[{section}]] tables")
    out = []
    for i, table in enumerate(tables):
        label = f"{section}[{i}]"
        if not isinstance(table, dict):
            raise ContentError(f"{path}: {label}: expected a table")
        plain = {k: v for k, v in table.items() if fields.get(k, ("",))[0] != "list"}
        entry = read_entry(path, section, table.get("id", label), plain, {k: f for k, f in fields.items()
                                                                        if f[0] != "list"}, {}, label=label)
        values = dict(entry.fields)
        for field, spec in fields.items():
            if spec[0] == "list":
                values[field] = check_list(f"{path}: {label}.{field}", table.get(field))
        if "min_danger" in values and not 0 <= values["min_danger"] <= values["max_danger"] < DANGER_LEVELS:
            raise ContentError(f"{path}: {label}: min_danger {values['min_danger']} / max_danger "
                               f"{values['max_danger']}; use 0 <= min_danger <= max_danger <= 9")
        out.append(MappingProxyType(values))
    return tuple(out)


def _levels(path, progression):
    """K-04: ``level_xp`` (strictly rising), ``level_hp``, ``level_influence`` and
    ``level_points`` (attribute points) for levels 2..top; ``level_xp``'s length
    sets the top level (the rulebook's 12: eleven entries)."""
    xp = progression.get("level_xp")
    if not isinstance(xp, list) or len(xp) < 2:
        raise ContentError(f"{path}: progression.level_xp: expected the total experience of levels 2..12 "
                           f"(K-04; at least 2 whole numbers), got {xp!r}")
    n = len(xp)
    out = {}
    for name in LEVEL_LISTS:
        values = progression.get(name, [0] * n if name == "level_points" else None)  # K-04: optional
        if (not isinstance(values, list) or len(values) != n
                or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in values)):
            raise ContentError(f"{path}: progression.{name}: expected {n} whole numbers >= 0 "
                               f"(levels 2..{n + 1}, as many as level_xp, at least 2), got {values!r}")
        out[name] = tuple(values)
    xp = out["level_xp"]
    if any(b <= a for a, b in zip(xp, xp[1:])) or xp[0] <= 0:
        raise ContentError(f"{path}: progression.level_xp: {list(xp)} must rise strictly from above 0")
    return out


def _check_orders_reachable(path, hexmap, start_base, orders):
    """Every order's destination can be reached from the start base, with a jetpack at most (Z-25, Z-35)."""
    reached = reachable_from(hexmap, hexmap.point(start_base))
    for i, order in enumerate(orders):
        at = hexmap.point(order["destination"])
        if at not in reached:
            raise ContentError(f"{path}: orders[{i}].destination: '{order['destination']}' at [{at[0]}, {at[1]}] "
                               f"cannot be reached from the start base '{start_base}' of {hexmap.path}, even with a "
                               f"jetpack; open a route of passable hexes to it or move it")


def _goal_orders(path, settings, n_orders):
    """Z-41: the order cards held that reach the campaign's goal (absent: the whole deck)."""
    goal = settings.get("goal_orders", n_orders)
    if goal > n_orders:
        raise ContentError(f"{path}: journey.goal_orders: {goal} is more than the {n_orders} [[orders]] cards of "
                           f"the deck; use 1..{n_orders}")
    return goal


def load_journey(content: Content) -> JourneyContent:
    """Load ``journey.toml`` of the content folder, its map and terrain."""
    directory = Path(content.directory)
    path = directory / JOURNEY_FILE
    raw = read_toml(directory, JOURNEY_FILE)
    known = set(SECTIONS) | set(LISTS) | {"attributes", "events", "shops"}
    for key in raw:
        if key not in known:
            raise ContentError(f"{path}: [{key}]: unknown section; known: {', '.join(sorted(known))}")
    settings = {}
    for section, fields in SECTIONS.items():
        if not isinstance(raw.get(section), dict):
            raise ContentError(f"{path}: [{section}]: missing section; copy it from the default journey.toml")
        table = {k: v for k, v in raw[section].items() if k not in LEVEL_LISTS}
        if isinstance(table.get("assumed"), list):  # the level lists are checked by _levels
            table["assumed"] = [a for a in table["assumed"] if a not in LEVEL_LISTS]
        settings.update(read_entry(path, section, section, table, fields, {}).fields)
    settings.update(_levels(path, raw["progression"]))
    hexmap = load_map(directory / "maps" / f"{settings['map']}.toml", load_terrain(directory if (
        directory / "terrain.toml").is_file() else DEFAULT_DIR))
    for key in ("start_base", "military_base"):
        if key in settings and settings[key] not in {b.id for b in hexmap.bases}:
            raise ContentError(f"{path}: journey.{key}: '{settings[key]}' is not a base of {hexmap.path}; "
                               f"use one of: {', '.join(b.id for b in hexmap.bases)}")
    attributes = raw.get("attributes", {})
    for name, value in attributes.items():
        if name != "assumed" and (isinstance(value, bool) or not isinstance(value, int)):
            raise ContentError(f"{path}: attributes.{name}: expected int, got {value!r}")
    attributes = {k: v for k, v in attributes.items() if k != "assumed"}
    if not 1 <= len(attributes) <= MAX_ATTRIBUTES:
        raise ContentError(f"{path}: [attributes]: {len(attributes)} given; give 1..{MAX_ATTRIBUTES} attributes")
    events = raw.get("events", {})
    for kind in EVENT_KINDS:
        weights = events.get(kind)
        if (not isinstance(weights, list) or len(weights) != DANGER_LEVELS
                or any(isinstance(w, bool) or not isinstance(w, int) or w < 0 for w in weights)):
            raise ContentError(f"{path}: events.{kind}: expected {DANGER_LEVELS} weights >= 0 "
                               f"(danger levels 0..9), got {weights!r}")
    max_group = settings["max_group"]

    def monster_list(where, value):
        if not isinstance(value, list) or not 1 <= len(value) <= max_group:
            raise ContentError(f"{where}: expected a list of 1..{max_group} monster ids ([journey] max_group)")
        for m in value:
            if m not in content.monsters:
                raise ContentError(f"{where}: unknown monster '{m}'; use one of: {', '.join(content.monsters)}")
        return tuple(value)

    lists = {s: _list_entries(path, raw, s, f, monster_list) for s, f in LISTS.items()}
    for i, ev in enumerate(lists["skill_events"]):
        if ev["attribute"] not in attributes:
            raise ContentError(f"{path}: skill_events[{i}].attribute: '{ev['attribute']}' is not in [attributes] "
                               f"({', '.join(attributes)})")
    for i, find in enumerate(lists["finds"]):
        if find["kind"] == "item" and find.get("item") not in content.items:
            raise ContentError(f"{path}: finds[{i}].item: '{find.get('item')}' is not an item of items.toml; "
                               f"give `item = \"<id>\"` for a find of kind item")
    points = {p.id for p in hexmap.bases + hexmap.sites}
    for i, order in enumerate(lists["orders"]):
        if order["destination"] not in points:
            raise ContentError(f"{path}: orders[{i}].destination: '{order['destination']}' is not a base or site "
                               f"of {hexmap.path}; use one of: {', '.join(sorted(points))}")
    _check_orders_reachable(path, hexmap, settings["start_base"], lists["orders"])
    shops = raw.get("shops", {})
    bases = {b.id for b in hexmap.bases}
    for base, items in shops.items():
        if base not in bases:
            raise ContentError(f"{path}: shops.{base}: not a base of {hexmap.path}; use one of: {', '.join(bases)}")
        if not isinstance(items, list) or any(i not in content.items for i in items):
            bad = [i for i in items if i not in content.items] if isinstance(items, list) else items
            raise ContentError(f"{path}: shops.{base}: unknown item ids {bad!r}; use ids of items.toml")
    settings["shops"] = MappingProxyType({b: tuple(v) for b, v in shops.items()})
    if not 1 <= len(lists["orders"]) <= MAX_ORDERS:
        raise ContentError(f"{path}: orders: {len(lists['orders'])} defined; give 1..{MAX_ORDERS} [[orders]] tables")
    settings["goal_orders"] = _goal_orders(path, settings, len(lists["orders"]))
    return JourneyContent(path, hexmap, MappingProxyType(settings), MappingProxyType(attributes),
                          MappingProxyType({k: tuple(events[k]) for k in EVENT_KINDS}),
                          lists["monster_groups"], lists["traps"], lists["skill_events"], lists["finds"],
                          lists["orders"])
