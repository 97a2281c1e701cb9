"""Tests of the plain-Python reference journey (sim.reference.journey) on its own.

Each test is named by the rule id it checks (docs/rules/index.md) or by `rng` / `route` /
`aggregate` for the contract of docs/journey-resolution.md.  Small hand-made
maps and journey files are written into tmp_path (a copy of the default
content with journey.toml and the map replaced); expected values are computed
by hand or from the raw random streams, never by the code under test.
"""

import shutil
from pathlib import Path

import pytest

from sim.reference.fight import MASK, Stream, simulate_fight, stream_word
from sim.reference.journey import (
    EVENT,
    ORDERS,
    SKILL,
    TRAP,
    load_journey_content,
    pick,
    progression_settings,
    route_tables,
    run_journeys,
    simulate_journey,
    weighted_choice,
)
from tests.conftest import toml_value

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "sim" / "content" / "default"
SEED = 2024
FIGHTER = {"fight": "fighter", "danger_weight": 0, "recover_loot": True}


def loadout(**kw):
    base = {
        "character": "novice", "weapon": None, "mods": [], "head": None, "body": None,
        "healing": {}, "explosives": {}, "escape_item": None, "reputation": None,
        "movement": [], "avoidance": [],
    }
    base.update(kw)
    return base


# --------------------------------------------------------------------------
# Hand-made content
# --------------------------------------------------------------------------


def _tables(name, entries):
    out = []
    for e in entries:
        out.append(f"[[{name}]]")
        out += [f"{k} = {toml_value(v)}" for k, v in e.items()]
        out.append("")
    return out


def make_content(tmp_path, terrain, danger=None, bases=(("cordon", (0, 0)),), sites=(("target", (-1, 0)),),
                 orders=({"id": "o1", "destination": "target", "reward": 1000, "step_penalty": 0},),
                 events=None, groups=(), traps=(), skills=(), finds=(), progression=None,
                 attributes=None, monsters_extra="", name="c", shops=None, items=None, military_base=None,
                 location_radius=None, journey=None):
    """A copy of the default content with a hand-made journey.toml and map.

    ``terrain`` / ``danger``: lists of row strings.  A site at col -1 means
    the last column of row 0.  ``events``: kind -> 10 weights (missing kinds 0;
    default: nothing everywhere).  ``shops``: base id -> item ids ([shops];
    None: no [shops] table).  ``items``: item id -> {field: value}, edits of
    the copied items.toml.  ``military_base``: [journey] military_base (None: absent).
    ``journey``: more [journey] keys ({key: value}).
    """
    folder = tmp_path / name
    shutil.copytree(DEFAULT_DIR, folder)
    if items:
        edit_items(folder / "items.toml", items)
    width = len(terrain[0].split())
    if danger is None:
        danger = [" ".join("0" * width) for _ in terrain]
    map_lines = ['[map]', 'name = "test"', 'terrain = """', *terrain, '"""', 'danger = """', *danger, '"""', ""]
    map_lines += _tables("bases", [{"id": i, "at": list(at)} for i, at in bases])
    fixed_sites = [(i, (width - 1 if at[0] == -1 else at[0], at[1])) for i, at in sites]
    map_lines += _tables("sites", [{"id": i, "at": list(at), "kind": "artefact"} for i, at in fixed_sites])
    (folder / "maps" / "test.toml").write_text("\n".join(map_lines))

    ev = {"nothing": [100] * 10}
    if events is not None:
        ev = dict(events)
    prog = {"influence_start": 3, "reroll_cost": 1, "extra_one_fails": False, **(progression or {})}
    attrs = {"strength": 2, "agility": 2, "perception": 2, "will": 2, **(attributes or {})}
    lines = ["[journey]", 'map = "test"', f'start_base = "{bases[0][0]}"', "max_group = 4",
             *([f'military_base = "{military_base}"'] if military_base else []),
             *([f"location_radius = {location_radius}"] if location_radius is not None else []),
             *[f"{k} = {toml_value(v)}" for k, v in (journey or {}).items()], "",
             "[progression]", *[f"{k} = {toml_value(v)}" for k, v in prog.items()], "",
             "[attributes]", *[f"{k} = {toml_value(v)}" for k, v in attrs.items()], "",
             "[events]", *[f"{k} = {toml_value(v)}" for k, v in ev.items()], ""]
    if shops is not None:
        lines += ["[shops]", *[f"{k} = {toml_value(v)}" for k, v in shops.items()], ""]
    lines += _tables("monster_groups", groups)
    lines += _tables("traps", traps)
    lines += _tables("skill_events", skills)
    lines += _tables("finds", finds)
    lines += _tables("orders", orders)
    (folder / "journey.toml").write_text("\n".join(lines))
    if monsters_extra:
        with open(folder / "monsters.toml", "a") as f:
            f.write("\n" + monsters_extra + "\n")
    return load_journey_content(folder)


def edit_items(path, edits):
    """Set fields of items in an items.toml file: {item_id: {field: value}} (text edit)."""
    lines = path.read_text().splitlines()
    for item_id, fields in edits.items():
        start = next(i for i, line in enumerate(lines)
                     if line.startswith("[") and line.strip().strip("[]").split(".")[-1] == item_id)
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("[")), len(lines))
        for key, value in fields.items():
            at = next((i for i in range(start + 1, end) if lines[i].split("=")[0].strip() == key), None)
            if at is None:
                lines.insert(start + 1, f"{key} = {toml_value(value)}")
                end += 1
            else:
                lines[at] = f"{key} = {toml_value(value)}"
    path.write_text("\n".join(lines) + "\n")


def level(n, weight=100):
    """Event weights: `weight` at danger n only."""
    w = [0] * 10
    w[n] = weight
    return w


@pytest.fixture(scope="module")
def default_content():
    return load_journey_content(DEFAULT_DIR)


@pytest.fixture(scope="module")
def default_tables(default_content):
    return route_tables(default_content, 1)


# --------------------------------------------------------------------------
# Random numbers
# --------------------------------------------------------------------------


def test_rng_pick_takes_a_whole_word_and_leaves_the_dice_buffer():
    key = 0x0123456789ABCDEF
    s = Stream.from_key(key)
    w1 = stream_word(key, 1)
    first_die = s.die(6)
    assert first_die == ((w1 * 6) >> 64) + 1
    # pick takes word 2 whole...
    assert pick(s, 1000) == (stream_word(key, 2) * 1000) >> 64
    # ...and the next die is still the second base-6 digit of word 1.
    rest = (w1 * 6) & MASK
    assert s.die(6) == ((rest * 6) >> 64) + 1


def test_z39_weighted_choice_first_running_sum_above_r():
    key = 987654321
    s = Stream.from_key(key)
    weights = [0, 3, 0, 2, 5]
    for n in range(1, 200):
        r = (stream_word(key, n) * 10) >> 64
        expected = 1 if r < 3 else (3 if r < 5 else 4)
        assert weighted_choice(s, weights) == expected


# --------------------------------------------------------------------------
# Map and route tables
# --------------------------------------------------------------------------


def test_z43_neighbours_are_hexmap_odd_r_order(default_content):
    from sim.content.maps import default_map_path, load_map

    hexmap = load_map(default_map_path())
    m = default_content["map"]
    assert (m["width"], m["height"]) == (hexmap.width, hexmap.height)
    for h in m["hexes"]:
        assert m["neighbours"][h] == hexmap.neighbours(*h)
        assert m["cost"][h] == int(hexmap.cost[h[1], h[0]])
        assert m["danger"][h] == int(hexmap.danger[h[1], h[0]])
        assert m["epicentre"][h] == bool(hexmap.epicentre[h[1], h[0]])
    assert m["bases"]["cordon"] == (4, 14)
    assert m["sites"]["red_forest"] == (12, 10)


def test_route_tables_tiny_map_by_hand(tmp_path):
    # row 0: R F W   costs 1 2 3       odd-r: (0,1) touches (0,0), (1,0), (1,1);
    # row 1: S R M   costs 4 1 5              (1,1) touches (2,1), (0,1), (1,0), (2,0).
    c = make_content(tmp_path, ["R F W", "S R M"], danger=["0 0 0", "0 3 0"],
                     sites=(("target", (2, 1)),))
    g = (2, 1)
    dist, hop = route_tables(c, 0)
    assert dist[g] == {(2, 1): 0, (1, 1): 5, (2, 0): 5, (1, 0): 6, (0, 1): 6, (0, 0): 8}
    assert hop[g] == {(1, 1): (2, 1), (2, 0): (2, 1), (1, 0): (1, 1), (0, 1): (1, 1), (0, 0): (1, 0)}
    # danger_weight 2: the road (1,1) with danger 3 weighs 1 + 6 = 7.
    dist, hop = route_tables(c, 2)
    assert dist[g] == {(2, 1): 0, (1, 1): 5, (2, 0): 5, (1, 0): 8, (0, 1): 10, (0, 0): 10}
    assert hop[g][(1, 0)] == (2, 0)
    assert hop[g][(0, 1)] == (1, 0)
    assert hop[g][(0, 0)] == (1, 0)


def test_route_next_hop_ties_take_the_first_neighbour(tmp_path):
    # (1,1) reaches (0,0) through (0,1) or (1,0), both weigh 1 + 1: neighbours order says (0,1).
    c = make_content(tmp_path, ["R R", "R R"], sites=(("target", (1, 1)),))
    dist, hop = route_tables(c, 0)
    assert c["map"]["neighbours"][(1, 1)] == [(0, 1), (1, 0)]
    assert dist[(0, 0)][(1, 1)] == 2
    assert hop[(0, 0)][(1, 1)] == (0, 1)


@pytest.mark.parametrize("dw", [0, 3])
def test_route_tables_match_bellman_ford_on_default_map(default_content, dw):
    m = default_content["map"]
    dist, hop = route_tables(default_content, dw)
    wt = {h: m["cost"][h] + dw * m["danger"][h] for h in m["hexes"]}
    for g in (m["bases"]["cordon"], m["bases"]["military_base"], (17, 2), (0, 15)):
        d = {h: 10**9 for h in m["hexes"]}
        d[g] = 0
        changed = True
        while changed:
            changed = False
            for h in m["hexes"]:
                for n in m["neighbours"][h]:
                    if wt[n] + d[n] < d[h]:
                        d[h] = wt[n] + d[n]
                        changed = True
        assert dist[g] == d
        for h in m["hexes"]:
            if h == g:
                continue
            values = [wt[n] + d[n] for n in m["neighbours"][h]]
            assert hop[g][h] == m["neighbours"][h][values.index(min(values))]


# --------------------------------------------------------------------------
# Pure movement (danger 0 everywhere: every event is nothing)
# --------------------------------------------------------------------------

LINE = ["R F F W R S F R"]  # entering cols 1..7 costs 2 2 3 1 4 2 1


def test_z34_z35_pure_movement_days_by_hand(tmp_path):
    c = make_content(tmp_path, LINE)
    # 6 steps a day: day 1 cols 1-2 (4, W would make 7); day 2 cols 3-4 (4, S would make 8);
    # day 3 cols 5-6 (6); day 4 col 7.  Leftover steps are lost (Z-34).
    res = simulate_journey(c, loadout(), FIGHTER, 10, SEED, 0)
    assert res["completed"] and res["completion_day"] == 4
    assert res["orders_done"] == 1 and res["first_order_day"] == 4
    assert res["deaths"] == 0 and res["deaths_at"] == {}
    assert res["traffic"] == {(i, 0): 1 for i in range(1, 8)}
    assert res["money"] == 1000 + 1000
    short = simulate_journey(c, loadout(), FIGHTER, 3, SEED, 0)
    assert not short["completed"] and short["completion_day"] is None and short["orders_done"] == 0
    assert short["traffic"] == {(i, 0): 1 for i in range(1, 7)}


def test_z25_movement_item_adds_steps(tmp_path):
    c = make_content(tmp_path, LINE)
    # 7 steps a day: day 1 cols 1-3 (7); day 2 cols 4-6 (7); day 3 col 7.
    res = simulate_journey(c, loadout(movement=["zone_map"]), FIGHTER, 10, SEED, 0)
    assert res["completion_day"] == 3
    # only the largest item counts (one active, no stacking): 6 + 3 = 9 a day.
    res = simulate_journey(c, loadout(movement=["zone_map", "jetpack"]), FIGHTER, 10, SEED, 0)
    # day 1: 2 2 3 1 (8, S would make 12); day 2: 4 2 1.
    assert res["completion_day"] == 2


def test_z26_epicentre_paid_by_base_steps_only(tmp_path):
    c = make_content(tmp_path, ["R R R E R"])
    jet = loadout(movement=["jetpack"])
    # jetpack: 9 steps, but E (5) only if spent + 5 <= 6: day 1 stops at col 2 (2 + 5 = 7 > 6).
    assert simulate_journey(c, jet, FIGHTER, 5, SEED, 0)["completion_day"] == 2
    f = make_content(tmp_path, ["R R R M R"], name="m")  # the same cost-5 hex, not Epicentre
    assert simulate_journey(f, jet, FIGHTER, 5, SEED, 0)["completion_day"] == 1
    # 9 steps never cross two Epicentre hexes in a day.
    two = make_content(tmp_path, ["R E E R"], name="two")
    assert simulate_journey(two, jet, FIGHTER, 5, SEED, 0)["completion_day"] == 2


def test_z26_step_penalty_lowers_the_epicentre_limit(tmp_path):
    orders = ({"id": "o1", "destination": "target", "reward": 100, "step_penalty": 2},)
    c = make_content(tmp_path, ["R E R"], orders=orders)
    # budget 6 - 2 = 4 < 5: the Epicentre hex is never entered, whatever the jetpack (limit min(6, 7) = 6).
    assert not simulate_journey(c, loadout(), FIGHTER, 5, SEED, 0)["completed"]
    assert simulate_journey(c, loadout(movement=["jetpack"]), FIGHTER, 5, SEED, 0)["completion_day"] == 1


