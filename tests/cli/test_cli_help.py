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
