"""Price tuning over the declared context: equal value per G for every card.

Each round values every card at the current prices (its stand-alone value in
G, compensating variation, ``sim.economy.value``) and moves each price
``damping`` of the way to it, rounded to the declared price step and never
below one step; a card whose value interval allows one rounded price only
(one worth less than a step) goes straight to it. A card's fair price is its
value, since the value is already counted in the game's G against the fixed
budget tiers. Stand-alone values
keep this loop from feeding on itself: a card's value never rests on the
price of a card of its own slot, so substitutes (the zone map, the GLONASS,
the jetpack) do not chase each other's prices, and no price-level factor
carries one card's price into another's. A card that changes nothing
anywhere in the context ("no use here" at every tier) keeps its price:
nothing says what it is worth. Tuning stops when every moving price lies
inside its value interval widened to whole price steps, since rounding cannot
do better; then each moving price is set to its value, rounded, so identical
cards end at one price. Otherwise it stops after ``rounds`` price moves.
At the full trials, prices first settle on the quick trials of the same
context and only then on the full ones, whose narrower intervals need just
the last few rounds."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import polars as pl

from sim.content import Content
from sim.economy.context import EconomyContext
from sim.economy.value import EconomyResult, item_economy
from sim.run.tune import with_prices


@dataclass
class EconomyTune:
    """Prices by round, the last round's values, and whether they converged."""

    context: EconomyContext
    start: dict
    history: list  # prices at the start of each round, the final ones last
    values: EconomyResult
    converged: bool
    elapsed_s: float

    @property
    def prices(self) -> dict:
        return self.history[-1]

    def history_frame(self) -> pl.DataFrame:
        """Price per round and item (round 0: the content's prices)."""
        return pl.DataFrame([{"round": k, "item": i, "price": float(p)} for k, prices in enumerate(self.history)
                             for i, p in prices.items()])

    def table(self) -> pl.DataFrame:
        """One row per card: old and new price, its value in G, its fair-price interval, verdict."""
        return pl.DataFrame([{"item": r["item"], "old_price": self.start[r["item"]], "new_price": self.prices[r["item"]],
                              "value_g": r["value_g"], "fair_low": r["value_g_ci95"][0], "fair_high": r["value_g_ci95"][1],
                              "verdict": r["verdict"]} for r in self.values.items])

    def to_json(self) -> dict:
        """The JSON of ``zonesim tune --json`` (README "JSON contracts")."""
        rows = {row["item"]: row for row in self.values.items}
        return {"converged": self.converged, "rounds": len(self.history) - 1,
                "context": self.context.describe(), "elapsed_s": self.elapsed_s,
                "prices": [{"item": i, "old_price": self.start[i], "new_price": self.prices[i],
                            "fair_price_ci95": [v if math.isfinite(v) else None for v in rows[i]["value_g_ci95"]]}
                           for i in self.start]}


def band(low, high, step):
    """The prices a card with fair-price interval ``[low, high]`` may have: the
    interval widened to whole price steps, at least one step."""
    floor = max(step, step * math.floor(low / step))
    ceil = max(step, step * math.ceil(high / step)) if math.isfinite(high) else math.inf
    return floor, ceil


def next_price(price, fair, step, damping):
    """``damping`` of the way from ``price`` to ``fair``, rounded to ``step``, at least one step."""
    if not math.isfinite(fair):
        return price
    return max(step, step * round((price + damping * (fair - price)) / step))


def inside(result, prices, step) -> bool:
    """Every moving card's price lies in the ``band`` of its value interval."""
    for row in _moving(result):
        low, high = band(*row["value_g_ci95"], step)
        if not low <= prices[row["item"]] <= high:
            return False
    return True


def _moved(result, prices, step, damping) -> dict:
    """Every moving price ``damping`` of the way to its value (``next_price``);
    a card whose ``band`` holds one price only goes straight to it."""
    moved = dict(prices)
    for row in _moving(result):
        low, high = band(*row["value_g_ci95"], step)
        moved[row["item"]] = low if low == high else next_price(prices[row["item"]], row["value_g"], step, damping)
    return moved


def _moving(result):
    """The cards whose price tuning moves: all but those of no use anywhere."""
    return [row for row in result.items if row["verdict"] != "no use here"]


def tune_economy(content: Content, ctx: EconomyContext, *, rounds=20, damping=0.5, items=None, coarse=None,
                 on_progress=None, client=None, store=None) -> EconomyTune:
    """Tune every valued card's price (module doc). With a ``coarse`` context (the
    same one at fewer trials) prices first settle on it, then on ``ctx``: the
    long walk from the designer's prices costs quick rounds, and only the last
    few run at the full trials. ``on_progress(done, total, label)``; campaigns on
    the Dask ``client`` if given; every round's kit outcomes in the checkpoint ``store``."""
    started = time.perf_counter()
    stages = [c for c in (coarse, ctx) if c is not None]
    valuations = 0

    def valued(prices, stage, k):
        nonlocal valuations
        label = f"round {k}" + (" (quick trials)" if stages[stage] is not ctx else "")
        progress = _valuation_progress(on_progress, valuations, rounds + len(stages), label)
        valuations += 1
        return item_economy(with_prices(content, prices), stages[stage], items=items, upgrades=False,
                            on_progress=progress, client=client, store=store)

    stage = 0
    result = valued({}, stage, 0)
    start = {row["item"]: row["price"] for row in result.items}
    history, prices = [dict(start)], dict(start)
    while True:
        if inside(result, prices, ctx.price_step):
            if stage + 1 < len(stages):
                stage += 1
                result = valued(prices, stage, len(history) - 1)
                continue
            snapped = _moved(result, prices, ctx.price_step, 1.0)  # at their values: identical cards at one price
            return EconomyTune(ctx, start, history + ([snapped] if snapped != prices else []), result, True,
                               time.perf_counter() - started)
        if len(history) > rounds:
            return EconomyTune(ctx, start, history, result, False, time.perf_counter() - started)
        prices = _moved(result, prices, ctx.price_step, damping)
        history.append(dict(prices))
        result = valued(prices, stage, len(history) - 1)


def _valuation_progress(on_progress, k, valuations, label):
    if on_progress is None:
        return None
    return lambda done, total, item: on_progress(k * total + done, valuations * total, f"{label}: {item}")
