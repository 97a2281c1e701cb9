"""End-to-end tests of the ``zonesim`` command line, run in a subprocess.

Contract (sim/cli/): ``encounter --json`` prints one JSON object; the same
seed gives the same numbers on any thread count and chunk size; ``--out``
writes a manifest, parquet tables and a PNG chart; every bad input ends with
one ``zonesim: error:`` line on stderr and exit code 2, no traceback, and no
file written. Rules: Z-11, Z-18, Z-21, Z-31, Z-33, K-01..K-03.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numba
import pytest

from sim.content import DEFAULT_DIR, load_content
from tests.conftest import edited_content, zonesim

TIMEOUT = 300
TRIALS = "20000"
PROBABILITIES = ("p_survive", "p_win", "p_draw", "p_escape", "p_death")
OUTCOMES = ("p_win", "p_draw", "p_escape", "p_death")
JSON_KEYS = {*PROBABILITIES, "ci95", "mean_rounds", "mean_hp_left", "trials", "seed", "elapsed_s",
             "encounters_per_s"}
TIMING = ("elapsed_s", "encounters_per_s")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# a runner with a smoke bomb: escapes, wins and deaths all happen
RUNNER = ["encounter", "--monster", "bloodsucker", "--weapon", "ak47", "--mods", "rebored",
          "--head", "helmet", "--stims", "stimulator:2", "--strategy", "runner",
          "--reputation", "4", "--escape-item", "smoke_bomb"]
# a group fight with explosives and the tactician: the busiest kernel path
GROUP = ["encounter", "--monster", "snork", "--monster", "flesh", "--weapon", "berdanka",
         "--mods", "zeroing,rifling", "--body", "vest", "--explosives", "limonka:2,molotov:1",
         "--stims", "stimulator:2", "--strategy", "tactician"]


def ok(*args, **kw) -> subprocess.CompletedProcess:
    proc = zonesim(*args, **kw)
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    assert "Traceback" not in proc.stderr
    return proc


def json_of(proc) -> dict:
    """stdout must be exactly one JSON object."""
    text = proc.stdout.strip()
    assert text.startswith("{") and "\n" not in text, f"not one JSON line: {proc.stdout!r}"
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def numbers(data: dict) -> dict:
    """The JSON without the timing fields, which differ from run to run."""
    return {k: v for k, v in data.items() if k not in TIMING}


def snapshot(folder: Path) -> dict:
    """Every path under ``folder`` with its bytes and mtime."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*"))}


@pytest.fixture(scope="module")
def runner_json(tmp_path_factory):
    cwd = tmp_path_factory.mktemp("runner")
    return json_of(ok(*RUNNER, "--trials", TRIALS, "--seed", "7", "--json", cwd=cwd))


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """One run with --out and --json: (its JSON, the output folder)."""
    cwd = tmp_path_factory.mktemp("written")
    out = cwd / "results" / "bloodsucker"
    data = json_of(ok(*RUNNER, "--trials", TRIALS, "--seed", "11", "--json", "--out", out, cwd=cwd))
    return data, out


# --------------------------------------------------------------------------
# encounter --json


def test_json_has_the_documented_keys(runner_json):
    assert JSON_KEYS <= set(runner_json)
    assert set(runner_json["ci95"]) == set(PROBABILITIES)
    assert runner_json["trials"] == int(TRIALS)
    assert runner_json["seed"] == 7
    assert runner_json["elapsed_s"] > 0
    assert runner_json["encounters_per_s"] > 0


