"""Dice arithmetic and the skill test (Z-15, K-01..K-03)."""

import numpy as np
from numba import njit, prange

from sim.kernels.rng import STATE_SIZE, die, mix, start_stream, trial_base


@njit(cache=True)
def _comb(n, k):
    """Binomial coefficient for small non-negative integers (0 outside the range)."""
    if k < 0 or k > n or n < 0:
        return 0
    r = 1
    for i in range(1, k + 1):
        r = r * (n - k + i) // i
    return r


@njit(cache=True)
def ways_to_roll(total, n, sides):
    """Number of ordered outcomes of ``n`` dice with ``sides`` faces summing to ``total``."""
    if n == 0:
        return 1 if total == 0 else 0
    ways = 0
    for k in range(n + 1):
        rest = total - sides * k - 1
        term = _comb(n, k) * _comb(rest, n - 1) if rest >= n - 1 else 0
        ways += term if k % 2 == 0 else -term
    return ways


def _d6_ways(max_dice):
    """``[n, s]``: the ways ``n`` d6 sum to ``s``, for 0 .. ``max_dice`` dice (exact, by
    adding one die at a time; plain numpy, so importing compiles nothing)."""
    table = np.zeros((max_dice + 1, 6 * max_dice + 1), np.int64)
    table[0, 0] = 1
    for n in range(1, max_dice + 1):
        for face in range(1, 7):
            table[n, face:] += table[n - 1, :table.shape[1] - face]
    return table


TABLED_DICE = 12
"""Sums of up to this many d6 are counted once, at import (``D6_WAYS``)."""
D6_WAYS = _d6_ways(TABLED_DICE)


@njit(cache=True)
def expected_damage(n, bonus, defence):
    """E[max(0, NdS6 + bonus - defence)]: a hit's mean damage (Z-15, Z-23), over
    the sums that deal damage (the strategies ask it every decision)."""
    outcomes = 6.0 ** n
    mean = 0.0
    for s in range(max(n, defence - bonus + 1), 6 * n + 1):
        ways = D6_WAYS[n, s] if n <= TABLED_DICE else ways_to_roll(s, n, 6)
        mean += (s + bonus - defence) * ways / outcomes
    return mean


@njit(cache=True)
def skill_test(rng, stream, attribute, modifiers, target, extra_one_fails):
    """K-01..K-03: 1 d6 + attribute + modifiers >= target passes; a 1 on the
    first die fails whatever the score; each 6 rolls one more die and adds it
    (chaining); an extra die's 1 fails only if ``extra_one_fails`` ([A]).
    Returns ``(passed, score)``."""
    first = die(rng, stream, 6)
    score = first + attribute + modifiers
    failed = first == 1
    last = first
    while last == 6:
        last = die(rng, stream, 6)
        score += last
        if last == 1 and extra_one_fails:
            failed = True
    return (not failed) and score >= target, score


@njit(parallel=True, cache=True)
def count_skill_passes(seed, n_trials, attribute, modifiers, target, extra_one_fails):
    """How many of ``n_trials`` skill tests pass; trial ``i`` uses stream ``(seed, i, 0)``."""
    n_blocks = (n_trials + 4095) // 4096
    passes = np.zeros(n_blocks, np.int64)
    seed_mixed = mix(np.uint64(seed))
    for b in prange(n_blocks):
        rng = np.zeros(STATE_SIZE, np.uint64)
        for trial in range(b * 4096, min(n_trials, b * 4096 + 4096)):
            start_stream(rng, 0, trial_base(seed_mixed, trial), 0)
            passed, _ = skill_test(rng, 0, attribute, modifiers, target, extra_one_fails)
            if passed:
                passes[b] += 1
    return passes.sum()
