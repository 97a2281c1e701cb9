"""Shared fixtures: the default content, kernel runs in the reference's terms."""

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
import traceback
from pathlib import Path

import numpy as np
import pytest

from sim.content import DEFAULT_DIR, load_content
from sim.kernels import fight as K
from sim.reference.loadout import loadout_from_dict
from sim.run.fight import FightRun

# The suite runs in two pytest-xdist workers on two cores, each kernel on two
# threads: OpenMP threads that spin while they wait would take the core from
# the other worker, so they sleep instead (read when the first parallel kernel
# starts its threads; the commands the tests start inherit it). Numbers do not change.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def pytest_configure(config):
    """Compile every kernel once, before any test (in the xdist controller, before its
    workers start): on an empty cache the two workers, and the commands the tests start,
    would otherwise each compile the same kernels. A warm cache costs nothing here."""
    if hasattr(config, "workerinput") or config.option.collectonly or config.option.help:
        return
    from sim.run.warmup import compile_every_group

    start = time.perf_counter()
    compiled = compile_every_group()
    if compiled:
        sys.stderr.write(f"compiled the kernels of {', '.join(compiled)} into {os.environ['NUMBA_CACHE_DIR']} "
                         f"in {time.perf_counter() - start:.0f} s\n")


DATA = Path(__file__).parent / "data"
RULES_MD = Path(__file__).resolve().parents[1] / "docs" / "rules" / "index.md"
"""The rule catalogue: ``docs/rules/index.md``, one ``- Z-01 [G] ...`` line per rule."""


@pytest.fixture(scope="session")
def content():
    return load_content()


def kernel_aggregates(content, loadout: dict, monsters, strategy, seed, n, trial_start=0):
    """Run the numba kernel and express its sums like ``sim.reference.fight.run_fights``."""
    run = FightRun(content, loadout_from_dict(loadout), monsters, strategy, seed)
    run.trials = trial_start
    run.advance(n)
    nz = lambda hist: {i: int(c) for i, c in enumerate(hist) if c}  # noqa: E731
    return {
        "counts": dict(zip(K.OUTCOMES, (int(c) for c in run.counts))),
        "rounds_hist": nz(run.rounds_hist),
        "hp_hist": nz(run.hp_hist),
        "used": {k: int(v) for k, v in zip(run.labels, run.used) if v},
    }


def edit_file(folder, file, old, new):
    """Replace the single occurrence of ``old`` in ``folder/file`` by ``new``."""
    path = Path(folder) / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"test setup: {old!r} occurs {text.count(old)} times in {file}"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def edited_content(tmp_path, file, old, new, name="content"):
    """A copy of the default content (folder ``tmp_path/name``) with one edit in ``file``."""
    folder = tmp_path / name
    shutil.copytree(DEFAULT_DIR, folder)
    edit_file(folder, file, old, new)
    return folder


def zonesim(*args, cwd=None, env=None, process=False):
    """Run the command line ``zonesim ARGS`` (in ``cwd``); its exit code, stdout and stderr as a
    ``subprocess.CompletedProcess``. It runs in this process as the ``zonesim`` script does
    (``sim.cli.main``; this worker's kernels are loaded already), or as ``python -m sim ARGS``
    in a new process with ``process=True`` or another environment ``env``."""
    argv = [str(a) for a in args]
    if process or env is not None:
        return subprocess.run([sys.executable, "-m", "sim", *argv], capture_output=True, text=True,
                              timeout=900, cwd=cwd, env=env)
    from sim.cli import main

    stdout, stderr = io.StringIO(), io.StringIO()
    saved_argv, saved_cwd = sys.argv, os.getcwd()
    sys.argv = ["zonesim", *argv]
    try:
        os.chdir(cwd or saved_cwd)
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                code = main(argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
            except Exception:  # as the interpreter would end the process: the traceback and exit 1
                traceback.print_exc()
                code = 1
    finally:
        sys.argv = saved_argv
        os.chdir(saved_cwd)
    return subprocess.CompletedProcess(["zonesim", *argv], code or 0, stdout.getvalue(), stderr.getvalue())


def empty_cache_env(folder):
    """The environment of a ``zonesim`` run whose numba cache is the empty ``folder``
    (without this session's ``NUMBA_CACHE_DIR``, which would win over it)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    return {**env, "ZONESIM_CACHE_DIR": str(folder)}


def zonesim_json(*args, cwd=None, env=None):
    """Run ``python -m sim ARGS --json``; it must succeed; its JSON."""
    proc = zonesim(*args, "--json", cwd=cwd, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def extra_monster(tmp_path, name, hp, dice, bonus, defence):
    """Default content plus one test monster; returns the loaded content."""
    folder = tmp_path / f"content_{name}"
    shutil.copytree(DEFAULT_DIR, folder)
    with open(folder / "monsters.toml", "a") as f:
        f.write(f"\n[{name}]\nhp = {hp}\ndice = {dice}\nbonus = {bonus}\ndefence = {defence}\n")
    return load_content(folder)


def proportion_tolerance(p, n, k=4.0):
    """``k`` standard errors of a proportion (at least one count)."""
    return k * max(np.sqrt(p * (1 - p) / n), 1.0 / n)


def toml_value(v):
    """A Python value written as TOML."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return str(v)


def stalkeriada_content(tmp_path, changes, name="stalkeriada"):
    """Default content with ``changes`` ({table: {field: value}}) applied to
    stalkeriada.toml; returns the loaded content."""
    folder = tmp_path / name
    shutil.copytree(DEFAULT_DIR, folder)
    path = folder / "stalkeriada.toml"
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    for table, fields in changes.items():
        raw.setdefault(table, {}).update(fields)
    path.write_text("".join(f"[{table}]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in fields.items())
                            + "\n" for table, fields in raw.items()), encoding="utf-8")
    return load_content(folder)


CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium (Debian's ``chromium``, ``$CHROMIUM`` to point elsewhere) driven by Playwright."""
    executable = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if executable is None:
        pytest.skip("no chromium on PATH: .ci/run installs Debian's package (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()
