"""Shapley shares of a tier's kit (``sim.economy.shapley``): the exact formula against
games worked by hand and against the definition (the mean marginal effect over every
order), and on the default content's 1,000 G kit the shares that sum to the kit's
whole effect and, in G, to its cost."""

from dataclasses import replace
from itertools import permutations

import numpy as np
import pytest

from sim.content import load_content
from sim.economy.context import declared, load_context
from sim.economy.shapley import kit_shares, shapley_shares
from sim.economy.value import value_cards


def test_a_glove_game_worked_by_hand():
    """Left glove L and two right gloves R1, R2; a pair is worth 1. L's share is 2/3,
    each right glove's 1/6 (two of the six orders put R before L, and one of them R first)."""
    players = ["L", "R1", "R2"]
    worth = {frozenset(g): float("L" in g and ("R1" in g or "R2" in g))
             for g in [(), ("L",), ("R1",), ("R2",), ("L", "R1"), ("L", "R2"), ("R1", "R2"), ("L", "R1", "R2")]}
    shares = shapley_shares(worth, players)
    assert shares == pytest.approx({"L": 2 / 3, "R1": 1 / 6, "R2": 1 / 6})


def test_complements_share_their_joint_effect_and_a_dummy_gets_nothing():
    """A flashlight that only helps beside a jetpack: 1 alone each, 4 together. The
    one-removed effects (3 and 3) count the synergy twice; the shares (2 and 2) once;
    a modifier without its firearm adds nothing anywhere and gets 0."""
    base = {frozenset(): 0.0, frozenset({"j"}): 1.0, frozenset({"f"}): 1.0, frozenset({"j", "f"}): 4.0}
    worth = {**base, **{g | {"mod"}: v for g, v in base.items()}}
    shares = shapley_shares(worth, ["j", "f", "mod"])
    assert shares == pytest.approx({"j": 2.0, "f": 2.0, "mod": 0.0})


def test_the_formula_is_the_mean_marginal_effect_over_every_order():
    rng = np.random.default_rng(5)
    players = list("abcde")
    worth = {}
    for mask in range(32):
        worth[frozenset(p for k, p in enumerate(players) if mask >> k & 1)] = rng.normal(size=3)
    by_order = {p: np.zeros(3) for p in players}
    orders = list(permutations(players))
    for order in orders:
        built = frozenset()
        for p in order:
            by_order[p] += (worth[built | {p}] - worth[built]) / len(orders)
            built = built | {p}
    shares = shapley_shares(worth, players)
    for p in players:
        assert shares[p] == pytest.approx(by_order[p])


def test_the_default_kits_shares_sum_to_its_whole_effect_and_its_cost():
    content = load_content()
    ctx = declared(content, replace(load_context(content, quick=True), budgets=(1000,)))
    result = value_cards(ctx)
    frame = kit_shares(result)
    tier = result.tiers[0]
    kit = tier.choice.kit
    outcome = ctx.tiers()[0].outcomes[tier.choice.strategy]
    whole = (outcome.valuation(kit, ctx.trials, ctx.batches).mean
             - outcome.valuation(kit.without(set(kit.cards())), ctx.trials, ctx.batches).mean)
    assert set(frame["item"]) == set(kit.cards())
    assert frame["share"].sum() == pytest.approx(whole)
    assert (frame["share_g"] * frame["count"]).sum() == pytest.approx(ctx.kit_cost(kit))  # G per card
    for row in frame.to_dicts():
        assert row["share_ci95"][0] <= row["share"] <= row["share_ci95"][1]
