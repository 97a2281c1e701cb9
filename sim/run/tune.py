"""Price tuning: move item prices toward the prices their measured value earns.

Each round measures every item's value against a *buyer's* loadout on common
random numbers (``sim.run.value.item_values``), turns values into fair prices
by the market's exchange rate (least squares through the origin over the
priced items), and moves each price part of the way there (``damping``),
keeping the total of the tuned prices fixed (the game's economy neither
inflates nor deflates). The buyer starts from the reference loadout and spends
a budget greedily on the items with the most value per G at the current
prices, so a price change changes what is bought, and so the next values.
Tuning stops when every price lies inside its fair-price interval (prices
stopped moving within their intervals), or after ``rounds``.

Objectives:
- ``equal-value``: every item worth the same survival per G (the above).
- ``target-survival=P``: the same relative prices, then one common price
  level found by bisection so that the buyer's loadout survives with
  probability P.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

import polars as pl

from sim.content.edit import copy_content_with, set_value
from sim.content.load import Content
from sim.content.loadout import Loadout, LoadoutError
from sim.run.value import item_values, item_variants


def with_prices(content: Content, prices: dict) -> Content:
    """The content with some items' prices replaced (``{item_id: G}``)."""
    items = dict(content.items)
    for item_id, price in prices.items():
        entry = items[item_id]
        items[item_id] = replace(entry, fields=MappingProxyType({**entry.fields, "price": int(price)}))
    return replace(content, items=MappingProxyType(items))


def _parse_objective(text: str, name: str, example: str):
    """``("equal-value", None)`` or ``(name, X)`` with 0 < X < 1."""
    if text == "equal-value":
        return "equal-value", None
    key, _, value = text.partition("=")
    try:
        x = float(value)
    except ValueError:
        x = math.nan
    if key != name or not 0 < x < 1:
        raise LoadoutError(f"--objective: '{text}'; use equal-value or {name}=X with 0 < X < 1, e.g. {example}")
    return name, x


def parse_objective(text: str):
    """``("equal-value", None)`` or ``("target-survival", P)``."""
    return _parse_objective(text, "target-survival", "target-survival=0.8")


def buyer(content: Content, base: Loadout, values: pl.DataFrame, budget: int) -> Loadout:
    """The loadout a buyer with ``budget`` G builds from ``base``: items with a
    positive value, most value per G first, each change kept if it is legal,
    affordable and does not undo an earlier choice of the same slot."""
    ranked = values.filter((pl.col("value") > 0) & pl.col("item").is_in(list(content.items))).with_columns(
        (pl.col("value") / pl.col("price")).alias("per_g")).sort(["per_g", "item"], descending=[True, False])
    loadout, taken = base, set()
    for item_id in ranked["item"]:
        slot = _slot(content, item_id)
        if slot in taken and slot not in ("healing", "explosives"):
            continue
        change = dict(item_variants(content, loadout)).get(item_id)
        if change is not None and change.cost(content) <= budget:
            loadout = change
            taken.add(slot)
    return loadout


def _slot(content, item_id):
    entry = content.items[item_id]
    if entry.family == "armour":
        return entry["slot"]
    if entry.family == "modifiers":
        return item_id
    return entry.family


@dataclass
class TuneResult:
    """Prices per round (``history``: round, item, price, fair price and its interval)."""

    start: dict
    prices: dict
    history: pl.DataFrame
    rounds: int
    converged: bool
    buyer: Loadout
    survival: float
    level: float

    def table(self) -> pl.DataFrame:
        """Old price, new price and the last round's fair price with its interval."""
        last = self.history.filter(pl.col("round") == self.history["round"].max())
        return last.select("item", "fair_price", "fair_low", "fair_high", "value", "ci_low", "ci_high").with_columns(
            pl.col("item").replace_strict(self.start, return_dtype=pl.Int64).alias("old_price"),
            pl.col("item").replace_strict(self.prices, return_dtype=pl.Int64).alias("new_price"),
        ).select("item", "old_price", "new_price", "fair_price", "fair_low", "fair_high", "value", "ci_low",
                 "ci_high").sort("item")


