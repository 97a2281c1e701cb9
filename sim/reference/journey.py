"""Reference journeys: the slow and obvious reading of /work/specs/journey_spec.md.

A journey is one campaign of `days` days over the Zone hex map (rules Z-08..Z-10,
Z-25, Z-26, Z-30, Z-33..Z-39, Z-41, K-01..K-04, K-06..K-08 of RULES.md): the
stalker walks from the start base to each order's destination in turn, an event
is drawn on every hex entered, fights are the fights of /work/specs/fight_spec.md
(reused from ``sim.reference.fight``) with streams that continue across the
whole trial and hp / items that persist.  Plain Python on Python ints, stdlib
only; it exists to cross-check the fast kernel trial by trial, so every random
number is drawn from its stream in exactly the order the spec gives.

Random streams of a trial (keyed once per trial, never restarted):
    FIGHT_STALKER = 0, FIGHT_MONSTER = 1, FIGHT_ESCAPE = 2 (the fight's own
    STALKER / MONSTER / ESCAPE streams), EVENT = 3 (whole words: event kind and
    variant picks), TRAP = 4 (avoidance and damage dice), SKILL = 5 (skill-test
    and skill-damage dice).

Public functions: ``load_journey_content``, ``route_tables``, ``pick``,
``weighted_choice``, ``skill_test``, ``fight_on_state``, ``simulate_journey``,
``run_journeys``.

Readings of the spec made here (where it does not say):

* The loot cache (Z-10) holds everything the dead stalker carried: money,
  artefact and trophy value, firearm + mods, armour, healing and explosive
  counts, and also his escape item, movement items and avoidance items; a
  recovery gives all of them back (the replacement carries none of them).
* The day's budget and Epicentre limit (step 3) are computed once at the start
  of the day from the order held then; completing an order in mid-day does not
  change them until the next day.
* A hex whose cost exceeds the day's limit even with 0 steps spent is never
  entered: the stalker stays and every day ends at once (step 4c, literally).
  A goal the route tables cannot reach (no next hop) ends the day likewise.
* ``extra_one_fails`` of the skill test is journey.toml [progression]
  extra_one_fails (the spec's name); if absent, rules.toml [skill].
* A kind's variant table where no entry is eligible, or where the eligible
  weights sum to 0, gives "nothing" and draws no word (like the kinds' sum-0 rule).
  Entries without min_danger / max_danger / weight take 0 / 9 / 1; a missing
  kind in [events] weighs 0 at every level.
* With no orders at all the campaign is complete at once: completed = True,
  completion_day = 0.
* The per-trial record also carries "reputation" and "influence" at the end
  (extra keys, for tests); ``used``, ``traffic`` and ``deaths_at`` list only
  non-zero counts.  The stalker's `hp` in the loadout is ignored (a journey
  starts at max hp).
* A loadout's `reputation` of None means [stalker] start_reputation.

Progression (stage B "Progression (K-04, K-06)"; shops, decks and the asset
limit of stage B are not implemented here):

* Missing [progression] xp_per_monster_hp / xp_per_order / influence_per_order
  are 0, and missing level_xp / level_hp / level_influence (all three absent)
  mean no levels at all: level 1 for ever, no missions (stage A content).  When
  given, the three lists must hold 11 whole numbers >= 0 (levels 2..12) and
  level_xp must rise strictly from above 0 (as sim/content/journey.py checks).
* A won fight's xp is added once for the whole group, then the level-ups.
* ``missions`` counts every level past 12 reached in the trial, by any of its
  stalkers: a replacement (Z-09) starts again at level 1 / xp 0, but missions
  already completed stay counted (like Influence, they are the player's).
* The record's ``level`` and ``xp`` are the final stalker's (so a death resets
  them); ``level`` is capped at 12, ``missions`` carries the rest.
* The per-trial record also carries "max_hp" and "hp" at the end (extra keys,
  for tests).  ``run_journeys``'s ``levels`` lists only levels that occurred.
"""

from __future__ import annotations

import heapq
import os
import tomllib
from dataclasses import dataclass, field

from sim.reference.fight import (
    STRATEGIES,
    Stream,
    StalkerState,
    _fighter_pre_fight_heal,
    _fighter_target,
    _monster_attack,
    _prepare_monsters,
    _prepare_stalker,
    _result,
    _stalker_attack,
    _survives_hit,
    load_content,
)

