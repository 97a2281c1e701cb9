"""The first run: a command on an empty kernel cache, its wall time and peak memory.

    python bench/first_run.py [--cache DIR] [-- zonesim report --out results/first-run]

Runs the command (default: the README's main job, ``zonesim report``) with
``$ZONESIM_CACHE_DIR`` on an empty folder, samples the resident memory of the
command and every process it starts (the report's compiling child included)
every 0.2 s, and prints the wall time and the peak of their sum; then runs it
again on the now warm cache for comparison.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _children():
    """``{parent pid: [child pids]}`` from /proc (Linux)."""
    tree = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        tree.setdefault(parent, []).append(int(stat.parent.name))
    return tree


def _rss(pid):
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run(command, env):
    """Wall seconds, peak summed RSS in bytes and exit code of ``command``."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, env=env)
    peak = 0
    while proc.poll() is None:
        tree, todo, total = _children(), [proc.pid], 0
        while todo:
            pid = todo.pop()
            total += _rss(pid)
            todo += tree.get(pid, [])
        peak = max(peak, total)
        time.sleep(0.2)
    return time.perf_counter() - start, peak, proc.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, help="The empty cache folder to use (default: a new temp folder).")
    parser.add_argument("command", nargs="*", default=["zonesim", "report", "--out", "results/first-run"])
    args = parser.parse_args()
    cache = args.cache or Path(tempfile.mkdtemp(prefix="zonesim-cache-"))
    if cache.exists() and any(cache.iterdir()):
        sys.exit(f"{cache} is not empty")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["ZONESIM_CACHE_DIR"] = str(cache)
    try:
        for label in ("empty cache", "warm cache"):
            wall, peak, code = run(args.command, env)
            print(f"{label}: {wall:.0f} s wall, peak {peak / 1e9:.2f} GB summed over its processes, exit {code}",
                  flush=True)
    finally:
        if args.cache is None:
            shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