def tune_prices(content: Content, base: Loadout, measure_for, *, budget, objective="equal-value", rounds=12,
                damping=0.5, trials=40_000, seed=1, on_round=None, client=None, store=None) -> TuneResult:
    """Tune the prices of the items ``base`` can add or swap in (module docstring).
    ``measure_for(content)`` gives the ``item_values`` measure under that content;
    with a Dask ``client`` each round's values run on the cluster (same numbers);
    with a checkpoint ``store`` each round's value sums are kept, and a resumed
    run replays the kept rounds from them."""
    kind, target = parse_objective(objective)
    if budget < 0:
        raise LoadoutError(f"--budget: {budget}; give 0 or more G")
    if not 0 < damping <= 1:
        raise LoadoutError(f"--damping: {damping}; give a fraction in (0, 1]")
    if rounds < 1:
        raise LoadoutError(f"--rounds: {rounds}; give at least 1")
    names = sorted({item_id for item_id, _ in item_variants(content, base)})
    start = {i: content.items[i]["price"] for i in names}
    prices, reference, rows, converged = dict(start), base, [], False
    for r in range(1, rounds + 1):
        current = with_prices(content, prices)
        result = item_values(current, reference, measure_for(current), trials=trials, seed=seed, client=client,
                             store=store, tag=f"round{r}")
        fair = _fair(result.table, prices)
        for item_id in names:
            f = fair.get(item_id)
            rows.append({"round": r, "item": item_id, "price": prices[item_id], **(f or _NO_FAIR)})
        moved = _step(prices, fair, damping)
        converged = _inside(prices, fair)
        prices = moved
        reference = buyer(with_prices(content, prices), base, result.table, budget)
        if on_round:
            on_round(r, rounds)
        if converged:
            break
    level, survival = 1.0, _survival(content, prices, reference, measure_for, trials, seed)
    if kind == "target-survival":
        level, prices, reference, survival = _price_level(content, base, prices, measure_for, budget, target,
                                                          result.table, trials, seed)
    history = pl.DataFrame(rows)
    return TuneResult(start, {i: int(round(p)) for i, p in prices.items()}, history, r, converged, reference,
                      survival, level)


_NO_FAIR = {"fair_price": None, "fair_low": None, "fair_high": None, "value": None, "ci_low": None, "ci_high": None}


def _fair(table, prices):
    """Fair price per card of each tuned item: what the loadout change should
    cost (value / rate, shared over its ``count`` cards, 1 unless the table
    says) plus the price of what it replaces (a swapped firearm or armour), with
    its interval. The rate is the least-squares slope through the origin of
    value against cost over the tuned items that add cost. Items that change no
    trial at all (their interval is exactly 0, e.g. an escape item for a
    stalker who never flees) do nothing in this mode: they keep their price and
    stay out of the fit."""
    out = {}
    rows = [r for r in table.iter_rows(named=True) if r["item"] in prices and not r["ci_low"] == r["ci_high"] == 0]
    priced = [(r["cost_change"], r["value"]) for r in rows if r["cost_change"] > 0]
    rate = sum(c * v for c, v in priced) / sum(c * c for c, _ in priced) if priced else math.nan
    if not rate > 0:
        return out
    for row in rows:
        per_card = rate * row.get("count", 1)
        replaced = row["price"] - row["cost_change"] / row.get("count", 1)
        out[row["item"]] = {"fair_price": max(1.0, replaced + row["value"] / per_card),
                            "fair_low": replaced + row["ci_low"] / per_card,
                            "fair_high": replaced + row["ci_high"] / per_card, "value": row["value"],
                            "ci_low": row["ci_low"], "ci_high": row["ci_high"],
                            "half_width": (row["ci_high"] - row["ci_low"]) / per_card / 2}
    return out


def _inside(prices, fair):
    """Every price with a fair price lies inside its interval (at least 1 G wide)."""
    return all(abs(f["fair_price"] - prices[i]) <= max(1.0, f["half_width"]) for i, f in fair.items())


def _step(prices, fair, damping):
    """Damped move toward the fair prices, rescaled so the moved items keep their
    total (no inflation); at least 1 G. Items without a fair price stay."""
    moved = {i: p + damping * (fair[i]["fair_price"] - p) for i, p in prices.items() if i in fair}
    if not moved:
        return dict(prices)
    scale = sum(prices[i] for i in moved) / sum(moved.values())
    return {i: max(1.0, moved[i] * scale) if i in moved else p for i, p in prices.items()}


def _survival(content, prices, loadout, measure_for, trials, seed):
    current = with_prices(content, prices)
    return float(measure_for(current)(loadout)(trials, seed, 0).mean())


def _price_level(content, base, prices, measure_for, budget, target, values, trials, seed):
    """The common price multiplier at which the buyer's loadout survives with ``target``."""
    def survival(scaled, _):
        kit = buyer(with_prices(content, scaled), base, values, budget)
        return _survival(content, scaled, kit, measure_for, trials, seed), kit

    level, scaled, (p, kit) = _bisect_level(prices, target, survival, steps=12)
    return level, scaled, kit, p


def _bisect_level(prices, target, outcome, steps):
    """Bisect one common price multiplier (geometrically, within 0.05..20) so that
    ``outcome(scaled_prices, k)[0]``, which falls as prices rise, meets ``target``;
    the last (multiplier, scaled prices, outcome)."""
    lo, hi = 0.05, 20.0
    for k in range(steps):
        mid = math.sqrt(lo * hi)
        scaled = {i: max(1.0, p * mid) for i, p in prices.items()}
        got = outcome(scaled, k)
        if got[0] > target:
            lo = mid  # too much for the money: dearer
        else:
            hi = mid
    return mid, scaled, got


