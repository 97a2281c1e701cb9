"""Compiling the kernels a long run needs later in a child process, while it runs.

Kernel entry points compile at their first call (``sim.kernels.EntryPoint``) and
numba compiles on one core. On a cold cache the report therefore hands the
kernels of its later steps to a child process (``python -m sim.run.warmup
GROUP ...``) that compiles them into the shared on-disk cache, group by group,
at the lowest CPU priority (it takes the cores the run leaves idle, so the
run's parallel kernels never wait on it), printing each group's name when it
is done. The report waits for a group only before the step that uses it, then
loads it from the cache. A finished group leaves a mark in the cache folder,
so a warm cache starts no child.
"""

import ctypes
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import strategies
from sim.modes import MODES

GROUPS = tuple(name for n, (name, mode) in enumerate(MODES.items())
               if mode.kernels not in [m.kernels for m in list(MODES.values())[:n]])
"""One group per mode of ``sim.modes.MODES`` with kernels of its own (the duel shares the fight's): its
built-in strategies (they compile on import) and its kernel entry points (``Mode.kernels``)."""

_running = set()


def _mark(group: str) -> Path:
    return Path(os.environ["NUMBA_CACHE_DIR"]) / f"warm-{group}"


def compile_group(group: str):
    """Import and compile everything of ``group`` (loads what is cached), then mark it warm."""
    mode = MODES[group]
    strategies.built_in(group)
    for entry in mode.entry_points():
        entry.compile()
    _mark(group).parent.mkdir(parents=True, exist_ok=True)
    _mark(group).touch()


class Warmup:
    """A child process compiling ``groups`` in order; ``wait(group)`` blocks until it
    has (at once for a group it was not given, or when the child has failed: the
    caller then compiles the group itself)."""

    def __init__(self, groups):
        self.groups = [g for g in groups if not _mark(g).exists()]
        self._done = {g: threading.Event() for g in self.groups}
        self.child = None
        if not self.groups:
            return
        self.child = subprocess.Popen([sys.executable, "-m", "sim.run.warmup", *self.groups],
                                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                      text=True, env=os.environ.copy())
        _running.add(self)
        threading.Thread(target=self._listen, name="zonesim-warmup", daemon=True).start()

    def _listen(self):
        for line in self.child.stdout:
            if line.strip() in self._done:
                self._done[line.strip()].set()
        self.child.wait()
        for event in self._done.values():  # the child ended (or failed): nothing more to wait for
            event.set()

    def wait(self, group: str):
        event = self._done.get(group)
        if event is not None:
            event.wait()

    def stop(self):
        if self.child is not None and self.child.poll() is None:
            self.child.kill()
            self.child.wait()
        _running.discard(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def compile_every_group(processes: int = 2) -> list:
    """Compile every group not yet warm, split over ``processes`` children at once
    (numba compiles on one core); returns the groups compiled. The test suite calls
    it before its workers start, so no two of them compile the same kernel."""
    cold = [g for g in GROUPS if not _mark(g).exists()]
    for warmup in [Warmup(cold[k::processes]) for k in range(processes)]:
        with warmup:
            if warmup.child is not None and warmup.child.wait() != 0:
                raise RuntimeError(f"compiling the kernels of {', '.join(warmup.groups)} failed")
    return cold


def stop_all():
    """Kill every warm-up child (Ctrl-C, before the process exits at once)."""
    for warmup in list(_running):
        warmup.stop()


def _as_child():
    """The child's own setup: the lowest CPU priority, and (on Linux) SIGKILL when its
    parent dies, SIGKILL included (set here, not between fork and exec: the parent has threads)."""
    os.nice(19)
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (AttributeError, OSError):
        pass


def main(groups):
    _as_child()
    for group in groups:
        compile_group(group)
        print(group, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
