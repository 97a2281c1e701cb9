"""The economy's invariants on the shipped default content, at economy.toml's
quick counts (the same kits as the full counts: the shopper's trials are the
same). Each is a property every value table must have, whatever the numbers:
an upgrade is never worth more than the card stand-alone, value follows
effect, nothing rests on a curve past its data, other cards' prices do not
leak in, copies are worth their originals, and no value is below 0.

Tolerances: values are compared with their own 95% intervals (the paired
bootstrap over 20 batches, widened for the few batches; ``sim.economy.value``)."""

import shutil
from dataclasses import replace

import numpy as np
import pytest

from sim.content import DEFAULT_DIR, load_content
from sim.economy.context import declared, load_context
from sim.economy.shop import CLEAR_GAIN_Z, paired_gain, strongest
from sim.economy.value import value_cards

SLOTS = ("firearms", "armour", "escape", "movement", "location", "avoidance", "one_shot")


@pytest.fixture(scope="module")
def quick():
    content = load_content()
    return value_cards(declared(content, load_context(content, quick=True)))


@pytest.fixture(scope="module")
def fights(quick):
    """The fights view on the campaign kits of ``quick`` (lent, not bought again: ``declared``'s ``campaign``)."""
    content = load_content()
    return value_cards(declared(content, load_context(content, quick=True), view="fights", campaign=quick.context))


def _tier_rows(result):
    return [(tier, row) for tier in result.tiers for row in tier.rows]


@pytest.mark.parametrize("view", ["quick", "fights"])
def test_an_upgrade_is_never_worth_more_than_the_card_stand_alone(view, request):
    """Over the card of its kind the kit holds, a card is worth no more than against owning
    none of its kind: the points themselves, at every tier and overall (the held card does
    no harm, so nothing but noise could break it, and the seed is fixed)."""
    result = request.getfixturevalue(view)
    checked = 0
    for tier, row in _tier_rows(result):
        if row["upgrade_g"] is not None:
            assert row["family"] in SLOTS
            assert row["upgrade_g"] <= row["value_g"] + 1e-9, (tier.label, row)
            checked += 1
    assert checked >= 10
    for row in result.items:
        if row["upgrade_g"] is not None:
            assert row["upgrade_g"] <= row["value_g"] + 1e-9, row


@pytest.mark.parametrize("view", ["quick", "fights"])
def test_value_follows_effect_within_a_tier(view, request):
    """A card whose effect interval lies wholly above another's is never valued lower beyond noise."""
    result = request.getfixturevalue(view)
    pairs = 0
    for tier in result.tiers:
        rows = [r for r in tier.rows if r["value_g"] is not None and r["count"] == 1]
        for a in rows:
            for b in rows:
                if a["effect_ci95"][0] > b["effect_ci95"][1]:
                    pairs += 1
                    assert a["value_g"] >= b["value_g_ci95"][0], (tier.label, a, b)
    assert pairs >= 50


@pytest.mark.parametrize("view", ["quick", "fights"])
def test_every_value_is_effect_over_a_measured_rate_and_the_kit_is_worth_its_cost(view, request):
    """Nothing unsupported: a finite value is the card's effect over its tier's
    rate, measured on the kit the tier bought; the kit's cards are worth
    together what they cost together; a null value says why."""
    result = request.getfixturevalue(view)
    for tier in result.tiers:
        assert tier.rate is not None and tier.rate > 0, tier.reason
        kit = [r for r in tier.rows if r["in_kit"]]
        assert kit and sum(r["value_g"] for r in kit) == pytest.approx(sum(r["price"] for r in kit))
        assert tier.kit_cost <= tier.budget
        for row in tier.rows:
            if row["value_g"] is None:
                assert row["reason"] and row["verdict"] == "not valued", row
            elif row["verdict"] not in ("worth nothing here", "no use here"):
                assert row["value_g"] == pytest.approx(max(0.0, row["effect"]) / tier.rate), row
    rate = result.rate["rate"]
    for row in result.items:
        assert np.isfinite(row["value_g"]) and row["value_g"] == pytest.approx(row["effect"] / rate), row


