"""The fights sub-view of the economy: the monster mix the campaigns meet
(Z-39, derived from their hex entries and the event tables) and card values
on the chance to survive one encounter of it."""

from dataclasses import replace

import numpy as np
import pytest

from sim.content import load_content
from sim.content.journey import load_journey
from sim.content.load import ContentError
from sim.content.loadout import Loadout
from sim.economy.context import load_context
from sim.economy.mix import encounter_rates
from sim.economy.value import item_economy, verdict
from tests.conftest import edited_content


@pytest.fixture(scope="module")
def journey(content):
    return load_journey(content)


def test_z39_one_entry_meets_each_group_by_the_event_and_group_weights(journey):
    """One entry into a hex of danger 3: the chance of a monster event times each eligible group's share."""
    danger = journey.hexmap.danger.ravel()
    entries = np.zeros(danger.size)
    entries[int(np.flatnonzero(danger == 3)[0])] = 1.0
    mix = encounter_rates(journey, entries)
    kinds = {k: w[3] for k, w in journey.events.items()}
    p_monster = kinds["monster"] / sum(kinds.values())
    eligible = [g for g in journey.monster_groups if g["min_danger"] <= 3 <= g["max_danger"]]
    total = sum(g["weight"] for g in eligible)
    expected = {tuple(g["monsters"]): p_monster * g["weight"] / total for g in eligible}
    assert dict(zip(mix.groups, mix.per_campaign)) == pytest.approx(expected)
    assert mix.shares.sum() == pytest.approx(1.0)
    assert "blind_dog x3" in mix.labels() and "blind_dog" in mix.labels()


def test_z39_a_hex_of_danger_0_meets_no_monster(journey):
    danger = journey.hexmap.danger.ravel()
    entries = (danger == 0).astype(float)
    with pytest.raises(ContentError, match="meet no monster"):
        encounter_rates(journey, entries)


def test_z39_the_mix_predicts_the_kills_the_journey_kernel_counts(content, journey):
    """A stalker who wins every fight (greedy: never escapes; a full kvazar and
    an exoskeleton) kills, per campaign, the monsters of every group he meets:
    the mix derived from the kernel's hex entries must predict the kernel's own
    kill count. 20,000 campaigns; kills per campaign have a variance under 12,
    so 4 standard errors are under 0.1."""
    from sim.run.journey import get_journey_strategy, simulate_journey

    kit = Loadout(character="novice", weapon="kvazar", mods=("boosted_battery", "quark_accelerator",
                                                             "electronic_sight"), head="sphere_helmet",
                  body="exoskeleton")
    result = simulate_journey(content, kit, get_journey_strategy("greedy"), trials=20_000, seed=3, days=30)
    assert result.sums[5] / result.trials < 0.01  # he (almost) never dies, so every fight is won
    mix = encounter_rates(journey, result.traffic / result.trials)
    predicted = sum(rate * len(group) for group, rate in zip(mix.groups, mix.per_campaign))
    assert result.sums[2] / result.trials == pytest.approx(predicted, abs=0.1)


def test_sub_view_verdicts_set_the_view_against_the_whole_price():
    assert verdict(True, 0, 0, 100, sub_view=True) == "no use here"
    assert verdict(False, 0, 90, 100, sub_view=True) == "worth part of its price here"
    assert verdict(False, 90, 300, 100, sub_view=True) == "about its price here"
    assert verdict(False, 110, 300, 100, sub_view=True) == "worth its price here alone"
    assert verdict(False, 0, 0.2, 100, sub_view=True) == "worth nothing here"  # changes fights, never for the better


@pytest.fixture(scope="module")
def fights_run(content):
    ctx = replace(load_context(content, quick=True), budgets=(1000,), bootstrap=200)
    ctx = replace(ctx, views=(replace(ctx.view("fights"), valuation_trials=10_000, selection_trials=1_000),))
    return item_economy(content, ctx, view="fights", items={"tyoshcha", "medkit", "zone_map", "molotov", "vest"},
                        upgrades=False)


def test_fights_view_values_cards_on_the_campaigns_mix(fights_run):
    rows = {r["item"]: r for r in fights_run.tiers[0].rows}
    tier = fights_run.tiers[0]
    assert 0 < tier.base_rate < 1 and tier.mix is not None and len(tier.mix.groups) >= 3
    assert rows["zone_map"]["verdict"] == "no use here"  # movement plays no part in a fight
    assert rows["medkit"]["verdict"] == "no use here"  # Z-31: medkits only outside combat
    assert rows["tyoshcha"]["value_g_ci95"][0] > 0 and rows["tyoshcha"]["effect_ci95"][0] > 0
    for row in rows.values():
        assert row["value_g_ci95"][0] >= 0 and row["effect_ci95"][1] >= 0, row  # free disposal
        assert row["verdict"] in ("no use here", "worth nothing here", "worth part of its price here",
                                  "about its price here", "worth its price here alone")
    context = fights_run.to_json()["context"]
    assert context["view"] == "fights" and context["view_strategy"] == "fighter"
    mix = context["tiers"][0]["monster_mix"]
    assert sum(m["share"] for m in mix) == pytest.approx(1.0) and all(m["per_campaign"] > 0 for m in mix)


def test_a_missing_view_names_the_file(tmp_path):
    folder = edited_content(tmp_path, "economy.toml", "[views.fights]", "[views_off.fights]")
    with pytest.raises(ContentError, match=r"economy.toml: \[views\]|economy.toml: \[views.fights\]: missing"):
        load_context(load_content(folder)).view("fights")


@pytest.mark.parametrize("args,message", [
    (("value", "--view", "fights", "-m", "snork"), "zonesim: error: --quick, --items and --view"),
    (("value", "--view", "poker"), "zonesim: error: --view: 'poker'; use one of: fights"),
])
def test_view_cli_bad_input_is_one_line(tmp_path, args, message):
    from tests.conftest import zonesim
    proc = zonesim(*args, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.startswith(message) and proc.stderr.count("\n") == 1, proc.stderr


def test_view_strategy_is_checked_before_compiling(tmp_path):
    from tests.conftest import zonesim
    folder = edited_content(tmp_path, "economy.toml", 'strategy = "fighter"', 'strategy = "berserker"')
    proc = zonesim("value", "--view", "fights", "--content", folder, cwd=tmp_path)
    assert proc.returncode == 2 and "economy.toml: views.fights.strategy: unknown strategy 'berserker'" in proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