def test_json_probabilities_and_intervals_are_consistent(runner_json):
    d = runner_json
    for name in PROBABILITIES:
        lo, hi = d["ci95"][name]
        assert 0 <= lo <= d[name] <= hi <= 1, name
    assert d["p_survive"] == pytest.approx(1 - d["p_death"], abs=1e-12)
    assert sum(d[k] for k in OUTCOMES) == pytest.approx(1, abs=1e-12)
    assert d["p_survive"] == pytest.approx(d["p_win"] + d["p_draw"] + d["p_escape"], abs=1e-12)
    # this scenario reaches every outcome but the 30-round draw
    assert d["p_win"] > 0 and d["p_escape"] > 0 and d["p_death"] > 0
    # probabilities are counts over trials
    for name in PROBABILITIES:
        assert (d[name] * d["trials"]) == pytest.approx(round(d[name] * d["trials"]), abs=1e-6)
    assert d["mean_rounds"] >= 0
    assert d["mean_hp_left"] is None or 1 <= d["mean_hp_left"] <= 25


def test_exact_json(tmp_path, runner_json):
    d = json_of(ok(*RUNNER, "--exact", "--json", cwd=tmp_path))
    assert JSON_KEYS <= set(d)
    assert d["trials"] is None
    assert d["encounters_per_s"] is None
    for name in PROBABILITIES:
        lo, hi = d["ci95"][name]
        assert lo == hi == d[name], name
    assert d["p_survive"] == pytest.approx(1 - d["p_death"], abs=1e-9)
    assert sum(d[k] for k in OUTCOMES) == pytest.approx(1, abs=1e-9)
    # the sampled answer for the same fight agrees with the exact one
    for name in PROBABILITIES:
        lo, hi = runner_json["ci95"][name]
        assert lo - 0.01 <= d[name] <= hi + 0.01, name


def test_same_seed_same_numbers_on_any_thread_count_and_chunk(tmp_path):
    # --threads 2 needs two numba threads: in this process, or in new ones on a 1-core machine
    env = None if numba.config.NUMBA_NUM_THREADS >= 2 else {**os.environ, "NUMBA_NUM_THREADS": "2"}
    base = [*GROUP, "--trials", TRIALS, "--seed", "3", "--json"]
    runs = {
        "threads 1": numbers(json_of(ok(*base, "--threads", "1", cwd=tmp_path, env=env))),
        "threads 2": numbers(json_of(ok(*base, "--threads", "2", cwd=tmp_path, env=env))),
        "chunk 1000": numbers(json_of(ok(*base, "--chunk", "1000", cwd=tmp_path, env=env))),
        "default": numbers(json_of(ok(*base, cwd=tmp_path, env=env))),
    }
    reference = runs["default"]
    assert reference["trials"] == int(TRIALS)
    for label, data in runs.items():
        assert data == reference, label


def test_another_seed_gives_other_numbers(tmp_path):
    base = [*GROUP, "--trials", TRIALS, "--json"]
    one = json_of(ok(*base, "--seed", "1", cwd=tmp_path))
    two = json_of(ok(*base, "--seed", "2", cwd=tmp_path))
    assert (one["p_survive"], one["mean_rounds"]) != (two["p_survive"], two["mean_rounds"])


def test_target_ci_stops_early(tmp_path):
    cap = 1_000_000
    d = json_of(ok(*RUNNER, "--target-ci", "0.01", "--trials", cap, "--chunk", "5000", "--json",
                   cwd=tmp_path))
    lo, hi = d["ci95"]["p_survive"]
    assert hi - lo < 0.01
    assert 0 < d["trials"] < cap
    assert d["trials"] % 5000 == 0


# --------------------------------------------------------------------------
# encounter --out


def test_out_writes_manifest(written):
    data, out = written
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    for key in ("seed", "trials", "content_hash", "strategy", "versions", "command"):
        assert key in manifest, key
    assert manifest["seed"] == 11
    assert manifest["trials"] == int(TRIALS)
    assert manifest["content_hash"] == load_content().digest
    assert manifest["strategy"]["name"] == "runner"
    assert manifest["versions"]["python"] == sys.version.split()[0]
    assert "encounter" in manifest["command"] and "--out" in manifest["command"]
    assert manifest["summary"]["p_survive"] == data["p_survive"]


