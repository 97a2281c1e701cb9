"""``zonesim value`` and ``zonesim tune`` in every context: the JSON contracts,
the files written, a toy economy worked by hand, synergy, and bad input
(one line on stderr, exit code 2)."""

import json
import re
import shutil

import polars as pl
import pytest

import strategies
from sim import api
from sim.content import DEFAULT_DIR, load_content
from sim.content.loadout import Loadout
from sim.economy.context import load_context, scenario
from sim.economy.synergy import synergies, synergy_pairs
from sim.economy.value import value_cards
from sim.run.fight import FightMeasure
from tests.conftest import edit_file, edited_content, zonesim, zonesim_json

TIER_KEYS = {"label", "budget", "strategy", "kit", "kit_cost", "unspent", "outcome", "unit", "strategies", "rate",
             "rate_ci95", "g_per_unit", "reason", "agreement"}
ITEM_KEYS = {"item", "family", "price", "count", "effect", "effect_ci95", "value_g", "value_g_ci95", "upgrade_g",
             "upgrade_g_ci95", "reservation_g", "reservation_g_ci95", "buys", "verdict", "reason", "tiers"}


def test_value_json_contract_and_files(tmp_path):
    out = zonesim_json("value", "--quick", "--items", "glonass,ak47", "--out", tmp_path / "run", cwd=tmp_path)
    context = out["context"]
    assert {"mode", "outcome", "unit", "days", "objective", "goal_orders", "budgets", "strategies", "trials",
            "selection_trials", "batches", "seed", "tiers", "rate"} <= set(context)
    assert [t["budget"] for t in context["tiers"]] == context["budgets"] == [1000, 2500, 5000]
    for tier in context["tiers"]:
        assert TIER_KEYS <= set(tier) and {"pinned", "agree", "second_kit", "differ"} <= set(tier["agreement"])
        assert tier["rate"] > 0 and tier["g_per_unit"] == pytest.approx(1 / tier["rate"])
    assert set(context["rate"]) >= {"rate", "rate_ci95", "g_per_unit", "unit", "reason", "tiers"}
    rows = {r["item"]: r for r in out["items"]}
    assert set(rows) == {"glonass", "ak47"}
    for row in rows.values():
        assert ITEM_KEYS <= set(row) and len(row["tiers"]) == 3
    assert rows["ak47"]["effect_ci95"][0] > 0 and rows["glonass"]["value_g"] > 0  # the fights come (Z-33, Z-41)
    for name in ("value.parquet", "value_tiers.parquet", "charts/value.png", "manifest.json"):
        assert (tmp_path / "run" / name).is_file(), name
    tiers = pl.read_parquet(tmp_path / "run" / "value_tiers.parquet")
    assert tiers.height == 6 and {"tier", "kit", "rate", "value_g", "reservation_g"} <= set(tiers.columns)


def test_a_fight_at_a_budget_and_with_a_given_loadout():
    bought = zonesim_json("value", "-m", "snork", "--budget", 1500, "--trials", 20_000)
    tier = bought["context"]["tiers"][0]
    assert tier["budget"] == 1500 and tier["kit_cost"] <= 1500 and not tier["agreement"]["pinned"]
    rows = {r["item"]: r for r in bought["items"]}
    assert rows["zone_map"]["verdict"] == "no use here"  # movement plays no part in a fight
    given = zonesim_json("value", "-m", "snork", "--weapon", "ak47", "--stims", "stimulator:1", "--trials", 20_000)
    tier = given["context"]["tiers"][0]
    assert tier["label"] == "the given loadout" and tier["agreement"]["pinned"] and tier["kit"] == "ak47, stimulator"
    assert tier["budget"] is None and tier["unspent"] is None