# --------------------------------------------------------------------------
# Stream purposes (spec "Random numbers")
# --------------------------------------------------------------------------

FIGHT_STALKER = 0
FIGHT_MONSTER = 1
FIGHT_ESCAPE = 2
EVENT = 3
TRAP = 4
SKILL = 5
N_STREAMS = 6

# Z-39: event kinds, in the spec's order (the order of the weighted choice).
EVENT_KINDS = ("nothing", "monster", "trap", "skill", "find")
KIND_TABLE = {"monster": "monster_groups", "trap": "traps", "skill": "skill_events", "find": "finds"}

# Z-43 odd-r neighbour offsets (dcol, drow), by row parity (as sim/content/maps.py).
_EVEN_ROW = ((1, 0), (-1, 0), (-1, -1), (0, -1), (-1, 1), (0, 1))
_ODD_ROW = ((1, 0), (-1, 0), (0, -1), (1, -1), (0, 1), (1, 1))

NO_AVOIDANCE_ON = 4  # Z-30: an "avoided on 4+" trap with no item is avoided on 4-6

MAX_LEVEL = 12  # K-04: levels 1..12; each step past 12 is a completed mission instead
LEVEL_LISTS = ("level_xp", "level_hp", "level_influence")  # [progression], levels 2..12


def pick(stream: Stream, total: int) -> int:
    """The stream's next 64-bit word w (the dice buffer is not touched): (w * total) >> 64."""
    w = stream.next_word()
    return (w * total) >> 64


def weighted_choice(stream: Stream, weights) -> int:
    """Index of the first entry whose running sum of weights exceeds r = pick(stream, sum)."""
    r = pick(stream, sum(weights))
    running = 0
    for i, w in enumerate(weights):
        running += w
        if running > r:
            return i
    raise AssertionError("weighted_choice: total weight must be positive")


# --------------------------------------------------------------------------
# Content
# --------------------------------------------------------------------------


def _read_toml(path) -> dict:
    with open(path, "rb") as f:
        return tomllib.load(f)


def _grid_rows(text: str) -> list:
    return [line.split() for line in text.splitlines() if line.strip()]


def _neighbours(col: int, row: int, width: int, height: int) -> list:
    """On-map neighbours of (col, row) in the odd-r layout (odd rows shifted right), HexMap order."""
    offsets = _ODD_ROW if row % 2 else _EVEN_ROW
    out = []
    for dc, dr in offsets:
        c, r = col + dc, row + dr
        if 0 <= c < width and 0 <= r < height:
            out.append((c, r))
    return out


def load_map(path, letters: dict) -> dict:
    """Parse a map file; ``letters`` maps a terrain letter to {"id", "cost", "epicentre"}.

    Returns {"name", "width", "height", "hexes" (row-major list of (col, row)),
    "terrain", "cost", "epicentre", "danger", "neighbours" (dicts keyed by
    (col, row)), "bases", "sites" ({id: (col, row)}, file order), "points"
    (bases and sites together)}.
    """
    raw = _read_toml(path)
    table = raw["map"]
    rows = _grid_rows(table["terrain"])
    height, width = len(rows), len(rows[0])
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"{path}: terrain row {r} has {len(row)} hexes, row 0 has {width}")
        for letter in row:
            if letter not in letters:
                raise ValueError(f"{path}: unknown terrain letter {letter!r}")
    danger_text = table.get("danger")
    if danger_text is None:
        danger_rows = [["0"] * width for _ in range(height)]  # no danger grid: all quiet
    else:
        danger_rows = _grid_rows(danger_text)
        if len(danger_rows) != height or any(len(row) != width for row in danger_rows):
            raise ValueError(f"{path}: the danger grid must have the terrain's shape")

    hexes, terrain, cost, epicentre, danger, neighbours = [], {}, {}, {}, {}, {}
    for r in range(height):
        for c in range(width):
            h = (c, r)
            hexes.append(h)
            t = letters[rows[r][c]]
            terrain[h] = t["id"]
            cost[h] = t["cost"]                # Z-35, Z-36
            epicentre[h] = t["epicentre"]      # Z-26
            danger[h] = int(danger_rows[r][c])  # Z-39
            neighbours[h] = _neighbours(c, r, width, height)

    bases = {b["id"]: tuple(b["at"]) for b in raw.get("bases", [])}
    sites = {s["id"]: tuple(s["at"]) for s in raw.get("sites", [])}
    return {
        "name": table.get("name", os.path.splitext(os.path.basename(str(path)))[0]),
        "width": width, "height": height, "hexes": hexes,
        "terrain": terrain, "cost": cost, "epicentre": epicentre, "danger": danger,
        "neighbours": neighbours, "bases": bases, "sites": sites, "points": {**bases, **sites},
    }


