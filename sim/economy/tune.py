"""Price tuning over the declared context: equal value per G for every card.

Each round values every card at the current prices (its value in G,
compensating variation). The fair price of a card is its value times the
round's price level ``k``: the total price of the cards clearly worth
something (their value interval above 0) over their total value. So prices
end proportional to values and the total price of the cards that matter stays
what the designer set, with no inflation and no deflation. Without that
anchor every price could sink together, because cheaper kit makes a G buy
more. Cards worth about nothing stay out of the anchor: they sink to the
floor, and the price they shed is not handed to the cards that matter.

A card whose value lies past the dearest kit on its budget curve (censored:
only the curve's extension says what it is worth) is priced by its supported
value, the value capped at that kit, and its fair-price interval has no top.
Without that cap the dearest card of a family of substitutes (the jetpack
among the movement cards) is worth the next one's price plus an extension at
a rate those same prices set, so prices would chase values up the family.

Each price moves ``damping`` of the way to its fair price, rounded to the
declared price step and never below one step. A card that changes nothing
anywhere in the context ("no use here" at every tier) keeps its price: nothing
says what it is worth, and it is left out of the level. Tuning stops when every
moving price lies inside its fair-price interval (``k`` times the value
interval) widened to whole price steps, since rounding cannot do better; then
each moving price is set to its fair price, rounded, so identical cards end at
one price. Otherwise it stops after ``rounds``."""

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
    """Prices by round, the last round's values and level, and whether they converged."""

    context: EconomyContext
    start: dict
    history: list  # prices at the start of each round, the final ones last
    values: EconomyResult
    level: float
    converged: bool
    elapsed_s: float

    @property
    def prices(self) -> dict:
        return self.history[-1]

    def fair(self, row) -> list:
        """A card's fair-price interval (module doc)."""
        return list(fair_interval(row, self.level))

    def history_frame(self) -> pl.DataFrame:
        """Price per round and item (round 0: the content's prices)."""
        return pl.DataFrame([{"round": k, "item": i, "price": float(p)} for k, prices in enumerate(self.history)
                             for i, p in prices.items()])

    def table(self) -> pl.DataFrame:
        """One row per card: old and new price, its value in G, its fair-price interval, verdict."""
        return pl.DataFrame([{"item": r["item"], "old_price": self.start[r["item"]], "new_price": self.prices[r["item"]],
                              "value_g": r["value_g"], "fair_low": self.fair(r)[0], "fair_high": self.fair(r)[1],
                              "verdict": r["verdict"]} for r in self.values.items])

    def to_json(self) -> dict:
        """The JSON of ``zonesim tune --json`` (README "JSON contracts")."""
        rows = {row["item"]: row for row in self.values.items}
        return {"converged": self.converged, "rounds": len(self.history) - 1, "price_level": self.level,
                "context": self.context.describe(), "elapsed_s": self.elapsed_s,
                "prices": [{"item": i, "old_price": self.start[i], "new_price": self.prices[i],
                            "fair_price_ci95": [v if math.isfinite(v) else None for v in self.fair(rows[i])]}
                           for i in self.start]}


def fair_interval(row, level):
    """``level`` times the value interval; for a censored value from the
    supported value (or the interval's bottom, if lower) with no top."""
    low, high = row["value_g_ci95"]
    if row["censored"]:
        return level * min(low, row["value_g_supported"]), math.inf
    return level * low, level * high


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


def price_level(result: EconomyResult, prices: dict) -> float:
    """G of price per G of (supported) value over the cards whose value interval
    lies above 0 (1 if there are none)."""
    worth = [row for row in _moving(result) if row["value_g_ci95"][0] > 0]
    total = sum(row["value_g_supported"] for row in worth)
    return sum(prices[row["item"]] for row in worth) / total if total > 0 else 1.0


def inside(result, prices, step, level) -> bool:
    """Every moving card's price lies in its fair-price ``band``."""
    for row in _moving(result):
        low, high = band(*fair_interval(row, level), step)
        if not low <= prices[row["item"]] <= high:
            return False
    return True


def _snap(result, prices, step, level) -> dict:
    """Converged prices set to their fair prices rounded to the step (inside
    their bands already), so identical cards end at one price."""
    return {**prices, **{row["item"]: next_price(prices[row["item"]], level * row["value_g_supported"], step, 1.0)
                         for row in _moving(result)}}


def _moving(result):
    """The cards whose price tuning moves: all but those of no use anywhere."""
    return [row for row in result.items if row["verdict"] != "no use here"]


def tune_economy(content: Content, ctx: EconomyContext, *, rounds=6, damping=0.5, items=None,
                 on_progress=None, client=None, store=None) -> EconomyTune:
    """Tune every valued card's price (module doc). ``on_progress(done, total, label)``;
    campaigns on the Dask ``client`` if given; every round's kit outcomes in the checkpoint ``store``."""
    started = time.perf_counter()
    result = item_economy(content, ctx, items=items, on_progress=_round_progress(on_progress, 0, rounds),
                          client=client, store=store)
    start = {row["item"]: row["price"] for row in result.items}
    history, prices = [dict(start)], dict(start)
    for k in range(1, rounds + 1):
        level = price_level(result, prices)
        if inside(result, prices, ctx.price_step, level):
            snapped = _snap(result, prices, ctx.price_step, level)
            return EconomyTune(ctx, start, history + ([snapped] if snapped != prices else []), result, level, True,
                               time.perf_counter() - started)
        prices = {**prices, **{row["item"]: next_price(prices[row["item"]], level * row["value_g_supported"],
                                                       ctx.price_step, damping) for row in _moving(result)}}
        history.append(dict(prices))
        result = item_economy(with_prices(content, prices), ctx, items=items,
                              on_progress=_round_progress(on_progress, k, rounds), client=client, store=store)
    level = price_level(result, prices)
    return EconomyTune(ctx, start, history, result, level, inside(result, prices, ctx.price_step, level),
                       time.perf_counter() - started)


def _round_progress(on_progress, k, rounds):
    if on_progress is None:
        return None
    return lambda done, total, label: on_progress(k * total + done, (rounds + 1) * total, f"round {k}: {label}")