def test_out_writes_encounter_parquet(written):
    pl = pytest.importorskip("polars")
    data, out = written
    frame = pl.read_parquet(out / "encounter.parquet")
    assert "metric" in frame.columns
    values = dict(zip(frame["metric"].to_list(), frame["value"].to_list()))
    for name in PROBABILITIES:
        assert values[name] == pytest.approx(data[name]), name
    assert values["mean_rounds"] == pytest.approx(data["mean_rounds"])
    assert set(frame["trials"].to_list()) == {int(TRIALS)}
    assert set(frame["seed"].to_list()) == {11}


def test_out_writes_histogram_parquet(written):
    pl = pytest.importorskip("polars")
    _, out = written
    hist = pl.read_parquet(out / "encounter_hist.parquet")
    assert {"kind", "value", "count"} <= set(hist.columns)
    for kind in ("hp_left", "rounds"):
        assert hist.filter(pl.col("kind") == kind)["count"].sum() == int(TRIALS), kind


def test_out_writes_a_png_chart(written):
    _, out = written
    png = (out / "charts" / "encounter.png").read_bytes()
    assert png[:8] == PNG_SIGNATURE
    assert len(png) > 1000
    leftovers = [p.name for p in out.rglob("*") if ".tmp" in p.name]
    assert not leftovers, leftovers


def test_optimal_json_puts_every_built_in_strategy_beside_him(tmp_path):
    """``--strategy optimal --exact``: his exact outcome, and each built-in strategy's
    survival with his lead over it, never negative beyond the sampling interval."""
    d = json_of(ok(*RUNNER[:-6], "--reputation", "4", "--explosives", "limonka:2", "--strategy", "optimal",
                   "--exact", "--json", cwd=tmp_path))
    assert JSON_KEYS <= set(d) and d["trials"] is None
    assert sum(d[k] for k in OUTCOMES) == pytest.approx(1, abs=1e-9)
    optimal = d["optimal"]
    assert optimal["objective"] == "survival" and optimal["tries_escape"] is True
    assert set(optimal["strategies"]) == {"fighter", "runner", "tactician"}
    for name, row in optimal["strategies"].items():
        assert row["gap"] == pytest.approx(d["p_survive"] - row["p_survive"], abs=1e-12)
        assert d["p_survive"] >= row["ci95"][0], name


def test_a_survival_worth_some_g_spends_less(tmp_path):
    args = [*RUNNER[:-6], "--reputation", "5", "--explosives", "limonka:2", "--strategy", "optimal", "--exact",
            "--json"]
    free = json_of(ok(*args, cwd=tmp_path))["optimal"]
    costed = json_of(ok(*args, "--g-per-survival", "2000", cwd=tmp_path))["optimal"]
    assert costed["g_spent"] < free["g_spent"] and costed["g_per_survival"] == 2000
    assert "2000 G a survival" in costed["objective"]


def test_exact_out_writes_manifest_and_chart(tmp_path):
    out = tmp_path / "exact"
    ok(*RUNNER, "--exact", "--out", out, cwd=tmp_path)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["trials"] is None and manifest["exact"] is True
    assert (out / "encounter.parquet").is_file()
    assert (out / "charts" / "encounter.png").read_bytes()[:8] == PNG_SIGNATURE


def test_table_output(tmp_path):
    proc = ok(*RUNNER, "--trials", TRIALS, cwd=tmp_path)
    for word in ("survive", "win", "draw", "escape", "death", "20,000 fights", "seed 1"):
        assert word in proc.stdout, word


# --------------------------------------------------------------------------
# other commands


def test_validate_default(tmp_path):
    proc = ok("validate", cwd=tmp_path)
    assert proc.stdout.startswith("default: ok · ")  # the shipped content by name, not this machine's path


