"""The numba Stalkeriada kernel against the plain-Python reference
(docs/stalkeriada-resolution.md): game for game, every recorded number equal,
on the default content and on edited content that stresses rare rules."""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from sim.content.stalkeriada import load_stalkeriada
from sim.run.stalkeriada import DEFAULT_PLAYERS
from tests.conftest import stalkeriada_content
from tests.crosscheck.agree import games_agree

SEED = 424242


def test_kernel_equals_reference_default_matchup(content):
    results = games_agree(content, DEFAULT_PLAYERS, 40, SEED)
    assert (results[:, 0] >= 0).sum() >= 3  # the games are real: in some a stalker finishes


def test_kernel_equals_reference_rotated_seats(content):
    games_agree(content, DEFAULT_PLAYERS, 12, SEED, rotation=2)


def test_kernel_equals_reference_with_a_start_bonus(content):
    """S-10 with a handicap: the third player starts with an exit visa's price (S-04) more;
    at rotation 1 he sits in seat 1, and both engines give the bonus to that seat."""
    visa = load_stalkeriada(content).settings["shop"]["exit_visa"]
    results = games_agree(content, DEFAULT_PLAYERS, 12, SEED, rotation=1, start_bonus=(0, 0, visa, 0))
    assert (results[:, 0] == 1).sum() >= 9  # the bonus is real: his seat finishes first in most games


@pytest.mark.parametrize("players", [("greedy", "rush"), ("jelly", "jelly", "cautious", "greedy", "rush", "jelly")])
def test_kernel_equals_reference_two_and_six_seats(content, players):
    games_agree(content, players, 15, SEED)


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
    results = games_agree(content, DEFAULT_PLAYERS, 60, SEED)
    assert (results[:, 0] >= 0).mean() > 0.5


TILE_NAMES = ("loot", "zuda", "mosquito_bald", "fire_fluff", "devils_cabbage", "trap", "swamp_2", "swamp_3",
              "jelly_basement", "corridor", "golden_ball", "pointer", "jumping_pointer", "stop", "flip")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_kernel_equals_reference_on_random_content(tmp_path_factory, data):
    """Random Zone sizes, tile mixes, fence mixes, prices and dice thresholds: still game for game."""
    rows, cols = data.draw(st.integers(2, 6)), data.draw(st.integers(3, 7))
    counts = {k: data.draw(st.integers(0, 3)) for k in TILE_NAMES}
    counts["loot"] = data.draw(st.integers(1, 4))
    extra = rows * cols - sum(counts.values())
    if extra < 0:  # trim the mix to fit the Zone
        for k in TILE_NAMES[::-1]:
            cut = min(counts[k] - (1 if k == "loot" else 0), -extra)
            counts[k] -= cut
            extra += cut
    counts["grass"] = extra
    d6 = st.integers(1, 7)
    changes = {
        "game": {"round_cap": 120},
        "zone": {"rows": rows, "cols": cols, "backpack": data.draw(st.integers(1, 5)),
                 "trap_survive_on": data.draw(d6), "golden_ball_bonus": data.draw(st.sampled_from([0, 10000])),
                 "nut_range": data.draw(st.integers(1, 4))},
        "city": {"reentry_percent": data.draw(st.integers(0, 100))},
        "fence": {"cells": data.draw(st.integers(1, cols)), "gap": data.draw(st.integers(0, 3)),
                  "fence": data.draw(st.integers(0, 3)), "ambush": data.draw(st.integers(1, 3)),
                  "gap_ambush_on": data.draw(d6), "pliers_ambush_on": data.draw(d6)},
        "tiles": counts,
        "police": {"arrest_on": data.draw(d6), "release_on": data.draw(st.integers(1, 6))},
        "shop": {"exit_visa": data.draw(st.sampled_from([3000, 9000, 25000]))},
        "jelly": {"order_on": data.draw(d6), "fill_on": data.draw(d6), "spill_on": data.draw(st.integers(0, 2)),
                  "accident_on": data.draw(d6)},
        "borscht": {"partner_on": data.draw(d6), "partner_share_percent": data.draw(st.integers(0, 100))},
        "butcher": {"fee": data.draw(st.sampled_from([0, 1000]))},
    }
    content = stalkeriada_content(tmp_path_factory.mktemp("random"), changes)
    players = data.draw(st.lists(st.sampled_from(DEFAULT_PLAYERS), min_size=2, max_size=5))
    games_agree(content, players, 3, data.draw(st.integers(0, 2 ** 31)))
