"""The interval estimates of ``sim.analysis.stats``: Student t quantiles against tabled values, and
the batch t interval's coverage on batches whose true mean is known."""

import math

import numpy as np
import pytest

from sim.analysis.stats import batch_half_width, t975, wilson


@pytest.mark.parametrize("dof, tabled, tolerance", [(5, 2.570582, 3e-3), (19, 2.093024, 3e-5), (99, 1.984217, 3e-5)])
def test_t975_matches_the_tabled_quantiles(dof, tabled, tolerance):
    assert abs(t975(dof) - tabled) < tolerance


def test_the_batch_interval_covers_the_true_mean_95_percent_of_the_time():
    """4,000 sets of 20 normal batches (mean 0.3): coverage within 4 standard errors of 0.95
    (0.0034 each); a 1.96 normal interval in its place would cover about 0.935 and fail."""
    rng = np.random.default_rng(7)
    sets = rng.normal(0.3, 0.05, size=(4_000, 20))
    covered = [abs(b.mean() - 0.3) <= batch_half_width(b) for b in sets]
    assert abs(np.mean(covered) - 0.95) < 4 * math.sqrt(0.95 * 0.05 / 4_000)


def test_undefined_batches_are_left_out_and_fewer_than_two_give_nan():
    assert batch_half_width([0.2, np.nan, 0.4, np.inf]) == pytest.approx(t975(1) * np.std([0.2, 0.4], ddof=1)
                                                                         / math.sqrt(2))
    assert math.isnan(batch_half_width([0.2, np.nan])) and math.isnan(batch_half_width([]))


def test_wilson_keeps_exact_ends():
    assert wilson(0, 50)[0] == 0.0 and wilson(50, 50)[1] == 1.0 and wilson(0, 0) == (0.0, 1.0)
