"""``zonesim compare``: the content diff, paired intervals on common dice
(identical content gives exactly 0 with [0, 0]; a tougher bloodsucker moves
only the bloodsucker's fights, with intervals clear of 0) and bad input."""

import math
import shutil

import numpy as np
import polars as pl
import pytest

from sim.compare.diff import content_diff, diff_lines
from sim.run.headline import Measured
from sim.compare.metrics import paired, paired_interval
from sim.content import DEFAULT_DIR
from tests.conftest import edited_content, zonesim, zonesim_json

TOUGHER = ("monsters.toml", '[bloodsucker]\nname = "Bloodsucker"\nhp = 20', '[bloodsucker]\nname = "Bloodsucker"\nhp = 30')


@pytest.fixture(scope="module")
def tougher(tmp_path_factory):
    return edited_content(tmp_path_factory.mktemp("compare"), *TOUGHER)


def test_content_diff_lists_exactly_the_changed_field(tougher, tmp_path):
    assert content_diff(DEFAULT_DIR, tougher) == [
        {"file": "monsters.toml", "key": "bloodsucker.hp", "base": 20, "new": 30}]
    copy = shutil.copytree(DEFAULT_DIR, tmp_path / "copy")
    assert content_diff(DEFAULT_DIR, copy) == []
    (copy / "monsters.toml").write_text((copy / "monsters.toml").read_text() + "\n[rat]\nhp = 2\n")
    assert [(d["key"], d["base"], d["new"]) for d in content_diff(DEFAULT_DIR, copy)] == [("rat.hp", None, 2)]


def test_diff_lines_name_a_new_file_once_and_a_grid_by_its_changed_rows(tmp_path):
    copy = shutil.copytree(DEFAULT_DIR, tmp_path / "copy")
    zone = (copy / "maps" / "zone.toml").read_text(encoding="utf-8")
    (copy / "maps" / "flooded.toml").write_text(zone, encoding="utf-8")
    road = "S S F F F F F R F F F W W W F F F M M M"
    (copy / "maps" / "zone.toml").write_text(zone.replace(road, road.replace("F R", "S S")), encoding="utf-8")
    assert diff_lines(content_diff(DEFAULT_DIR, copy), DEFAULT_DIR, copy) == [
        "maps/flooded.toml: a new file (5 fields)",
        f"maps/zone.toml  map.terrain row 9: {road!r} -> {road.replace('F R', 'S S')!r}"]


def test_tougher_bloodsucker_moves_only_its_fights(tougher, tmp_path):
    out = zonesim_json("compare", DEFAULT_DIR, tougher, "--quick", "--only", "fights", "--out", tmp_path / "o")
    assert out["content_diff"] == [{"file": "monsters.toml", "key": "bloodsucker.hp", "base": 20, "new": 30}]
    rows = {m["name"]: m for m in out["metrics"]}
    assert len(rows) == 7 * 4
    moved = rows["fight_survival.bloodsucker.standard"]  # 0.83 before: well inside (0, 1)
    assert moved["significant"] and moved["diff_ci95"][1] < 0 < moved["base"] - moved["new"]
    for name, m in rows.items():
        if ".bloodsucker." not in name:
            assert m["diff"] == 0 and m["diff_ci95"] == [0, 0], name
        else:  # harder to beat: never a gain on the same dice
            assert m["diff"] <= 0, name
    assert out["metrics"][0]["name"] == "fight_survival.bloodsucker.standard"  # significant first
    table = pl.read_parquet(tmp_path / "o" / "compare.parquet")
    assert table.height == 28 and table["significant"].sum() >= 1
    assert pl.read_parquet(tmp_path / "o" / "content_diff.parquet")["key"].to_list() == ["bloodsucker.hp"]
    assert (tmp_path / "o" / "charts" / "compare.png").stat().st_size > 10_000
    kept = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "o" / "checkpoints").glob("*.pickle")}
    assert set(kept) == {"base-fights.pickle", "new-fights.pickle"}
    (tmp_path / "o" / "checkpoints" / "new-fights.pickle").unlink()  # killed before NEW's fights were done
    again = zonesim_json("compare", DEFAULT_DIR, tougher, "--quick", "--only", "fights", "--out", tmp_path / "o",
                         "--resume")
    assert again == out
    after = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "o" / "checkpoints").glob("*.pickle")}
    assert after["base-fights.pickle"] == kept["base-fights.pickle"] and "new-fights.pickle" in after


def test_same_content_twice_gives_exact_zeros(tmp_path):
    copy = shutil.copytree(DEFAULT_DIR, tmp_path / "copy")
    out = zonesim_json("compare", DEFAULT_DIR, copy, "--quick", "--only", "fights,journeys,skirmish,stalkeriada")
    assert out["content_diff"] == []
    names = [m["name"] for m in out["metrics"]]
    assert {"journey_finish.standard", "journey_days.elite", "skirmish_win.kite", "stalkeriada_win.jelly",
            "stalkeriada_no_winner", "stalkeriada_rounds"} <= set(names)
    for m in out["metrics"]:
        assert m["diff"] == 0 and m["diff_ci95"] == [0, 0] and not m["significant"], m


@pytest.mark.slow
def test_same_content_twice_every_headline_number_including_item_values(tmp_path):
    copy = shutil.copytree(DEFAULT_DIR, tmp_path / "copy")
    out = zonesim_json("compare", DEFAULT_DIR, copy, "--quick")
    assert any(m["name"] == "item_value_g.ak47" for m in out["metrics"])
    assert all(m["diff"] == 0 and m["diff_ci95"] == [0, 0] for m in out["metrics"] if m["diff"] is not None)