def load_journey_content(content_dir) -> dict:
    """Everything a journey needs, as plain dicts.

    The fight reference's content (rules, characters, items, monsters; so the
    dict works with ``sim.reference.fight``'s functions), plus "terrain"
    (terrain.toml), "letters" (letter -> {"id", "cost", "epicentre"}),
    "journey" (journey.toml) and "map" (see ``load_map``).
    """
    content = load_content(content_dir)
    terrain = _read_toml(os.path.join(str(content_dir), "terrain.toml"))
    letters = {}
    for terrain_id, t in terrain.items():
        letters[t["letter"]] = {
            "id": terrain_id,
            "cost": t.get("cost", 1),
            "epicentre": bool(t.get("epicentre", False)),
        }
    journey = _read_toml(os.path.join(str(content_dir), "journey.toml"))
    map_name = journey["journey"]["map"]
    hexmap = load_map(os.path.join(str(content_dir), "maps", map_name + ".toml"), letters)
    content["terrain"] = terrain
    content["letters"] = letters
    content["journey"] = journey
    content["map"] = hexmap
    return content


# --------------------------------------------------------------------------
# Route tables (spec "Route tables")
# --------------------------------------------------------------------------


def hex_weight(content: dict, h, danger_weight: int) -> int:
    """wt(h) = cost(h) + danger_weight * danger(h): what entering h weighs."""
    m = content["map"]
    return m["cost"][h] + danger_weight * m["danger"][h]


def route_tables(content: dict, danger_weight: int):
    """(dist, next_hop), both dicts keyed [goal][hex].

    dist[g][h]: the least total weight of the hexes entered on a path from h to
    g (dist[g][g] = 0); next_hop[g][h] (h != g): the neighbour n of h, in
    neighbours order, minimising wt(n) + dist[g][n], the first one on ties.
    Hexes that cannot reach g are absent from dist[g] and next_hop[g].
    Computed for every hex g (a loot cache may lie anywhere).
    """
    if not isinstance(danger_weight, int) or isinstance(danger_weight, bool) or danger_weight < 0:
        raise ValueError(f"danger_weight must be a non-negative int, got {danger_weight!r}")
    m = content["map"]
    nbrs = m["neighbours"]
    wt = {h: hex_weight(content, h, danger_weight) for h in m["hexes"]}
    # into[n] = the hexes h that have n as a neighbour (who may step into n).
    into = {h: [] for h in m["hexes"]}
    for h in m["hexes"]:
        for n in nbrs[h]:
            into[n].append(h)

    dist, next_hop = {}, {}
    for g in m["hexes"]:
        # Dijkstra backwards from g: dist[h] = min over n in nbrs[h] of wt(n) + dist[n].
        d = {g: 0}
        done = set()
        heap = [(0, g)]
        while heap:
            dn, n = heapq.heappop(heap)
            if n in done:
                continue
            done.add(n)
            for h in into[n]:
                cand = dn + wt[n]
                if h not in d or cand < d[h]:
                    d[h] = cand
                    heapq.heappush(heap, (cand, h))
        hops = {}
        for h in d:
            if h == g:
                continue
            best, best_value = None, None
            for n in nbrs[h]:
                if n not in d:
                    continue
                value = wt[n] + d[n]
                if best is None or value < best_value:  # strict: first neighbour on ties
                    best, best_value = n, value
            hops[h] = best
        dist[g] = d
        next_hop[g] = hops
    return dist, next_hop


# --------------------------------------------------------------------------
# The stalker on a journey, and his loot cache
# --------------------------------------------------------------------------


@dataclass
class Carried:
    """What a stalker carries (and what a loot cache holds, Z-10)."""

    money: int = 0
    artefact_value: int = 0
    trophy_value: int = 0
    weapon: str | None = None
    mods: list = field(default_factory=list)
    head: str | None = None
    body: str | None = None
    healing: dict = field(default_factory=dict)
    explosives: dict = field(default_factory=dict)
    escape_item: str | None = None
    movement: list = field(default_factory=list)
    avoidance: list = field(default_factory=list)


