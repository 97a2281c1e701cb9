"""``zonesim stalkeriada`` and ``zonesim stalkeriada-matrix`` from the shell:
JSON, tables on disk, charts, seat rotation, same seed same numbers, and one
clear line with exit 2 for bad input."""

import json

import polars as pl
import pytest

from tests.conftest import zonesim, zonesim_json


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("st") / "run"
    data = zonesim_json("stalkeriada", "--games", 300, "--seed", 3, "--rotate-seats", "--out", out)
    return data, out


def test_json_reports_win_rates_with_intervals_that_add_up(written):
    data, _ = written
    assert data["games"] == 1200 and data["rotate_seats"]  # 300 games x 4 seat orders
    rates = data["win_rates"]
    assert [r["strategy"] for r in rates] == ["cautious", "greedy", "jelly", "rush", "(no winner)"]
    assert sum(r["wins"] for r in rates) == 1200
    for r in rates:
        assert r["ci_low"] <= r["win_rate"] <= r["ci_high"]
    assert sum(s["wins"] for s in data["seat_advantage"]) == 1200 - rates[-1]["wins"]
    assert {s["games"] for s in data["seat_advantage"]} == {1200}
    assert sum(s["win_rate"] for s in data["seat_advantage"]) + rates[-1]["win_rate"] == pytest.approx(1)
    assert data["length"]["median"] <= data["length"]["p90"] <= data["round_cap"]


def test_s05_json_reports_places_and_the_finishing_order(written):
    """The win rate stays "finished first"; every player also has a mean place and
    a share of last places, and the finishing order adds up per player and place."""
    data, _ = written
    players = {p["strategy"]: p for p in data["per_player"]}
    order = data["finishing_order"]
    assert len(order) == 16 and all(r["ci_low"] <= r["share"] <= r["ci_high"] for r in order)
    for name, p in players.items():
        mine = [r for r in order if r["strategy"] == name]
        assert sum(r["games"] for r in mine) == 1200
        assert p["mean_place"] == pytest.approx(sum(r["place"] * r["share"] for r in mine))
        assert p["p_last"] == pytest.approx(mine[-1]["share"])
    for place in range(1, 5):
        assert sum(r["games"] for r in order if r["place"] == place) == 1200
    assert sum(p["mean_place"] for p in players.values()) == pytest.approx(10)  # 1 + 2 + 3 + 4


def test_out_writes_tables_charts_and_manifest(written):
    data, out = written
    manifest = json.loads((out / "manifest.json").read_text())
    for name in manifest["files"]:
        assert (out / name).is_file(), name
    seats = pl.read_parquet(out / "stalkeriada_seats.parquet")
    assert seats.height == 16 and set(seats["games"]) == {300}  # each strategy in each seat, same dice
    money = pl.read_parquet(out / "stalkeriada_money.parquet")
    assert money["round"].min() == 1 and (money["mean_money"] > 0).all()
    items = pl.read_parquet(out / "stalkeriada_items.parquet")
    assert items.filter(pl.col("strategy") == "rush")["games_with"].sum() == 0  # rush buys no kit


def test_same_seed_same_numbers_for_any_thread_count():
    one = zonesim_json("stalkeriada", "--games", 200, "--seed", 9, "--threads", "1")
    two = zonesim_json("stalkeriada", "--games", 200, "--seed", 9, "--threads", "2")
    for key in ("win_rates", "length", "per_player", "items", "turns"):
        assert one[key] == two[key]


def test_round_robin_matrix(tmp_path):
    data = zonesim_json("stalkeriada-matrix", "--players", "cautious,rush,greedy", "--games", 100, "--seed", 2,
                 "--out", tmp_path / "rr")
    cells = {(r["strategy"], r["against"]): r for r in data["matrix"]}
    assert len(cells) == 6
    for (a, b), r in cells.items():
        assert r["games"] == 200  # one pair, two seat orders
        assert r["wins"] + cells[(b, a)]["wins"] <= 200
        assert r["mean_place"] + cells[(b, a)]["mean_place"] == pytest.approx(3)  # places 1 and 2
        assert r["p_last"] + cells[(b, a)]["p_last"] == pytest.approx(1)
    assert (tmp_path / "rr" / "charts" / "stalkeriada_matrix.png").is_file()


@pytest.mark.parametrize("args,message", [
    (("stalkeriada", "--players", "cautious"), "seats 2 to 6"),
    (("stalkeriada", "--players", "cautious,nobody"), "unknown strategy 'nobody'"),
    (("stalkeriada", "--games", "0"), "--games: 0"),
    (("stalkeriada-matrix", "--players", "cautious,rush", "--set-size", "3"), "--set-size: 3"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    proc = zonesim(*args)
    assert proc.returncode == 2
    assert message in proc.stderr and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_bad_content_names_the_file_and_field(tmp_path):
    folder = tmp_path / "c"
    assert zonesim("content", "init", folder).returncode == 0
    path = folder / "stalkeriada.toml"
    path.write_text(path.read_text().replace("grass = 11", "grass = 12"))
    proc = zonesim("stalkeriada", "--games", "10", "--content", folder)
    assert proc.returncode == 2
    assert "stalkeriada.toml: tiles: 50 tiles" in proc.stderr and "set grass = 11" in proc.stderr


def test_a_users_strategy_file_plugs_in(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text("from strategies.stalkeriada import planner_strategy\n"
                    "HOARDER = planner_strategy('hoarder', 'buys everything, goes home full', pliers=1, ozk=1, "
                    "nuts=3, reserve=0, home_at=5, jelly=1, sell_min=1000, throw=1)\n")
    data = zonesim_json("stalkeriada", "--players", f"{path}:HOARDER,greedy", "--games", 200, "--seed", 4)
    assert [r["strategy"] for r in data["win_rates"]] == ["hoarder", "greedy", "(no winner)"]
    hoarder = data["per_player"][0]
    assert hoarder["bought_ozk"] > 0 and hoarder["jelly_orders"] > 0


@pytest.mark.parametrize("old,new,message", [
    ("prices = [500, 500, 1000, 1000, 2000, 2000]", "prices = [500, 1000]", "borscht.prices: expected 6 whole prices"),
    ('"shop", "empty", "butcher"', '"empty", "empty", "butcher"', "city.squares: the City needs shop"),
    ("cells = 7 ", "cells = 9 ", "fence.cells: 9 fence cells but only 7"),
    ("ozk = 500", "ozk = -500", "shop.ozk: -500 is below the minimum 0"),
    ("arrest_on = 5", "arrest_on = 8", "police.arrest_on: 8 is not a d6 roll"),
    ("[butcher]", "[butcher\n", "malformed TOML"),
])
def test_validate_names_the_stalkeriada_field(tmp_path, old, new, message):
    folder = tmp_path / "c"
    assert zonesim("content", "init", folder).returncode == 0
    path = folder / "stalkeriada.toml"
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))
    proc = zonesim("validate", folder)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "stalkeriada.toml" in proc.stderr and message in proc.stderr, proc.stderr
