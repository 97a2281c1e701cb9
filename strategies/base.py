"""What a strategy is: a named bundle of ``@decision`` functions and a parameter vector.

Each decision is compiled once with the fixed signature
``sim.kernels.fight.DECISION`` (``(view: int64[::1], params: float64[::1]) -> int64``)
and handed to the kernels as a first-class function of that type, so the
kernels compile once, whatever the strategy, and stay in numba's disk cache.
"""

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from sim.kernels.fight import ASK_ESCAPE, ASK_HEAL_IN_COMBAT, DECISION


def decision(fn=None, *, never_tries=False, out_of_combat_only=False):
    """Compile ``fn(view, params) -> int`` as a fight decision (cached on disk).

    ``never_tries=True`` marks an ``escape`` that always answers 0, and
    ``out_of_combat_only=True`` a ``heal`` that answers ``NONE`` in combat: the
    kernels then skip asking them (same results, less work)."""
    def compile_(f):
        d = njit(DECISION, cache=True)(f)
        d.never_tries, d.out_of_combat_only = never_tries, out_of_combat_only
        return d

    return compile_ if fn is None else compile_(fn)


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
    def asks(self) -> int:
        """The ``asks`` bits of the fight kernel: a decision marked by ``never_tries``
        or ``out_of_combat_only`` is not asked where it cannot act."""
        escape = not getattr(self.escape, "never_tries", False)
        heal_in_combat = not getattr(self.heal, "out_of_combat_only", False)
        return (ASK_ESCAPE if escape else 0) | (ASK_HEAL_IN_COMBAT if heal_in_combat else 0)

    def decisions(self):
        """The five decisions in the kernels' argument order."""
        return self.escape, self.target, self.weapon, self.heal, self.rescue

    def param_vector(self):
        """``params`` as a contiguous float64 array (never empty)."""
        p = np.ascontiguousarray(self.params, dtype=np.float64)
        return p if p.size else np.zeros(1)