def test_paired_intervals_batches_and_bootstrap_replicas():
    rng = np.random.default_rng(3)
    b = rng.random(20)
    base, new = Measured("a", "p", b.mean(), b), Measured("a", "p", (b + 0.1).mean(), b + 0.1)
    diff, lo, hi = paired_interval(base, new)
    assert diff == pytest.approx(0.1) and lo == pytest.approx(0.1) and hi == pytest.approx(0.1)
    noisy = b + 0.1 + rng.normal(0, 0.01, 20)
    diff, lo, hi = paired_interval(base, Measured("a", "p", noisy.mean(), noisy))
    assert lo < diff < hi and lo > 0.09 and hi < 0.11
    reps = rng.random(400)
    same = paired_interval(Measured("v", "G", 5.0, replicas=reps), Measured("v", "G", 5.0, replicas=reps.copy()))
    assert same == (0.0, 0.0, 0.0)
    _, lo, hi = paired_interval(Measured("v", "G", 5.0, replicas=reps), Measured("v", "G", 7.0, replicas=reps + 2))
    assert lo == pytest.approx(2) and hi == pytest.approx(2)
    _, lo, _ = paired_interval(Measured("v", "G", 5.0, replicas=reps), Measured("v", "G", math.inf,
                                                                                 replicas=reps + math.inf))
    assert math.isnan(lo)


def test_paired_sorts_significant_by_size_and_keeps_one_sided_metrics():
    flat = np.zeros(20)
    rows = paired([Measured("p1", "p", 0.5, flat + 0.5), Measured("days", "days", 10.0, flat + 10),
                   Measured("gone", "p", 0.1, flat)],
                  [Measured("p1", "p", 0.52, flat + 0.52), Measured("days", "days", 12.0, flat + 12),
                   Measured("added", "G", 3.0, replicas=flat)])
    assert [r["name"] for r in rows[:2]] == ["days", "p1"]  # 20% of the base before 2 percentage points
    assert rows[0]["significant"] and rows[1]["significant"]
    assert {r["name"]: r["diff"] for r in rows[2:]} == {"gone": None, "added": None}


@pytest.mark.parametrize("args, message", [
    (("/no/such/folder", DEFAULT_DIR), "folder not found"),
    ((DEFAULT_DIR, "{tmp}"), "not a content folder"),
    ((DEFAULT_DIR, DEFAULT_DIR, "--only", "fights,duels"), "'duels' is not a group"),
])
def test_bad_input_gets_one_line_and_exit_2(tmp_path, args, message):
    proc = zonesim("compare", *(str(a).format(tmp=tmp_path) for a in args))
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("zonesim: error:") and message in lines[0], proc.stderr


def test_baseline_columns_and_diff_section():
    from sim.compare.baseline import COLUMN, with_baseline
    from sim.report.study import Section

    def row(name, diff, lo, hi):
        return {"name": name, "unit": "p", "base": 0.5, "new": 0.5 + diff, "diff": diff, "diff_ci95": [lo, hi],
                "significant": lo > 0 or hi < 0, "size": abs(diff) * 100}

    rows = [row("journey_finish.standard", -0.1, -0.12, -0.08), row("skirmish_win.hold", 0.0, 0.0, 0.0),
            row("fight_survival.bloodsucker.standard", -0.5, -0.51, -0.49)]
    journeys, skirmish, fights = Section("Journeys on the default map"), Section("Tactical skirmishes"), \
        Section("Fights: survival by monster and loadout tier")
    journeys.table(pl.DataFrame({"measure": ["p_complete", "p_no_death"], "value": [0.4, 0.9]}), "Completion")
    skirmish.table(pl.DataFrame({"strategy": ["hold"], "p_survive": [0.3], "mean_rounds": [4.0]}), "By strategy")
    diff = [{"file": "monsters.toml", "key": "bloodsucker.hp", "base": 20, "new": 30}]
    out = with_baseline([fights, journeys, skirmish], rows, diff, "base/", "standard")
    assert out[0].title == "Changes from the baseline"
    tables = [b[1] for b in out[0].blocks if b[0] == "table"]
    assert tables[0].row(0) == ("monsters.toml", "bloodsucker.hp", "20", "30")
    assert tables[1]["metric"].to_list() == ["journey_finish.standard", "fight_survival.bloodsucker.standard"]
    assert journeys.blocks[0][1][COLUMN].to_list() == ["-0.1000 [-0.1200, -0.0800] *", None]
    assert skirmish.blocks[0][1][COLUMN].to_list() == ["+0.0000 [+0.0000, +0.0000]"]
    assert fights.blocks[-1][1].row(0, named=True)["monster"] == "bloodsucker"


@pytest.mark.slow
def test_report_against_a_baseline(tougher, tmp_path):
    proc = zonesim("report", "--quick", "--content", tougher, "--baseline", DEFAULT_DIR, "--out", tmp_path / "r")
    assert proc.returncode == 0, proc.stderr
    md = (tmp_path / "r" / "report.md").read_text()
    assert md.index("## Changes from the baseline") < md.index("## Item economy")
    assert "| monsters.toml | bloodsucker.hp | 20 | 30 |" in md and "| vs baseline |" in md
    assert (tmp_path / "r" / "content" / "monsters.toml").read_text() == (tougher / "monsters.toml").read_text()