@dataclass
class LootCache:
    hex: tuple
    loot: Carried


def _add_counts(into: dict, more: dict) -> None:
    for k, v in more.items():
        into[k] = into.get(k, 0) + v


def _nonzero(d: dict) -> dict:
    return {k: v for k, v in d.items() if v}


def _check_loadout(content: dict, loadout: dict) -> None:
    """Reject what the fight reference rejects, and unknown movement / avoidance items."""
    _prepare_stalker(content, {**loadout, "reputation": 0, "hp": None})
    for key, table in (("movement", "movement"), ("avoidance", "avoidance")):
        for item_id in loadout.get(key) or []:
            if item_id not in content["items"][table]:
                raise ValueError(f"unknown {table} item {item_id!r}")


def _check_strategy(strategy: dict) -> None:
    if strategy.get("fight") not in STRATEGIES:
        raise ValueError(f"unknown fight strategy {strategy.get('fight')!r}")
    dw = strategy.get("danger_weight")
    if not isinstance(dw, int) or isinstance(dw, bool) or dw < 0:
        raise ValueError(f"danger_weight must be a non-negative int, got {dw!r}")


# --------------------------------------------------------------------------
# One fight on a given state and given streams (fight_spec.md "One fight")
# --------------------------------------------------------------------------


def fight_on_state(content: dict, stalker: StalkerState, monsters: list, strategy: str,
                   stalker_dice: Stream, monster_dice: Stream, escape_dice: Stream, used: dict) -> dict:
    """simulate_fight's body, on a prepared ``StalkerState`` (changed in place) and given streams.

    ``used`` is updated in place; returns {"outcome", "rounds", "hp_left", "used"}
    (the last: this fight's uses only).
    """
    plan = STRATEGIES[strategy]
    fight_rules = content["rules"]["fight"]
    foes = _prepare_monsters(content, monsters)
    mine = {}

    # 1. Pre-fight heal, out of combat (Z-31).
    _fighter_pre_fight_heal(content, stalker, mine)

    def done(outcome, rounds):
        _add_counts(used, mine)
        return _result(outcome, rounds, stalker, mine)

    # 2. Escape (Z-32, Z-33): one roll before the first round, if the strategy tries.
    if plan.tries_escape:
        if stalker.reputation <= fight_rules["escape_auto_max"]:
            return done("escape", 0)
        if escape_dice.die(6) >= stalker.reputation:
            return done("escape", 0)

    # 3. Rounds (Z-38): the stalker attacks first, then each living monster in list order.
    max_rounds = fight_rules["max_rounds"]
    for r in range(1, max_rounds + 1):
        target = _fighter_target(foes)
        _stalker_attack(content, stalker, target, stalker_dice, mine)
        if not any(m.alive for m in foes):
            return done("win", r)
        for m in foes:
            if not m.alive:
                continue
            _monster_attack(m, stalker, monster_dice)
            if stalker.hp <= 0 and not _survives_hit(content, stalker, mine):
                return done("death", r)  # Z-08
    return done("draw", max_rounds)  # Z-38: the stalker walks away


# --------------------------------------------------------------------------
# Skill test (K-01..K-03)
# --------------------------------------------------------------------------


def skill_test(dice: Stream, value: int, target: int, extra_one_fails: bool) -> bool:
    """One test: first d6 + attribute; a first 1 fails (K-02); each 6 adds one more
    die (K-03, chaining); an extra die's 1 fails only if extra_one_fails."""
    first = dice.die(6)
    score = first + value
    failed = first == 1
    last = first
    while last == 6:
        last = dice.die(6)
        score += last
        if last == 1 and extra_one_fails:
            failed = True
    return (not failed) and score >= target


# --------------------------------------------------------------------------
# Progression (K-04, K-06, K-08)
# --------------------------------------------------------------------------


def _whole(value, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"progression.{what}: expected a whole number >= 0, got {value!r}")
    return value


