"""Shapley shares of a tier's kit: the kit's whole effect (the kit against the
empty kit) shared among its cards.

Summing one-card-removed effects counts complements twice and substitutes not
at all: a flashlight does much beside a jetpack and little without one. The
Shapley share of a card is its marginal effect averaged over every order in
which the kit could have been put together, exact over all the kit's sub-kits
on the same dice (the valuation trials, the tier's strategy). The shares add
up to the whole effect, so at the tier's Shapley rate (the whole effect over
the kit's cost) the kit's cards are worth together exactly what they cost.
The copies of a card count as one player (``molotov x2``); a modifier whose
firearm is not in a sub-kit is not either (Z-21), so it adds nothing there.

Exact shares need 2^n sub-kits of n distinct cards; beyond ``MAX_CARDS`` the
tier gets no shares and says why."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import polars as pl

from sim.economy.value import Estimate, bootstrap_resample, expand_factor, interval

MAX_CARDS = 12


def shapley_weights(n: int) -> list:
    """The weight of a coalition of ``s`` other players, ``s! (n - s - 1)! / n!``, for s = 0..n-1."""
    return [math.factorial(s) * math.factorial(n - s - 1) / math.factorial(n) for s in range(n)]


def shapley_shares(worth: dict, players) -> dict:
    """``{player: share}`` from ``worth``, the worth of every coalition (a frozenset of
    players; numbers or arrays, e.g. one per batch), by the exact formula."""
    players = list(players)
    weights = shapley_weights(len(players))
    shares = {}
    for p in players:
        others = [q for q in players if q != p]
        shares[p] = sum(weights[s] * (worth[frozenset(group) | {p}] - worth[frozenset(group)])
                        for s in range(len(others) + 1) for group in combinations(others, s))
    return shares


def tier_shares(ctx, spec, tier, resample) -> tuple[list, str | None]:
    """One row per distinct card of ``tier``'s kit: its Shapley share of the kit's
    whole effect (all its copies) with a 95% interval, and that share in G per card at
    the tier's Shapley rate, beside the effect of one card of it against none of its
    kind (``removal_effect``, the ``effect`` of ``sim.economy.value``) and its value
    (per card); ``(rows, reason)``."""
    kit = tier.choice.kit
    valued = set(ctx.cards())
    counts = {c: n for c, n in kit.cards().items() if c in valued}
    players = sorted(counts)
    if not players:
        return [], "the kit holds no valued card"
    if len(players) > MAX_CARDS:
        return [], f"{len(players)} distinct cards: exact shares need 2^{len(players)} sub-kits (at most {MAX_CARDS})"
    coalitions = [frozenset(g) for s in range(len(players) + 1) for g in combinations(players, s)]
    sub_kits = [kit.without(set(players) - g) for g in coalitions]
    runs = spec.outcomes[tier.choice.strategy].many(sub_kits, 0, ctx.trials, ctx.batches)
    failed = next((r for r in runs if isinstance(r, Exception)), None)
    if failed is not None:
        return [], f"a sub-kit cannot be fielded here: {failed}"
    worth = {g: r.rates() for g, r in zip(coalitions, runs)}
    shares = shapley_shares(worth, players)
    expand = expand_factor(ctx.batches)
    cost = sum(ctx.price(c) * n for c, n in counts.items())
    whole = _estimate(worth[frozenset(players)] - worth[frozenset()], resample)
    by_item = {r["item"]: r for r in tier.rows}
    rows = []
    for card in players:
        share = _estimate(shares[card], resample)
        row = {"tier": tier.label, "item": card, "count": counts[card], "price": ctx.price(card),
               "share": share.point, "share_ci95": interval(share.point, share.replicas, expand),
               "share_g": None, "share_g_ci95": [None, None],
               "removal_effect": by_item.get(card, {}).get("effect"), "value_g": by_item.get(card, {}).get("value_g")}
        if whole.point > 0 and cost > 0:  # at the Shapley rate: the whole effect over the kit's cost
            ratio = np.divide(share.replicas, whole.replicas, out=np.zeros_like(share.replicas),
                              where=whole.replicas > 0)
            g = Estimate(share.point / whole.point * cost / counts[card], ratio * cost / counts[card])
            row.update(share_g=g.point, share_g_ci95=interval(g.point, g.replicas, expand))
        rows.append(row)
    return rows, None if whole.point > 0 else "the kit does no better than no kit: nothing to share"


def _estimate(per_batch: np.ndarray, resample) -> Estimate:
    """The mean over the batches and its bootstrap replicas (the valuation's resample)."""
    return Estimate(float(per_batch.mean()), per_batch[resample].mean(axis=1))


def kit_shares(result) -> pl.DataFrame:
    """Every budget tier's Shapley shares (``tier_shares``) of the valuation ``result``,
    with a ``reason`` where a tier has none."""
    ctx = result.context
    resample = bootstrap_resample(ctx)
    rows = []
    for spec, tier in zip(ctx.tiers(), result.tiers):
        found, reason = tier_shares(ctx, spec, tier, resample)
        rows += [{**r, "reason": reason} for r in found] or [{"tier": tier.label, "reason": reason}]
    return pl.DataFrame(rows, infer_schema_length=None)
