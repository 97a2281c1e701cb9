"""``zonesim skirmish`` from the shell: JSON with intervals, tables and charts
on disk, replays, golden replays, same seed same numbers, a user's strategy,
and one clear line with exit 2 for bad input."""

import json
import shlex

import polars as pl
import pytest

from tests.conftest import DATA, edited_content, zonesim, zonesim_json

REPLAYS = DATA / "skirmish_replays"


def _json(*args):
    return zonesim_json("skirmish", *args)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("sk") / "run"
    return _json("--trials", 4000, "--seed", 2, "--out", out), out


def test_json_reports_outcomes_and_means_with_intervals(written):
    data, _ = written
    assert data["trials"] == 4000 and data["fighters"] == ["novice", "bloodsucker", "blind_dog"]
    assert data["p_win"] + data["p_loss"] + data["p_draw"] == pytest.approx(1)
    assert data["p_survive"] <= data["p_win"] + data["p_draw"] + 1e-12
    for key, (lo, hi) in data["ci95"].items():
        assert lo <= data[key.removeprefix("mean_") if key.startswith("p_") else key] <= hi, key
    assert data["mean_hits"] <= data["mean_shots"] and data["mean_illegal"] == 0
    assert data["mean_ap_shoot"] > 0 and data["mean_rounds"] >= 1


def test_out_writes_tables_charts_and_a_distance_and_terrain_sweep(written):
    _, out = written
    manifest = json.loads((out / "manifest.json").read_text())
    for name in manifest["files"]:
        assert (out / name).is_file(), name
    sweep = pl.read_parquet(out / "skirmish_sweep.parquet")
    assert sorted(set(sweep["terrain"])) == [1, 2, 3] and sweep["distance"].n_unique() >= 3
    assert ((sweep["ci_low"] <= sweep["p_survive"]) & (sweep["p_survive"] <= sweep["ci_high"])).all()
    ap = pl.read_parquet(out / "skirmish_ap.parquet")
    assert ap["kind"].to_list()[0] == "move" and ap["share"].sum() == pytest.approx(1)


def test_same_seed_same_numbers_for_any_thread_count():
    one = _json("--trials", 3000, "--seed", 4, "--threads", "1", "--strategy", "kite")
    two = _json("--trials", 3000, "--seed", 4, "--threads", "2", "--strategy", "kite")
    for key in one:
        if key not in ("elapsed_s", "skirmishes_per_s"):
            assert one[key] == two[key], key


@pytest.mark.parametrize("path", sorted(REPLAYS.glob("*.txt")), ids=lambda p: p.stem)
def test_golden_replays_replay_the_same_way(path):
    """Regenerate with ``python tests/data/skirmish_replays/regenerate.py``."""
    text = path.read_text(encoding="utf-8")
    args = shlex.split(text.splitlines()[0].removeprefix("# zonesim "))
    proc = zonesim(*args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == text.split("\n", 1)[1]


def test_replay_shows_turns_with_positions_facings_ap_and_rolls():
    proc = zonesim("skirmish", "--replay", "1", "--seed", 3, "--arena-size", 12, "--distance", 5)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("r1 ") and "manoeuvre" in lines[0]
    assert any("rolled" in line and "%" in line for line in lines)
    assert all("AP" in line and "facing" in line for line in lines[:-1])
    assert lines[-1].startswith("-> ")


def test_a_users_strategy_plugs_in(tmp_path):
    bot = tmp_path / "bots.py"
    bot.write_text(
        "from numba import njit\n"
        "from sim.kernels.skirmish import DECISION, END, KEEP, MANOEUVRE, M_ALL_OUT_DEFENCE, H_MAN, M_NONE, code\n"
        "from strategies.skirmish import SkirmishStrategy\n"
        "@njit(DECISION)\n"
        "def turtle(g, i):\n"
        "    if g[H_MAN] == M_NONE:\n"
        "        return code(MANOEUVRE, M_ALL_OUT_DEFENCE, 0)\n"
        "    return code(END, KEEP, 0)\n"
        "TURTLE = SkirmishStrategy('turtle', 'never shoots', turtle)\n")
    data = _json("--trials", 500, "--strategy", f"{bot}:TURTLE")
    assert data["strategy"] == "turtle" and data["p_win"] == 0 and data["mean_shots"] == 0
    assert data["mean_ap_defend"] > 0


def _fails(*args, expect):
    proc = zonesim("skirmish", *args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert expect in lines[0], lines[0]


@pytest.mark.parametrize("args,expect", [
    (("--trials", 0), "--trials"),
    (("--monster", "poltergeist"), "poltergeist"),
    (("--party", "novice:ak47,plasma_gun"), "plasma_gun"),
    (("--party", "novice:ak47,kvazar"), "two firearms"),
    (("--party", "novice:vest"), "no firearm"),
    (("--party", "novice:ak47,medkit"), "medkits"),
    (("--party", "novice:ak47,rebored*x"), "count"),
    (("--party", "ghost:ak47"), "ghost"),
    (("--party", "novice:ak47,rifling"), "rifling"),
    (("--strategy", "berserk"), "berserk"),
    (("--arena-size", 1), "--arena-size"),
    (("--arena-size", 6, "--distance", 9), "off the"),
    (("--distance", 0), "--distance"),
    (("--replay", -1), "--replay"),
    (("--arena-size", 8, "--arena", "x.toml"), "one of them"),
])
def test_bad_input_gets_one_line_and_exit_2(args, expect):
    _fails(*args, expect=expect)


def test_bad_arena_and_content_files_name_the_file_and_field(tmp_path):
    arena = tmp_path / "arena.toml"
    arena.write_text('[map]\nterrain = """\nF F\nF Q\n"""\n')
    _fails("--arena", arena, expect="unknown letter 'Q'")
    arena.write_text('[map]\nterrain = """\nF F F\nF F\n"""\n')
    _fails("--arena", arena, expect="row 1 has 2 hexes")
    arena.write_text("[map\n")
    _fails("--arena", arena, expect="malformed TOML")
    _fails("--arena", tmp_path / "none.toml", expect="none.toml")
    blocked = tmp_path / "blocked.toml"
    blocked.write_text('[map]\nterrain = """\n' + "\n".join(["F F F F F"] * 2 + ["F F X F F"] + ["F F F F F"] * 2)
                       + '\n"""\n')
    _fails("--arena", blocked, expect="blocking object")
    bad = edited_content(tmp_path, "skirmish.toml", "shot_ap = 4 ", "shot_ap = -4 ")
    _fails("--content", bad, expect="rules.shot_ap")
    bad = edited_content(tmp_path, "skirmish.toml", "[monsters.boar]", "[monsters.bore]", name="c2")
    _fails("--content", bad, expect="monsters.bore")


def test_validate_counts_the_skirmish_assumptions():
    proc = zonesim("validate")
    assert proc.returncode == 0 and "skirmish" in proc.stdout


def test_strategies_lists_the_skirmish_strategies():
    proc = zonesim("strategies")
    assert proc.returncode == 0
    for name in ("hold", "kite", "rush", "beast"):
        assert name in proc.stdout
