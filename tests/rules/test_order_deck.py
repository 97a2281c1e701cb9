"""The order deck on the numba kernel (Z-09, Z-41): cards drawn at random, held
until a death sends them back, the campaign's goal and its length."""

import shutil

import numpy as np
import pytest

import strategies
from sim.content import DEFAULT_DIR, load_content
from sim.content.journey import load_journey
from sim.content.loadout import Loadout
from sim.kernels import journey as J
from sim.run.journey import campaign_outcomes, simulate_journey
from strategies.journey import JourneyStrategy

LISTED = JourneyStrategy("listed", "", "fighter", 0, True, "listed")
NEAREST = JourneyStrategy("nearest", "", "fighter", 0, True, "nearest")
CAUTIOUS_KIT = Loadout(weapon="ak47", body="vest", healing=(("stimulator", 2),))


def _content_copy(tmp_path, calm=False, journey_edits=()):
    """The default content, with every hex at danger 0 (``calm``) and ``(old, new)`` edits of journey.toml."""
    folder = tmp_path / "content"
    shutil.copytree(DEFAULT_DIR, folder)
    if calm:
        text = (folder / "maps" / "zone.toml").read_text()
        head, _, rest = text.partition('danger = """')
        grid, _, tail = rest.partition('"""')
        zeros = "\n".join(" ".join("0" for _ in line.split()) for line in grid.strip().splitlines())
        (folder / "maps" / "zone.toml").write_text(f'{head}danger = """\n{zeros}\n"""{tail}')
    path = folder / "journey.toml"
    text = path.read_text()
    for old, new in journey_edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path.write_text(text)
    return load_content(folder)


def test_z41_the_deck_is_drawn_at_random_and_a_calm_campaign_holds_every_card(tmp_path):
    """No events: every campaign completes all 12 cards (reputation 12, every reward
    paid, the deck empty), but the order of the draws, and so the goal's day,
    differs from campaign to campaign."""
    game = _content_copy(tmp_path, calm=True)
    deck = load_journey(game).orders
    r = simulate_journey(game, Loadout(weapon="ak47"), LISTED, days=80, trials=300, seed=3)
    assert len(deck) == 12 and r.orders_hist[-1] == r.trials
    assert r.sums[J.S_REPUTATION] == 12 * r.trials and r.sums[J.S_ORDERS] == 12 * r.trials
    assert r.sums[J.S_MONEY] == r.trials * (1000 + sum(o["reward"] for o in deck))
    assert np.count_nonzero(r.done_hist[:-1]) >= 3


def test_z41_an_offer_of_the_whole_deck_draws_nothing(tmp_path):
    """``order_offer = 0``: the deck is face up, "listed" takes the cards in file
    order, and every calm campaign is the same campaign."""
    game = _content_copy(tmp_path, calm=True, journey_edits=[("order_offer = 3 ", "order_offer = 0 ")])
    r = simulate_journey(game, Loadout(weapon="ak47"), LISTED, days=80, trials=100, seed=3)
    assert np.count_nonzero(r.done_hist) == 1 and r.probabilities["p_complete"] == 1.0


def test_z41_nearest_of_the_offer_reaches_the_goal_sooner(tmp_path):
    """From the same offers, the nearest card saves days over the earliest in file order."""
    game = _content_copy(tmp_path, calm=True)
    days = np.arange(82)
    listed = simulate_journey(game, Loadout(weapon="ak47"), LISTED, days=80, trials=300, seed=3)
    nearest = simulate_journey(game, Loadout(weapon="ak47"), NEAREST, days=80, trials=300, seed=3)
    assert nearest.done_hist @ days + 100 < listed.done_hist @ days  # over 1/3 day a campaign sooner


@pytest.fixture(scope="module")
def deadly_outcomes(content):
    """Campaigns of 60 days of cautious play with a kit that wins many fights but not all."""
    cautious = strategies.get("cautious", mode="journey")
    return campaign_outcomes(content, CAUTIOUS_KIT, cautious, days=60, seed=5, first=0, n=1500)


def test_z09_a_death_sends_every_order_card_back(deadly_outcomes):
    """Reputation is the cards held (it starts at 0, +1 an order, 0 at a death); a
    campaign without deaths holds every card it completed; deaths lose cards,
    and cards sent back are drawn and completed again (more completions than
    the deck has cards)."""
    o = deadly_outcomes
    assert np.array_equal(o[:, J.OUT_REPUTATION], o[:, J.OUT_HELD])
    alive = o[:, J.OUT_DEATHS] == 0
    assert np.array_equal(o[alive, J.OUT_ORDERS], o[alive, J.OUT_HELD])
    assert np.all(o[:, J.OUT_HELD] <= o[:, J.OUT_ORDERS])
    assert np.any(o[~alive, J.OUT_ORDERS] > o[~alive, J.OUT_HELD])
    assert np.mean(o[:, J.OUT_ORDERS] > 12) > 0.5


def test_z41_the_goal_is_the_first_day_goal_orders_cards_are_held(deadly_outcomes, content):
    """The goal's day is the reach day of ``goal_orders`` cards (7 by default); reach
    days never fall as the count rises, and a count reached implies the smaller ones."""
    o = deadly_outcomes
    goal = load_journey(content).settings["goal_orders"]
    assert goal == 7
    assert np.array_equal(o[:, J.OUT_GOAL_DAY], o[:, J.OUT_REACH0 + goal - 1])
    reach = o[:, J.OUT_REACH0:J.OUT_REACH0 + 12]
    later = reach[:, 1:]
    assert np.all((later == 0) | (later >= reach[:, :-1])) and np.all((later == 0) | (reach[:, :-1] > 0))
    assert 0.05 < np.mean(o[:, J.OUT_GOAL_DAY] > 0) < 0.95


def test_z41_campaign_outcomes_are_the_run_journeys_sums(content):
    """The per-campaign outcomes add up to the aggregates of the same campaigns."""
    o = campaign_outcomes(content, CAUTIOUS_KIT, LISTED, days=30, seed=9, first=100, n=400)
    r = simulate_journey(content, CAUTIOUS_KIT, LISTED, days=30, trials=400, seed=9, trial_start=100)
    assert r.sums[J.S_ORDERS] == o[:, J.OUT_ORDERS].sum()
    assert r.sums[J.S_REPUTATION] == o[:, J.OUT_REPUTATION].sum()
    assert r.sums[J.S_WEALTH] == o[:, J.OUT_WEALTH].sum()
    assert r.sums[J.S_DEATHS] == o[:, J.OUT_DEATHS].sum() and r.sums[J.S_KILLS] == o[:, J.OUT_KILLS].sum()
    assert r.counts[0] == np.count_nonzero(o[:, J.OUT_GOAL_DAY])
    assert np.array_equal(r.orders_hist, np.bincount(o[:, J.OUT_HELD], minlength=13))