def test_z41_order_pays_and_adds_reputation(tmp_path):
    orders = ({"id": "there", "destination": "target", "reward": 1000, "step_penalty": 0},
              {"id": "back", "destination": "cordon", "reward": 500, "step_penalty": 1})
    c = make_content(tmp_path, LINE, orders=orders)
    res = simulate_journey(c, loadout(reputation=2), FIGHTER, 20, SEED, 0)
    # out: days 1-4 as above, arriving on day 4 with 1 step spent; back (entering cols 6..0
    # costs 2 4 1 3 2 2 1): day 4 (budget 6, fixed at the day's start): col 6 (3);
    # day 5 (6 - 1 = 5): cols 5, 4 (5); day 6: cols 3, 2 (5); day 7: cols 1, 0.
    assert res["completed"] and res["completion_day"] == 7
    assert res["first_order_day"] == 4 and res["orders_done"] == 2
    assert res["money"] == 1000 + 1000 + 500
    assert res["reputation"] == 2 + 2
    partial = simulate_journey(c, loadout(), FIGHTER, 5, SEED, 0)
    assert (partial["orders_done"], partial["first_order_day"], partial["completed"]) == (1, 4, False)
    assert partial["money"] == 2000 and partial["reputation"] == 1


def test_z04_mazhor_starts_with_bonus_money(tmp_path):
    c = make_content(tmp_path, ["R R"])
    assert simulate_journey(c, loadout(character="mazhor"), FIGHTER, 2, SEED, 0)["money"] == 2000 + 1000


# --------------------------------------------------------------------------
# Skill events (K-01..K-03, K-06, K-07)
# --------------------------------------------------------------------------

EIGHT = ["R R R R R R R R"]
SKILL_DANGER = ["0 1 0 0 0 0 0 0"]


def skill_content(tmp_path, target, missed=1, damage=0, influence=0, extra_one_fails=False, name="s"):
    skills = ({"id": "test", "attribute": "agility", "target": target, "damage_dice": damage,
               "missed_turns": missed, "min_danger": 1, "max_danger": 1, "weight": 1},)
    return make_content(tmp_path, EIGHT, danger=SKILL_DANGER, events={"nothing": level(0), "skill": level(1)},
                        skills=skills, progression={"influence_start": influence, "extra_one_fails": extra_one_fails},
                        name=name)


def test_k07_missed_turn_skips_a_day(tmp_path):
    # target 100 always fails: day 1 cols 1-6 (col 1 fails, missed 1), day 2 missed, day 3 col 7.
    c = skill_content(tmp_path, 100, missed=1)
    assert simulate_journey(c, loadout(), FIGHTER, 10, SEED, 0)["completion_day"] == 3
    c2 = skill_content(tmp_path, 100, missed=2, name="s2")
    assert simulate_journey(c2, loadout(), FIGHTER, 10, SEED, 0)["completion_day"] == 4
    c0 = skill_content(tmp_path, 100, missed=0, name="s0")
    assert simulate_journey(c0, loadout(), FIGHTER, 10, SEED, 0)["completion_day"] == 2


def _skill_dice(trial, n=4):
    s = Stream(SEED, trial, SKILL)
    return [s.die(6) for _ in range(n)]


def test_k01_k02_skill_score_against_target(tmp_path):
    # agility 2, target 7: pass iff the first die is 5 or 6 (a 6 always passes).
    c = skill_content(tmp_path, 7)
    for trial in range(60):
        d = _skill_dice(trial)
        res = simulate_journey(c, loadout(), FIGHTER, 10, SEED, trial)
        assert res["completion_day"] == (2 if d[0] >= 5 else 3)


@pytest.mark.parametrize("extra_one_fails", [False, True])
def test_k03_critical_six_rolls_again(tmp_path, extra_one_fails):
    # target 9: only a first 6 can pass (6 + 2 + extra >= 9); an extra 1 fails only with extra_one_fails.
    c = skill_content(tmp_path, 9, extra_one_fails=extra_one_fails)
    seen_pass = 0
    for trial in range(150):
        d = _skill_dice(trial)
        passed = d[0] == 6 and not (extra_one_fails and d[1] == 1)
        seen_pass += passed
        assert simulate_journey(c, loadout(), FIGHTER, 10, SEED, trial)["completion_day"] == (2 if passed else 3)
    assert seen_pass > 0


def test_k06_influence_buys_one_reroll(tmp_path):
    c = skill_content(tmp_path, 7, influence=1)
    for trial in range(60):
        d = _skill_dice(trial)
        first_pass = d[0] >= 5
        passed = first_pass or d[1] >= 5  # the re-roll's die follows in the SKILL stream
        res = simulate_journey(c, loadout(), FIGHTER, 10, SEED, trial)
        assert res["completion_day"] == (2 if passed else 3)
        assert res["influence"] == (1 if first_pass else 0)


def test_k07_skill_damage_ignores_armour(tmp_path):
    # target 100 always fails, influence 0: one test, then 1d6 damage with no armour (defence 6 here
    # would stop any d6); the medkit (+5) is used after the event iff at least 5 hp are missing.
    c = skill_content(tmp_path, 100, missed=0, damage=1)
    lo = loadout(head="sphere_helmet", body="exoskeleton", healing={"medkit": 1})
    healed = 0
    for trial in range(40):
        s = Stream(SEED, trial, SKILL)
        last = s.die(6)      # the test's dice: a first die, one more while the last is a 6
        while last == 6:
            last = s.die(6)
        damage = s.die(6)    # then the damage die
        res = simulate_journey(c, lo, FIGHTER, 10, SEED, trial)
        assert res["used"] == ({"medkit": 1} if damage >= 5 else {})
        assert res["completion_day"] == 2 and res["deaths"] == 0
        healed += damage >= 5
    assert healed > 0


# --------------------------------------------------------------------------
# Traps (Z-30, Z-39, Z-08)
# --------------------------------------------------------------------------

def trap_content(tmp_path, avoid_on=4, dice=0, bonus=100, name="t"):
    traps = ({"id": "pit", "dice": dice, "bonus": bonus, "avoid_on": avoid_on,
              "min_danger": 1, "max_danger": 9, "weight": 1},)
    return make_content(tmp_path, ["R R R"], danger=["0 1 0"], events={"nothing": level(0), "trap": level(1)},
                        traps=traps, name=name)


def test_z39_trap_avoidance_roll_is_the_first_trap_die(tmp_path):
    c = trap_content(tmp_path)
    deaths = 0
    for trial in range(80):
        die = Stream(SEED, trial, TRAP).die(6)
        res = simulate_journey(c, loadout(), FIGHTER, 1, SEED, trial)
        assert res["deaths"] == (1 if die < 4 else 0)
        assert res["completed"] == (die >= 4)
        deaths += res["deaths"]
    assert 0 < deaths < 80


def test_z30_torsion_scanner_avoids_every_trap(tmp_path):
    c = trap_content(tmp_path, avoid_on=7)  # threshold 7: never avoided by a roll
    none = run_journeys(c, loadout(), FIGHTER, 1, SEED, 30)
    assert none["deaths"] == {1: 30}
    scanner = run_journeys(c, loadout(avoidance=["torsion_scanner"]), FIGHTER, 1, SEED, 30)
    assert scanner["deaths"] == {0: 30} and scanner["counts"]["completed"] == 30


def test_z30_dosimeter_and_nuts_lower_the_threshold(tmp_path):
    c = trap_content(tmp_path, avoid_on=3)  # "avoided on 3+": dosimeter 1+, nuts 2+
    assert run_journeys(c, loadout(avoidance=["dosimeter"]), FIGHTER, 1, SEED, 40)["deaths"] == {0: 40}
    for trial in range(60):
        die = Stream(SEED, trial, TRAP).die(6)
        nuts = simulate_journey(c, loadout(avoidance=["bag_of_nuts"]), FIGHTER, 1, SEED, trial)
        assert nuts["deaths"] == (1 if die < 2 else 0)
        both = simulate_journey(c, loadout(avoidance=["bag_of_nuts", "dosimeter"]), FIGHTER, 1, SEED, trial)
        assert both["deaths"] == 0  # the best item counts


@pytest.mark.parametrize("baseline, fatal_below", [(4, 1), (3, 2)])
def test_z30_item_thresholds_are_stated_against_the_content_baseline(tmp_path, baseline, fatal_below):
    """A dosimeter (avoid_on 2) lowers an "avoided on 3+" trap by baseline - 2:
    to 1 (never fatal) against the rulebook's 4, to 2 against a baseline of 3."""
    trap_content(tmp_path, avoid_on=3)
    rules = tmp_path / "t" / "rules.toml"
    rules.write_text(rules.read_text().replace("avoid_on = 4 ", f"avoid_on = {baseline} ", 1))
    c = load_journey_content(tmp_path / "t")
    dice = [Stream(SEED, trial, TRAP).die(6) for trial in range(40)]
    assert 1 in dice
    for trial, die in enumerate(dice):
        res = simulate_journey(c, loadout(avoidance=["dosimeter"]), FIGHTER, 1, SEED, trial)
        assert res["deaths"] == (1 if die < fatal_below else 0)


def test_z23_trap_damage_dice_minus_armour(tmp_path):
    # never avoided (threshold 7); 2d6 + 0 - 3 (helmet + vest) damage; a medkit heals afterwards if 5 fit.
    c = trap_content(tmp_path, avoid_on=7, dice=2, bonus=0)
    for trial in range(40):
        s = Stream(SEED, trial, TRAP)
        s.die(6)  # the avoidance roll
        damage = max(0, s.die(6) + s.die(6) - 3)
        res = simulate_journey(c, loadout(head="helmet", body="vest", healing={"medkit": 2}), FIGHTER, 1, SEED, trial)
        assert res["deaths"] == 0
        assert res["used"] == ({"medkit": 1} if damage >= 5 else {})


def test_z08_trap_hit_rescued_by_stimulators(tmp_path):
    kit = loadout(healing={"stimulator": 2, "combat_stimulator": 1})
    # 25 - 28 = -3: one item suffices; the smallest total healing is one stimulator (+4).
    c = trap_content(tmp_path, avoid_on=7, bonus=28)
    res = simulate_journey(c, kit, FIGHTER, 1, SEED, 0)
    assert res["deaths"] == 0 and res["completed"]
    assert res["used"] == {"stimulator": 1}
    # 25 - 30 = -5: one combat stimulator (+8) rather than two stimulators.
    c1 = trap_content(tmp_path, avoid_on=7, bonus=30, name="t1")
    res = simulate_journey(c1, kit, FIGHTER, 1, SEED, 0)
    assert res["deaths"] == 0 and res["used"] == {"combat_stimulator": 1}
    # 25 - 40 = -15: all stimulators together (+16) still save him only if they reach 1: 4 + 4 + 8 = 16 >= 16.
    c2 = trap_content(tmp_path, avoid_on=7, bonus=40, name="t2")
    res = simulate_journey(c2, kit, FIGHTER, 1, SEED, 0)
    assert res["deaths"] == 0 and res["used"] == {"stimulator": 2, "combat_stimulator": 1}
    c3 = trap_content(tmp_path, avoid_on=7, bonus=41, name="t3")
    res = simulate_journey(c3, kit, FIGHTER, 1, SEED, 0)
    assert res["deaths"] == 1 and res["used"] == {}


# --------------------------------------------------------------------------
# Death, replacement, loot cache (Z-08..Z-10)
# --------------------------------------------------------------------------


def cache_content(tmp_path, name="cache"):
    # col 2: a deadly pit avoided on 4+; col 4: a scratch never avoided, 6 damage.
    traps = ({"id": "pit", "dice": 0, "bonus": 100, "avoid_on": 4, "min_danger": 1, "max_danger": 1, "weight": 1},
             {"id": "scratch", "dice": 0, "bonus": 6, "avoid_on": 7, "min_danger": 2, "max_danger": 2, "weight": 1})
    return make_content(tmp_path, ["R R R R R R"], danger=["0 0 1 0 2 0"],
                        events={"nothing": level(0), "trap": [0, 100, 100, 0, 0, 0, 0, 0, 0, 0]},
                        traps=traps, name=name)


def die_then_live_trial():
    """A trial whose first TRAP die dies at the pit (< 4) and whose second passes it (>= 4)."""
    for trial in range(500):
        s = Stream(SEED, trial, TRAP)
        if s.die(6) < 4 and s.die(6) >= 4:
            return trial
    raise AssertionError("no such trial")


RICH = dict(weapon="berdanka", mods=["zeroing"], head="helmet", healing={"medkit": 2},
            explosives={"molotov": 1}, reputation=3, movement=["zone_map"])


def test_z09_replacement_has_500_and_nothing(tmp_path):
    c = cache_content(tmp_path)
    trial = die_then_live_trial()
    no_recover = {**FIGHTER, "recover_loot": False}
    day1 = simulate_journey(c, loadout(**RICH), no_recover, 1, SEED, trial)
    assert day1["deaths"] == 1 and day1["deaths_at"] == {(2, 0): 1}
    assert day1["money"] == 500 and day1["reputation"] == 0 and day1["influence"] == 3
    assert day1["traffic"] == {(1, 0): 1, (2, 0): 1}
    # day 2: the replacement (6 steps, no zone map) passes the pit, takes 6 from the scratch
    # (no helmet) and has no medkit; the cache is left where it lies.
    res = simulate_journey(c, loadout(**RICH), no_recover, 2, SEED, trial)
    assert res["completed"] and res["completion_day"] == 2 and res["deaths"] == 1
    assert res["money"] == 500 + 1000 and res["used"] == {} and res["reputation"] == 1
    assert res["traffic"] == {(1, 0): 2, (2, 0): 2, (3, 0): 1, (4, 0): 1, (5, 0): 1}


def test_z10_replacement_recovers_the_cache(tmp_path):
    c = cache_content(tmp_path)
    trial = die_then_live_trial()
    res = simulate_journey(c, loadout(**RICH), FIGHTER, 2, SEED, trial)
    # the cache at (2,0) gives back 1000 G, the helmet (scratch 6 - 1 = 5) and the medkits (one used).
    assert res["completed"] and res["completion_day"] == 2
    assert res["deaths"] == 1 and res["deaths_at"] == {(2, 0): 1}
    assert res["money"] == 500 + 1000 + 1000
    assert res["used"] == {"medkit": 1}


