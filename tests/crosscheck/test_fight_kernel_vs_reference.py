"""The numba fight kernel against the plain-Python reference: identical sums,
trial for trial, on the same random streams (two independent readings of
Z-02..Z-05, Z-08, Z-15..Z-24, Z-31..Z-33, Z-37, Z-38)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.reference import fight as ref
from tests.crosscheck.agree import fights_agree

SCENARIOS = {
    "bench": ({"weapon": "ak47", "body": "vest", "healing": {"stimulator": 2}}, ["bloodsucker"], "fighter"),
    "mods_armour": ({"weapon": "ak47", "mods": ["rebored", "laser_sight"], "head": "helmet", "body": "vest",
                     "healing": {"stimulator": 2, "combat_stimulator": 1}}, ["chimera"], "fighter"),
    "group": ({"weapon": "berdanka", "mods": ["zeroing", "rifling"], "body": "leather_jacket",
               "healing": {"stimulator": 3}}, ["blind_dog", "flesh", "blind_dog"], "fighter"),
    "explosives": ({"weapon": "ak47", "explosives": {"molotov": 2, "limonka": 1, "ppv": 1},
                    "healing": {"stimulator": 1}}, ["bloodsucker", "snork"], "fighter"),
    "gromoboi_explosives": ({"character": "gromoboi", "weapon": "kvazar", "explosives": {"tyoshcha": 2}},
                            ["controller", "boar"], "fighter"),
    "doktor": ({"character": "doktor", "weapon": "ak47", "healing": {"stimulator": 4, "combat_stimulator": 2}},
               ["chimera"], "fighter"),
    "verzila_medkits": ({"character": "verzila", "weapon": "berdanka", "hp": 12,
                         "healing": {"medkit": 3, "army_medkit": 1, "stimulator": 1}}, ["snork"], "fighter"),
    "runner_rep5_cloak": ({"weapon": "ak47", "escape_item": "camo_cloak", "reputation": 5,
                           "healing": {"stimulator": 1}}, ["chimera"], "runner"),
    "runner_rep6": ({"weapon": "berdanka", "reputation": 6}, ["bloodsucker"], "runner"),
    "runner_rep0": ({"weapon": "berdanka"}, ["bloodsucker"], "runner"),
    "unarmed_draw": ({"head": "sphere_helmet", "body": "exoskeleton"}, ["flesh"], "fighter"),
    "mazhor_no_weapon": ({"character": "mazhor", "explosives": {"ppv": 4}}, ["boar"], "fighter"),
}


@pytest.fixture(scope="module")
def ref_content():
    from sim.content import DEFAULT_DIR

    return ref.load_content(DEFAULT_DIR)


@pytest.mark.parametrize("name", SCENARIOS)
def test_kernel_equals_reference(name, content, ref_content):
    """3,000 fights per scenario: outcome counts, rounds and HP histograms and items
    used are identical (any divergence in rule reading or dice order shows)."""
    loadout, monsters, strategy = SCENARIOS[name]
    fights_agree(content, ref_content, loadout, monsters, strategy, 11, 3000, trial_start=500)


LOADOUTS = st.fixed_dictionaries(
    {
        "character": st.sampled_from(["novice", "verzila", "doktor", "mazhor", "gromoboi"]),
        "weapon": st.sampled_from([None, "berdanka", "ak47", "kvazar"]),
        "head": st.sampled_from([None, "helmet", "sphere_helmet"]),
        "body": st.sampled_from([None, "leather_jacket", "vest", "exoskeleton"]),
        "healing": st.dictionaries(st.sampled_from(["medkit", "army_medkit", "stimulator", "combat_stimulator"]),
                                   st.integers(0, 4), max_size=4),
        "explosives": st.dictionaries(st.sampled_from(["molotov", "limonka", "tyoshcha", "ppv"]),
                                      st.integers(0, 2), max_size=4),
        "escape_item": st.sampled_from([None, "smoke_bomb", "camo_cloak", "stealth_generator"]),
        "reputation": st.integers(0, 8),
        "hp": st.integers(1, 25),
    }
)
MODS = {"berdanka": ["zeroing", "rifling", "expanding_bullets"], "ak47": ["rebored", "ap_rounds", "laser_sight"],
        "kvazar": ["boosted_battery", "quark_accelerator", "electronic_sight"]}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(loadout=LOADOUTS, n_mods=st.integers(0, 3),
       monsters=st.lists(st.sampled_from(["blind_dog", "flesh", "boar", "snork", "bloodsucker", "chimera",
                                          "controller"]), min_size=1, max_size=3),
       strategy=st.sampled_from(["fighter", "runner"]), seed=st.integers(0, 2**63 - 1))
def test_random_loadouts_equal_reference(content, ref_content, loadout, n_mods, monsters, strategy, seed):
    """Property: for any legal loadout, group and seed, kernel and reference agree
    on 150 fights; HP never exceeds max, survivors keep HP >= 1 (Z-08, Z-31)."""
    loadout = dict(loadout, mods=MODS[loadout["weapon"]][:n_mods] if loadout["weapon"] else [])
    kernel = fights_agree(content, ref_content, loadout, monsters, strategy, seed, 150)
    max_hp = content.characters[loadout["character"]]["max_hp"]
    assert max(kernel["hp_hist"]) <= max_hp
    assert kernel["hp_hist"].get(0, 0) == kernel["counts"]["death"]
    carried = {**loadout["healing"], **loadout["explosives"]}
    assert all(n <= carried[item] * 150 for item, n in kernel["used"].items())
