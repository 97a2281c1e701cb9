"""The item economy (sim/economy): the declared context, the buyer, values in G
as compensating variation, verdicts and their sanity properties."""

import math
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from sim.analysis.stats import paired_batch_interval, t975
from sim.content import load_content
from sim.content.load import ContentError
from sim.content.loadout import Loadout
from sim.economy.context import load_context
from sim.economy.measure import Batches, spare_days
from sim.economy.shop import Buyer, gifts, give
from sim.economy.value import clones, item_economy, kind, money_for, verdict
from tests.conftest import edit_file, edited_content


def small_context(content, **changes):
    """The default context at its quick trial counts, one tier, fewer resamples."""
    return replace(load_context(content, quick=True), budgets=(1000,), bootstrap=200, **changes)


# --- pure pieces


def test_t975_matches_student_t():
    assert t975(19) == pytest.approx(2.093024, abs=1e-4)
    assert t975(4) == pytest.approx(2.776445, abs=1e-2)


def test_paired_batch_interval_is_the_batch_means_t_interval():
    mean, low, high = paired_batch_interval([1.0, 2.0, 3.0], [0.0, 0.0, 0.0])
    assert mean == 2.0
    assert high - mean == pytest.approx(t975(2) * 1.0 / math.sqrt(3), rel=0.02)


def test_spare_days_counts_days_left_and_zero_for_unfinished():
    hist = np.zeros(32, np.int64)  # days 0..30, 31: never
    hist[11], hist[30], hist[31] = 3, 1, 5
    assert spare_days(hist, 30) == 3 * 20 + 1 * 1 + 5 * 0


def test_money_for_inverts_the_curve_with_free_disposal_and_extension():
    x, y = np.array([1000.0, 1500.0, 3000.0]), np.array([1.0, 2.0, 2.5])
    assert money_for(x, y, 0.5, 1000, 0.001) == (0.0, False)  # worse than nothing bought: left at home
    assert money_for(x, y, 1.5, 1000, 0.001) == (250.0, False)
    assert money_for(x, y, 2.25, 1000, 0.001) == (1250.0, False)
    assert money_for(x, y, 3.0, 1000, 0.001) == (2500.0, True)  # past the end, at the given rate
    assert money_for(x, y, 3.0, 1000, 0.0) == (math.inf, True)


def test_verdicts_need_the_whole_interval_on_one_side_of_the_price():
    assert verdict(True, 0, 0, 100) == "no use here"
    assert verdict(False, 0, 90, 100) == "over-priced"
    assert verdict(False, 90, 300, 100) == "fair"
    assert verdict(False, 110, 300, 100) == "under-priced"


def _fake_selection(worth):
    """Selection batches whose outcome is the sum of each card's ``worth`` (noise-free)."""
    def selection(loadout):
        total = sum(worth.get(i, 0.0) * n for i, n in loadout.cards().items())
        return Batches(np.full(5, total * 100.0), 100)
    return selection


def test_buyer_takes_the_most_gain_per_g_within_budget(content):
    worth = {"bag_of_nuts": 1.0, "glonass": 3.0, "jetpack": 20.0}  # per G: 0.01, 0.005, 0.008
    buyer = Buyer(content, _fake_selection(worth))
    trace = []
    kit = buyer.grow(Loadout(), 700, trace)
    assert kit.avoidance == ("bag_of_nuts",) and kit.movement == ("glonass",)
    assert [lo.cards() for lo in trace] == [{}, {"bag_of_nuts": 1}, {"bag_of_nuts": 1, "glonass": 1}]
    assert buyer.grow(Loadout(), 2600).movement == ("jetpack",)  # a swap up costs only the difference


def test_buyer_keeps_the_held_card_free_and_never_buys_a_banned_one(content):
    worth = {"glonass": 3.0, "jetpack": 20.0, "zone_map": 1.0}
    held = Buyer(content, _fake_selection(worth), held="zone_map", banned=frozenset({"jetpack"}))
    kit = held.grow(Loadout(movement=("zone_map",)), 1000)
    assert kit.movement == ("zone_map",)  # a swap to glonass would drop the gift
    assert held.kit_cost(kit) == 0


def test_give_takes_the_slot_or_adds_a_card(content):
    kit = Loadout(weapon="ak47", body="leather_jacket", healing=(("stimulator", 1),))
    assert give(content, kit, "vest").body == "vest"
    assert dict(give(content, kit, "stimulator").healing) == {"stimulator": 2}
    with_mod = give(content, kit, "zeroing")  # Z-21: a berdanka modifier comes with its firearm
    assert with_mod.weapon == "berdanka" and with_mod.mods == ("zeroing",)