def test_z08_deadly_trap_every_day_without_recovery(tmp_path):
    c = trap_content(tmp_path, avoid_on=7)
    res = simulate_journey(c, loadout(), FIGHTER, 5, SEED, 0)
    # each day the stalker enters (1,0) and dies: 5 deaths, each at (1,0); the day ends at each.
    assert res["deaths"] == 5 and res["deaths_at"] == {(1, 0): 5} and res["traffic"] == {(1, 0): 5}
    assert res["money"] == 500 and not res["completed"]


# --------------------------------------------------------------------------
# Monsters and finds (Z-39, Z-33, Z-42)
# --------------------------------------------------------------------------


def monster_content(tmp_path, monsters, name="mon", extra=""):
    groups = ({"monsters": list(monsters), "min_danger": 1, "max_danger": 1, "weight": 1},)
    return make_content(tmp_path, ["R R R"], danger=["0 1 0"], events={"nothing": level(0), "monster": level(1)},
                        groups=groups, monsters_extra=extra, name=name)


@pytest.mark.parametrize("strategy", ["fighter", "runner"])
def test_z39_first_fight_is_the_reference_fight(tmp_path, strategy):
    c = monster_content(tmp_path, ["bloodsucker"])
    lo = loadout(weapon="berdanka", mods=["rifling"], healing={"stimulator": 2}, explosives={"molotov": 1},
                 reputation=3)
    fight_lo = {k: v for k, v in lo.items() if k not in ("movement", "avoidance")}
    outcomes = set()
    for trial in range(60):
        ref = simulate_fight(c, fight_lo, ["bloodsucker"], strategy, SEED, trial)
        res = simulate_journey(c, lo, {**FIGHTER, "fight": strategy}, 1, SEED, trial)
        outcomes.add(ref["outcome"])
        assert res["deaths"] == (ref["outcome"] == "death")
        assert res["kills"] == (ref["outcome"] == "win")
        assert res["trophy_value"] == (20 * 20 if ref["outcome"] == "win" else 0)
        assert res["used"] == ref["used"]
    assert "death" in outcomes and len(outcomes) >= 2


def test_z42_trophies_counted_per_monster(tmp_path):
    extra = "[rat]\nhp = 1\ndice = 1\nbonus = 0\ndefence = 0\n\n[golden_rat]\nhp = 1\ndice = 1\ntrophy_price = 777\n"
    c = monster_content(tmp_path, ["rat", "golden_rat"], extra=extra)
    # a berdanka never misses a 1-hp rat with defence 0: round 1 kills the rat, round 2 the golden rat.
    res = simulate_journey(c, loadout(weapon="berdanka"), FIGHTER, 1, SEED, 0)
    assert res["kills"] == 2 and res["trophy_value"] == 20 + 777


def test_z33_runner_with_low_reputation_never_fights(tmp_path):
    c = monster_content(tmp_path, ["chimera"])
    res = run_journeys(c, loadout(), {**FIGHTER, "fight": "runner"}, 1, SEED, 30)
    assert res["deaths"] == {0: 30} and res["kills"] == 0 and res["counts"]["completed"] == 30


def test_z39_finds_add_money_and_artefacts(tmp_path):
    finds = ({"id": "stash", "kind": "money", "amount": 150, "min_danger": 1, "max_danger": 1, "weight": 1},
             {"id": "art", "kind": "artefact", "amount": 800, "min_danger": 2, "max_danger": 2, "weight": 1})
    c = make_content(tmp_path, ["R R R R"], danger=["0 1 2 0"],
                     events={"nothing": level(0), "find": [0, 5, 5, 0, 0, 0, 0, 0, 0, 0]}, finds=finds)
    res = simulate_journey(c, loadout(), FIGHTER, 1, SEED, 0)
    assert res["money"] == 1000 + 150 + 1000 and res["artefact_value"] == 800


def test_z39_event_kind_draw_uses_event_words(tmp_path):
    # danger 1: nothing 1, trap 1 (deadly, never avoided): the kind is the first EVENT word's pick.
    traps = ({"id": "pit", "dice": 0, "bonus": 100, "avoid_on": 7, "min_danger": 1, "max_danger": 1, "weight": 1},)
    c = make_content(tmp_path, ["R R R"], danger=["0 1 0"],
                     events={"nothing": [100, 1, 0, 0, 0, 0, 0, 0, 0, 0], "trap": level(1, 1)}, traps=traps)
    for trial in range(40):
        key = Stream(SEED, trial, EVENT).key
        # word 1: the kind at (1,0); the trap's variant would take word 2.
        kind = (stream_word(key, 1) * 2) >> 64
        res = simulate_journey(c, loadout(), FIGHTER, 1, SEED, trial)
        assert res["deaths"] == kind


# --------------------------------------------------------------------------
# Determinism and aggregates on the default content
# --------------------------------------------------------------------------

DEFAULT_LOADOUT = loadout(weapon="ak47", mods=["rebored"], head="helmet", body="leather_jacket",
                          healing={"medkit": 2, "stimulator": 1}, explosives={"molotov": 1},
                          escape_item="smoke_bomb", movement=["zone_map"], avoidance=["bag_of_nuts"])
DEFAULT_STRATEGY = {"fight": "fighter", "danger_weight": 1, "recover_loot": True}


def test_determinism_same_seed_same_result(default_content, default_tables):
    for trial in range(5):
        a = simulate_journey(default_content, DEFAULT_LOADOUT, DEFAULT_STRATEGY, 30, SEED, trial, default_tables)
        b = simulate_journey(default_content, DEFAULT_LOADOUT, DEFAULT_STRATEGY, 30, SEED, trial)
        assert a == b
    results = [simulate_journey(default_content, DEFAULT_LOADOUT, DEFAULT_STRATEGY, 30, SEED, t, default_tables)
               for t in range(10)]
    assert len({repr(r) for r in results}) > 1
    other_seed = [simulate_journey(default_content, DEFAULT_LOADOUT, DEFAULT_STRATEGY, 30, SEED + 1, t,
                                   default_tables) for t in range(10)]
    assert other_seed != results


def test_inputs_are_not_mutated(default_content, default_tables):
    import copy

    lo = copy.deepcopy(DEFAULT_LOADOUT)
    simulate_journey(default_content, lo, DEFAULT_STRATEGY, 30, SEED, 3, default_tables)
    assert lo == DEFAULT_LOADOUT


@pytest.mark.parametrize("strategy", [DEFAULT_STRATEGY, {"fight": "runner", "danger_weight": 0, "recover_loot": False}])
def test_aggregate_run_journeys_is_the_sum_of_single_trials(default_content, strategy):
    n, start, days = 25, 7, 25
    agg = run_journeys(default_content, DEFAULT_LOADOUT, strategy, days, SEED, n, trial_start=start)
    tables = route_tables(default_content, strategy["danger_weight"])
    singles = [simulate_journey(default_content, DEFAULT_LOADOUT, strategy, days, SEED, t, tables)
               for t in range(start, start + n)]

    def hist(key):
        out = {}
        for r in singles:
            out[r[key]] = out.get(r[key], 0) + 1
        return out

    def summed(key):
        out = {}
        for r in singles:
            for k, v in r[key].items():
                out[k] = out.get(k, 0) + v
        return out

    assert agg["counts"] == {"completed": sum(r["completed"] for r in singles),
                             "survived": sum(r["deaths"] == 0 for r in singles)}
    for key in ("completion_day", "orders_done", "orders_held", "deaths", "first_order_day"):
        assert agg[key] == hist(key)
    assert agg["money"] == sum(r["money"] for r in singles)
    assert agg["money_sq"] == sum(r["money"] ** 2 for r in singles)
    for key in ("kills", "trophy_value", "artefact_value"):
        assert agg[key] == sum(r[key] for r in singles)
    for key in ("orders_done", "reputation", "wealth"):  # Z-09, Z-41, Z-12
        assert agg[key + "_sum"] == sum(r[key] for r in singles)
    for key in ("used", "traffic", "deaths_at", "purchases"):
        assert agg[key] == summed(key)
    assert agg["spent"] == sum(r["spent"] for r in singles)
    assert sum(agg["traffic"].values()) > 0
    assert sum(agg["purchases"].values()) > 0  # the default content has shops (Z-40)


def test_bad_inputs_raise(default_content):
    with pytest.raises(ValueError):
        simulate_journey(default_content, loadout(movement=["nvg"]), DEFAULT_STRATEGY, 5, SEED, 0)
    with pytest.raises(ValueError):
        simulate_journey(default_content, loadout(), {**DEFAULT_STRATEGY, "fight": "coward"}, 5, SEED, 0)
    with pytest.raises(ValueError):
        route_tables(default_content, -1)


# --------------------------------------------------------------------------
# Progression: experience, levels, Influence, missions (K-04, K-06, K-08, Z-09)
# --------------------------------------------------------------------------

NOVICE_HP = 25  # rules.toml [stalker] base_hp (Z-02)
NO_LEVEL_REWARDS = [0] * 11


def prog(level_xp, level_hp=NO_LEVEL_REWARDS, level_influence=NO_LEVEL_REWARDS, xp_per_monster_hp=0,
         xp_per_order=0, influence_per_order=0, level_points=NO_LEVEL_REWARDS):
    return {"xp_per_monster_hp": xp_per_monster_hp, "xp_per_order": xp_per_order,
            "influence_per_order": influence_per_order, "level_xp": list(level_xp),
            "level_hp": list(level_hp), "level_influence": list(level_influence),
            "level_points": list(level_points)}


HIGH = [1000 * (i + 1) for i in range(11)]  # levels 2..12 out of reach
SCRATCH = ({"id": "scratch", "dice": 0, "bonus": 6, "avoid_on": 7, "min_danger": 1, "max_danger": 1, "weight": 1},)


def test_k04_no_progression_fields_means_level_1_for_ever(tmp_path):
    c = make_content(tmp_path, LINE)  # [progression] without xp or level fields (stage A content)
    res = simulate_journey(c, loadout(), FIGHTER, 10, SEED, 0)
    assert res["completed"]
    assert (res["level"], res["xp"], res["missions"], res["influence"]) == (1, 0, 0, 3)
    assert res["max_hp"] == res["hp"] == NOVICE_HP


def test_k04_level_rewards_raise_max_hp(tmp_path):
    # col 1: a scratch never avoided, 6 damage (no armour, no medkit): hp 19 of 25.
    # col 2: the order: 10 xp reaches level 2 (5) and level 3 (10), not level 4 (11).
    p = prog([5, 10, 11] + HIGH[3:], level_hp=[2, 3, 100] + [0] * 8, level_influence=[1, 0, 7] + [0] * 8,
             xp_per_order=10)
    c = make_content(tmp_path, ["R R R"], danger=["0 1 0"], events={"nothing": level(0), "trap": level(1)},
                     traps=SCRATCH, sites=(("target", (2, 0)),), progression=p)
    res = simulate_journey(c, loadout(), FIGHTER, 1, SEED, 0)
    assert res["completed"] and res["deaths"] == 0
    assert (res["level"], res["xp"], res["missions"]) == (3, 10, 0)
    assert res["max_hp"] == NOVICE_HP + 2 + 3
    assert res["hp"] == NOVICE_HP - 6 + 2 + 3        # hp rises by the same amount, the damage stays
    assert res["influence"] == 3 + 1 + 0             # level 2's +1, level 3's 0 (influence_per_order 0)


def test_k04_level_reward_lets_a_medkit_fit(tmp_path):
    # After the scratch hp is 19/25: a medkit (+5) fits (6 missing) and is used after the event.
    # The order comes later, so its level-up (+4 max hp, +4 hp) does not change that.
    p = prog([10] + HIGH[1:], level_hp=[4] + [0] * 10, xp_per_order=10)
    c = make_content(tmp_path, ["R R R"], danger=["0 1 0"], events={"nothing": level(0), "trap": level(1)},
                     traps=SCRATCH, sites=(("target", (2, 0)),), progression=p)
    res = simulate_journey(c, loadout(healing={"medkit": 1}), FIGHTER, 1, SEED, 0)
    assert res["used"] == {"medkit": 1}
    assert (res["level"], res["max_hp"], res["hp"]) == (2, NOVICE_HP + 4, NOVICE_HP - 6 + 5 + 4)


@pytest.mark.parametrize("xp, missions", [(11, 0), (12, 0), (13, 0), (14, 1), (15, 1), (16, 2), (20, 4)])
def test_k04_levels_past_12_give_missions(tmp_path, xp, missions):
    # levels 2..12 at xp 1..10 and 12: the last gap is 2, so level 12 + n needs 12 + 2n.
    level_xp = list(range(1, 11)) + [12]
    p = prog(level_xp, level_hp=[1] * 11, level_influence=[1] * 11, xp_per_order=xp)
    c = make_content(tmp_path, LINE, progression=p)
    res = simulate_journey(c, loadout(), FIGHTER, 10, SEED, 0)
    reached = 11 if xp == 11 else 12
    assert (res["level"], res["xp"], res["missions"]) == (reached, xp, missions)
    # levels past 12 give no rewards: only the levels 2..reached count.
    assert res["max_hp"] == res["hp"] == NOVICE_HP + reached - 1
    assert res["influence"] == 3 + reached - 1


def test_k06_orders_earn_influence(tmp_path):
    orders = ({"id": "there", "destination": "target", "reward": 1000, "step_penalty": 0},
              {"id": "back", "destination": "cordon", "reward": 500, "step_penalty": 1})
    p = prog(HIGH, influence_per_order=2, xp_per_order=7)
    c = make_content(tmp_path, LINE, orders=orders, progression=p)
    res = simulate_journey(c, loadout(), FIGHTER, 20, SEED, 0)
    assert res["completed"] and res["orders_done"] == 2
    assert res["influence"] == 3 + 2 + 2 and res["xp"] == 14 and res["level"] == 1
    assert res["money"] == 1000 + 1000 + 500 and res["reputation"] == 2  # the order's own rewards as before
    partial = simulate_journey(c, loadout(), FIGHTER, 5, SEED, 0)
    assert partial["orders_done"] == 1 and partial["influence"] == 3 + 2 and partial["xp"] == 7


