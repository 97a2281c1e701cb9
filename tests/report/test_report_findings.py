"""The report's findings (``sim.report.findings``): each kind from the numbers
it reads, against thresholds worked by hand, and a card priced at a tenth of
its value found first among the under-priced ones on a copy of the default
content."""

import shutil
from dataclasses import replace

import numpy as np
import pytest

from sim.content import DEFAULT_DIR, load_content
from sim.economy.context import declared, load_context
from sim.economy.value import value_cards
from sim.report.findings import (dominant_finding, journey_finding, matchup_findings, monster_findings, no_use_finding,
                                 no_winner_finding, price_findings, rank, seat_findings)


def _row(item, price, value, low, high, verdict):
    return {"item": item, "price": price, "value_g": value, "value_g_ci95": [low, high], "verdict": verdict}


def test_price_findings_need_more_than_the_factor_either_way():
    rows = [_row("cheap", 100, 500, 450, 550, "under-priced"),  # 4.5x under: found
            _row("dear", 1000, 300, 250, 400, "over-priced"),   # 2.5x over: found
            _row("close", 300, 500, 450, 550, "under-priced"),  # 1.5x: not past 2
            _row("fair", 500, 500, 450, 550, "fair"), _row("idle", 100, 0, 0, 0, "no use here"),
            _row("dud", 300, 0.2, 0, 0.6, "over-priced"), _row("dud2", 100, 0, 0, 0.1, "over-priced")]
    found = {f.subject: f for f in price_findings(rows, 2.0, "ctx", "sec")}
    assert set(found) == {"cheap", "dear", "dud, dud2"}  # the cards worth under 1 G: one finding
    assert found["dud, dud2"].kind == "worth_nothing" and found["dud, dud2"].size == pytest.approx(300 / 2)
    assert found["cheap"].kind == "under_priced" and found["cheap"].size == pytest.approx(4.5 / 2)
    assert found["dear"].kind == "over_priced" and found["dear"].size == pytest.approx(2.5 / 2)
    assert [f.subject for f in rank(found.values())] == ["dud, dud2", "cheap", "dear"]  # a turn for each kind
    said = {f.subject: f.sentence for f in price_findings(rows, 2.0, "ctx", "sec",
                                                           {"dear": "Under wealth it is worth 900 G."})}
    assert said["dear"].endswith("priced at 1,000 G, over 2.5× its value of 300 G [250 G, 400 G]: suggested price "
                                 "**300 G**. Under wealth it is worth 900 G.")
    assert said["cheap"] == found["cheap"].sentence


def test_the_other_kinds_against_their_thresholds():
    monsters = monster_findings([{"monster": "chimera", "tier": "starter", "p_survive": 0.2, "ci_low": 0.18,
                                  "ci_high": 0.22},
                                 {"monster": "snork", "tier": "starter", "p_survive": 0.9, "ci_low": 0.88,
                                  "ci_high": 0.92}], 0.5, "ctx", "Fights")
    assert [f.subject for f in monsters] == ["chimera vs starter"] and monsters[0].value == pytest.approx(0.8)
    assert monsters[0].ci95 == (pytest.approx(0.78), pytest.approx(0.82)) and monsters[0].size == pytest.approx(1.6)
    assert journey_finding(0.3, 0.28, 0.32, 0.5, "standard", "ctx", "J")[0].size == pytest.approx(0.5 / 0.3)
    assert journey_finding(0.7, 0.68, 0.72, 0.5, "standard", "ctx", "J") == []
    assert no_winner_finding(0.8, 0.78, 0.82, 412.0, 0.5, "ctx", "S")[0].kind == "no_winner"
    assert no_winner_finding(0.3, 0.28, 0.32, 90.0, 0.5, "ctx", "S") == []
    (dominant,) = dominant_finding(0.37, 0.35, 0.40, 0.2, "pliers 1", "ctx", "S")
    assert dominant.kind == "dominant" and dominant.size == pytest.approx(1.85)
    assert dominant_finding(0.25, 0.19, 0.31, 0.2, "pliers 1", "ctx", "S") == []  # the interval holds a fair share
    seats = [{"seat": 1, "win_rate": 0.35, "ci_low": 0.33, "ci_high": 0.37},
             {"seat": 2, "win_rate": 0.25, "ci_low": 0.23, "ci_high": 0.27},
             {"seat": 3, "win_rate": 0.20, "ci_low": 0.15, "ci_high": 0.30}]
    # 20% of games have no winner, so the fair share of each of 3 seats is 80% / 3
    assert [f.subject for f in seat_findings(seats, 0.2, 0.05, "ctx", "S")] == ["seat 1"]
    rate = np.array([[np.nan, 0.7, 0.8], [0.2, np.nan, 0.5], [0.0, 0.01, np.nan]])
    low, high = rate - 0.03, rate + 0.03
    found = {(f.subject, f.sentence.split("**")[2][:6]) for f in
             matchup_findings(["a", "b", "c"], rate, low, high, 0.05, "ctx", "S")}
    assert found == {("a", " beats"), ("c", " (almo")}
    idle = no_use_finding({"campaigns": ["ak47", "kvazar"], "fights": ["kvazar", "zone_map"]}, "E")
    assert [f.subject for f in idle] == ["kvazar"]


def _one_tier(content):
    """economy.toml's quick context with its smallest budget only."""
    return replace(load_context(content, quick=True), budgets=(1000,))


def test_a_card_priced_at_a_tenth_of_its_value_is_the_first_under_priced_finding(tmp_path):
    content = load_content()
    glonass = next(r for r in value_cards(declared(content, _one_tier(content)), items=["glonass"]).items)
    tenth = int(glonass["value_g"] / 10)
    folder = tmp_path / "cheap"
    shutil.copytree(DEFAULT_DIR, folder)
    items = folder / "items.toml"
    text = items.read_text()
    at = text.index("[movement.glonass]")
    items.write_text(text[:at] + text[at:].replace("price = 600", f"price = {tenth}", 1))
    cheap = load_content(folder)
    result = value_cards(declared(cheap, _one_tier(cheap)))
    under = [f for f in rank(price_findings(result.items, 2.0, "ctx", "sec")) if f.kind == "under_priced"]
    assert under[0].subject == "glonass", [(f.subject, f.size) for f in under]
