"""Counter-based random streams and unbiased-to-1e-13 dice (DESIGN "Randomness").

Every trial draws from its own streams keyed by ``(seed, trial, purpose)``, so
results never depend on thread count, chunk size or resume point, and paired
comparisons (common random numbers) come for free.

- ``mix`` is the splitmix64 finaliser; a stream's n-th 64-bit word is
  ``mix(key + n * GOLDEN)`` (the splitmix64 sequence seeded with ``key``).
- ``key = mix(mix(mix(seed) + (trial + 1) * GOLDEN) + (purpose + 1) * GOLDEN)``.
- A die with ``s`` sides is the next base-``s`` digit of ``word / 2**64``; a word
  gives ``DICE_PER_WORD`` dice. Any tuple of the dice cut from one word has
  probability within ``s**8 / 2**64`` (relative) of the fair value: below
  1e-13 for d6, below 6e-12 for d10.

A stream's state is four ``uint64`` slots of an array ``rng``
(``[key, counter, word, dice_left]``) at offset ``STATE_SIZE * stream``. All
arithmetic stays in ``uint64``: numba turns ``uint64 op int64`` into a float or
a signed integer, so every constant below is a ``np.uint64``.
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_U0 = np.uint64(0)
_U1 = np.uint64(1)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)

DICE_PER_WORD = 8
STATE_SIZE = 4


@njit(inline="always", cache=True)
def mix(z):
    """splitmix64 finaliser of a ``uint64``."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def trial_base(seed_mixed, trial):
    """Per-trial key base: ``mix(mix(seed) + (trial + 1) * GOLDEN)``."""
    return mix(seed_mixed + (np.uint64(trial) + _U1) * GOLDEN)


@njit(inline="always", cache=True)
def stream_key(base, purpose):
    """The key of ``purpose``'s stream in the trial ``base``."""
    return mix(base + (np.uint64(purpose) + _U1) * GOLDEN)


@njit(inline="always", cache=True)
def first_word(key):
    """The first word of the stream ``key``."""
    return mix(key + GOLDEN)


@njit(inline="always", cache=True)
def set_stream_at_first_word(rng, stream, key, word):
    """The state ``start_stream`` reaches on drawing its first word, from the
    stream's ``key`` and that word (``first_word(key)``) worked out earlier."""
    o = STATE_SIZE * stream
    rng[o] = key
    rng[o + 1] = _U1
    rng[o + 2] = word
    rng[o + 3] = np.uint64(DICE_PER_WORD)


@njit(inline="always", cache=True)
def start_stream(rng, stream, base, purpose):
    """Key stream number ``stream`` of ``rng`` to ``purpose`` of the trial ``base``."""
    o = STATE_SIZE * stream
    rng[o] = stream_key(base, purpose)
    rng[o + 1] = _U0
    rng[o + 3] = _U0


@njit(inline="always", cache=True)
def next_word(rng, stream):
    """The stream's next 64-bit word."""
    o = STATE_SIZE * stream
    rng[o + 1] += _U1
    return mix(rng[o] + rng[o + 1] * GOLDEN)


@intrinsic
def _mulhi(typingctx, a, b):
    """The high 64 bits of the 128-bit product of two ``uint64`` (one ``mul``)."""
    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))

    return types.uint64(types.uint64, types.uint64), codegen


@njit(inline="always", cache=True)
def _high_product(w, n):
    """``(w * n) >> 64`` for a ``uint64`` word and a count ``n``."""
    return _mulhi(w, np.uint64(n))


@njit(inline="always", cache=True)
def pick(rng, stream, total):
    """A uniform index ``0 .. total - 1`` from the stream's next word (not its
    dice buffer); bias below ``total / 2**64``."""
    return np.int64(_high_product(next_word(rng, stream), total))


@njit(inline="always", cache=True)
def die(rng, stream, sides):
    """One die with ``sides`` faces, 1..sides, from ``stream``."""
    o = STATE_SIZE * stream
    if rng[o + 3] == _U0:
        rng[o + 2] = next_word(rng, stream)
        rng[o + 3] = np.uint64(DICE_PER_WORD)
    w = rng[o + 2]
    high = _high_product(w, sides)
    rng[o + 2] = w * np.uint64(sides)
    rng[o + 3] -= _U1
    return np.int64(high) + 1


def _digit_sums(sides, most):
    """Row-major table: entry ``k * sides**most + v`` is the sum of the ``k`` dice
    whose faces minus one are the base-``sides`` digits of ``v``."""
    table = np.zeros((most + 1) * sides ** most, np.int64)
    for k in range(1, most + 1):
        for v in range(sides ** k):
            digits = [(v // sides ** i) % sides for i in range(k)]
            table[k * sides ** most + v] = sum(digits) + k
    return table


_D6_AT_ONCE = 4
_D6_SCALE = np.array([6 ** k for k in range(_D6_AT_ONCE + 1)], np.uint64)
_D6_SUMS = _digit_sums(6, _D6_AT_ONCE)


@njit(inline="always", cache=True)
def roll(rng, stream, n, sides):
    """Sum of ``n`` dice with ``sides`` faces (NdS).

    Up to four d6 that the current word still holds come from one product:
    ``(word * 6**n) >> 64`` has the next ``n`` base-6 digits, summed by table.
    These are the same dice, in the same order, as ``n`` calls of ``die``."""
    o = STATE_SIZE * stream
    if sides == 6 and n <= _D6_AT_ONCE and np.uint64(n) <= rng[o + 3]:
        w = rng[o + 2]
        scale = _D6_SCALE[np.uint64(n)]  # unsigned indices: no wraparound checks
        rng[o + 2] = w * scale
        rng[o + 3] -= np.uint64(n)
        return _D6_SUMS[np.uint64(n * 6 ** _D6_AT_ONCE) + _high_product(w, scale)]
    total = 0
    for _ in range(n):
        total += die(rng, stream, sides)
    return total


@njit(cache=True)
def sample_dice(seed, trial, purpose, n, sides):
    """``n`` dice of one stream as an array (for tests and the RNG benchmark)."""
    rng = np.zeros(STATE_SIZE, np.uint64)
    start_stream(rng, 0, trial_base(mix(np.uint64(seed)), trial), purpose)
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = die(rng, 0, sides)
    return out