def test_k06_order_influence_pays_later_rerolls(tmp_path):
    # Influence 0 at the start: the skill test at col 1 on the way to the first order has no re-roll.
    # The second order's way back crosses it again after the first order paid 1 Influence.
    skills = ({"id": "test", "attribute": "agility", "target": 100, "damage_dice": 0, "missed_turns": 0,
               "min_danger": 1, "max_danger": 1, "weight": 1},)
    orders = ({"id": "there", "destination": "target", "reward": 0, "step_penalty": 0},
              {"id": "back", "destination": "cordon", "reward": 0, "step_penalty": 0})
    p = {**prog(HIGH, influence_per_order=1), "influence_start": 0}
    c = make_content(tmp_path, ["R R R"], danger=["0 1 0"], events={"nothing": level(0), "skill": level(1)},
                     skills=skills, orders=orders, progression=p)
    res = simulate_journey(c, loadout(), FIGHTER, 5, SEED, 0)
    # target 100 always fails: the re-roll is bought on the way back (1 - 1), then the second order pays 1.
    assert res["completed"] and res["influence"] == 1


RATS = "[rat]\nhp = 1\ndice = 1\nbonus = 0\ndefence = 0\n\n[big_rat]\nhp = 4\ndice = 1\ndefence = 0\n"


def test_k08_kills_give_xp_per_monster_max_hp(tmp_path):
    # a berdanka kills a 1-hp rat in round 1 and a 4-hp rat in round 2 (never misses defence 0 and
    # deals more than 4): xp = 3 per max hp, not per damage dealt: 3 * (1 + 4) = 15 -> level 2 (15), not 3 (16).
    groups = ({"monsters": ["rat", "big_rat"], "min_danger": 1, "max_danger": 1, "weight": 1},)
    p = prog([15, 16] + HIGH[2:], level_hp=[2] + [0] * 10, level_influence=[1] + [0] * 10, xp_per_monster_hp=3)
    c = make_content(tmp_path, ["R R R"], danger=["0 1 0"], events={"nothing": level(0), "monster": level(1)},
                     groups=groups, monsters_extra=RATS, progression=p)
    for trial in range(10):
        res = simulate_journey(c, loadout(weapon="berdanka"), FIGHTER, 1, SEED, trial)
        assert res["kills"] == 2 and res["deaths"] == 0
        assert (res["xp"], res["level"], res["influence"]) == (15, 2, 4)
        assert res["max_hp"] == NOVICE_HP + 2 and res["hp"] <= res["max_hp"]
    # a runner with reputation 0 escapes at once (Z-33): no fight won, no xp.
    res = simulate_journey(c, loadout(weapon="berdanka"), {**FIGHTER, "fight": "runner"}, 1, SEED, 0)
    assert res["kills"] == 0 and res["xp"] == 0 and res["level"] == 1


def test_z09_replacement_starts_at_level_1(tmp_path):
    # order 1 at col 1 (xp 12: level 12 and 1 mission); then the pit at col 2 kills him (never avoided).
    pit = ({"id": "pit", "dice": 0, "bonus": 100, "avoid_on": 7, "min_danger": 1, "max_danger": 1, "weight": 1},)
    orders = ({"id": "o1", "destination": "a", "reward": 100, "step_penalty": 0},
              {"id": "o2", "destination": "b", "reward": 100, "step_penalty": 0})
    p = prog(range(1, 12), level_hp=[1] * 11, level_influence=[2] + [0] * 10, xp_per_order=12,
             influence_per_order=1)
    kw = dict(sites=(("a", (1, 0)), ("b", (3, 0))), orders=orders, progression=p,
              events={"nothing": level(0), "trap": level(1)}, traps=pit)
    safe = make_content(tmp_path, ["R R R R"], name="safe", **kw)
    res = simulate_journey(safe, loadout(), {**FIGHTER, "recover_loot": False}, 1, SEED, 0)
    assert res["completed"] and (res["level"], res["xp"], res["missions"]) == (12, 24, 13)
    c = make_content(tmp_path, ["R R R R"], danger=["0 0 1 0"], name="pit", **kw)
    res = simulate_journey(c, loadout(), {**FIGHTER, "recover_loot": False}, 1, SEED, 0)
    assert res["orders_done"] == 1 and res["deaths"] == 1 and res["deaths_at"] == {(2, 0): 1}
    assert (res["level"], res["xp"]) == (1, 0)
    assert res["max_hp"] == res["hp"] == NOVICE_HP       # the character's max hp, not the levelled 36
    assert res["influence"] == 3 + 1 + 2                   # Influence is kept (K-06)
    assert res["missions"] == 1                            # and so is the completed mission


def test_k04_bad_level_lists_raise(tmp_path):
    bad = {"short": prog(range(1, 11)), "flat": prog([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10]),
           "negative": prog(HIGH, level_hp=[-1] + [0] * 10)}
    for name, p in bad.items():
        c = make_content(tmp_path, LINE, progression=p, name=name)
        with pytest.raises(ValueError):
            simulate_journey(c, loadout(), FIGHTER, 2, SEED, 0)
    only_xp = make_content(tmp_path, LINE, progression={"level_xp": HIGH}, name="only_xp")
    with pytest.raises(ValueError):
        simulate_journey(only_xp, loadout(), FIGHTER, 2, SEED, 0)


def test_aggregate_levels_and_missions_on_default_content(default_content):
    n, start, days = 25, 3, 30
    agg = run_journeys(default_content, DEFAULT_LOADOUT, DEFAULT_STRATEGY, days, SEED, n, trial_start=start)
    tables = route_tables(default_content, 1)
    singles = [simulate_journey(default_content, DEFAULT_LOADOUT, DEFAULT_STRATEGY, days, SEED, t, tables)
               for t in range(start, start + n)]
    levels = {}
    for r in singles:
        levels[r["level"]] = levels.get(r["level"], 0) + 1
        assert 1 <= r["level"] <= 12 and r["missions"] >= 0
        assert r["hp"] <= r["max_hp"]
    assert agg["levels"] == levels and sum(levels.values()) == n
    assert agg["missions"] == sum(r["missions"] for r in singles)
    assert any(r["level"] > 1 for r in singles)  # the default content does level stalkers


# --------------------------------------------------------------------------
# Stage B: finite decks, shops, ownership, asset limit (Z-09, Z-11..Z-13, Z-40, K-05)
# --------------------------------------------------------------------------

def default_shops():
    import tomllib

    with open(DEFAULT_DIR / "journey.toml", "rb") as f:
        return tomllib.load(f)["shops"]


# A deadly pit at col 1, never avoided (threshold 7): every stalker that leaves the cordon dies there.
DEADLY = ({"id": "pit", "dice": 0, "bonus": 100, "avoid_on": 7, "min_danger": 1, "max_danger": 1, "weight": 1},)


def deadly_content(tmp_path, name, shops, items=None):
    return make_content(tmp_path, ["R R R"], danger=["0 1 0"], events={"nothing": level(0), "trap": level(1)},
                        traps=DEADLY, shops=shops, items=items, name=name)


@pytest.mark.parametrize("influence_price, bought", [(300, 1), (0, 0)])
def test_k06_influence_pays_for_wargear_money_cannot(tmp_path, influence_price, bought):
    # A 1200 G helmet; the pit kills every stalker that leaves the cordon. Day 2: the replacement's
    # 500 G fall 700 short; at 300 G a point his 3 Influence pay 900 and his money the other 300
    # (no change for points): he buys it, which ends the day (Z-13). Day 4: no Influence left.
    c = make_content(tmp_path, ["R R R"], danger=["0 1 0"], events={"nothing": level(0), "trap": level(1)},
                     traps=DEADLY, shops={"cordon": ["helmet"]}, items={"helmet": {"price": 1200}},
                     progression={"influence_price": influence_price})
    res = simulate_journey(c, loadout(head="helmet"), {**FIGHTER, "recover_loot": False}, 5, SEED, 0)
    assert res["purchases"] == ({"helmet": 1} if bought else {})
    assert (res["spent"], res["influence"], res["deaths"]) == ((300, 0, 4) if bought else (0, 3, 5))


def test_z11_deck_runs_out(tmp_path):
    no_recover = {**FIGHTER, "recover_loot": False}
    kit = loadout(head="helmet")
    # helmet deck 2, one in the starting kit: one card left in the trial's deck.
    c = deadly_content(tmp_path, "tiny", {"cordon": ["helmet"]}, items={"helmet": {"deck": 2}})
    # day 1: nothing to buy (the kit is complete), dies at the pit; day 2: the replacement buys the
    # last helmet (500 -> 300), which ends the day (Z-13); day 3: dies; day 4: the deck is empty, so
    # nothing is bought and he walks on and dies; day 5 likewise.
    res = simulate_journey(c, kit, no_recover, 5, SEED, 0)
    assert res["purchases"] == {"helmet": 1} and res["spent"] == 200
    assert res["deaths"] == 4 and res["deaths_at"] == {(1, 0): 4}
    assert res["deck"]["helmet"] == 0 and res["money"] == 500
    # the same with the default deck of 4 (3 left): day 2 and day 4 both buy one.
    full = deadly_content(tmp_path, "full", {"cordon": ["helmet"]})
    res = simulate_journey(full, kit, no_recover, 5, SEED, 0)
    assert res["purchases"] == {"helmet": 2} and res["deaths"] == 3 and res["deck"]["helmet"] == 1
    # consumables: two medkits of a deck of 2 leave none to rebuy, ever.
    two = deadly_content(tmp_path, "two", {"cordon": ["medkit"]}, items={"medkit": {"deck": 2}})
    res = simulate_journey(two, loadout(healing={"medkit": 2}), no_recover, 5, SEED, 0)
    assert res["purchases"] == {} and res["deaths"] == 5 and res["deck"]["medkit"] == 0
    # a loadout needing more cards than the deck holds is refused.
    with pytest.raises(ValueError):
        simulate_journey(two, loadout(healing={"medkit": 3}), no_recover, 5, SEED, 0)


SCRATCH_AT_1 = ({"id": "scratch", "dice": 0, "bonus": 6, "avoid_on": 7, "min_danger": 1, "max_danger": 1,
                 "weight": 1},)


def test_z13_shopping_ends_the_day(tmp_path):
    # cordon (0,0), bar (3,0), target (6,0), all roads (cost 1).  Col 1: a scratch (6 damage, never
    # avoided): hp 19, one medkit (+5) used after it.  The bar then has a medkit to sell.
    kw = dict(danger=["0 1 0 0 0 0 0"], events={"nothing": level(0), "trap": level(1)}, traps=SCRATCH_AT_1,
              bases=(("cordon", (0, 0)), ("bar", (3, 0))), sites=(("target", (6, 0)),))
    kit = loadout(healing={"medkit": 2})
    # no shops: 6 steps, the target on day 1.
    none = make_content(tmp_path, ["R R R R R R R"], name="none", **kw)
    res = simulate_journey(none, kit, FIGHTER, 5, SEED, 0)
    assert res["completion_day"] == 1 and res["used"] == {"medkit": 1} and res["purchases"] == {}
    # the bar sells medkits: the purchase on entering the bar ends day 1 there (3 steps left are lost).
    bar = make_content(tmp_path, ["R R R R R R R"], name="bar", shops={"bar": ["medkit"]}, **kw)
    res = simulate_journey(bar, kit, FIGHTER, 5, SEED, 0)
    assert res["completion_day"] == 2
    assert res["purchases"] == {"medkit": 1} and res["spent"] == 100
    assert res["money"] == 1000 - 100 + 1000 and res["healing"] == {"medkit": 2}
    day1 = simulate_journey(bar, kit, FIGHTER, 1, SEED, 0)
    assert day1["traffic"] == {(1, 0): 1, (2, 0): 1, (3, 0): 1} and not day1["completed"]
    # day 2 starts at the bar: nothing to buy, so the day goes on (3 steps to the target).
    assert res["traffic"] == {(i, 0): 1 for i in range(1, 7)}
    # a bar that sells no medkit (and nothing sold): no transaction, the day goes on.
    other = make_content(tmp_path, ["R R R R R R R"], name="other", shops={"bar": ["helmet"], "cordon": []}, **kw)
    res = simulate_journey(other, kit, FIGHTER, 5, SEED, 0)
    assert res["completion_day"] == 1 and res["purchases"] == {} and res["spent"] == 0


GOLD_RAT = "[rat]\nhp = 1\ndice = 1\nbonus = 0\ndefence = 0\n"


