"""The fight strategies a search for the strongest tries (``--strategy
strongest``): every built-in, and the tactician family over a grid of its
parameters. The economy picks the one that does best on its selection dice."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np

import strategies

TACTICIAN_GRID = {"flee_ratio": (0.5, 0.75, 1.0, 1.5, 2.0, 3.0), "danger_rounds": (1.0, 2.0, 3.0, 4.0)}


def candidates():
    """The built-in fight strategies, then the tactician at every grid point."""
    out = list(strategies.built_in("fight").values())
    tactician = strategies.get("tactician")
    names = tuple(TACTICIAN_GRID)
    for point in itertools.product(*TACTICIAN_GRID.values()):
        label = ",".join(f"{n}={v:g}" for n, v in zip(names, point))
        out.append(replace(tactician, name=f"tactician({label})", params=np.array(point, np.float64)))
    return out
