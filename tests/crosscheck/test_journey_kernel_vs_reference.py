"""The numba journey kernel against the plain-Python reference: identical sums on
the same random streams (two independent readings of Z-08..Z-13, Z-25, Z-26,
Z-30, Z-34..Z-41, K-01..K-08)."""

import numpy as np
import pytest

from sim.content import DEFAULT_DIR
from sim.kernels.journey import DEATH_CAP
from sim.reference import journey as ref
from sim.reference.loadout import loadout_from_dict
from sim.run.journey import JourneyStrategy, simulate_journey

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
    n, seed = 400, 17
    kernel = simulate_journey(content, loadout_from_dict(loadout),
                              JourneyStrategy(name, "", strategy["fight"], strategy["danger_weight"],
                                              strategy["recover_loot"], strategy.get("order_choice", "listed")),
                              days=days, trials=n, seed=seed)
    reference = ref.run_journeys(ref_content, loadout, strategy, days, seed, n)
    assert int(kernel.counts[0]) == reference["counts"]["completed"]
    assert int(kernel.counts[1]) == reference["counts"]["survived"]
    done = {(d if d <= days else None): int(c) for d, c in enumerate(kernel.done_hist) if c}
    assert done == {k: v for k, v in reference["completion_day"].items() if v}
    assert {i: int(c) for i, c in enumerate(kernel.orders_hist) if c} == reference["orders_done"]
    capped = {}
    for deaths, count in reference["deaths"].items():  # the kernel's last bin holds DEATH_CAP or more
        capped[min(deaths, DEATH_CAP)] = capped.get(min(deaths, DEATH_CAP), 0) + count
    assert {i: int(c) for i, c in enumerate(kernel.deaths_hist) if c} == capped
    assert kernel.sums[0] == reference["money"] and kernel.sums[1] == reference["money_sq"]
    assert kernel.sums[2] == reference["kills"]
    assert {lv: int(c) for lv, c in enumerate(kernel.level_hist) if c} == reference["levels"]  # K-04
    assert kernel.sums[3] == reference["missions"]
    assert kernel.sums[4] == reference["spent"]  # Z-11..Z-13, Z-40
    assert kernel.sums[5] == sum(d * c for d, c in reference["deaths"].items())
    assert kernel.sums[6] == sum(d * d * c for d, c in reference["deaths"].items())
    assert {k: round(v * n) for k, v in kernel.purchases.items()} == {k: v for k, v in reference["purchases"].items()
                                                                      if v}
    assert {k: round(v * n) for k, v in kernel.items_used.items()} == reference["used"]
    width = kernel.traffic.shape[1]
    traffic = {(i % width, i // width): int(c) for i, c in enumerate(kernel.traffic.ravel()) if c}
    deaths = {(i % width, i // width): int(c) for i, c in enumerate(kernel.deaths_at.ravel()) if c}
    assert traffic == reference["traffic"] and deaths == reference["deaths_at"]
    assert np.any(kernel.deaths_hist[1:]) or name in ("cautious_rep", "jetpack_scanner")