def test_z12_z40_trophies_and_artefacts_sell_at_a_base(tmp_path):
    # col 1: an artefact (800 G); col 2: a rat (a berdanka always kills it in round 1: trophy 1 x 20);
    # col 3: the bar; the target at col 5 (5 steps: reached on day 1 if nothing stops him).
    finds = ({"id": "art", "kind": "artefact", "amount": 800, "min_danger": 1, "max_danger": 1, "weight": 1},)
    groups = ({"monsters": ["rat"], "min_danger": 2, "max_danger": 2, "weight": 1},)
    kw = dict(danger=["0 1 2 0 0 0"], events={"nothing": level(0), "find": level(1), "monster": level(2)},
              finds=finds, groups=groups, monsters_extra=GOLD_RAT,
              bases=(("cordon", (0, 0)), ("bar", (3, 0))), sites=(("target", (5, 0)),))
    kit = loadout(weapon="berdanka")
    none = make_content(tmp_path, ["R R R R R R"], name="none", **kw)
    res = simulate_journey(none, kit, FIGHTER, 5, SEED, 0)
    assert res["completion_day"] == 1 and res["kills"] == 1
    assert (res["artefact_value"], res["trophy_value"], res["money"]) == (800, 20, 2000)
    # with [shops] the bar buys both (it sells nothing itself): the sale ends day 1 at the bar (Z-13).
    shop = make_content(tmp_path, ["R R R R R R"], name="shop", shops={"bar": []}, **kw)
    res = simulate_journey(shop, kit, FIGHTER, 5, SEED, 0)
    assert res["completion_day"] == 2
    assert (res["artefact_value"], res["trophy_value"], res["money"]) == (0, 0, 1000 + 800 + 20 + 1000)
    assert res["purchases"] == {} and res["spent"] == 0
    # an order completed at the bar: the reward is paid, then the sale, which ends the day.
    orders = ({"id": "to_bar", "destination": "bar", "reward": 300, "step_penalty": 0},
              {"id": "o2", "destination": "target", "reward": 1000, "step_penalty": 0})
    at_bar = make_content(tmp_path, ["R R R R R R"], name="at_bar", shops={"bar": []}, orders=orders, **kw)
    res = simulate_journey(at_bar, kit, FIGHTER, 5, SEED, 0)
    assert res["first_order_day"] == 1 and res["completion_day"] == 2
    assert res["money"] == 1000 + 300 + 800 + 20 + 1000 and res["artefact_value"] == 0
    day1 = simulate_journey(at_bar, kit, FIGHTER, 1, SEED, 0)
    assert day1["orders_done"] == 1 and max(h[0] for h in day1["traffic"]) == 3


def test_k05_asset_limit_discards_any_card_cheapest_first(tmp_path):
    kit = loadout(head="helmet", healing={"medkit": 1, "stimulator": 1}, explosives={"molotov": 1, "limonka": 1})
    # 5 cards, limit 3: two discards at the end of day 1.  Medkit and molotov both cost 100: the medkit
    # is the later in items.toml (healing after explosives), so it goes first; then the molotov.
    c = make_content(tmp_path, LINE, progression={"asset_limit": 3}, name="three")
    res = simulate_journey(c, kit, FIGHTER, 10, SEED, 0)
    assert res["completion_day"] == 4
    assert res["discarded"] == {"medkit": 1, "molotov": 1}
    assert res["healing"] == {"stimulator": 1} and res["explosives"] == {"limonka": 1}
    assert res["owned"] == {"helmet": 1}
    assert res["deck"]["medkit"] == 4 and res["deck"]["molotov"] == 4  # back in their decks (Z-11)
    assert res["deck"]["stimulator"] == 3 and res["deck"]["helmet"] == 3
    one_day = simulate_journey(c, kit, FIGHTER, 1, SEED, 0)
    assert one_day["discarded"] == {"medkit": 1, "molotov": 1}  # already at the end of day 1
    # limit 4: one discard, and the tie at 100 G goes to the later item: the medkit, not the molotov.
    four = make_content(tmp_path, LINE, progression={"asset_limit": 4}, name="four")
    res = simulate_journey(four, kit, FIGHTER, 10, SEED, 0)
    assert res["discarded"] == {"medkit": 1} and res["explosives"] == {"molotov": 1, "limonka": 1}
    # limit 0: every card goes, the helmet too (K-05: any asset above the limit).
    zero = make_content(tmp_path, LINE, progression={"asset_limit": 0}, name="zero")
    res = simulate_journey(zero, kit, FIGHTER, 10, SEED, 0)
    assert res["discarded"] == {"medkit": 1, "molotov": 1, "stimulator": 1, "limonka": 1, "helmet": 1}
    assert res["owned"] == {} and res["healing"] == {} and res["explosives"] == {}
    assert res["deck"]["helmet"] == 4
    # no asset_limit: nothing is discarded.
    free = make_content(tmp_path, LINE, name="free")
    assert simulate_journey(free, kit, FIGHTER, 10, SEED, 0)["discarded"] == {}


def test_z09_replacement_rebuys_his_kit_at_the_cordon(tmp_path):
    # cache_content's road (pit at col 2, avoided on 4+; scratch at col 4, 6 damage) with the
    # default shop lists: the cordon sells everything in this kit.
    traps = ({"id": "pit", "dice": 0, "bonus": 100, "avoid_on": 4, "min_danger": 1, "max_danger": 1, "weight": 1},
             {"id": "scratch", "dice": 0, "bonus": 6, "avoid_on": 7, "min_danger": 2, "max_danger": 2, "weight": 1})
    c = make_content(tmp_path, ["R R R R R R"], danger=["0 0 1 0 2 0"],
                     events={"nothing": level(0), "trap": [0, 100, 100, 0, 0, 0, 0, 0, 0, 0]},
                     traps=traps, shops={"cordon": default_shops()["cordon"]}, name="kit")
    trial = die_then_live_trial()
    kit = loadout(weapon="berdanka", mods=["zeroing"], body="leather_jacket", head="helmet",
                  healing={"medkit": 1}, movement=["zone_map"])
    no_recover = {**FIGHTER, "recover_loot": False}
    # day 1: the kit is complete, nothing bought; dies at the pit.  Day 2: the replacement (500 G) buys
    # in the list's order what he can pay: berdanka 300, zeroing 100 (he now carries the berdanka),
    # the jacket (150 > 100), helmet and zone map are skipped, a medkit 100; the purchase ends the day.
    res = simulate_journey(c, kit, no_recover, 2, SEED, trial)
    assert res["deaths"] == 1 and res["traffic"] == {(1, 0): 1, (2, 0): 1}
    assert res["purchases"] == {"berdanka": 1, "zeroing": 1, "medkit": 1} and res["spent"] == 500
    assert res["money"] == 0 and res["owned"] == {"berdanka": 1, "zeroing": 1} and res["healing"] == {"medkit": 1}
    # day 3: passes the pit, the scratch (6, no armour) is healed by the medkit, reaches the target.
    res = simulate_journey(c, kit, no_recover, 5, SEED, trial)
    assert res["completion_day"] == 3 and res["used"] == {"medkit": 1} and res["money"] == 1000
    # with recovery the cache adds the dead stalker's cards: owned twice where he rebought them.
    res = simulate_journey(c, kit, FIGHTER, 5, SEED, trial)
    assert res["completion_day"] == 3 and res["money"] == 1000 + 1000
    assert res["owned"] == {"berdanka": 2, "zeroing": 2, "leather_jacket": 1, "helmet": 1, "zone_map": 1}
    assert res["healing"] == {"medkit": 2} and res["used"] == {}  # scratch 6 - 2 = 4: no medkit fits
    # a modifier is bought only while carrying its firearm: with an AK-47 kit (1500 G) he cannot
    # afford the gun, so no rebored either, only the medkit.
    ak = loadout(weapon="ak47", mods=["rebored"], healing={"medkit": 1})
    res = simulate_journey(c, ak, no_recover, 2, SEED, trial)
    assert res["purchases"] == {"medkit": 1} and res["money"] == 400


def test_z40_a_base_missing_from_shops_is_no_shop(tmp_path):
    # the artefact (col 1) and the rat (col 2) of the Z-12 test; [shops] lists only the cordon, so the
    # bar at col 3 buys nothing: no sale, no end of the day there (Z-13), the target on day 1.
    finds = ({"id": "art", "kind": "artefact", "amount": 800, "min_danger": 1, "max_danger": 1, "weight": 1},)
    groups = ({"monsters": ["rat"], "min_danger": 2, "max_danger": 2, "weight": 1},)
    c = make_content(tmp_path, ["R R R R R R"], danger=["0 1 2 0 0 0"],
                     events={"nothing": level(0), "find": level(1), "monster": level(2)},
                     finds=finds, groups=groups, monsters_extra=GOLD_RAT, shops={"cordon": []},
                     bases=(("cordon", (0, 0)), ("bar", (3, 0))), sites=(("target", (5, 0)),))
    res = simulate_journey(c, loadout(weapon="berdanka"), FIGHTER, 5, SEED, 0)
    assert res["completion_day"] == 1
    assert (res["artefact_value"], res["trophy_value"], res["money"]) == (800, 20, 2000)


# --------------------------------------------------------------------------
# Stage C: equipment finds (Z-11, Z-14), helicopter call and space gate (Z-27, Z-28)
# --------------------------------------------------------------------------

# col 1: a scratch (6 damage, never avoided); col 2: a find of a medkit card; target at col 3.
MEDKIT_FIND = ({"id": "dropped_medkit", "kind": "item", "item": "medkit", "amount": 0,
                "min_danger": 2, "max_danger": 2, "weight": 1},)


def find_content(tmp_path, name, danger=("0 1 2 0",), items=None):
    return make_content(tmp_path, ["R R R R"], danger=list(danger),
                        events={"nothing": level(0), "trap": level(1), "find": level(2)},
                        traps=SCRATCH_AT_1, finds=MEDKIT_FIND, items=items, name=name)


def test_z14_unwanted_find_goes_back_to_the_deck(tmp_path):
    # no scratch: the stalker still holds his one medkit (wanted 1), so the found card goes back.
    quiet = find_content(tmp_path, "quiet", danger=("0 0 2 0",))
    res = simulate_journey(quiet, loadout(healing={"medkit": 1}), FIGHTER, 1, SEED, 0)
    assert res["completed"] and res["found"] == {}
    assert res["healing"] == {"medkit": 1} and res["deck"]["medkit"] == 4 - 1
    # a medkit is not on a stimulator-only list: back to the deck as well.
    res = simulate_journey(quiet, loadout(healing={"stimulator": 1}), FIGHTER, 1, SEED, 0)
    assert res["found"] == {} and res["healing"] == {"stimulator": 1} and res["deck"]["medkit"] == 4
    # after the scratch (19/25) the medkit is used (24/25); the find then fills the list again:
    # kept (deck 3 -> 2), and not used (+5 does not fit under 25).
    c = find_content(tmp_path, "scratch")
    res = simulate_journey(c, loadout(healing={"medkit": 1}), FIGHTER, 1, SEED, 0)
    assert res["completed"] and res["used"] == {"medkit": 1}
    assert res["found"] == {"medkit": 1} and res["healing"] == {"medkit": 1}
    assert res["deck"]["medkit"] == 4 - 1 - 1 and res["purchases"] == {}


def test_z11_find_from_an_empty_deck_gives_nothing(tmp_path):
    # a deck of 1 medkit, in the starting kit and used up after the scratch (used cards are gone):
    # the find at col 2 meets an empty deck and gives nothing.
    empty = find_content(tmp_path, "empty", items={"medkit": {"deck": 1}})
    res = simulate_journey(empty, loadout(healing={"medkit": 1}), FIGHTER, 1, SEED, 0)
    assert res["completed"] and res["used"] == {"medkit": 1}
    assert res["found"] == {} and res["healing"] == {} and res["deck"]["medkit"] == 0
    # a deck of 2 still has a card: it is kept.
    two = find_content(tmp_path, "two", items={"medkit": {"deck": 2}})
    res = simulate_journey(two, loadout(healing={"medkit": 1}), FIGHTER, 1, SEED, 0)
    assert res["found"] == {"medkit": 1} and res["healing"] == {"medkit": 1} and res["deck"]["medkit"] == 0


def test_z27_helicopter_flies_to_the_military_base_and_returns_to_the_deck(tmp_path):
    # LINE: cordon at col 0, the military base at col 7 (4 days' walk, test_z34).  Order 1 to the
    # military base, order 2 back to the cordon; only the military base trades (it sells helicopter calls).
    orders = ({"id": "crate", "destination": "military_base", "reward": 2000, "step_penalty": 0},
              {"id": "home", "destination": "cordon", "reward": 500, "step_penalty": 0})
    kw = dict(bases=(("cordon", (0, 0)), ("military_base", (7, 0))), sites=(), orders=orders)
    c = make_content(tmp_path, LINE, military_base="military_base", shops={"military_base": ["helicopter_call"]},
                     **kw)
    heli = loadout(one_shot=["helicopter_call"])
    # day 1: the goal is the military base: he flies there (no event, no traffic) and the day ends;
    # the card goes back to its deck (4 - 1 + 1).
    day1 = simulate_journey(c, heli, FIGHTER, 1, SEED, 0)
    assert day1["flights"] == {"helicopter_call": 1} and day1["traffic"] == {}
    assert day1["owned"] == {} and day1["deck"]["helicopter_call"] == 4 and day1["orders_done"] == 0
    # day 2: arrives (2000), then rebuys a call (1000; deck 3), which ends the day (Z-13).  Day 3: the
    # goal is the cordon, not the military base: no flight; he walks back (cols 6..0 cost
    # 2 4 1 3 2 2 1): days 3 (6, 5), 4 (4, 3, 2), 5 (1, 0).
    res = simulate_journey(c, heli, FIGHTER, 10, SEED, 0)
    assert res["first_order_day"] == 2 and res["completed"] and res["completion_day"] == 5
    assert res["flights"] == {"helicopter_call": 1} and res["purchases"] == {"helicopter_call": 1}
    assert res["owned"] == {"helicopter_call": 1} and res["deck"]["helicopter_call"] == 3
    assert res["money"] == 1000 + 2000 - 1000 + 500
    assert res["traffic"] == {(i, 0): 1 for i in range(7)}
    # without the card: the 4-day walk out.
    walk = simulate_journey(c, loadout(), FIGHTER, 10, SEED, 0)
    assert walk["first_order_day"] == 4 and walk["flights"] == {}
    # no [journey] military_base: the call never flies.
    none = make_content(tmp_path, LINE, name="none", **kw)
    res = simulate_journey(none, heli, FIGHTER, 10, SEED, 0)
    assert res["first_order_day"] == 4 and res["flights"] == {} and res["owned"] == {"helicopter_call": 1}


