"""``zonesim sensitivity``: every assumed number of monsters.toml and rules.toml
is swung to its range, each effect measured on common dice with a paired
interval; declared ranges and the defaults; edits keep the file; bad input."""

import shutil

import pytest

from sim.compare.diff import content_diff
from sim.compare.sensitivity import Parameter, assumed_parameters, default_range, set_value, swung
from sim.content import DEFAULT_DIR, load_content
from sim.content.load import ContentError
from tests.conftest import edit_file, zonesim, zonesim_json


def _assumed_keys(files):
    content = load_content()
    return {tuple(a.split(": ", 1)) for a in content.assumed_fields() if a.split(": ", 1)[0] in files}


def test_parameters_are_every_assumed_number_of_the_bestiary_and_rules():
    params = assumed_parameters(DEFAULT_DIR, ["monsters.toml", "rules.toml"])
    assert {(p.file, p.key) for p in params} == _assumed_keys(("monsters.toml", "rules.toml"))
    by_key = {p.key: p for p in params}
    assert (by_key["bloodsucker.hp"].low, by_key["bloodsucker.hp"].high) == (19, 21)  # one step either way
    assert (by_key["blind_dog.bonus"].low, by_key["blind_dog.bonus"].high) == (0, 1)  # not below the schema minimum 0
    assert (by_key["stalker.start_money"].low, by_key["stalker.start_money"].high) == (500, 1500)  # declared
    assert (by_key["skill.extra_one_fails"].low, by_key["skill.extra_one_fails"].high) == (False, True)
    every = assumed_parameters(DEFAULT_DIR)
    assert not any(p.key.endswith(".price") for p in every)  # prices are tune's
    assert {"journey.toml", "skirmish.toml", "stalkeriada.toml", "items.toml"} <= {p.file for p in every}


def test_default_ranges():
    assert default_range(2, 1) == (1, 3) and default_range(1, 1) == (1, 2) and default_range(0, None) == (0, 1)
    assert default_range(-2, None) == (-3, -1)
    assert default_range(0.5, 0.0) == (0.375, 0.625)
    assert default_range(True, None) == (False, True)


def test_a_swing_changes_exactly_one_field_and_keeps_comments(tmp_path):
    target = swung(DEFAULT_DIR, tmp_path / "c", Parameter("rules.toml", "fight.max_rounds", 30, 29, 31), 31)
    assert content_diff(DEFAULT_DIR, target) == [{"file": "rules.toml", "key": "fight.max_rounds", "base": 30,
                                                   "new": 31}]
    assert "max_rounds = 31          # Z-38 [A]" in (target / "rules.toml").read_text()
    text = "top = 1\n[a]\nx = 1 # c\n[[g]]\nw = 2\n[[g]]\nw = 3\nflag = false\n"
    assert set_value(text, "g[1].w", 4) == "top = 1\n[a]\nx = 1 # c\n[[g]]\nw = 2\n[[g]]\nw = 4\nflag = false\n"
    assert set_value(text, "top", 0.5).startswith("top = 0.5\n")
    assert set_value(text, "g[1].flag", True).endswith("flag = true\n")


def test_declared_ranges_are_checked(tmp_path):
    folder = shutil.copytree(DEFAULT_DIR, tmp_path / "c")
    edit_file(folder, "monsters.toml", 'name = "Snork"\n', 'name = "Snork"\nranges = { hp = [10, 20] }\n')
    assert next(p for p in assumed_parameters(folder, ["monsters.toml"]) if p.key == "snork.hp").high == 20
    edit_file(folder, "monsters.toml", "ranges = { hp = [10, 20] }", "ranges = { name = [1, 2] }")
    with pytest.raises(ContentError, match=r"monsters.toml: snork.ranges: must give assumed fields"):
        load_content(folder)


def test_every_assumed_number_of_monsters_and_rules_gets_two_effects(tmp_path):
    out = zonesim_json("sensitivity", "--quick", "--metric", "fight_survival", "--files", "monsters.toml,rules.toml",
                       "--out", tmp_path / "o")
    assert out["metric"] == "fight_survival" and 0 < out["base_value"] < 1
    rows = {(r["file"], r["key"]): r for r in out["parameters"]}
    assert set(rows) == _assumed_keys(("monsters.toml", "rules.toml"))
    for r in rows.values():
        for side in ("low", "high"):
            lo, hi = r[f"effect_{side}_ci95"]
            assert lo <= r[f"effect_{side}"] <= hi, r
    tougher = rows[("monsters.toml", "bloodsucker.dice")]  # 2 -> 3 dice: clearly deadlier on the same dice
    assert tougher["effect_high_ci95"][1] < 0 < tougher["effect_low_ci95"][0]
    skill = rows[("rules.toml", "skill.extra_one_fails")]  # K-03 plays no part in a fight: exactly nothing
    assert skill["effect_high"] == 0 and skill["effect_high_ci95"] == [0, 0]
    swings = [abs(r["effect_high"] - r["effect_low"]) for r in out["parameters"]]
    assert swings == sorted(swings, reverse=True)
    assert (tmp_path / "o" / "charts" / "tornado.png").stat().st_size > 10_000
    assert (tmp_path / "o" / "sensitivity.parquet").is_file()
    kept = tmp_path / "o" / "checkpoints"
    swings = {p.name: p.stat().st_mtime_ns for p in kept.glob("swing-*.npz")}
    assert "base.npz" in {p.name for p in kept.glob("*.npz")} and len(swings) >= len(rows)
    lost = sorted(swings)[-1]
    (kept / lost).unlink()  # killed before its last swing was measured
    again = zonesim_json("sensitivity", "--quick", "--metric", "fight_survival", "--files", "monsters.toml,rules.toml",
                         "--out", tmp_path / "o", "--resume")
    assert again == out
    after = {p.name: p.stat().st_mtime_ns for p in kept.glob("swing-*.npz")}
    assert set(after) == set(swings) and all(after[n] == t for n, t in swings.items() if n != lost)


@pytest.mark.parametrize("args, message", [
    (("--metric", "fun"), "unknown metric 'fun'"),
    (("--metric", "skirmish_win.nosuch"), "the headline numbers of skirmish: skirmish_win.hold, skirmish_win.kite"),
    (("--content", "/no/such/folder"), "folder not found"),
    (("--content", "{tmp}"), "not a content folder"),
    (("--files", "bestiary.toml"), "bestiary.toml not in"),
])
def test_bad_input_gets_one_line_and_exit_2(tmp_path, args, message):
    proc = zonesim("sensitivity", "--quick", *(str(a).format(tmp=tmp_path) for a in args))
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("zonesim: error:") and message in lines[0], proc.stderr
