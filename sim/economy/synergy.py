"""Synergy: what a pair of changes to a loadout adds beyond its parts, in
survival, on common dice (the firearm's modifiers two by two, Z-21; Doktor's
healing bonus with each in-combat healing item, Z-03; each escape item with
more reputation, Z-32, Z-33)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import polars as pl

from sim.analysis.stats import Z95, paired_batch_interval
from sim.content import Content
from sim.content.loadout import Loadout, LoadoutError

BATCHES = 20


def _apply(content: Content, loadout: Loadout, change: str) -> Loadout:
    """``loadout`` with one change: an item id (as in ``Loadout.with_card``),
    ``character=ID`` or ``reputation=N``; ``LoadoutError`` if it cannot be made."""
    if change.startswith("character="):
        return replace(loadout, character=change.split("=", 1)[1]).validate(content)
    if change.startswith("reputation="):
        try:
            return replace(loadout, reputation=int(change.split("=", 1)[1])).validate(content)
        except ValueError:
            raise LoadoutError(f"--pair: '{change}'; write reputation=N with a whole N") from None
    changed = loadout.with_card(content, change) if change in content.items else None
    if changed is not None and (content.items[change].family != "modifiers" or changed.weapon == loadout.weapon):
        return changed
    raise LoadoutError(f"--synergy: '{change}' cannot be added to {loadout.weapon or 'the loadout'} "
                       "(unknown, not for this firearm, or out of cards)")


def synergy_pairs(content: Content, base: Loadout):
    """The pairs that interact: every two modifiers of the firearm (Z-21), Doktor's
    healing bonus (Z-03) with each in-combat healing item, and each escape item
    with two more reputation (Z-32, Z-33: the item lowers the reputation the
    escape roll must beat)."""
    mods = [e.id for e in content.family("modifiers") if e["firearm"] == base.weapon and e.id not in base.mods]
    pairs = [(a, b) for k, a in enumerate(mods) for b in mods[k + 1:]]
    if base.character != "doktor" and "doktor" in content.characters:
        pairs += [(e.id, "character=doktor") for e in content.family("healing") if e["in_combat"]]
    reputation = content.rules["stalker"]["start_reputation"] if base.reputation is None else base.reputation
    pairs += [(e.id, f"reputation={reputation + 2}") for e in content.family("escape") if e.id != base.escape_item]
    return pairs


def synergies(content: Content, base: Loadout, measure, pairs, *, trials, seed) -> pl.DataFrame:
    """For each pair of changes (a, b), on common dice:

    - ``synergy``: the value of both together minus the sum of their values
      alone, in survival probability (s_ab - s_a - s_b + s_0 per trial), with its
      95% interval. It saturates: near certain survival every pair looks like
      substitutes, because nothing can add more than what is left to 1.
    - ``synergy_log_odds``: the same interaction on the log-odds of survival,
      a scale that does not saturate (logit p_ab - logit p_a - logit p_b +
      logit p_0), with the Student t interval over ``BATCHES`` paired batches.
      exp of it is the factor by which the pair multiplies the odds of
      surviving beyond what each does alone: above 0 complements, below 0
      substitutes."""
    if trials < 2:
        raise LoadoutError(f"--trials: {trials}; give at least 2 trials")
    s0 = measure(base)(trials, seed, 0).astype(np.int64)
    rows = []
    for a, b in pairs:
        la, lb = _apply(content, base, a), _apply(content, base, b)
        lab = _apply(content, la, b)
        sa, sb, sab = (measure(lo)(trials, seed, 0).astype(np.int64) for lo in (la, lb, lab))
        per_trial = sab - sa - sb + s0
        mean = float(per_trial.mean())
        se = float(per_trial.std(ddof=1)) / math.sqrt(trials)
        logit = [_batch_log_odds(s, min(BATCHES, trials)) for s in (sab, sa, sb, s0)]
        lo_mean, lo_low, lo_high = paired_batch_interval((logit[0] - logit[2]) - (logit[1] - logit[3]),
                                                         np.zeros(len(logit[0])))
        rows.append({"a": a, "b": b, "value_a": float((sa - s0).mean()), "value_b": float((sb - s0).mean()),
                     "value_both": float((sab - s0).mean()), "synergy": mean, "ci_low": mean - Z95 * se,
                     "ci_high": mean + Z95 * se, "synergy_log_odds": lo_mean, "log_odds_ci_low": lo_low,
                     "log_odds_ci_high": lo_high})
    return pl.DataFrame(rows)


def _batch_log_odds(survived, batches):
    """Log-odds of survival in each of ``batches`` consecutive batches of trials,
    with half a trial added to each side so a batch with no death (or no
    survivor) stays finite."""
    return np.array([math.log((part.sum() + 0.5) / (len(part) - part.sum() + 0.5))
                     for part in np.array_split(survived, batches)])


def context_synergies(content: Content, ctx, base: Loadout, pairs=()) -> pl.DataFrame:
    """The ``pairs`` (default: ``synergy_pairs``) with the loadout ``base`` given to the
    context ``ctx``, under the strategy its tier picked, on at most 200,000 trials."""
    strategy = ctx.tiers()[0].choose().strategy
    measure = ctx.measure_for(strategy, ctx.groups[0])
    return synergies(content, base, measure, list(pairs) or synergy_pairs(content, base),
                     trials=min(ctx.trials, 200_000), seed=ctx.seed)