def test_z28_space_gate_is_used_once(tmp_path):
    # LINE: cordon at col 0, the bar at col 7; order 1 to the bar, order 2 back home.  No shops.
    orders = ({"id": "to_bar", "destination": "bar", "reward": 1000, "step_penalty": 0},
              {"id": "home", "destination": "cordon", "reward": 500, "step_penalty": 0})
    c = make_content(tmp_path, LINE, bases=(("cordon", (0, 0)), ("bar", (7, 0))), sites=(), orders=orders,
                     military_base="cordon", progression={"asset_limit": 2})
    gate = loadout(one_shot=["space_gate"], healing={"medkit": 3})
    # day 1: moved to the bar (goal of order 1), the card leaves play: the deck stays at 4 - 1.
    # The asset limit still runs that evening: 3 medkits > 2, one discarded.
    day1 = simulate_journey(c, gate, FIGHTER, 1, SEED, 0)
    assert day1["flights"] == {"space_gate": 1} and day1["traffic"] == {}
    assert day1["owned"] == {} and day1["deck"]["space_gate"] == 3
    assert day1["discarded"] == {"medkit": 1} and day1["healing"] == {"medkit": 2}
    # day 2: arrives at the bar, then walks home (the gate is gone): days 2 (6, 5), 3 (4, 3, 2), 4 (1, 0).
    res = simulate_journey(c, gate, FIGHTER, 10, SEED, 0)
    assert res["first_order_day"] == 2 and res["completion_day"] == 4
    assert res["flights"] == {"space_gate": 1} and res["deck"]["space_gate"] == 3 and res["owned"] == {}
    assert res["traffic"] == {(i, 0): 1 for i in range(7)}
    # the helicopter call only flies to the military base (here the cordon, order 2's goal): day 1 the
    # gate takes him to the bar; day 2 begins on the goal (no one-shot move), he arrives and walks
    # cols 6, 5; day 3 the call flies him home (the day ends); day 4 he arrives.
    both = simulate_journey(c, loadout(one_shot=["space_gate", "helicopter_call"]), FIGHTER, 10, SEED, 0)
    assert both["first_order_day"] == 2 and both["completion_day"] == 4
    assert both["flights"] == {"space_gate": 1, "helicopter_call": 1}
    assert both["traffic"] == {(6, 0): 1, (5, 0): 1}
    assert both["deck"]["space_gate"] == 3 and both["deck"]["helicopter_call"] == 4
    # an unknown or non-one-shot id is refused.
    with pytest.raises(ValueError):
        simulate_journey(c, loadout(one_shot=["jetpack"]), FIGHTER, 1, SEED, 0)


# --------------------------------------------------------------------------
# Stage D: which order to take (strategy "order_choice")
# --------------------------------------------------------------------------

NEAREST = {**FIGHTER, "order_choice": "nearest"}
# LINE, cordon at col 0: "far" at col 7 is listed first, "near" at col 2 second.
FAR_NEAR = ({"id": "far", "destination": "far", "reward": 1000, "step_penalty": 0},
            {"id": "near", "destination": "near", "reward": 300, "step_penalty": 0})
FAR_NEAR_SITES = (("far", (7, 0)), ("near", (2, 0)))


def test_z41_nearest_order_first(tmp_path):
    c = make_content(tmp_path, LINE, sites=FAR_NEAR_SITES, orders=FAR_NEAR)
    # From col 0: dist[near] = 2 + 2 = 4, dist[far] = 2 + 2 + 3 + 1 + 4 + 2 + 1 = 15: near first.
    # Day 1: cols 1, 2 (4), arrives at "near"; then "far" from col 2: col 3 would make 7 > 6.
    # Day 2: cols 3, 4 (4); day 3: cols 5, 6 (6); day 4: col 7, arrives.
    res = simulate_journey(c, loadout(), NEAREST, 10, SEED, 0)
    assert res["completed"] and res["completion_day"] == 4
    assert res["first_order_day"] == 1 and res["orders_done"] == 2
    assert res["traffic"] == {(i, 0): 1 for i in range(1, 8)}
    assert res["money"] == 1000 + 300 + 1000 and res["reputation"] == 2
    day1 = simulate_journey(c, loadout(), NEAREST, 1, SEED, 0)
    assert day1["orders_done"] == 1 and day1["money"] == 1000 + 300
    # Ties: the earliest in journey.toml order.  Cordon at col 2 of 5 road hexes, "west" at col 0 and
    # "east" at col 4, both 2 away: the first listed is taken first, then the other (4 away), all on day 1.
    five = ["R R R R R"]
    kw = dict(bases=(("cordon", (2, 0)),), sites=(("west", (0, 0)), ("east", (4, 0))))
    we = ({"id": "w", "destination": "west", "reward": 100, "step_penalty": 0},
          {"id": "e", "destination": "east", "reward": 100, "step_penalty": 0})
    c = make_content(tmp_path, five, orders=we, name="we", **kw)
    res = simulate_journey(c, loadout(), NEAREST, 3, SEED, 0)
    assert res["completion_day"] == 1
    assert res["traffic"] == {(1, 0): 2, (0, 0): 1, (2, 0): 1, (3, 0): 1, (4, 0): 1}
    c = make_content(tmp_path, five, orders=we[::-1], name="ew", **kw)
    res = simulate_journey(c, loadout(), NEAREST, 3, SEED, 0)
    assert res["completion_day"] == 1
    assert res["traffic"] == {(3, 0): 2, (4, 0): 1, (2, 0): 1, (1, 0): 1, (0, 0): 1}
    # After a death the replacement takes the nearest order from the start base.  Cordon at col 3, a deadly
    # pit at col 1; orders "a" (col 2), "b" (col 0), "c" (col 5).  From col 3: a (1) < c (2) < b (3): a;
    # from col 2: b (2) < c (3): b.  On the way to b he dies at col 1; a and b go back to the deck (Z-09),
    # and the replacement at col 3 takes a again, completes it and dies on the way to b, every day.
    traps = ({"id": "pit", "dice": 0, "bonus": 100, "avoid_on": 7, "min_danger": 1, "max_danger": 9, "weight": 1},)
    abc = ({"id": "a", "destination": "a", "reward": 100, "step_penalty": 0},
           {"id": "b", "destination": "b", "reward": 100, "step_penalty": 0},
           {"id": "c", "destination": "c", "reward": 100, "step_penalty": 0})
    c = make_content(tmp_path, ["R R R R R R"], danger=["0 1 0 0 0 0"], bases=(("cordon", (3, 0)),),
                     sites=(("a", (2, 0)), ("b", (0, 0)), ("c", (5, 0))), orders=abc,
                     events={"nothing": level(0), "trap": level(1)}, traps=traps, name="abc")
    res = simulate_journey(c, loadout(), {**NEAREST, "recover_loot": False}, 3, SEED, 0)
    assert res["orders_done"] == 3 and res["first_order_day"] == 1 and res["orders_held"] == 0
    assert res["deaths"] == 3 and res["deaths_at"] == {(1, 0): 3}
    assert res["traffic"] == {(2, 0): 3, (1, 0): 3}


def test_z41_listed_orders_in_file_order(tmp_path):
    c = make_content(tmp_path, LINE, sites=FAR_NEAR_SITES, orders=FAR_NEAR)
    # "far" first although "near" is nearer: days 1-4 out to col 7 (as test_z34), arriving with 1 step
    # spent; back to col 2 (entering cols 6..2 costs 2 4 1 3 2): day 4: col 6 (3); day 5: cols 5, 4 (5);
    # day 6: cols 3, 2 (5), arrives.
    expected = {(1, 0): 1, (7, 0): 1, **{(i, 0): 2 for i in range(2, 7)}}
    for strategy in (FIGHTER, {**FIGHTER, "order_choice": "listed"}):  # "listed" is the default
        res = simulate_journey(c, loadout(), strategy, 10, SEED, 0)
        assert res["completed"] and res["completion_day"] == 6
        assert res["first_order_day"] == 4 and res["orders_done"] == 2
        assert res["traffic"] == expected
        assert res["money"] == 1000 + 1000 + 300
    partial = simulate_journey(c, loadout(), FIGHTER, 4, SEED, 0)
    assert partial["orders_done"] == 1 and partial["money"] == 1000 + 1000
    # the aggregate agrees, and an unknown choice is refused.
    agg = run_journeys(c, loadout(), {**FIGHTER, "order_choice": "listed"}, 10, SEED, 3)
    assert agg["completion_day"] == {6: 3}
    with pytest.raises(ValueError):
        simulate_journey(c, loadout(), {**FIGHTER, "order_choice": "random"}, 10, SEED, 0)
    with pytest.raises(ValueError):
        run_journeys(c, loadout(), {**FIGHTER, "order_choice": None}, 10, SEED, 1)


# --------------------------------------------------------------------------
# Stage E: Influence for wins (K-06), selling surplus equipment at half price (Z-12, Z-13)
# --------------------------------------------------------------------------


def test_k06_wins_earn_influence(tmp_path, default_content):
    # cols 1 and 2: a fight against a rat and a big rat each, which a berdanka always wins (test_k08):
    # two fights won, four monsters killed; Influence is paid per fight, not per monster.
    groups = ({"monsters": ["rat", "big_rat"], "min_danger": 1, "max_danger": 1, "weight": 1},)

    def content(name, progression, danger=("0 1 1 0",), skills=()):
        return make_content(tmp_path, ["R " * (len(danger[0].split()) - 1) + "R"], danger=list(danger),
                            events={"nothing": level(0), "monster": level(1), "skill": level(2)},
                            groups=groups, skills=skills, monsters_extra=RATS, progression=progression, name=name)

    berdanka = loadout(weapon="berdanka")
    two = content("two", {"influence_per_win": 2})
    for trial in range(5):
        res = simulate_journey(two, berdanka, FIGHTER, 1, SEED, trial)
        assert res["completed"] and res["kills"] == 4 and res["deaths"] == 0
        assert res["influence"] == 3 + 2 + 2
    # with levels: 5 xp per fight (1 per max hp); the first fight reaches level 2 (+1 Influence).
    p = {**prog([5] + HIGH[1:], level_influence=[1] + [0] * 10, xp_per_monster_hp=1), "influence_per_win": 2}
    res = simulate_journey(content("levels", p), berdanka, FIGHTER, 1, SEED, 0)
    assert (res["xp"], res["level"], res["influence"]) == (10, 2, 3 + 2 + 1 + 2)
    # absent: 0 (stage B content); a runner with reputation 0 escapes (Z-33): no fight won, nothing.
    assert simulate_journey(content("absent", {}), berdanka, FIGHTER, 1, SEED, 0)["influence"] == 3
    res = simulate_journey(two, berdanka, {**FIGHTER, "fight": "runner"}, 1, SEED, 0)
    assert res["kills"] == 0 and res["influence"] == 3
    # Influence won pays a later re-roll: influence_start 0, one win (+2), then a skill test that always
    # fails (target 100) at col 2: the re-roll is bought (2 - 1).  Without the win there is none to buy.
    skills = ({"id": "test", "attribute": "agility", "target": 100, "damage_dice": 0, "missed_turns": 0,
               "min_danger": 2, "max_danger": 2, "weight": 1},)
    reroll = content("reroll", {"influence_start": 0, "influence_per_win": 2}, danger=("0 1 2 0",), skills=skills)
    res = simulate_journey(reroll, berdanka, FIGHTER, 1, SEED, 0)
    assert res["kills"] == 2 and res["influence"] == 2 - 1
    res = simulate_journey(reroll, berdanka, {**FIGHTER, "fight": "runner"}, 1, SEED, 0)
    assert res["kills"] == 0 and res["influence"] == 0
    # the default content pays 1 per win; a negative value is refused.
    assert progression_settings(default_content)["influence_per_win"] == 1
    with pytest.raises(ValueError):
        simulate_journey(content("bad", {"influence_per_win": -1}), berdanka, FIGHTER, 1, SEED, 0)


def test_z12_surplus_cards_sell_at_half_price(tmp_path):
    # cache_content's pit at col 2 (avoided on 4+; the trial dies there on day 1 and passes on day 3),
    # the cordon at col 0, the bar at col 3, the target at col 5 (cost 1 each, 6 steps a day).
    trial = die_then_live_trial()
    pit = ({"id": "pit", "dice": 0, "bonus": 100, "avoid_on": 4, "min_danger": 1, "max_danger": 1, "weight": 1},)

    def content(name, shops, items=None):
        return make_content(tmp_path, ["R R R R R R"], danger=["0 0 1 0 0 0"],
                            events={"nothing": level(0), "trap": level(1)}, traps=pit, shops=shops, items=items,
                            bases=(("cordon", (0, 0)), ("bar", (3, 0))), sites=(("target", (5, 0)),), name=name)

    vest = loadout(body="vest")
    both = {"cordon": ["vest"], "bar": ["vest"]}
    c = content("vest", both)
    # day 1: dies at the pit; the cache holds 1000 G and the vest.  Day 2: the replacement (500 G) buys a
    # vest (deck 4 - 1 - 1), which ends the day.  Day 3: passes the pit, recovers the cache (a second
    # vest, 1000 G), then at the bar sells the surplus vest for floor(500 * 0.5) = 250 (back to its deck)
    # and buys nothing: the sale alone ends the day (Z-13).  Day 4: the target (+1000).
    day3 = simulate_journey(c, vest, FIGHTER, 3, SEED, trial)
    assert day3["deaths"] == 1 and day3["traffic"] == {(1, 0): 2, (2, 0): 2, (3, 0): 1}
    assert day3["sold"] == {"vest": 1} and day3["sold_for"] == 250
    assert day3["owned"] == {"vest": 1} and day3["deck"]["vest"] == 4 - 1 - 1 + 1
    assert day3["money"] == 0 + 1000 + 250 and day3["purchases"] == {"vest": 1} and day3["spent"] == 500
    res = simulate_journey(c, vest, FIGHTER, 10, SEED, trial)
    assert res["completion_day"] == 4 and res["money"] == 1250 + 1000 and res["sold"] == {"vest": 1}
    # without recovery there is no surplus: no sale, and the day goes on past the bar.
    res = simulate_journey(c, vest, {**FIGHTER, "recover_loot": False}, 10, SEED, trial)
    assert res["completion_day"] == 3 and res["sold"] == {} and res["sold_for"] == 0
    assert res["owned"] == {"vest": 1} and res["money"] == 1000 and res["deck"]["vest"] == 2
    # a bar that sells nothing still buys the surplus vest; a base missing from [shops] does not (Z-40):
    # the second vest is kept to the end.
    res = simulate_journey(content("empty", {"cordon": ["vest"], "bar": []}), vest, FIGHTER, 10, SEED, trial)
    assert res["completion_day"] == 4 and res["sold"] == {"vest": 1} and res["money"] == 2250
    res = simulate_journey(content("noshop", {"cordon": ["vest"]}), vest, FIGHTER, 10, SEED, trial)
    assert res["completion_day"] == 3 and res["sold"] == {} and res["owned"] == {"vest": 2}
    assert res["money"] == 2000 and res["deck"]["vest"] == 2
    # the fraction is rules.toml [market] sell_fraction, as the decimal written: floor(500 * 3/10) = 150.
    third = content("third", both)
    third["rules"]["market"]["sell_fraction"] = 0.3
    res = simulate_journey(third, vest, FIGHTER, 10, SEED, trial)
    assert res["sold_for"] == 150 and res["money"] == 0 + 1000 + 150 + 1000
    # consumables above their loadout count sell too, rounded down: the replacement buys a medkit
    # (price 101 here) and a molotov (100), 500 -> 299; the cache adds one of each; at the bar one of
    # each is sold for floor(50.5) = 50 and 50.
    kit = loadout(healing={"medkit": 1}, explosives={"molotov": 1})
    shops = {"cordon": ["medkit", "molotov"], "bar": ["medkit", "molotov"]}
    c = content("consumables", shops, items={"medkit": {"price": 101}})
    res = simulate_journey(c, kit, FIGHTER, 10, SEED, trial)
    assert res["completion_day"] == 4 and res["purchases"] == {"medkit": 1, "molotov": 1}
    assert res["sold"] == {"medkit": 1, "molotov": 1} and res["sold_for"] == 50 + 50
    assert res["healing"] == {"medkit": 1} and res["explosives"] == {"molotov": 1} and res["used"] == {}
    assert res["deck"]["medkit"] == 3 and res["deck"]["molotov"] == 3
    assert res["money"] == 500 - 201 + 1000 + 100 + 1000


