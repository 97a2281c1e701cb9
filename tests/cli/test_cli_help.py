"""The help texts read the registries: a strategy added to ``strategies`` shows in
the help of every command that plays it, with no CLI edit."""

import pytest
import typer

import sim.cli
import strategies


@pytest.mark.parametrize("command, option, mode", [
    ("encounter", "strategy", "fight"), ("loadouts", "strategy", "fight"), ("journey", "strategy", "journey"),
    ("skirmish", "strategy", "skirmish"), ("stalkeriada", "players", "stalkeriada"), ("value", "strategy", "journey"),
])
def test_strategy_help_lists_every_built_in_of_the_registry(command, option, mode):
    """Every built-in strategy of ``mode`` is named in the help of ``command``'s option."""
    params = {p.name: p for p in typer.main.get_command(sim.cli.app).commands[command].params}
    help_text = " ".join(params[option].help.split())
    assert all(f"{name}," in help_text or f"{name};" in help_text for name in strategies.names(mode)), help_text


def test_card_help_names_every_card_of_the_shipped_content_and_kit_every_family():
    """The card options name the shipped content's cards of their family, read from items.toml (a
    card added there shows with no CLI edit), and ``--kit`` names every item family of the schema."""
    from sim.content import load_content
    from sim.content.schema import ITEM_FAMILIES

    params = {p.name: " ".join(p.help.split()) for p in typer.main.get_command(sim.cli.app).commands["journey"].params}
    option = {"firearms": "weapon", "modifiers": "mods", "explosives": "explosives", "escape": "escape_item",
              "movement": "movement", "avoidance": "avoidance", "one_shot": "one_shot"}
    for card in load_content().items.values():
        if card.family == "armour":
            assert card.id in params[card["slot"]], card.id
        elif card.family == "healing":
            assert card.id in params["stims" if card["in_combat"] else "medkits"], card.id
        elif card.family in option:
            assert card.id in params[option[card.family]], card.id
    assert all(family in params["kit"] for family in ITEM_FAMILIES)


@pytest.mark.parametrize("command, zone", [("encounter", False), ("journey", True), ("value", True),
                                           ("tune", True)])
def test_every_command_that_equips_a_stalker_takes_the_card_options_of_one_table(command, zone):
    """The card options are written once (``CARDS``): each command that equips a stalker takes
    all of them in their order (the Zone's cards where the stalker crosses the Zone), with their
    defaults, and they reach the run as one loadout."""
    from sim.cli.common import CARDS, ZONE_CARDS
    from tests.conftest import zonesim

    params = [p for p in typer.main.get_command(sim.cli.app).commands[command].params if p.name in CARDS]
    assert [p.name for p in params] == [n for n in CARDS if zone or n not in ZONE_CARDS]
    assert all(p.default == CARDS[p.name][1] or p.default == () and CARDS[p.name][1] == [] for p in params)
    if command == "encounter":
        proc = zonesim(command, "-m", "snork", "--trials", 100, "--weapon", "ak47", "--mods", "rebored,bogus")
        assert proc.returncode == 2 and "'bogus'" in proc.stderr and "--mods" in proc.stderr
