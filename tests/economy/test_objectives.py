"""Objectives a designer names (economy.toml ``[objectives]``): the outcomes of a
toy campaign worked by hand, each built-in objective's score, values under
another objective, and one-line errors for bad objectives."""

import shutil

import numpy as np
import pytest

from sim import api
from sim.content import DEFAULT_DIR, load_content
from sim.content.journey import load_journey
from sim.content.loadout import Loadout
from sim.economy.context import load_context
from sim.economy.objective import BUILT_IN, Objective
from sim.kernels import journey as J
from sim.run.journey import campaign_outcomes
from strategies.journey import JourneyStrategy
from tests.conftest import edit_file, zonesim

LISTED = JourneyStrategy("listed", "", "fighter", 0, True, "listed")


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """The default content with every order card's destination the Cordon, where the
    stalker starts: on day 1 he completes the whole deck without a step (Z-41)."""
    folder = tmp_path_factory.mktemp("toy") / "content"
    shutil.copytree(DEFAULT_DIR, folder)
    path = folder / "journey.toml"
    lines = [('destination = "cordon"' if line.startswith("destination = ") else line)
             for line in path.read_text().splitlines()]
    path.write_text("\n".join(lines) + "\n")
    return load_content(folder)


def test_a_toy_campaign_worked_by_hand(toy):
    """12 cards done on day 1: 12 orders, 12 held, reputation 12 (Z-41), the goal of 7
    cards on day 1, no death; wealth = 1,000 G start money + the rewards + the
    AK-47 and the vest at half price (Z-12); the built-in scores follow."""
    rewards = sum(o["reward"] for o in load_journey(toy).orders)
    o = campaign_outcomes(toy, Loadout(weapon="ak47", body="vest"), LISTED, days=20, seed=1, first=0, n=50)
    assert np.all(o[:, J.OUT_ORDERS] == 12) and np.all(o[:, J.OUT_HELD] == 12)
    assert np.all(o[:, J.OUT_REPUTATION] == 12) and np.all(o[:, J.OUT_DEATHS] == 0)
    assert np.all(o[:, J.OUT_GOAL_DAY] == 1) and np.all(o[:, J.OUT_REACH0:J.OUT_REACH0 + 12] == 1)
    assert np.all(o[:, J.OUT_WEALTH] == 1000 + rewards + 1500 // 2 + 500 // 2)
    scores = {ob.name: ob.score(o, 20, 7)[0] for ob in load_context(toy).objectives}
    assert scores == {"speed": 20.0, "safety": 0.0, "wealth": 1000 + rewards + 1000.0, "reputation": 12.0}


def test_spare_days_of_the_kth_card_and_weighted_sums():
    """``spare_days_K`` is days + 1 less the day K cards were first held (0 if never);
    a weighted objective adds its terms."""
    o = np.zeros((3, J.OUT_REACH0 + 4), np.int64)
    o[:, J.OUT_DEATHS] = [0, 1, 2]
    o[:, J.OUT_REACH0 + 1] = [5, 0, 30]  # 2 cards held on day 5, never, day 30
    o[:, J.OUT_GOAL_DAY] = [0, 0, 0]
    careful = Objective("careful", (("spare_days_2", 1.0), ("deaths", -2.0)))
    assert careful.score(o, 30, 4).tolist() == [26.0, -2.0, -3.0]
    assert Objective("speed", (("spare_days", 1.0),)).score(o, 30, 2).tolist() == [26.0, 0.0, 1.0]
    assert careful.unit == "careful points"
    assert Objective("safety", (("deaths", -1.0),)).unit == "deaths avoided"


def test_the_default_economy_names_the_four_built_in_objectives(content):
    settings = load_context(content)
    assert [o.name for o in settings.objectives] == list(BUILT_IN)
    assert settings.objective.name == "speed"
    assert load_context(content, objective="wealth").objective.unit == "G of wealth at the end"


def test_value_under_another_objective_names_it(content):
    """A journey scenario valued for wealth: the unit and the caption say so, and the
    vest adds wealth on top of the kit (it is resold at half price, Z-12)."""
    result = api.value(mode="journey", weapon="ak47", body="vest", items=["vest"], trials=400, selection=40,
                       strategies=["cautious"], objective="wealth", days=20)
    doc = result.to_json()
    assert doc["context"]["unit"] == "G of wealth at the end"
    assert doc["context"]["objective"] == "wealth"
    assert "objective wealth" in doc["context"]["outcome"]


@pytest.mark.parametrize("edit, fragment", [
    (("wealth = { wealth = 1 }", "wealth = { luck = 1 }"), "objectives.wealth.luck: names no outcome"),
    (("wealth = { wealth = 1 }", "wealth = { spare_days_13 = 1 }"), "spare_days_13: the deck holds 12 order cards"),
    (("wealth = { wealth = 1 }", "wealth = { wealth = 0 }"), "expected a non-zero number"),
    (('use = "speed"', 'use = "glory"'), "objective.use: unknown objective 'glory'"),
])
def test_a_bad_objective_is_one_line_and_exit_2(tmp_path, edit, fragment):
    _edited_run_fails(tmp_path, "economy.toml", edit, fragment, "value", "--quick")


def test_an_unknown_objective_option_is_one_line_and_exit_2():
    proc = zonesim("value", "--quick", "--objective", "glory")
    assert proc.returncode == 2 and "--objective: unknown objective 'glory'" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    proc = zonesim("value", "--objective", "wealth", "-m", "bloodsucker")  # a fight has no objective
    assert proc.returncode == 2 and "--objective: for campaigns" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("edit, fragment", [
    (('goal_orders = 7 ', 'goal_orders = 13 '), "journey.goal_orders: 13 is more than the 12"),
    (('order_offer = 3 ', 'order_offer = -1 '), "order_offer"),
    (('destination = "wish_granter"', 'destination = "nowhere"'), "orders[4].destination: 'nowhere'"),
])
def test_a_bad_order_deck_is_one_line_and_exit_2(tmp_path, edit, fragment):
    _edited_run_fails(tmp_path, "journey.toml", edit, fragment, "journey", "--trials", "10")


def _edited_run_fails(tmp_path, file, edit, fragment, *args):
    """``zonesim ARGS`` on a copy of the default content with ``edit`` in ``file``: one line naming it, exit 2."""
    folder = tmp_path / "content"
    shutil.copytree(DEFAULT_DIR, folder)
    edit_file(folder, file, *edit)
    proc = zonesim(*args, "--content", folder)
    assert proc.returncode == 2 and fragment in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_another_objective_scores_the_same_campaigns_without_running_them_again(content):
    """``for_objective`` shares the runs: its batch sums are the new objective's
    scores of the very campaigns the first one ran (no kernel batch more)."""
    from sim.economy.outcome import JourneyOutcome

    objectives = {o.name: o for o in load_context(content).objectives}
    kit = Loadout(weapon="ak47", body="vest")
    speed = JourneyOutcome(content, "cautious", 20, 1, objectives["speed"], 7)
    speed.valuation(kit, 400, 20)
    runs = speed.runs
    wealth = speed.for_objective(objectives["wealth"])
    sums = wealth.valuation(kit, 400, 20).sums
    assert wealth.runs == runs == 20
    outcomes = campaign_outcomes(content, kit, speed.strategy, days=20, seed=1, first=0, n=400)
    assert np.allclose(sums, objectives["wealth"].score(outcomes, 20, 7).reshape(20, 20).sum(axis=1))


def test_values_by_objective_are_those_of_a_run_under_each_objective(content):
    """A journey scenario valued under every objective: each column (the campaigns scored
    again, not run again) equals a valuation run from scratch under that objective on the
    same dice, and a card's safety value differs from its speed value (its own rate).
    Planted bug: scoring every column with the objective in use makes the safety column
    the speed one, and this test fails on it."""
    common = dict(mode="journey", weapon="ak47", body="vest", items=["vest", "medkit"], trials=400, selection=40,
                  strategies=["cautious"], days=20)
    result = api.value(**common, by_objective=True)
    table = result.objective_table()
    assert [o["name"] for o in result.by_objective["objectives"]] == list(BUILT_IN)
    assert {f"{name}_g" for name in BUILT_IN} <= set(table.columns) and table.height == 2
    units = [o["unit"] for o in result.by_objective["objectives"]]
    assert units == ["days to spare reaching the goal", "deaths avoided", "G of wealth at the end",
                     "reputation at the end"]
    for name in ("speed", "safety"):
        alone = {r["item"]: r["value_g"] for r in api.value(**common, objective=name).items}
        for row in table.iter_rows(named=True):
            assert row[f"{name}_g"] == pytest.approx(alone[row["item"]], nan_ok=True), (name, row)
    assert table["safety_g"].to_list() != table["speed_g"].to_list()
    proc = zonesim("value", "--by-objective", "-m", "bloodsucker")
    assert proc.returncode == 2 and "--by-objective: for campaigns" in proc.stderr
