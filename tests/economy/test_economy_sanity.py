"""``zonesim value --check``: the economy's sanity checks a designer runs on his own
content (``sim.economy.sanity``), each shown failing on a planted row."""

import copy

import pytest

from sim.content import load_content
from sim.economy.sanity import problems, seed_problems, stronger_pairs, twin_pairs
from tests.conftest import edited_content, zonesim


def _row(item, price, value, low, high, effect=(0.5, 0.2, 0.8), verdict="fair", tiers=None):
    return {"item": item, "price": price, "value_g": value, "value_g_ci95": [low, high], "effect": effect[0],
            "effect_ci95": list(effect[1:]), "verdict": verdict,
            "tiers": tiers if tiers is not None else [{"tier": "1,000 G", "value_g": value, "value_g_ci95": [low, high],
                                                       "effect_ci95": list(effect[1:]), "verdict": verdict}]}


@pytest.fixture(scope="module")
def content():
    return load_content()


def test_z15_z23_z31_stronger_pairs_are_more_of_the_same_use(content):
    pairs = stronger_pairs(content)
    for pair in (("army_medkit", "medkit"), ("ppv", "tyoshcha"), ("kvazar", "ak47"), ("vest", "leather_jacket"),
                 ("laser_sight", "rebored"), ("jetpack", "glonass")):
        assert pair in pairs
    # another use is not "more": an in-combat stimulator against a medkit, a modifier of another firearm
    assert ("combat_stimulator", "medkit") not in pairs and ("laser_sight", "zeroing") not in pairs
    assert ("bag_of_nuts", "dosimeter") not in pairs  # avoid_on: not a more-is-better number
    assert twin_pairs(content) == []


def test_every_check_fails_on_its_planted_row(content, tmp_path):
    good = [_row("medkit", 100, 120, 100, 140), _row("army_medkit", 250, 200, 150, 260)]
    assert problems(content, good, 50) == []
    dominated = copy.deepcopy(good)
    dominated[1].update(value_g=60, value_g_ci95=[40, 80])  # 40-80 G against 100-140 G: clearly below
    assert any(p.startswith("dominance: army_medkit") for p in problems(content, dominated, 50))
    home = [_row("medkit", 100, 0, 0, 0, effect=(0.5, 0.1, 0.9), verdict="worth nothing here")]
    assert any("'worth nothing here' with an effect" in p for p in problems(content, home, 50))
    fair = [_row("medkit", 50, 107, 95, 109)]  # the flashlight's line: only 100 G is fair
    assert any("'fair' at 50 G" in p for p in problems(content, fair, 50))
    twin = edited_content(tmp_path, "items.toml", "[healing.army_medkit]",
                          '[healing.medkit_b]\nname = "Medkit B"\nheal = 5\nin_combat = false\nprice = 300\n\n'
                          '[healing.army_medkit]')
    twinned = load_content(twin)
    assert twin_pairs(twinned) == [("medkit", "medkit_b")]
    apart = [_row("medkit", 100, 120, 100, 140), _row("medkit_b", 300, 60, 40, 80)]
    assert any(p.startswith("twins: medkit_b") for p in problems(twinned, apart, 50))


def test_two_runs_agree_on_nine_cards_in_ten_and_eight_tier_values_in_ten():
    first = [_row(f"c{k}", 100, 100, 80, 120) for k in range(10)]
    second = copy.deepcopy(first)
    second[0].update(value_g_ci95=[130, 150])
    second[0]["tiers"][0].update(value_g_ci95=[130, 150])
    assert seed_problems(first, second) == []  # 9 of 10 agree
    second[1].update(value_g_ci95=[130, 150])
    second[1]["tiers"][0].update(value_g_ci95=[130, 150])
    assert seed_problems(first, second) == ["seeds: 8 of 10 overall values agree across two runs"]


def test_value_check_prints_one_line_per_problem_and_exits_1_if_any():
    proc = zonesim("value", "-m", "snork", "--budget", 1500, "--trials", 4000, "--check")
    assert proc.returncode in (0, 1), proc.stderr
    lines = proc.stdout.splitlines()
    count = int(lines[-1].split(": ")[1].split()[0])
    assert lines[-1].startswith("economy check: ") and (count > 0) == (proc.returncode == 1)
    start = next(k for k, line in enumerate(lines) if line.startswith("economy check (seeds 1 and 2)"))
    assert len(lines) - start - 2 == count
