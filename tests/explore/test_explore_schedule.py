"""The explorer's refinement schedule: fixed stage sizes, batches grown stage by
stage to exactly the comparison's batches, work cut short leaving nothing half
counted, and intervals that cover at every stage."""

import math

import numpy as np
import pytest

from sim.run.headline import BATCHES, FRACTIONS, Measured, Part, Reading, proportion, stage_sizes
from sim.compare.metrics import paired_interval
from sim.explore.groups import Cancelled, paired_difference
from sim.explore.schedule import stage_label, valuation_sizes


@pytest.mark.parametrize("n", [1, 5, 7, 250, 1000, 10_000, 50_000])
def test_stage_sizes_grow_to_the_full_batch(n):
    sizes = stage_sizes(n)
    assert len(sizes) == len(FRACTIONS)
    assert sizes[-1] == n
    assert all(1 <= a <= b for a, b in zip(sizes, sizes[1:]))
    assert sizes[0] == max(1, math.ceil(n * FRACTIONS[0]))


@pytest.mark.parametrize("trials,batches", [(1_000_000, 20), (20_000, 20), (1_234_567, 20), (50, 20)])
def test_valuation_sizes_are_whole_batches_up_to_the_full_count(trials, batches):
    sizes = valuation_sizes(trials, batches)
    assert sizes[-1] == max(2 * batches, trials - trials % batches)
    assert all(s % batches == 0 and s >= 2 * batches for s in sizes)
    assert list(sizes) == sorted(sizes)


def test_stage_labels_say_the_share_of_the_full_count():
    assert stage_label(0) == "stage 1 of 4 (1% of the full count)"
    assert stage_label(len(FRACTIONS) - 1).endswith("(100% of the full count)")


def trial_tally(first, count, check):
    """A tally that names its trials: their count and the sum of their indices."""
    check()
    return [count, sum(range(first, first + count))]


def test_a_part_grown_in_stages_holds_each_batchs_first_trials():
    n = 100
    part = Part(trial_tally, n)
    for size in stage_sizes(n):
        part.grow(size, lambda: None)
    for size in stage_sizes(n):
        expected = [[size, sum(range(k * n, k * n + size))] for k in range(BATCHES)]
        assert part.at[size].tolist() == expected
    assert (part.reached == n).all()


def test_work_cut_short_leaves_no_batch_half_counted():
    n, calls = 40, []

    def stopping(first, count, check):
        calls.append(first)
        if len(calls) == 7:
            raise Cancelled
        return trial_tally(first, count, check)

    part = Part(stopping, n)
    with pytest.raises(Cancelled):
        part.grow(n, lambda: None)
    assert part.reached.tolist() == [n] * 6 + [0] * (BATCHES - 6)
    assert n not in part.at
    part.grow(n, lambda: None)  # picks up where it stopped: the same tallies as one run
    whole = Part(trial_tally, n)
    whole.grow(n, lambda: None)
    assert part.at[n].tolist() == whole.at[n].tolist()


def test_check_runs_before_every_run():
    def refuse():
        raise Cancelled

    part = Part(trial_tally, 10)
    with pytest.raises(Cancelled):
        part.grow(10, refuse)
    assert part.tallies is None and (part.reached == 0).all()


def test_proportion_reads_batches_and_a_wilson_interval():
    r = proportion("p", np.array([3] * BATCHES), 10)
    assert r.measured.value == pytest.approx(0.3)
    assert r.trials == 10 * BATCHES
    assert r.ci[0] < 0.3 < r.ci[1]
    assert r.measured.batches.tolist() == [0.3] * BATCHES


@pytest.mark.parametrize("both,base_only,new_only,n", [
    (0.27, 0.03, 0.0, 400),      # an edit that moves outcomes one way
    (0.28, 0.02, 0.01, 400),     # both ways
    (0.0, 0.0002, 0.0, 5000),    # rarely: most batches differ by nothing
    (0.0, 0.001, 0.0005, 2000),
])
def test_paired_differences_cover_at_every_stage(both, base_only, new_only, n):
    """Each stage's 95% interval of a paired difference covers the true difference at
    least about 95% of the time, down to the first stage's small batches and to edits
    that change few trials. Trials are paired as on common dice (each falls in one of
    four cells: both sides succeed, only the baseline, only the draft, neither).
    2,000 replications (seed 7): the standard error of a coverage of 0.95 is 0.005,
    so the tolerance of 0.02 below 0.95 is four of them."""
    rng = np.random.default_rng(7)
    reps, sizes = 2000, stage_sizes(n)
    cells = [both, base_only, new_only, 1 - both - base_only - new_only]
    steps = np.diff((0, *sizes))
    counts = np.cumsum([rng.multinomial(m, cells, size=(reps, BATCHES)) for m in steps], axis=0)
    truth = new_only - base_only
    for s, m in enumerate(sizes):
        base = (counts[s][..., 0] + counts[s][..., 1]) / m
        new = (counts[s][..., 0] + counts[s][..., 2]) / m
        covered = 0
        for b, w in zip(base, new):
            _, lo, hi = paired_difference(Reading(Measured("x", "p", float(b.mean()), b), m * BATCHES, (0, 1)),
                                          Reading(Measured("x", "p", float(w.mean()), w), m * BATCHES, (0, 1)))
            covered += lo <= truth <= hi
        assert covered / reps > 0.95 - 0.02, (s, covered / reps)


def test_the_interval_of_a_probability_is_that_of_compare_when_many_trials_differ():
    rng = np.random.default_rng(3)
    base = 0.5 + rng.normal(0, 0.01, BATCHES)
    new = base - 0.2 + rng.normal(0, 0.01, BATCHES)
    b, w = (Reading(Measured("x", "p", float(x.mean()), x), 100_000 * BATCHES, (0, 1)) for x in (base, new))
    assert paired_difference(b, w) == paired_interval(b.measured, w.measured)