def test_the_strongest_fight_strategy_is_picked_from_the_family():
    out = zonesim_json("value", "-m", "chimera", "--weapon", "ak47", "--body", "vest", "--reputation", 4,
                       "--strategy", "strongest", "--trials", 4000)
    tier = out["context"]["tiers"][0]
    assert tier["strategy"] != "strongest" and len(tier["strategies"]) > 20
    assert tier["strategies"][tier["strategy"]] == max(tier["strategies"].values())


def test_value_in_a_skirmish_a_journey_and_at_a_stalkeriada_table():
    skirmish = zonesim_json("value", "--mode", "skirmish", "-m", "bloodsucker", "--weapon", "ak47", "--trials", 2000)
    assert skirmish["context"]["mode"] == "skirmish" and skirmish["context"]["unit"] == "survival"
    journey = zonesim_json("value", "--mode", "journey", "--weapon", "ak47", "--trials", 2000, "--days", 10,
                           "--items", "zone_map,bag_of_nuts,medkit")
    assert journey["context"]["days"] == 10 and journey["context"]["unit"] == "days to spare reaching the goal"
    assert {r["item"] for r in journey["items"]} == {"zone_map", "bag_of_nuts", "medkit"}
    table = zonesim_json("value", "--mode", "stalkeriada", "--strategy", "cautious", "--trials", 200)
    tier = table["context"]["tiers"][0]
    assert tier["kit"] == "ozk, pliers, nut x2" and tier["agreement"]["pinned"]  # S-04: what cautious buys
    rows = {r["item"]: r for r in table["items"]}
    assert set(rows) == {"ozk", "pliers", "nut"}
    nut = rows["nut"]["tiers"][0]  # one copy at the margin: his second nut against one
    assert (rows["nut"]["count"], nut["held"], nut["basis"]) == (1, 2, "copy 2 of 2, against 1")
    assert table["context"]["handicap"] == 5000  # the rate: 5,000 G more at the start (economy.toml)


def test_s10_the_table_rate_is_what_the_start_handicap_buys_and_none_where_it_buys_nothing(tmp_path):
    """The Stalkeriada rate is the win rate ``[stalkeriada] handicap`` G more at the start (S-10)
    buys: 5,000 G buys a measurable share, 1 G nothing the games can see, and then no item is
    valued, with the reason, rather than a value divided by noise."""
    common = dict(mode="stalkeriada", strategies=["cautious"], trials=1_000, items=["pliers"])
    rich = api.value(**common)
    assert rich.tiers[0].rate > 0 and rich.items[0]["value_g"] > 0
    folder = edited_content(tmp_path, "economy.toml", "handicap = 5000", "handicap = 1")
    poor = api.value(**common, content=folder)
    assert poor.tiers[0].rate is None and poor.items[0]["value_g"] is None
    assert "money buys no measurable win rate here: 1 G more at the start" in poor.tiers[0].reason


def test_a_toy_economy_worked_by_hand(tmp_path):
    """A verzila (35 HP) starting at 28 HP, unarmed, against a monster that
    cannot die and hits for exactly 2 a round for 30 rounds (Z-38): alone he
    dies. A helmet (defence 1, Z-23) halves each hit to 1, so 30 in all, still
    2 too many; a medkit healed before the fight (+5, Z-31) brings him to 33.
    With both he survives every fight, without either he dies: each card's
    effect is exactly +1 survival, the rate is 2 per 300 G, and each is worth
    150 G: the medkit (100 G) under-priced, the helmet (200 G) over-priced."""
    folder = tmp_path / "toy"
    shutil.copytree(DEFAULT_DIR, folder)
    blocks = re.split(r"(?m)^(?=\[)", (folder / "items.toml").read_text(encoding="utf-8"))
    keep = [b for b in blocks if not b.startswith("[") or b.split("]")[0] in ("[healing.medkit", "[armour.helmet")]
    (folder / "items.toml").write_text("".join(keep), encoding="utf-8")
    with open(folder / "monsters.toml", "a", encoding="utf-8") as f:
        f.write("\n[tick]\nhp = 1000\ndice = 0\nbonus = 2\ndefence = 0\n")
    toy = load_content(folder)
    kit = Loadout(character="verzila", hp=28, head="helmet", healing=(("medkit", 1),))
    result = value_cards(scenario(toy, load_context(toy), mode="fight", monsters=["tick"], loadout=kit, trials=400))
    tier = result.tiers[0]
    assert tier.outcome == 1.0 and tier.rate == pytest.approx(2 / 300)
    rows = {r["item"]: r for r in tier.rows}
    for item in ("medkit", "helmet"):
        assert rows[item]["effect"] == 1.0 and rows[item]["value_g"] == pytest.approx(150)
        assert rows[item]["value_g_ci95"] == [pytest.approx(150), pytest.approx(150)]
    assert rows["medkit"]["verdict"] == "under-priced" and rows["helmet"]["verdict"] == "over-priced"


