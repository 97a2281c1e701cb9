"""The counter-based streams and dice (DESIGN "Randomness", issue: dice engine)."""

import numpy as np
import pytest

from sim.kernels.rng import DICE_PER_WORD, STATE_SIZE, mix, next_word, sample_dice, start_stream, trial_base
from sim.reference import fight as ref

MASK = 2**64 - 1


@pytest.mark.parametrize("z", [0, 1, 2**63 - 1, 2**63, MASK, 0x9E3779B97F4A7C15])
def test_mix_stays_unsigned_64_bit(z):
    """numba must not promote the uint64 arithmetic to float or int64."""
    assert int(mix(np.uint64(z))) == ref.mix(z)


@pytest.mark.parametrize("seed,trial,purpose", [(0, 0, 0), (7, 3, 1), (2**62 + 11, 10**12, 2), (123, 2**40, 5)])
def test_streams_match_the_plain_python_reading(seed, trial, purpose):
    """Same keys, words and dice as the independent reference implementation."""
    n = 3 * DICE_PER_WORD + 5
    kernel = sample_dice(seed, trial, purpose, n, 6)
    stream = ref.Stream(seed, trial, purpose)
    assert kernel.tolist() == [stream.die(6) for _ in range(n)]
    d10 = sample_dice(seed, trial, purpose, n, 10)
    stream = ref.Stream(seed, trial, purpose)
    assert d10.tolist() == [stream.die(10) for _ in range(n)]


def test_first_words_are_splitmix64():
    """Key 0 gives the published splitmix64 sequence for seed 0."""
    from numba import njit

    @njit
    def words():
        rng = np.zeros(STATE_SIZE, np.uint64)
        out = np.empty(3, np.uint64)
        for i in range(3):
            out[i] = next_word(rng, 0)
        return out

    assert [int(w) for w in words()] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@pytest.mark.parametrize("sides", [6, 10])
def test_dice_are_uniform(sides):
    """2,000,000 dice: every face within 4 standard errors of 1/sides (power: a
    bias of 0.2 percentage points is 5 standard errors)."""
    n = 2_000_000
    counts = np.bincount(sample_dice(2024, 5, 0, n, sides), minlength=sides + 1)
    assert counts[0] == 0 and counts.sum() == n
    p = 1 / sides
    tol = 4 * np.sqrt(p * (1 - p) / n) * n
    assert np.all(np.abs(counts[1:] - n * p) < tol), counts


def test_consecutive_dice_are_independent():
    """Pairs of consecutive d6 (also across word boundaries) are uniform over 36 cells."""
    n = 1_200_000
    x = sample_dice(99, 0, 0, 2 * n, 6)
    pairs = np.bincount((x[0::2] - 1) * 6 + (x[1::2] - 1), minlength=36)
    p = 1 / 36
    assert np.all(np.abs(pairs - n * p) < 4 * np.sqrt(n * p * (1 - p)))


def test_purposes_and_trials_give_different_streams():
    a = sample_dice(1, 0, 0, 64, 6)
    assert not np.array_equal(a, sample_dice(1, 0, 1, 64, 6))
    assert not np.array_equal(a, sample_dice(1, 1, 0, 64, 6))
    assert not np.array_equal(a, sample_dice(2, 0, 0, 64, 6))
    assert np.array_equal(a, sample_dice(1, 0, 0, 64, 6))


def test_key_formula():
    """key = mix(mix(mix(seed) + (trial+1)G) + (purpose+1)G), as documented."""
    from numba import njit

    @njit
    def key(seed, trial, purpose):
        rng = np.zeros(STATE_SIZE, np.uint64)
        start_stream(rng, 0, trial_base(mix(np.uint64(seed)), trial), purpose)
        return rng[0]

    g = 0x9E3779B97F4A7C15
    for seed, trial, purpose in [(5, 0, 0), (2**63 - 1, 77, 3)]:
        expected = ref.mix((ref.mix((ref.mix(seed) + (trial + 1) * g) & MASK) + (purpose + 1) * g) & MASK)
        assert int(key(seed, trial, purpose)) == expected