def test_content_init_then_validate(tmp_path):
    folder = tmp_path / "my_content"
    ok("content", "init", folder, cwd=tmp_path)
    assert sorted(p.name for p in folder.glob("*.toml")) == sorted(p.name for p in DEFAULT_DIR.glob("*.toml"))
    proc = ok("validate", folder, cwd=tmp_path)
    assert proc.stdout.startswith("my_content: ok · ")  # relative to the working folder
    # the copy is usable as --content
    json_of(ok("encounter", "--monster", "boar", "--trials", "1000", "--json", "--content", folder,
               cwd=tmp_path))


def test_content_init_refuses_a_non_empty_folder(tmp_path):
    folder = tmp_path / "taken"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    proc = zonesim("content", "init", folder, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("zonesim: error:")
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]


def test_validate_reports_broken_content(tmp_path):
    folder = tmp_path / "broken"
    shutil.copytree(DEFAULT_DIR, folder)
    path = folder / "monsters.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("hp = 6\n", "hp = 0\n"), encoding="utf-8")
    proc = zonesim("validate", folder, cwd=tmp_path)
    assert proc.returncode == 2
    assert "blind_dog.hp" in proc.stderr and str(path) in proc.stderr


def test_strategies_lists_the_built_ins(tmp_path):
    proc = ok("strategies", cwd=tmp_path)
    names = [line.split()[0] for line in proc.stdout.splitlines() if line.strip()]
    for name in ("fighter", "runner", "tactician"):
        assert name in names, name


def test_skill_prints_exact_and_simulated(tmp_path):
    proc = ok("skill", "--attribute", "2", "--target", "8", "--trials", "100000", cwd=tmp_path)
    words = proc.stdout.replace("·", " ").split()
    exact = float(words[words.index("exact") + 1])
    simulated = float(words[words.index("simulated") + 1])
    # d6 + 2 >= 8 needs a 6, which is critical and always passes (K-01..K-03)
    assert exact == pytest.approx(1 / 6, abs=1e-6)
    assert simulated == pytest.approx(exact, abs=0.01)


def test_skill_json_gives_the_exact_and_simulated_chances(tmp_path):
    data = json_of(ok("skill", "--attribute", "2", "--target", "8", "--trials", "100000", "--seed", "3", "--json",
                      cwd=tmp_path))
    assert set(data) == {"attribute", "modifiers", "target", "exact", "simulated", "ci95", "passed", "trials",
                         "seed"}
    assert (data["attribute"], data["modifiers"], data["target"], data["trials"], data["seed"]) == (2, 0, 8, 100000, 3)
    assert data["exact"] == pytest.approx(1 / 6, abs=1e-12)
    assert data["simulated"] == data["passed"] / data["trials"]
    assert data["ci95"][0] <= data["simulated"] <= data["ci95"][1]
    text = ok("skill", "--attribute", "2", "--target", "8", "--trials", "100000", "--seed", "3", cwd=tmp_path).stdout
    assert f"simulated {data['simulated']:.6f}" in text


def test_validate_json_matches_the_summary_line(tmp_path):
    data = json_of(ok("validate", "--json", cwd=tmp_path))
    content = load_content()
    assert data["directory"] == str(content.directory) and data["content_hash"] == content.digest
    assert (data["characters"], data["monsters"], data["items"]) == (len(content.characters), len(content.monsters),
                                                                     len(content.items))
    line = ok("validate", cwd=tmp_path).stdout
    rows, cols = data["stalkeriada_zone"]
    assert f"Stalkeriada {rows}x{cols} Zone" in line and f"{data['assumed']} assumed [A] values" in line
    assert data["maps"] == 1 and "1 map," in line and "skirmish arena {}x{}".format(*data["skirmish_arena"]) in line


