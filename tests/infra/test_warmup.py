"""Kernel entry points compile at their first call, and a child process compiles a
long run's later kernels ahead (``sim.run.warmup``): what the first run on an
empty cache costs (issue #17)."""

import subprocess
import sys
from pathlib import Path

from sim.run import warmup as W
from tests.conftest import empty_cache_env


def test_importing_the_kernel_modules_compiles_nothing(tmp_path):
    """Every kernel module imports into an empty cache without compiling: a run
    compiles only the entry points it calls."""
    code = "import sim.kernels.fight, sim.kernels.journey, sim.kernels.skirmish, sim.kernels.stalkeriada"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=empty_cache_env(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert [p for p in Path(tmp_path).rglob("*") if p.is_file()] == []


def test_the_groups_are_the_modes_with_kernels_of_their_own():
    from sim.kernels import EntryPoint
    from sim.modes import MODES

    assert W.GROUPS == ("fight", "journey", "skirmish", "stalkeriada")  # the duel runs the fight's kernel
    for group in W.GROUPS:
        assert MODES[group].kernels and all(isinstance(e, EntryPoint) for e in MODES[group].entry_points()), group


def test_a_child_compiles_its_group_marks_it_warm_and_a_warm_group_starts_no_child():
    mark = W._mark("fight")
    mark.unlink(missing_ok=True)
    with W.Warmup(["fight"]) as warmup:
        assert warmup.groups == ["fight"] and warmup.child is not None
        warmup.wait("fight")
        warmup.wait("journey")  # a group it was not given: no wait
        assert warmup.child.wait(60) == 0
    assert mark.exists()
    again = W.Warmup(["fight"])
    assert again.groups == [] and again.child is None


def test_stopping_kills_the_child_and_releases_every_wait():
    W._mark("stalkeriada").unlink(missing_ok=True)
    warmup = W.Warmup(["stalkeriada"])
    warmup.stop()
    assert warmup.child.returncode is not None and warmup.child.returncode != 0
    warmup.wait("stalkeriada")  # returns: the child ended
    assert warmup not in W._running


def test_compiling_every_group_twice_compiles_nothing_the_second_time():
    """The test session's first step (``tests/conftest.py``): afterwards every group is marked warm."""
    W.compile_every_group()
    assert W.compile_every_group() == []
    assert all(W._mark(group).exists() for group in W.GROUPS)