def progression_settings(content: dict) -> dict:
    """journey.toml [progression]'s experience and level fields, checked.

    Returns {"xp_per_monster_hp", "xp_per_order", "influence_per_order" (0 if
    missing), "level_xp", "level_hp", "level_influence" (lists for levels
    2..12, or None if the three are absent: no levels)}.
    """
    progression = content["journey"].get("progression", {})
    out = {key: _whole(progression.get(key, 0), key)
           for key in ("xp_per_monster_hp", "xp_per_order", "influence_per_order")}
    present = [name for name in LEVEL_LISTS if name in progression]
    if not present:
        return {**out, **{name: None for name in LEVEL_LISTS}}
    if len(present) != len(LEVEL_LISTS):
        raise ValueError(f"progression: {', '.join(LEVEL_LISTS)} go together, got only {', '.join(present)}")
    for name in LEVEL_LISTS:
        values = progression[name]
        if not isinstance(values, list) or len(values) != MAX_LEVEL - 1:
            raise ValueError(f"progression.{name}: expected {MAX_LEVEL - 1} numbers (levels 2..{MAX_LEVEL}), "
                             f"got {values!r}")
        out[name] = [_whole(v, name) for v in values]
    xp = out["level_xp"]
    if xp[0] <= 0 or any(b <= a for a, b in zip(xp, xp[1:])):
        raise ValueError(f"progression.level_xp: {xp} must rise strictly from above 0")
    return out


def level_threshold(settings: dict, level: int):
    """The total xp at which ``level`` (>= 2) is reached, or None with no levels (K-04).

    Levels 2..12: level_xp[level - 2]; level 12 + n (n >= 1): level_xp[-1] + n *
    (level_xp[-1] - level_xp[-2]), the last gap again.
    """
    xp = settings["level_xp"]
    if xp is None:
        return None
    if level <= MAX_LEVEL:
        return xp[level - 2]
    return xp[-1] + (level - MAX_LEVEL) * (xp[-1] - xp[-2])


# --------------------------------------------------------------------------
# One trial
# --------------------------------------------------------------------------


