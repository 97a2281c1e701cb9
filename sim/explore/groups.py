"""The headline numbers of ``zonesim compare``, measured stage by stage.

Each group (fights, journeys, skirmishes, Stalkeriada, card values) runs the
same runners on the same trials as ``sim.compare.metrics``, but in chunks of
well under a second: ``check()`` is called between chunks and raises
``Cancelled`` when a newer edit has come, so no stale work goes on. A batch's
integer tallies grow stage by stage (``sim.explore.schedule``) and are kept
only when a run of trials is whole, so work cut short leaves nothing half
counted; at the last stage every number and batch is the comparison's own."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from sim.analysis.stats import t975, wilson
from sim.compare.metrics import BATCHES, SKIRMISH_STRATEGIES, Measured, Plan, paired_interval
from sim.explore.schedule import batch_size, stage_sizes, valuation_sizes

FIGHT_CHUNK = 1 << 18
JOURNEY_CHUNK = 1 << 12
SKIRMISH_CHUNK = 1 << 11
GAME_CHUNK = 1 << 6  # games x seat rotations
"""Trials per kernel call: each call takes well under a tenth of a second on 2 cores."""


class Cancelled(Exception):
    """A newer edit has come: the work in hand is dropped."""


@dataclass(frozen=True)
class Reading:
    """One headline number at one stage: its batches (``Measured``), the trials
    behind it and its own 95% interval."""

    measured: Measured
    trials: int
    ci: tuple


def proportion(name: str, successes: np.ndarray, size: int) -> Reading:
    """A probability from successes per batch of ``size`` trials, with its Wilson interval."""
    batches = successes / size
    trials = size * successes.size
    return Reading(Measured(name, "p", float(batches.mean()), batches), trials,
                   wilson(int(successes.sum()), trials))


def batch_mean(name: str, unit: str, value: float, batches: np.ndarray, trials: int) -> Reading:
    """A mean with the Student t interval over its batch values (nan where fewer than two are defined)."""
    finite = batches[np.isfinite(batches)]
    if finite.size < 2 or not math.isfinite(value):
        return Reading(Measured(name, unit, value, batches), trials, (math.nan, math.nan))
    half = t975(finite.size - 1) * float(finite.std(ddof=1)) / math.sqrt(finite.size)
    return Reading(Measured(name, unit, value, batches), trials, (value - half, value + half))


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


class Part:
    """One run's integer tallies per batch, grown stage by stage: batch ``k`` holds
    trials ``k n ..`` of the full batches of ``n``; ``run(first, count, check)`` gives a
    tally. ``at[size]``: the tallies when every batch had its first ``size`` trials."""

    def __init__(self, run, n: int):
        self.run, self.n = run, n
        self.tallies = None
        self.reached = np.zeros(BATCHES, np.int64)
        self.at = {}

    def grow(self, size: int, check):
        """Run every batch up to its first ``size`` trials (kept whole: a batch counts a run once it is done)."""
        if size in self.at:
            return
        for k in range(BATCHES):
            done = int(self.reached[k])
            if done < size:
                tally = np.asarray(self.run(k * self.n + done, size - done, check), np.int64)
                if self.tallies is None:
                    self.tallies = np.zeros((BATCHES, tally.size), np.int64)
                self.tallies[k] += tally
                self.reached[k] = size
        self.at[size] = self.tallies.copy()


class Group:
    """Headline numbers made of ``Part``s: ``advance(stage, check)`` grows them to the
    stage's size, ``read(stage)`` gives their ``Reading``s; ``trials(stage)`` per number."""

    name = ""
    title = ""
    per_trial = 1  # kernel trials per counted trial (Stalkeriada: seat rotations)

    def __init__(self, parts: dict, n: int):
        self.parts, self.n = parts, n
        self.sizes = stage_sizes(n)

    def advance(self, stage: int, check):
        for part in self.parts.values():
            part.grow(self.sizes[stage], check)

    def trials(self, stage: int) -> int:
        return self.sizes[stage] * BATCHES * self.per_trial

    def note(self, stage: int) -> str:
        """Why the group has no numbers at this stage ("" when it has)."""
        return ""

    def read(self, stage: int) -> list[Reading]:
        raise NotImplementedError


def checked_chunks(work, first: int, count: int, size: int, check) -> dict:
    """``sim.run.chunks.run_chunks`` of ``work`` over trials ``first .. first + count - 1``
    in chunks of ``size``, checking for a newer edit before each chunk."""
    from sim.run.chunks import plan, run_chunks

    check()
    return run_chunks(work, plan(count, size, first=first), on_progress=lambda *_: check())[0]


def fight_tally(template, strategy, seed, first, count, check):
    """Survivors among fights ``first .. first + count - 1`` (Z-15..Z-38)."""
    from sim.run.fight import survived

    alive = 0
    for start in range(first, first + count, FIGHT_CHUNK):
        check()
        alive += int(survived(template, strategy, trials=min(FIGHT_CHUNK, first + count - start), seed=seed,
                              first=start).sum())
    return [alive]


class Fights(Group):
    """P(survive) of every tier against every monster alone (``fight_metrics``)."""

    name, title = "fights", "Fights: P(survive) by monster and tier"

    def __init__(self, content, plan: Plan):
        import strategies
        from sim.run.fight import fight_template

        strategy = strategies.get(plan.study.settings["strategy"])
        n = batch_size(plan.study.trials["fights"])
        super().__init__({f"fight_survival.{m}.{t}": Part(partial(fight_tally, fight_template(content, kit, [m])[0],
                                                                  strategy, plan.seed), n)
                          for m in plan.monsters for t, kit in plan.study.tiers.items()}, n)

    def read(self, stage):
        size = self.sizes[stage]
        return [proportion(name, p.at[size][:, 0], size) for name, p in self.parts.items()]