@pytest.mark.parametrize("view", ["quick", "fights"])
def test_no_value_interval_lies_below_zero_and_no_use_is_no_use(view, request):
    result = request.getfixturevalue(view)
    for tier, row in _tier_rows(result):
        assert 0 <= row["value_g_ci95"][0] <= row["value_g"] <= row["value_g_ci95"][1], row
        if row["verdict"] == "no use here":
            assert row["effect"] == 0 and row["effect_ci95"] == [0.0, 0.0] and row["value_g"] == 0
        if row["verdict"] == "worth nothing here":
            assert row["value_g"] == 0
    for row in result.items:
        assert 0 <= row["value_g_ci95"][0] <= row["value_g"] <= row["value_g_ci95"][1], row


def test_z33_z41_in_the_whole_game_firearms_armour_and_healing_have_a_use(quick):
    """Z-33, Z-41: every order raises reputation until escapes fail, so the fights
    come: every firearm, armour and healing card changes the campaign, and at
    least 32 of the 38 cards have a use."""
    rows = {r["item"]: r for r in quick.items}
    assert {t.choice.strategy for t in quick.tiers} <= {"cautious", "tactician"}  # escapes pay (Z-33)
    for row in rows.values():
        if row["family"] in ("firearms", "armour", "healing"):
            assert row["verdict"] not in ("no use here", "not valued") and row["value_g"] > 0, row
    assert sum(r["verdict"] not in ("no use here", "not valued") for r in rows.values()) >= 32


def test_fights_view_values_cards_on_the_campaigns_monster_mix(fights):
    rows = {r["item"]: r for r in fights.items}
    for tier in fights.tiers:
        assert tier.mix is not None and len(tier.mix.groups) >= 3 and 0 < tier.outcome <= 1 + 1e-12
    assert rows["zone_map"]["verdict"] == "no use here"  # movement plays no part in a fight
    assert rows["medkit"]["verdict"] == "no use here"  # Z-31: medkits only outside combat
    assert rows["limonka"]["value_g_ci95"][0] > 0 and rows["ak47"]["value_g_ci95"][0] > 0
    mix = fights.to_json()["context"]["tiers"][0]["monster_mix"]
    assert sum(m["share"] for m in mix) == pytest.approx(1.0)


def test_the_shopper_stops_only_when_no_affordable_change_clearly_gains(quick):
    """Each tier's kit: no affordable purchase or swap gains more than two
    standard errors on the shopper's selection trials."""
    ctx = quick.context
    for spec, tier in zip(ctx.tiers(), quick.tiers):
        outcome = spec.outcomes[tier.choice.strategy]
        kit = tier.choice.kit
        base = outcome.selection(kit, ctx.selection)
        for changed in kit.changes(ctx.content, ctx.max_count):
            if changed.cost(ctx.content) <= spec.budget:
                gain, se = paired_gain(outcome.selection(changed, ctx.selection), base)
                assert gain <= max(0.0, CLEAR_GAIN_Z * se), (tier.label, changed.describe(), gain, se)


def test_each_side_is_played_by_the_strongest_strategy_of_the_family_for_its_kit(quick):
    """Per tier and card, the kit with the card and the kit without it each name the
    strategy that did best with it on the first selection set (the screen on its first
    batches drops no strategy that would have won on the whole set); the tier's own kit keeps
    the tier's strategy. On the default content some side is played by another
    strategy than its tier's (the family is not a formality)."""
    ctx = quick.context
    others = 0
    for spec, tier in zip(ctx.tiers(), quick.tiers):
        kit = tier.choice.kit
        for row, comparison in zip(tier.rows, ctx.compare(kit, [r["item"] for r in tier.rows])):
            for side, played in ((comparison.with_kit, row["strategy_with"]),
                                 (comparison.without_kit, row["strategy_without"])):
                expected = tier.choice.strategy if side == kit else strongest(spec.outcomes, side, ctx.selection)[0]
                assert played == expected, (tier.label, row["item"], side.describe(), played, expected)
                others += played != tier.choice.strategy
    assert others > 0