def test_synergy_is_the_pairs_effect_less_its_parts(content):
    """Pairs on common dice: a do-nothing card has no synergy with anything (0
    exactly, on both scales); Doktor's +2 per use (Z-03) makes stimulators worth
    more; two modifiers of one firearm (Z-21) look like substitutes in survival,
    which saturates, but are complements on the log-odds of survival."""
    base = Loadout(weapon="ak47", healing=(("stimulator", 1),))
    measure = FightMeasure(content, ("bloodsucker",), strategies.get("fighter"))
    pairs = synergy_pairs(content, base)
    assert ("rebored", "laser_sight") in pairs and ("stimulator", "character=doktor") in pairs
    table = synergies(content, base, measure, pairs + [("camo_cloak", "laser_sight")], trials=60_000, seed=2)
    row = {(r["a"], r["b"]): r for r in table.iter_rows(named=True)}
    cloak = row[("camo_cloak", "laser_sight")]
    assert (cloak["synergy"], cloak["ci_low"], cloak["ci_high"]) == (0.0, 0.0, 0.0)
    assert row[("stimulator", "character=doktor")]["log_odds_ci_low"] > 0
    both = row[("rebored", "laser_sight")]
    assert both["ci_high"] < 0 < both["log_odds_ci_low"]
    assert both["synergy"] == pytest.approx(both["value_both"] - both["value_a"] - both["value_b"], abs=1e-12)


def test_value_cli_synergy():
    out = zonesim_json("value", "-m", "snork", "--weapon", "berdanka", "--trials", 4000, "--synergy")
    assert {(p["a"], p["b"]) for p in out["synergy"]} >= {("zeroing", "rifling"), ("stimulator", "character=doktor")}


def test_tune_writes_the_table_chart_and_the_tuned_content(tmp_path):
    out = tmp_path / "tune"
    data = zonesim_json("tune", "-m", "snork", "--budget", 1500, "--trials", 20_000, "--rounds", 4, "--out", out)
    assert {"converged", "rounds", "context", "prices", "tiers", "rate", "kit_check"} <= set(data)
    for name in ("tune.parquet", "tune_rounds.parquet", "charts/tune.png", "diff.md", "manifest.json",
                 "content/items.toml"):
        assert (out / name).exists(), name
    diff = (out / "diff.md").read_text()
    for row in data["prices"]:  # one line per card, its old and new price
        assert f"| {row['item']} | {row['old_price']:,} | {row['new_price']:,} |" in diff, row["item"]
    tuned = load_content(out / "content")
    moved = 0
    for row in data["prices"]:
        assert {"item", "old_price", "new_price", "value_g", "fair_price_ci95", "verdict"} <= set(row)
        assert tuned.items[row["item"]]["price"] == row["new_price"]
        moved += row["new_price"] != row["old_price"]
        if row["verdict"] == "no use here":
            assert row["new_price"] == row["old_price"]  # nothing says what it is worth
    assert moved and data["rounds"] <= 4


