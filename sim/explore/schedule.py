"""The refinement schedule of the explorer, fixed before any trial runs: the
stages of ``sim.run.headline`` (``FRACTIONS``), each stage adding trials to
the batches of the stage before, the last the comparison's own count, number
for number.

Every interval shown is the 95% interval of one stage's fixed sample: the
stage sizes depend on the full counts alone, never on a result, and every
stage runs whatever the numbers say, so an interval read at any moment covers
as a 95% interval does. A card's value in G is measured again at each stage
(its valuation's batches tile its trials), on a count fixed the same way."""

from __future__ import annotations

import math

from sim.run.headline import FRACTIONS


def valuation_sizes(trials: int, batches: int) -> tuple[int, ...]:
    """Paired trials per kit of a card valuation at each stage: whole batches,
    at least two trials a batch, the full count (cut to whole batches) at the last stage."""
    full = trials - trials % batches
    return tuple(max(2 * batches, min(full, math.ceil(full * f / batches) * batches)) for f in FRACTIONS)


def stage_label(stage: int) -> str:
    """``stage 1 of 4 (1% of the full count)``."""
    return f"stage {stage + 1} of {len(FRACTIONS)} ({100 * FRACTIONS[stage]:g}% of the full count)"
