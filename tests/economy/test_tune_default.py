"""``zonesim tune`` on the shipped default content (quick counts, the poorest tier): the
numeraire holds each tier's rate, the kit check's challengers are held, and the cards
nothing prices keep theirs."""

from dataclasses import replace

import pytest

from sim.content import load_content
from sim.economy.context import declared, load_context
from sim.economy.tune import MAX_KITS, held_reason, tune_prices


@pytest.fixture(scope="module")
def tuned():
    content = load_content()
    ctx = declared(content, replace(load_context(content, quick=True), budgets=(1000,)))
    return tune_prices(ctx, rounds=2, locked=("jetpack",))


def test_values_are_at_each_tiers_rate_at_the_contents_prices(tuned):
    """The numeraire (docs/decisions/numeraire.md): every round values the cards at the rate
    each tier had at the content's prices, so a tuned price is in the G the budgets and
    rewards are in. Planted bug: the rate recomputed from the held kit at each round's prices
    (the old method) moved with the prices: the first move took the list's total from
    30,900 G to 4,800 G."""
    for tier in tuned.values.tiers:
        start = tuned.rates[tier.label]
        assert tier.rate == pytest.approx(start, rel=1e-12)
        for row in tier.rows:
            if row["value_g"] is not None and row["effect"] > 0 and row["verdict"] != "worth nothing here":
                assert row["value_g"] * start * row["count"] == pytest.approx(row["effect"], rel=1e-9), row["item"]


def test_every_challenger_is_held_and_the_check_reads_every_held_kit(tuned):
    """A kit the shopper clearly prefers at a round's prices is held from then on: its cards
    are valued at its margin too (their keenest buyer). At the tuned prices the check's gain
    is over the held kit it beats least."""
    for label, check in tuned.kit_check.items():
        held = tuned.kits[label]
        assert check["challengers"] == [k.describe() for k in held.other_kits]
        assert len(held.kits) <= MAX_KITS
        assert check["against"] in [k.describe() for k in held.kits]
        assert check["clearly_better"] == (check["gain"] > 2.0 * check["gain_se"] and check["gain"] > 0
                                           and check["would_buy"] not in [k.describe() for k in held.kits])


def test_a_moved_price_is_on_the_grid_and_cards_nothing_prices_or_locked_keep_theirs(tuned):
    assert len(tuned.history) > 1, "the default prices are not at value: tuning must move some"
    assert tuned.prices["jetpack"] == tuned.start["jetpack"]
    for row in tuned.values.items:
        if held_reason(row, tuned.locked):
            assert tuned.prices[row["item"]] == tuned.start[row["item"]], row
    moved = {i: p for i, p in tuned.prices.items() if p != tuned.start[i]}
    step = tuned.context.price_step
    assert moved and all(p % step == 0 and p >= step for p in moved.values())
    assert any(r["verdict"] != "fair" for r in tuned.values.items if r["item"] in moved) or tuned.converged


def test_a_lock_on_an_unknown_card_is_one_line_naming_it():
    from sim.content.loadout import LoadoutError

    content = load_content()
    ctx = declared(content, replace(load_context(content, quick=True), budgets=(1000,)))
    with pytest.raises(LoadoutError, match="--lock: unknown card 'unobtainium'"):
        tune_prices(ctx, locked=("unobtainium",))


def test_tuning_some_cards_leaves_the_others_at_their_prices():
    content = load_content()
    ctx = declared(content, replace(load_context(content, quick=True), budgets=(1000,)))
    tuned = tune_prices(ctx, rounds=1, items=["zone_map", "glonass"])
    assert set(tuned.prices) == {"zone_map", "glonass"}
    assert tuned.prices != tuned.start  # the default prices are not at value: some must move


def test_a_tuned_copy_records_its_numeraire_and_kits_and_a_second_tuning_starts_from_them(tuned, tmp_path):
    """``tune --out`` writes each tier's rate into the copy's economy.toml (``[prices]
    numeraire``, G per unit of the objective) and the kits the values were measured on
    (``[prices] reference_kits``), and tuning that copy values in those rates on those kits,
    not in the ones its own prices would give: a second tuning checks the same fixed point on
    other dice. Planted bugs: a copy without the numeraire re-measured the rates at the tuned
    prices, and a second tuning of the planted content moved 23 of 42 cards by more than 25%;
    without the kits it bought others at the tuned prices, and moved 25 of 42."""
    from sim.economy.tune import numeraire, recorded_state

    copy = tuned.context.write_prices(tmp_path / "content", tuned.prices, rates=tuned.rates, kits=tuned.kits)
    settings = load_context(load_content(copy), quick=True)
    recorded = dict(settings.numeraire)
    assert recorded.keys() == tuned.rates.keys()
    for label, rate in tuned.rates.items():
        assert recorded[label] == pytest.approx(1 / rate, rel=1e-5)
    again = numeraire(tuned.values, recorded)
    for label, (rate, reason) in again.items():
        assert reason is None and rate.point == pytest.approx(tuned.rates[label], rel=1e-5)
    ctx = declared(load_content(copy), replace(settings, budgets=(1000,)))
    kits, rates = recorded_state(ctx)
    assert {label: k.kits for label, k in kits.items()} == {label: k.kits for label, k in tuned.kits.items()}
    assert {label: r.point for label, (r, _) in rates.items()} == pytest.approx(tuned.rates, rel=1e-5)
    other = load_context(load_content(copy), quick=True, objective="safety")
    assert other.numeraire == () and other.reference_kits == ()  # recorded for speed: another objective
    fresh = declared(load_content(), replace(load_context(load_content(), quick=True), budgets=(1000,)))
    assert recorded_state(fresh) == (None, None)  # the shipped content records none: tuning buys afresh
