"""Restricted play (``zonesim restricted``, ``sim.economy.restricted``): the kit
bought without a card against the kit bought from every card, on the same dice."""

import pytest

from sim import api
from sim.content.loadout import Loadout
from sim.economy.value import bootstrap_resample, expand_factor, interval

SMALL = dict(mode="journey", budgets=[1000], strategies=["cautious"], trials=4000, selection=1000, seed=3)


@pytest.fixture(scope="module")
def without_camo():
    return api.restricted(["camo_cloak"], **SMALL)


def test_a_card_the_buyer_does_not_buy_costs_nothing_to_ban_exactly():
    """The exoskeleton (3,000 G) is out of the 1,000 G buyer's reach: banning it buys the
    same kit, so the loss is 0 with the interval [0, 0] (paired on the same campaigns),
    and the line says why. Planted bug: the banned kit played on other dice (its valuation
    batches from trial 2**36) gave a loss of +0.27 days [-0.11, 0.65]."""
    tier, = api.restricted(["exoskeleton"], **SMALL).tiers
    assert tier.banned_kit == tier.kit and "exoskeleton" not in tier.kit
    assert tier.loss == 0 and tier.loss_ci95 == [0, 0] and tier.loss_g == 0
    assert tier.reason.startswith("he buys none of it")


def test_a_held_card_banned_is_bought_around_and_paired_on_the_same_campaigns(without_camo):
    """The camo cloak is in the 1,000 G kit; banned, the shopper buys another kit without
    it. The loss is the paired mean difference of the two kits' valuation batches, and its
    interval is the bootstrap over the same resample as the values'."""
    tier, = without_camo.tiers
    ctx = without_camo.context
    assert "camo_cloak" in tier.kit and "camo_cloak" not in tier.banned_kit
    spec, = ctx.tiers()

    def kit_of(line):
        return Loadout.from_options(ctx.content, kit=line.replace(" x", "*").replace(", ", ","))

    held = spec.outcomes[tier.strategy].valuation(kit_of(tier.kit), ctx.trials, ctx.batches)
    other = spec.outcomes[tier.banned_strategy].valuation(kit_of(tier.banned_kit), ctx.trials, ctx.batches)
    diff = held.rates() - other.rates()
    assert tier.loss == pytest.approx(diff.mean())
    replicas = diff[bootstrap_resample(ctx)].mean(axis=1)
    assert tier.loss_ci95 == pytest.approx(interval(tier.loss, replicas, expand_factor(ctx.batches)))


def test_the_loss_of_a_held_card_is_at_most_its_marginal_value(without_camo):
    """Re-shopping around a ban can only help the buyer, so the loss lies at or under the
    card's marginal value (the kit with and without it, nothing bought instead), clear of
    the noise: 436 G marginal, and the shopper's kit without the cloak (smoke bomb, medkit,
    limonka) does 0.29 days better [0.02, 0.55]: a finding about the greedy shopper, said."""
    tier, = without_camo.tiers
    marginal = next(r for r in without_camo.values.tiers[0].rows if r["item"] == "camo_cloak")
    assert tier.loss_g_ci95[0] <= marginal["value_g_ci95"][1]
    assert tier.value_g["camo_cloak"] == marginal["value_g"]
    if tier.loss_ci95[1] < 0:
        assert "is not the best this budget buys" in tier.reason


def test_at_a_stalkeriada_table_the_loss_is_the_planners_restricted_valuation():
    """A Stalkeriada planner's loss is his valuation's row of the banned shop item (the
    planner with the item struck from his list against the same planner allowed it)."""
    result = api.restricted(["pliers"], mode="stalkeriada", strategies=["cautious"], trials=200, seed=2)
    tier, = result.tiers
    row = next(r for r in result.values.tiers[0].rows if r["item"] == "pliers")
    assert (tier.loss, tier.loss_ci95, tier.loss_g) == (row["effect"], list(row["effect_ci95"]), row["value_g"])
    assert result.to_json()["banned"] == ["pliers"]


def test_z33_banning_the_escape_in_a_fight_costs_the_optimal_players_escape_exactly():
    """In one fight the strong player is the optimal one, solved exactly. Banning the escape
    (the action, Z-33) leaves him the fight to the end, played best: against a chimera with
    an AK-47, a vest and two stimulators at reputation 5 he survives 0.2943 less, and the loss
    is his survival less the no-escape player's, with no interval (exact). Banning a card of
    the loadout is the optimal player with and without it (0.0643), and banning more never
    costs less. Banning both costs 0.3906, more than the parts' 0.3585: without the escape,
    the stimulators carry the fight. Planted bug: the escape left to the restricted player
    gave a loss of 0."""
    from sim.content import load_content
    from sim.run.fight import optimal_fight

    kit = dict(weapon="ak47", body="vest", stims={"stimulator": 2}, reputation=5)
    escape, = api.restricted(["escape"], mode="fight", monsters=["chimera"], **kit).tiers
    game = load_content()
    loadout = Loadout.from_options(game, **kit)
    best = optimal_fight(game, loadout, ["chimera"])[1].p_survive
    staying = optimal_fight(game, loadout, ["chimera"], may_escape=False)[1].p_survive
    assert escape.loss == pytest.approx(best - staying) and escape.loss_ci95 == [escape.loss, escape.loss]
    assert escape.loss == pytest.approx(0.2943, abs=5e-4) and escape.banned_strategy == "optimal, no escape"
    stims, = api.restricted(["stimulator"], mode="fight", monsters=["chimera"], **kit).tiers
    both, = api.restricted(["escape", "stimulator"], mode="fight", monsters=["chimera"], **kit).tiers
    assert stims.banned_kit == "ak47, vest" and 0 < stims.loss < escape.loss < both.loss
    assert both.loss > escape.loss + stims.loss
