"""Explorer benchmark: how fast the live explorer answers an edit, once the kernels are compiled.

    python bench/explore.py [--json] [--repeats 5]

On the default content at the full trial counts of report.toml (those of
``zonesim compare``), the measuring in its own process as ``zonesim explore``
runs it:

- ``start``: ``zonesim explore --no-browser`` until it prints its URL (goal 10 s);
- ``check``: an edit (the bloodsucker's HP) until the loaders have taken it;
- ``fights first``, ``first numbers``: the edit until its fight survival, and
  until every headline number, is in from a first batch (goal 2 s);
- ``full counts``: the edit until every number has its full count (the
  baseline's numbers at their full counts already);
- ``cancellation``: an edit made while the one before is being measured
  until that work stops (goal 0.5 s).

Each edit is a new value, so nothing is served from the tallies kept; the
repeated figures are the median and the worst of ``--repeats``. The numbers do
not depend on the thread count; the times do.
"""

import argparse
import json
import re
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GOALS = {"start_s": 10.0, "first_numbers_s": 2.0, "cancel_s": 0.5}
HP = ("monsters.toml", "bloodsucker.hp")


def start_time() -> float:
    """Seconds from ``zonesim explore --no-browser --port 0`` to its URL on stdout."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "sim", "explore", "--no-browser", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    try:
        for line in proc.stdout:
            if re.search(r"http://\S+", line):
                return time.perf_counter() - started
        raise RuntimeError("zonesim explore printed no URL")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)


def until(explorer, done, timeout=1800.0) -> float:
    """Seconds until ``done(snapshot)`` holds."""
    started = time.perf_counter()
    explorer.wait_until(done, timeout)
    return time.perf_counter() - started


def edit(explorer, hp) -> float:
    """Apply an edit of the bloodsucker's HP; the seconds the loaders took to accept it."""
    started = time.perf_counter()
    assert explorer.set(*HP, str(hp)) is None
    return time.perf_counter() - started


def summary(values) -> dict:
    return {"median": statistics.median(values), "max": max(values), "n": len(values)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--repeats", type=int, default=5, help="edits timed for the repeated figures")
    args = parser.parse_args()

    from sim.explore import Explorer
    from sim.explore.schedule import FRACTIONS

    last = len(FRACTIONS) - 1
    out = {"start_s": start_time()}
    explorer = Explorer()
    try:
        explorer.start()
        explorer.wait(stage=last, timeout=3600)  # the baseline at its full counts; the kernels loaded
        checks, fights, first = [], [], []
        for k in range(args.repeats):
            checks.append(edit(explorer, 21 + k))
            fights.append(checks[-1] + until(explorer, lambda snap: explorer.reached(snap, 0, ["fights"])))
            first.append(fights[-1] + until(explorer, lambda snap: explorer.reached(snap, 0)))
        check = edit(explorer, 30)
        full = check + until(explorer, lambda snap: explorer.reached(snap, last), timeout=3600)
        cancels = []
        for k in range(args.repeats):
            edit(explorer, 31 + k)
            until(explorer, lambda snap: explorer.reached(snap, 1, ["journeys"]))
            before = len(explorer.cancel_latencies)
            edit(explorer, 41 + k)
            until(explorer, lambda _: len(explorer.cancel_latencies) > before, timeout=60)
            cancels.append(explorer.cancel_latencies[-1])
    finally:
        explorer.close()
    out.update(check_s=summary(checks), fights_first_s=summary(fights), first_numbers_s=summary(first),
               full_counts_s=full, cancel_s=summary(cancels), goals=GOALS)
    if args.json:
        print(json.dumps(out))
        return
    print(f"start (zonesim explore to its URL)      {out['start_s']:6.2f} s (goal {GOALS['start_s']:.0f} s)")
    for key, words in (("check_s", "edit accepted by the loaders"), ("fights_first_s", "edit to fight survival"),
                       ("first_numbers_s", "edit to every first number"), ("cancel_s", "cancellation")):
        goal = f" (goal {GOALS[key]} s)" if key in GOALS else ""
        print(f"{words:40} {out[key]['median']:6.2f} s median, {out[key]['max']:.2f} s worst of "
              f"{out[key]['n']}{goal}")
    print(f"{'edit to full-count intervals':40} {full:6.1f} s")


if __name__ == "__main__":
    main()