def test_strategies_json_lists_the_built_ins_with_their_parameters(tmp_path):
    data = json_of(ok("strategies", "--json", cwd=tmp_path))
    import strategies

    assert set(data) == {"fight", "journey", "skirmish", "stalkeriada"}  # every mode's family, duel's is fight's
    for kind, listed in data.items():
        assert [s["name"] for s in listed][:len(strategies.names(kind))] == list(strategies.names(kind)), kind
        assert all(set(s) == {"name", "description", "params", "optimises"} for s in listed)
    assert "beast" in {s["name"] for s in data["skirmish"]}
    frugal = {s["name"]: s for s in data["journey"]}["frugal"]["params"]
    assert frugal["restock"] is False and frugal["fight"] == "runner"  # a journey strategy's settings


# --------------------------------------------------------------------------
# bad input


def _malformed(tmp_path):
    return ["--content", edited_content(tmp_path, "items.toml", "[firearms.ak47]", "[firearms.ak47")]


def _negative_price(tmp_path):
    return ["--content", edited_content(tmp_path, "items.toml", "dice = 2\nprice = 1500", "dice = 2\nprice = -1")]


def _missing_strategy_file(tmp_path):
    return ["--strategy", f"{tmp_path / 'nowhere.py'}:mine"]


BOAR = ["encounter", "--monster", "boar", "--trials", "1000"]
BAD_INPUT = {
    "malformed content TOML": (BOAR, _malformed, "malformed TOML"),
    "unknown monster": (["encounter", "--monster", "dragon", "--trials", "1000"], None, "dragon"),
    "unknown weapon": ([*BOAR, "--weapon", "ak74"], None, "ak74"),
    "modifier on the wrong firearm": ([*BOAR, "--weapon", "berdanka", "--mods", "laser_sight"], None, "laser_sight"),
    "11 explosives": ([*BOAR, "--explosives", "limonka:4,molotov:4,ppv:3"], None, "Z-18"),
    "5 stimulators, deck of 4": ([*BOAR, "--stims", "stimulator:5"], None, "Z-11"),
    "negative price in content": (BOAR, _negative_price, "price"),
    "zero trials": (["encounter", "--monster", "boar", "--trials", "0"], None, "--trials"),
    "bad --stims format": ([*BOAR, "--stims", "stimulator:x"], None, "stimulator:x"),
    "medkit given to --stims": ([*BOAR, "--stims", "medkit:1"], None, "--medkits"),
    "negative count": ([*BOAR, "--stims", "stimulator:-1"], None, "negative"),
    "unknown strategy": ([*BOAR, "--strategy", "berserker"], None, "berserker"),
    "missing strategy file": (BOAR, _missing_strategy_file, "nowhere.py"),
    "--exact with tactician": (["encounter", "--monster", "boar", "--exact", "--strategy", "tactician"], None,
                               "--exact"),
    "--exact with two monsters": (["encounter", "--monster", "boar", "--monster", "flesh", "--exact"], None,
                                  "--exact"),
    "--exact with explosives": (["encounter", "--monster", "boar", "--exact", "--explosives", "limonka:1"], None,
                                "--exact"),
    "optimal without --exact": (["encounter", "--monster", "boar", "--strategy", "optimal"], None,
                                "--strategy optimal: the optimal player is solved exactly; add --exact"),
    "optimal with two monsters": (["encounter", "-m", "boar", "-m", "flesh", "--strategy", "optimal", "--exact"],
                                  None, "--strategy optimal: solves one monster"),
    "survival worth 0 G": (["encounter", "-m", "boar", "--strategy", "optimal", "--exact", "--g-per-survival", "0"],
                           None, "--g-per-survival: 0.0; give the G one survival is worth"),
    "survival worth less than 0 G": (["encounter", "-m", "boar", "--strategy", "optimal", "--exact",
                                      "--g-per-survival", "-50"], None, "--g-per-survival: -50.0"),
    "a survival's worth without the optimal player": (["encounter", "-m", "boar", "--g-per-survival", "500"], None,
                                                      "--g-per-survival: the optimal player's objective"),
    "unknown option": ([*BOAR, "--armour", "vest"], None, "--armour"),
    "missing --monster": (["encounter", "--trials", "1000"], None, "--monster"),
    "non-integer --trials": (["encounter", "--monster", "boar", "--trials", "many"], None, "--trials"),
    "zero threads": ([*BOAR, "--threads", "0"], None, "--threads"),
    "--target-ci 2": (["encounter", "--monster", "boar", "--target-ci", "2"], None, "--target-ci"),
    "--hp above max": ([*BOAR, "--hp", "99"], None, "--hp"),
    "head armour on the body": ([*BOAR, "--body", "helmet"], None, "--head helmet"),
    "two firearms in --kit": ([*BOAR, "--kit", "ak47,berdanka"], None, "same slot"),
    "--kit and --weapon": ([*BOAR, "--kit", "ak47", "--weapon", "ak47"], None, "not also --weapon"),
    "unknown card in --kit": ([*BOAR, "--kit", "ak74"], None, "ak74"),
    "bad count in --kit": ([*BOAR, "--kit", "stimulator*x"], None, "whole number"),
    "5 stimulators in --kit": ([*BOAR, "--kit", "stimulator*5"], None, "stimulator"),
    "validate a missing folder": (["validate", "no_such_folder"], None, "no_such_folder"),
    "unknown command": (["fight"], None, "fight"),
}


