"""The monsters the campaigns meet (Z-39), derived from their hex entries and
the event tables: the mix the fights view of the economy fights out."""

import numpy as np
import pytest

from sim.content.journey import load_journey
from sim.content.load import ContentError
from sim.content.loadout import Loadout
from sim.economy.mix import encounter_rates


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
    import strategies
    from sim.run.journey import simulate_journey

    kit = Loadout(character="novice", weapon="kvazar", mods=("boosted_battery", "quark_accelerator",
                                                             "electronic_sight"), head="sphere_helmet",
                  body="exoskeleton")
    result = simulate_journey(content, kit, strategies.get("greedy", mode="journey"), trials=20_000, seed=3, days=8)
    assert result.sums[5] / result.trials < 0.01  # he (almost) never dies, so every fight is won
    mix = encounter_rates(journey, result.traffic / result.trials)
    predicted = sum(rate * len(group) for group, rate in zip(mix.groups, mix.per_campaign))
    assert result.sums[2] / result.trials == pytest.approx(predicted, abs=0.1)