class _Trial:
    """One campaign (spec "A trial"); attributes are the state the spec names."""

    def __init__(self, content, loadout, strategy, days, seed, trial, tables):
        self.content = content
        self.loadout = loadout
        self.strategy = strategy
        self.days = days
        self.dist, self.next_hop = tables

        rules = content["rules"]
        journey = content["journey"]
        self.map = content["map"]
        self.items = content["items"]
        self.character_id = loadout.get("character", "novice")
        character = content["characters"][self.character_id]
        self.character_max_hp = character.get("max_hp", rules["stalker"]["base_hp"])  # Z-02
        self.max_hp = self.character_max_hp  # raised by level rewards (K-04)
        self.orders = list(journey.get("orders", []))
        self.start = self.map["bases"][journey["journey"]["start_base"]]
        progression = journey.get("progression", {})
        self.reroll_cost = progression.get("reroll_cost", 1)
        self.extra_one_fails = progression.get(
            "extra_one_fails", rules.get("skill", {}).get("extra_one_fails", False))
        self.progression = progression_settings(content)

        self.streams = [Stream(seed, trial, purpose) for purpose in range(N_STREAMS)]

        # Start.
        self.hex = self.start
        self.hp = self.max_hp
        reputation = loadout.get("reputation")
        self.reputation = rules["stalker"]["start_reputation"] if reputation is None else reputation
        self.influence = progression.get("influence_start", 3)  # K-06
        self.missed = 0
        self.level = 1   # K-04: a new stalker is level 1 with 0 xp
        self.xp = 0
        self.k = 0
        self.carried = Carried(
            money=rules["stalker"]["start_money"] + character.get("money_bonus", 0),  # Z-04, Z-07
            weapon=loadout.get("weapon"),
            mods=list(loadout.get("mods") or []),
            head=loadout.get("head"),
            body=loadout.get("body"),
            healing=dict(loadout.get("healing") or {}),
            explosives=dict(loadout.get("explosives") or {}),
            escape_item=loadout.get("escape_item"),
            movement=list(loadout.get("movement") or []),
            avoidance=list(loadout.get("avoidance") or []),
        )
        self.cache = None
        self.dead_today = False

        # Record.
        self.completed = False
        self.completion_day = None
        self.orders_done = 0
        self.first_order_day = None
        self.deaths = 0
        self.kills = 0
        self.missions = 0  # K-04: levels past 12
        self.used = {}
        self.traffic = {}
        self.deaths_at = {}

    # ---- helpers --------------------------------------------------------

    def _fight_state(self) -> StalkerState:
        """The current stalker as the fight reference's StalkerState."""
        c = self.carried
        st = _prepare_stalker(self.content, {
            "character": self.character_id, "weapon": c.weapon, "mods": list(c.mods),
            "head": c.head, "body": c.body, "healing": dict(c.healing),
            "explosives": dict(c.explosives), "escape_item": c.escape_item,
            "reputation": self.reputation, "hp": self.hp,
        })
        st.max_hp = self.max_hp  # K-04: the levelled max hp caps every heal
        return st

    def _take_back(self, st: StalkerState) -> None:
        self.hp = st.hp
        self.carried.healing = dict(st.healing)
        self.carried.explosives = dict(st.explosives)

    def _defence(self) -> int:
        """Z-23, Z-24: head + body."""
        d = 0
        for armour_id in (self.carried.head, self.carried.body):
            if armour_id is not None:
                d += self.items["armour"][armour_id]["defence"]
        return d

    def _hit_survived(self) -> bool:
        """After a trap or skill hit: if hp <= 0, the Z-08 death check (fighter's rescue)."""
        if self.hp > 0:
            return True
        st = self._fight_state()
        alive = _survives_hit(self.content, st, self.used)
        self._take_back(st)
        return alive

    # ---- experience and levels (K-04, K-06, K-08) ---------------------

    def _gain_xp(self, amount: int) -> None:
        """K-08: xp += amount; then K-04: every level now reached, in turn, with its rewards."""
        self.xp += amount
        p = self.progression
        while True:
            threshold = level_threshold(p, self.level + 1)
            if threshold is None or self.xp < threshold:
                return
            self.level += 1
            if self.level > MAX_LEVEL:
                self.missions += 1  # K-04: past level 12, a completed mission instead of rewards
                continue
            # K-04 rewards, top to bottom: max hp (and hp by the same), then Influence (K-06).
            gain = p["level_hp"][self.level - 2]
            self.max_hp += gain
            self.hp = min(self.max_hp, self.hp + gain)
            self.influence += p["level_influence"][self.level - 2]

    # ---- events (Z-39) --------------------------------------------------

    def _event(self, h) -> bool:
        """The event of hex h; returns whether the stalker is alive after it."""
        journey = self.content["journey"]
        level = self.map["danger"][h]
        events = journey.get("events", {})
        weights = [events[kind][level] if kind in events else 0 for kind in EVENT_KINDS]
        alive = True
        if sum(weights) > 0:
            kind = EVENT_KINDS[weighted_choice(self.streams[EVENT], weights)]
            if kind != "nothing":
                eligible = [e for e in journey.get(KIND_TABLE[kind], [])
                            if e.get("min_danger", 0) <= level <= e.get("max_danger", 9)]
                if eligible and sum(e.get("weight", 1) for e in eligible) > 0:
                    entry = eligible[weighted_choice(self.streams[EVENT], [e.get("weight", 1) for e in eligible])]
                    alive = getattr(self, "_" + kind)(entry)
        if alive:
            # After any event with the stalker alive: the out-of-combat heal (Z-31).
            st = self._fight_state()
            _fighter_pre_fight_heal(self.content, st, self.used)
            self._take_back(st)
        return alive

    def _monster(self, group) -> bool:
        st = self._fight_state()
        res = fight_on_state(self.content, st, list(group["monsters"]), self.strategy["fight"],
                             self.streams[FIGHT_STALKER], self.streams[FIGHT_MONSTER],
                             self.streams[FIGHT_ESCAPE], self.used)
        self._take_back(st)
        if res["outcome"] == "win":
            per_hp = self.content["rules"]["market"]["trophy_price_per_hp"]
            group_hp = 0
            for monster_id in group["monsters"]:
                m = self.content["monsters"][monster_id]
                self.kills += 1
                self.carried.trophy_value += m.get("trophy_price", m["hp"] * per_hp)  # Z-42
                group_hp += m["hp"]
            # K-08: xp per max hp of every monster of the group won, then K-04 level-ups.
            self._gain_xp(self.progression["xp_per_monster_hp"] * group_hp)
            return True
        return res["outcome"] != "death"  # escape, draw: nothing more

    def _trap(self, trap) -> bool:
        dice = self.streams[TRAP]
        avoidance = [self.items["avoidance"][i] for i in self.carried.avoidance]
        if any(a.get("always", False) for a in avoidance):
            return True  # Z-30: torsion scanner, no roll
        a = min((x["avoid_on"] for x in avoidance), default=NO_AVOIDANCE_ON)
        threshold = trap["avoid_on"] - (NO_AVOIDANCE_ON - a)  # Z-30
        if dice.die(6) >= threshold:
            return True
        damage = max(0, dice.roll(trap["dice"], 6) + trap.get("bonus", 0) - self._defence())  # Z-39, Z-23
        self.hp -= damage
        return self._hit_survived()  # Z-08

    def _skill(self, event) -> bool:
        dice = self.streams[SKILL]
        value = self.content["journey"]["attributes"][event["attribute"]]  # K-08
        target = event["target"]
        passed = skill_test(dice, value, target, self.extra_one_fails)  # K-01..K-03
        if not passed and self.influence >= self.reroll_cost:  # K-06
            self.influence -= self.reroll_cost
            passed = skill_test(dice, value, target, self.extra_one_fails)
        if passed:
            return True
        self.hp -= dice.roll(event.get("damage_dice", 0), 6)  # no armour
        if not self._hit_survived():
            return False
        self.missed += event.get("missed_turns", 0)  # K-07
        return True

    def _find(self, find) -> bool:
        if find["kind"] == "money":
            self.carried.money += find["amount"]
        elif find["kind"] == "artefact":
            self.carried.artefact_value += find["amount"]
        else:
            raise ValueError(f"unknown find kind {find['kind']!r}")
        return True

    # ---- death (step 6; Z-08..Z-10) ------------------------------------

    def _death(self) -> None:
        self.deaths += 1
        self.deaths_at[self.hex] = self.deaths_at.get(self.hex, 0) + 1
        self.cache = LootCache(self.hex, self.carried)  # Z-10; an older cache is lost
        # Z-09: replacement at the start base, 500 G, reputation 0, nothing carried.
        self.carried = Carried(money=self.content["rules"]["stalker"]["replacement_money"])
        self.hex = self.start
        # Z-09, K-04: a new stalker: level 1, xp 0, the character's max hp, at full hp.
        self.level = 1
        self.xp = 0
        self.max_hp = self.character_max_hp
        self.hp = self.max_hp
        self.reputation = 0
        self.missed = 0
        # influence unchanged (K-06: it is the player's), and so are missions (K-04);
        # order k unchanged (it goes back to the deck, Z-09)

    # ---- arrival (step 5) ------------------------------------------------

    def _arrive(self, day: int, at_cache: bool) -> None:
        if at_cache:
            loot = self.cache.loot
            c = self.carried
            c.money += loot.money
            c.artefact_value += loot.artefact_value
            c.trophy_value += loot.trophy_value
            if loot.weapon is not None:
                c.weapon, c.mods = loot.weapon, list(loot.mods)
            if loot.head is not None:
                c.head = loot.head
            if loot.body is not None:
                c.body = loot.body
            _add_counts(c.healing, loot.healing)
            _add_counts(c.explosives, loot.explosives)
            if loot.escape_item is not None:
                c.escape_item = loot.escape_item
            c.movement += [i for i in loot.movement if i not in c.movement]
            c.avoidance += [i for i in loot.avoidance if i not in c.avoidance]
            self.cache = None
            return
        order = self.orders[self.k]
        self.carried.money += order["reward"]
        self.reputation += 1  # Z-41
        # Then K-06: Influence per order; K-08: xp per order, then K-04 level-ups.
        self.influence += self.progression["influence_per_order"]
        self._gain_xp(self.progression["xp_per_order"])
        self.orders_done += 1
        if self.first_order_day is None:
            self.first_order_day = day
        self.k += 1
        if self.k == len(self.orders):
            self.completed = True
            self.completion_day = day

    # ---- the campaign ------------------------------------------------------

    def run(self) -> dict:
        rules = self.content["rules"]
        base_budget = rules["stalker"]["step_budget"]  # Z-34
        if not self.orders:
            self.completed, self.completion_day = True, 0
        for day in range(1, self.days + 1):
            if self.completed:                 # 1.
                break
            if self.missed > 0:                # 2. K-07
                self.missed -= 1
                continue
            # 3. Z-25, Z-26, Z-34: the day's budgets, fixed for the day.
            penalty = self.orders[self.k].get("step_penalty", 0)
            extra = max((self.items["movement"][i]["steps"] for i in self.carried.movement), default=0)
            budget = base_budget + extra - penalty
            epicentre_limit = min(base_budget, budget)
            spent = 0
            while True:                        # 4.
                recovering = self.cache is not None and self.strategy.get("recover_loot", False)
                goal = self.cache.hex if recovering else self.map["points"][self.orders[self.k]["destination"]]
                if self.hex == goal:           # 4b / 5.
                    self._arrive(day, recovering)
                    if self.completed:
                        break
                    continue
                n = self.next_hop[goal].get(self.hex)
                if n is None:                  # unreachable goal: the day ends
                    break
                c = self.map["cost"][n]
                limit = epicentre_limit if self.map["epicentre"][n] else budget
                if spent + c > limit:          # 4c. Z-34, Z-35: leftover steps are lost
                    break
                spent += c                     # 4d.
                self.hex = n
                self.traffic[n] = self.traffic.get(n, 0) + 1
                if not self._event(n):
                    self._death()              # 6.
                    break
            if self.completed:
                break
        c = self.carried
        return {
            "completed": self.completed,
            "completion_day": self.completion_day,
            "orders_done": self.orders_done,
            "first_order_day": self.first_order_day,
            "deaths": self.deaths,
            "money": c.money,
            "kills": self.kills,
            "trophy_value": c.trophy_value,
            "artefact_value": c.artefact_value,
            "used": _nonzero(self.used),
            "traffic": _nonzero(self.traffic),
            "deaths_at": _nonzero(self.deaths_at),
            "level": min(self.level, MAX_LEVEL),  # K-04: levels past 12 are in missions
            "xp": self.xp,
            "missions": self.missions,
            "reputation": self.reputation,
            "influence": self.influence,
            "max_hp": self.max_hp,
            "hp": self.hp,
        }