def test_every_value_stands_in_its_spread_over_the_plausible_plays(quick):
    """Each tier lists its plausible plays, its own kit and strategy first, then each
    strategy not clearly worse with a kit (``plausible_strategies``) under both kit
    choices; every value, per tier and overall, lies in its spread over them, and
    where the two kit choices differ some card's spread is wider than a price step."""
    from sim.economy.shop import plausible_strategies

    ctx = quick.context
    wide = 0
    for spec, tier in zip(ctx.tiers(), quick.tiers):
        choice = tier.choice
        kits = [("first", choice.kit)] + ([] if choice.agree else [("second", choice.second_kit)])
        assert tier.plays == [(label, s) for label, kit in kits
                              for s in plausible_strategies(spec.outcomes, kit, choice.strategy, ctx.selection)]
        for row in tier.rows:
            lo, hi = row["value_g_spread"]
            if row["value_g"] is not None:
                assert lo - 1e-9 <= row["value_g"] <= hi + 1e-9, (tier.label, row["item"])
                wide += hi - lo > ctx.price_step
    for row in quick.items:
        if row["value_g"] is not None:
            lo, hi = row["value_g_spread"]
            assert lo - 1e-9 <= row["value_g"] <= hi + 1e-9, row["item"]
    assert wide > 0 or all(t.choice.agree and len(t.plays) == 1 for t in quick.tiers)


def _copy(tmp_path, name, old, new):
    folder = tmp_path / name
    shutil.copytree(DEFAULT_DIR, folder)
    items = folder / "items.toml"
    text = items.read_text()
    assert text.count(old) == 1
    items.write_text(text.replace(old, new))
    return load_content(folder)


def test_repricing_a_kit_card_moves_that_tiers_values_by_the_kit_cost_ratio(quick, tmp_path):
    """The rate is the kit's cards' effects over their prices: with the 1,000 G kit held,
    its zone map at 400 G instead of 200 G makes the kit cost more by a ratio r, the
    rate falls by r (within its interval: the effects move only a little, through the
    replacement's rebuying, Z-09, Z-40) and every other card's value at that tier
    rises by r (within its interval times r)."""
    tier = quick.tiers[0]
    assert tier.label == "1,000 G" and "zone_map" in tier.choice.kit.cards()
    content = load_content(_reprice(shutil.copytree(DEFAULT_DIR, tmp_path / "repriced"), "zone_map", 200, 400))
    context = replace(quick.context, content=content, _outcomes={},
                      tier_plan=replace(quick.context.tier_plan, budgets=(1000,)))
    again = value_cards(context, kits={tier.label: tier.choice}).tiers[0]
    ratio = (tier.kit_cost + 200) / tier.kit_cost
    assert again.kit_cost == tier.kit_cost + 200
    assert again.rate_ci95[0] <= tier.rate / ratio <= again.rate_ci95[1], (tier.rate, again.rate, ratio)
    for before, after in zip(tier.rows, again.rows):
        if before["item"] != "zone_map" and before["value_g"] is not None:
            low, high = before["value_g_ci95"]
            assert low * ratio - 1e-9 <= after["value_g"] <= high * ratio + 1e-9, (before, after)


def _reprice(folder, item, old, new):
    path = folder / "items.toml"
    text = path.read_text()
    block = text.index(f".{item}]")
    at = text.index(f"price = {old}", block)
    path.write_text(text[:at] + f"price = {new}" + text[at + len(f"price = {old}"):])
    return folder


