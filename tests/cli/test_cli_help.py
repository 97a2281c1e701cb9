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
