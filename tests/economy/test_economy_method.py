"""The pieces of the one valuation method (``sim.economy``), each against a
number worked out by hand: verdicts on the price grid, the widened bootstrap
interval, the tier's rate, values and the reservation price, the shopper on
a noise-free outcome, the loadout's card operations and comparisons."""

import math
import shutil
import zlib
from types import SimpleNamespace

import numpy as np
import pytest

from sim.analysis.stats import Z95, t975
from sim.content import DEFAULT_DIR, load_content
from sim.content.loadout import Loadout, clones, kind
from sim.economy.kits import loadout_comparison
from sim.economy.outcome import SELECTION_BATCHES, Batches, Outcome
from sim.economy.shop import bagged, grow, racing
from sim.economy.value import (CardEffect, Estimate, band, expand_factor, interval, priced_rows, rate_of,
                               reservation, verdict)


def test_verdicts_read_the_price_against_the_value_interval_on_the_price_grid():
    """A price is fair when it is the grid price nearest to some value of the interval (its ends
    rounded to the nearest step). Planted bug: the old band (ends floored and ceiled to whole
    steps) made [95, 109] G fair at 50 G and fails the flashlight line."""
    assert band(120.0, 180.0, 50) == (100, 200)
    assert band(0.0, 9.0, 50) == (50, 50)  # a card costs at least one step
    assert verdict(True, False, 0, 0, 100) == "no use here"
    assert verdict(False, True, 0, 0, 100) == "worth nothing here"
    assert verdict(False, False, 0, 0, 100, reason="no rate") == "not valued"
    assert verdict(False, False, 0, 90, 100) == "over-priced"
    assert verdict(False, False, 110, 300, 100) == "under-priced"
    assert verdict(False, False, 90, 300, 100) == "fair"
    assert verdict(False, False, 610, 635, 600, step=50) == "fair"  # no price on the 50 G grid lies inside
    assert verdict(False, False, 95, 109, 50, step=50) == "under-priced"  # the flashlight: 100 G is the fair price
    assert verdict(False, False, 95, 109, 100, step=50) == "fair"
    assert verdict(False, False, 4, 30, 50, step=50) == "fair"  # one step is the least a card costs
    assert verdict(False, False, 4, 30, 100, step=50) == "over-priced"
    # what it does is worth under half a step: no price on the grid is its own (the planted cap with
    # defence 0, measured at [0, 1.2] G through the logistics of holding a card, read over-priced at 100 G)
    assert verdict(False, False, 0, 1.2, 100, step=25) == "no use here"
    assert verdict(False, False, 4, 24.9, 100, step=50) == "no use here"


def test_the_bootstrap_interval_is_widened_for_few_batches_and_holds_its_point():
    assert expand_factor(20) == pytest.approx(t975(19) / Z95 * math.sqrt(20 / 19))
    replicas = np.linspace(8.0, 12.0, 401)
    lo, hi = interval(10.0, replicas, 1.5)
    assert (lo, hi) == pytest.approx((10 - 1.5 * 1.9, 10 + 1.5 * 1.9))
    assert interval(0.0, replicas - 11.0, 1.0, 0.0) == [0.0, pytest.approx(0.9)]  # clipped at 0, holds the point


def _effect(card, family, price, diff, in_kit=False, kind_=None, home=False, resample=None):
    comparison = SimpleNamespace(card=card, family=family, price=price, count=1, basis="", in_kit=in_kit,
                                 held=int(in_kit), kind=frozenset(kind_ or [card]))
    diff = np.asarray(diff, float)
    standalone = Estimate(0.0 if home else max(0.0, diff.mean()), np.maximum(0.0, diff[resample].mean(axis=1)))
    upgrade = standalone if family == "movement" else None
    return CardEffect(comparison, diff, False, home, standalone, upgrade)