@pytest.mark.parametrize("args,message", [
    (("value", "--items", "unobtainium"), "--items: unknown card 'unobtainium'"),
    (("value", "--quick", "-m", "snork"), "--quick and --view: for economy.toml's context"),
    (("value", "--view", "fights", "-m", "snork"), "--quick and --view: for economy.toml's context"),
    (("value", "--view", "poker"), "--view: 'poker'; use one of: fights"),
    (("value", "--mode", "poker", "-m", "snork"), "--mode: 'poker'"),
    (("value", "-m", "snork", "--budget", 0), "--budget: 0"),
    (("value", "-m", "snork", "--selection", 10), "--selection: 10"),
    (("value", "-m", "snork", "--trials", 10), "--trials: 10; give at least 40"),
    (("value", "-m", "snork", "--synergy"), "--synergy and --pair: give a loadout"),
    (("value", "--mode", "stalkeriada", "--shapley"), "--shapley: for loadout kits"),
    (("value", "--mode", "stalkeriada", "--weapon", "ak47"), "the loadout options: not for --mode stalkeriada"),
    (("value", "-m", "snork", "--strategy", "berserker"), "--strategy: unknown strategy 'berserker'"),
    (("tune", "--damping", "0"), "--damping: 0.0; give a fraction in (0, 1]"),
    (("tune", "--lock", "glonass,unobtainium", "--out", "t"), "--lock: unknown card 'unobtainium'"),
    (("tune", "--weights", "1000=0,2500=0,5000=0", "--out", "t"), "--weights: the weights sum to 0"),
    (("tune", "--weights", "700=1", "--out", "t"), "--weights: unknown tier '700'"),
    (("tune", "--weights", "1000=-1", "--out", "t"), "--weights: 1000 = -1.0; give a weight at or above 0"),
    (("value", "--weights", "1000", "--out", "t"), "--weights: '1000'; give TIER=WEIGHT pairs"),
    (("tune", "--objective", "target-survival=0.8"), "--objective: 'target-survival=0.8'"),
    (("tune", "--objective", "target-finish=0.5", "-m", "snork"), "--objective target-finish: a Stalkeriada"),
    (("restricted", "--ban", "unobtainium"), "--ban: unknown card unobtainium in this context"),
    (("restricted",), "--ban: give a card to ban"),
    (("restricted", "--ban", "ak47", "--mode", "skirmish"), "--mode: skirmish; restricted play is measured on"),
    (("restricted", "--ban", "limonka", "--mode", "fight", "-m", "chimera", "--weapon", "ak47"),
     "--ban: limonka is not in the loadout (ak47)"),
    (("restricted", "--ban", "escape", "--mode", "fight", "-m", "chimera", "-m", "snork"), "--monster: give one"),
    (("restricted", "--ban", "glonass", "--weapon", "ak47"), "--monster and the loadout options: for --mode fight"),
    (("restricted", "--ban", "pliers,nut", "--mode", "stalkeriada"), "--ban: at a Stalkeriada table ban one shop"),
    (("restricted", "--ban", "ak47", "--mode", "journey", "--trials", "0"), "--trials: 0"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    proc = zonesim(*args, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.startswith("zonesim: error: " + message), proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert not (tmp_path / "t").exists()  # nothing half-written


@pytest.mark.parametrize("old,new,message", [
    ('strategy = "fighter"', 'strategy = "berserker"', "views.fights.strategy: unknown strategy 'berserker'"),
    ("[prices]", '[kits]\n"1000" = ["glonass", "unobtainium"]\n\n[prices]', "kits.1000: unknown card 'unobtainium'"),
    ("[prices]", '[kits]\n"1234" = ["glonass"]\n\n[prices]', "kits.1234: not one of context.budgets"),
    ("[prices]", '[kits]\n"1000" = ["glonass", "zone_map"]\n\n[prices]', "kits.1000: 'zone_map' does not fit"),
    ('budgets = [1000, 2500, 5000]', 'budgets = [0]', "context.budgets"),
    ('mode = "journey"', 'mode = "poker"', "context.mode"),
    ("step = 25", 'step = 25\nlocked = ["glonass", "unobtainium"]', "prices.locked: unknown card 'unobtainium'"),
    ("step = 25", 'step = 25\nlocked = "glonass"', "prices.locked: expected a list of card ids"),
    ("step = 25", "step = 25\nweights = { 1234 = 1 }", "prices.weights: unknown tier '1234'"),
    ("step = 25", "step = 25\nweights = { 1000 = 0, 2500 = 0, 5000 = 0 }", "prices.weights: the weights sum to 0"),
    ("step = 25", "step = 25\nweights = [1, 2]", "prices.weights: expected a table of budget = weight"),
    ("step = 25", 'step = 25\nnumeraire = { objective = "speed", 1234 = 90 }', "prices.numeraire: '1234' is not one"),
    ("step = 25", 'step = 25\nnumeraire = { objective = "fame", 1000 = 90 }', "prices.numeraire: expected"),
    ("step = 25", 'step = 25\nnumeraire = { objective = "speed", 1000 = 0 }', "prices.numeraire: 1000 = 0;"),
    ("step = 25", 'step = 25\nreference_kits = { 1000 = [["glonass"]] }', "prices.reference_kits: given without"),
    ("step = 25", 'step = 25\nnumeraire = { objective = "speed", 1000 = 90 }\nreference_kits = { 1000 = [["glonass", '
                  '"unobtainium"]] }', "prices.reference_kits.1000: unknown card 'unobtainium'"),
    ("step = 25", 'step = 25\nnumeraire = { objective = "speed", 1000 = 90 }\nreference_kits = { 1000 = ["glonass"] }',
     "prices.reference_kits: 1000: expected a list of kits"),
])
def test_bad_economy_toml_is_one_line_naming_file_and_field(tmp_path, old, new, message):
    folder = edited_content(tmp_path, "economy.toml", old, new)
    proc = zonesim("value", "--view", "fights", "--content", folder, cwd=tmp_path)
    assert proc.returncode == 2 and "economy.toml: " + message in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr


def test_the_tier_weights_make_the_overall_a_weighted_mean_and_a_tier_weighted_0_leaves_it():
    common = dict(mode="fight", monsters=["snork"], budgets=[1000, 2500], trials=8_000)
    alike = api.value(**common)
    only_first = api.value(**common, weights={"2500": 0})
    first = {r["item"]: r for r in alike.tiers[0].rows}
    assert only_first.rate["tiers"] == ["1,000 G"] and only_first.rate["weights"] == {"1,000 G": 1.0}
    assert only_first.rate["rate"] == pytest.approx(alike.tiers[0].rate, rel=1e-12)
    for row in only_first.items:  # one tier left: the overall is that tier's value, on the same dice
        if row["value_g"] is not None:
            assert row["value_g"] == pytest.approx(first[row["item"]]["value_g"], rel=1e-9, abs=1e-9), row["item"]
    doubled = api.value(**common, weights={"1000": 2, "2500": 2})
    for a, b in zip(alike.items, doubled.items):  # weights only count relative to each other
        assert a["value_g"] == pytest.approx(b["value_g"], rel=1e-9, abs=1e-9), a["item"]
    assert doubled.to_json()["context"]["tier_weights"] == {"1,000 G": 2.0, "2,500 G": 2.0}


def test_a_pinned_kit_is_valued_as_given(tmp_path):
    folder = edited_content(tmp_path, "economy.toml", "[prices]",
                            '[kits]\n"1000" = ["glonass", "stimulator", "stimulator"]\n\n[prices]')
    edit_file(folder, "economy.toml", "budgets = [1000, 2500, 5000]", "budgets = [1000]")  # the pinned tier
    out = zonesim_json("value", "--quick", "--items", "glonass", "--content", folder)
    tier = out["context"]["tiers"][0]
    assert tier["kit"] == "glonass, stimulator x2" and tier["agreement"]["pinned"]
    assert json.dumps(out).count("NaN") == 0
