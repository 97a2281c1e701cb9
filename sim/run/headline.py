"""Each mode's headline numbers, defined once: what ``zonesim compare``,
``report --baseline``, ``sensitivity``, ``balance`` and the explorer measure.

Every runner draws each trial's dice from (seed, trial index), so two content
sets run with the same seed and trial ranges meet the same dice. A number's
full count (``report.toml``'s) is cut into ``BATCHES`` fixed batches of ``n``
trials, batch ``k`` holding trials ``k n .. (k + 1) n - 1``, identical on both
sides of a comparison. Stage ``s`` runs the first ``FRACTIONS[s]`` of every
batch, so each stage adds trials to the batches of the stage before and the
last stage is the full count: the explorer shows the stages as they come, the
solver raises its counts by them, and ``measured(group)`` at the last stage is
the comparison's number. A batch's integer tallies are kept only when its run
of trials is whole, so work cut short (``check`` raises) leaves nothing half
counted. The stage sizes depend on the full counts alone, never on a result."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

import numpy as np

from sim.analysis.stats import batch_half_width, wilson
from sim.errors import ZonesimError

BATCHES = 20
FRACTIONS = (0.01, 0.05, 0.25, 1.0)
"""The share of the full count each stage has run."""
LAST = len(FRACTIONS) - 1


class CompareError(ZonesimError):
    """A comparison that cannot be set up (unknown group, too few trials)."""


FIGHT_CHUNK = 1 << 18
JOURNEY_CHUNK = 1 << 12
SKIRMISH_CHUNK = 1 << 11
GAME_CHUNK = 1 << 6  # games x seat rotations
"""Trials per kernel call of a fine run (the explorer's): each well under a tenth of a second on 2 cores."""


@dataclass(frozen=True)
class Measured:
    """One headline number: its value, unit (``p`` probability, ``days``,
    ``rounds``, ``G``) and per-batch values, or bootstrap replicas (item values)."""

    name: str
    unit: str
    value: float
    batches: np.ndarray | None = None
    replicas: np.ndarray | None = None


@dataclass(frozen=True)
class Plan:
    """What both sides measure: the study of ``report.toml`` and the valuation
    context of ``economy.toml`` (both read from the base content), the seed, the groups and the monsters
    (``sim.compare.metrics.make_plan``)."""

    study: object
    ctx: object
    seed: int
    groups: tuple
    monsters: tuple


def batch_size(trials: int) -> int:
    """Trials per batch (the total is cut to a multiple of ``BATCHES``)."""
    if trials < BATCHES:
        raise CompareError(f"report.toml: {trials} trials cannot fill {BATCHES} paired batches; give at least "
                           f"{BATCHES}")
    return trials // BATCHES


def stage_sizes(n: int) -> tuple[int, ...]:
    """Trials per batch at each stage, for batches of ``n`` trials at the full count:
    at least 1, never decreasing, ``n`` at the last stage."""
    return tuple(max(1, min(n, math.ceil(n * f))) for f in FRACTIONS)


def no_check():
    """The check of a run nobody cuts short."""


def measured(group, stage: int = LAST) -> list:
    """``group``'s headline numbers (``Measured``) grown to ``stage`` (default: the full count)."""
    group.advance(stage, no_check)
    return [r.measured for r in group.read(stage)]


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
    half = batch_half_width(batches) if math.isfinite(value) else math.nan
    return Reading(Measured(name, unit, value, batches), trials, (value - half, value + half))


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
    prefixes = ()
    """The first dotted part of every number's name (``fight_survival`` of ``fight_survival.boar.basic``)."""
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

    def proportions(self, stage: int, prefix: str = "") -> list[Reading]:
        """Each part's first tally (successes) as a probability at ``stage``, named ``prefix`` + its key."""
        size = self.sizes[stage]
        return [proportion(prefix + key, p.at[size][:, 0], size) for key, p in self.parts.items()]

    @classmethod
    def names(cls, content, plan) -> list[str]:
        """The names of the numbers ``read`` gives, without running anything."""
        raise NotImplementedError


def checked_chunks(work, first: int, count: int, size, check) -> dict:
    """``sim.run.chunks.run_chunks`` of ``work`` over trials ``first .. first + count - 1``
    in chunks of ``size`` (None: one), calling ``check`` before each chunk."""
    from sim.run.chunks import plan, run_chunks

    check()
    return run_chunks(work, plan(count, size or count, first=first), on_progress=lambda *_: check())[0]


def fight_tally(template, strategy, seed, chunk, first, count, check):
    """Survivors among fights ``first .. first + count - 1`` (Z-15..Z-38), ``chunk`` (None: all) at a time."""
    from sim.run.fight import survived

    alive, chunk = 0, chunk or count
    for start in range(first, first + count, chunk):
        check()
        alive += int(survived(template, strategy, trials=min(chunk, first + count - start), seed=seed,
                              first=start).sum())
    return [alive]


class Fights(Group):
    """P(survive) of every tier against every monster alone."""

    name, title = "fights", "Fights: P(survive) by monster and tier"
    prefixes = ("fight_survival",)

    def __init__(self, content, plan, fine=False):
        import strategies
        from sim.run.fight import fight_template

        strategy = strategies.get(plan.study.settings["strategy"])
        n, chunk = batch_size(plan.study.trials["fights"]), FIGHT_CHUNK if fine else None
        super().__init__({f"fight_survival.{m}.{t}": Part(partial(fight_tally, fight_template(content, kit, [m])[0],
                                                                  strategy, plan.seed, chunk), n)
                          for m in plan.monsters for t, kit in plan.study.tiers.items()}, n)

    def read(self, stage):
        return self.proportions(stage)

    @classmethod
    def names(cls, content, plan):
        return [f"fight_survival.{m}.{t}" for m in plan.monsters for t in plan.study.tiers]


def journey_tally(content, work, days, chunk, first, count, check):
    """Campaigns that reached the campaign's goal, and the sum of the days they did, among ``first ..``."""
    from sim.run.journey import journey_result

    total = checked_chunks(work, first, count, chunk, check)
    r = journey_result(content, work.inputs(), total, seed=work.seed, trials=count, days=days)
    return [int(r.counts[0]), int(r.done_hist[:-1] @ np.arange(r.done_hist.size - 1))]


class Journeys(Group):
    """Per tier, cautious: the chance to reach the campaign's goal and the mean day it is
    reached."""

    name, title = "journeys", "Journeys: goal rate and days by tier (cautious)"
    prefixes = ("journey_finish", "journey_days")

    def __init__(self, content, plan, fine=False):
        import strategies
        from sim.run.journey import JourneyWork

        strategy, days = strategies.get("cautious", mode="journey"), plan.study.settings["journey_days"]
        n, chunk = batch_size(plan.study.trials["journeys"]), JOURNEY_CHUNK if fine else None
        super().__init__({tier: Part(partial(journey_tally, content, JourneyWork(content, kit, strategy, days,
                                                                                 plan.seed), days, chunk), n)
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

    @classmethod
    def names(cls, content, plan):
        return [f"journey_{k}.{t}" for t in plan.study.tiers for k in ("finish", "days")]


def skirmish_tally(work, chunk, first, count, check):
    """Skirmishes won among ``first .. first + count - 1`` (A-, M- rules)."""
    import sim.kernels.skirmish as SK

    return [int(checked_chunks(work, first, count, chunk, check)["tally"][SK.T_OUTCOMES + SK.WIN])]


class Skirmishes(Group):
    """P(win) of the value tier against the skirmish monsters, per built-in strategy."""

    name, title = "skirmish", "Skirmishes: P(win) by strategy"
    prefixes = ("skirmish_win",)

    def __init__(self, content, plan, fine=False):
        import strategies
        from sim.content.skirmish import load_arena, load_skirmish, make_setup
        from sim.run.skirmish import SkirmishWork, skirmish_template

        settings = plan.study.settings
        sk = load_skirmish(content)
        arena, kit, monsters = load_arena(sk), plan.study.tiers[settings["value_tier"]], settings["skirmish_monsters"]
        n = batch_size(plan.study.trials["skirmish"])
        super().__init__({name: Part(partial(skirmish_tally, SkirmishWork(
            skirmish_template(make_setup(content, sk, [kit], monsters, arena, name)),
            strategies.get(name, mode="skirmish"), plan.seed), SKIRMISH_CHUNK if fine else None), n)
            for name in strategies.names("skirmish")}, n)

    def read(self, stage):
        return self.proportions(stage, "skirmish_win.")

    @classmethod
    def names(cls, content, plan):
        import strategies

        return [f"skirmish_win.{s}" for s in strategies.names("skirmish")]


def game_tally(work, chunk, first, count, check):
    """Wins per player, games without a winner and the game-length histogram of
    games ``first .. first + count - 1``, every seat order (S-05)."""
    import sim.kernels.stalkeriada as SK

    *_, at, rotations = work.inputs(0)
    tally = checked_chunks(work, first * rotations, count * rotations, chunk, check)["tally"]
    section = lambda k: tally[at[k]:at[k + 1]]  # noqa: E731
    return np.concatenate([section(SK.T_WINS), section(SK.T_NO_WINNER)[:1], section(SK.T_LENGTH)])


class Stalkeriada(Group):
    """The full table of the shipped strategies, every seat order: win rates, the
    no-winner share and the mean length in rounds."""

    name, title = "stalkeriada", "Stalkeriada: win rates at the full table"
    prefixes = ("stalkeriada_win", "stalkeriada_no_winner", "stalkeriada_rounds")

    def __init__(self, content, plan, fine=False):
        import strategies
        from sim.run.stalkeriada import DEFAULT_PLAYERS, StalkeriadaWork

        self.players = DEFAULT_PLAYERS
        work = StalkeriadaWork(content, (tuple(strategies.get(p, mode="stalkeriada") for p in DEFAULT_PLAYERS),),
                               plan.seed, True)
        self.per_trial = work.inputs(0)[-1]  # seat rotations: every player in every seat
        n = batch_size(plan.study.trials["stalkeriada"])
        super().__init__({"table": Part(partial(game_tally, work, GAME_CHUNK if fine else None), n)}, n)

    def read(self, stage):
        size = self.sizes[stage]
        games, tally, P = size * self.per_trial, self.parts["table"].at[size], len(self.players)
        hist = tally[:, P + 1:]
        rounds = hist @ np.arange(hist.shape[1]) / games
        return ([proportion(f"stalkeriada_win.{p}", tally[:, i], games) for i, p in enumerate(self.players)]
                + [proportion("stalkeriada_no_winner", tally[:, P], games),
                   batch_mean("stalkeriada_rounds", "rounds", float(rounds.mean()), rounds, games * BATCHES)])

    @classmethod
    def names(cls, content, plan):
        from sim.run.stalkeriada import DEFAULT_PLAYERS

        return [f"stalkeriada_win.{p}" for p in DEFAULT_PLAYERS] + ["stalkeriada_no_winner", "stalkeriada_rounds"]

