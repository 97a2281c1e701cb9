"""Input checked before any kernel compiles, huge trial counts refused, Ctrl-C
(SIGINT) stopping a run at once with exit 130 and no half-written file.

The refusal tests run ``zonesim`` on an empty numba cache: a refusal that
compiled anything would leave compiled files there (and take minutes)."""

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sim.content import DEFAULT_DIR
from sim.content.maps import load_map
from tests.conftest import edited_content, empty_cache_env, zonesim


def one_error_line(proc, fragment):
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode == 2, proc.stderr
    assert len(lines) == 1 and lines[0].startswith("zonesim: error:") and fragment in lines[0], proc.stderr


def compiled_files(cache):
    return [p for p in Path(cache).rglob("*") if p.is_file()]


def test_importing_the_command_line_compiles_nothing():
    """No kernel or strategy module (they compile on import; the registry
    ``strategies`` only names them) is imported with ``sim.cli``."""
    code = ("import sys, sim.cli; print(sorted(m for m in sys.modules if m.startswith(('strategies.', "
            "'sim.kernels', 'sim.run.')) and m != 'sim.run.results'))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "[]", proc.stdout + proc.stderr


def malformed(tmp_path, file):
    """Default content with a line of broken TOML at the end of ``file`` (one the journey does not use)."""
    folder = tmp_path / "content"
    shutil.copytree(DEFAULT_DIR, folder)
    with open(folder / file, "a", encoding="utf-8") as f:
        f.write("\n[broken\n")
    return folder


def walled_in_order(tmp_path):
    """Default content where the first order's site (red_forest) is ringed by hexes no stalker can enter."""
    folder = edited_content(tmp_path, "terrain.toml", "cost = 6 ", "cost = 10 ")
    path = folder / "maps" / "zone.toml"
    head, grid, tail = path.read_text(encoding="utf-8").split('"""', 2)
    rows = [row.split() for row in grid.strip().splitlines()]
    for col, row in load_map(DEFAULT_DIR / "maps" / "zone.toml").neighbours(12, 10):
        rows[row][col] = "X"
    path.write_text(head + '"""\n' + "\n".join(" ".join(r) for r in rows) + '\n"""' + tail, encoding="utf-8")
    return folder


@pytest.mark.parametrize("case", ["weapon", "malformed", "unreachable", "trials"])
def test_bad_input_is_refused_before_any_kernel_compiles(tmp_path, case):
    """Each refused with one line and exit 2, and nothing compiled into the empty cache (issue #17)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    args, fragment = {
        "weapon": lambda: (["journey", "--weapon", "nosuch"], "--weapon: 'nosuch'"),
        "malformed": lambda: (["journey", "--content", malformed(tmp_path, "skirmish.toml")],
                              "skirmish.toml: malformed TOML"),
        "unreachable": lambda: (["journey", "--content", walled_in_order(tmp_path)],
                                "orders[0].destination: 'red_forest' at [12, 10] cannot be reached"),
        "trials": lambda: (["value", "-m", "snork", "--weapon", "ak47", "--trials", "1000000000000000"],
                           "would take about"),
    }[case]()
    start = time.perf_counter()
    proc = zonesim(*args, env=empty_cache_env(cache))
    elapsed = time.perf_counter() - start
    one_error_line(proc, fragment)
    assert compiled_files(cache) == [], f"compiled before refusing ({elapsed:.1f} s)"


def test_a_day_long_run_is_refused_with_the_estimate():
    proc = zonesim("journey", "--trials", 10 ** 15)
    one_error_line(proc, "--trials: 1,000,000,000,000,000 campaigns would take about 38,580 days at ~300,000 "
                         "campaigns/s; use fewer campaigns")


def interrupted(args, wait_for):
    """Start ``zonesim ARGS``, send SIGINT a second after stderr shows ``wait_for``; the process and the
    seconds it took to exit."""
    proc = subprocess.Popen([sys.executable, "-m", "sim", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    seen = []
    for line in proc.stderr:  # plain progress lines: stderr is a pipe here
        seen.append(line)
        if wait_for in line:
            break
    else:
        raise AssertionError(f"no '{wait_for}' line: {''.join(seen)}")
    time.sleep(1.0)  # well inside the run
    proc.send_signal(signal.SIGINT)
    start = time.perf_counter()
    try:
        rest = proc.communicate(timeout=30)[1]
    finally:
        proc.kill()
    return proc, time.perf_counter() - start, "".join(seen) + rest


@pytest.mark.parametrize("command", ["journey", "value", "report"])
def test_ctrl_c_stops_a_run_at_once_with_exit_130(tmp_path, command):
    """Within 2 s (issue #17), one line, and no half-written file in --out."""
    out = tmp_path / "out"
    args, wait_for = {
        "journey": (["journey", "--trials", 100_000_000, "--weapon", "ak47", "--out", out], "zonesim: journeys "),
        "value": (["value", "-m", "bloodsucker", "--weapon", "ak47", "--trials", 1_000_000_000, "--out", out],
                  "zonesim: valuing cards"),
        "report": (["report", "--quick", "--out", out], "report step 1/"),
    }[command]
    proc, seconds, stderr = interrupted(args, wait_for)
    assert proc.returncode == 130, stderr
    assert seconds < 2.0, f"{seconds:.1f} s to stop"
    assert stderr.splitlines()[-1] == "zonesim: interrupted", stderr
    assert "Traceback" not in stderr
    assert not [p for p in out.rglob("*") if ".tmp" in p.name], "half-written file left"


def test_ctrl_c_stops_the_report_and_its_compiling_child(tmp_path):
    """On an empty cache the report compiles its later kernels in a child process
    (``sim.run.warmup``); Ctrl-C ends both within 2 s."""
    env = empty_cache_env(tmp_path / "cache")
    proc = subprocess.Popen([sys.executable, "-m", "sim", "report", "--quick", "--out", str(tmp_path / "out")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        seen = [next(line for line in proc.stderr if "in a second process meanwhile" in line)]
        children = [p.parent.name for p in Path("/proc").glob("[0-9]*/stat")
                    if _status(p.parent.name).split("\nPPid:\t", 1)[-1].split("\n", 1)[0] == str(proc.pid)]
        assert len(children) == 1, seen
        proc.send_signal(signal.SIGINT)
        start = time.perf_counter()
        rest = proc.communicate(timeout=30)[1]
        assert proc.returncode == 130 and rest.splitlines()[-1] == "zonesim: interrupted", rest
        while Path(f"/proc/{children[0]}").exists() and "\nState:\tZ" not in _status(children[0]):
            assert time.perf_counter() - start < 2.0, "the compiling child outlived the report"
            time.sleep(0.05)
    finally:
        proc.kill()


def _status(pid):
    try:
        return "\n" + Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return "\nState:\tZ"