def test_rate_values_and_reservation_prices_from_a_kit_worked_by_hand():
    """A kit of two cards (a zone map, 200 G, +1 day; a smoke bomb, 100 G, +0.5
    day): the rate is 1.5 days per 300 G, so 1 day = 200 G. A GLONASS (+2 days)
    is worth 400 G; at today's prices the zone map offers a surplus of 0 (worth
    its 200 G) and the jetpack (+3 days, 1,000 G) none, so the most a buyer
    would pay for the GLONASS is its value, within a 300 G budget: 300 G."""
    resample = np.random.default_rng(1).integers(0, 4, (200, 4))
    movement = ("zone_map", "glonass", "jetpack")
    effects = [_effect("zone_map", "movement", 200, [1, 1, 1, 1], True, movement, resample=resample),
               _effect("smoke_bomb", "escape", 100, [0.4, 0.6, 0.5, 0.5], True, resample=resample),
               _effect("glonass", "movement", 600, [2, 2, 2, 2], kind_=movement, resample=resample),
               _effect("jetpack", "movement", 1000, [3, 3, 3, 3], kind_=movement, resample=resample),
               _effect("medkit", "healing", 100, [-0.2, -0.1, -0.3, -0.2], home=True, resample=resample)]
    rate, reason = rate_of(effects, 1.0, "days to spare")
    assert reason is None and rate.point == pytest.approx(1.5 / 300)
    rows, values = priced_rows(effects, rate, None, 1.0, 300, 50)
    row = {r["item"]: r for r in rows}
    assert row["glonass"]["value_g"] == pytest.approx(400) and row["jetpack"]["value_g"] == pytest.approx(600)
    assert row["zone_map"]["value_g"] + row["smoke_bomb"]["value_g"] == pytest.approx(300)  # the kit: worth its cost
    assert row["medkit"]["value_g"] == 0 and row["medkit"]["verdict"] == "worth nothing here"
    assert row["glonass"]["reservation_g"] == pytest.approx(300)  # bounded by the budget
    assert reservation(effects[2].comparison, values, None).point == pytest.approx(400)
    # a cheaper GLONASS clone would cap what the buyer pays for the jetpack: 600 - (400 - 100)
    values["glonass"] = (values["glonass"][0], 100)
    assert reservation(effects[3].comparison, values, None).point == pytest.approx(300)


def test_no_rate_where_money_buys_no_outcome():
    resample = np.random.default_rng(1).integers(0, 4, (200, 4))
    noise = [_effect("helmet", "armour", 200, [0.1, -0.1, 0.1, -0.1], True, resample=resample)]
    rate, reason = rate_of(noise, 1.0, "survival")
    assert rate is None and "money buys no measurable survival here" in reason
    rows, _ = priced_rows(noise, None, reason, 1.0, 1000, 50)
    assert rows[0]["value_g"] is None and rows[0]["verdict"] == "not valued" and rows[0]["reason"] == reason
    rate, reason = rate_of([], 1.0, "survival")
    assert rate is None and "holds no card" in reason


class _Sum:
    """A noise-free outcome: each card's worth summed (the same in every batch but
    one tiny wobble, so the shopper's standard errors are finite)."""

    def __init__(self, worth):
        self.worth = worth

    def _batches(self, kit, trials):
        total = sum(self.worth.get(i, 0.0) * n for i, n in kit.cards().items())
        size = trials // SELECTION_BATCHES
        return Batches((total + 1e-9 * np.arange(SELECTION_BATCHES)) * size, size)

    def selection(self, kit, trials, which=0):
        return self._batches(kit, trials)

    def many(self, kits, first, trials, n_batches):
        return [self._batches(k, trials) for k in kits]

    def head(self, kits, first, trials, n_batches, k):
        return [Batches(b.sums[:k], b.size) for b in self.many(kits, first, trials, n_batches)]


class _Noisy(Outcome):
    """Each card's worth summed, plus noise of a fixed draw per kit and batch: the
    batch sums a real outcome gives, counted in batches run."""

    key = "noisy"

    def __init__(self, worth, sd):
        super().__init__()
        self.worth, self.sd = worth, sd

    def task(self):
        return self._sums

    def _sums(self, kit, first, size, n_batches):
        total = sum(self.worth.get(i, 0.0) * n for i, n in kit.cards().items())
        seed = zlib.crc32(kit.describe().encode())
        noise = [np.random.default_rng([seed, first + b * size]).standard_normal() for b in range(n_batches)]
        return (total + self.sd * np.array(noise)) * size