def write_tuned_content(source: Path, target: Path, prices: dict) -> Path:
    """A copy of the content folder ``source`` whose ``items.toml`` carries the
    tuned prices, comments and layout kept (the designer's diff)."""
    text = (source / "items.toml").read_text(encoding="utf-8")
    family = {item_id: fam for fam, table in tomllib.loads(text).items() if isinstance(table, dict)
              for item_id in table}
    for item_id, price in prices.items():
        text = set_value(text, f"{family[item_id]}.{item_id}.price", int(price))
    return copy_content_with(source, target, "items.toml", text)


def price_history(result: TuneResult) -> pl.DataFrame:
    """Price per round and item, with the final prices as the last round."""
    final = pl.DataFrame({"round": [result.rounds + 1] * len(result.prices), "item": list(result.prices),
                          "price": [float(p) for p in result.prices.values()]})
    return pl.concat([result.history.select("round", "item", pl.col("price").cast(pl.Float64)), final])


def diff_lines(result: TuneResult):
    """``item: old -> new`` lines for the items whose price changed."""
    return [f"{i}: {result.start[i]} -> {p} G" for i, p in sorted(result.prices.items()) if p != result.start[i]]


# --- Stalkeriada shop prices ---------------------------------------------------------

def parse_shop_objective(text: str):
    """``("equal-value", None)`` or ``("target-winrate", W)`` for the shop."""
    return _parse_objective(text, "target-winrate", "target-winrate=0.3 (in --mode stalkeriada)")


def write_shop_content(source: Path, target: Path, prices: dict) -> Path:
    """A copy of the content folder whose ``stalkeriada.toml`` [shop] has ``prices``."""
    text = (source / "stalkeriada.toml").read_text(encoding="utf-8")
    for item, price in prices.items():
        text = set_value(text, f"shop.{item}", int(price))
    return copy_content_with(source, target, "stalkeriada.toml", text)


def tune_shop(content: Content, strategy, opponents, *, objective="equal-value", rounds=8, damping=0.5,
              games=2000, seed=1, on_round=None, client=None, store=None) -> TuneResult:
    """Tune the Stalkeriada shop prices (OZK, pliers, nut; S-04) for a planner
    strategy at a table with ``opponents``: each item's value is its win-rate
    change (``sim.run.value.stalkeriada_values``), its fair price per card that
    value at the least-squares rate; prices move ``damping`` of the way with
    their total kept, until each lies inside its interval. ``target-winrate=W``
    then bisects one price level so the strategy wins with probability W.
    With a Dask ``client`` the games run on the cluster (same numbers); with a
    checkpoint ``store`` each round's batch counts are kept for a resumed run."""
    import shutil
    import tempfile

    from sim.content.load import load_content
    from sim.content.stalkeriada import load_stalkeriada
    from sim.run.value import STALKERIADA_ITEMS

    kind, target = parse_shop_objective(objective)
    if not 0 < damping <= 1 or rounds < 1:
        raise LoadoutError(f"--damping {damping} / --rounds {rounds}: give a fraction in (0, 1] and at least 1 round")
    source = Path(content.directory)
    shop = load_stalkeriada(content).settings["shop"]
    start = {item: shop[item] for item, _ in STALKERIADA_ITEMS}
    prices, rows, work = dict(start), [], Path(tempfile.mkdtemp(prefix="zonesim-shop-"))

    def at(p, tag):
        return load_content(write_shop_content(source, work / tag, p))

    try:
        return _tune_shop_rounds(at, start, prices, rows, strategy, opponents, kind, target, rounds, damping, games,
                                 seed, on_round, client, store)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _tune_shop_rounds(at, start, prices, rows, strategy, opponents, kind, target, rounds, damping, games, seed,
                      on_round, client, store):
    """The measure-and-move rounds, then the price level, of ``tune_shop``."""
    from sim.run.value import stalkeriada_values

    converged = False
    for r in range(1, rounds + 1):
        values = stalkeriada_values(at(prices, f"round{r}"), strategy, opponents, games=games, seed=seed,
                                    client=client, store=store, tag=f"round{r}-")
        fair = _fair(values.table, prices)
        for item in prices:
            rows.append({"round": r, "item": item, "price": prices[item], **(fair.get(item) or _NO_FAIR)})
        converged = bool(fair) and _inside(prices, fair)
        prices = _step(prices, fair, damping)
        if on_round:
            on_round(r, rounds)
        if converged:
            break
    level = 1.0
    if kind == "target-winrate":
        level, prices, (win,) = _bisect_level(
            prices, target, lambda scaled, k: (_win_rate(at(scaled, f"level{k}"), strategy, opponents, games, seed,
                                                         client),),
            steps=10)
    else:
        win = _win_rate(at(prices, "final"), strategy, opponents, games, seed, client)
    return TuneResult(start, {i: int(round(p)) for i, p in prices.items()}, pl.DataFrame(rows), r, converged,
                      None, win, level)


def _win_rate(content, strategy, opponents, games, seed, client=None):
    from sim.run.stalkeriada import simulate_stalkeriada

    result = simulate_stalkeriada(content, [strategy, *opponents], games=games, seed=seed, rotate_seats=True,
                                  client=client)
    return int(result.win_rates()["wins"][0]) / result.games
