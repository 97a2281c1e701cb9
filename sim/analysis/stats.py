"""Interval estimates (DESIGN "Statistics")."""

import math

import numpy as np

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends, not rounding noise
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def mean_interval(total: float, total_sq: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Normal interval for a mean from its sum and sum of squares."""
    if n <= 1:
        return (math.nan, math.nan)
    mean = total / n
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    half = z * math.sqrt(var / n)
    return (mean - half, mean + half)


def t975(dof: int) -> float:
    """The 0.975 quantile of Student's t with ``dof`` degrees of freedom
    (Cornish-Fisher expansion around the normal: within 3e-3 for dof >= 5, 3e-5 for dof >= 19)."""
    z, v = Z95, float(dof)
    return (z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v * v)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * v ** 3))


def batch_half_width(values) -> float:
    """Half the width of the 95% Student t interval of the mean of per-batch values (the finite
    ones: a batch where the number is undefined is left out); nan with fewer than two."""
    finite = np.asarray(values, np.float64)
    finite = finite[np.isfinite(finite)]
    if finite.size < 2:
        return math.nan
    return t975(finite.size - 1) * float(finite.std(ddof=1)) / math.sqrt(finite.size)


def paired_batch_interval(new_rates, old_rates) -> tuple[float, float, float]:
    """Mean of the per-batch differences ``new - old`` with its 95% Student t
    interval (batch means): ``(mean, low, high)``."""
    diff = [a - b for a, b in zip(new_rates, old_rates)]
    n = len(diff)
    mean = sum(diff) / n
    if n < 2:
        return mean, math.nan, math.nan
    se = math.sqrt(sum((d - mean) ** 2 for d in diff) / (n - 1) / n)
    half = t975(n - 1) * se
    return mean, mean - half, mean + half
