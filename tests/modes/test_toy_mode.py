"""A mode is five files: the toy mode of ``tests/modes/toy/`` (content, kernel,
reference, strategy and its ``Mode`` record) is registered and, with no edit
anywhere else, its headline numbers appear in ``zonesim compare``, the
explorer, the report and ``zonesim balance``, and ``zonesim validate`` checks
its file. (It keeps the mode contract in ``test_mode_contract.py``.)"""

import json
import os
import shutil
from pathlib import Path

import pytest

from sim.run.headline import LAST
from sim.content import DEFAULT_DIR, load_content
from sim.modes import MODES, register
from tests.conftest import zonesim, zonesim_json
from tests.modes.toy import mode as toy

TOY_FILES = {"toy.toml", "kernel.py", "reference.py", "strategy.py", "mode.py"}


def no_newer():
    """The check of a run nobody interrupts."""


@pytest.fixture
def toy_mode():
    register(toy.TOY)
    yield toy.TOY
    MODES.pop(toy.TOY.name)


def toy_content(tmp_path, goal):
    """The default content with a toy.toml whose goal is ``goal``."""
    folder = tmp_path / f"goal{goal}"
    shutil.copytree(DEFAULT_DIR, folder)
    text = (Path(toy.__file__).parent / "toy.toml").read_text(encoding="utf-8")
    (folder / "toy.toml").write_text(text.replace("goal = 40", f"goal = {goal}"), encoding="utf-8")
    return folder


def test_the_toy_mode_is_five_files():
    assert {p.name for p in Path(toy.__file__).parent.iterdir() if p.is_file()} == TOY_FILES


def test_compare_measures_the_toy_and_finds_an_easier_goal(toy_mode, tmp_path):
    """Goal 40 -> 36 points: banking at 8 wins more often, clear of the noise; banking at 20 (pots of
    20..25) needs two pots either way, so on the same dice nothing moves: exactly 0 with [0, 0]."""
    out = zonesim_json("compare", str(toy_content(tmp_path, 40)), str(toy_content(tmp_path, 36)), "--quick", "--only",
                       "toy")
    rows = {m["name"]: m for m in out["metrics"]}
    assert set(rows) == {"toy_win.careful", "toy_win.bold"}
    careful, bold = rows["toy_win.careful"], rows["toy_win.bold"]
    assert careful["diff"] > 0 and careful["diff_ci95"][0] > 0 and careful["significant"], careful
    assert bold["diff"] == 0 and bold["diff_ci95"] == [0, 0] and not bold["significant"], bold
    assert out["content_diff"] == [{"file": "toy.toml", "key": "game.goal", "base": 40, "new": 36}]


def test_the_explorer_measures_the_toy_stage_by_stage(toy_mode):
    from sim.explore.measure import Measurer, group_names
    from sim.explore.page import group_titles

    assert group_names()[-2:] == ("toy", "values") and group_titles()["toy"] == "Toy: P(win) by strategy"
    measurer = Measurer(DEFAULT_DIR, quick=True)
    group = measurer.group(measurer.base, "toy", no_newer)
    trials = []
    for stage in range(LAST + 1):
        group.advance(stage, no_newer)
        trials.append(group.trials(stage))
    assert trials == sorted(trials) and trials[-1] == 4000  # toy.toml's quick count per strategy
    careful, bold = (r.measured.value for r in group.read(LAST))
    assert careful < bold  # goal 40 in 5 turns asks 8 points a turn: banking at 8 rarely gets there


def test_the_report_has_a_section_of_the_toys_numbers(toy_mode, tmp_path):
    from sim.report.study import load_study, steps, write_report

    label, step = steps()[-1]
    assert label == "toy"
    content = load_content(DEFAULT_DIR)
    section = step(content, load_study(content, quick=True), tmp_path)
    write_report(tmp_path, [section], {"title": "t", "intro": "i"})
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "## Toy: P(win) by strategy" in text and "toy_win.careful" in text and "toy_win.bold" in text
    assert (tmp_path / "toy_headline.parquet").is_file()


def test_sensitivity_swings_the_toys_goal_on_any_of_its_headline_numbers(toy_mode, tmp_path):
    """``--metric toy_win.careful``: a headline number of the toy's group; its one assumed number,
    the goal, swung 40 -> 39 and 41 on the same dice: an easier goal wins more, a harder one less."""
    out = zonesim_json("sensitivity", "--quick", "--metric", "toy_win.careful", "--files", "toy.toml", "--content",
                       toy_content(tmp_path, 40))
    assert out["metric"] == "toy_win.careful" and 0 < out["base_value"] < 1
    (goal,) = out["parameters"]
    assert (goal["key"], goal["low"], goal["high"]) == ("game.goal", 39, 41)
    assert goal["effect_low_ci95"][0] > 0 > goal["effect_high_ci95"][1], goal


def test_validate_checks_the_toys_file_through_its_loader(toy_mode, tmp_path):
    folder = toy_content(tmp_path, 40)
    text = (folder / "toy.toml").read_text(encoding="utf-8")
    (folder / "toy.toml").write_text(text.replace("bust_face = 1", "bust_face = 7"), encoding="utf-8")
    proc = zonesim("validate", str(folder))
    assert proc.returncode == 2 and "toy.toml: game.bust_face: 7 is not a face of a 6-sided die" in proc.stderr


