"""``--kit [CHARACTER:]ITEM,ITEM*N``: the whole loadout in one line, each card placed
by its family (``Loadout.from_kit``), the same loadout as the card options give."""

import pytest

from sim.api import loadout
from sim.content.loadout import Loadout, LoadoutError
from tests.conftest import zonesim_json


def test_a_kit_is_the_loadout_the_card_options_give(content):
    by_options = Loadout.from_options(content, character="doktor", weapon="ak47", mods=("rebored",), body="vest",
                                      stims={"stimulator": 2}, explosives={"limonka": 1}, movement=("zone_map",))
    by_kit = Loadout.from_options(content, kit="doktor:ak47,rebored,vest,stimulator*2,limonka,zone_map")
    assert by_kit == by_options


def test_a_kit_names_cards_of_any_family_even_those_with_no_option_of_their_own(content):
    """The Z-29 location cards have no card option; in a kit they go to their slot."""
    kit = loadout(kit="ak47,nvg")
    assert kit.location == ("nvg",) and kit.weapon == "ak47"


@pytest.mark.parametrize("spec, message", [("ak47,berdanka", "same slot"), ("leather_jacket,vest", "same slot"),
                                           ("nobody:ak47", "--character"), ("ak47*x", "whole number")])
def test_a_kit_the_rules_forbid_is_refused_in_one_line(content, spec, message):
    with pytest.raises(LoadoutError) as info:
        Loadout.from_options(content, kit=spec)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_encounter_with_a_kit_gives_the_numbers_of_the_card_options(tmp_path):
    common = ("encounter", "-m", "bloodsucker", "--trials", "20000", "--seed", "3")
    by_kit = zonesim_json(*common, "--kit", "ak47,vest,stimulator*2", cwd=tmp_path)
    by_options = zonesim_json(*common, "--weapon", "ak47", "--body", "vest", "--stims", "stimulator:2", cwd=tmp_path)
    numbers = ("p_survive", "p_win", "p_draw", "p_escape", "p_death", "ci95", "mean_rounds", "mean_hp_left")
    assert {k: by_kit[k] for k in numbers} == {k: by_options[k] for k in numbers}
