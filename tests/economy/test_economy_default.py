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
from sim.economy.value import band, value_cards, verdict

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


STRONGER = (("army_medkit", "medkit"), ("combat_stimulator", "stimulator"), ("limonka", "molotov"),
            ("tyoshcha", "limonka"), ("ppv", "tyoshcha"), ("ak47", "berdanka"), ("kvazar", "ak47"),
            ("vest", "leather_jacket"), ("exoskeleton", "vest"), ("sphere_helmet", "helmet"))


def _clearly_below(high, low) -> bool:
    """``high``'s value interval wholly below ``low``'s, by more than 10 G or 5%."""
    return high["value_g_ci95"][1] + max(10.0, 0.05 * low["value_g_ci95"][1]) < low["value_g_ci95"][0]


def test_a_card_that_does_strictly_more_is_never_valued_clearly_below_it(quick):
    """More heal, more dice, more defence in the same slot and use: never valued clearly
    below the weaker card, overall or at any tier (the consumables on one footing,
    ``sim.economy.kits.margin``). Planted bug: the old footing (a held consumable against
    none of its copies, another one on top of the kit) valued the army medkit at 43-68 G
    against the medkit's 162-278 G at 2,500 G, and this test fails on it."""
    rows = {r["item"]: r for r in quick.items}
    for strong, weak in STRONGER:
        assert not _clearly_below(rows[strong], rows[weak]), (strong, weak)
        for hi, lo in zip(rows[strong]["tiers"], rows[weak]["tiers"]):
            if hi["value_g"] is not None and lo["value_g"] is not None:
                assert not _clearly_below(hi, lo), (hi["tier"], strong, hi["value_g_ci95"], weak, lo["value_g_ci95"])


@pytest.mark.parametrize("view", ["quick", "fights"])
def test_a_tiers_kit_is_worth_what_it_costs_every_copy_counted(view, request):
    """The cards the kit holds, each copy at the value of its margin, add up to what the kit
    costs (its ``Loadout.cost``, not the rows' prices); a null value says why. Planted bug:
    the old rate counted a consumable once (850 of the 950 G the 1,000 G kit cost), and the
    kit's values then add up to 850 G, not 950 G."""
    result = request.getfixturevalue(view)
    ctx = result.context
    for tier in result.tiers:
        assert tier.rate is not None and tier.rate > 0, tier.reason
        rows = {r["item"]: r for r in tier.rows}
        held = tier.choice.kit.cards()
        assert all(rows[c]["held"] == n for c, n in held.items() if c in rows)
        worth = sum(rows[c]["value_g"] * n for c, n in held.items())
        assert worth == pytest.approx(ctx.kit_cost(tier.choice.kit)) and tier.kit_cost <= tier.budget
        for row in tier.rows:
            if row["value_g"] is None:
                assert row["reason"] and row["verdict"] == "not valued", row
    assert any(n > 1 for t in result.tiers for n in t.choice.kit.cards().values())  # copies to count


@pytest.mark.parametrize("view", ["quick", "fights"])
def test_every_verdict_is_read_from_the_intervals_alone(view, request):
    """*worth nothing here* only where the effect interval lies at or below 0; *no use here*
    only where it holds 0 or the whole value interval lies under half a price step (it earns
    no price on the grid); *fair* only where the price is a grid price nearest to a value
    of the interval; *over-/under-priced* otherwise. Planted bug: free disposal read from
    the selection trials called the rifling "worth nothing here" at 5,000 G with an effect
    of +0.56 [0.13, 0.99], and this test fails on it."""
    result = request.getfixturevalue(view)
    step = result.context.price_step
    seen = set()
    for tier in result.tiers:
        for row in tier.rows:
            if row["value_g"] is None:
                continue
            (low, high), verdict = row["effect_ci95"], row["verdict"]
            seen.add(verdict)
            if verdict == "worth nothing here":
                assert high <= 0 and row["value_g"] == 0, (tier.label, row)
            elif verdict == "no use here":
                assert low <= 0 <= high or row["value_g_ci95"][1] < step / 2, (tier.label, row)
            else:
                assert low > 0 and row["value_g_ci95"][1] >= step / 2, (tier.label, row)
                floor, ceiling = band(*row["value_g_ci95"], step)
                expected = ("over-priced" if row["price"] > ceiling else "under-priced" if row["price"] < floor
                            else "fair")
                assert verdict == expected, (tier.label, row)
    assert {"fair", "over-priced", "under-priced"} & seen


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
        assert sum(kit.cards().values()) <= ctx.card_limit()  # K-05: nothing the stalker must discard
        for changed in kit.changes(ctx.content, ctx.max_count):
            if changed.cost(ctx.content) <= spec.budget and sum(changed.cards().values()) <= ctx.card_limit():
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


