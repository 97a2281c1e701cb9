"""The contract every built-in strategy and every item family keeps, in the style
of scikit-learn's ``check_estimator``: checked one by one, so a new strategy or
a new family of cards is held to it without a test of its own.

- every built-in strategy of a mode (``strategies.names``) plays that mode's
  small scenario to the end, on two chunk sizes with the same numbers;
- every item family of the content is valued (each card gets a value or the
  reason it has none), priced (its price is a field of the explorer and a row
  of the value table) and shown in the explorer's form.
"""

import numpy as np
import pytest

import strategies
from sim.content import DEFAULT_DIR, load_content
from sim.modes import MODES
from sim.reference.loadout import loadout_from_dict
from sim.run.chunks import plan, run_chunks
from sim.run.fight import FightWork, fight_template
from sim.run.journey import JourneyWork
from sim.run.skirmish import SkirmishWork, skirmish_template
from sim.run.stalkeriada import StalkeriadaWork
from tests.modes.test_mode_contract import DUEL_KIT, FIGHT_KIT, JOURNEY_KIT, SEED, _skirmish_setup

PLAYS = {  # mode -> (content, strategy) -> its chunk work on the mode's small scenario, and the trials
    "fight": (lambda content, s: FightWork(fight_template(content, loadout_from_dict(FIGHT_KIT),
                                                          ["snork", "flesh"])[0], s, SEED), 2000),
    "duel": (lambda content, s: FightWork(fight_template(content, loadout_from_dict(DUEL_KIT), ["chimera"])[0], s,
                                          SEED), 2000),
    "journey": (lambda content, s: JourneyWork(content, loadout_from_dict(JOURNEY_KIT), s, 12, SEED), 120),
    "skirmish": (lambda content, s: SkirmishWork(skirmish_template(_skirmish_setup(content)), s, SEED), 120),
    "stalkeriada": (lambda content, s: StalkeriadaWork(
        content, ((s, strategies.get("cautious", mode="stalkeriada")),), SEED, False), 30),
}
STRATEGIES = [(mode, name) for mode in MODES for name in strategies.names(mode)]


@pytest.fixture(scope="module")
def content():
    return load_content()


def test_every_mode_has_a_play_and_every_mode_a_strategy():
    assert set(PLAYS) == set(MODES)
    assert all(strategies.names(mode) for mode in MODES)


@pytest.mark.parametrize("mode, name", STRATEGIES, ids=[f"{m}-{n}" for m, n in STRATEGIES])
def test_every_built_in_strategy_plays_its_mode(content, mode, name):
    """The strategy plays the mode's scenario to the end: finite sums, and the same on two chunk sizes."""
    make, trials = PLAYS[mode]
    work = make(content, strategies.get(name, mode=mode))
    runs = [{k: v for k, v in run_chunks(work, plan(trials, chunk))[0].items() if k != "elapsed_s"}
            for chunk in (trials, trials // 3 + 1)]
    assert runs[0] and runs[0].keys() == runs[1].keys()
    for key, value in runs[0].items():
        assert np.all(np.isfinite(np.asarray(value, np.float64))), (mode, name, key)
        assert np.array_equal(value, runs[1][key]), (mode, name, key)


@pytest.fixture(scope="module")
def fight_values(content):
    """Every card valued in one small fight context: the standard kit against a snork."""
    from sim.content.loadout import Loadout
    from sim.economy.context import load_context, scenario
    from sim.economy.value import value_cards

    kit = Loadout.from_options(content, weapon="ak47", body="vest", stims={"stimulator": 1})
    return value_cards(scenario(content, load_context(content), mode="fight", monsters=["snork"], loadout=kit,
                                trials=400, seed=SEED))


def families(content) -> dict:
    out = {}
    for item, entry in content.items.items():
        out.setdefault(entry.family, []).append(item)
    return out


@pytest.mark.parametrize("family", sorted(families(load_content(DEFAULT_DIR))))
def test_every_item_family_is_valued_priced_and_shown_in_the_explorer(content, fight_values, family):
    from sim.explore.fields import content_fields

    cards = families(content)[family]
    rows = {row["item"]: row for row in fight_values.items}
    for card in cards:
        row = rows.get(card)
        assert row is not None, f"{family}: {card} has no row in the value table"
        assert row["price"] == content.items[card]["price"]
        assert row["value_g"] is not None or row.get("reason"), f"{family}: {card} has neither a value nor a reason"
    shown = {(f.file, f.key) for f in content_fields(DEFAULT_DIR)}
    assert all(("items.toml", f"{family}.{card}.price") in shown for card in cards), family