def _bad_args(tmp_path, case):
    args, extra, _ = BAD_INPUT[case]
    return [*args, *(extra(tmp_path) if extra else [])]


BAD_INPUT_RUNS = [pytest.param(case, as_json, id=f"{case}-{'json' if as_json else 'table'}")
                  for case, (args, _, _) in BAD_INPUT.items()
                  for as_json in ((False, True) if args[0] == "encounter" else (False,))]


@pytest.mark.parametrize("case, as_json", BAD_INPUT_RUNS)
def test_bad_input_is_one_error_line_and_exit_2(tmp_path, case, as_json):
    args = _bad_args(tmp_path, case) + (["--json"] if as_json else [])
    proc = zonesim(*args, cwd=tmp_path)
    assert proc.returncode == 2, f"exit {proc.returncode}\nstderr:\n{proc.stderr}"
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"stderr is not one line: {proc.stderr!r}"
    assert lines[0].startswith("zonesim: error: ")
    assert len(lines[0]) > len("zonesim: error: ")
    assert BAD_INPUT[case][2] in lines[0]
    assert proc.stdout.strip() == ""


def test_loadout_error_in_table_mode_prints_no_blank_line(tmp_path):
    proc = zonesim(*BOAR, "--weapon", "ak74", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [proc.stderr.strip()]


def test_error_during_a_run_prints_no_blank_line(tmp_path):
    """--damping is checked once tuning has started, inside the progress bar."""
    proc = zonesim("tune", "-m", "snork", "--damping", "2", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == "zonesim: error: --damping: 2.0; give a fraction in (0, 1]\n"


SEEDED = {
    "encounter": ["-m", "boar"], "journey": [], "value": ["-m", "boar"], "tune": ["-m", "boar"],
    "loadouts": ["--budget", "500", "-m", "boar"], "skirmish": [], "stalkeriada": [], "stalkeriada-matrix": [],
    "skill": ["--attribute", "2", "--target", "8"],
}


@pytest.mark.parametrize("command", SEEDED)
def test_negative_seed_is_refused(tmp_path, command):
    proc = zonesim(command, *SEEDED[command], "--seed", "-3", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == "zonesim: error: --seed: -3; give a whole number >= 0\n"
    assert proc.stdout == ""


@pytest.mark.parametrize("case", ["unknown monster", "11 explosives", "malformed content TOML", "zero trials",
                                  "--exact with tactician", "zero threads"])
def test_failing_run_leaves_the_out_folder_alone(tmp_path, case):
    out = tmp_path / "out"
    out.mkdir()
    (out / "sentinel.txt").write_text("keep me\n", encoding="utf-8")
    (out / "charts").mkdir()
    before = snapshot(out)
    proc = zonesim(*_bad_args(tmp_path, case), "--out", out, cwd=tmp_path)
    assert proc.returncode == 2
    assert snapshot(out) == before


def test_failing_run_does_not_create_the_out_folder(tmp_path):
    out = tmp_path / "new_out"
    proc = zonesim(*_bad_args(tmp_path, "5 stimulators, deck of 4"), "--out", out, cwd=tmp_path)
    assert proc.returncode == 2
    assert not out.exists()


def test_the_input_checks_read_the_mode_registry_without_loading_a_kernel():
    """Strategy names and trial counts are checked through ``sim.modes.MODES``
    before any kernel module is imported."""
    code = ("import sys; from sim.modes import MODES; from sim.options import check_mode_trials, check_strategies\n"
            "for name, mode in MODES.items():\n"
            "    check_strategies('--strategy', mode.strategy_names(), name); check_mode_trials(name, 10, days=30)\n"
            "print(sorted(m for m in sys.modules if m.startswith(('sim.kernels', 'numba'))))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


@pytest.mark.parametrize("args,message", [
    (("journey", "--strategy", "bogus"), "--strategy: unknown strategy 'bogus'; built in: cautious, greedy, tactician"),
    (("stalkeriada", "--players", "cautious,bogus"), "--players: unknown strategy 'bogus'"),
    (("stalkeriada-matrix", "--players", "cautious,bogus"), "--players: unknown strategy 'bogus'"),
    (("skirmish", "--strategy", "strongest"), "--strategy: unknown strategy 'strongest'"),
    (("encounter", "-m", "snork", "--strategy", "bogus"), "--strategy: unknown strategy 'bogus'"),
    (("value", "--mode", "stalkeriada", "--opponents", "greedy,nope"), "--opponents: unknown strategy"),
    (("tune", "--mode", "stalkeriada", "--strategy", "nope"), "--strategy: unknown strategy 'nope'"),
    (("loadouts", "--budget", "1000", "--journey", "10", "--strategy", "nope"),
     "--strategy: unknown strategy 'nope'"),
    (("journey", "--strategy", "nofile.py:X"), "--strategy: strategy file 'nofile.py' not found"),
])
def test_unknown_strategies_are_refused_before_any_kernel_loads(args, message):
    """One line, exit 2, and no kernel module imported (so no compile on a cold cache)."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "sim", *args], capture_output=True, text=True,
                          timeout=120)
    lines = proc.stderr.splitlines()
    imported = [line.rsplit("|", 1)[-1].strip() for line in lines if line.startswith("import time:")]
    said = [line for line in lines if not line.startswith("import time:")]
    assert proc.returncode == 2 and len(said) == 1, proc.stderr[-2000:]
    assert said[0].startswith(f"zonesim: error: {message}"), said
    assert "sim.cli" in imported and not [m for m in imported if m.startswith("sim.kernels")]


def test_journey_speaks_the_glossarys_words():
    """Every outcome label ``zonesim journey`` prints is the glossary's own words for its key
    (``sim.run.journey.outcome_labels``; "all orders done" said the goal was every order before)."""
    from sim.run.journey import outcome_labels
    from tests.infra import docs_checks as checks

    out = ok("journey", "--trials", "200").stdout
    meaning = {}
    for line in (checks.ROOT / "docs" / "guide" / "glossary.md").read_text(encoding="utf-8").splitlines():
        row = re.match(r"\| `(\w+)` \| (.*) \|$", line)
        if row:
            meaning[row.group(1)] = meaning.get(row.group(1), "") + row.group(2)
    for key, label in {**outcome_labels(7), "mean_missions": "missions gained by passing level 12"}.items():
        assert " ".join(label.split()) in " ".join(out.split()), label
        assert label.split(" (")[0] in meaning[key], (key, meaning[key])