def test_two_seeds_agree_within_their_intervals(quick):
    """The intervals carry the noise a designer meets running again: at seed 2 (other
    selection and valuation dice, so possibly other kits) at least 90% of the overall
    values and 80% of the tier values overlap seed 1's intervals (measured: 38 of 38 and
    114 of 114). Planted bugs: intervals of the valuation noise alone (not spanning the
    second kit choice) gave 26 of 38 tier values apart at 1,000 G; the two selection sets
    without the bootstrap resamples (``SELECTION_RESAMPLES = 0``) gave 33 of 38 overall
    (the medkit, army medkit, GLONASS, jetpack and NVG apart)."""
    other = value_cards(replace(quick.context, seed=2, _outcomes={}))

    def overlap(a, b):
        return a[0] <= b[1] + 1e-9 and b[0] <= a[1] + 1e-9

    first = {r["item"]: r for r in quick.items}
    rows = [(first[r["item"]], r) for r in other.items if r["value_g"] is not None and
            first[r["item"]]["value_g"] is not None]
    agree = sum(overlap(a["value_g_ci95"], b["value_g_ci95"]) for a, b in rows)
    assert agree >= 0.9 * len(rows), [(a["item"], a["value_g_ci95"], b["value_g_ci95"]) for a, b in rows
                                      if not overlap(a["value_g_ci95"], b["value_g_ci95"])]
    tiers = [(x, y) for a, b in rows for x, y in zip(a["tiers"], b["tiers"])
             if x["value_g"] is not None and y["value_g"] is not None]
    assert sum(overlap(x["value_g_ci95"], y["value_g_ci95"]) for x, y in tiers) >= 0.8 * len(tiers)


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
    """A clone (identical but for id and name, sold where the original is) is measured
    once, as its original, and read at its own price; armour with more defence in the
    same slot (Z-23, Z-24) is worth at least as much, in a fight-heavy view."""
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
    assert rows["glonass_b"]["basis"] == "measured as its twin glonass"
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
    """Identical cards end at one price (within one price step), whatever they started at
    (150 G against the GLONASS's 600 G), and both are fair at it."""
    from sim.economy.tune import tune_prices

    content = _copy(tmp_path, "clone", "[movement.jetpack]",
                    '[movement.glonass_b]\nname = "GLONASS B"\nsteps = 2\nprice = 150\n\n[movement.jetpack]')
    ctx = declared(content, replace(load_context(content, quick=True), budgets=(2500,)))
    tuned = tune_prices(ctx, rounds=6, items=["glonass", "glonass_b"])
    assert tuned.converged and tuned.start["glonass"] != tuned.start["glonass_b"], tuned.history
    assert abs(tuned.prices["glonass_b"] - tuned.prices["glonass"]) <= ctx.price_step, tuned.history
    rows = {r["item"]: r for r in tuned.values.items}
    assert rows["glonass"]["verdict"] == rows["glonass_b"]["verdict"]


def test_a_card_that_does_nothing_is_no_use_here_and_its_twin_is_worth_the_same(tmp_path):
    """A head armour with defence 0 (Z-23: it stops nothing) is *no use here* at every tier
    and overall, never over-priced; a medkit's twin at 300 G is worth the medkit, read at
    its own price. Planted bugs: a verdict from the selection trials alone called the cap
    over-priced (the replacement's refit spends its price, Z-09, so the outcome moves a
    hair); measured on its own, the twin restocks at 300 G (Z-40) and came out 78-106 G
    against the medkit's 110-148 G (seed 13)."""
    content = _copy(tmp_path, "planted", "[healing.army_medkit]",
                    '[healing.medkit_b]\nname = "Medkit B"\nheal = 5\nin_combat = false\nprice = 300\n\n'
                    '[armour.cap_zero]\nname = "Cloth cap"\nslot = "head"\ndefence = 0\nprice = 100\n\n'
                    '[healing.army_medkit]')
    result = value_cards(declared(content, replace(load_context(content, quick=True), budgets=(1000,))))
    rows = {r["item"]: r for r in result.items}
    assert rows["cap_zero"]["verdict"] == "no use here", rows["cap_zero"]
    assert all(t["verdict"] == "no use here" for t in rows["cap_zero"]["tiers"])
    assert rows["medkit_b"]["value_g_ci95"] == rows["medkit"]["value_g_ci95"], (rows["medkit"], rows["medkit_b"])
    low, high = rows["medkit_b"]["value_g_ci95"]
    step = result.context.price_step
    assert rows["medkit_b"]["verdict"] == verdict(False, False, low, high, 300, step=step)