def test_a_copy_is_worth_its_original_and_more_defence_is_worth_no_less(tmp_path):
    """A clone (identical but for id and name, sold where the original is) is worth
    exactly its original, on the same dice (its price and shops are part of the
    game: a replacement buys his kit again at the bases, Z-09, Z-40); armour
    with more defence in the same slot (Z-23, Z-24) is worth at least as much,
    in a fight-heavy view."""
    content = _copy(tmp_path, "clone", "[movement.jetpack]",
                    '[movement.glonass_b]\nname = "GLONASS B"\nsteps = 2\nprice = 600\n\n[movement.jetpack]')
    shops = tmp_path / "clone" / "journey.toml"
    shops.write_text(shops.read_text().replace('"glonass", ', '"glonass", "glonass_b", '))
    content = load_content(content.directory)
    settings = replace(load_context(content, quick=True), budgets=(1000,))
    result = value_cards(declared(content, settings))
    rows = {r["item"]: r for r in result.tiers[0].rows}
    assert rows["glonass"]["value_g"] == rows["glonass_b"]["value_g"] > 0
    assert rows["glonass"]["value_g_ci95"] == rows["glonass_b"]["value_g_ci95"]
    assert rows["glonass"]["reservation_g"] <= 600 + 1e-9  # the copy's price caps what he would pay
    fights = value_cards(declared(content, settings, view="fights", campaign=result.context))
    rows = {r["item"]: r for r in fights.tiers[0].rows}
    for strong, weak in (("vest", "leather_jacket"), ("exoskeleton", "vest"), ("sphere_helmet", "helmet")):
        assert rows[strong]["value_g"] >= rows[weak]["value_g_ci95"][0], (rows[strong], rows[weak])


def test_same_seed_same_values_with_or_without_an_items_filter_or_the_other_tiers(quick):
    """A card's row in a tier is the same valued alone (``--items``) in that tier alone as
    among every card of every tier: each tier shops and measures on its own dice."""
    plan = quick.context.tier_plan
    smallest = replace(quick.context, tier_plan=replace(plan, budgets=plan.budgets[:1]), _outcomes={})
    again = value_cards(smallest, items=["glonass", "smoke_bomb"])
    assert [r["item"] for r in again.tiers[0].rows] == ["glonass", "smoke_bomb"]
    assert again.tiers[0].rows == [r for r in quick.tiers[0].rows if r["item"] in ("glonass", "smoke_bomb")]


def test_a_copy_tunes_to_its_originals_price(tmp_path):
    """Identical cards end at one price (within one price step), whatever they started at;
    the 2,500 G kit holds the GLONASS among cards left at their prices, so the budget
    holds the two below their value."""
    from sim.economy.tune import tune_prices

    content = _copy(tmp_path, "clone", "[movement.jetpack]",
                    '[movement.glonass_b]\nname = "GLONASS B"\nsteps = 2\nprice = 150\n\n[movement.jetpack]')
    ctx = declared(content, replace(load_context(content, quick=True), budgets=(2500,)))
    tuned = tune_prices(ctx, rounds=6, items=["glonass", "glonass_b"])
    assert tuned.converged and tuned.start["glonass"] != tuned.start["glonass_b"], tuned.history
    assert abs(tuned.prices["glonass_b"] - tuned.prices["glonass"]) <= ctx.price_step, tuned.history
    rows = {r["item"]: r for r in tuned.values.items}
    assert rows["glonass"]["verdict"] == rows["glonass_b"]["verdict"]
    assert tuned.budget_bound or rows["glonass"]["verdict"] == "fair"
    assert all(check["affordable"] for check in tuned.kit_check.values()), tuned.kit_check


def test_each_tiers_rate_stands_without_any_kit_card_that_does_nothing_measurable(quick):
    """The rate is the kit's cards' effects over their prices; dropping a kit card whose
    effect interval includes 0 (a purchase the noise may have made) leaves it
    inside its own interval."""
    for tier in quick.tiers:
        kit = [r for r in tier.rows if r["in_kit"]]
        total, cost = sum(r["effect"] for r in kit), sum(r["price"] * r["count"] for r in kit)
        assert total / cost == pytest.approx(tier.rate)
        low, high = tier.rate_ci95
        for r in kit:
            if r["effect_ci95"][0] <= 0:
                dropped = (total - r["effect"]) / (cost - r["price"] * r["count"])
                assert low <= dropped <= high, (tier.label, r["item"], dropped, tier.rate_ci95)
