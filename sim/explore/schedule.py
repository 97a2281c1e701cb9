"""The refinement schedule of the explorer, fixed before any trial runs.

A headline number's full count (``report.toml``'s, as ``zonesim compare``
runs it) is cut into ``BATCHES`` batches of ``n`` trials, batch ``k`` holding
trials ``k n .. (k + 1) n - 1``: the batches of ``sim.compare.metrics``.
Stage ``s`` runs the first ``FRACTIONS[s]`` of every batch, so each stage adds
trials to the batches of the stage before and the last stage is the
comparison's own count, number for number.

Every interval shown is the 95% interval of one stage's fixed sample: the
stage sizes depend on the full counts alone, never on a result, and every
stage runs whatever the numbers say, so an interval read at any moment covers
as a 95% interval does. A card's value in G is measured again at each stage
(its valuation's batches tile its trials), on a count fixed the same way."""

from __future__ import annotations

import math

from sim.compare.metrics import BATCHES

FRACTIONS = (0.01, 0.05, 0.25, 1.0)
"""The share of the full count each stage has run."""


def stage_sizes(n: int) -> tuple[int, ...]:
    """Trials per batch at each stage, for batches of ``n`` trials at the full count:
    at least 1, never decreasing, ``n`` at the last stage."""
    return tuple(max(1, min(n, math.ceil(n * f))) for f in FRACTIONS)


def batch_size(trials: int) -> int:
    """Trials per batch of a full count (``sim.compare.metrics``: the total cut to whole batches)."""
    return trials // BATCHES


def valuation_sizes(trials: int, batches: int) -> tuple[int, ...]:
    """Paired trials per kit of a card valuation at each stage: whole batches,
    at least two trials a batch, the full count (cut to whole batches) at the last stage."""
    full = trials - trials % batches
    return tuple(max(2 * batches, min(full, math.ceil(full * f / batches) * batches)) for f in FRACTIONS)


def stage_label(stage: int) -> str:
    """``stage 1 of 4 (1% of the full count)``."""
    return f"stage {stage + 1} of {len(FRACTIONS)} ({100 * FRACTIONS[stage]:g}% of the full count)"