def test_a_second_movement_card_may_ride_beside_the_first(content):
    """Z-25: one movement card is active, the best; a gift may take the slot or ride along."""
    kit = Loadout(movement=("glonass",), body="vest")
    assert [g.movement for g in gifts(content, kit, "zone_map")] == [("zone_map",), ("glonass", "zone_map")]
    assert [g.body for g in gifts(content, kit, "exoskeleton")] == ["exoskeleton"]


# --- the declared context


def test_context_is_read_from_economy_toml(content):
    ctx = load_context(content)
    assert ctx.mode == "journey" and ctx.budgets == (1000, 2500, 5000)
    assert ctx.valuation_trials % ctx.batches == 0
    assert load_context(content, quick=True).valuation_trials < ctx.valuation_trials


@pytest.mark.parametrize("old,new,field", [
    ('budgets = [1000, 2500, 5000]', 'budgets = [0]', "context.budgets"),
    ('character = "novice"', 'character = "nobody"', "context.character"),
    ('valuation = [20000, 2000]', 'valuation = [20000]', "trials.valuation"),
    ('mode = "journey"', 'mode = "poker"', "context.mode"),
])
def test_bad_economy_toml_names_file_and_field(tmp_path, old, new, field):
    folder = edited_content(tmp_path, "economy.toml", old, new)
    with pytest.raises(ContentError, match=f"economy.toml: {field}"):
        load_context(load_content(folder))


# --- values on real campaigns


@pytest.fixture(scope="module")
def clone_run(tmp_path_factory):
    """Default content plus a body armour and an explosive identical to ones
    there but for id, name and price, valued at the 1000 G tier."""
    folder = edited_content(tmp_path_factory.mktemp("clones"), "items.toml", "[armour.vest]",
                            '[armour.vest_b]\nname = "Vest B"\nslot = "body"\ndefence = 2\nprice = 700\n\n'
                            "[armour.vest]")
    edit_file(folder, "items.toml", "[explosives.limonka]",
              '[explosives.limonka_b]\nname = "Limonka B"\ndice = 3\nprice = 400\n\n[explosives.limonka]')
    content = load_content(folder)
    ctx = small_context(content)
    return content, item_economy(content, ctx, items={"vest", "vest_b", "limonka", "limonka_b", "zone_map",
                                                      "glonass", "ak47", "bag_of_nuts"})


def _rows(result):
    return {row["item"]: row for row in result.tiers[0].rows}


def test_clones_are_banned_together(clone_run):
    content, _ = clone_run
    assert clones(content, "vest") == {"vest", "vest_b"}
    assert clones(content, "limonka_b") == {"limonka", "limonka_b"}
    assert clones(content, "helmet") == {"helmet"}


def test_z20_z24_z25_z27_a_slot_cards_kind_is_its_slot(clone_run):
    """Z-20 one firearm, Z-24 one head and one body item, Z-25/Z-29/Z-30/Z-32 one
    card of each of those families active, Z-27/Z-28 two teleports: the
    stand-alone value bans the slot; any other card's kind is its copies."""
    content, _ = clone_run
    assert kind(content, "glonass") == {"zone_map", "glonass", "jetpack"}
    assert kind(content, "vest_b") == {"leather_jacket", "vest", "vest_b", "exoskeleton"}
    assert kind(content, "helmet") == {"helmet", "sphere_helmet"}
    assert kind(content, "ak47") == {"berdanka", "ak47", "kvazar"}
    assert kind(content, "space_gate") == {"helicopter_call", "space_gate"}  # Z-27, Z-28: one job
    assert kind(content, "limonka") == clones(content, "limonka") == {"limonka", "limonka_b"}
    assert kind(content, "zeroing") == {"zeroing"}


def test_a_slot_cards_value_does_not_rest_on_its_substitutes_prices(clone_run):
    """The stalker who cannot have a GLONASS cannot buy a zone map or a jetpack
    either: the GLONASS is worth the same however those are priced, while its
    upgrade value (over the slot's card he would buy) is given beside it."""
    from sim.run.tune import with_prices
    content, result = clone_run
    repriced = with_prices(content, {"zone_map": 50, "jetpack": 9000})
    again = item_economy(repriced, result.context, items={"glonass"}).tiers[0].rows[0]
    first = _rows(result)["glonass"]
    assert again["value_g"] == first["value_g"] > 0 and again["value_g_ci95"] == first["value_g_ci95"]
    assert first["upgrade_g"] is not None and first["upgrade_g"] >= 0
    assert _rows(result)["limonka"]["upgrade_g"] is None


