"""Price tuning (``sim.run.tune``, ``zonesim tune``): on a toy content set the
tuned prices match the exact answer (prices proportional to the exact value of
each item, total kept); the tuned content is a faithful copy; bad input exits 2."""

import json
import re
import shutil
from dataclasses import replace

import polars as pl
import pytest

import strategies
from sim.content import DEFAULT_DIR, load_content
from sim.content.loadout import Loadout
from sim.run.fight import exact_fight
from sim.run.tune import buyer, tune_prices, with_prices, write_tuned_content
from sim.run.value import fight_measure, item_values
from tests.conftest import zonesim

TOY_ITEMS = {"ak47", "helmet", "vest", "stimulator"}


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """The default content with only an AK-47, a helmet, a vest and a stimulator."""
    folder = tmp_path_factory.mktemp("toy") / "content"
    shutil.copytree(DEFAULT_DIR, folder)
    text = (folder / "items.toml").read_text(encoding="utf-8")
    blocks = re.split(r"(?m)^(?=\[)", text)
    kept = [b for b in blocks if not b.startswith("[") or b.split("]")[0].split(".")[1] in TOY_ITEMS]
    (folder / "items.toml").write_text("".join(kept), encoding="utf-8")
    return load_content(folder)


def test_tuning_converges_to_the_exact_answer_on_a_toy_content_set(toy):
    """With nothing to buy (budget 0) the values are fixed, and the fixed point of
    equal value per G is price proportional to value, the total unchanged.
    The values here come from the exact Markov chain, not the simulation."""
    fighter = strategies.get("fighter")
    base = Loadout(weapon="ak47")
    p0 = exact_fight(toy, base, ["snork"], fighter).probabilities["p_survive"]
    changes = {"helmet": replace(base, head="helmet"), "vest": replace(base, body="vest"),
               "stimulator": replace(base, healing=(("stimulator", 1),))}
    exact = {i: exact_fight(toy, l, ["snork"], fighter).probabilities["p_survive"] - p0 for i, l in changes.items()}
    total = sum(toy.items[i]["price"] for i in exact)
    expected = {i: total * v / sum(exact.values()) for i, v in exact.items()}
    result = tune_prices(toy, base, lambda c: fight_measure(c, ["snork"], fighter), budget=0, rounds=40,
                         damping=0.5, trials=200_000, seed=3)
    assert result.converged and result.buyer == base
    for item, price in expected.items():
        assert result.prices[item] == pytest.approx(price, rel=0.04), (item, result.prices, expected)
    assert sum(result.prices.values()) == pytest.approx(total, abs=3)


def test_buyer_spends_the_budget_on_value_per_g(toy):
    fighter = strategies.get("fighter")
    base = Loadout(weapon="ak47")
    values = item_values(toy, base, fight_measure(toy, ["snork"], fighter), trials=20_000, seed=1).table
    rich = buyer(toy, base, values, budget=10_000)
    assert rich.head == "helmet" and rich.body == "vest" and dict(rich.healing)["stimulator"] >= 1
    assert buyer(toy, base, values, budget=1500) == base
    cheap_vest = with_prices(toy, {"vest": 1})
    assert buyer(cheap_vest, base, values, budget=1501).body == "vest"


def test_tuned_content_is_a_copy_with_only_the_prices_changed(tmp_path):
    target = write_tuned_content(DEFAULT_DIR, tmp_path / "tuned", {"vest": 777, "kvazar": 4321})
    tuned = load_content(target)
    default = load_content()
    assert tuned.items["vest"]["price"] == 777 and tuned.items["kvazar"]["price"] == 4321
    for item_id, entry in default.items.items():
        if item_id not in ("vest", "kvazar"):
            assert tuned.items[item_id].fields == entry.fields
    before = (DEFAULT_DIR / "items.toml").read_text().splitlines()
    after = (target / "items.toml").read_text().splitlines()
    assert sum(a != b for a, b in zip(before, after)) == 2 and len(before) == len(after)


def test_tune_cli_writes_the_table_chart_and_tuned_content(tmp_path):
    out = tmp_path / "tune"
    proc = zonesim("tune", "-m", "snork", "--weapon", "ak47", "--trials", 5000, "--rounds", 3, "--out", out, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["rounds"] <= 3 and data["objective"] == "equal-value"
    for name in ("tune.parquet", "prices.parquet", "charts/tune.png", "manifest.json", "content/items.toml"):
        assert (out / name).exists(), name
    table = pl.read_parquet(out / "tune.parquet")
    tuned = load_content(out / "content")
    for row in table.iter_rows(named=True):
        assert tuned.items[row["item"]]["price"] == row["new_price"]
    untouched = table.filter(pl.col("item") == "camo_cloak").row(0, named=True)
    assert untouched["new_price"] == untouched["old_price"]  # does nothing for a fighter


def test_target_survival_sets_the_price_level():
    proc = zonesim("tune", "-m", "snork", "--weapon", "berdanka", "--trials", 4000, "--rounds", 2, "--budget", 1500,
                   "--objective", "target-survival=0.7", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["buyer_survival"] == pytest.approx(0.7, abs=0.08) and data["price_level"] != 1


@pytest.mark.parametrize("args,expect", [
    (("--objective", "cheap"), "--objective"),
    (("--objective", "target-survival=1.5"), "target-survival"),
    (("--budget", -5), "--budget"),
    (("--damping", 0), "--damping"),
    (("--rounds", 0), "--rounds"),
    (("--trials", 1), "--trials"),
    (("--mode", "duel"), "--mode"),
])
def test_bad_input_gets_one_line_and_exit_2(args, expect):
    proc = zonesim("tune", "-m", "snork", "--weapon", "ak47", *args)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert expect in proc.stderr


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="S-06: sold loot leaves play, so the cautious planner's few wins come from the "
                   "Golden Ball (S-19), and the shop's price level no longer moves its win rate (0.049 at any level)")
def test_shop_tuning_reaches_a_target_win_rate(tmp_path):
    """target-winrate=W (Stalkeriada, S-04): the tuned shop's price level makes
    the strategy win about W of its games, and only the shop prices change."""
    out = tmp_path / "shop"
    proc = zonesim("tune", "--mode", "stalkeriada", "--strategy", "cautious", "--trials", 400, "--rounds", 2,
                   "--objective", "target-winrate=0.15", "--out", out, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["win_rate"] == pytest.approx(0.15, abs=0.03) and data["buyer"] is None
    tuned = (out / "content" / "stalkeriada.toml").read_text().splitlines()
    before = (DEFAULT_DIR / "stalkeriada.toml").read_text().splitlines()
    changed = [(a, b) for a, b in zip(before, tuned) if a != b]
    assert 1 <= len(changed) <= 3 and all(a.split(" =")[0] in ("ozk", "pliers", "nut") for a, _ in changed)
    bad = zonesim("tune", "--mode", "stalkeriada", "--objective", "target-survival=0.8")
    assert bad.returncode == 2 and "target-winrate" in bad.stderr


def test_tune_under_the_strongest_strategy_searches_once():
    """--strategy strongest: the search runs once for the reference loadout and
    every round measures under the strategy it found."""
    proc = zonesim("tune", "-m", "chimera", "--weapon", "ak47", "--reputation", 4, "--strategy", "strongest",
                   "--trials", 3000, "--rounds", 2, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["strategy"] != "strongest" and data["rounds"] <= 2