def test_balance_tunes_the_toys_goal_into_a_band(toy_mode, tmp_path):
    """A target on the toy's headline number and a knob on its goal: the proposals bring banking
    at 8 points from 23% to a win in at least half the games, by lowering the goal."""
    folder = toy_content(tmp_path, 40)
    spec = tmp_path / "balance.toml"
    spec.write_text('[search]\nbudget = 12\nseed = 1\n\n[[target]]\nmetric = "toy_win.careful"\nband = [0.5, 0.9]\n\n'
                    '[[knob]]\nfile = "toy.toml"\nkey = "game.goal"\nbounds = [16, 40]\nstep = 2\n', encoding="utf-8")
    out = zonesim_json("balance", str(spec), "--content", str(folder), "--quick")
    best = out["proposals"][0]
    goal_from, goal_to = best["changes"]["toy.toml:game.goal"]
    assert out["baseline"]["met"] == 0 and goal_from == 40 and goal_to < 40 and best["met"] == 1, best
    assert best["targets"]["toy_win.careful"]["diff_ci95"][0] > 0


def test_an_installed_package_registers_the_toy_for_every_process(tmp_path):
    """An entry point of the group ``zonesim.modes`` (here a bare ``.dist-info`` on the path)
    registers the toy when ``sim.modes`` is imported: a new ``zonesim`` process lists it among the
    modes ``zonesim play`` runs and compares it."""
    site = tmp_path / "site"
    info = site / "zonesim_toy-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: zonesim-toy\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[zonesim.modes]\ntoy = tests.modes.toy.mode:TOY\n", encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(root)])}
    base, new = toy_content(tmp_path, 40), toy_content(tmp_path, 36)
    proc = zonesim("compare", base, new, "--quick", "--only", "toy", "--json", cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    assert {m["name"] for m in json.loads(proc.stdout)["metrics"]} == {"toy_win.careful", "toy_win.bold"}
    listed = zonesim("play", cwd=tmp_path, env=env)
    assert listed.returncode == 0 and listed.stdout.splitlines()[-1].split()[:3] == ["toy", "zonesim", "play"]


def exact_p_win(rules: dict, stop_at: int) -> float:
    """P(win) of a player banking at ``stop_at``, by enumeration: each turn's pot is a Markov
    chain on the points rolled so far, and the turns add independent pots."""
    sides, bust = rules["sides"], rules["bust_face"]
    pot = {}

    def settle(points, p):
        if points >= stop_at:
            pot[points] = pot.get(points, 0.0) + p
            return
        pot[0] = pot.get(0, 0.0) + p / sides
        for face in range(1, sides + 1):
            if face != bust:
                settle(points + face, p / sides)

    settle(0, 1.0)
    banked = {0: 1.0}
    for _turn in range(rules["turns"]):
        after = {}
        for total, p in banked.items():
            for points, q in pot.items():
                after[total + points] = after.get(total + points, 0.0) + p * q
        banked = after
    return sum(p for total, p in banked.items() if total >= rules["goal"])


def test_zonesim_play_gives_the_toys_numbers_in_their_context(toy_mode, tmp_path):
    """``zonesim play toy``: 100,000 games per player on one seed; P(win) within 4 standard errors
    of the exact answer, its 95% interval covering it; the same seed gives the same numbers, and
    ``--out`` writes them with the run's context (a resumed run reads the same)."""
    rules = toy.load_toy(load_content(DEFAULT_DIR))["game"]
    for name, stop_at in (("careful", 8), ("bold", 20)):
        out = zonesim_json("play", "toy", "--strategy", name, "--trials", "100000", "--seed", "5")
        won, exact = out["measures"]["p_win"], exact_p_win(rules, stop_at)
        p, (lo, hi) = won["value"], won["ci95"]
        assert abs(p - exact) < 4 * (exact * (1 - exact) / 100_000) ** 0.5 and lo < exact < hi, (name, p, exact)
        assert (out["mode"], out["strategy"], out["trials"], out["seed"]) == ("toy", name, 100_000, 5)
    folder = tmp_path / "run"
    first = zonesim_json("play", "toy", "--trials", "30000", "--out", folder)
    again = zonesim_json("play", "toy", "--trials", "30000", "--out", folder, "--resume")
    assert first == again
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["summary"]["measures"] == first["measures"] and manifest["trials"] == 30_000
    import polars as pl

    table = pl.read_parquet(folder / "toy.parquet")
    assert table["metric"].to_list() == ["p_win", "mean_banked", "mean_rolls"]
    assert table["value"].to_list() == [m["value"] for m in first["measures"].values()]


@pytest.mark.parametrize("args, message", [
    (("play", "toy", "--trials", "0"), "--trials: 0; give at least 1 game"),
    (("play", "toy", "--strategy", "reckless"), "--strategy: unknown strategy 'reckless'; built in: careful, bold"),
    (("play", "chess"), "MODE: unknown mode 'chess'; registered: fight, duel"),
    (("play", "journey"), "MODE: journey is played by `zonesim journey`"),
])
def test_zonesim_play_refuses_bad_input_in_one_line(toy_mode, args, message):
    proc = zonesim(*args)
    assert proc.returncode == 2 and message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_the_api_plays_any_mode_by_name_and_refuses_a_scenario_the_toy_has_not(toy_mode):
    from sim import api
    from sim.errors import ZonesimError

    assert api.run("toy", trials=5_000, seed=2) == api.run("toy", strategy="careful", trials=5_000, seed=2)
    assert api.run("journey", strategy="cautious", trials=2_000, seed=2).probabilities == \
        api.journey(strategy="cautious", trials=2_000, seed=2).probabilities
    with pytest.raises(ZonesimError, match="monster: mode 'toy' takes no scenario options"):
        api.run("toy", monster="snork")
