"""``zonesim report``: the whole default study writes report.md and report.html
whose every figure exists and names its trials, seed and [A] assumptions; a bad
report.toml exits 2 with one line."""

import json
import re

import polars as pl
import pytest

from sim.content import load_content
from tests.conftest import edited_content, zonesim


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "r"
    proc = zonesim("report", "--quick", "--out", out)
    assert proc.returncode == 0, proc.stderr
    return out


def test_report_has_every_section_and_its_figures(quick):
    md = (quick / "report.md").read_text()
    for title in ("Item economy: what every card is worth in G",
                  "Item economy in fights: what every card is worth against the monsters the campaigns meet",
                  "Fights: survival by monster and loadout tier",
                  "Item values in one fight (a narrow view: one loadout, one monster)",
                  "Loadouts: what each budget buys", "Tactical skirmishes", "Price tuning in one fight (a narrow view)",
                  "Journeys on the default map", "Stalkeriada matchups"):
        assert f"## {title}" in md
    images = re.findall(r"!\[(.*?)\]\((.*?)\)", md)
    assert len(images) >= 6
    for caption, path in images:
        assert (quick / path).is_file(), path
        assert "seed 1" in caption and re.search(r"[\d,]+ (paired )?\w+", caption), caption
        assert "[A]" in caption, caption
    html = (quick / "report.html").read_text()
    assert html.count("<img") == len(images) and "<table>" in html


def test_report_tables_and_manifest(quick):
    manifest = json.loads((quick / "manifest.json").read_text())
    assert manifest["quick"] and set(manifest["steps"]) >= {"Item economy: what every card is worth in G",
                                                            "Tactical skirmishes"}
    economy = pl.read_parquet(quick / "economy.parquet")
    assert economy.height == 38 and (economy["value_g"] >= 0).all()
    assert economy.filter(pl.col("item") == "ak47")["verdict"].to_list() == ["no use here"]
    in_fights = pl.read_parquet(quick / "economy_fights.parquet")
    assert in_fights.height == 38 and (in_fights["value_g"] >= 0).all()
    assert in_fights.filter(pl.col("item").is_in(["zone_map", "medkit"]))["verdict"].to_list() == ["no use here"] * 2
    assert in_fights.filter(pl.col("item") == "tyoshcha")["value_g"].item() > 0
    fights = pl.read_parquet(quick / "fights.parquet")
    assert fights.height == 7 * 4 and fights["trials"].unique().to_list() == [manifest["trials"]["fights"]]
    by_tier = fights.group_by("tier").agg(pl.col("p_survive").mean()).sort("p_survive")
    assert by_tier["tier"].to_list() == ["starter", "standard", "veteran", "elite"]  # better kit, more survival
    values = pl.read_parquet(quick / "values.parquet")  # one fight: a fighter never rolls to escape
    assert values.filter(pl.col("item") == "camo_cloak")["verdict"].to_list() == ["no use here"]
    assert load_content(quick / "content").digest == load_content().digest  # saved: a later report's --baseline


def test_bad_report_toml_gets_one_line_and_exit_2(tmp_path):
    bad = edited_content(tmp_path, "report.toml", 'value_tier = "standard"', 'value_tier = "legendary"')
    proc = zonesim("report", "--quick", "--content", bad, "--out", tmp_path / "r")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "study.value_tier" in proc.stderr and "legendary" in proc.stderr
    bad = edited_content(tmp_path, "report.toml", "fights = [1000000, 20000]", "fights = [0, 20000]", name="c2")
    proc = zonesim("report", "--quick", "--content", bad, "--out", tmp_path / "r2")
    assert proc.returncode == 2 and "trials.fights" in proc.stderr
