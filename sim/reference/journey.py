"""Reference journeys: the slow and obvious reading of docs/rules/journey-resolution.md.

A journey is one campaign of `days` days over the Zone hex map (rules Z-06,
Z-08..Z-13, Z-25..Z-30, Z-33..Z-42, K-01..K-08 of the rule catalogue, docs/rules/index.md): the stalker walks from
the start base to each order's destination in turn, an event is drawn on every
hex entered, fights are the fights of docs/rules/fight-resolution.md (reused from
``sim.reference.fight``) with streams that continue across the whole trial and
hp / items that persist; at bases he sells trophies and artefacts and rebuys
his starting kit from finite decks, and at each day's end the asset limit
discards cards (stage B; any card, K-05); events may give equipment cards, and the
helicopter call / space gate move him to a base (stage C); the order to take may
be the nearest (stage D); a won fight pays Influence and a shop buys surplus
equipment at half price (stage E); orders are cards of a deck, offered a few at a
time, held when completed and given back on a death, and the campaign's goal is a
number of cards held (stage G).  Plain Python on Python ints, stdlib
only; it exists to cross-check the fast kernel trial by trial, so every random
number is drawn from its stream in exactly the order the spec gives.

Random streams of a trial (keyed once per trial, never restarted):
    FIGHT_STALKER = 0, FIGHT_MONSTER = 1, FIGHT_ESCAPE = 2 (the fight's own
    STALKER / MONSTER / ESCAPE streams), EVENT = 3 (whole words: event kind and
    variant picks), TRAP = 4 (avoidance and damage dice), SKILL = 5 (skill-test
    and skill-damage dice), ORDERS = 6 (whole words: the order cards drawn
    from the deck, Z-41).

Public functions: ``load_journey_content``, ``route_tables``, ``pick``,
``weighted_choice``, ``skill_test``, ``fight_on_state``, ``item_index``,
``full_decks``, ``loadout_cards``, ``shop_settings``, ``military_base_hex``, ``asset_limit_setting``,
``sell_fraction_setting``, ``sell_price``, ``progression_settings``, ``order_deck_settings``, ``shopping_list``,
``location_hexes``, ``simulate_journey``, ``run_journeys``.

Readings of the spec made here (where it does not say):

* The loot cache (Z-10) holds everything the dead stalker had: money, artefact
  and trophy value, his owned cards (firearm, modifiers, armour, escape,
  movement and avoidance items) and his healing and explosive counts; a
  recovery adds all of them back (stage B "Ownership and what it gives").
* The day's budget and Epicentre limit (step 3) are computed once at the start
  of the day from the order and the cards held then; completing an order or
  buying a movement item in mid-day does not change them until the next day.
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
  completion_day = 0, and nothing is played.
* The per-trial record also carries "influence" at the end (an extra key, for
  tests); ``used``, ``traffic`` and ``deaths_at`` list only
  non-zero counts.  The stalker's `hp` in the loadout is ignored (a journey
  starts at max hp).
* A loadout's `reputation` of None means [stalker] start_reputation.

Progression (stage B "Progression (K-04, K-06)"):

* Missing [progression] xp_per_monster_hp / xp_per_order / influence_per_order
  are 0, and missing level_xp / level_hp / level_influence (all three absent)
  mean no levels at all: level 1 for ever, no missions (stage A content).  When
  given, the three lists must hold as many whole numbers >= 0 as level_xp, at
  least 2 (levels 2..top; the rulebook's 11 entries, levels 2..12, K-04) and
  level_xp must rise strictly from above 0 (as sim/content/journey.py checks).
* A won fight's xp is added once for the whole group, then the level-ups.
* ``missions`` counts every level past 12 reached in the trial, by any of its
  stalkers: a replacement (Z-09) starts again at level 1 / xp 0, but missions
  already completed stay counted (like Influence, they are the player's).
* The record's ``level`` and ``xp`` are the final stalker's (so a death resets
  them); ``level`` is capped at the top level (12), ``missions`` carries the rest.
* The per-trial record also carries "max_hp" and "hp" at the end (extra keys,
  for tests).  ``run_journeys``'s ``levels`` lists only levels that occurred.

Finite decks, shops, ownership, asset limit (stage B, Z-11, Z-12, Z-13, Z-40, K-05):

* Only a base listed in [shops] trades (Z-40): a base missing from [shops],
  or any base when journey.toml has no [shops] table, is no shop and nothing
  happens there (no sale, no purchase).  A listed base with an empty list
  still buys trophies and artefacts (step 1) but sells nothing.  A [shops]
  key that is not a base of the map, or an item id not in items.toml, raises
  ValueError.  No [progression] asset_limit: no limit.
* Decks (Z-11): items.toml `deck`, else rules [market] default_deck, minus the
  starting loadout's cards; a loadout needing more than a deck raises
  ValueError (the loadout checker refuses it earlier).  Cards come back to a
  deck only by a K-05 discard (later stages add a helicopter flight, Z-27, and
  a sale of surplus equipment, stage E): items used up in fights and heals, and
  the cards of a loot cache lost to a newer one (Z-10), are gone for the trial.
* Ownership: a modifier owned twice (after a recovery) counts once in the
  firearm bonus (the bonus sums the loadout's modifiers that are owned); it and
  every other card still count twice towards the asset limit.
* The shopping list's order: firearm, its modifiers (loadout order), body
  armour, head armour, escape item, movement items (loadout order), avoidance
  items (loadout order), healing items (loadout order), explosives (loadout
  order).  An entry is bought while the stalker's count of it (owned cards, or
  carried healing / explosive count) is below its wanted count (1 for a card,
  the loadout count for a consumable); "only if carrying no firearm / body
  armour / escape item" is that same test, since only the loadout's own item of
  a kind can ever be owned.  A modifier also needs the loadout firearm owned at
  that moment (a firearm bought earlier in the same visit counts).
* Z-18 (max_explosives) is checked on the starting loadout only: a recovered
  cache may push the explosives carried above it (the asset limit may then
  discard some at the day's end); the fight uses whatever is carried.
* The asset limit (K-05) runs at the end of every day played: a day ended by
  the day's steps, by a shop transaction, by a death (the replacement then
  owns nothing), and the day the trial stops because every order card is held
  (stage G); not on a missed day (K-07: a missed turn skips the asset limits).
  Days after that stop are not played.
* A stalker whose starting kit holds more cards than asset_limit, and who
  starts a day on a base, rebuys at that base what the limit discarded the
  evening before, which ends the day (Z-13): he may never leave.  That is the
  spec read literally; it is not worked around here.
* Extra per-trial keys (for tests): "owned" (owned cards, non-zero counts),
  "healing" and "explosives" (carried counts at the end, non-zero), "discarded"
  (K-05 discards, {item_id: n}) and "deck" (the decks at the end, every item).

Stage C: equipment finds (Z-11, Z-14), helicopter call and space gate (Z-25, Z-27, Z-28):

* A find of kind "item" is kept only if its deck has a card and the item's
  shopping-list entry wants more than he holds, with the shopping rules'
  counts (owned cards; carried healing / explosive counts).  A modifier is
  wanted only while the loadout firearm is owned, as in shopping.  Kept: +1,
  deck -1, and the kit is derived from the cards again at once (the day's
  budget stays fixed for the day, as for a purchase).  Not wanted: Z-14, the
  card goes straight back (nothing changes).  Empty deck: nothing.  The
  out-of-combat heal after the event then runs as after any event, so a found
  medkit may be used at once.  Extra per-trial key "found" ({item_id: n},
  the cards kept).
* Loadout "one_shot": a list of items.toml [one_shot] ids (each once); their
  cards are owned, on the shopping list after the avoidance items (loadout
  order, wanted 1), in the loot cache, counted by the asset limit (never
  discarded: not consumables), and bought only where [shops] lists them.
* The one-shot check runs at the start of every day played (after the K-07
  missed-day check, before the loop; so before the day's shop visit and
  before arriving at a goal already reached).  Owning means a count > 0 (a
  recovered cache may give two; one is used per day).  The helicopter needs
  journey.toml [journey] military_base (absent: it never flies; not a base of
  the map: ValueError).  The stalker is set on the base's hex, with no event
  and no traffic; the arrival (order reward or cache) happens next day in
  the loop's step (b).  A day ended this way is a day played: the asset
  limit runs.  Extra per-trial key "flights" ({item_id: n}, the uses).
* Z-28's "once per game" is the spec's reading: the used card leaves play
  (deck unchanged); other cards of its deck can still be bought or found.

Stage D: which order to take (strategy "order_choice"), among the cards offered (stage G):

* "listed" (the default, also when the key is absent): the card of the offer
  earliest in journey.toml order.  "nearest": the card of the offer whose
  destination d has the least dist[d][hex] (the strategy's route tables; hex =
  where the stalker stands), ties: the earliest in journey.toml order.  Any
  other value raises ValueError.
* An order is taken at the campaign's start (hex = the start base), right
  after each completed order (hex = that order's destination), before the loop
  goes on, so a next order whose destination is that same hex is completed at
  once; and after a death, by the replacement at the start base (stage G).
* A destination the route tables cannot reach from hex counts as farther than
  every reachable one (if none is reachable, the earliest in file order).

Stage E: Influence for wins (K-06), selling surplus equipment at half price (Z-12, Z-13):

* journey.toml [progression] influence_per_win (absent: 0; a whole number >= 0,
  else ValueError) is added once per fight won (a group of several monsters
  is one fight), right after the fight and before the xp of that win (so
  before its level-ups).  Escapes, draws and deaths pay nothing.
* Shop step 1b runs at every shop visit (at any base listed in [shops], also
  one whose own list is empty or does not hold the item: the base buys, it
  need not sell that item), after step 1 and before step 2.  For each
  shopping-list entry in list order, while the stalker's count (owned cards,
  or carried healing / explosive count) exceeds the entry's wanted count (1
  for a card, the loadout count for a consumable): money +=
  floor(price * sell_fraction), count -1, deck +1 (Z-11).  A modifier's
  wanted count is 1 whether or not the firearm is owned ("only while carrying
  that firearm" is a condition of buying, not of keeping): a modifier owned
  once is never sold, one owned twice sells one.  Surplus can only come from a
  recovered loot cache (purchases and finds stop at the wanted count).
* The price is items.toml `price`; sell_fraction is rules.toml [market]
  sell_fraction (a number >= 0; missing or otherwise: ValueError), taken as
  the exact decimal the file gives (0.5 is 1/2; 0.3 is 3/10, not the binary
  float just below it), so floor(price * sell_fraction) is exact.
* Any equipment sale counts as a trade: the day ends (Z-13), as for step 1.
  A card sold is not bought back in the same visit (the count is then at the
  wanted count).  Extra per-trial keys "sold" ({item_id: n}) and "sold_for"
  (G received for equipment; loot sales of step 1 are not in it).

Stage F: Influence buys wargear (K-06), the avoidance baseline from the content (Z-30):

* Shop step 2 pays an entry with money first and whole Influence points
  ([progression] influence_price G each; absent or 0: none) for the rest, no
  change given; "spent" counts G only.
* An "avoided on 4+" event's baseline is rules.toml [stalker] avoid_on.

Stage G: the order deck and the campaign's goal (Z-09, Z-12, Z-41):

* journey.toml [journey] order_offer (absent: 0, the whole deck) and
  goal_orders (absent: the number of [[orders]]) are whole numbers, order_offer
  >= 0 and 1 <= goal_orders <= the number of orders; anything else (a negative,
  a float, a bool, goal_orders 0 or above the number of orders) raises ValueError.
* The deck is the set of cards neither held nor active, taken in journey.toml
  order.  An offer smaller than the deck draws its cards one by one: card j is
  the pick(ORDERS, n - j)-th of the cards not drawn yet; an offer of the whole
  deck (order_offer 0 or >= n, also n = 0) draws no word.  The offer's other
  cards stay in the deck.
* A completion adds the card to the held cards; the trial stops when an order
  is completed and the deck is then empty (every card held), after that day's
  asset limit, as the old "campaign complete" stop did.  Reaching
  goal_orders sets completion_day (and "completed") once; play goes on.
* A death (Z-09) returns the held cards and the active one to the deck; the
  replacement (reputation 0, nothing held) takes an order at the start base
  after his setup.  ``orders_done`` counts every completion, cards completed
  again after a death too; ``reach_day[c - 1]`` is the day c cards were first
  held by any stalker of the trial (None if never), set once.
* wealth (Z-12) = money + trophy value + artefact value + count x
  floor(price x sell_fraction) for every owned card and carried healing and
  explosive item (the shop's step 1b price); loot caches count for nothing.
  Per-trial keys "orders_held", "wealth", "reach_day"; ``run_journeys`` adds
  "orders_held" ({cards held at the end: trials}), "orders_done_sum",
  "reputation_sum" and "wealth_sum".
"""