def test_die_bias_bound_is_documented():
    """8 d6 per 64-bit word: a tuple's relative bias is at most 6**8 / 2**64 < 1e-13."""
    assert 6**DICE_PER_WORD / 2**64 < 1e-13
    assert 10**DICE_PER_WORD / 2**64 < 6e-12


def test_high_product_is_the_exact_high_word():
    """``_high_product(w, n)`` is ``(w * n) >> 64`` for any two 64-bit words."""
    from numba import njit

    from sim.kernels.rng import _high_product

    @njit
    def highs(words, counts):
        out = np.empty(words.size, np.uint64)
        for i in range(words.size):
            out[i] = _high_product(words[i], counts[i])
        return out

    gen = np.random.default_rng(5)
    edges = np.array([0, 1, MASK, 2**63], np.uint64)
    words = np.concatenate([edges, gen.integers(0, MASK, 2000, dtype=np.uint64, endpoint=True)])
    counts = np.concatenate([edges[::-1], gen.integers(0, MASK, 2000, dtype=np.uint64, endpoint=True)])
    counts[4:1004] %= np.uint64(1297)  # dice-sized counts too
    expected = [(int(w) * int(n)) >> 64 for w, n in zip(words, counts)]
    assert [int(h) for h in highs(words, counts)] == expected


@pytest.mark.parametrize("sides", [6, 10, 4])
def test_roll_is_the_sum_of_the_same_dice(sides):
    """``roll`` (one product for up to four d6 left in a word) draws the same dice
    as ``n`` calls of ``die``: same sum, same stream state after, at every
    position in a word and across word boundaries."""
    from numba import njit

    from sim.kernels.rng import die, roll

    @njit
    def both(seed, skip, n, sides):
        a = np.zeros(STATE_SIZE, np.uint64)
        start_stream(a, 0, trial_base(mix(np.uint64(seed)), 0), 0)
        for _ in range(skip):
            die(a, 0, 6)
        b = a.copy()
        single = 0
        for _ in range(n):
            single += die(a, 0, sides)
        return single, a, roll(b, 0, n, sides), b

    for seed in range(3):
        for skip in range(2 * DICE_PER_WORD + 1):
            for n in range(0, 11):
                single, a, rolled, b = both(seed, skip, n, sides)
                assert rolled == single and np.array_equal(a, b), (seed, skip, n)


def test_z15_the_tabled_d6_sums_are_the_counted_ones():
    """Every entry of the import-time table of d6 sums equals the ways
    ``ways_to_roll`` counts (the sums of more dice than it holds)."""
    from sim.kernels.dice import D6_WAYS, TABLED_DICE, ways_to_roll

    counted = [[ways_to_roll.py_func(s, n, 6) for s in range(6 * TABLED_DICE + 1)] for n in range(TABLED_DICE + 1)]
    assert D6_WAYS.tolist() == counted
    assert D6_WAYS.sum(axis=1).tolist() == [6 ** n for n in range(TABLED_DICE + 1)]


@pytest.mark.parametrize("n,bonus,defence", [(0, 3, 1), (1, 0, 0), (2, 1, 4), (3, 0, 9), (4, 2, 20), (4, 0, 30),
                                             (13, 1, 40)])
def test_z15_z23_expected_damage_is_the_mean_over_every_roll(n, bonus, defence):
    """A hit's mean damage, E[max(0, NdS6 + bonus - defence)], from the tabled
    sums (up to ``TABLED_DICE`` dice) or counted (more), equals the mean over
    every roll of the dice (by the distribution of the sum for 13 dice)."""
    from itertools import product

    from sim.kernels.dice import TABLED_DICE, expected_damage

    if n <= 4:
        rolls = [sum(r) for r in product(range(1, 7), repeat=n)]
        exact = sum(max(0, s + bonus - defence) for s in rolls) / len(rolls)
    else:
        assert n > TABLED_DICE
        pmf = np.zeros(6 * n + 1)
        pmf[0] = 1.0
        for _ in range(n):
            pmf = np.convolve(pmf, np.r_[0, np.full(6, 1 / 6)])[:6 * n + 1]
        exact = sum(p * max(0, s + bonus - defence) for s, p in enumerate(pmf))
    assert expected_damage(n, bonus, defence) == pytest.approx(exact, rel=1e-12, abs=1e-15)