def journey_tally(content, work, days, first, count, check):
    """Campaigns that reached the campaign's goal, and the sum of the days they did, among ``first ..``."""
    from sim.run.journey import journey_result

    total = checked_chunks(work, first, count, JOURNEY_CHUNK, check)
    r = journey_result(content, work.inputs(), total, seed=work.seed, trials=count, days=days)
    return [int(r.counts[0]), int(r.done_hist[:-1] @ np.arange(r.done_hist.size - 1))]


class Journeys(Group):
    """Per tier, cautious: the chance to reach the campaign's goal and the mean day it is
    reached (``journey_metrics``)."""

    name, title = "journeys", "Journeys: goal rate and days by tier (cautious)"

    def __init__(self, content, plan: Plan):
        import strategies
        from sim.run.journey import JourneyWork

        strategy, days = strategies.get("cautious", mode="journey"), plan.study.settings["journey_days"]
        n = batch_size(plan.study.trials["journeys"])
        super().__init__({tier: Part(partial(journey_tally, content, JourneyWork(content, kit, strategy, days,
                                                                                 plan.seed), days), n)
                          for tier, kit in plan.study.tiers.items()}, n)

    def read(self, stage):
        size, out = self.sizes[stage], []
        for tier, part in self.parts.items():
            done, day_sum = part.at[size][:, 0], part.at[size][:, 1]
            with np.errstate(invalid="ignore", divide="ignore"):
                per_batch = day_sum / done
            mean_day = float(day_sum.sum() / done.sum()) if done.sum() else math.nan
            out += [proportion(f"journey_finish.{tier}", done, size),
                    batch_mean(f"journey_days.{tier}", "days", mean_day, per_batch, size * BATCHES)]
        return out


def skirmish_tally(work, first, count, check):
    """Skirmishes won among ``first .. first + count - 1`` (A-, M- rules)."""
    import sim.kernels.skirmish as SK

    return [int(checked_chunks(work, first, count, SKIRMISH_CHUNK, check)["tally"][SK.T_OUTCOMES + SK.WIN])]


class Skirmishes(Group):
    """P(win) of the value tier against the skirmish monsters, per strategy (``skirmish_metrics``)."""

    name, title = "skirmish", "Skirmishes: P(win) by strategy"

    def __init__(self, content, plan: Plan):
        import strategies
        from sim.content.skirmish import load_arena, load_skirmish, make_setup
        from sim.run.skirmish import SkirmishWork, skirmish_template

        settings = plan.study.settings
        sk = load_skirmish(content)
        arena, kit, monsters = load_arena(sk), plan.study.tiers[settings["value_tier"]], settings["skirmish_monsters"]
        n = batch_size(plan.study.trials["skirmish"])
        super().__init__({name: Part(partial(skirmish_tally, SkirmishWork(
            skirmish_template(make_setup(content, sk, [kit], monsters, arena, name)),
            strategies.get(name, mode="skirmish"), plan.seed)), n) for name in SKIRMISH_STRATEGIES}, n)

    def read(self, stage):
        size = self.sizes[stage]
        return [proportion(f"skirmish_win.{name}", p.at[size][:, 0], size) for name, p in self.parts.items()]


def game_tally(work, first, count, check):
    """Wins per player, games without a winner and the game-length histogram of
    games ``first .. first + count - 1``, every seat order (S-05)."""
    import sim.kernels.stalkeriada as SK

    *_, at, rotations = work.inputs(0)
    tally = checked_chunks(work, first * rotations, count * rotations, GAME_CHUNK, check)["tally"]
    section = lambda k: tally[at[k]:at[k + 1]]  # noqa: E731
    return np.concatenate([section(SK.T_WINS), section(SK.T_NO_WINNER)[:1], section(SK.T_LENGTH)])


class Stalkeriada(Group):
    """The full table of the shipped strategies, every seat order: win rates, the
    no-winner share and the mean length in rounds (``stalkeriada_metrics``)."""

    name, title = "stalkeriada", "Stalkeriada: win rates at the full table"

    def __init__(self, content, plan: Plan):
        import strategies
        from sim.run.stalkeriada import DEFAULT_PLAYERS, StalkeriadaWork

        self.players = DEFAULT_PLAYERS
        work = StalkeriadaWork(content, (tuple(strategies.get(p, mode="stalkeriada") for p in DEFAULT_PLAYERS),),
                               plan.seed, True)
        self.per_trial = work.inputs(0)[-1]  # seat rotations: every player in every seat
        n = batch_size(plan.study.trials["stalkeriada"])
        super().__init__({"table": Part(partial(game_tally, work), n)}, n)

    def read(self, stage):
        size = self.sizes[stage]
        games, tally, P = size * self.per_trial, self.parts["table"].at[size], len(self.players)
        hist = tally[:, P + 1:]
        rounds = hist @ np.arange(hist.shape[1]) / games
        return ([proportion(f"stalkeriada_win.{p}", tally[:, i], games) for i, p in enumerate(self.players)]
                + [proportion("stalkeriada_no_winner", tally[:, P], games),
                   batch_mean("stalkeriada_rounds", "rounds", float(rounds.mean()), rounds, games * BATCHES)])


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


GROUPS = (Fights, Journeys, Stalkeriada, Skirmishes)
"""The groups of ``sim.compare.metrics`` in the order a stage runs them, cheapest first; card values run last."""