from __future__ import annotations

import heapq
import math
import os
import tomllib
from dataclasses import dataclass, field
from fractions import Fraction

from sim.reference.fight import (
    STRATEGIES,
    StalkerState,
    Stream,
    fighter_pre_fight_heal,
    fighter_target,
    load_content,
    monster_attack,
    outcome_record,
    prepare_monsters,
    prepare_stalker,
    stalker_attack,
    survives_hit,
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
ORDERS = 6  # Z-41: the order cards drawn from the deck
N_STREAMS = 7

ORDER_CHOICES = ("listed", "nearest")  # stage D: strategy "order_choice", the first is the default

# Z-39: event kinds, in the spec's order (the order of the weighted choice).
EVENT_KINDS = ("nothing", "monster", "trap", "skill", "find")
KIND_TABLE = {"monster": "monster_groups", "trap": "traps", "skill": "skill_events", "find": "finds"}

# Z-43 odd-r neighbour offsets (dcol, drow), by row parity, in the map's order (E, W, NW, NE, SW, SE).
# Read from the rules on their own, not from sim.hexgrid: the reference is an independent
# reading of the rules, so the cross-check catches a mistake in either.
_EVEN_ROW = ((1, 0), (-1, 0), (-1, -1), (0, -1), (-1, 1), (0, 1))
_ODD_ROW = ((1, 0), (-1, 0), (0, -1), (1, -1), (0, 1), (1, 1))

LEVEL_LISTS = ("level_xp", "level_hp", "level_influence")  # [progression], levels 2..12
POINTS_LIST = "level_points"  # [progression] attribute points of levels 2..12 (K-04); absent: none


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


def location_hexes(content: dict) -> set:
    """Z-29: the hexes inside a location: every site of the map and the hexes at
    most [journey] location_radius moves from it (0 if absent)."""
    m = content["map"]
    radius = content["journey"]["journey"].get("location_radius", 0)
    inside = set()
    for at in m["sites"].values():
        frontier = {at}
        inside.add(at)
        for _ in range(radius):
            frontier = {n for h in frontier for n in m["neighbours"][h]} - inside
            inside |= frontier
    return inside


# --------------------------------------------------------------------------
# Route tables (spec "Route tables")
# --------------------------------------------------------------------------


def hex_weight(content: dict, h, danger_weight: int, seek_danger: int = 0) -> int:
    """wt(h) = cost(h) + danger_weight * |danger(h) - seek_danger|: what entering h weighs."""
    m = content["map"]
    return m["cost"][h] + danger_weight * abs(m["danger"][h] - seek_danger)


def route_tables(content: dict, danger_weight: int, seek_danger: int = 0):
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
    wt = {h: hex_weight(content, h, danger_weight, seek_danger) for h in m["hexes"]}
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
    """What a stalker has (and what a loot cache holds, Z-10).

    ``owned``: the cards he owns, {item_id: count} (firearm, modifiers, armour,
    escape, movement and avoidance items; a recovered cache can make a count
    2).  ``healing`` / ``explosives``: the consumables carried, {item_id: count}.
    """

    money: int = 0
    artefact_value: int = 0
    trophy_value: int = 0
    owned: dict = field(default_factory=dict)
    healing: dict = field(default_factory=dict)
    explosives: dict = field(default_factory=dict)


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
    """Reject what the fight reference rejects, unknown movement / avoidance items,
    an item twice in a list, and a loadout needing more cards than a deck holds (Z-11)."""
    prepare_stalker(content, {**loadout, "reputation": 0, "hp": None})
    for key, table in (("movement", "movement"), ("avoidance", "avoidance"), ("one_shot", "one_shot"),
                       ("location", "location")):
        ids = list(loadout.get(key) or [])
        if len(set(ids)) != len(ids):
            raise ValueError(f"{key} item listed twice: {ids!r}")
        for item_id in ids:
            if item_id not in content["items"][table]:
                raise ValueError(f"unknown {table} item {item_id!r}")
    decks = full_decks(content)
    for item_id, n in loadout_cards(loadout).items():
        if n > decks[item_id]:  # Z-11: cards are finite
            raise ValueError(f"{item_id}: {n} cards in the loadout but its deck holds {decks[item_id]} (Z-11)")


# --------------------------------------------------------------------------
# Items, decks, shops, the shopping list (Z-11, Z-12, Z-40, K-05)
# --------------------------------------------------------------------------


def item_index(content: dict) -> dict:
    """{item_id: (table, position in items.toml order)} over every table of items.toml."""
    out = {}
    for table, entries in content["items"].items():
        if not isinstance(entries, dict):
            continue
        for item_id, entry in entries.items():
            if not isinstance(entry, dict):
                continue
            if item_id in out:
                raise ValueError(f"item id {item_id!r} appears in two tables of items.toml")
            out[item_id] = (table, len(out))
    return out


def full_decks(content: dict) -> dict:
    """Z-11: {item_id: items.toml `deck`, else rules [market] default_deck}."""
    default = content["rules"]["market"]["default_deck"]
    out = {}
    for item_id, (table, _) in item_index(content).items():
        out[item_id] = content["items"][table][item_id].get("deck", default)
    return out


def loadout_cards(loadout: dict) -> dict:
    """Every card of the loadout, {item_id: count}: one per firearm, modifier,
    armour piece, escape, movement, avoidance and one-shot item (Z-27, Z-28);
    the healing and explosive counts."""
    out = {}
    singles = [loadout.get("weapon"), *(loadout.get("mods") or []), loadout.get("head"), loadout.get("body"),
               loadout.get("escape_item"), *(loadout.get("movement") or []), *(loadout.get("avoidance") or []),
               *(loadout.get("one_shot") or []), *(loadout.get("location") or [])]
    pairs = [(i, 1) for i in singles if i is not None]
    pairs += list((loadout.get("healing") or {}).items()) + list((loadout.get("explosives") or {}).items())
    for item_id, n in pairs:
        out[item_id] = out.get(item_id, 0) + n
    return out


def shop_settings(content: dict) -> dict:
    """journey.toml [shops] checked (Z-40): {base_id: [item ids]} for the listed bases
    only (only they trade; {} without a [shops] table: no shops at all)."""
    shops = content["journey"].get("shops")
    if shops is None:
        return {}
    bases = content["map"]["bases"]
    index = item_index(content)
    for base_id, ids in shops.items():
        if base_id not in bases:
            raise ValueError(f"shops.{base_id}: not a base of the map (bases: {', '.join(bases)})")
        if not isinstance(ids, list):
            raise ValueError(f"shops.{base_id}: expected a list of item ids, got {ids!r}")
        for item_id in ids:
            if item_id not in index:
                raise ValueError(f"shops.{base_id}: unknown item {item_id!r}")
    return {base_id: list(ids) for base_id, ids in shops.items()}


def military_base_hex(content: dict):
    """journey.toml [journey] military_base's hex (Z-27), or None if absent."""
    base_id = content["journey"]["journey"].get("military_base")
    if base_id is None:
        return None
    bases = content["map"]["bases"]
    if base_id not in bases:
        raise ValueError(f"journey.military_base: {base_id!r} is not a base of the map "
                         f"(bases: {', '.join(bases)})")
    return bases[base_id]


def asset_limit_setting(content: dict):
    """[progression] asset_limit (K-05), or None if absent (no limit)."""
    value = content["journey"].get("progression", {}).get("asset_limit")
    return None if value is None else _whole(value, "asset_limit")


def sell_fraction_setting(content: dict) -> Fraction:
    """rules.toml [market] sell_fraction (Z-12) as the exact decimal the file gives."""
    value = content["rules"].get("market", {}).get("sell_fraction")
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not value >= 0 or math.isinf(value):
        raise ValueError(f"market.sell_fraction: expected a number >= 0, got {value!r}")
    return Fraction(repr(value))  # repr: the shortest decimal that reads back as the file's value


def sell_price(content: dict, item_id: str, fraction=None) -> int:
    """What a shop pays for one card of ``item_id`` (stage E): floor(price * sell_fraction)."""
    if fraction is None:
        fraction = sell_fraction_setting(content)
    table, _ = item_index(content)[item_id]
    return math.floor(content["items"][table][item_id]["price"] * fraction)


def shopping_list(loadout: dict) -> list:
    """The shopping list (stage B "Shopping at a base"): the starting loadout as
    [(item_id, kind, wanted)], kind "card" / "mod" / "healing" / "explosive",
    in buying order: firearm, modifiers, body, head, escape, movement,
    avoidance, one-shot items (stage C), healing items, explosives."""
    out = []
    weapon = loadout.get("weapon")
    if weapon is not None:
        out.append((weapon, "card", 1))
        out += [(m, "mod", 1) for m in loadout.get("mods") or []]
    for key in ("body", "head", "escape_item"):
        if loadout.get(key) is not None:
            out.append((loadout[key], "card", 1))
    out += [(i, "card", 1) for i in loadout.get("movement") or []]
    out += [(i, "card", 1) for i in loadout.get("avoidance") or []]
    out += [(i, "card", 1) for i in loadout.get("one_shot") or []]  # Z-27, Z-28
    out += [(i, "card", 1) for i in loadout.get("location") or []]  # Z-29
    out += [(i, "healing", n) for i, n in (loadout.get("healing") or {}).items()]
    out += [(i, "explosive", n) for i, n in (loadout.get("explosives") or {}).items()]
    return out


def _check_strategy(strategy: dict) -> None:
    if strategy.get("fight") not in STRATEGIES:
        raise ValueError(f"unknown fight strategy {strategy.get('fight')!r}")
    dw = strategy.get("danger_weight")
    if not isinstance(dw, int) or isinstance(dw, bool) or dw < 0:
        raise ValueError(f"danger_weight must be a non-negative int, got {dw!r}")
    choice = strategy.get("order_choice", ORDER_CHOICES[0])
    if choice not in ORDER_CHOICES:
        raise ValueError(f"unknown order_choice {choice!r} (expected one of {', '.join(ORDER_CHOICES)})")


# --------------------------------------------------------------------------
# One fight on a given state and given streams (docs/rules/fight-resolution.md "One fight")
# --------------------------------------------------------------------------


def fight_on_state(content: dict, stalker: StalkerState, monsters: list, strategy: str,
                   stalker_dice: Stream, monster_dice: Stream, escape_dice: Stream, used: dict) -> dict:
    """simulate_fight's body, on a prepared ``StalkerState`` (changed in place) and given streams.

    ``used`` is updated in place; returns {"outcome", "rounds", "hp_left", "used"}
    (the last: this fight's uses only).
    """
    plan = STRATEGIES[strategy]
    fight_rules = content["rules"]["fight"]
    foes = prepare_monsters(content, monsters)
    mine = {}

    # 1. Pre-fight heal, out of combat (Z-31).
    fighter_pre_fight_heal(content, stalker, mine)

    def done(outcome, rounds):
        _add_counts(used, mine)
        return outcome_record(outcome, rounds, stalker, mine)

    # 2. Escape (Z-32, Z-33): one roll before the first round, if the strategy tries.
    if plan.tries_escape:
        if stalker.reputation <= fight_rules["escape_auto_max"]:
            return done("escape", 0)
        if escape_dice.die(6) >= stalker.reputation:
            return done("escape", 0)

    # 3. Rounds (Z-38): the stalker attacks first, then each living monster in list order.
    max_rounds = fight_rules["max_rounds"]
    for r in range(1, max_rounds + 1):
        target = fighter_target(foes)
        stalker_attack(content, stalker, target, stalker_dice, mine)
        if not any(m.alive for m in foes):
            return done("win", r)
        for m in foes:
            if not m.alive:
                continue
            monster_attack(m, stalker, monster_dice)
            if stalker.hp <= 0 and not survives_hit(content, stalker, mine):
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


def _whole(value, what: str, table: str = "progression") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{table}.{what}: expected a whole number >= 0, got {value!r}")
    return value


def progression_settings(content: dict) -> dict:
    """journey.toml [progression]'s experience and level fields, checked.

    Returns {"xp_per_monster_hp", "xp_per_order", "influence_per_order",
    "influence_per_win" (stage E), "influence_price" (K-06) (0 if missing), "level_xp", "level_hp", "level_influence", "level_points"
    (lists for levels 2..12, or None if the first three are absent: no levels; level_points all 0 if absent)}.
    """
    progression = content["journey"].get("progression", {})
    out = {key: _whole(progression.get(key, 0), key)
           for key in ("xp_per_monster_hp", "xp_per_order", "influence_per_order", "influence_per_win",
                       "influence_price")}
    present = [name for name in LEVEL_LISTS if name in progression]
    if not present:
        return {**out, **{name: None for name in (*LEVEL_LISTS, POINTS_LIST)}}
    if len(present) != len(LEVEL_LISTS):
        raise ValueError(f"progression: {', '.join(LEVEL_LISTS)} go together, got only {', '.join(present)}")
    if not isinstance(progression["level_xp"], list) or len(progression["level_xp"]) < 2:
        raise ValueError(f"progression.level_xp: expected at least 2 numbers, got {progression['level_xp']!r}")
    n = len(progression["level_xp"])  # K-04: levels 2..n + 1 (the rulebook's 12)
    for name in (*LEVEL_LISTS, POINTS_LIST):
        values = progression.get(name, [0] * n)  # no attribute points unless given
        if not isinstance(values, list) or len(values) != n:
            raise ValueError(f"progression.{name}: expected {n} numbers (levels 2..{n + 1}), "
                             f"got {values!r}")
        out[name] = [_whole(v, name) for v in values]
    xp = out["level_xp"]
    if xp[0] <= 0 or any(b <= a for a, b in zip(xp, xp[1:])):
        raise ValueError(f"progression.level_xp: {xp} must rise strictly from above 0")
    return out


def order_deck_settings(content: dict) -> dict:
    """journey.toml [journey] order_offer and goal_orders (Z-41), checked.

    Returns {"order_offer": the cards looked at when taking an order (absent:
    0, the whole deck), "goal_orders": the cards held that reach the campaign's
    goal (absent: every [[orders]] card; 1 .. the number of orders)}.
    """
    settings = content["journey"]["journey"]
    n_orders = len(content["journey"].get("orders", []))
    offer = _whole(settings.get("order_offer", 0), "order_offer", "journey")
    goal = _whole(settings.get("goal_orders", n_orders), "goal_orders", "journey")
    if "goal_orders" in settings and not 1 <= goal <= n_orders:
        raise ValueError(f"journey.goal_orders: expected 1..{n_orders} (the [[orders]] cards), got {goal}")
    return {"order_offer": offer, "goal_orders": goal}


def level_threshold(settings: dict, level: int):
    """The total xp at which ``level`` (>= 2) is reached, or None with no levels (K-04).

    Levels 2..12: level_xp[level - 2]; level 12 + n (n >= 1): level_xp[-1] + n *
    (level_xp[-1] - level_xp[-2]), the last gap again.
    """
    xp = settings["level_xp"]
    if xp is None:
        return None
    top = top_level(settings)
    if level <= top:
        return xp[level - 2]
    return xp[-1] + (level - top) * (xp[-1] - xp[-2])


def top_level(settings: dict) -> int:
    """K-04: the last level of the track: level_xp holds levels 2..top (the rulebook's 12)."""
    return len(settings["level_xp"]) + 1 if settings["level_xp"] is not None else 1


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
        # Stage B: items in items.toml order, shops (Z-40), the asset limit (K-05).
        self.index = item_index(content)
        self.shops = shop_settings(content)
        self.base_at = {at: base_id for base_id, at in self.map["bases"].items()}
        self.asset_limit = asset_limit_setting(content)
        self.shopping = shopping_list(loadout)
        self.wants = {item_id: (kind, wanted) for item_id, kind, wanted in self.shopping}
        self.military_base = military_base_hex(content)  # Z-27
        self.sell_fraction = sell_fraction_setting(content)  # Z-12 (stage E)
        deck_settings = order_deck_settings(content)  # Z-41 (stage G)
        self.order_offer = deck_settings["order_offer"]
        self.goal_orders = deck_settings["goal_orders"]
        self.weapon = loadout.get("weapon")
        self.mods = list(loadout.get("mods") or [])
        self.locations = location_hexes(content)  # Z-29
        self.start_attributes = {k: v for k, v in journey["attributes"].items() if k != "assumed"}  # K-08

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
        self.attributes = dict(self.start_attributes)  # K-08, raised by level rewards (K-04)
        self.gate_used = False  # Z-28: once per game
        self.order_choice = strategy.get("order_choice", ORDER_CHOICES[0])  # stage D
        self.restock = strategy.get("restock", True)  # stage B: top the kit up at every base, or refit only
        self.refit = False                      # from a death until the replacement's kit is whole again
        # Z-41: the order deck holds every card (indices into self.orders); none is held yet.
        self.order_deck = set(range(len(self.orders)))
        self.held = []                          # the completed cards the stalker in play holds
        self.most_held = 0                      # the most cards held at any moment of the trial
        self.k = self._take_order()             # the active order (None: nothing left to do)
        # The starting stalker owns the loadout's cards and carries its consumables.
        cards = loadout_cards(loadout)
        consumable = {**dict.fromkeys(loadout.get("healing") or {}), **dict.fromkeys(loadout.get("explosives") or {})}
        self.carried = Carried(
            money=rules["stalker"]["start_money"] + character.get("money_bonus", 0),  # Z-04, Z-07
            owned={i: n for i, n in cards.items() if i not in consumable},
            healing=dict(loadout.get("healing") or {}),
            explosives=dict(loadout.get("explosives") or {}),
        )
        # Z-11: this trial's decks start at the full decks minus the starting loadout's cards.
        self.deck = full_decks(content)
        for item_id, n in cards.items():
            self.deck[item_id] -= n
        self.caches = []  # Z-10: a LootCache per hex where a stalker died, oldest first

        # Record.
        self.completion_day = None
        self.reach_day = [None] * len(self.orders)  # the day c = 1, 2, ... cards were first held
        self.orders_done = 0
        self.first_order_day = None
        self.deaths = 0
        self.kills = 0
        self.missions = 0  # K-04: levels past 12
        self.used = {}
        self.traffic = {}
        self.deaths_at = {}
        self.purchases = {}  # Z-40: {item_id: cards bought}
        self.spent = 0       # G paid in shops
        self.discarded = {}  # K-05: {item_id: cards discarded at the asset limit}
        self.found = {}      # Z-11: {item_id: cards found and kept}
        self.flights = {}    # Z-27, Z-28: {item_id: one-shot cards used}
        self.sold = {}       # Z-12 (stage E): {item_id: surplus cards sold}
        self.sold_for = 0    # G received for them

    # ---- the order deck (Z-41) -------------------------------------------

    def _take_order(self):
        """Z-41: take an order at self.hex: the strategy's card of the offer leaves the
        deck and is returned (the active order); None if the deck is empty."""
        offer = self._offer()
        if not offer:
            return None
        k = self._choose_order(offer)
        self.order_deck.remove(k)
        return k

    def _offer(self) -> list:
        """Z-41: the cards looked at, in journey.toml order: the whole deck if order_offer is 0
        or not below the deck's size (no draw), else order_offer cards drawn one by one, each
        the pick(ORDERS, n - j)-th of the deck's cards not drawn yet."""
        undrawn = sorted(self.order_deck)
        n = len(undrawn)
        if self.order_offer == 0 or self.order_offer >= n:
            return undrawn
        return sorted(undrawn.pop(pick(self.streams[ORDERS], n - j)) for j in range(self.order_offer))

    def _choose_order(self, offer: list) -> int:
        """Stage D: the strategy's card of the offer (listed in journey.toml order): "listed",
        the first; "nearest", the least dist[d][hex] (unreachable: after every reachable one),
        ties: the first."""
        if self.order_choice == "listed":
            return offer[0]
        points = self.map["points"]

        def key(i):
            d = self.dist[points[self.orders[i]["destination"]]].get(self.hex)
            return (d is None, d if d is not None else 0, i)

        return min(offer, key=key)

    def _hold(self, k: int, day: int) -> None:
        """Z-41: a completed card joins the held ones; the days of the counts held first
        (reach_day) and of the campaign's goal (completion_day, goal_orders cards held)."""
        self.held.append(k)
        held = len(self.held)
        for c in range(self.most_held + 1, held + 1):
            self.reach_day[c - 1] = day
        self.most_held = max(self.most_held, held)
        if held == self.goal_orders and self.completion_day is None:
            self.completion_day = day

    def _wealth(self) -> int:
        """Z-12: money, trophy and artefact value, and every owned card and carried healing
        and explosive item at the shop's price (step 1b); loot caches are not his."""
        c = self.carried
        cards = sum(n * self._sell_value(item_id)
                    for counts in (c.owned, c.healing, c.explosives) for item_id, n in counts.items())
        return c.money + c.trophy_value + c.artefact_value + cards

    # ---- ownership (stage B "Ownership and what it gives") -------------

    def _owns(self, item_id) -> bool:
        return item_id is not None and self.carried.owned.get(item_id, 0) > 0

    def _active(self, key: str):
        """The loadout's item of slot ``key`` (weapon, head, body, escape_item) if owned, else None."""
        item_id = self.loadout.get(key)
        return item_id if self._owns(item_id) else None

    def _active_list(self, key: str) -> list:
        """The loadout's modifiers / movement / avoidance items that are owned (loadout order, once each)."""
        return [i for i in self.loadout.get(key) or [] if self._owns(i)]

    def _fight_state(self) -> StalkerState:
        """The current stalker as the fight reference's StalkerState: firearm, modifiers,
        armour and escape item derived from the owned cards, among the loadout's only."""
        c = self.carried
        weapon = self._active("weapon")
        st = prepare_stalker(self.content, {
            "character": self.character_id, "weapon": weapon,
            "mods": self._active_list("mods") if weapon is not None else [],  # Z-21: the bonus needs the firearm
            "head": self._active("head"), "body": self._active("body"), "healing": dict(c.healing),
            "explosives": {}, "escape_item": self._active("escape_item"),
            "reputation": self.reputation, "hp": self.hp,
        })
        st.explosives = dict(c.explosives)  # Z-18 is checked on the starting loadout only
        st.max_hp = self.max_hp  # K-04: the levelled max hp caps every heal
        return st

    def _take_back(self, st: StalkerState) -> None:
        self.hp = st.hp
        self.carried.healing = dict(st.healing)
        self.carried.explosives = dict(st.explosives)

    def _defence(self) -> int:
        """Z-23, Z-24: head + body."""
        d = 0
        for armour_id in (self._active("head"), self._active("body")):
            if armour_id is not None:
                d += self.items["armour"][armour_id]["defence"]
        return d

    def _movement_steps(self) -> int:
        """Z-25: the largest `steps` of the owned loadout movement items (0 if none)."""
        return max((self.items["movement"][i]["steps"] for i in self._active_list("movement")), default=0)

    def _hit_survived(self) -> bool:
        """After a trap or skill hit: if hp <= 0, the Z-08 death check (fighter's rescue)."""
        if self.hp > 0:
            return True
        st = self._fight_state()
        alive = survives_hit(self.content, st, self.used)
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
            if self.level > top_level(p):
                self.missions += 1  # K-04: past level 12, a completed mission instead of rewards
                continue
            # K-04 rewards, top to bottom: max hp (and hp by the same), then Influence (K-06).
            gain = p["level_hp"][self.level - 2]
            self.max_hp += gain
            self.hp = min(self.max_hp, self.hp + gain)
            self.influence += p["level_influence"][self.level - 2]
            # attribute points, one by one to the lowest attribute (the first listed on ties)
            for _ in range(p["level_points"][self.level - 2]):
                lowest = min(self.attributes, key=lambda name: (self.attributes[name],
                                                                  list(self.attributes).index(name)))
                self.attributes[lowest] += 1

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
        if alive and self.missed == 0:
            # After any event with the stalker alive, unless a missed turn ended the day (K-07):
            # the out-of-combat heal (Z-31).
            st = self._fight_state()
            fighter_pre_fight_heal(self.content, st, self.used)
            self._take_back(st)
        return alive

    def _monster(self, group) -> bool:
        st = self._fight_state()
        res = fight_on_state(self.content, st, list(group["monsters"]), self.strategy["fight"],
                             self.streams[FIGHT_STALKER], self.streams[FIGHT_MONSTER],
                             self.streams[FIGHT_ESCAPE], self.used)
        self._take_back(st)
        if res["outcome"] == "win":
            self.influence += self.progression["influence_per_win"]  # K-06 (stage E), before the xp
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
        avoidance = [self.items["avoidance"][i] for i in self._active_list("avoidance")]
        if any(a.get("always", False) for a in avoidance):
            return True  # Z-30: torsion scanner, no roll
        baseline = self.content["rules"]["stalker"]["avoid_on"]  # an "avoided on 4+" event with no item
        a = min((x["avoid_on"] for x in avoidance), default=baseline)
        threshold = trap["avoid_on"] - (baseline - a)  # Z-30
        if dice.die(6) >= threshold:
            return True
        damage = max(0, dice.roll(trap["dice"], 6) + trap.get("bonus", 0) - self._defence())  # Z-39, Z-23
        self.hp -= damage
        return self._hit_survived()  # Z-08

    def _skill(self, event) -> bool:
        dice = self.streams[SKILL]
        value = self.attributes[event["attribute"]]  # K-08: this stalker's, levelled (K-04)
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
        elif find["kind"] == "item":
            self._find_item(find["item"])
        else:
            raise ValueError(f"unknown find kind {find['kind']!r}")
        return True

    def _wanted(self, item_id: str) -> bool:
        """Whether the shopping list wants one more of ``item_id`` (as in shopping)."""
        if item_id not in self.wants:
            return False
        if item_id == "space_gate" and self.gate_used:
            return False                       # Z-28: out of the game
        kind, wanted = self.wants[item_id]
        if kind == "mod" and not self._owns(self.weapon):
            return False                       # a modifier only while carrying its firearm
        return self._count(item_id, kind) < wanted

    def _find_item(self, item_id: str) -> None:
        """Z-11: an equipment card from its deck; kept if wanted, else Z-14: straight back."""
        if item_id not in self.deck:
            raise ValueError(f"find of unknown item {item_id!r}")
        if self.deck[item_id] <= 0:
            return                             # an empty deck: nothing
        if not self._wanted(item_id):
            return                             # Z-14: back to the deck, nothing changes
        self.deck[item_id] -= 1
        kind, _ = self.wants[item_id]
        c = self.carried
        if kind == "healing":
            c.healing[item_id] = c.healing.get(item_id, 0) + 1
        elif kind == "explosive":
            c.explosives[item_id] = c.explosives.get(item_id, 0) + 1
        else:
            c.owned[item_id] = c.owned.get(item_id, 0) + 1  # the kit is derived from owned cards
        self.found[item_id] = self.found.get(item_id, 0) + 1

    # ---- helicopter call and space gate (Z-27, Z-28) -------------------------

    def _goal(self):
        """Step (a): (goal hex, the cache recovered there or None). Z-10: with caches
        and recover_loot, the cache nearest by dist from here (the oldest on ties)."""
        if self.caches and self.strategy.get("recover_loot", False):
            nearest = min(self.caches, key=lambda c: (self.dist[c.hex][self.hex], self.caches.index(c)))
            return nearest.hex, nearest
        return self.map["points"][self.orders[self.k]["destination"]], None

    def _one_shot(self) -> bool:
        """Start of a day played: fly by helicopter (Z-27) or use the space gate (Z-28);
        returns whether the day ended that way."""
        goal, _ = self._goal()
        if self.hex == goal:
            return False
        c = self.carried
        if self._owns("helicopter_call") and goal == self.military_base:
            self.hex = goal                    # no event, no traffic
            c.owned["helicopter_call"] -= 1
            self.deck["helicopter_call"] += 1  # Z-27: the card returns to the deck
            self.flights["helicopter_call"] = self.flights.get("helicopter_call", 0) + 1
            return True
        if self._owns("space_gate") and not self.gate_used and goal in self.base_at:
            self.hex = goal
            c.owned["space_gate"] -= 1         # Z-28: removed from play, the deck unchanged
            self.gate_used = True              # once per game: never used, bought or found again
            self.flights["space_gate"] = self.flights.get("space_gate", 0) + 1
            return True
        return False

    # ---- death (step 6; Z-08..Z-10) ------------------------------------

    def _death(self) -> None:
        self.deaths += 1
        self.deaths_at[self.hex] = self.deaths_at.get(self.hex, 0) + 1
        # Z-10: money, trophies, artefacts, owned cards and carried counts stay here, on top of
        # what an earlier death left on this hex; caches on other hexes stay where they are.
        here = [c for c in self.caches if c.hex == self.hex]
        if here:
            loot, dead = here[0].loot, self.carried
            loot.money += dead.money
            loot.artefact_value += dead.artefact_value
            loot.trophy_value += dead.trophy_value
            for mine, theirs in ((loot.owned, dead.owned), (loot.healing, dead.healing),
                                 (loot.explosives, dead.explosives)):
                _add_counts(mine, theirs)
        else:
            self.caches.append(LootCache(self.hex, self.carried))
        # Z-09: replacement at the start base, 500 G, reputation 0, owning and carrying nothing;
        # Z-11: the decks stay as they are.
        self.carried = Carried(money=self.content["rules"]["stalker"]["replacement_money"])
        self.hex = self.start
        self.refit = True  # he buys the kit again at the bases (stage B), whether or not the player restocks
        # Z-09, K-04: a new stalker: level 1, xp 0, the character's max hp, at full hp.
        self.level = 1
        self.xp = 0
        self.attributes = dict(self.start_attributes)
        self.max_hp = self.character_max_hp  # Z-06: Verzila's max hp stays; the levels' gains go
        self.hp = self.max_hp
        self.reputation = 0
        self.missed = 0
        # influence unchanged (K-06: it is the player's), and so are missions (K-04).
        # Z-09: the dead stalker's order cards, the active one too, go back to the deck;
        # the replacement takes an order at the start base (Z-41).
        self.order_deck.update(self.held)
        self.order_deck.add(self.k)
        self.held = []
        self.k = self._take_order()

    # ---- arrival (step 5) ------------------------------------------------

    def _arrive(self, day: int, cache) -> None:
        if cache is not None:
            loot = cache.loot
            c = self.carried
            c.money += loot.money
            c.artefact_value += loot.artefact_value
            c.trophy_value += loot.trophy_value
            _add_counts(c.owned, loot.owned)  # a card may now be owned twice
            _add_counts(c.healing, loot.healing)
            _add_counts(c.explosives, loot.explosives)
            self.caches = [other for other in self.caches if other is not cache]
            return
        order = self.orders[self.k]
        self.carried.money += order["reward"]
        self.reputation += 1  # Z-41
        # Then K-06: Influence per order; K-08: xp per order, then K-04 level-ups.
        self.influence += self.progression["influence_per_order"]
        self._gain_xp(self.progression["xp_per_order"])
        self.orders_done += 1                  # every completion, also of a card completed again
        if self.first_order_day is None:
            self.first_order_day = day
        self._hold(self.k, day)
        self.k = self._take_order()            # Z-41: at the destination just reached; None: every card held

    # ---- shopping at a base (Z-11, Z-12, Z-13, Z-40) ------------------------

    def _count(self, item_id: str, kind: str) -> int:
        """The stalker's count of a shopping-list entry: carried consumables, or owned cards."""
        c = self.carried
        if kind == "healing":
            return c.healing.get(item_id, 0)
        if kind == "explosive":
            return c.explosives.get(item_id, 0)
        return c.owned.get(item_id, 0)

    def _sell_value(self, item_id: str) -> int:
        """Z-12: what a shop pays for one card of ``item_id``: floor(price * sell_fraction)."""
        table, _ = self.index[item_id]
        return math.floor(self.items[table][item_id]["price"] * self.sell_fraction)

    def _shop(self, base_id: str) -> bool:
        """One shop visit at base ``base_id``; returns whether anything was sold or bought."""
        c = self.carried
        traded = False
        # 1. Sell (Z-12, Z-40): trophies for their price (Z-42), artefacts for their value.
        if c.trophy_value + c.artefact_value > 0:
            c.money += c.trophy_value + c.artefact_value
            c.trophy_value = 0
            c.artefact_value = 0
            traded = True
        # 1b. Sell surplus equipment (stage E, Z-12): every entry held above its wanted count, one card
        #     at a time, for floor(price * sell_fraction); the card goes back to its deck (Z-11).
        for item_id, kind, wanted in self.shopping:
            value = self._sell_value(item_id)
            while self._count(item_id, kind) > wanted:
                counts = c.healing if kind == "healing" else c.explosives if kind == "explosive" else c.owned
                counts[item_id] -= 1
                self.deck[item_id] += 1
                c.money += value
                self.sold[item_id] = self.sold.get(item_id, 0) + 1
                self.sold_for += value
                traded = True
        # 2. Buy the shopping list in order, each entry once per visit (repeated while all holds);
        #    a stalker who does not restock buys only to refit a replacement (Z-09).
        if not (self.restock or self.refit):
            return traded
        sells = self.shops[base_id]
        for item_id, kind, wanted in self.shopping:
            if item_id not in sells:           # Z-40: this base's own list
                continue
            if kind == "mod" and not self._owns(self.weapon):
                continue                       # a modifier only while carrying its firearm
            if item_id == "space_gate" and self.gate_used:
                continue                       # Z-28: out of the game once used
            table, _ = self.index[item_id]
            price = self.items[table][item_id]["price"]
            while (self.deck[item_id] > 0      # Z-11: finite decks
                   and self._count(item_id, kind) < wanted):
                # K-06: Influence buys wargear: money pays first, whole Influence points
                # (influence_price G each) pay the rest; no change is given for them.
                short, rate = price - c.money, self.progression["influence_price"]
                points = 0 if short <= 0 else -(-short // rate) if rate > 0 else None
                if points is None or points > self.influence:
                    break
                paid = max(0, price - points * rate)
                self.influence -= points
                c.money -= paid
                self.deck[item_id] -= 1
                if kind == "healing":
                    c.healing[item_id] = c.healing.get(item_id, 0) + 1
                elif kind == "explosive":
                    c.explosives[item_id] = c.explosives.get(item_id, 0) + 1
                else:
                    c.owned[item_id] = c.owned.get(item_id, 0) + 1  # worn / carried at once
                self.purchases[item_id] = self.purchases.get(item_id, 0) + 1
                self.spent += paid
                traded = True
        if self.refit and not any(self._count(item_id, kind) < wanted for item_id, kind, wanted in self.shopping
                                  if not (kind == "mod" and not self._owns(self.weapon))
                                  and not (item_id == "space_gate" and self.gate_used)):
            self.refit = False                 # the replacement's kit is whole again
        return traded                          # Z-13: any buy or sell ends the day

    # ---- the asset limit (K-05) ---------------------------------------------

    def _asset_limit(self) -> None:
        """K-05, end of a day: while the cards carried exceed asset_limit, any card may
        go (back to its deck). Strategy: a card held beyond its wanted count on the
        shopping list (it gives nothing: one active) goes first, else any card; the
        cheapest first (ties: the later in items.toml order)."""
        if self.asset_limit is None:
            return
        c = self.carried
        while sum(c.owned.values()) + sum(c.healing.values()) + sum(c.explosives.values()) > self.asset_limit:
            held = [(counts, item_id) for counts in (c.owned, c.healing, c.explosives)
                    for item_id, n in counts.items() if n > 0]
            surplus = [(counts, item_id) for counts, item_id in held
                       if counts[item_id] > self.wants.get(item_id, (None, 0))[1]]

            def key(pair):
                table, position = self.index[pair[1]]
                return self.items[table][pair[1]]["price"], -position

            counts, item_id = min(surplus or held, key=key)
            counts[item_id] -= 1
            self.deck[item_id] += 1            # Z-11: the card goes back to its deck
            self.discarded[item_id] = self.discarded.get(item_id, 0) + 1

    # ---- the campaign ------------------------------------------------------

    def _day(self, day: int) -> bool:
        """Steps 2..6 of one day, with the stage B shop visit (b') and the stage C one-shot
        move before the loop; False for a day that ends with no asset limit (K-07: a
        missed day, or one that a missed turn cut short)."""
        if self.missed > 0:                    # 2. K-07
            self.missed -= 1
            return False
        if self._one_shot():                   # Z-27, Z-28: the day ends (the asset limit still runs)
            return True
        # 3. Z-25, Z-26, Z-29, Z-34: the day's budgets, fixed for the day.
        base_budget = self.content["rules"]["stalker"]["step_budget"]
        penalty = self.orders[self.k].get("step_penalty", 0)
        budget = base_budget + self._movement_steps() - penalty
        epicentre_limit = min(base_budget, budget)
        location_steps = max((self.items["location"][i]["steps"] for i in self._active_list("location")), default=0)
        spent = 0
        while True:                            # 4.
            # (a) goal
            goal, cache = self._goal()
            # (b) arrive (step 5), then go on
            if self.hex == goal:
                self._arrive(day, cache)
                if self.k is None:             # every order card held: the trial stops
                    return True
                continue
            # (b') Z-12, Z-40: on a base, shop; Z-13: a sale or a purchase ends the day.
            if self.base_at.get(self.hex) in self.shops:  # only a base listed in [shops] trades
                if self._shop(self.base_at[self.hex]):
                    return True
            # (c) next hop / day-end check
            n = self.next_hop[goal].get(self.hex)
            if n is None:                      # unreachable goal: the day ends
                return True
            c = self.map["cost"][n]
            if self.map["epicentre"][n]:
                if spent + c > epicentre_limit:  # Z-26: only base steps pay
                    return True
                spent += c
            else:
                # Z-29: entering a location hex, the flashlight / goggles steps pay first
                extra = min(location_steps, c) if n in self.locations else 0
                if spent + c - extra > budget:  # Z-34, Z-35: leftover steps are lost
                    return True
                spent += c - extra
                location_steps -= extra
            # (d) move, event (with (e) its heal), death
            self.hex = n
            self.traffic[n] = self.traffic.get(n, 0) + 1
            if not self._event(n):
                self._death()                  # 6.
                return True
            if self.missed > 0:                # K-07: the day ends at once, with no asset limit
                return False

    def run(self) -> dict:
        if not self.orders:
            self.completion_day = 0            # no goal to reach: complete at once
        for day in range(1, self.days + 1):
            if self.k is None:                 # 1. no active order: nothing is left to do
                break
            if self._day(day):
                self._asset_limit()            # K-05: at the end of every day played (K-07: not a missed one)
        c = self.carried
        record = {
            "completed": self.completion_day is not None,
            "completion_day": self.completion_day,
            "orders_done": self.orders_done,        # completions (Z-09: a card may be completed again)
            "orders_held": len(self.held),          # Z-41
            "reach_day": list(self.reach_day),
            "wealth": self._wealth(),               # Z-12
            "first_order_day": self.first_order_day,
            "deaths": self.deaths,
            "money": c.money,
            "kills": self.kills,
            "trophy_value": c.trophy_value,
            "artefact_value": c.artefact_value,
            "used": _nonzero(self.used),
            "traffic": _nonzero(self.traffic),
            "deaths_at": _nonzero(self.deaths_at),
            "level": min(self.level, top_level(self.progression)),  # K-04: levels past the top are missions
            "xp": self.xp,
            "missions": self.missions,
            "reputation": self.reputation,
            "influence": self.influence,
            "max_hp": self.max_hp,
            "hp": self.hp,
            "purchases": _nonzero(self.purchases),   # Z-40
            "spent": self.spent,
            # extra keys, for tests
            "owned": _nonzero(c.owned),
            "healing": _nonzero(c.healing),
            "explosives": _nonzero(c.explosives),
            "discarded": _nonzero(self.discarded),   # K-05
            "deck": dict(self.deck),                 # Z-11
            "caches": {cache.hex: cache.loot.money for cache in self.caches},  # Z-10: money left per hex
            "attributes": dict(self.attributes),     # K-08, K-04
            "gate_used": self.gate_used,             # Z-28
            "found": _nonzero(self.found),           # Z-11, Z-14: find cards kept
            "flights": _nonzero(self.flights),       # Z-27, Z-28: one-shot cards used
            "sold": _nonzero(self.sold),             # Z-12 (stage E): surplus cards sold
            "sold_for": self.sold_for,               # G received for them
        }
        return record


def simulate_journey(content: dict, loadout: dict, strategy: dict, days: int, seed: int, trial: int,
                     tables=None) -> dict:
    """One trial; returns the spec's record, with stage B's "purchases" ({item_id: n})
    and "spent" (G), and stage G's "orders_held", "wealth" and "reach_day" (see the
    module docstring for extra keys).

    ``tables`` = route_tables(content, strategy["danger_weight"], strategy.get("seek_danger", 0)) may be passed
    to skip recomputing them.
    """
    _check_loadout(content, loadout)
    _check_strategy(strategy)
    if tables is None:
        tables = route_tables(content, strategy["danger_weight"], strategy.get("seek_danger", 0))
    return _Trial(content, loadout, strategy, days, seed, trial, tables).run()


def run_journeys(content: dict, loadout: dict, strategy: dict, days: int, seed: int, n_trials: int,
                 trial_start: int = 0) -> dict:
    """Trials trial_start .. trial_start + n_trials - 1, summed.

    Returns {"n_trials", "counts": {"completed" (the goal reached), "survived"},
    "completion_day": {day or None: n}, "orders_done": {completions: count},
    "orders_held": {cards held at the end: count} (Z-41), "first_order_day": {day or None: n},
    "deaths": {n: count}, "money", "money_sq", "kills", "trophy_value",
    "artefact_value", "orders_done_sum", "reputation_sum", "wealth_sum" (sums, Z-12),
    "used", "traffic", "deaths_at" (summed dicts),
    "levels" ({final level 1..12: count}, K-04), "missions" (sum, K-04),
    "purchases" ({item_id: cards bought}, summed, Z-40), "spent" (G paid in shops, summed)}.
    """
    _check_strategy(strategy)
    tables = route_tables(content, strategy["danger_weight"], strategy.get("seek_danger", 0))
    out = {
        "n_trials": n_trials,
        "counts": {"completed": 0, "survived": 0},
        "completion_day": {}, "orders_done": {}, "orders_held": {}, "first_order_day": {}, "deaths": {},
        "money": 0, "money_sq": 0, "kills": 0, "trophy_value": 0, "artefact_value": 0,
        "orders_done_sum": 0, "reputation_sum": 0, "wealth_sum": 0,
        "used": {}, "traffic": {}, "deaths_at": {}, "levels": {}, "missions": 0,
        "purchases": {}, "spent": 0,
    }
    for trial in range(trial_start, trial_start + n_trials):
        res = simulate_journey(content, loadout, strategy, days, seed, trial, tables)
        out["counts"]["completed"] += int(res["completed"])
        out["counts"]["survived"] += int(res["deaths"] == 0)
        for key in ("completion_day", "orders_done", "orders_held", "first_order_day", "deaths"):
            out[key][res[key]] = out[key].get(res[key], 0) + 1
        out["levels"][res["level"]] = out["levels"].get(res["level"], 0) + 1  # K-04
        out["missions"] += res["missions"]
        out["money"] += res["money"]
        out["money_sq"] += res["money"] ** 2
        for key in ("kills", "trophy_value", "artefact_value"):
            out[key] += res[key]
        for key in ("orders_done", "reputation", "wealth"):
            out[key + "_sum"] += res[key]
        out["spent"] += res["spent"]
        for key in ("used", "traffic", "deaths_at", "purchases"):
            _add_counts(out[key], res[key])
    return out