def simulate_journey(content: dict, loadout: dict, strategy: dict, days: int, seed: int, trial: int,
                     tables=None) -> dict:
    """One trial; returns the spec's record (see the module docstring for extra keys).

    ``tables`` = route_tables(content, strategy["danger_weight"]) may be passed
    to skip recomputing them.
    """
    _check_loadout(content, loadout)
    _check_strategy(strategy)
    if tables is None:
        tables = route_tables(content, strategy["danger_weight"])
    return _Trial(content, loadout, strategy, days, seed, trial, tables).run()


def run_journeys(content: dict, loadout: dict, strategy: dict, days: int, seed: int, n_trials: int,
                 trial_start: int = 0) -> dict:
    """Trials trial_start .. trial_start + n_trials - 1, summed.

    Returns {"n_trials", "counts": {"completed", "survived"}, "completion_day":
    {day or None: n}, "orders_done": {n: count}, "first_order_day": {day or None: n},
    "deaths": {n: count}, "money", "money_sq", "kills", "trophy_value",
    "artefact_value" (sums), "used", "traffic", "deaths_at" (summed dicts),
    "levels" ({final level 1..12: count}, K-04), "missions" (sum, K-04)}.
    """
    _check_strategy(strategy)
    tables = route_tables(content, strategy["danger_weight"])
    out = {
        "n_trials": n_trials,
        "counts": {"completed": 0, "survived": 0},
        "completion_day": {}, "orders_done": {}, "first_order_day": {}, "deaths": {},
        "money": 0, "money_sq": 0, "kills": 0, "trophy_value": 0, "artefact_value": 0,
        "used": {}, "traffic": {}, "deaths_at": {}, "levels": {}, "missions": 0,
    }
    for trial in range(trial_start, trial_start + n_trials):
        res = simulate_journey(content, loadout, strategy, days, seed, trial, tables)
        out["counts"]["completed"] += int(res["completed"])
        out["counts"]["survived"] += int(res["deaths"] == 0)
        for key in ("completion_day", "orders_done", "first_order_day", "deaths"):
            out[key][res[key]] = out[key].get(res[key], 0) + 1
        out["levels"][res["level"]] = out["levels"].get(res["level"], 0) + 1  # K-04
        out["missions"] += res["missions"]
        out["money"] += res["money"]
        out["money_sq"] += res["money"] ** 2
        for key in ("kills", "trophy_value", "artefact_value"):
            out[key] += res[key]
        for key in ("used", "traffic", "deaths_at"):
            _add_counts(out[key], res[key])
    return out
