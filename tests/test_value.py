"""Item values in fights (``sim.run.value``, ``zonesim value``): paired on the
same dice, so an item that changes nothing is worth exactly 0, a better item
is worth more, and paired intervals are narrower than unpaired ones."""

import json
import math
import re
import shutil

import numpy as np
import pytest

import strategies
from sim.content import DEFAULT_DIR, load_content
from sim.content.loadout import Loadout
from sim.run.fight import simulate_fight
from sim.run.value import fight_measure, item_values, item_variants
from tests.conftest import zonesim

BASE = Loadout(weapon="ak47", healing=(("stimulator", 1),))
TRIALS = 60_000


@pytest.fixture(scope="module")
def values(content):
    measure = fight_measure(content, ["bloodsucker"], strategies.get("fighter"))
    return item_values(content, BASE, measure, trials=TRIALS, seed=3)


def _row(result, item):
    return result.table.filter(result.table["item"] == item).row(0, named=True)


def test_value_is_the_difference_of_the_same_seeded_runs(content, values):
    """Pairing: the value equals p(with) - p(without) of two ordinary runs on one seed."""
    fighter = strategies.get("fighter")
    p0 = simulate_fight(content, BASE, ["bloodsucker"], fighter, trials=TRIALS, seed=3).probabilities["p_survive"]
    vest = Loadout(weapon="ak47", healing=(("stimulator", 1),), body="vest")
    p1 = simulate_fight(content, vest, ["bloodsucker"], fighter, trials=TRIALS, seed=3).probabilities["p_survive"]
    assert _row(values, "vest")["value"] == pytest.approx(p1 - p0, abs=1e-12)
    assert values.base_survival == pytest.approx(p0, abs=1e-12)


def test_an_item_that_changes_nothing_is_worth_exactly_zero(values):
    """The fighter never tries to escape: escape items change no trial at all,
    so they are "no use here", never "over-priced"."""
    for item in ("smoke_bomb", "camo_cloak", "stealth_generator"):
        row = _row(values, item)
        assert (row["value"], row["ci_low"], row["ci_high"]) == (0.0, 0.0, 0.0)
        assert row["verdict"] == "no use here"


def test_a_dominating_item_is_worth_more(values):
    vest, jacket = _row(values, "vest"), _row(values, "leather_jacket")
    assert vest["ci_low"] > jacket["ci_high"] > 0


def test_paired_intervals_are_narrower_than_unpaired(values):
    for item in ("helmet", "stimulator", "leather_jacket"):
        row = _row(values, item)
        assert row["paired_se"] < 0.75 * row["unpaired_se"], item


def test_fair_prices_follow_the_fitted_exchange_rate(values):
    priced = values.table.filter(values.table["cost_change"] > 0)
    for row in priced.iter_rows(named=True):
        assert row["fair_price"] == pytest.approx(row["value"] / values.rate)
        assert row["fair_low"] <= row["fair_price"] <= row["fair_high"]


def test_variants_respect_the_rules(content):
    full = Loadout(weapon="ak47", explosives=(("limonka", 4), ("molotov", 4), ("ppv", 2)))
    names = [item for item, _ in item_variants(content, full)]
    assert not {"limonka", "molotov", "tyoshcha", "ppv"} & set(names)  # Z-18: at most 10 explosives
    assert "rebored" in names and "zeroing" not in names                  # Z-21: modifiers fit one firearm


def test_value_cli_json_and_bad_input(tmp_path):
    proc = zonesim("value", "-m", "snork", "--weapon", "ak47", "--trials", "20000", "--json", "--out", tmp_path / "v")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["strategies"][0]["trials"] == 20000 and (tmp_path / "v" / "value.parquet").is_file()
    assert {r["strategy"] for r in data["items"]} == {"fighter"}
    bad = zonesim("value", "-m", "snork", "--trials", "1")
    assert bad.returncode == 2 and "--trials: 1" in bad.stderr and bad.stderr.count("\n") == 1


def test_a_useless_new_item_is_worth_zero(tmp_path):
    folder = tmp_path / "c"
    shutil.copytree(DEFAULT_DIR, folder)
    with open(folder / "items.toml", "a") as f:
        f.write('\n[armour.paper_hat]\nslot = "head"\ndefence = 0\nprice = 300\n')
    game = load_content(folder)
    result = item_values(game, BASE, fight_measure(game, ["snork"], strategies.get("fighter")), trials=20_000,
                         seed=5)
    row = _row(result, "paper_hat")
    assert (row["value"], row["ci_low"], row["ci_high"], row["verdict"]) == (0.0, 0.0, 0.0, "no use here")


