"""`zonesim route` end to end: the JSON contract and bad input (Z-25, Z-26, Z-34..Z-36)."""

import json
import re
import shutil

import pytest

from sim.content import DEFAULT_DIR
from tests.conftest import zonesim


def test_route_json_contract():
    """Cordon to Bar: 9 road hexes of cost 1 -> 9 steps, 2 days of 6 (Z-34, Z-36)."""
    proc = zonesim("route", "--from", "cordon", "--to", "bar", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == {"days", "steps", "path"}
    assert out["days"] == 2 and out["steps"] == 9 and len(out["path"]) == 10
    assert out["path"][0] == [4, 14] and out["path"][-1] == [9, 8]


def test_z25_jetpack_makes_it_one_day():
    proc = zonesim("route", "--from", "4,14", "--to", "9,8", "--item", "jetpack", "--json")
    assert json.loads(proc.stdout)["days"] == 1


@pytest.mark.parametrize("args,fragment", [
    (("--from", "4,14", "--to", "99,2"), "off the map"),
    (("--from", "moon", "--to", "bar"), "neither COL,ROW nor a base or site"),
    (("--from", "4,x", "--to", "bar"), "is not COL,ROW"),
    (("--from", "cordon", "--to", "bar", "--item", "helmet"), "not a movement item"),
    (("--from", "cordon", "--to", "bar", "--map", "no_such_map.toml"), "no_such_map.toml"),
])
def test_route_bad_input_is_one_line_exit_2(args, fragment):
    proc = zonesim("route", *args)
    assert proc.returncode == 2
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("zonesim: error:") and fragment in lines[0]
    assert "Traceback" not in proc.stderr


def test_unreachable_hex_is_one_line_exit_2(tmp_path):
    """A goal walled in by a terrain costing more than any day's steps is refused (Z-35)."""
    content = tmp_path / "content"
    assert zonesim("content", "init", content).returncode == 0
    with open(content / "terrain.toml", "a") as f:
        f.write('\n[wall]\nletter = "Z"\ncost = 12\n')
    walled = tmp_path / "walled.toml"
    walled.write_text('[map]\nterrain = """\nR R Z R\nR R Z R\nR R Z R\n"""\n'
                      '[[bases]]\nid = "a"\nat = [0, 0]\n[[bases]]\nid = "b"\nat = [1, 2]\n')
    proc = zonesim("route", "--content", content, "--map", walled, "--from", "a", "--to", "3,1")
    assert proc.returncode == 2 and "cannot be reached" in proc.stderr
    assert len([line for line in proc.stderr.splitlines() if line.strip()]) == 1


def test_movement_item_with_no_movement_items_in_the_content_says_what_to_do(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(DEFAULT_DIR, content)
    items = content / "items.toml"
    items.write_text(re.sub(r"(?ms)^\[movement\.\w+\].*?(?=^\[)", "", items.read_text(encoding="utf-8")),
                     encoding="utf-8")
    proc = zonesim("route", "--content", content, "--from", "cordon", "--to", "bar", "--item", "jetpack")
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [proc.stderr.strip()]
    assert "use one of" not in proc.stderr and "drop --item or add one to items.toml" in proc.stderr
