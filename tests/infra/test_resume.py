"""Resumable runs: a run with --out keeps every finished chunk; a run killed by
SIGKILL leaves no half-written file, and --resume gives the same JSON as an
uninterrupted run. A resume with other options exits 2 with one line."""

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from sim.run.chunks import Checkpoints, Chunk, ResumeError, plan, run_chunks
from tests.conftest import zonesim

TIMING = ("elapsed_s", "hex_steps_per_s", "skirmishes_per_s", "player_turns_per_s", "encounters_per_s",
          "fights_per_s")


def _numbers(stdout):
    """The JSON of a run without its timings."""
    out = json.loads(stdout)
    return {k: v for k, v in out.items() if k not in TIMING}


def _kill_after_first_chunk(args, folder, timeout=600, pieces="chunk-*.npz"):
    """Start ``zonesim ARGS --out folder``, SIGKILL it by its PID once a piece is saved; the saved pieces."""
    proc = subprocess.Popen([sys.executable, "-m", "sim", *map(str, args), "--out", str(folder)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    checkpoints = folder / "checkpoints"
    deadline = time.monotonic() + timeout
    while not list(checkpoints.glob(pieces)):
        assert proc.poll() is None, "the run ended before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    return {p.name: p.stat().st_mtime_ns for p in checkpoints.glob(pieces)}


def _check_killed_run_resumes(args, folder, total_chunks):
    saved = _kill_after_first_chunk(args, folder)
    assert 1 <= len(saved) < total_chunks
    assert not (folder / "manifest.json").exists()  # the outputs come only with the finished run
    for name in saved:  # every chunk file on disk is whole
        with np.load(folder / "checkpoints" / name) as data:
            assert "elapsed_s" in data.files
    resumed = zonesim(*args, "--out", folder, "--resume", "--json")
    assert resumed.returncode == 0, resumed.stderr
    whole = zonesim(*args, "--json")
    assert whole.returncode == 0, whole.stderr
    assert _numbers(resumed.stdout) == _numbers(whole.stdout)
    after = {p.name: p.stat().st_mtime_ns for p in (folder / "checkpoints").glob("chunk-*.npz")}
    assert len(after) == total_chunks and all(after[n] == t for n, t in saved.items())  # kept, not rerun
    assert not list((folder / "checkpoints").glob(".*"))  # no temp file left


def test_killed_journey_resumes_to_the_same_json(tmp_path):
    args = ("journey", "--weapon", "ak47", "--trials", 60_000, "--chunk", 3000, "--seed", 5)
    _check_killed_run_resumes(args, tmp_path / "run", total_chunks=20)


@pytest.mark.slow
def test_killed_journey_of_3_million_campaigns_resumes_to_the_same_json(tmp_path):
    args = ("journey", "--weapon", "ak47", "--trials", 3_000_000, "--seed", 2)
    _check_killed_run_resumes(args, tmp_path / "run", total_chunks=46)


@pytest.mark.slow
def test_killed_whole_game_valuation_resumes_to_the_same_json(tmp_path):
    """``value --out`` keeps the valued kits' outcomes every few seconds; the resumed run
    reads them back, runs the rest and prints the uninterrupted run's JSON."""
    args, folder = ("value", "--quick", "--items", "smoke_bomb", "--seed", 3), tmp_path / "run"
    saved = _kill_after_first_chunk(args, folder, pieces="kits-*.npz")
    assert not (folder / "manifest.json").exists()
    resumed = zonesim(*args, "--out", folder, "--resume", "--json")
    assert resumed.returncode == 0, resumed.stderr
    whole = zonesim(*args, "--json")
    assert whole.returncode == 0, whole.stderr
    runs = [json.loads(p.stdout) for p in (resumed, whole)]
    for run in runs:
        del run["context"]["elapsed_s"]
    assert runs[0] == runs[1]
    after = {p.name: p.stat().st_mtime_ns for p in (folder / "checkpoints").glob("kits-*.npz")}
    assert len(after) > len(saved) and all(after[n] == t for n, t in saved.items())
    assert not list((folder / "checkpoints").glob(".*"))


def test_resume_with_other_options_exits_2(tmp_path):
    folder = tmp_path / "run"
    first = zonesim("journey", "--trials", 200, "--chunk", 100, "--out", folder, "--json")
    assert first.returncode == 0, first.stderr
    for args, expect in ((("--trials", 300, "--chunk", 100), "trials"), (("--trials", 200, "--chunk", 50), "chunk"),
                         (("--trials", 200, "--chunk", 100, "--weapon", "ak47"), "loadout")):
        proc = zonesim("journey", *args, "--out", folder, "--resume")
        assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert expect in proc.stderr and "--resume" in proc.stderr
    again = zonesim("journey", "--trials", 200, "--chunk", 100, "--out", folder, "--resume", "--json")
    assert again.returncode == 0 and _numbers(again.stdout) == _numbers(first.stdout)


@pytest.mark.parametrize("args,expect", [(("--resume",), "--out"), (("--resume", "--out", "{tmp}/none"), "no checkpoints"),
                                         (("--chunk", 0), "--chunk")])
def test_bad_resume_options_exit_2(tmp_path, args, expect):
    proc = zonesim("journey", "--trials", 100, *[str(a).format(tmp=tmp_path) for a in args])
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert expect in proc.stderr


def _square_sums(chunk):
    trials = np.arange(chunk.start, chunk.start + chunk.n)
    return {"sum": np.array([trials.sum(), (trials ** 2).sum()]), "part": np.array([chunk.part])}


def test_chunks_add_up_to_the_whole_and_restart_from_the_store(tmp_path):
    chunks = plan(1000, 64) + plan(10, 3, part=1, first=5)
    assert [c.n for c in chunks[-4:]] == [3, 3, 3, 1] and chunks[-1] == Chunk(1, 14, 1)
    store = Checkpoints(tmp_path, {"run": 1}, resume=False)
    total = run_chunks(_square_sums, chunks[:5], store=store)  # a run that stopped after 5 chunks
    assert total[0]["sum"].tolist() == [sum(range(320)), sum(t * t for t in range(320))]
    seen = []
    resumed = run_chunks(lambda c: seen.append(c) or _square_sums(c), chunks,
                         store=Checkpoints(tmp_path, {"run": 1}, resume=True))
    assert seen == chunks[5:]
    assert resumed[0]["sum"].tolist() == [sum(range(1000)), sum(t * t for t in range(1000))]
    assert resumed[1]["sum"].tolist() == [sum(range(5, 15)), sum(t * t for t in range(5, 15))]
    with pytest.raises(ResumeError, match="run"):
        Checkpoints(tmp_path, {"run": 2}, resume=True)
    Checkpoints(tmp_path, {"run": 2}, resume=False)  # a fresh run clears the old chunks
    assert not list(tmp_path.glob("chunk-*"))


def test_resumed_report_takes_the_finished_steps_and_runs_the_rest(tmp_path, monkeypatch):
    """``report --resume``: a step finished before the kill is read back, not run again."""
    from sim.content import load_content
    from sim.report import study as report_study

    ran = []

    def step(name, fail=False):
        def run(content, study, out):
            ran.append(name)
            if fail:
                raise KeyboardInterrupt
            section = report_study.Section(name)
            section.text(f"{name} on {content.digest[:8]}")
            return section
        return run

    game = load_content()
    store = Checkpoints(tmp_path / "checkpoints", {"run": 1}, resume=False)
    monkeypatch.setattr(report_study, "STEPS", (("first", step("first")), ("second", step("second", fail=True))))
    with pytest.raises(KeyboardInterrupt):
        report_study.run_study(game, tmp_path, quick=True, store=store)
    monkeypatch.setattr(report_study, "STEPS", (("first", step("first")), ("second", step("second"))))
    sections, _ = report_study.run_study(game, tmp_path, quick=True,
                                         store=Checkpoints(tmp_path / "checkpoints", {"run": 1}, resume=True))
    assert ran == ["first", "second", "second"]
    assert [s.title for s in sections] == ["first", "second"]
    assert sections[0].blocks == [("p", f"first on {game.digest[:8]}")]


def test_a_resumed_report_against_a_baseline_measures_neither_side_again(tmp_path, monkeypatch):
    """``report --baseline --resume``: each side's finished group of headline numbers is kept."""
    from sim.compare import baseline, metrics
    from sim.content import load_content

    measured = []
    monkeypatch.setattr(metrics, "measure_group", lambda part, plan, stage: measured.append(part[1]) or [])
    monkeypatch.setattr(baseline, "with_baseline", lambda sections, rows, *rest: rows)
    game = load_content()
    baseline.report_against([], game, game, quick=True, journey_tier="standard",
                            store=Checkpoints(tmp_path, {"run": 1}, resume=False))
    groups = list(measured)
    baseline.report_against([], game, game, quick=True, journey_tier="standard",
                            store=Checkpoints(tmp_path, {"run": 1}, resume=True))
    assert groups and measured == groups  # the resumed report measured nothing again
    assert len(groups) == 2 * len(metrics.make_plan(game, quick=True).groups)
    assert {p.name.split("-")[0] for p in tmp_path.glob("*.pickle")} == {"baseline", "new"}


@pytest.mark.slow
def test_killed_report_resumes_to_the_same_report(tmp_path):
    """A real ``report --quick`` killed by its PID after its first step, resumed, writes the
    uninterrupted report (timings aside) and leaves no checkpoints behind."""
    import re

    folder = tmp_path / "run"
    saved = _kill_after_first_chunk(("report", "--quick", "--threads", 1), folder, pieces="step-*.pickle")
    assert saved and not (folder / "report.md").exists()
    resumed = zonesim("report", "--quick", "--threads", 1, "--out", folder, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    whole = zonesim("report", "--quick", "--threads", 1, "--out", tmp_path / "whole")
    assert whole.returncode == 0, whole.stderr

    def text(path):
        body = (path / "report.md").read_text(encoding="utf-8")
        return re.sub(r"\d+(\.\d+)? s\b", "T s", body.replace(str(path), "OUT"))

    assert text(folder) == text(tmp_path / "whole")
    assert not (folder / "checkpoints").exists()


def _without_timings(stdout):
    """The JSON of a run with every timing (at any depth) left out."""
    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if k not in TIMING}
        return [strip(x) for x in v] if isinstance(v, list) else v
    return strip(json.loads(stdout))


@pytest.mark.parametrize("args,pieces", [
    pytest.param(("value", "-m", "snork", "--weapon", "ak47", "--trials", 4_000_000, "--seed", 3), "kits-*.npz",
                 marks=pytest.mark.slow),
    pytest.param(("value", "--mode", "journey", "--weapon", "ak47", "--trials", 20_000, "--seed", 3), "kits-*.npz",
                 marks=pytest.mark.slow),
    pytest.param(("tune", "-m", "snork", "--weapon", "ak47", "--trials", 4_000_000, "--rounds", 3, "--seed", 3),
                 "kits-*.npz", marks=pytest.mark.slow),
    pytest.param(("encounter", "-m", "snork", "--weapon", "ak47", "--trials", 200_000_000, "--chunk", 2_000_000,
                  "--seed", 3), "fights-*.npz", marks=pytest.mark.slow),
    pytest.param(("loadouts", "--budget", 1500, "-m", "bloodsucker", "--trials", 20_000, "--seed", 3),
                 "loadouts-*.npz", marks=pytest.mark.slow),
])
def test_killed_scenario_valuation_resumes_to_the_same_json(tmp_path, args, pieces):
    """A scenario ``value --out`` or ``tune --out`` keeps every measured kit's
    batches (saved together every few seconds), ``encounter --out`` each chunk
    of fights and ``loadouts --out`` each batch of loadouts; killed by its PID and
    resumed, it prints the uninterrupted run's numbers and reruns none of the
    kept pieces."""
    folder = tmp_path / "run"
    saved = _kill_after_first_chunk(args, folder, pieces=pieces)
    assert not (folder / "manifest.json").exists()
    resumed = zonesim(*args, "--out", folder, "--resume", "--json")
    assert resumed.returncode == 0, resumed.stderr
    whole = zonesim(*args, "--json")
    assert whole.returncode == 0, whole.stderr
    assert _without_timings(resumed.stdout) == _without_timings(whole.stdout)
    after = {p.name: p.stat().st_mtime_ns for p in (folder / "checkpoints").glob(pieces)}
    assert len(after) > len(saved) and all(after[n] == t for n, t in saved.items())
    assert not list((folder / "checkpoints").glob(".*"))


def test_a_resumed_valuation_measures_no_kept_kit_again(tmp_path, monkeypatch):
    """``value --out`` keeps every measured kit's batch sums (``KitStore``); a resumed
    valuation reads them back, measures no kit again and gives the same values (killed
    by its PID mid-run and resumed from the command line: the ``-m slow`` runs above)."""
    from sim.content import load_content
    from sim.economy import outcome
    from sim.economy.context import load_context, scenario
    from sim.economy.value import value_cards

    content = load_content()

    def values(resume):
        store = outcome.KitStore(Checkpoints(tmp_path, {"run": 1}, resume=resume), every_s=0.0)
        context = scenario(content, load_context(content), mode="fight", monsters=["bloodsucker"], budgets=(1500,),
                           trials=20_000, seed=6, store=store)
        return value_cards(context).to_json()["items"]

    first = values(resume=False)
    assert list(tmp_path.glob("kits-*.npz"))
    monkeypatch.setattr(outcome, "survival_sums", lambda *args: pytest.fail("a kept kit was measured again"))
    assert values(resume=True) == first
