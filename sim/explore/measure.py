"""The measuring process of the explorer: the numbers of the baseline and of the
newest draft, stage by stage (``sim.explore.schedule``), paired on common dice.

It runs in a child process: the kernels hold the interpreter lock while they
run, so measuring in a thread of the page's process would stall the page and
the loaders for as long as each kernel call. It drops the work in hand at its
next chunk when a newer request has come (``sim.explore.groups.Cancelled``)
and only ever runs the newest request: nothing stale waits in a queue. It
keeps the baseline's tallies and those of the last few drafts, so undoing an
edit or going back to the baseline shows the numbers reached at once."""

from __future__ import annotations

import math
import os
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from sim.run.headline import Measured
from sim.compare.metrics import headline_group, make_plan
from sim.errors import ZonesimError
from sim.explore.groups import CardValues, Cancelled, paired_difference
from sim.explore.schedule import FRACTIONS
from sim.modes import headline_groups

KEEP = 4
"""Drafts whose tallies are kept besides the baseline's."""


def group_names() -> tuple:
    """The groups a stage runs, in order: every mode's headline group (``sim.modes``, in registry
    order; the whole-game economy is ``zonesim compare``'s), then card values in one fight."""
    return (*(g.name for g in headline_groups()), CardValues.name)


@dataclass
class Side:
    """One content set being measured: its folder, its content and its groups (built on first use)."""

    folder: Path
    content: object
    groups: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Row:
    """One headline number of the page: the draft's value with its 95% interval, the
    baseline's value, the paired difference with its 95% interval, whether that
    interval is clear of 0 (the move is clear of the noise) and the trials behind it."""

    name: str
    unit: str
    value: float
    ci: tuple
    base: float
    diff: float
    diff_ci: tuple
    clear: bool
    trials: int
    same: bool = False
    """Every batch (or bootstrap replica) is the baseline's: no trial was seen to differ."""


@dataclass(frozen=True)
class GroupView:
    """A group's numbers at its latest finished stage, for the draft of ``generation``."""

    name: str
    title: str
    stage: int
    trials: int
    rows: tuple
    generation: int
    note: str = ""


def unchanged(base: Measured, new: Measured) -> bool:
    """Every batch (or bootstrap replica) of ``new`` is the baseline's."""
    if new.replicas is not None:
        return base.replicas is not None and np.array_equal(base.replicas, new.replicas)
    return np.array_equal(base.batches, new.batches, equal_nan=True)


def compared(base, new) -> tuple:
    """The rows of a group at one stage: each of ``new``'s readings paired with the baseline's."""
    by_name = {r.measured.name: r for r in base}
    rows = []
    for r in new:
        b = by_name.get(r.measured.name)
        diff, lo, hi = paired_difference(b, r) if b is not None else (math.nan,) * 3
        rows.append(Row(r.measured.name, r.measured.unit, r.measured.value, tuple(r.ci),
                        b.measured.value if b is not None else math.nan, diff, (lo, hi),
                        bool(lo > 0 or hi < 0), r.trials, b is not None and unchanged(b.measured, r.measured)))
    return tuple(rows)


class Measurer:
    """The numbers of the baseline and of each requested draft, stage by stage (the child's side)."""

    def __init__(self, folder: Path, quick: bool):
        from sim.content import load_content
        from sim.economy.context import load_context

        base = load_content(folder)
        self.plan = make_plan(base, quick=quick, groups=group_names()[:-1])
        self.settings = replace(load_context(base), seed=self.plan.seed)
        self.base = Side(Path(folder), base)
        self.sides = OrderedDict()

    def side(self, key, folder) -> Side:
        """The baseline (``folder`` None) or the draft in ``folder``, its tallies kept while recent."""
        from sim.content import load_content

        if folder is None:
            return self.base
        if key not in self.sides:
            self.sides[key] = Side(Path(folder), load_content(folder))
            while len(self.sides) > KEEP:
                self.sides.popitem(last=False)
        self.sides.move_to_end(key)
        return self.sides[key]

    def group(self, side: Side, name: str, check):
        """The side's group ``name``, built on first use (the first build loads its kernels)."""
        if name not in side.groups:
            check()
            side.groups[name] = (CardValues(side.content, self.plan, self.settings) if name == CardValues.name
                                 else headline_group(name)(side.content, self.plan, fine=True))
        return side.groups[name]

    def run(self, generation: int, side: Side, check, send):
        """Every stage of every group of ``side`` and the baseline; each group's view
        sent as soon as a stage of it is done."""
        sides = [self.base] if side is self.base else [self.base, side]
        for stage in range(len(FRACTIONS)):
            for name in group_names():
                base, new = (self.group(s, name, check) for s in (sides[0], sides[-1]))
                for group in {id(base): base, id(new): new}.values():
                    group.advance(stage, check)
                send(("view", GroupView(name, new.title, stage, new.trials(stage),
                                        compared(base.read(stage), new.read(stage)), generation, new.note(stage))))
        send(("done", generation))


def measuring(conn, newest, folder, quick, threads):
    """The child process: run the newest request (``newest.value``: its generation) until
    the parent is gone; ``conn`` brings ``(generation, key, folder, submitted)`` and takes the numbers."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # idle kernel threads sleep: the page shares the cores
    from sim.options import set_threads

    parent = os.getppid()
    set_threads(threads)
    measurer = Measurer(folder, quick)

    def check():
        if newest.value != generation:
            raise Cancelled
        if os.getppid() != parent:
            os._exit(0)

    request = None
    try:
        while True:
            while request is None or conn.poll():
                if conn.poll(1.0):
                    request = conn.recv()
                elif os.getppid() != parent:
                    return
            generation, key, draft, _ = request
            try:
                measurer.run(generation, measurer.side(key, draft), check, conn.send)
            except Cancelled:
                newer = conn.recv() if conn.poll(1.0) else None
                if newer is not None:
                    conn.send(("cancelled", time.perf_counter() - newer[3]))
                request = newer
                continue
            except ZonesimError as exc:
                conn.send(("failed", generation, str(exc)))
            request = None
    except (EOFError, BrokenPipeError):  # the page's side has closed the pipe
        return