# --------------------------------------------------------------------------
# Rule fidelity: K-07, Z-10, K-05, Z-28, Z-29, K-04, Z-06
# --------------------------------------------------------------------------


def test_k07_missed_turn_ends_the_day_at_once(tmp_path):
    """The failed test on col 1 ends day 1 there: no more steps, no heal, no asset limit."""
    c = make_content(tmp_path, EIGHT, danger=SKILL_DANGER, events={"nothing": level(0), "skill": level(1)},
                     skills=({"id": "test", "attribute": "agility", "target": 100, "damage_dice": 1,
                              "missed_turns": 1, "min_danger": 1, "max_danger": 1, "weight": 1},),
                     progression={"influence_start": 0, "asset_limit": 0})
    day1 = simulate_journey(c, loadout(healing={"medkit": 1}), FIGHTER, 1, SEED, 0)
    assert day1["traffic"] == {(1, 0): 1}
    assert day1["discarded"] == {} and day1["healing"] == {"medkit": 1} and day1["used"] == {}
    assert day1["hp"] == NOVICE_HP - _skill_dice(0, 2)[1]  # hurt, not healed (the day is over)
    # day 2 is missed (no movement, no limit); day 3 walks on and the limit runs that evening.
    day2 = simulate_journey(c, loadout(healing={"medkit": 1}), FIGHTER, 2, SEED, 0)
    assert day2["traffic"] == {(1, 0): 1} and day2["discarded"] == {}
    day3 = simulate_journey(c, loadout(healing={"medkit": 1}), FIGHTER, 3, SEED, 0)
    assert day3["completed"] and day3["completion_day"] == 3


def test_z10_a_second_death_leaves_a_second_cache(tmp_path):
    """Pits at cols 2 and 4: the first stalker dies at col 2, the second at col 4; both
    caches lie where they fell (no recovery), the first one not wiped."""
    traps = ({"id": "pit", "dice": 0, "bonus": 100, "avoid_on": 4, "min_danger": 1, "max_danger": 1,
              "weight": 1},)
    c = make_content(tmp_path, ["R R R R R R"], danger=["0 0 1 0 1 0"], events={"nothing": level(0),
                     "trap": level(1)}, traps=traps)
    trial = next(t for t in range(500) if [d < 4 for d in (lambda s: [s.die(6) for _ in range(3)])(
        Stream(SEED, t, TRAP))] == [True, False, True])
    res = simulate_journey(c, loadout(), {**FIGHTER, "recover_loot": False}, 2, SEED, trial)
    assert res["deaths_at"] == {(2, 0): 1, (4, 0): 1}
    assert res["caches"] == {(2, 0): 1000, (4, 0): 500}
    # a third death on a hex that holds a cache adds to it
    third = next(t for t in range(2000) if [d < 4 for d in (lambda s: [s.die(6) for _ in range(3)])(
        Stream(SEED, t, TRAP))] == [True, True, False])
    res = simulate_journey(c, loadout(), {**FIGHTER, "recover_loot": False}, 2, SEED, third)
    assert res["caches"] == {(2, 0): 1500}
    # with recovery, the replacement walks to the cache and takes it
    res = simulate_journey(c, loadout(), FIGHTER, 2, SEED, trial)
    assert res["caches"] == {(4, 0): 1500} and res["deaths"] == 2


def test_z28_space_gate_cannot_be_bought_or_found_again(tmp_path):
    orders = ({"id": "to_bar", "destination": "bar", "reward": 1000, "step_penalty": 0},
              {"id": "home", "destination": "cordon", "reward": 500, "step_penalty": 0})
    c = make_content(tmp_path, LINE, bases=(("cordon", (0, 0)), ("bar", (7, 0))), sites=(), orders=orders,
                     shops={"bar": ["space_gate"], "cordon": []}, items={"space_gate": {"price": 100}})
    res = simulate_journey(c, loadout(one_shot=["space_gate"]), FIGHTER, 10, SEED, 0)
    assert res["gate_used"] and res["flights"] == {"space_gate": 1}
    assert res["purchases"] == {} and res["deck"]["space_gate"] == 3  # not bought again, and he walks home
    assert res["completion_day"] == 4
    finds = ({"id": "gate", "kind": "item", "item": "space_gate", "amount": 0, "min_danger": 1,
              "max_danger": 1, "weight": 1},)
    f = make_content(tmp_path, LINE, danger=["0 1 1 1 1 1 1 0"], bases=(("cordon", (0, 0)), ("bar", (7, 0))),
                     sites=(), orders=orders, events={"nothing": level(0), "find": level(1)}, finds=finds,
                     name="found")
    res = simulate_journey(f, loadout(one_shot=["space_gate"]), FIGHTER, 10, SEED, 0)
    assert res["found"] == {} and res["owned"] == {} and res["flights"] == {"space_gate": 1}


def test_z29_location_steps_pay_only_inside_a_location(tmp_path):
    """Road hexes, 6 steps a day.  A location is a site and the hexes within
    location_radius of it; the flashlight (+1) and goggles (+2) pay only for
    moves into location hexes, and do not stack."""
    def days(terrain, kit, radius=1, to_base=False):
        width = len(terrain[0].split())
        name = f"w{width}r{radius}{'-'.join(kit)}{to_base}"
        if to_base:  # the goal is a base, and the map has no site: no location anywhere
            c = make_content(tmp_path, terrain, bases=(("cordon", (0, 0)), ("bar", (width - 1, 0))), sites=(),
                             orders=({"id": "o", "destination": "bar", "reward": 0, "step_penalty": 0},),
                             location_radius=radius, name=name)
        else:
            c = make_content(tmp_path, terrain, location_radius=radius, name=name)
        return simulate_journey(c, loadout(location=list(kit)), FIGHTER, 5, SEED, 0)["completion_day"]

    assert days(EIGHT, ()) == 2                      # 7 steps
    assert days(EIGHT, ("flashlight",)) == 1         # col 6 or 7 paid by the flashlight
    assert days(EIGHT, ("flashlight",), to_base=True) == 2  # no location on the way: no help
    ten = ["R R R R R R R R R R"]                    # 9 steps; radius 2: cols 7, 8, 9 are the location
    assert days(ten, ("nvg",), radius=2) == 2        # 6 + 2 < 9
    assert days(ten, ("nvg", "flashlight"), radius=2) == 2  # one active: still 2, not 3 (no stacking)
    eleven = ["R R R R R R R R R"]                   # 8 steps: 6 + 2 suffice
    assert days(eleven, ("nvg",), radius=2) == 1
    assert days(eleven, ("flashlight",), radius=2) == 2


def test_k04_level_points_raise_the_lowest_attribute_for_later_tests(tmp_path):
    """Level 2 at the first order (10 xp) gives 2 attribute points: agility (1) is the
    lowest, then the first listed on the tie (strength). A replacement starts afresh."""
    p = prog([10] + HIGH[1:], level_points=[2] + [0] * 10, xp_per_order=10)
    orders = ({"id": "a", "destination": "target", "reward": 0, "step_penalty": 0},)
    c = make_content(tmp_path, EIGHT, progression=p, attributes={"agility": 1}, orders=orders)
    res = simulate_journey(c, loadout(), FIGHTER, 5, SEED, 0)
    assert res["level"] == 2 and res["attributes"] == {"strength": 3, "agility": 2, "perception": 2, "will": 2}


def test_k04_levelled_attribute_passes_a_later_skill_test(tmp_path):
    """The first order (col 1) brings level 2 and, in "grown", 3 attribute points;
    the agility 5 test on col 2 then passes on 2-6 instead of 5-6, and a fail costs
    3 missed days: far more campaigns end within 2 days (the attributes feed later tests)."""
    orders = ({"id": "near", "destination": "near", "reward": 0, "step_penalty": 0},
              {"id": "far", "destination": "target", "reward": 0, "step_penalty": 0})
    skills = ({"id": "t", "attribute": "agility", "target": 5, "damage_dice": 0, "missed_turns": 3,
               "min_danger": 1, "max_danger": 1, "weight": 1},)
    common = dict(danger=["0 0 1 0 0 0 0 0"], sites=(("near", (1, 0)), ("target", (-1, 0))), orders=orders,
                  events={"nothing": level(0), "skill": level(1)}, skills=skills, attributes={"agility": 0})
    flat = make_content(tmp_path, EIGHT, progression={"influence_start": 0, **prog(HIGH, xp_per_order=10)},
                        name="flat", **common)
    grown = make_content(tmp_path, EIGHT, progression={"influence_start": 0, **prog(
        [10] + HIGH[1:], xp_per_order=10, level_points=[3] + [0] * 10)}, name="grown", **common)
    done = [sum(simulate_journey(c, loadout(), FIGHTER, 2, SEED, t)["completed"] for t in range(200))
            for c in (flat, grown)]
    assert done[0] < done[1]


def test_z06_permanent_bonuses_stay_with_the_replacement(tmp_path):
    """Verzila's 35 max hp stays after a death (Z-06); Mazhor's money does not (Z-04, Z-09)."""
    c = trap_content(tmp_path, avoid_on=7)
    verzila = simulate_journey(c, loadout(character="verzila"), FIGHTER, 1, SEED, 0)
    assert verzila["deaths"] == 1 and verzila["max_hp"] == verzila["hp"] == 35
    mazhor = simulate_journey(c, loadout(character="mazhor"), FIGHTER, 1, SEED, 0)
    assert mazhor["deaths"] == 1 and mazhor["money"] == 500


# --------------------------------------------------------------------------
# Stage G: the order deck and the campaign's goal (Z-09, Z-12, Z-41)
# --------------------------------------------------------------------------

# A road of 19 hexes, the cordon at col 0, 6 steps a day: cols 6, 12 and 18 are reached on days 1, 2 and 3.
ROAD19 = [" ".join("R" * 19)]
ROAD19_SITES = (("near", (6, 0)), ("mid", (12, 0)), ("far", (18, 0)))
# The day the first order is completed, by the card taken first (cards listed "far", "near", "mid").
FIRST_DAY = [3, 1, 2]


def road_orders(*ids):
    return tuple({"id": i, "destination": i, "reward": 100, "step_penalty": 0} for i in ids)


def offer_content(tmp_path, name, **journey):
    """ROAD19 with the cards "far", "near", "mid" and the [journey] keys ``journey``."""
    return make_content(tmp_path, ROAD19, sites=ROAD19_SITES, orders=road_orders("far", "near", "mid"),
                        journey=journey, name=name)


def offer_drawn(trial, size, n=3):
    """The cards an offer of ``size`` draws from a deck of ``n`` (spec "The deck" step 2), from the raw
    words of the trial's ORDERS stream: card j is the ((w_j * (n - j)) >> 64)-th of those not drawn yet."""
    key = Stream(SEED, trial, ORDERS).key
    undrawn = list(range(n))
    return [undrawn.pop((stream_word(key, j + 1) * (n - j)) >> 64) for j in range(size)]


def test_z41_offer_draws_from_the_orders_stream(tmp_path):
    """order_offer = 1 of 3 cards: the card taken is the one pick(ORDERS, 3) names, whatever the choice."""
    c = offer_content(tmp_path, "one", order_offer=1)
    seen = set()
    for trial in range(30):
        [card] = offer_drawn(trial, 1)
        seen.add(card)
        for strategy in (FIGHTER, NEAREST):
            assert simulate_journey(c, loadout(), strategy, 3, SEED, trial)["first_order_day"] == FIRST_DAY[card]
    assert seen == {0, 1, 2}