def test_the_shopper_buys_the_most_gain_per_g_until_nothing_affordable_gains(content):
    worth = {"bag_of_nuts": 1.0, "glonass": 3.0, "jetpack": 20.0}  # per G: 0.01, 0.005, 0.008
    kit = grow(content, _Sum(worth), Loadout(), 700, trials=2000)
    assert kit.avoidance == ("bag_of_nuts",) and kit.movement == ("glonass",)
    assert grow(content, _Sum(worth), Loadout(), 2600, trials=2000).movement == ("jetpack",)  # a swap up
    assert grow(content, _Sum(worth), Loadout(), 50, trials=2000) == Loadout()


def test_racing_runs_the_whole_set_only_for_changes_that_could_still_be_the_pick():
    """Screened on 6 batches against a kit at 0: a clear gain of 1 per 100 G sets the
    floor (its rank at 3 standard errors under, about 0.0093 per G); a change gaining
    0.5 for 100 G cannot reach it, a free one with a gain still unclear ranks first
    if it gains at all, a loss or an unfieldable kit is dropped."""
    size, wobble = 10, 0.01 * np.array([1, -1, 1, -1, 1, -1])
    current = Batches(np.zeros(SELECTION_BATCHES), size)
    heads = [Batches((1.0 + wobble) * size, size), Batches((0.5 + wobble) * size, size),
             Batches((0.02 + 5 * wobble) * size, size), Batches((-0.5 + wobble) * size, size), ValueError("no firearm")]
    assert racing([100, 100, 0, 100, 100], heads, current) == [True, False, True, False, False]
    assert racing([100], [Batches(wobble * size, size)], current) == [True]  # no clear gain: no floor, kept


def test_the_kit_kept_beside_the_first_sets_is_the_one_bought_most_often_in_any_order():
    """The first set's kit leads; beside it the other kit bought most often, two purchases of
    the same cards in another order counting as one kit, the first bought first among equals.
    Planted bug: a kit keyed by its Loadout (the order of its explosives) counts the reordered
    kit apart, and the medkits (bought first) are kept instead."""
    first = Loadout(explosives=(("molotov", 2), ("limonka", 1)))
    reordered = Loadout(explosives=(("limonka", 1), ("molotov", 2)))
    medkits = Loadout(healing=(("medkit", 2),))
    maps = Loadout(movement=("zone_map",))
    assert bagged([maps, medkits, first, reordered], 2) == [maps, first]
    assert bagged([maps, maps, medkits, medkits, first], 2) == [maps, medkits]
    assert bagged([maps, maps], 2) == [maps]