def test_an_identical_copy_of_a_card_is_worth_the_same(clone_run):
    _, result = clone_run
    rows = _rows(result)
    for a, b in (("vest", "vest_b"), ("limonka", "limonka_b")):
        low, high = rows[a]["value_g_ci95"]
        assert low <= rows[b]["value_g"] <= high, (rows[a], rows[b])


def test_no_value_interval_lies_below_zero_and_no_useless_card_is_over_priced(clone_run):
    _, result = clone_run
    for row in result.tiers[0].rows + result.items:
        assert row["value_g_ci95"][1] >= 0 and row["value_g"] >= 0, row
        if row["effect"] == 0 and row["effect_ci95"] == [0.0, 0.0]:
            assert row["verdict"] in ("no use here", "over-priced") and row["value_g"] == 0


def test_a_card_that_changes_nothing_is_no_use_here(clone_run):
    _, result = clone_run
    rows = _rows(result)
    # Z-33 [A]: a stalker at reputation <= 1 escapes every fight, so the cautious
    # buyer never fires a shot: a firearm changes nothing on his campaigns.
    assert result.tiers[0].strategy == "cautious"
    assert rows["ak47"]["verdict"] == "no use here" and rows["ak47"]["value_g"] == 0


def test_value_does_not_read_the_items_own_price(clone_run):
    _, result = clone_run
    rows = _rows(result)
    assert rows["glonass"]["value_g"] > 0
    assert rows["glonass"]["verdict"] in ("fair", "under-priced", "over-priced")


def test_one_more_die_never_lowers_a_firearms_value(tmp_path):
    """Monotonicity: berdanka with 2 d6 is worth at least what it is with 1 d6 (Z-15, Z-16), for the
    stalker who fights (the greedy strategy)."""
    values = []
    for dice in (1, 2):
        folder = edited_content(tmp_path, "items.toml", 'name = "Berdanka"\ndice = 1',
                                f'name = "Berdanka"\ndice = {dice}', name=f"dice{dice}")
        content = load_content(folder)
        ctx = small_context(content, strategies=("greedy",))
        values.append(item_economy(content, ctx, items={"berdanka"}).items[0])
    one, two = values
    assert one["value_g"] > 0
    assert two["value_g_ci95"][1] >= one["value_g"], (one, two)


def test_same_seed_same_values(clone_run):
    content, result = clone_run
    again = item_economy(content, result.context, items={"glonass"})
    assert again.items[0]["value_g"] == next(r for r in result.items if r["item"] == "glonass")["value_g"]


# --- tuning


def test_band_and_next_price_respect_the_price_step():
    from sim.economy.tune import band, next_price
    assert band(120.0, 180.0, 50) == (100, 200)
    assert band(0.0, 0.0, 50) == (50, 50)  # a card costs at least one step
    assert next_price(600, 958.0, 50, 1.0) == 950
    assert next_price(600, 958.0, 50, 0.5) == 800
    assert next_price(100, 0.0, 50, 1.0) == 50


def test_a_price_is_inside_when_it_lies_in_its_value_band_and_useless_cards_stay_out():
    """Fair price = value in G: a moving price must lie in its value interval
    widened to whole steps and moves toward the value; a card of no use
    anywhere keeps its price."""
    from sim.economy.tune import _moved, inside
    jetpack = {"item": "jetpack", "value_g": 9000.0, "value_g_ci95": [8000.0, 10000.0], "verdict": "under-priced"}
    helmet = {"item": "helmet", "value_g": 2.0, "value_g_ci95": [0.0, 9.0], "verdict": "over-priced"}
    kvazar = {"item": "kvazar", "value_g": 0.0, "value_g_ci95": [0.0, 0.0], "verdict": "no use here"}
    result = SimpleNamespace(items=[jetpack, helmet, kvazar])
    assert inside(result, {"jetpack": 8000, "helmet": 50, "kvazar": 5000}, 50)
    assert not inside(result, {"jetpack": 7950, "helmet": 50, "kvazar": 5000}, 50)
    assert not inside(result, {"jetpack": 9000, "helmet": 100, "kvazar": 5000}, 50)
    # half way to the value; a card worth less than a step straight to the one price its band allows
    assert _moved(result, {"jetpack": 5000, "helmet": 500, "kvazar": 5000}, 50, 0.5) == {
        "jetpack": 7000, "helmet": 50, "kvazar": 5000}


