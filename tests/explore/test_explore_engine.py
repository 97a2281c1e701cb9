"""The explorer's measuring: the last stage is ``zonesim compare``'s own numbers,
only the newest request ever runs, and a newer edit cuts the work in hand short."""

import multiprocessing
import threading

import numpy as np

from sim.compare.metrics import group_metrics
from sim.content import DEFAULT_DIR, load_content
from sim.explore import Explorer
from sim.explore.engine import edits_key
from sim.explore.measure import Measurer, measuring
from sim.explore.fields import write_draft
from sim.explore.schedule import FRACTIONS

LAST = len(FRACTIONS) - 1
BLOODSUCKER = ("monsters.toml", "bloodsucker.hp")


def no_newer():
    """The check of a run nobody interrupts."""


def test_the_last_stage_is_the_comparisons_own_numbers(tmp_path):
    """Grown stage by stage in the explorer's fine chunks, each batch ends with the very
    trials and sums of one run straight to the full count in whole batches
    (``sim.compare.metrics``, quick counts of report.toml), on an edit."""
    draft = write_draft(DEFAULT_DIR, tmp_path / "draft", {BLOODSUCKER: 26})
    measurer = Measurer(DEFAULT_DIR, quick=True)
    side = measurer.side(edits_key({BLOODSUCKER: 26}), draft)
    names = ("fights", "journeys", "skirmish", "stalkeriada")
    for stage in range(len(FRACTIONS)):
        for name in names:
            measurer.group(side, name, no_newer).advance(stage, no_newer)
    ours = {r.measured.name: r.measured for name in names for r in side.groups[name].read(LAST)}
    theirs = [m for name in names for m in group_metrics(load_content(draft), measurer.plan, name)]
    assert sorted(ours) == sorted(m.name for m in theirs)
    for m in theirs:
        assert ours[m.name].value == m.value or (np.isnan(m.value) and np.isnan(ours[m.name].value))
        assert np.array_equal(ours[m.name].batches, m.batches, equal_nan=True), m.name


def test_only_the_newest_request_runs(tmp_path):
    """Three requests wait when the measuring starts: it runs the third alone."""
    edits = [{BLOODSUCKER: hp} for hp in (22, 24, 26)]
    parent, child = multiprocessing.Pipe()
    for generation, e in enumerate(edits, start=1):
        parent.send((generation, edits_key(e), str(write_draft(DEFAULT_DIR, tmp_path / str(generation), e)), 0.0))
    newest = multiprocessing.RawValue("q", 3)
    worker = threading.Thread(target=measuring, args=(child, newest, str(DEFAULT_DIR), True, None), daemon=True)
    worker.start()
    messages = []
    while not messages or messages[-1][0] != "done":
        messages.append(parent.recv())
    parent.close()
    worker.join(10)
    assert messages[-1] == ("done", 3)
    assert {m[1].generation for m in messages if m[0] == "view"} == {3}
    stages = [(m[1].name, m[1].stage) for m in messages if m[0] == "view"]
    assert len(stages) == len(set(stages)) == 5 * len(FRACTIONS)
    assert not worker.is_alive()


def test_a_newer_edit_cuts_the_older_ones_work_short():
    """An edit made while the one before is measured stops that work within half a
    second (at its next chunk) and only the newer edit's numbers are shown."""
    ex = Explorer(quick=True)
    try:
        ex.start()
        ex.wait(stage=0, timeout=300)
        ex.set(*BLOODSUCKER, "30")
        first = ex.generation
        ex.wait_until(lambda snap: ex.reached(snap, 0, ["fights"]), timeout=120)
        ex.set(*BLOODSUCKER, "25")
        snap = ex.wait(stage=0, timeout=120)
        assert ex.cancel_latencies and ex.cancel_latencies[-1] < 0.5, ex.cancel_latencies
        assert {v.generation for v in snap.groups.values()} == {first + 1}
        row = next(r for r in snap.groups["fights"].rows if r.name == "fight_survival.bloodsucker.standard")
        assert row.diff < 0 and row.clear and row.diff_ci[1] < 0
    finally:
        ex.close()


def test_intervals_narrow_stage_by_stage():
    """The interval of a headline number is narrower at each later stage (a fixed schedule)."""
    measurer = Measurer(DEFAULT_DIR, quick=True)
    journeys = measurer.group(measurer.base, "journeys", no_newer)
    widths = []
    for stage in range(len(FRACTIONS)):
        journeys.advance(stage, no_newer)
        lo, hi = journeys.read(stage)[0].ci
        widths.append(hi - lo)
        assert journeys.trials(stage) == journeys.sizes[stage] * 20
    assert all(a > b for a, b in zip(widths, widths[1:])), widths
