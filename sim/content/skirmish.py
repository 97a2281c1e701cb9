"""Skirmish content (``skirmish.toml``) and the setup of one tactical skirmish:
the hex arena, the party and the monsters as plain numbers
(RULES A-01..A-07, M-01..M-08; contract ``docs/rules/skirmish-resolution.md``).
``ContentError`` names the file, the table and the field."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import numpy as np

from sim import hexgrid
from sim.content.load import Content, ContentError, read_entry, read_toml
from sim.content.loadout import Loadout, LoadoutError, check_monsters
from sim.content.maps import grid_rows

SKIRMISH_FILE = "skirmish.toml"
PCT = ("int", True, 0)
N0 = ("int", True, 0)
N1 = ("int", True, 1)
RULES = {
    "max_rounds": N1, "ap_base": N0, "ap_agility_divisor": N1, "shot_ap": N1, "aimed_ap": N1,
    "aimed_bonus": PCT, "range_penalty": PCT, "hit_min": PCT, "hit_max": PCT, "all_out_attack_bonus": PCT,
    "all_out_defence_ac": N0, "use_ap": N1, "equip_ap": N1, "pickup_ap": N1, "reload_ap": N1, "stand_ap": N1,
    "mine_ap": N1, "first_aid_ap": N1, "first_aid_uses": N0, "doctor_uses": N0, "kneel_ap": N0,
    "dead_at_hp": ("int", True, None), "knockdown_damage": N0, "spare_magazines": N0, "kite_distance": N1,
    "hex_ap": N1, "forward_points": N1, "sideways_points": N1, "turn_points": N1, "ally_points": N0,
    "sprint_points": N0, "half_divisor": N1, "end_turn_sides": N0, "evade_standing": ("int", True, None),
    "evade_kneeling": ("int", True, None), "evade_prone": ("int", True, None), "evade_side": ("int", True, None),
    "evade_behind": ("int", True, None), "evade_dice": N1, "sequence_die": N1, "first_aid_hp": N1,
}
STALKER = {"agility": N0, "dx": N0, "move": N1, "sequence": N0, "skill": PCT, "medic": (("first_aid", "doctor"), False, None),
           "medic_skill": PCT, "traps": PCT}
FIREARM = {"range": N1, "magazine": N1}
MONSTER = {"agility": N0, "dx": N0, "move": N1, "sequence": N0, "skill": PCT, "attack_ap": N1, "range": N1,
           "insubstantial": ("bool", False, None)}
ARENA = {"party_col": N0, "distance": N1, "terrain": ("str", True, None)}
MAX_HEXES = 1600
MAX_FIGHTERS = 16
EAST, WEST = 0, 3


@dataclass(frozen=True)
class SkirmishContent:
    """A validated ``skirmish.toml``."""

    path: Path
    rules: MappingProxyType
    stalker: MappingProxyType
    characters: MappingProxyType
    firearms: MappingProxyType
    monsters: MappingProxyType
    letters: MappingProxyType
    arena: MappingProxyType
    assumed: tuple

    def character(self, character_id):
        """The tactical numbers of a character: ``[stalker]`` overridden by its table."""
        return {**self.stalker, **self.characters.get(character_id, {})}


@dataclass(frozen=True)
class Arena:
    """A hex arena (A-03, M-01): ``mult`` per hex (0 blocked), neighbours, distances, sight."""

    cols: int
    rows: int
    mult: np.ndarray
    nbr: np.ndarray
    dist: np.ndarray
    los: np.ndarray

    def hex(self, row, col):
        return row * self.cols + col


@dataclass(frozen=True)
class SkirmishSetup:
    """Everything a skirmish engine needs, as plain numbers (see the contract)."""

    arena: Arena
    rules: MappingProxyType
    fighters: tuple
    names: tuple


def _table(path, raw, key, fields, label=None):
    table = raw.get(key)
    if not isinstance(table, dict):
        raise ContentError(f"{path}: [{key}]: missing section; copy it from the default {SKIRMISH_FILE}")
    return read_entry(path, "skirmish", key, table, fields, {}, label)


def _grid_table(path, raw, key, known, fields):
    """``[key.<id>]`` tables whose ids must be in ``known``."""
    out, assumed = {}, []
    for entry_id, table in raw.get(key, {}).items():
        if entry_id not in known:
            raise ContentError(f"{path}: {key}.{entry_id}: unknown id; use one of: {', '.join(known)}")
        entry = read_entry(path, "skirmish", entry_id, table, fields, {}, f"{key}.{entry_id}")
        out[entry_id] = MappingProxyType(dict(entry.fields))
        assumed += [f"{path.name}: {key}.{entry_id}.{f}" for f in sorted(entry.assumed)]
    return out, assumed


def load_skirmish(content: Content) -> SkirmishContent:
    """Load and validate ``skirmish.toml`` of the content folder."""
    directory = Path(content.directory)
    path = directory / SKIRMISH_FILE
    raw = read_toml(directory, SKIRMISH_FILE)
    known = {"rules", "stalker", "characters", "firearms", "monsters", "letters", "arena"}
    for key in raw:
        if key not in known:
            raise ContentError(f"{path}: [{key}]: unknown section; known: {', '.join(sorted(known))}")
    rules = _table(path, raw, "rules", RULES)
    stalker = _table(path, raw, "stalker", {k: (v[0], True, v[2]) for k, v in STALKER.items()})
    arena = _table(path, raw, "arena", ARENA)
    optional = {k: (v[0], False, v[2]) for k, v in STALKER.items()}
    characters, a1 = _grid_table(path, raw, "characters", list(content.characters), optional)
    firearms, a2 = _grid_table(path, raw, "firearms", [e.id for e in content.family("firearms")], FIREARM)
    monsters, a3 = _grid_table(path, raw, "monsters", list(content.monsters), MONSTER)
    for kind, table, ids in (("firearms", firearms, [e.id for e in content.family("firearms")]),
                             ("monsters", monsters, list(content.monsters))):
        missing = [i for i in ids if i not in table]
        if missing:
            raise ContentError(f"{path}: {kind}.{missing[0]}: missing; every {kind[:-1]} needs a [{kind}.{missing[0]}] table")
    letters = raw.get("letters")
    if not isinstance(letters, dict) or not all(
            isinstance(k, str) and len(k) == 1 and isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 3
            for k, v in letters.items()):
        raise ContentError(f"{path}: [letters]: expected one-letter keys with multipliers 1, 2, 3 (0: blocked)")
    r = rules.fields
    if r["hit_min"] > r["hit_max"] or r["hit_max"] > 100:
        raise ContentError(f"{path}: rules.hit_min/hit_max: need 0 <= hit_min <= hit_max <= 100, "
                           f"got {r['hit_min']}..{r['hit_max']}")
    if r["dead_at_hp"] > 0:
        raise ContentError(f"{path}: rules.dead_at_hp: {r['dead_at_hp']} is above 0; use 0 or a negative HP")
    assumed = [f"{path.name}: {t}.{f}" for t, e in (("rules", rules), ("stalker", stalker), ("arena", arena))
               for f in sorted(e.assumed)] + a1 + a2 + a3
    return SkirmishContent(path, MappingProxyType(dict(r)), MappingProxyType(dict(stalker.fields)),
                           MappingProxyType(characters), MappingProxyType(firearms), MappingProxyType(monsters),
                           MappingProxyType(dict(letters)), MappingProxyType(dict(arena.fields)), tuple(assumed))


# --- the arena -----------------------------------------------------------------

def build_arena(grid) -> Arena:
    """An ``Arena`` from rows of multipliers (0 = blocked), "odd-r" layout. Built once
    per grid in a process (the line-of-sight table takes half a second; the explorer
    checks the content at every edit), so its arrays are read-only."""
    return _arena(tuple(tuple(int(v) for v in row) for row in grid))


@functools.lru_cache(maxsize=32)
def _arena(grid: tuple) -> Arena:
    rows, cols = len(grid), len(grid[0])
    n = rows * cols
    mult = np.array([v for row in grid for v in row], np.int64)
    nbr = hexgrid.neighbour_table(rows, cols, hexgrid.COUNTER_CLOCKWISE)  # M-01
    dist = hexgrid.distance_table(rows, cols)
    row, col = np.divmod(np.arange(n), cols)
    los = _sight(np.stack(hexgrid.cube(row, col), axis=1), mult, dist, cols)
    for table in (mult, nbr, dist, los):
        table.flags.writeable = False
    return Arena(cols, rows, mult, nbr, dist, los)


def _sight(cube, mult, dist, cols):
    """Line of sight (contract): no blocked hex other than the ends on the cube
    line between two centres, sampled at every step, for either nudge. A point
    off the arena (beside its zig-zag edge) blocks nothing."""
    n = len(mult)
    blocked = mult == 0
    if not blocked.any():
        return np.ones((n, n), np.bool_)
    a, b = np.divmod(np.arange(n * n), n)
    k = dist[a, b]
    clear = np.zeros(n * n, np.bool_)
    for nudge in (1e-6, -1e-6):
        ok = np.ones(n * n, np.bool_)
        for s in range(1, int(k.max())):
            inside = s < k
            t = np.where(inside, s / np.maximum(k, 1), 0.0)
            p = cube[a] + (cube[b] - cube[a]) * t[:, None] + nudge * np.array([1.0, 2.0, -3.0])
            h, on = hexgrid.cube_to_index(hexgrid.cube_round(p), n // cols, cols)
            ok &= ~(inside & on & blocked[np.where(inside & on, h, a)] & (h != a) & (h != b))
        clear |= ok
    return clear.reshape(n, n)


def arena_from_text(path, text, letters) -> list:
    """Rows of multipliers from a terrain text of letters."""
    rows = grid_rows(text)
    if not rows:
        raise ContentError(f"{path}: terrain: empty; give rows of letters ({', '.join(letters)})")
    width = len(rows[0])
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ContentError(f"{path}: terrain: row {r} has {len(row)} hexes, row 0 has {width}; make them equal")
        for c, letter in enumerate(row):
            if letter not in letters:
                raise ContentError(f"{path}: terrain: row {r} col {c}: unknown letter '{letter}'; "
                                   f"use one of: {', '.join(letters)} ([letters] in {SKIRMISH_FILE})")
    if len(rows) * width > MAX_HEXES:
        raise ContentError(f"{path}: terrain: {len(rows)} x {width} hexes is over {MAX_HEXES}; make it smaller")
    return [[letters[x] for x in row] for row in rows]


def load_arena(sk: SkirmishContent, arena_file=None, size=None) -> Arena:
    """The built-in arena, an all-flat ``size`` x ``size`` one, or the ``terrain``
    of a map file (``[map] terrain``, the journey map format)."""
    if size is not None:
        if not 2 <= size <= int(math.isqrt(MAX_HEXES)):
            raise LoadoutError(f"--arena-size: {size} is outside 2..{math.isqrt(MAX_HEXES)}")
        return build_arena([[1] * size for _ in range(size)])
    if arena_file is None:
        return build_arena(arena_from_text(sk.path, sk.arena["terrain"], sk.letters))
    path = Path(arena_file)
    raw = read_toml(path.parent, path.name)
    table = raw.get("map", raw.get("arena"))
    if not isinstance(table, dict) or not isinstance(table.get("terrain"), str):
        raise ContentError(f"{path}: [map] terrain: missing; give rows of terrain letters as in maps/zone.toml")
    return build_arena(arena_from_text(path, table["terrain"], sk.letters))


def parse_member(content: Content, spec: str) -> Loadout:
    """``CHARACTER:ITEM,ITEM*N,...`` -> a ``Loadout`` (items sorted by family)."""
    character, _, items = spec.partition(":")
    fields = {"character": character.strip(), "mods": [], "healing": [], "explosives": []}
    for token in filter(None, (t.strip() for t in items.split(","))):
        item_id, _, count = token.partition("*")
        try:
            n = int(count) if count else 1
        except ValueError:
            raise LoadoutError(f"--party: '{token}': the count after * must be a whole number") from None
        entry = content.items.get(item_id)
        if entry is None:
            raise LoadoutError(f"--party: unknown item '{item_id}' in '{spec}'; use ids from items.toml")
        family = entry.family
        if family == "firearms":
            if fields.get("weapon"):
                raise LoadoutError(f"--party: '{spec}' carries two firearms; one is active (Z-20)")
            fields["weapon"] = item_id
        elif family == "modifiers":
            fields["mods"].append(item_id)
        elif family == "armour":
            slot = entry["slot"]
            if fields.get(slot):
                raise LoadoutError(f"--party: '{spec}' wears two {slot} items; one is active (Z-24)")
            fields[slot] = item_id
        elif family in ("healing", "explosives"):
            fields[family].append((item_id, n))
        else:
            raise LoadoutError(f"--party: '{item_id}' ({family}) does nothing in a skirmish; carry firearms, "
                               "modifiers, armour, healing or explosives")
    loadout = Loadout(character=fields["character"], weapon=fields.get("weapon"), mods=tuple(fields["mods"]),
                      head=fields.get("head"), body=fields.get("body"), healing=tuple(fields["healing"]),
                      explosives=tuple(fields["explosives"])).validate(content)
    return check_member(content, loadout, f"--party: '{spec}'")


def check_member(content: Content, loadout: Loadout, where="the loadout") -> Loadout:
    """A loadout a stalker can fight a skirmish with: a firearm, at most two kinds
    of in-combat healing (Z-31) and one kind of explosive for mines."""
    if loadout.weapon is None:
        raise LoadoutError(f"{where} has no firearm; add one, e.g. {loadout.character}:ak47")
    in_combat = [(i, n) for i, n in loadout.healing if content.items[i]["in_combat"]]
    if len(in_combat) > 2 or len(loadout.healing) != len(in_combat):
        raise LoadoutError(f"{where}: carry at most two kinds of in-combat healing "
                           "(stimulators; medkits are for outside combat, Z-31)")
    if len(loadout.explosives) > 1:
        raise LoadoutError(f"{where}: carry one kind of explosive for mines")
    return loadout


def _start_hexes(arena: Arena, col, count, facing_name):
    """``count`` start hexes in ``col``, from the middle row outward."""
    mid = arena.rows // 2
    rows = [mid + (k + 1) // 2 * (1 if k % 2 else -1) for k in range(count)]
    out = []
    for r in rows:
        if not (0 <= r < arena.rows and 0 <= col < arena.cols):
            raise LoadoutError(f"the {facing_name} cannot stand at row {r}, column {col}: off the "
                               f"{arena.rows} x {arena.cols} arena; use a smaller --distance or a bigger arena")
        h = arena.hex(r, col)
        if arena.mult[h] == 0:
            raise LoadoutError(f"the {facing_name} cannot stand at row {r}, column {col}: a blocking object; "
                               "change --distance or the arena")
        out.append(h)
    return out


def make_setup(content: Content, sk: SkirmishContent, party, monsters, arena: Arena, strategy="hold",
               distance=None) -> SkirmishSetup:
    """The fighters of a skirmish: the party (``Loadout``s) in the arena's party
    column facing east, the monsters ``distance`` hexes east facing west."""
    check_monsters(content, monsters)
    if not party:
        raise LoadoutError("--party: give at least one stalker, e.g. --party novice:ak47,vest")
    if len(party) + len(monsters) > MAX_FIGHTERS:
        raise LoadoutError(f"--party/--monster: {len(party) + len(monsters)} fighters; at most {MAX_FIGHTERS}")
    rules = sk.rules
    distance = sk.arena["distance"] if distance is None else distance
    if distance < 1:
        raise LoadoutError(f"--distance: {distance}; the monsters start at least 1 hex away")
    col = min(sk.arena["party_col"], arena.cols - 1)
    fighters = []
    firearm_ids = [e.id for e in content.family("firearms")]
    for loadout, h in zip(party, _start_hexes(arena, col, len(party), "party")):
        check_member(content, loadout)
        char = content.characters[loadout.character]
        tact = sk.character(loadout.character)
        gun = content.items[loadout.weapon]
        mod_bonus = min(content.rules["fight"]["modifier_cap"], sum(content.items[m]["bonus"] for m in loadout.mods))
        heal = [(n, content.items[i]["heal"] + char["heal_bonus"]) for i, n in loadout.healing]
        expl = [(n, content.items[i]["dice"]) for i, n in loadout.explosives] or [(0, 0)]
        mag = sk.firearms[loadout.weapon]["magazine"]
        doctor = tact["medic"] == "doctor"
        fighters.append(dict(
            side=0, max_hp=char["max_hp"], agility=tact["agility"], dx=tact["dx"], move=tact["move"],
            sequence=tact["sequence"], skill=tact["skill"],
            defence=sum(content.items[a]["defence"] for a in (loadout.head, loadout.body) if a),
            dice=gun["dice"], bonus=mod_bonus + char["damage_bonus"], range=sk.firearms[loadout.weapon]["range"],
            attack_ap=rules["shot_ap"], aimed_ap=rules["aimed_ap"], mag_size=mag,
            spare=mag * rules["spare_magazines"], firearm=firearm_ids.index(loadout.weapon),
            heal=(heal + [(0, 0), (0, 0)])[:2], expl_count=expl[0][0], expl_dice=expl[0][1],
            expl_bonus=char["damage_bonus"], medic_skill=tact["medic_skill"],
            medic_uses=rules["doctor_uses"] if doctor else rules["first_aid_uses"], traps=tact["traps"],
            insubstantial=False, pos=h, facing=EAST, strategy=strategy))
    for m, h in zip(monsters, _start_hexes(arena, col + distance, len(monsters), "monsters")):
        mon, tact = content.monsters[m], sk.monsters[m]
        fighters.append(dict(
            side=1, max_hp=mon["hp"], agility=tact["agility"], dx=tact["dx"], move=tact["move"],
            sequence=tact["sequence"], skill=tact["skill"], defence=mon["defence"], dice=mon["dice"],
            bonus=mon["bonus"], range=tact["range"], attack_ap=tact["attack_ap"], aimed_ap=0, mag_size=0, spare=0,
            firearm=-1, heal=[(0, 0), (0, 0)], expl_count=0, expl_dice=0, expl_bonus=0, medic_skill=0,
            medic_uses=0, traps=0, insubstantial=tact.get("insubstantial", False), pos=h, facing=WEST,
            strategy="beast"))
    names = tuple(l.character for l in party) + tuple(monsters)
    return SkirmishSetup(arena, rules, tuple(MappingProxyType(f) for f in fighters), names)
