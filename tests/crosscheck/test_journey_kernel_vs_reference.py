"""The numba journey kernel against the plain-Python reference: identical sums on
the same random streams (two independent readings of Z-08..Z-13, Z-25, Z-26,
Z-30, Z-34..Z-41, K-01..K-08)."""

import numpy as np
import pytest

from sim.content import DEFAULT_DIR
from sim.reference import journey as ref
from tests.crosscheck.agree import journeys_agree

SCENARIOS = {
    "greedy_kit": ({"weapon": "ak47", "head": "helmet", "body": "vest", "healing": {"stimulator": 2, "medkit": 2},
                    "movement": ["zone_map"]}, {"fight": "fighter", "danger_weight": 0, "recover_loot": True}, 30),
    "bare_greedy": ({"weapon": "berdanka"}, {"fight": "fighter", "danger_weight": 0, "recover_loot": True}, 25),
    "no_recovery": ({"weapon": "berdanka", "healing": {"stimulator": 1}},
                    {"fight": "fighter", "danger_weight": 1, "recover_loot": False}, 20),
    "cautious_rep": ({"character": "doktor", "weapon": "ak47", "reputation": 4, "escape_item": "smoke_bomb",
                      "healing": {"combat_stimulator": 1, "stimulator": 2}, "avoidance": ["bag_of_nuts"]},
                     {"fight": "runner", "danger_weight": 3, "recover_loot": True}, 30),
    "jetpack_scanner": ({"character": "gromoboi", "weapon": "kvazar", "explosives": {"limonka": 2},
                         "movement": ["jetpack", "zone_map"], "avoidance": ["torsion_scanner"]},
                        {"fight": "fighter", "danger_weight": 2, "recover_loot": True}, 15),
    "big_kit_tight_limit": ({"weapon": "ak47", "mods": ["rebored", "laser_sight"], "head": "helmet", "body": "vest",
                             "healing": {"stimulator": 4, "medkit": 4, "army_medkit": 2}, "explosives": {"molotov": 4},
                             "escape_item": "smoke_bomb", "movement": ["zone_map"]},
                            {"fight": "fighter", "danger_weight": 1, "recover_loot": True}, 30),
    "helicopter_gate": ({"weapon": "ak47", "body": "vest", "healing": {"stimulator": 1, "medkit": 1},
                         "one_shot": ["helicopter_call", "space_gate"]},
                        {"fight": "fighter", "danger_weight": 0, "recover_loot": True}, 30),
    "nearest_orders": ({"weapon": "ak47", "healing": {"stimulator": 2}},
                       {"fight": "fighter", "danger_weight": 2, "recover_loot": True, "order_choice": "nearest"}, 30),
    "lights_gate": ({"character": "verzila", "weapon": "berdanka", "location": ["flashlight", "nvg"],
                     "one_shot": ["space_gate"], "healing": {"medkit": 1}},
                    {"fight": "fighter", "danger_weight": 1, "recover_loot": True, "order_choice": "nearest"}, 30),
    "frugal_refit": ({"weapon": "ak47", "body": "vest", "healing": {"stimulator": 2, "medkit": 2},
                      "explosives": {"molotov": 2}, "movement": ["zone_map"]},
                     {"fight": "fighter", "danger_weight": 0, "recover_loot": True, "order_choice": "nearest",
                      "restock": False}, 30),
    "hunting_ground": ({"weapon": "ak47", "body": "vest", "healing": {"stimulator": 2}},
                       {"fight": "fighter", "danger_weight": 1, "seek_danger": 3, "recover_loot": True,
                        "order_choice": "nearest"}, 30),
    "mazhor_dosimeter": ({"character": "mazhor", "weapon": "ak47", "avoidance": ["dosimeter"],
                          "healing": {"army_medkit": 2}}, {"fight": "fighter", "danger_weight": 0,
                                                           "recover_loot": True}, 12),
}


@pytest.fixture(scope="module")
def ref_content():
    return ref.load_journey_content(DEFAULT_DIR)


@pytest.mark.parametrize("name", SCENARIOS)
def test_kernel_equals_reference(name, content, ref_content):
    """400 campaigns per scenario: completion, survival, days, orders, deaths,
    money, kills, items used, traffic and deaths per hex all identical."""
    loadout, strategy, days = SCENARIOS[name]
    kernel = journeys_agree(content, ref_content, loadout, strategy, days, seed=17, n=400)
    assert np.any(kernel.deaths_hist[1:]) or name in ("cautious_rep", "jetpack_scanner")
