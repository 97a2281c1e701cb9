"""Loadouts within a budget (``sim.run.loadouts``, ``zonesim loadouts``): the
enumeration is exactly the legal loadouts (Z-11, Z-18, Z-20..Z-24, Z-32),
checked by hand and by brute force; every loadout fights the same dice, so
more armour never loses a fighter a fight; the Pareto front and the best
loadout per budget step hold their definitions; the same seed gives the same
numbers on any thread count and chunk size; bad input is one line and exit 2."""

import itertools
import json
import os
import shutil
from dataclasses import replace

import numba
import numpy as np
import polars as pl
import pytest

import strategies
from sim.analysis.stats import wilson
from sim.content import DEFAULT_DIR, ContentError, load_content
from sim.content.loadout import Loadout, LoadoutError
from sim.run.fight import fight_template, simulate_fight
from sim.run.loadouts import (MixGroup, best_per_step, enumerate_loadouts, evaluate_loadouts,
                              load_mix, monster_mix, pareto_flags, step_budgets)
from sim.run.fight import survived
from tests.conftest import edit_file, zonesim, zonesim_json

GEAR = ("firearms", "modifiers", "armour", "healing")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _key(lo: Loadout):
    """A loadout up to the order of its modifiers and counted items."""
    return (lo.character, lo.weapon, frozenset(lo.mods), lo.head, lo.body,
            frozenset((i, n) for i, n in lo.healing if n), frozenset((i, n) for i, n in lo.explosives if n),
            lo.escape_item, lo.reputation, lo.movement, lo.avoidance, lo.one_shot)


# --------------------------------------------------------------------------
# enumeration


def test_a_small_budget_by_hand(content):
    """300 G of firearms, modifiers and armour: nothing, a leather jacket (150),
    a helmet (200) or a bare Berdanka (300); a helmet and a jacket cost 350."""
    found = enumerate_loadouts(content, budget=300, families=("firearms", "modifiers", "armour"))
    assert found == [Loadout(), Loadout(body="leather_jacket"), Loadout(head="helmet"), Loadout(weapon="berdanka")]


def test_counted_items_by_hand(content):
    """400 G of stimulators (200) and explosives (molotov 100, limonka 250), up to 2 each:
    the combat stimulator (450), tyoshcha (500) and PPV (900) never fit."""
    found = enumerate_loadouts(content, budget=400, families=("healing", "explosives"))
    s, m, li = "stimulator", "molotov", "limonka"
    expected = [((), ()), ((), ((m, 1),)), ((), ((m, 2),)), ((), ((li, 1),)), ((), ((m, 1), (li, 1))),
                (((s, 1),), ()), (((s, 1),), ((m, 1),)), (((s, 1),), ((m, 2),)), (((s, 2),), ())]
    assert sorted(map(_key, found), key=repr) == sorted(
        (_key(Loadout(healing=h, explosives=e)) for h, e in expected), key=repr)
    assert len(found) == 9


def test_every_loadout_is_legal_fits_and_comes_once_in_a_fixed_order(content):
    found = enumerate_loadouts(content, budget=1200)
    assert len(found) == len({_key(lo) for lo in found}) > 1000
    for lo in found:
        assert lo.validate(content) is lo and lo.cost(content) <= 1200
        assert not any(content.items[i].family == "healing" and not content.items[i]["in_combat"]
                       for i, _ in lo.healing)  # Z-31: medkits do nothing at full health
    assert enumerate_loadouts(content, budget=1200) == found


def test_decks_and_the_explosives_cap_bound_the_counts(content):
    """Z-11: no more cards than the deck (4) even when --max-count allows 6;
    Z-18: at most 10 explosives in all."""
    stims = enumerate_loadouts(content, budget=100_000, families=("healing",), max_count=6)
    assert len(stims) == 5 * 5  # stimulator and combat stimulator, 0..4 each
    bombs = enumerate_loadouts(content, budget=100_000, families=("explosives",), max_count=4)
    assert len(bombs) == sum(1 for c in itertools.product(range(5), repeat=4) if sum(c) <= 10)
    assert max(sum(n for _, n in lo.explosives) for lo in bombs) == 10


