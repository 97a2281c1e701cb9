"""What a strategy is: a named bundle of ``@decision`` functions and a parameter vector.

Each decision is compiled once with the fixed signature
``sim.kernels.fight.DECISION`` (``(view: int64[::1], params: float64[::1]) -> int64``)
and handed to the kernels as a first-class function of that type, so the
kernels compile once, whatever the strategy, and stay in numba's disk cache.
"""

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from sim.kernels.fight import DECISION


def decision(fn):
    """Compile ``fn(view, params) -> int`` as a fight decision (cached on disk)."""
    return njit(DECISION, cache=True)(fn)


@dataclass(frozen=True)
class Strategy:
    """A fight strategy. ``params`` tunes the decisions; ``param_names`` documents it."""

    name: str
    description: str
    escape: object
    target: object
    weapon: object
    heal: object
    rescue: object
    params: np.ndarray = field(default_factory=lambda: np.zeros(1))
    param_names: tuple = ()
    heals_in_combat: bool = True
    """False if ``heal`` never uses an item in combat: the kernels then skip asking."""

    def decisions(self):
        """The five decisions in the kernels' argument order."""
        return self.escape, self.target, self.weapon, self.heal, self.rescue

    def param_vector(self):
        """``params`` as a contiguous float64 array (never empty)."""
        p = np.ascontiguousarray(self.params, dtype=np.float64)
        return p if p.size else np.zeros(1)
