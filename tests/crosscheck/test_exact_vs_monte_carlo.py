"""Monte Carlo fights against the absorbing-Markov-chain solver (Z-08, Z-15..Z-24,
Z-31, Z-33, Z-38): every probability within 4 standard errors on 24 configurations."""

import math

import numpy as np
import pytest

import strategies
from sim.content.loadout import Loadout
from sim.run.fight import exact_fight, simulate_fight
from tests.conftest import extra_monster, proportion_tolerance

TRIALS = 200_000  # SE <= 0.0011: a rule slip moving a probability by 0.5 points fails

GRID = [
    # (character, weapon, mods, head, body, healing, monster, strategy, reputation, escape_item, hp)
    ("novice", "ak47", (), None, "vest", (("stimulator", 2),), "bloodsucker", "fighter", None, None, None),
    ("novice", "berdanka", (), None, None, (), "blind_dog", "fighter", None, None, None),
    ("novice", "berdanka", ("zeroing", "rifling", "expanding_bullets"), None, None, (), "flesh", "fighter", None, None, None),
    ("verzila", "ak47", ("rebored",), "helmet", "leather_jacket", (), "boar", "fighter", None, None, None),
    ("doktor", "ak47", (), None, None, (("stimulator", 3),), "snork", "fighter", None, None, None),
    ("doktor", "berdanka", (), None, None, (("stimulator", 2), ("combat_stimulator", 2)), "chimera", "fighter", None, None, None),
    ("gromoboi", "berdanka", (), None, None, (), "bloodsucker", "fighter", None, None, None),
    ("gromoboi", "kvazar", ("electronic_sight",), "sphere_helmet", "exoskeleton", (), "chimera", "fighter", None, None, None),
    ("mazhor", "ak47", ("ap_rounds", "laser_sight"), "helmet", "vest", (("combat_stimulator", 1),), "controller", "fighter", None, None, None),
    ("novice", "kvazar", ("boosted_battery", "quark_accelerator"), None, "vest", (("stimulator", 4),), "chimera", "fighter", None, None, None),
    ("novice", None, (), "sphere_helmet", "exoskeleton", (), "flesh", "fighter", None, None, None),
    ("novice", "berdanka", (), None, "exoskeleton", (), "controller", "fighter", None, None, None),
    ("novice", "ak47", (), None, None, (("stimulator", 1),), "bloodsucker", "runner", 5, None, None),
    ("novice", "ak47", (), None, None, (), "chimera", "runner", 5, "camo_cloak", None),
    ("novice", "berdanka", (), None, None, (), "chimera", "runner", 4, "smoke_bomb", None),
    ("novice", "berdanka", (), None, None, (), "chimera", "runner", 7, None, None),
    ("novice", "berdanka", (), None, None, (), "chimera", "runner", 6, "stealth_generator", None),
    ("novice", "ak47", (), None, None, (), "chimera", "runner", 0, None, None),
    ("verzila", "ak47", (), "helmet", None, (("medkit", 2),), "bloodsucker", "fighter", None, None, 20),
    ("novice", "ak47", (), None, None, (("army_medkit", 1), ("stimulator", 1)), "snork", "fighter", None, None, 9),
    ("doktor", "ak47", ("rebored",), None, "vest", (("stimulator", 2),), "controller", "runner", 3, None, 18),
    ("novice", "kvazar", (), None, None, (("combat_stimulator", 4),), "chimera", "fighter", None, None, None),
    ("verzila", "berdanka", ("expanding_bullets",), "helmet", "vest", (("stimulator", 4), ("combat_stimulator", 4)), "chimera", "fighter", None, None, None),
    ("gromoboi", "ak47", (), None, None, (("stimulator", 1),), "flesh", "runner", 6, "camo_cloak", 5),
    # a slow armoured grub (test monster): wins, 30-round draws and deaths all likely
    ("novice", "berdanka", (), None, None, (), "grub", "fighter", None, None, None),
    ("doktor", "berdanka", ("zeroing",), "helmet", None, (("stimulator", 2),), "grub", "runner", 4, None, None),
]


@pytest.fixture(scope="module")
def grid_content(tmp_path_factory):
    """The default content plus the test monster ``grub`` (hp 30, 1d6-3, defence 4)."""
    return extra_monster(tmp_path_factory.mktemp("grid"), "grub", hp=30, dice=1, bonus=-3, defence=4)


@pytest.mark.parametrize("config", GRID, ids=[f"{i:02d}-{c[0]}-{c[1]}-{c[6]}-{c[7]}" for i, c in enumerate(GRID)])
def test_monte_carlo_matches_exact(grid_content, config):
    content = grid_content
    character, weapon, mods, head, body, healing, monster, strategy, reputation, escape_item, hp = config
    loadout = Loadout(character=character, weapon=weapon, mods=mods, head=head, body=body, healing=healing,
                      reputation=reputation, escape_item=escape_item, hp=hp)
    strat = strategies.get(strategy)
    exact = exact_fight(content, loadout, [monster], strat)
    mc = simulate_fight(content, loadout, [monster], strat, trials=TRIALS, seed=2024)
    for name in ("p_win", "p_draw", "p_escape", "p_death"):
        p = exact.probabilities[name]
        assert abs(mc.probabilities[name] - p) <= proportion_tolerance(p, TRIALS), name
    rounds = np.arange(mc.rounds_hist.size)
    sd = math.sqrt(max(mc.rounds_hist @ rounds**2 / TRIALS - mc.mean_rounds**2, 0.0))
    assert abs(mc.mean_rounds - exact.mean_rounds) <= 4 * sd / math.sqrt(TRIALS) + 1e-12
    survivors = TRIALS - int(round(mc.probabilities["p_death"] * TRIALS))
    if survivors > 100:
        hp_values = np.arange(mc.hp_hist.size)
        hp_sd = math.sqrt(max(mc.hp_hist[1:] @ hp_values[1:] ** 2 / survivors - mc.mean_hp_left**2, 0.0))
        assert abs(mc.mean_hp_left - exact.mean_hp_left) <= 4 * hp_sd / math.sqrt(survivors) + 1e-9


def test_grid_spans_every_outcome(grid_content):
    content = grid_content
    """The grid exercises wins, draws, escapes and deaths (so the checks above can fail)."""
    seen = set()
    for config in GRID:
        character, weapon, mods, head, body, healing, monster, strategy, reputation, escape_item, hp = config
        loadout = Loadout(character=character, weapon=weapon, mods=mods, head=head, body=body, healing=healing,
                          reputation=reputation, escape_item=escape_item, hp=hp)
        ex = exact_fight(content, loadout, [monster], strategies.get(strategy))
        seen |= {k for k in ("p_win", "p_draw", "p_escape", "p_death") if 0.05 < ex.probabilities[k] < 0.95}
    assert seen == {"p_win", "p_draw", "p_escape", "p_death"}
