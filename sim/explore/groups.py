"""The explorer's groups: the headline numbers of every mode (``sim.modes.headline_groups``), run in
fine chunks of well under a second (``check()`` between chunks raises
``Cancelled`` when a newer edit has come, so no stale work goes on), and every
card's value in one fight, measured again at each stage."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from sim.analysis.stats import t975, wilson
from sim.run.headline import BATCHES, Measured, Reading
from sim.compare.metrics import Plan, paired_interval
from sim.explore.schedule import valuation_sizes


class Cancelled(Exception):
    """A newer edit has come: the work in hand is dropped."""


def paired_difference(base: Reading, new: Reading) -> tuple:
    """``new - base`` with its 95% interval: ``sim.compare.metrics.paired_interval``, and
    for a probability never narrower than the Wilson interval of the count of trials
    the batches show to differ (the trials are paired on the same dice): when few
    trials differ, most batches differ by nothing and their spread understates the noise."""
    diff, lo, hi = paired_interval(base.measured, new.measured)
    if new.measured.unit != "p" or not math.isfinite(lo):
        return diff, lo, hi
    differing = round(float(np.abs(new.measured.batches - base.measured.batches).sum()) * new.trials / BATCHES)
    low, high = wilson(differing, new.trials, t975(BATCHES - 1))
    half = max(high - differing / new.trials, differing / new.trials - low)
    return diff, min(lo, diff - half), max(hi, diff + half)


def checked_measures(measure_for, check):
    """A context's ``measure_for`` whose runs check for a newer edit first (one run: one kit's trials)."""
    def measure_of(name, monsters):
        measure = measure_for(name, monsters)

        def of(kit):
            run = measure(kit)

            def checked_run(trials, seed, first):
                check()
                return run(trials, seed, first)
            return checked_run
        return of
    return measure_of


class CardValues:
    """Every card's value in G in one fight: the report's view, the value tier as it
    is against the value monsters (``report.toml``), valued by ``sim.economy`` at each
    stage's count of paired fights per kit; the interval is the valuation's own."""

    name = "values"

    def __init__(self, content, plan: Plan, settings):
        s = plan.study.settings
        self.content, self.plan, self.settings = content, plan, settings
        self.monsters, self.tier = tuple(s["value_monsters"]), s["value_tier"]
        self.sizes = valuation_sizes(plan.study.trials["values"], settings.batches)
        self.readings, self.reasons = {}, {}
        self.title = f"Card values in G: one fight, {self.tier} tier against {' + '.join(self.monsters)}"

    def advance(self, stage: int, check):
        if stage in self.readings:
            return
        from sim.economy.context import scenario
        from sim.economy.value import value_cards

        ctx = scenario(self.content, self.settings, mode="fight", monsters=self.monsters,
                       loadout=self.plan.study.tiers[self.tier], strategies=(self.plan.study.settings["strategy"],),
                       trials=self.sizes[stage], seed=self.plan.seed)
        result = value_cards(replace(ctx, measure_for=checked_measures(ctx.measure_for, check)))
        self.readings[stage] = [
            Reading(Measured(f"card_value_g.{row['item']}", "G", float(row["value_g"]),
                             replicas=result.value_replicas[row["item"]]), ctx.trials, tuple(row["value_g_ci95"]))
            for row in result.items if row["item"] in result.value_replicas]
        self.reasons[stage] = result.rate["reason"] or ""

    def trials(self, stage: int) -> int:
        return self.sizes[stage]

    def note(self, stage: int) -> str:
        return "" if self.readings[stage] else f"No card is valued at this count: {self.reasons[stage]}."

    def read(self, stage: int) -> list[Reading]:
        return self.readings[stage]