def test_z41_listed_takes_the_earliest_card_of_the_offer(tmp_path):
    """order_offer = 2 of 3 cards: "listed" takes the drawn card listed first.  An offer of the whole deck
    (order_offer absent, or not below the deck's 3 cards) always takes "far", the first card."""
    c = offer_content(tmp_path, "two", order_offer=2)
    seen = set()
    for trial in range(30):
        offer = offer_drawn(trial, 2)
        seen.add(frozenset(offer))
        assert simulate_journey(c, loadout(), FIGHTER, 3, SEED, trial)["first_order_day"] == FIRST_DAY[min(offer)]
    assert len(seen) == 3
    for name, journey in (("all", {}), ("three", {"order_offer": 3}), ("four", {"order_offer": 4})):
        whole = offer_content(tmp_path, name, **journey)
        assert {simulate_journey(whole, loadout(), FIGHTER, 3, SEED, t)["first_order_day"] for t in range(5)} == {3}


def test_z41_nearest_takes_the_nearest_card_of_the_offer(tmp_path):
    """order_offer = 2 of 3 cards: "nearest" takes the drawn card nearest to the cordon (the one reached
    first); of the whole deck, always "near"."""
    c = offer_content(tmp_path, "two", order_offer=2)
    for trial in range(30):
        nearest_day = min(FIRST_DAY[card] for card in offer_drawn(trial, 2))
        assert simulate_journey(c, loadout(), NEAREST, 3, SEED, trial)["first_order_day"] == nearest_day
    whole = offer_content(tmp_path, "all")
    assert {simulate_journey(whole, loadout(), NEAREST, 3, SEED, t)["first_order_day"] for t in range(5)} == {1}


def test_z41_bad_deck_settings_raise(tmp_path):
    bad = {"negative": {"order_offer": -1}, "fraction": {"order_offer": 1.5}, "zero": {"goal_orders": 0},
           "above": {"goal_orders": 4}, "float": {"goal_orders": 2.0}, "bool": {"goal_orders": True}}
    for name, journey in bad.items():
        c = offer_content(tmp_path, name, **journey)
        with pytest.raises(ValueError):
            simulate_journey(c, loadout(), FIGHTER, 1, SEED, 0)


# A pit at col 3, avoided on 4+: die_then_live_trial() dies there on its first pass and lives on its second.
PIT_AT_3 = ({"id": "pit", "dice": 0, "bonus": 100, "avoid_on": 4, "min_danger": 1, "max_danger": 1, "weight": 1},)
NO_RECOVER = {**FIGHTER, "recover_loot": False}


def pit_content(tmp_path, name, cards, width=6):
    """A road of ``width`` hexes, the cordon at col 0, PIT_AT_3, and one order card per (site id, col,
    reward), listed in that order."""
    return make_content(tmp_path, [" ".join("R" * width)], danger=["0 0 0 1" + " 0" * (width - 4)],
                        events={"nothing": level(0), "trap": level(1)}, traps=PIT_AT_3,
                        sites=tuple((i, (col, 0)) for i, col, _ in cards),
                        orders=tuple({"id": i, "destination": i, "reward": r, "step_penalty": 0}
                                     for i, _, r in cards), name=name)


def test_z09_death_returns_held_and_active_orders_to_the_deck(tmp_path):
    """Cards a (col 1), b (col 2), c (col 4).  Day 1: a and b completed, then the death at the pit on the
    way to c: a, b and c go back to the deck and the replacement takes a at the cordon.  Day 2: a and b
    again, the pit passed, c: every card held, the trial stops.  orders_done counts all five completions."""
    c = pit_content(tmp_path, "abc", (("a", 1, 100), ("b", 2, 200), ("c", 4, 400)))
    trial = die_then_live_trial()
    day1 = simulate_journey(c, loadout(), NO_RECOVER, 1, SEED, trial)
    assert day1["deaths"] == 1 and day1["orders_done"] == 2 and day1["first_order_day"] == 1
    assert (day1["orders_held"], day1["reputation"], day1["money"]) == (0, 0, 500)
    assert not day1["completed"] and day1["caches"] == {(3, 0): 1000 + 100 + 200}
    res = simulate_journey(c, loadout(), NO_RECOVER, 5, SEED, trial)
    assert res["deaths"] == 1 and res["orders_done"] == 5 and res["orders_held"] == 3
    assert res["reputation"] == 3 and res["money"] == 500 + 100 + 200 + 400
    assert res["completed"] and res["completion_day"] == 2 and res["first_order_day"] == 1
    assert res["traffic"] == {(1, 0): 2, (2, 0): 2, (3, 0): 2, (4, 0): 1}
    agg = run_journeys(c, loadout(), NO_RECOVER, 5, SEED, 1, trial_start=trial)
    assert agg["orders_done"] == {5: 1} and agg["orders_held"] == {3: 1}
    assert (agg["orders_done_sum"], agg["reputation_sum"]) == (5, 3)
    # "nearest", the cards listed c, a, b: the same walk, for the replacement takes the card nearest to
    # the start base (a), not the first listed (c).
    cab = pit_content(tmp_path, "cab", (("c", 4, 400), ("a", 1, 100), ("b", 2, 200)))
    res = simulate_journey(cab, loadout(), {**NO_RECOVER, "order_choice": "nearest"}, 5, SEED, trial)
    assert res["orders_done"] == 5 and res["completion_day"] == 2
    assert res["traffic"] == {(1, 0): 2, (2, 0): 2, (3, 0): 2, (4, 0): 1}


def test_z09_replacement_draws_a_new_order_at_the_start_base(tmp_path):
    """order_offer = 1 of 3 cards, all to col 6, with step penalties 0, 1, 2: a day's walk shows the
    active card.  A pit at col 1 (avoided on 4+) kills the stalker on day 1; his card goes back, and the
    replacement takes the card of the ORDERS stream's second word, pick(ORDERS, 3): on day 2 he walks
    to col 6 - its penalty."""
    pit = ({"id": "pit", "dice": 0, "bonus": 100, "avoid_on": 4, "min_danger": 1, "max_danger": 1, "weight": 1},)
    orders = tuple({"id": f"o{p}", "destination": "target", "reward": 100, "step_penalty": p} for p in range(3))
    c = make_content(tmp_path, ["R R R R R R R"], danger=["0 1 0 0 0 0 0"],
                     events={"nothing": level(0), "trap": level(1)}, traps=pit, orders=orders,
                     journey={"order_offer": 1})
    seen = set()
    for trial in range(300):
        dice = Stream(SEED, trial, TRAP)
        if not (dice.die(6) < 4 and dice.die(6) >= 4):
            continue
        card = (stream_word(Stream(SEED, trial, ORDERS).key, 2) * 3) >> 64
        seen.add(card)
        res = simulate_journey(c, loadout(), NO_RECOVER, 2, SEED, trial)
        assert res["deaths"] == 1 and max(col for col, _ in res["traffic"]) == 6 - card
    assert seen == {0, 1, 2}


def test_reach_day_records_the_first_day_of_each_count(tmp_path):
    """Cards a (col 1), b (col 2), c (col 4), d (col 11).  Day 1: 1 and 2 cards held, then the death
    (none held).  Day 2: 1 and 2 again (their days stay), 3 at c, then d is 7 steps on.  Day 3: 4."""
    c = pit_content(tmp_path, "abcd", (("a", 1, 100), ("b", 2, 100), ("c", 4, 100), ("d", 11, 100)), width=12)
    trial = die_then_live_trial()
    assert simulate_journey(c, loadout(), NO_RECOVER, 1, SEED, trial)["reach_day"] == [1, 1, None, None]
    assert simulate_journey(c, loadout(), NO_RECOVER, 2, SEED, trial)["reach_day"] == [1, 1, 2, None]
    res = simulate_journey(c, loadout(), NO_RECOVER, 5, SEED, trial)
    assert res["reach_day"] == [1, 1, 2, 3] and res["completion_day"] == 3 and res["orders_done"] == 6


def test_z41_goal_orders_sets_the_completion_day_and_play_goes_on(tmp_path):
    """Cards near, mid, far, listed in that order, are completed on days 1, 2 and 3: the campaign is
    complete the day goal_orders cards are held, and play goes on to the last card."""
    def content(name, **journey):
        return make_content(tmp_path, ROAD19, sites=ROAD19_SITES, orders=road_orders("near", "mid", "far"),
                            journey=journey, name=name)

    two = content("two", goal_orders=2)
    res = simulate_journey(two, loadout(), FIGHTER, 5, SEED, 0)
    assert res["completed"] and res["completion_day"] == 2
    assert res["orders_done"] == res["orders_held"] == 3 and res["reach_day"] == [1, 2, 3]
    assert res["traffic"] == {(i, 0): 1 for i in range(1, 19)} and res["money"] == 1000 + 300
    day2 = simulate_journey(two, loadout(), FIGHTER, 2, SEED, 0)
    assert day2["completed"] and day2["completion_day"] == 2 and day2["orders_held"] == 2
    day1 = simulate_journey(two, loadout(), FIGHTER, 1, SEED, 0)
    assert not day1["completed"] and day1["completion_day"] is None
    assert run_journeys(two, loadout(), FIGHTER, 5, SEED, 3)["completion_day"] == {2: 3}
    for goal, day in ((1, 1), (3, 3)):
        res = simulate_journey(content(f"goal{goal}", goal_orders=goal), loadout(), FIGHTER, 5, SEED, 0)
        assert res["completion_day"] == day and res["orders_done"] == 3
    assert simulate_journey(content("absent"), loadout(), FIGHTER, 5, SEED, 0)["completion_day"] == 3


def test_z41_empty_deck_ends_the_campaign(tmp_path):
    """EIGHT road hexes: an artefact at col 1, card a at col 2, card b at the bar (col 4), which buys loot.
    With a and b only, the deck is empty once b is completed: the trial stops there, with no shop visit
    and no further step, but that evening's asset limit (0: the medkit goes) runs.  With a third card c
    (col 6) he takes c, sells the artefact at the bar, which ends the day (Z-13), and reaches c on day 2."""
    finds = ({"id": "art", "kind": "artefact", "amount": 800, "min_danger": 1, "max_danger": 1, "weight": 1},)
    cards = ({"id": "a", "destination": "a", "reward": 100, "step_penalty": 0},
             {"id": "b", "destination": "bar", "reward": 200, "step_penalty": 0},
             {"id": "c", "destination": "c", "reward": 400, "step_penalty": 0})
    kw = dict(danger=["0 1 0 0 0 0 0 0"], events={"nothing": level(0), "find": level(1)}, finds=finds,
              bases=(("cordon", (0, 0)), ("bar", (4, 0))), sites=(("a", (2, 0)), ("c", (6, 0))),
              shops={"bar": []}, progression={"asset_limit": 0})
    kit = loadout(healing={"medkit": 1})
    two = make_content(tmp_path, EIGHT, orders=cards[:2], name="two", **kw)
    res = simulate_journey(two, kit, FIGHTER, 10, SEED, 0)
    assert res["completion_day"] == 1 and res["orders_held"] == 2
    assert res["traffic"] == {(i, 0): 1 for i in range(1, 5)}
    assert (res["artefact_value"], res["money"]) == (800, 1000 + 100 + 200)
    assert res["discarded"] == {"medkit": 1} and res["healing"] == {}
    three = make_content(tmp_path, EIGHT, orders=cards, name="three", **kw)
    res = simulate_journey(three, kit, FIGHTER, 10, SEED, 0)
    assert res["completion_day"] == 2 and res["orders_held"] == 3
    assert res["traffic"] == {(i, 0): 1 for i in range(1, 7)}
    assert (res["artefact_value"], res["money"]) == (0, 1000 + 100 + 200 + 800 + 400)


def test_z12_wealth_counts_money_loot_and_resale_of_held_cards(tmp_path):
    """An artefact (col 1, 800 G) and a rat (col 2: a berdanka kills it in round 1, trophy 20) on the way to
    the target (col 3, 1000 G); no shop.  wealth = money + trophies + artefacts at their value + every card
    and item held at floor(price x sell_fraction): berdanka 301 -> 150, helmet 201 -> 100, medkit 101 -> 50;
    molotov 99 -> 49, limonka 250 -> 125.  A loot cache is not his."""
    items = {"berdanka": {"price": 301}, "helmet": {"price": 201}, "medkit": {"price": 101},
             "molotov": {"price": 99}}
    finds = ({"id": "art", "kind": "artefact", "amount": 800, "min_danger": 1, "max_danger": 1, "weight": 1},)
    groups = ({"monsters": ["rat"], "min_danger": 2, "max_danger": 2, "weight": 1},)
    c = make_content(tmp_path, ["R R R R"], danger=["0 1 2 0"],
                     events={"nothing": level(0), "find": level(1), "monster": level(2)}, finds=finds,
                     groups=groups, monsters_extra=GOLD_RAT, items=items)
    kit = loadout(weapon="berdanka", head="helmet", healing={"medkit": 2})
    res = simulate_journey(c, kit, FIGHTER, 1, SEED, 0)
    assert res["completed"] and res["kills"] == 1 and res["used"] == {}
    assert (res["money"], res["trophy_value"], res["artefact_value"]) == (2000, 20, 800)
    assert res["wealth"] == 2000 + 20 + 800 + 150 + 100 + 2 * 50
    # explosives count too (a quiet road: none is thrown)
    quiet = make_content(tmp_path, ["R R"], items=items, name="quiet")
    res = simulate_journey(quiet, loadout(explosives={"molotov": 1, "limonka": 1}), FIGHTER, 1, SEED, 0)
    assert res["money"] == 2000 and res["wealth"] == 2000 + 49 + 125
    # the fraction is rules.toml [market] sell_fraction, as the decimal written: floor(301 * 3/10) = 90, ...
    c["rules"]["market"]["sell_fraction"] = 0.3
    assert simulate_journey(c, kit, FIGHTER, 1, SEED, 0)["wealth"] == 2000 + 20 + 800 + 90 + 60 + 2 * 30
    # the dead stalker's money and kit lie in the cache: the replacement's 500 G are all the wealth there is.
    dead = trap_content(tmp_path, avoid_on=7)
    res = simulate_journey(dead, kit, FIGHTER, 1, SEED, 0)
    assert res["deaths"] == 1 and res["caches"] == {(1, 0): 1000} and res["wealth"] == 500
