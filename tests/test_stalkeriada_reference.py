"""The numba Stalkeriada kernel against the plain-Python reference
(docs/stalkeriada-resolution.md): game for game, every recorded number equal,
on the default content and on edited content that stresses rare rules."""

import numpy as np
import pytest

import sim.kernels.stalkeriada as K
from sim.content.stalkeriada import load_stalkeriada
from sim.reference.stalkeriada import load_settings, run_games
from sim.run.stalkeriada import DEFAULT_PLAYERS, game_records, get_stalkeriada_strategy
from tests.conftest import stalkeriada_content

SEED = 424242


def _compare(content, players, games, seed=SEED, rotation=0):
    strategies = [get_stalkeriada_strategy(p) for p in players]
    results, records, money_rounds = game_records(content, strategies, seed=seed, games=games, rotation=rotation)
    P = len(players)
    seat_params = [list(strategies[(s + rotation) % P].params) for s in range(P)]
    expected = run_games(load_settings(load_stalkeriada(content).path), seat_params, seed, games)
    for i, ref in enumerate(expected):
        winner = -1 if ref["winner"] is None else ref["winner"]
        assert (results[i, 0], results[i, 1], results[i, 2]) == (winner, ref["length"], ref["turns"]), f"game {i}"
        for f, field in enumerate(K.RECORD_FIELDS):
            assert list(records[i, f]) == list(ref[field]), f"game {i}: {field}"
        rounds = len(ref["money_by_round"])
        assert np.array_equal(money_rounds[i, :rounds], np.array(ref["money_by_round"]).reshape(rounds, P)), \
            f"game {i}: money by round"
    return results


def test_kernel_equals_reference_default_matchup(content):
    results = _compare(content, DEFAULT_PLAYERS, 40)
    assert (results[:, 0] >= 0).sum() >= 5  # the games are real: some are won


def test_kernel_equals_reference_rotated_seats(content):
    _compare(content, DEFAULT_PLAYERS, 12, rotation=2)


@pytest.mark.parametrize("players", [("greedy", "rush"), ("jelly", "jelly", "cautious", "greedy", "rush", "jelly")])
def test_kernel_equals_reference_two_and_six_seats(content, players):
    _compare(content, players, 15)


def test_kernel_equals_reference_rare_rules(tmp_path):
    """A small, dangerous, rich Zone: traps, jelly, pointers, flips, Golden Balls and
    cheap visas come up in almost every game."""
    content = stalkeriada_content(tmp_path, {
        "game": {"round_cap": 300},
        "shop": {"exit_visa": 9000},
        "zone": {"rows": 4, "cols": 5},
        "fence": {"cells": 5},
        "tiles": {"loot": 4, "zuda": 2, "mosquito_bald": 1, "fire_fluff": 1, "devils_cabbage": 1, "trap": 1,
                  "swamp_2": 1, "swamp_3": 1, "jelly_basement": 1, "grass": 0, "corridor": 1, "golden_ball": 2,
                  "pointer": 1, "jumping_pointer": 1, "stop": 1, "flip": 1},
        "jelly": {"order_on": 3},
        "borscht": {"partner_on": 4},
    })
    results = _compare(content, DEFAULT_PLAYERS, 60)
    assert (results[:, 0] >= 0).mean() > 0.5
