"""Stalkeriada pace (sim/economy/tune.py): the visa or loot prices at which a
chosen share of games has a winner (S-04, S-05, S-06)."""

import tomllib

import pytest

from sim.content import DEFAULT_DIR, load_content
from sim.content.loadout import LoadoutError
from sim.economy.tune import paced_prices, parse_pace_objective, tune_pace, write_paced
from sim.run.stalkeriada import simulate_stalkeriada
from tests.conftest import zonesim

PLAYERS = ["cautious", "greedy", "jelly", "rush"]


def test_s05_paced_content_changes_only_the_visa_and_loot_prices(tmp_path):
    start = {"exit_visa": 25000, "loot": [500, 500, 1000, 1000, 2000, 2000]}
    assert paced_prices(start, "visa", 0.5) == {"exit_visa": 12500, "loot": start["loot"]}
    assert paced_prices(start, "loot", 0.5) == {"exit_visa": 25000, "loot": [1000, 1000, 2000, 2000, 4000, 4000]}
    folder = write_paced(DEFAULT_DIR, tmp_path / "paced", {"exit_visa": 12500, "loot": [1, 2, 3, 4, 5, 6]})
    old = tomllib.loads((DEFAULT_DIR / "stalkeriada.toml").read_text())
    new = tomllib.loads((folder / "stalkeriada.toml").read_text())
    assert new["shop"]["exit_visa"] == 12500 and new["borscht"]["prices"] == [1, 2, 3, 4, 5, 6]
    new["shop"]["exit_visa"], new["borscht"]["prices"] = old["shop"]["exit_visa"], old["borscht"]["prices"]
    assert new == old
    assert not (tmp_path / "paced.partial").exists()


def test_s05_pace_meets_the_finish_target_on_common_dice(tmp_path):
    """A cheaper visa makes more games end with a winner; the bisection lands
    on a factor whose finish share is near the target (800 games a step: about
    the bisection's last steps are within 0.02 of the
    factor, and 4 standard errors of a share near 0.5 are 0.07: tolerance 0.08)."""
    content = load_content()
    cheap = simulate_stalkeriada(load_content(write_paced(DEFAULT_DIR, tmp_path / "cheap", paced_prices(
        {"exit_visa": 25000, "loot": [500, 500, 1000, 1000, 2000, 2000]}, "visa", 0.25))), PLAYERS, games=200,
        seed=3, rotate_seats=True)
    base = simulate_stalkeriada(content, PLAYERS, games=200, seed=3, rotate_seats=True)
    finished = [1 - float(r.win_rates()["win_rate"][-1]) for r in (base, cheap)]
    assert finished[1] > finished[0] + 0.1
    result = tune_pace(content, PLAYERS, target=0.5, move="visa", games=200, seed=3)
    assert abs(result.finished - 0.5) < 0.08
    assert result.prices["exit_visa"] < 25000 and result.prices["loot"] == [500, 500, 1000, 1000, 2000, 2000]
    assert result.steps[0] == {"factor": 1.0, "finished": finished[0]}  # the content's own prices, the same dice


def test_pace_bad_objective_and_move():
    with pytest.raises(LoadoutError, match="target-finish=P"):
        parse_pace_objective("target-finish=1.5")
    proc = zonesim("tune", "--mode", "stalkeriada", "--objective", "target-finish=0.5", "--move", "money",
                   "--trials", 10)
    assert proc.returncode == 2 and "--move" in proc.stderr and "Traceback" not in proc.stderr
    proc = zonesim("tune", "--mode", "stalkeriada", "--objective", "target-finish=2")
    assert proc.returncode == 2 and "target-finish=P" in proc.stderr
