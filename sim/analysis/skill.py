"""Exact chance to pass a skill test (K-01..K-03)."""

from functools import lru_cache


def skill_pass_probability(bonus: int, target: int, extra_one_fails: bool = False) -> float:
    """P(pass) for 1 d6 + ``bonus`` >= ``target``: a first-die 1 fails (K-02); each 6
    adds another die, chaining (K-03); an extra die's 1 fails only if ``extra_one_fails``."""
    p = sum(1 / 6 for d in range(2, 6) if d + bonus >= target)
    return p + _chain(target - 6 - bonus, extra_one_fails) / 6


@lru_cache(maxsize=None)
def _chain(need: int, extra_one_fails: bool) -> float:
    """P(the dice after a 6 add up to >= ``need`` without a failing 1)."""
    if need <= 1:  # every extra roll reaches the need: only a failing 1 can spoil it
        return 0.8 if extra_one_fails else 1.0  # solves g = 4/6 + g/6 (or 5/6 + g/6)
    return sum(1 / 6 for e in range(1, 6) if e >= need and not (extra_one_fails and e == 1)) \
        + _chain(need - 6, extra_one_fails) / 6