SMALL_ITEMS = """
[firearms.berdanka]
dice = 1
price = 300
[firearms.ak47]
dice = 2
price = 1500
[modifiers.zeroing]
firearm = "berdanka"
bonus = 1
price = 100
[modifiers.rifling]
firearm = "berdanka"
bonus = 2
price = 200
[modifiers.rebored]
firearm = "ak47"
bonus = 1
price = 250
[explosives.molotov]
dice = 2
price = 100
[explosives.limonka]
dice = 3
price = 250
deck = 1
[armour.helmet]
slot = "head"
defence = 1
price = 200
[armour.leather_jacket]
slot = "body"
defence = 1
price = 150
[armour.vest]
slot = "body"
defence = 2
price = 500
[healing.medkit]
heal = 5
in_combat = false
price = 100
[healing.stimulator]
heal = 4
in_combat = true
price = 200
[escape.smoke_bomb]
reputation = -1
price = 150
[movement.zone_map]
steps = 1
price = 200
"""


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A small content set: a limonka deck of 1 and at most 2 explosives carried."""
    folder = tmp_path_factory.mktemp("small") / "content"
    shutil.copytree(DEFAULT_DIR, folder)
    (folder / "items.toml").write_text(SMALL_ITEMS, encoding="utf-8")
    edit_file(folder, "rules.toml", "max_explosives = 10", "max_explosives = 2")
    return load_content(folder)


@pytest.mark.parametrize("budget", [1000, 2200, 100_000])
def test_no_legal_loadout_is_missing_brute_force(small, budget):
    """Every combination of every item (any slot, any modifier, 0..2 of each
    counted item) that ``Loadout.validate`` accepts within the budget, less the
    families a dice fight ignores (medkits, movement), is enumerated, and
    nothing else is."""
    armour = [None, "helmet", "leather_jacket", "vest"]
    mods = ["zeroing", "rifling", "rebored"]
    expected = set()
    for weapon, n_mods, head, body, medkit, stim, molotov, limonka, escape, movement in itertools.product(
            [None, "berdanka", "ak47"], range(8), armour, armour, range(3), range(3), range(3), range(3),
            [None, "smoke_bomb"], [(), ("zone_map",)]):
        lo = Loadout(weapon=weapon, mods=tuple(m for k, m in enumerate(mods) if n_mods >> k & 1), head=head,
                     body=body, healing=(("medkit", medkit), ("stimulator", stim)),
                     explosives=(("molotov", molotov), ("limonka", limonka)), escape_item=escape, movement=movement)
        try:
            lo.validate(small)
        except LoadoutError:
            continue
        if lo.cost(small) <= budget and medkit == 0 and not movement:
            expected.add(_key(lo))
    found = enumerate_loadouts(small, budget=budget)
    assert len(found) == len(expected) and {_key(lo) for lo in found} == expected


def test_families_restrict_and_are_checked(content):
    armour = enumerate_loadouts(content, budget=100_000, families=("armour",))
    assert len(armour) == 3 * 4  # none or 2 heads, none or 3 bodies (Z-24)
    for families, message in [(("movement",), "nothing in a dice fight"), (("armor",), "unknown family"),
                              (("modifiers",), "add firearms"), ((), "none given")]:
        with pytest.raises(LoadoutError, match=message):
            enumerate_loadouts(content, budget=1000, families=families)


@pytest.mark.parametrize("kwargs, message", [
    ({"budget": 0}, "--budget: 0"), ({"budget": -5}, "--budget: -5"),
    ({"budget": 1000, "max_count": -1}, "--max-count"), ({"budget": 1000, "character": "hero"}, "--character"),
    ({"budget": 50, "families": ("firearms",)}, "raise --budget to 300 G"),
    ({"budget": 5000, "limit": 1000}, "more than 1,000 loadouts"),
])
def test_bad_enumerations_are_one_line_errors(content, kwargs, message):
    with pytest.raises(LoadoutError, match=message) as error:
        enumerate_loadouts(content, **kwargs)
    assert "\n" not in str(error.value)


# --------------------------------------------------------------------------
# evaluation on common dice


@pytest.fixture(scope="module")
def gear(content):
    """103 loadouts of firearms, modifiers, armour and stimulators within 1,000 G."""
    return enumerate_loadouts(content, budget=1000, families=GEAR)


@pytest.fixture(scope="module")
def evaluated(content, gear):
    return evaluate_loadouts(content, gear, monster_mix(content, ["bloodsucker"]), strategies.get("fighter"),
                             trials=20_000, seed=4)


def test_survival_is_that_of_an_ordinary_run_on_the_same_seed(content, gear, evaluated):
    table = evaluated.table()
    for i in (0, 17, len(gear) - 1):
        run = simulate_fight(content, gear[i], ["bloodsucker"], strategies.get("fighter"), trials=20_000, seed=4)
        row = table.row(i, named=True)
        assert row["survival"] == run.probabilities["p_survive"]
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(run.ci95["p_survive"], abs=1e-15)
        assert row["cost"] == gear[i].cost(content)


def _armour_pairs(loadouts):
    """(i, j): loadout j is loadout i with armour added in an empty slot."""
    index = {_key(lo): i for i, lo in enumerate(loadouts)}
    for i, lo in enumerate(loadouts):
        for slot, item in (("head", "helmet"), ("head", "sphere_helmet"), ("body", "leather_jacket"), ("body", "vest")):
            if getattr(lo, slot) is None and (j := index.get(_key(replace(lo, **{slot: item})))) is not None:
                yield i, j


def test_more_armour_never_loses_a_fighter_a_fight(content, gear, evaluated):
    """The fighter's choices never depend on its HP, armour only lowers each hit
    (Z-23, Z-24) and a rescue spends stimulators without waste (Z-08): on the
    same dice, every trial won with less armour is won with more."""
    pairs = list(_armour_pairs(gear))
    assert len(pairs) > 30
    for i, j in pairs:
        assert (evaluated.survivors[j] >= evaluated.survivors[i]).all(), (gear[i], gear[j])
    fighter = strategies.get("fighter")
    for i, j in pairs[::5]:
        for monsters in (["bloodsucker"], ["snork", "flesh"]):
            less, more = (survived(fight_template(content, gear[k], monsters)[0], fighter, trials=8192, seed=2)
                          for k in (i, j))
            assert (more >= less).all()


def test_more_armour_helps_the_tactician_on_average(content, gear):
    """The tactician heals by HP, so a single trial may go either way: the paired
    mean change is >= 0 within 4 standard errors."""
    tactician = strategies.get("tactician")
    for i, j in list(_armour_pairs(gear))[::6]:
        less, more = (survived(fight_template(content, gear[k], ["bloodsucker"])[0], tactician, trials=20_000,
                               seed=6).astype(float) for k in (i, j))
        diff = more - less
        assert diff.mean() >= -4 * diff.std(ddof=1) / np.sqrt(diff.size), (gear[i], gear[j])


def test_the_pareto_front_holds_its_definition(evaluated):
    table = evaluated.table()
    cost, p, flag = (table[c].to_numpy() for c in ("cost", "survival", "pareto"))
    dominated = [bool(np.any((cost <= cost[k]) & (p >= p[k]) & ((cost < cost[k]) | (p > p[k]))))
                 for k in range(table.height)]
    assert (flag == ~np.array(dominated)).all()
    assert flag[np.argmin(cost)] and flag[np.argmax(p)]


def test_pareto_ties_by_hand_and_at_random():
    flags = pareto_flags([0, 100, 100, 200, 200, 300], [0.1, 0.5, 0.5, 0.5, 0.7, 0.6])
    assert flags.tolist() == [True, True, True, False, True, False]
    rng = np.random.default_rng(1)
    cost, p = rng.integers(0, 30, 500), rng.integers(0, 12, 500) / 12  # many ties in both
    dominated = [np.any((cost <= cost[k]) & (p >= p[k]) & ((cost < cost[k]) | (p > p[k]))) for k in range(500)]
    assert (pareto_flags(cost, p) == ~np.array(dominated)).all()


def test_best_per_step_is_the_best_within_each_budget_and_monotone(evaluated):
    table = evaluated.table()
    steps = best_per_step(table, 300, 1000)
    assert steps["budget"].to_list() == step_budgets(300, 1000) == [300, 600, 900, 1000]
    for row in steps.iter_rows(named=True):
        fits = table.filter(pl.col("cost") <= row["budget"])
        assert row["cost"] <= row["budget"] and row["survival"] == fits["survival"].max()
        assert table.row(row["index"], named=True)["pareto"]
    assert steps["survival"].diff().drop_nulls().min() >= 0
    assert best_per_step(table, 5000, 1000)["budget"].to_list() == [1000]
    with pytest.raises(LoadoutError, match="--step: 0"):
        step_budgets(0, 1000)


def test_same_numbers_for_any_thread_count_and_chunk(content, gear):
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs 2 numba threads")
    groups = monster_mix(content, ["snork", "flesh"])
    runs = []
    before = numba.get_num_threads()
    try:
        for threads, chunk in ((1, 1 << 16), (2, 1 << 16), (2, 4096), (1, 777)):
            numba.set_num_threads(threads)
            runs.append(evaluate_loadouts(content, gear[::4], groups, strategies.get("tactician"), trials=10_000,
                                          seed=9, chunk=chunk).survivors)
    finally:
        numba.set_num_threads(before)
    for other in runs[1:]:
        assert np.array_equal(runs[0], other)


# --------------------------------------------------------------------------
# monster mixes


def test_a_mix_is_the_weighted_mean_of_its_groups(content, gear, tmp_path):
    path = tmp_path / "mix.toml"
    path.write_text('[[group]]\nmonsters = ["snork", "boar"]\nweight = 2\n\n[[group]]\nmonsters = ["bloodsucker"]\n',
                    encoding="utf-8")
    groups = load_mix(content, path)
    assert groups == (MixGroup(("snork", "boar"), 2.0), MixGroup(("bloodsucker",), 1.0))
    result = evaluate_loadouts(content, gear[::10], groups, strategies.get("fighter"), trials=5000, seed=1)
    table, by_group = result.table(), result.by_group()
    assert by_group.height == 2 * table.height
    for row in table.iter_rows(named=True):
        parts = by_group.filter(pl.col("index") == row["index"]).sort("group")
        w = np.array([2, 1]) / 3
        assert row["survival"] == pytest.approx(parts["survival"].to_numpy() @ w, abs=1e-12)
        assert row["ci_low"] == pytest.approx(parts["ci_low"].to_numpy() @ w, abs=1e-12)
        assert row["ci_high"] == pytest.approx(parts["ci_high"].to_numpy() @ w, abs=1e-12)
        for part in parts.iter_rows(named=True):
            assert (part["ci_low"], part["ci_high"]) == wilson(round(part["survival"] * 5000), 5000)


@pytest.mark.parametrize("text, message", [
    ("[[group]\nmonsters = 1", "malformed TOML"),
    ("", "no [[group]]"),
    ("group = 5", "no [[group]]"),
    ("[[group]]\nweight = 1", "[[group]] 1.monsters"),
    ('[[group]]\nmonsters = "snork"', "[[group]] 1.monsters"),
    ('[[group]]\nmonsters = ["snork"]\n[[group]]\nmonsters = ["dragon"]',
     "[[group]] 2.monsters: unknown monster 'dragon'"),
    ('[[group]]\nmonsters = ["snork"]\nweight = 0', "[[group]] 1.weight: 0"),
    ('[[group]]\nmonsters = ["snork"]\nweight = "heavy"', "[[group]] 1.weight"),
    ('[[group]]\nmonsters = ["snork"]\nweight = true', "[[group]] 1.weight"),
    ('[[group]]\nmonsters = ["snork"]\ncount = 2', "[[group]] 1.count: unknown field"),
    ('title = "x"\n[[group]]\nmonsters = ["snork"]', "title: unknown key"),
])
def test_a_bad_mix_file_is_one_line_naming_the_file_and_field(content, tmp_path, text, message):
    path = tmp_path / "mix.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as error:
        load_mix(content, path)
    assert str(error.value).startswith(f"{path}: ") and message in str(error.value)
    assert "\n" not in str(error.value)


def test_a_missing_mix_file(content, tmp_path):
    with pytest.raises(ContentError, match="mix file not found"):
        load_mix(content, tmp_path / "nowhere.toml")


# --------------------------------------------------------------------------
# the command line


def _json(*args, env=None):
    return zonesim_json("loadouts", *args, env=env)


SMALL_RUN = ["--budget", 700, "-m", "snork", "--families", ",".join(GEAR), "--trials", 5000, "--step", 200]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("loadouts") / "run"
    return _json(*SMALL_RUN, "--out", out), out


def test_cli_json_reports_every_loadout_the_front_and_the_steps(content, written):
    data, _ = written
    found = enumerate_loadouts(content, budget=700, families=GEAR)
    assert data["n_loadouts"] == len(data["loadouts"]) == len(found) == 38
    assert [r["description"] for r in data["loadouts"]][:2] == ["no firearm", "no firearm · 1 combat_stimulator"]
    front = [r for r in data["loadouts"] if r["pareto"]]
    assert data["front"] == sorted(front, key=lambda r: r["cost"]) and data["n_pareto"] == len(front)
    assert [r["budget"] for r in data["best_per_step"]] == [200, 400, 600, 700]
    assert data["trials"] == 5000 and data["fights"] == 38 * 5000 and data["groups"] == [
        {"monsters": ["snork"], "weight": 1.0}]
    for r in data["loadouts"]:
        assert 0 <= r["ci_low"] <= r["survival"] <= r["ci_high"] <= 1 and r["cost"] <= 700


def test_cli_out_writes_tables_a_chart_and_a_manifest(written):
    data, out = written
    manifest = json.loads((out / "manifest.json").read_text())
    for name in manifest["files"]:
        assert (out / name).is_file(), name
    assert (out / "charts" / "loadouts.png").read_bytes().startswith(PNG_SIGNATURE)
    table = pl.read_parquet(out / "loadouts.parquet")
    assert table["survival"].to_list() == [r["survival"] for r in data["loadouts"]]
    assert pl.read_parquet(out / "loadouts_steps.parquet")["index"].to_list() == [
        r["index"] for r in data["best_per_step"]]
    assert pl.read_parquet(out / "loadouts_groups.parquet").height == table.height
    assert manifest["seed"] == 1 and manifest["summary"]["n_loadouts"] == 38


def test_cli_same_numbers_on_one_and_two_threads(written):
    env = {**os.environ, "NUMBA_NUM_THREADS": "2"}
    numbers = lambda d: {k: v for k, v in d.items() if k not in ("elapsed_s", "fights_per_s")}  # noqa: E731
    one = _json(*SMALL_RUN, "--threads", 1, env=env)
    two = _json(*SMALL_RUN, "--threads", 2, env=env)
    assert numbers(one) == numbers(two) == numbers(written[0])


def test_cli_table_output():
    proc = zonesim("loadouts", *SMALL_RUN, "--top", 3)
    assert proc.returncode == 0, proc.stderr
    for text in ("38 loadouts enumerated", "Pareto front", "Best loadout within each budget step", "<= 700",
                 "more rows"):
        assert text in proc.stdout, text


def _mix_file(tmp_path):
    path = tmp_path / "mix.toml"
    path.write_text('[[group]]\nmonsters = ["snork"]\nweight = -2\n', encoding="utf-8")
    return path


BAD = {
    "zero budget": (["--budget", 0, "-m", "snork"], "--budget: 0"),
    "negative budget": (["--budget", -100, "-m", "snork"], "--budget: -100"),
    "zero trials": (["--budget", 500, "-m", "snork", "--trials", 0], "--trials: 0"),
    "unknown monster": (["--budget", 500, "-m", "dragon"], "dragon"),
    "no monsters": (["--budget", 500], "--monster/--mix"),
    "both --monster and --mix": (["--budget", 500, "-m", "snork", "--mix", "MIX"], "give one of them"),
    "bad mix file": (["--budget", 500, "--mix", "MIX"], "weight: -2"),
    "missing mix file": (["--budget", 500, "--mix", "nowhere.toml"], "nowhere.toml"),
    "unknown family": (["--budget", 500, "-m", "snork", "--families", "firearms,armor"], "armor"),
    "a family with no fight use": (["--budget", 500, "-m", "snork", "--families", "avoidance"], "avoidance"),
    "a budget nothing fits": (["--budget", 50, "-m", "snork", "--families", "firearms"], "buys nothing"),
    "unknown character": (["--budget", 500, "-m", "snork", "--character", "hero"], "hero"),
    "unknown strategy": (["--budget", 500, "-m", "snork", "--strategy", "berserker"], "berserker"),
    "zero step": (["--budget", 500, "-m", "snork", "--step", 0], "--step: 0"),
    "zero top": (["--budget", 500, "-m", "snork", "--top", 0], "--top: 0"),
    "negative max count": (["--budget", 500, "-m", "snork", "--max-count", -1], "--max-count"),
    "too many loadouts": (["--budget", 5000, "-m", "snork", "--max-loadouts", 1000], "--max-loadouts"),
    "missing --budget": (["-m", "snork"], "--budget"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_input_is_one_error_line_and_exit_2(tmp_path, case):
    args, message = BAD[case]
    args = [_mix_file(tmp_path) if a == "MIX" else a for a in args]
    proc = zonesim("loadouts", *args, "--out", tmp_path / "out", cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("zonesim: error: ") and message in lines[0], proc.stderr
    assert proc.stdout == "" and not (tmp_path / "out").exists()



def test_loadouts_for_a_journey_rank_by_completion():
    """--journey DAYS: every loadout (medkits, Zone-movement and avoidance items
    included) goes on the same campaigns; the ranking is by completion (Z-41)."""
    proc = zonesim("loadouts", "--budget", 400, "--journey", 10, "--trials", 300, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    rows = data["loadouts"]
    assert any("zone_map" in r["description"] for r in rows) and any("medkit" in r["description"] for r in rows)
    assert all(r["ci_low"] <= r["survival"] <= r["ci_high"] and r["cost"] <= 400 for r in rows)
    bad = zonesim("loadouts", "--budget", 400, "--journey", 10, "-m", "snork")
    assert bad.returncode == 2 and "--journey" in bad.stderr
