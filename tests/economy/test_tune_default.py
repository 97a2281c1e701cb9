"""``zonesim tune`` on the shipped default content (quick counts, the poorest and the
richest tier): the tuned prices keep every tier's reference kit within its budget,
and every moved card had a measured effect."""

from dataclasses import replace

from sim.content import load_content
from sim.economy.context import declared, load_context
from sim.economy.tune import held_reason, tune_prices


def test_tuned_prices_keep_every_reference_kit_within_its_budget():
    content = load_content()
    ctx = declared(content, replace(load_context(content, quick=True), budgets=(1000, 5000)))
    tuned = tune_prices(ctx, rounds=3)
    assert len(tuned.history) > 1, "the default prices are not at value: tuning must move some"
    for label, check in tuned.kit_check.items():
        assert check["affordable"] and check["cost"] <= check["budget"], (label, check)
    for row in tuned.values.items:
        if held_reason(row) and row["verdict"] in ("no use here", "worth nothing here", "not valued"):
            assert tuned.prices[row["item"]] == tuned.start[row["item"]], row
    overall = {i: p for i, p in tuned.prices.items() if p != tuned.start[i]}
    assert overall and all(p % ctx.price_step == 0 and p >= ctx.price_step for p in overall.values())