def test_values_per_strategy_and_until_a_target_interval(tmp_path):
    proc = zonesim("value", "-m", "bloodsucker", "--weapon", "ak47", "--strategy", "fighter", "--strategy", "runner",
                   "--reputation", "5", "--trials", "400000", "--target-ci", "0.02", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    runs = {r["strategy"]: r for r in data["strategies"]}
    assert set(runs) == {"fighter", "runner"} and all(r["trials"] < 400_000 for r in runs.values())
    for r in data["items"]:
        assert r["ci_high"] - r["ci_low"] < 0.02
    camo = {r["strategy"]: r["value"] for r in data["items"] if r["item"] == "camo_cloak"}
    assert camo["fighter"] == 0.0 and camo["runner"] != 0.0  # only a runner uses an escape item


def test_same_numbers_for_any_chunking(content):
    fighter = strategies.get("fighter")
    one = item_values(content, BASE, fight_measure(content, ["snork"], fighter), trials=30_000, seed=8)
    many = item_values(content, BASE, fight_measure(content, ["snork"], fighter), trials=30_000, seed=8,
                       chunk=4096)
    assert one.table.equals(many.table) and one.rate == many.rate


@pytest.fixture(scope="module")
def skirmish_values(content):
    from sim.content.skirmish import load_arena, load_skirmish
    from sim.run.skirmish import get_skirmish_strategy, skirmish_measure

    sk = load_skirmish(content)
    measure = skirmish_measure(content, sk, ["snork"], load_arena(sk), get_skirmish_strategy("hold"))
    return item_values(content, BASE, measure, trials=20_000, seed=4)


def test_skirmish_item_values_use_the_same_hooks(content, skirmish_values):
    """Skirmishes plug into the same item values: an escape item does nothing in a
    skirmish (0 exactly, on common dice), armour helps, medkits are left out (Z-31)."""
    table = skirmish_values.table
    assert _row(skirmish_values, "camo_cloak")["value"] == 0
    assert _row(skirmish_values, "camo_cloak")["ci_high"] == _row(skirmish_values, "camo_cloak")["ci_low"] == 0
    exo = _row(skirmish_values, "exoskeleton")
    assert exo["ci_low"] > 0 and exo["value"] > _row(skirmish_values, "leather_jacket")["value"]
    assert "medkit" not in table["item"].to_list()
    assert 0 < skirmish_values.base_survival < 1


def test_value_cli_skirmish_mode():
    proc = zonesim("value", "--mode", "skirmish", "-m", "blind_dog", "--weapon", "berdanka", "--trials", 3000,
                   "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["mode"] == "skirmish" and data["strategies"][0]["strategy"] == "hold"
    bad = zonesim("value", "--mode", "duel", "-m", "snork", "--weapon", "ak47")
    assert bad.returncode == 2 and "--mode" in bad.stderr


def test_no_exchange_rate_gives_no_verdict(content):
    """A runner at reputation 0 always escapes (Z-33): nothing has value, no rate
    can be fitted, and no item is called over- or under-priced: each changes no
    trial, so each is of no use here."""
    result = item_values(content, BASE, fight_measure(content, ["bloodsucker"], strategies.get("runner")),
                         trials=2_000, seed=1)
    priced = result.table.filter(result.table["cost_change"] > 0)
    assert math.isnan(result.rate) and set(priced["verdict"]) == {"no use here"}


def test_synergy_is_the_pairs_value_minus_its_parts(content):
    """Pairs on common dice: a do-nothing item has no synergy with anything (0
    exactly, on both scales); Doktor's +2 per use (Z-03) makes stimulators worth
    more together; two modifiers of one firearm look like substitutes in
    survival probability, which saturates, but are complements on the log-odds
    of survival, where each kills faster once the other is there."""
    from sim.run.value import synergies, synergy_pairs

    base = Loadout(weapon="ak47", healing=(("stimulator", 1),))
    measure = fight_measure(content, ["bloodsucker"], strategies.get("fighter"))
    pairs = synergy_pairs(content, base)
    assert ("rebored", "laser_sight") in pairs and ("stimulator", "character=doktor") in pairs
    assert ("camo_cloak", "reputation=2") in pairs
    table = synergies(content, base, measure, pairs + [("camo_cloak", "laser_sight")], trials=60_000, seed=2)
    row = {(r["a"], r["b"]): r for r in table.iter_rows(named=True)}
    cloak = row[("camo_cloak", "laser_sight")]
    assert (cloak["synergy"], cloak["ci_low"], cloak["ci_high"]) == (0.0, 0.0, 0.0)
    assert (cloak["synergy_log_odds"], cloak["log_odds_ci_low"], cloak["log_odds_ci_high"]) == (0.0, 0.0, 0.0)
    assert row[("stimulator", "character=doktor")]["ci_low"] > 0
    assert row[("stimulator", "character=doktor")]["log_odds_ci_low"] > 0
    assert row[("rebored", "laser_sight")]["ci_high"] < 0 < row[("rebored", "laser_sight")]["log_odds_ci_low"]
    both = row[("rebored", "laser_sight")]
    assert both["synergy"] == pytest.approx(both["value_both"] - both["value_a"] - both["value_b"], abs=1e-12)


def test_value_cli_synergy(tmp_path):
    proc = zonesim("value", "-m", "snork", "--weapon", "berdanka", "--trials", 4000, "--synergy", "--json")
    assert proc.returncode == 0, proc.stderr
    pairs = json.loads(proc.stdout)["synergy"]
    assert {(p["a"], p["b"]) for p in pairs} >= {("zeroing", "rifling"), ("stimulator", "character=doktor")}
    runner = zonesim("value", "-m", "chimera", "--weapon", "ak47", "--strategy", "runner", "--reputation", 3,
                     "--trials", 20000, "--pair", "camo_cloak,reputation=5", "--json")
    assert runner.returncode == 0, runner.stderr
    cloak = json.loads(runner.stdout)["synergy"][0]
    assert (cloak["a"], cloak["b"]) == ("camo_cloak", "reputation=5")
    assert cloak["synergy"] == pytest.approx(cloak["value_both"] - cloak["value_a"] - cloak["value_b"], abs=1e-12)
    assert cloak["value_a"] > 0 and cloak["value_b"] < 0  # the cloak helps a runner; more reputation hurts him
    bad = zonesim("value", "-m", "snork", "--weapon", "berdanka", "--pair", "laser_sight,zeroing")
    assert bad.returncode == 2 and "laser_sight" in bad.stderr


def test_strongest_strategy_search_beats_or_ties_every_candidate(content):
    from sim.run.search import candidates, strongest_strategy

    base = Loadout(weapon="ak47", body="vest", healing=(("stimulator", 1),), reputation=4)
    best, table = strongest_strategy(content, base, ["chimera"], trials=20_000, seed=3)
    assert table.height == len(candidates()) and table["strategy"][0] == best.name
    assert table["p_survive"][0] == table["p_survive"].max() > table.filter(
        table["strategy"] == "fighter")["p_survive"][0]
    proc = zonesim("value", "-m", "chimera", "--weapon", "ak47", "--body", "vest", "--reputation", 4,
                   "--strategy", "strongest", "--trials", 3000, "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["strategies"][0]["strategy"] != "strongest"


def test_batch_values_pair_batches_of_aggregate_runs(content):
    """Journeys report only sums, so values come from 20 paired batches: a
    change that changes nothing is worth exactly 0; the interval follows the
    spread of the batch differences."""
    from sim.run.value import BATCHES, batch_values

    rng_counts = {k: (k * 7919) % 50 + 100 for k in range(BATCHES)}
    same = Loadout(weapon="ak47", body="vest")
    better = Loadout(weapon="ak47", body="exoskeleton")

    def count(loadout, first, n):
        k = first // n
        return rng_counts[k] + (10 + k % 3 if loadout.body == "exoskeleton" else 0)

    result = batch_values(content, same, [("vest", same), ("exoskeleton", better)], count, trials=BATCHES * 200,
                          seed=1)
    row = {r["item"]: r for r in result.table.iter_rows(named=True)}
    assert (row["vest"]["value"], row["vest"]["ci_low"], row["vest"]["ci_high"]) == (0.0, 0.0, 0.0)
    diffs = np.array([10 + k % 3 for k in range(BATCHES)]) / 200
    assert row["exoskeleton"]["value"] == pytest.approx(diffs.mean())
    assert row["exoskeleton"]["paired_se"] == pytest.approx(diffs.std(ddof=1) / math.sqrt(BATCHES))


def test_value_cli_journey_mode():
    proc = zonesim("value", "--mode", "journey", "--weapon", "ak47", "--trials", 2000, "--days", 10, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    items = {r["item"] for r in data["items"]}
    assert {"zone_map", "bag_of_nuts", "medkit"} <= items and data["mode"] == "journey"
    bad = zonesim("value", "--mode", "journey", "--weapon", "ak47", "--synergy")
    assert bad.returncode == 2 and "--synergy" in bad.stderr


def test_value_cli_stalkeriada_mode():
    """Shop items valued by a planner's win rate with and without them, paired
    over the same games in every seat order."""
    proc = zonesim("value", "--mode", "stalkeriada", "--strategy", "cautious", "--trials", 200, "--json")
    assert proc.returncode == 0, proc.stderr
    rows = {r["item"]: r for r in json.loads(proc.stdout)["items"]}
    assert set(rows) == {"ozk", "pliers", "nut"}
    assert rows["nut"]["cost_change"] == 2 * rows["nut"]["price"]  # cautious buys two nuts
    for r in rows.values():
        assert r["ci_low"] <= r["value"] <= r["ci_high"] and r["paired_se"] < r["unpaired_se"]
    bad = zonesim("value", "--mode", "stalkeriada", "--opponents", "")
    assert bad.returncode == 2 and "--opponents" in bad.stderr


def test_fair_price_of_a_medkit_matches_a_hand_calculation(tmp_path):
    """A toy fight with no dice: a verzila (35 HP) starting at 28 HP, unarmed,
    against a monster that cannot die and hits for exactly 1 a round, for 30
    rounds (Z-38). Alone he dies (28 < 30). A medkit healed before the fight
    (+5, Z-31) brings him to 33: he survives. A helmet (defence 1, Z-23) stops
    every hit: he survives. So both are worth exactly +1 survival, the exchange
    rate is (100 x 1 + 200 x 1) / (100^2 + 200^2) = 0.006 per G, and the fair
    price of each is 1 / 0.006 = 166.67 G."""
    folder = tmp_path / "toy"
    shutil.copytree(DEFAULT_DIR, folder)
    items = (folder / "items.toml").read_text(encoding="utf-8")
    blocks = re.split(r"(?m)^(?=\[)", items)
    keep = [b for b in blocks if not b.startswith("[") or b.split("]")[0] in ("[healing.medkit", "[armour.helmet")]
    (folder / "items.toml").write_text("".join(keep), encoding="utf-8")
    with open(folder / "monsters.toml", "a", encoding="utf-8") as f:
        f.write("\n[tick]\nhp = 1000\ndice = 0\nbonus = 1\ndefence = 0\n")
    toy = load_content(folder)
    assert toy.items["medkit"]["price"] == 100 and toy.items["helmet"]["price"] == 200
    base = Loadout(character="verzila", hp=28)
    result = item_values(toy, base, fight_measure(toy, ["tick"], strategies.get("fighter")), trials=500, seed=1)
    row = {r["item"]: r for r in result.table.iter_rows(named=True)}
    assert result.base_survival == 0
    assert row["medkit"]["value"] == row["helmet"]["value"] == 1.0
    assert result.rate == pytest.approx(0.006)
    assert row["medkit"]["fair_price"] == pytest.approx(1 / 0.006)
    assert row["medkit"]["verdict"] == "under-priced" and row["helmet"]["verdict"] == "over-priced"


def test_held_items_are_valued_by_removal(content, values):
    """An item the reference loadout carries is valued when removed: base minus
    base-without, on the same dice, with the cost it saves as its extra cost."""
    fighter = strategies.get("fighter")
    p0 = simulate_fight(content, BASE, ["bloodsucker"], fighter, trials=TRIALS, seed=3).probabilities["p_survive"]
    bare = Loadout(weapon="ak47")
    p1 = simulate_fight(content, bare, ["bloodsucker"], fighter, trials=TRIALS, seed=3).probabilities["p_survive"]
    held = _row(values, "stimulator (held)")
    assert held["value"] == pytest.approx(p0 - p1, abs=1e-12) and held["cost_change"] == content.items["stimulator"]["price"]
    assert held["ci_low"] > 0 and _row(values, "ak47 (held)")["value"] > held["value"]
