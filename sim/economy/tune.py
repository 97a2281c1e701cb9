"""Price tuning over the declared context: every price moves toward its value
in G, so that every card is worth its price (equal value per G).

A card's value in G is its fair price (compensating variation: no exchange
rate needed). Each round values every card at the current prices, then moves
each price ``damping`` of the way to its value, rounded to the declared price
step and never below one step. A card that changes nothing anywhere in the
context ("no use here" at every tier) keeps its price: nothing says what it
is worth. Tuning stops when every price lies inside its value interval widened
to whole price steps (the rounding cannot do better), or after ``rounds``."""

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
    """Prices by round, the last round's values and whether they converged."""

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
        """One row per card: old and new price, its value in G with the interval, verdict."""
        return pl.DataFrame([{"item": r["item"], "old_price": self.start[r["item"]], "new_price": self.prices[r["item"]],
                              "value_g": r["value_g"], "fair_low": r["value_g_ci95"][0],
                              "fair_high": r["value_g_ci95"][1], "verdict": r["verdict"]} for r in self.values.items])

    def to_json(self) -> dict:
        """The JSON of ``zonesim tune --json`` (README "JSON contracts")."""
        fair = {row["item"]: row["value_g_ci95"] for row in self.values.items}
        return {"converged": self.converged, "rounds": len(self.history) - 1, "context": self.context.describe(),
                "elapsed_s": self.elapsed_s,
                "prices": [{"item": i, "old_price": self.start[i], "new_price": self.prices[i],
                            "fair_price_ci95": [v if math.isfinite(v) else None for v in fair[i]]}
                           for i in self.start]}


def band(low, high, step):
    """The prices a card with value interval ``[low, high]`` may have: the
    interval widened to whole price steps, at least one step."""
    floor = max(step, step * math.floor(low / step))
    ceil = max(step, step * math.ceil(high / step)) if math.isfinite(high) else math.inf
    return floor, ceil


def next_price(price, value, step, damping):
    """``damping`` of the way from ``price`` to ``value``, rounded to ``step``, at least one step."""
    if not math.isfinite(value):
        return price
    return max(step, step * round((price + damping * (value - price)) / step))


def tune_economy(content: Content, ctx: EconomyContext, *, rounds=6, damping=1.0, items=None,
                 on_progress=None) -> EconomyTune:
    """Tune every valued card's price (module doc). ``on_progress(done, total, label)``."""
    started = time.perf_counter()
    result = item_economy(content, ctx, items=items, on_progress=_round_progress(on_progress, 0, rounds))
    start = {row["item"]: row["price"] for row in result.items}
    history, prices = [dict(start)], dict(start)
    for k in range(1, rounds + 1):
        if inside(result, prices, ctx.price_step):
            return EconomyTune(ctx, start, history, result, True, time.perf_counter() - started)
        prices = {**prices, **{row["item"]: next_price(prices[row["item"]], row["value_g"], ctx.price_step, damping)
                               for row in _moving(result)}}
        history.append(dict(prices))
        result = item_economy(with_prices(content, prices), ctx, items=items,
                              on_progress=_round_progress(on_progress, k, rounds))
    return EconomyTune(ctx, start, history, result, inside(result, prices, ctx.price_step),
                       time.perf_counter() - started)


def _moving(result):
    """The cards whose price tuning moves: all but those of no use anywhere."""
    return [row for row in result.items if row["verdict"] != "no use here"]


def inside(result, prices, step) -> bool:
    """Every moving card's price lies in its value interval's ``band``."""
    for row in _moving(result):
        low, high = band(*row["value_g_ci95"], step)
        if not low <= prices[row["item"]] <= high:
            return False
    return True


def _round_progress(on_progress, k, rounds):
    if on_progress is None:
        return None
    return lambda done, total, label: on_progress(k * total + done, (rounds + 1) * total, f"round {k}: {label}")