class _Split(_Sum):
    """The GLONASS gains 3 in the first half of the selection batches and loses 3 in the
    second (no gain on the whole set); the other cards as ``_Sum``."""

    def _batches(self, kit, trials):
        plain = super()._batches(kit, trials)
        half = np.where(np.arange(SELECTION_BATCHES) < SELECTION_BATCHES // 2, 3.0, -3.0)
        return Batches(plain.sums + kit.cards().get("glonass", 0) * half * plain.size, plain.size)


def test_a_resampled_shopper_judges_on_the_batches_the_resample_draws(content):
    """A bootstrap resample of the selection batches (``resample``) is what the shopper
    judges on: the whole set shows the GLONASS gaining nothing, a resample of its first
    half a clear gain. Planted bug: ``resample`` ignored buys the same kit both times."""
    worth = {"bag_of_nuts": 1.0}
    assert grow(content, _Split(worth), Loadout(), 700, trials=2000) == Loadout(avoidance=("bag_of_nuts",))
    drawn = grow(content, _Split(worth), Loadout(), 700, trials=2000, resample=np.arange(SELECTION_BATCHES) % 10)
    assert drawn.movement == ("glonass",) and drawn.avoidance == ("bag_of_nuts",)


@pytest.mark.parametrize("budget", [700, 1500, 3000])
def test_the_raced_shopper_buys_the_kit_the_unraced_one_buys_with_fewer_runs(content, budget, monkeypatch):
    """Noise of 2 per batch against worths 0.6..20, close in gain per G: racing drops
    changes on the screen, yet the kit bought is the one every change run on the
    whole set buys (a race at 0 standard errors buys another kit at every budget here)."""
    worth = {"bag_of_nuts": 1.0, "glonass": 5.0, "jetpack": 20.0, "zone_map": 2.0, "helmet": 1.8, "flashlight": 0.6,
             "dosimeter": 3.9}
    raced = _Noisy(worth, 2.0)
    kit = grow(content, raced, Loadout(), budget, trials=2000)
    monkeypatch.setattr("sim.economy.shop.RACE_Z", math.inf)
    unraced = _Noisy(worth, 2.0)
    assert grow(content, unraced, Loadout(), budget, trials=2000) == kit
    assert raced.runs < unraced.runs


def test_z11_z18_z20_z21_z24_a_loadouts_one_card_changes(content):
    """Z-20 one firearm (its modifiers go with it), Z-21 a modifier fits its firearm,
    Z-24 one armour per slot, Z-11/Z-18 decks and the explosives cap."""
    kit = Loadout(weapon="ak47", mods=("rebored",), body="leather_jacket", healing=(("stimulator", 1),))
    assert kit.with_card(content, "vest").body == "vest"
    assert dict(kit.with_card(content, "stimulator").healing) == {"stimulator": 2}
    berdanka = kit.with_card(content, "zeroing")
    assert berdanka.weapon == "berdanka" and berdanka.mods == ("zeroing",)
    assert kit.without({"ak47"}).weapon is None and kit.without({"ak47"}).mods == ()
    assert kit.without({"stimulator", "leather_jacket"}) == Loadout(weapon="ak47", mods=("rebored",))
    full = Loadout(explosives=(("limonka", content.rules["fight"]["max_explosives"]),))
    assert full.with_card(content, "molotov") is None
    changes = kit.changes(content, max_count=2)
    assert all(c.cost(content) != kit.cost(content) or c != kit for c in changes)
    assert any(c.mods == ("rebored", "laser_sight") for c in changes)
    assert not any(c.weapon == "ak47" and "zeroing" in c.mods for c in changes)
    rebuilt = Loadout()
    for card in kit.card_list():
        rebuilt = rebuilt.with_card(content, card)
    assert rebuilt == kit and kit.describe() == "ak47, rebored, leather_jacket, stimulator"


@pytest.fixture(scope="module")
def with_clones(tmp_path_factory):
    folder = tmp_path_factory.mktemp("clones") / "content"
    shutil.copytree(DEFAULT_DIR, folder)
    items = folder / "items.toml"
    items.write_text(items.read_text().replace(
        "[armour.vest]", '[armour.vest_b]\nname = "Vest B"\nslot = "body"\ndefence = 2\nprice = 700\n\n[armour.vest]'))
    return load_content(folder)


def test_z20_z24_z25_z27_z28_a_slot_cards_kind_is_its_slot_and_any_other_cards_its_copies(with_clones):
    content = with_clones
    assert kind(content, "glonass") == {"zone_map", "glonass", "jetpack"}
    assert kind(content, "vest_b") == {"leather_jacket", "vest", "vest_b", "exoskeleton"}
    assert kind(content, "helmet") == {"helmet", "sphere_helmet"}
    assert kind(content, "ak47") == {"berdanka", "ak47", "kvazar"}
    assert kind(content, "space_gate") == {"helicopter_call", "space_gate"}  # Z-27, Z-28: one job
    assert clones(content, "vest") == {"vest", "vest_b"} and kind(content, "limonka") == {"limonka"}


def test_comparisons_stand_alone_upgrade_and_a_modifiers_firearm(content):
    kit = Loadout(movement=("zone_map",), body="vest", healing=(("stimulator", 2),))
    glonass = loadout_comparison(content, kit, "glonass")
    assert glonass.without_kit == Loadout(body="vest", healing=(("stimulator", 2),))
    assert glonass.with_kit.movement == ("glonass",) and glonass.held_kit == kit and not glonass.in_kit
    zone_map = loadout_comparison(content, kit, "zone_map")
    assert zone_map.in_kit and zone_map.held_kit is None and zone_map.with_kit == kit
    stim = loadout_comparison(content, kit, "stimulator")  # the 2nd copy against 1
    assert dict(stim.with_kit.healing) == {"stimulator": 2} and dict(stim.without_kit.healing) == {"stimulator": 1}
    assert stim.in_kit and stim.held == 2 and stim.count == 1
    laser = loadout_comparison(content, kit, "laser_sight")  # Z-21: its firearm is in both kits
    assert laser.without_kit.weapon == laser.with_kit.weapon == "ak47" and laser.with_kit.mods == ("laser_sight",)
    assert "in place of no firearm" in laser.basis


def test_tuning_leaves_a_card_nothing_prices_and_says_why():
    """A card of no use, or whose effect interval includes 0, keeps its price with its
    reason; one with a clear effect moves."""
    from sim.economy.tune import held_reason

    assert "cannot be priced by this objective" in held_reason({"verdict": "no use here", "effect_ci95": [0, 0]})
    assert "includes 0" in held_reason({"verdict": "over-priced", "effect_ci95": [-0.1, 0.3]})
    assert held_reason({"verdict": "over-priced", "effect_ci95": [0.1, 0.3]}) is None
    assert held_reason({"item": "ak47", "verdict": "over-priced", "effect_ci95": [0.1, 0.3]}, ("ak47",)) == \
        "locked by the designer"


def test_a_price_outside_its_interval_moves_toward_its_value_by_at_least_one_step():
    """``next_price``: the damped move rounded to the grid, at least one step toward the value
    (planted bug: without the one step a price 60 G from its value at damping 0.2 never moves,
    and tuning calls a price outside its interval settled), never below one step."""
    from sim.economy.tune import next_price

    assert next_price(500, 100, 50, 1.0) == 100
    assert next_price(500, 100, 50, 0.5) == 300
    assert next_price(100, 160, 50, 0.2) == 150
    assert next_price(100, 40, 50, 0.2) == 50
    assert next_price(100, 0, 50, 1.0) == 50
    assert next_price(100, 110, 50, 0.2) == 100  # within half a step: the grid price nearest its value


def _row(item, price, value, low, high):
    return {"item": item, "price": price, "value_g": value, "value_g_ci95": [low, high], "verdict": "fair",
            "effect_ci95": [0.1, 0.2]}


def test_only_a_price_outside_its_interval_moves_and_twins_meet_at_one_price():
    """``proposal``: a fair price stays (planted bug: every price went to its point value
    whenever one price lay outside its interval, so a second tuning of a tuned list moved most
    cards by their noise); twins (the same card at two prices) go to one price together."""
    from types import SimpleNamespace

    from sim.economy.tune import proposal

    rows = [_row("a", 300, 280, 200, 400), _row("b", 100, 500, 400, 600), _row("m", 100, 250, 150, 350),
            _row("m2", 300, 260, 160, 360), _row("locked", 100, 900, 800, 1000)]
    out = proposal(SimpleNamespace(items=rows), {r["item"]: r["price"] for r in rows}, ("locked",), 50, 1.0,
                   [("m", "m2")])
    assert out["a"] == 300 and out["b"] == 500 and out["locked"] == 100
    assert out["m"] == out["m2"] == 300  # the fair twin's price
    rows[2:4] = [_row("m", 100, 250, 150, 350), _row("m2", 500, 260, 160, 360)]
    out = proposal(SimpleNamespace(items=rows), {r["item"]: r["price"] for r in rows}, ("locked",), 50, 1.0,
                   [("m", "m2")])
    assert out["m"] == out["m2"] == 250  # neither fair: to their mean value
    fair = proposal(SimpleNamespace(items=rows[:1]), {"a": 300}, (), 50, 1.0)
    assert fair == {"a": 300}


def test_twins_are_cards_alike_but_for_name_price_and_deck(with_clones):
    from sim.content.loadout import twins

    groups = twins(with_clones, list(with_clones.items))
    assert ("vest", "vest_b") in groups and all(len(g) > 1 for g in groups)
    for group in groups:
        fields = [{k: v for k, v in with_clones.items[c].fields.items() if k not in ("name", "price", "deck")}
                  for c in group]
        assert all(f == fields[0] for f in fields)


def test_tier_fit_names_the_tiers_a_price_asks_too_much_of():
    from sim.economy.tune import tier_fit

    row = {"tiers": [{"tier": "1,000 G", "value_g": 100.0, "value_g_ci95": [80.0, 120.0]},
                     {"tier": "5,000 G", "value_g": 300.0, "value_g_ci95": [250.0, 350.0]},
                     {"tier": "2,500 G", "value_g": 0.0, "value_g_ci95": [0.0, 0.0]}]}
    # 2,500 G: of no use there (interval [0, 0]), so no price is too dear for its buyers
    assert tier_fit(row, 300, 50) == {"too_dear_for": ["1,000 G"], "no_use_for": ["2,500 G"], "change_the_card": True}
    row["tiers"][1]["value_g_ci95"] = [200.0, 350.0]  # the intervals no longer 2x apart
    assert tier_fit(row, 100, 50) == {"too_dear_for": [], "no_use_for": ["2,500 G"], "change_the_card": False}
    assert tier_fit(row, 150, 50)["too_dear_for"] == ["1,000 G"]  # 80-120 G: 100 G is the fair grid price
    row["tiers"][2].update(value_g=0.4, value_g_ci95=[0.0, 0.9])  # worth a little: too dear at 100 G
    assert tier_fit(row, 100, 50)["too_dear_for"] == ["2,500 G"]


def test_a_card_that_changes_nothing_on_the_valuation_trials_is_no_use_here():
    """Effect interval [0, 0] is *no use here*, whatever the selection trials say (a
    card can differ there by chance and still do nothing the values rest on)."""
    from sim.economy.kits import Comparison
    from sim.economy.value import measure_kit

    class Stub:
        def many(self, kits, first, trials, n_batches):
            selection = first != 0
            return [Batches(np.full(n_batches, 5.0 if (k == "with" and selection) else 1.0), trials // n_batches)
                    for k in kits]

    card = Comparison("tyoshcha", "explosives", 500, frozenset({"tyoshcha"}), "added", "with", "without")
    effect = measure_kit([card], {"cautious": Stub()}, trials=400, selection=400, batches=20,
                         resample=np.zeros((10, 20), int))[0]
    assert effect.no_use and not effect.home
    assert verdict(effect.no_use, effect.home, 0.0, 0.0, 500) == "no use here"


def test_each_side_of_a_card_is_played_by_the_strongest_strategy_for_it():
    """Worked by hand: strategy A does 5 with the card and 3 without, B 2 and 4. The kit
    with the card is A's, the kit without it B's, so the card adds 5 - 4 = 1; with the
    kit without it pinned to A (the tier's own kit keeps the tier's strategy) it adds 2."""
    from sim.economy.kits import Comparison
    from sim.economy.value import measure_kit

    family = {"a": Scores({"with": 5.0, "without": 3.0}), "b": Scores({"with": 2.0, "without": 4.0})}
    card = Comparison("ak47", "firearms", 1500, frozenset({"ak47"}), "added", "with", "without")
    kw = dict(trials=400, selection=400, batches=20, resample=np.zeros((10, 20), int))
    free = measure_kit([card], family, **kw)[0]
    assert free.strategies == ("a", "b") and free.standalone.point == pytest.approx(1.0)
    pinned = measure_kit([card], family, pinned={"without": "a"}, **kw)[0]
    assert pinned.strategies == ("a", "a") and pinned.standalone.point == pytest.approx(2.0)


class Scores(Outcome):
    """A kit's outcome is ``scores[kit]`` on every trial, plus ``wobble`` x a fixed
    pattern of the trial number shifted by ``phase`` (a runner's own luck)."""

    def __init__(self, scores, wobble=0.0, phase=0.0):
        super().__init__()
        self.scores, self.wobble, self.phase, self.key = scores, wobble, phase, repr(scores)

    def task(self):
        def sums(kit, first, size, n_batches):
            trials = np.arange(first, first + size * n_batches)
            per_trial = self.scores[kit] + self.wobble * np.sin(trials * 0.7 + self.phase)
            return per_trial.reshape(n_batches, size).sum(axis=1)
        return sums


def test_a_screened_head_and_the_rest_are_the_batches_of_the_whole():
    """``Outcome.head`` runs the first batches alone; a later ``many`` runs only the
    rest and the whole is the same numbers as a run in one piece, counted once."""
    screened, whole = Scores({"k": 1.0}, wobble=1.0), Scores({"k": 1.0}, wobble=1.0)
    head = screened.head(["k"], 100, 400, 20, 6)[0]
    assert head.sums.size == 6 and screened.runs == 6
    joined = screened.many(["k"], 100, 400, 20)[0]
    assert screened.runs == 20
    np.testing.assert_array_equal(joined.sums, whole.many(["k"], 100, 400, 20)[0].sums)
    np.testing.assert_array_equal(screened.head(["k"], 100, 400, 20, 6)[0].sums, joined.sums[:6])
    assert screened.runs == 20  # the head of a known whole is cut from it


def test_journey_batches_do_not_depend_on_how_the_trials_are_cut(content):
    """The campaign batch sums of trials 0..59 in one piece equal those of 0..19 then
    20..59: each trial has its own dice (DESIGN "Randomness"), so screening changes
    no number."""
    import strategies
    from sim.economy.outcome import journey_sums

    st = strategies.get("tactician", mode="journey")
    kit = Loadout.from_options(content, weapon="ak47")
    whole = journey_sums(content, st, 10, 3, kit, 0, 10, 6)
    cut = np.vstack([journey_sums(content, st, 10, 3, kit, 0, 10, 2), journey_sums(content, st, 10, 3, kit, 20, 10, 4)])
    np.testing.assert_array_equal(whole, cut)


def test_a_strategy_clearly_behind_on_the_screen_is_not_run_on_the_whole_set():
    """Strategy ``c`` trails by 3 per trial, far beyond the batches' wobble: dropped on
    the screen, its whole selection set never runs; ``a`` and ``b`` tie within the
    noise and both go on, and the better on the whole set plays the kit."""
    from sim.economy.shop import SCREEN_BATCHES
    from sim.economy.value import side_strategies

    family = {"a": Scores({"kit": 5.0}, 1.0, 1.0), "b": Scores({"kit": 5.01}, 1.0, 2.0),
              "c": Scores({"kit": 2.0}, 1.0, 3.0)}
    assert side_strategies(["kit"], family, 1000, {}) == {"kit": "b"}
    assert family["c"].runs == SCREEN_BATCHES and family["a"].runs == family["b"].runs == SELECTION_BATCHES


def test_z11_z18_a_consumable_is_one_copy_at_the_margin_its_substitutes_on_the_same_kit(content):
    """Every counted card is measured against the same kit: the n-th held copy against n-1,
    a stronger or weaker card of its kind in place of one held copy, a card with no held
    substitute as the first copy on top. Planted bug: measuring the army medkit on top of
    the kit's two medkits (its third heal, against a medkit's second) makes the stronger
    card look weaker, as the 1,000 G tier of the default content showed (90 G against 122 G)."""
    from sim.economy.kits import substitutes

    kit = Loadout(healing=(("medkit", 2),), explosives=(("molotov", 2), ("limonka", 1)))
    assert substitutes(content, "army_medkit") == {"medkit", "army_medkit"}
    assert substitutes(content, "stimulator") == {"stimulator", "combat_stimulator"}  # in combat: another use
    medkit, army = (loadout_comparison(content, kit, c) for c in ("medkit", "army_medkit"))
    assert medkit.without_kit == army.without_kit and dict(medkit.without_kit.healing) == {"medkit": 1}
    assert dict(army.with_kit.healing) == {"medkit": 1, "army_medkit": 1} and army.held == 0 and medkit.held == 2
    tyoshcha = loadout_comparison(content, kit, "tyoshcha")  # in place of the limonka (the strongest below it)
    assert tyoshcha.without_kit == loadout_comparison(content, kit, "limonka").without_kit
    assert dict(tyoshcha.with_kit.explosives) == {"molotov": 2, "tyoshcha": 1}
    weak = Loadout(explosives=(("tyoshcha", 1), ("limonka", 1)))  # nothing below a molotov: the weakest goes
    assert dict(loadout_comparison(content, weak, "molotov").with_kit.explosives) == {"tyoshcha": 1, "molotov": 1}
    stim = loadout_comparison(content, kit, "stimulator")  # no substitute held: the first copy on top
    assert stim.without_kit == kit and dict(stim.with_kit.healing) == {"medkit": 2, "stimulator": 1}


def test_the_rate_counts_every_copy_the_kit_holds_so_the_kit_is_worth_its_cost():
    """Two medkits (100 G each, the 2nd adds 0.5 day) and a zone map (200 G, 1 day): the rate
    counts both copies at the margin, 2 x 0.5 + 1 = 2 days for 400 G, so the kit's values add up
    to 400 G. Planted bug: counting the medkits once (the old rate) gives 1.5 days for 300 G."""
    resample = np.random.default_rng(1).integers(0, 4, (200, 4))
    effects = [_effect("medkit", "healing", 100, [0.5] * 4, True, resample=resample),
               _effect("zone_map", "movement", 200, [1.0] * 4, True, resample=resample)]
    effects[0].comparison.held = 2
    rate, reason = rate_of(effects, 1.0, "days to spare")
    assert reason is None and rate.point == pytest.approx(2.0 / 400)
    rows, _ = priced_rows(effects, rate, None, 1.0, 1000, 50)
    assert sum(r["value_g"] * r["held"] for r in rows) == pytest.approx(400)


class CardCount(Outcome):
    """Every card carried adds one to every trial's outcome, with a wobble of the trial number."""

    key = "card count"

    def task(self):
        def sums(kit, first, size, n_batches):
            trials = np.arange(first, first + size * n_batches)
            per_trial = sum(kit.cards().values()) + 0.1 * np.sin(trials * 0.7)
            return per_trial.reshape(n_batches, size).sum(axis=1)
        return sums


def test_k05_the_shopper_buys_no_kit_above_the_asset_limit(content):
    """K-05: cards above the asset limit are discarded at the day's end, so the shopper,
    for whom every card gains, stops at ``max_cards`` with money left; without the limit he
    buys on. Planted bug: the shopper without the limit bought 15 cards under the safety
    objective on the default content (asset_limit 14) and rebought the discards every day."""
    from sim.economy.shop import grow

    start = Loadout()
    limited = grow(content, CardCount(), start, 5000, trials=400, max_cards=4)
    free = grow(content, CardCount(), start, 5000, trials=400)
    assert sum(limited.cards().values()) == 4 and limited.cost(content) < 5000
    assert sum(free.cards().values()) > 4


def test_at_fixed_rates_a_card_is_worth_what_its_keenest_held_kit_makes_it():
    """Tuning's valuation (``value_cards(rates=...)``): with two kits held at a tier, a
    card's tier value is the larger of its values against each kit alone, at the same fixed
    rate, on the same dice; with one tier, the overall value is that tier value. Planted bug:
    the first kit's value alone (the span of the plain valuation) leaves the berdanka at what
    a kit without a firearm's buyer would pay."""
    from sim.economy.options import context_maker
    from sim.economy.shop import KitChoice
    from sim.economy.value import value_cards

    content = load_content()
    ctx = context_maker(content, mode="fight", monsters=["snork"], budgets=[1500], trials=8_000)(None, None)
    tier = value_cards(ctx).tiers[0]
    rates = {tier.label: (tier.rate_estimate, None)}
    armed = Loadout.from_options(content, weapon="berdanka", body="leather_jacket")
    assert armed != tier.choice.kit

    def held(*kits):
        choice = KitChoice(tier.choice.strategy, kits[0], kits[1:], tier.choice.outcomes, ctx.selection, pinned=True)
        return {r["item"]: r for r in value_cards(ctx, kits={tier.label: choice}, rates=rates).tiers[0].rows}, choice

    both, _ = held(tier.choice.kit, armed)
    alone = [held(tier.choice.kit)[0], held(armed)[0]]
    assert any(a["value_g"] != b["value_g"] for a, b in zip(*[x.values() for x in alone]))
    for item, row in both.items():
        values = [a[item]["value_g"] for a in alone if a[item]["value_g"] is not None]
        if values:
            assert row["value_g"] == pytest.approx(max(values), rel=1e-12), item
    result = value_cards(ctx, kits={tier.label: held(tier.choice.kit, armed)[1]}, rates=rates)
    for row in result.items:
        if row["value_g"] is not None:
            assert row["value_g"] == pytest.approx(both[row["item"]]["value_g"], rel=1e-9), row["item"]
    kits = [Loadout.from_options(content, weapon=w) for w in ("berdanka", "ak47", "kvazar")] + [
        Loadout.from_options(content, head=h) for h in ("helmet", "sphere_helmet")]
    many = value_cards(ctx, kits={tier.label: held(tier.choice.kit, armed, *kits)[1]}, rates=rates).tiers[0]
    assert [kit for kit, _ in many.plays][-1] == "seventh"  # as many kits as tuning holds (MAX_KITS and more)
