"""The strongest fight strategy for a scenario: every built-in, and the
tactician family over a grid of its parameters, fight the same trials on the
same dice; the one with the highest survival wins (its 95% interval and the
runners-up are kept, so a designer sees whether the win is real)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import polars as pl

import strategies
from sim.analysis.stats import wilson
from sim.content.load import Content
from sim.content.loadout import Loadout
from sim.run.value import fight_measure

TACTICIAN_GRID = {"flee_ratio": (0.5, 0.75, 1.0, 1.5, 2.0, 3.0), "danger_rounds": (1.0, 2.0, 3.0, 4.0)}


def candidates():
    """The built-in fight strategies, then the tactician at every grid point."""
    out = list(strategies.BUILT_IN.values())
    tactician = strategies.BUILT_IN["tactician"]
    names = tuple(TACTICIAN_GRID)
    for point in itertools.product(*TACTICIAN_GRID.values()):
        label = ",".join(f"{n}={v:g}" for n, v in zip(names, point))
        out.append(replace(tactician, name=f"tactician({label})", params=np.array(point, np.float64)))
    return out


def strongest_strategy(content: Content, base: Loadout, monsters, *, trials, seed):
    """``(strategy, table)``: the candidate with the highest survival of ``base``
    against ``monsters`` on common dice, and every candidate's survival with its
    Wilson interval, best first."""
    rows, best = [], None
    for strategy in candidates():
        alive = int(fight_measure(content, monsters, strategy)(base)(trials, seed, 0).sum())
        lo, hi = wilson(alive, trials)
        rows.append({"strategy": strategy.name, "p_survive": alive / trials, "ci_low": lo, "ci_high": hi})
        if best is None or alive > best[0]:
            best = (alive, strategy)
    table = pl.DataFrame(rows).sort("p_survive", descending=True, maintain_order=True)
    return best[1], table