def test_tuning_reshops_and_converges_with_a_budget(content):
    """Re-shopping at a 1000 G budget: the buyer's kit changes with the prices,
    and tuning still ends with every moved price inside its value band, set to
    its value rounded to the step."""
    from sim.economy.tune import inside, tune_economy
    ctx = small_context(content)
    tuned = tune_economy(content, ctx, rounds=10, damping=0.5, items={"glonass", "bag_of_nuts", "dosimeter"})
    assert tuned.converged, tuned.history
    assert inside(tuned.values, tuned.prices, ctx.price_step)
    assert tuned.prices["glonass"] != tuned.start["glonass"]
    for row in tuned.values.items:
        if row["verdict"] != "no use here":
            assert tuned.prices[row["item"]] == max(ctx.price_step, ctx.price_step * round(row["value_g"] /
                                                                                            ctx.price_step)), row


def test_tuning_settles_on_the_quick_trials_then_on_the_full_ones(content):
    """With a coarse context, prices first settle on it; the last valuation and
    the convergence check are on the full trials (narrower intervals)."""
    from sim.economy.tune import inside, tune_economy
    coarse = small_context(content)
    full = replace(coarse, valuation_trials=2 * coarse.valuation_trials)
    labels = []
    tuned = tune_economy(content, full, coarse=coarse, rounds=10, items={"bag_of_nuts", "dosimeter"},
                         on_progress=lambda done, total, label: labels.append(label))
    assert tuned.converged and tuned.values.context is full, tuned.history
    assert inside(tuned.values, tuned.prices, full.price_step)
    quick = [label for label in labels if "(quick trials)" in label]
    assert quick and labels.index(quick[-1]) < len(labels) - 1 and "(quick trials)" not in labels[-1]


# --- the commands


def test_value_cli_json_contract(tmp_path):
    from tests.conftest import zonesim_json
    out = zonesim_json("value", "--quick", "--items", "glonass,ak47", "--out", tmp_path / "run", cwd=tmp_path)
    assert set(out["context"]) >= {"mode", "outcome", "days", "budgets", "strategies", "trials", "seed", "tiers"}
    rows = {r["item"]: r for r in out["items"]}
    assert set(rows) == {"glonass", "ak47"}
    for row in rows.values():
        assert set(row) >= {"item", "family", "price", "value_g", "value_g_ci95", "effect", "effect_ci95",
                            "verdict", "tiers"}
        assert len(row["tiers"]) == len(out["context"]["budgets"])
    assert rows["ak47"]["verdict"] == "no use here"
    assert (tmp_path / "run" / "economy.parquet").is_file() and (tmp_path / "run" / "manifest.json").is_file()


@pytest.mark.slow
def test_tune_cli_writes_the_tuned_content(tmp_path):
    from tests.conftest import zonesim_json
    out = zonesim_json("tune", "--quick", "--items", "glonass,dosimeter", "--rounds", "2", "--out", tmp_path / "t",
                       cwd=tmp_path)
    assert set(out) >= {"converged", "rounds", "context", "prices"}
    assert {row["item"] for row in out["prices"]} == {"glonass", "dosimeter"}
    tuned = load_content(tmp_path / "t" / "content")
    for row in out["prices"]:
        assert set(row) == {"item", "old_price", "new_price", "fair_price_ci95"}
        assert tuned.items[row["item"]]["price"] == row["new_price"]
    assert any(row["new_price"] != row["old_price"] for row in out["prices"]), out


@pytest.mark.parametrize("args,message", [
    (("value", "--items", "unobtainium"), "zonesim: error: --items: unknown card 'unobtainium'"),
    (("value", "--quick", "-m", "snork"), "zonesim: error: --quick, --items and --view: for whole-game values"),
    (("tune", "--damping", "0"), "zonesim: error: --damping: 0.0; give a fraction in (0, 1]"),
])
def test_economy_cli_bad_input_is_one_line(tmp_path, args, message):
    from tests.conftest import zonesim
    proc = zonesim(*args, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.startswith(message) and proc.stderr.count("\n") == 1, proc.stderr


def test_tuning_gives_a_clone_its_originals_price(clone_run):
    """Done-when of the economy: identical cards end at the same price (within 10%), whatever they started at."""
    from sim.economy.tune import tune_economy
    content, result = clone_run
    tuned = tune_economy(content, result.context, rounds=10, items={"vest", "vest_b"})
    assert tuned.start["vest"] != tuned.start["vest_b"] and tuned.converged, tuned.history
    assert tuned.prices["vest_b"] == pytest.approx(tuned.prices["vest"], rel=0.10)
