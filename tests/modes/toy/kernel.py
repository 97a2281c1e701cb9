"""The toy mode's kernel: games of push-your-luck dice (``toy.toml``), each drawing
its dice from its own stream keyed by (seed, game), so any chunking gives the same sums."""

import numpy as np
from numba import njit

from sim.kernels.rng import STATE_SIZE, die, mix, start_stream, trial_base

WINS, BANKED, ROLLS = range(3)
TALLY_SIZE = 3


@njit(cache=True)
def play_games(seed, first, n, sides, bust_face, turns, goal, stop_at, tally):
    """Add games ``first .. first + n - 1`` to ``tally`` (wins, points banked, dice rolled)."""
    rng = np.zeros(STATE_SIZE, np.uint64)
    seed_mixed = mix(np.uint64(seed))
    for game in range(first, first + n):
        start_stream(rng, 0, trial_base(seed_mixed, game), 0)
        banked = 0
        for _ in range(turns):
            pot = 0
            while pot < stop_at:
                face = die(rng, 0, sides)
                tally[ROLLS] += 1
                if face == bust_face:
                    pot = 0
                    break
                pot += face
            banked += pot
        tally[BANKED] += banked
        tally[WINS] += banked >= goal
