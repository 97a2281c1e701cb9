"""Item values in G as compensating variation, on common random numbers.

For a budget tier B and the strongest strategy of the family at B (picked on
the selection trials):

- without the item: the buyer who cannot have it, nor any card of its kind
  (below), shops B; the kits he would buy with more money trace the
  outcome-against-budget curve f(b), b >= B (linear between the kits he buys,
  never falling: more money can always buy the smaller kit);
- with the item: he is handed it for free on top of his kit at B (it takes its
  slot; the card there goes back) and re-shops what that frees;
- the value in G is the extra budget m with f(B + m) equal to the outcome with
  the item: what he would need to do as well without it. Past the dearest kit
  on the curve f is extended at its average rise per G and the value is
  flagged ``censored``; ``value_g_supported`` is the value capped at that
  dearest kit, the part some purchase supports. A stalker who does not
  want the gift leaves it at home (he keeps the kit without it when that
  does better on the selection trials), so neither the value nor the effect
  is below 0 (free disposal). It never reads the item's own price.

The kind of a card that takes a slot (a firearm, armour of one slot, an
escape, Zone-movement, location-movement or avoidance card, one active at a
time) is that slot's cards, of a one-shot teleport both teleports, and of any
other card its identical copies. So this stand-alone value does not rest on
the prices of its substitutes: the stalker without a GLONASS cannot buy a
zone map in its place, else the GLONASS would be worth about the zone map's
price and tuning would chase the family's prices round each other. The upgrade value of a slot card
(``upgrade_g``) is measured as the value but against the buyer who may buy
everything but its copies: what it adds over the slot's card he would own.

The outcome is the campaign's (``JourneyOutcome``) or, in a sub-view of
economy.toml (``[views.fights]``), the chance to
survive one monster encounter of the mix the tier's campaigns meet
(``sim.economy.mix``; its base kit under its strongest strategy), fought out
by the sub-view's strategy on the same tiers and shopper.

Outcomes come in paired batches of the valuation trials; the value's 95%
interval is the bootstrap over batches (the same resampled batches for every
kit, so the pairing is kept), the effect's (the change in the outcome) the
paired batch-means Student t interval. An item that changes no batch's
outcome on the common dice is "no use here"; an item is "over-priced"
only when its whole value interval lies below its price, "under-priced" when
it lies above, and "fair" otherwise."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace

import numpy as np
import polars as pl

from sim.analysis.stats import paired_batch_interval
from sim.content import Content
from sim.content.loadout import Loadout
from sim.content.journey import load_journey
from sim.economy.context import EconomyContext, SubView
from sim.economy.measure import EncounterOutcome, JourneyOutcome, KitStore
from sim.economy.mix import MonsterMix, encounter_rates
from sim.economy.shop import Buyer, gifts
from sim.run.results import json_safe

SLOT_FAMILIES = ("firearms", "armour", "escape", "movement", "location", "avoidance", "one_shot")
TIE = 1e-12  # relative: batch sums that differ by less are equal (float rounding)
VALUED_FAMILIES = ("firearms", "modifiers", "armour", "healing", "explosives", "escape", "movement", "location",
                   "avoidance", "one_shot")


@dataclass(frozen=True)
class Curve:
    """The outcome-against-budget curve from a budget: the kits bought with
    more money (x: the G each needs, at least that budget) on the valuation batches."""

    x: np.ndarray
    kits: tuple
    rates: np.ndarray  # kits x batches

    def points(self, idx=slice(None)):
        """``(x, y)`` of the curve on the batches ``idx``: at each budget the best
        kit it buys (more money can always buy a smaller kit), kept where the
        outcome rises, so the curve is linear between those kits and never falls."""
        y = self.rates[:, idx].mean(axis=1)
        order = np.lexsort((-y, self.x))  # by budget, the best kit first at equal budget
        xs, ys = self.x[order], np.maximum.accumulate(y[order])
        keep = np.r_[True, ys[1:] > ys[:-1]]
        return xs[keep], ys[keep]


def money_for(x, y, target, budget, rate):
    """The extra G over ``budget`` at which the piecewise-linear, non-decreasing
    curve ``(x, y)`` reaches ``target``: 0 at or below y[0] (free disposal).
    Above its top the curve is extended at ``rate`` (outcome per G) and the
    value is flagged censored (second value True); inf if ``rate`` is 0."""
    if target <= y[0] + TIE * abs(y[0]):
        return 0.0, False
    if target > y[-1]:
        return (float(x[-1] - budget + (target - y[-1]) / rate) if rate > 0 else math.inf), True
    k = int(np.searchsorted(y, target, side="left"))
    x0, x1, y0, y1 = x[k - 1], x[k], y[k - 1], y[k]
    return float(x0 + (x1 - x0) * (target - y0) / (y1 - y0) - budget), False


def _rate(curve, base_curve, nothing, idx):
    """Outcome per G past the end of ``curve``: its own average rise from its
    budget, else that of the curve with every item on sale, else (no money buys
    more at this tier) the average rise per G from an empty kit (``nothing``:
    its batches) to the top of the curve with every item on sale."""
    for c in (curve, base_curve):
        x, y = c.points(idx)
        if x[-1] > x[0]:
            return (y[-1] - y[0]) / (x[-1] - x[0])
    x, y = base_curve.points(idx)
    return max(0.0, (y[-1] - nothing[idx].mean()) / x[-1])


SUB_VIEW_VERDICTS = {"over-priced": "worth part of its price here", "under-priced": "worth its price here alone",
                     "fair": "about its price here"}


def verdict(no_use, low, high, price, sub_view=False):
    """"no use here" (changes nothing on common dice), "over-priced" (whole value
    interval below the price), "under-priced" (above it), else "fair". In a
    sub-view the price pays for the whole game, so the words say what share
    of it this view alone is worth (``SUB_VIEW_VERDICTS``; "worth nothing
    here" when the whole interval rounds to 0 G)."""
    if no_use:
        return "no use here"
    word = "over-priced" if high < price else "under-priced" if low > price else "fair"
    if not sub_view:
        return word
    return "worth nothing here" if high < 0.5 else SUB_VIEW_VERDICTS[word]  # under 1 G, rounded


@dataclass
class TierValues:
    """One budget tier: the strategy picked, the base kit and each item's rows."""

    budget: int
    strategy: str
    base_kit: Loadout
    base_rate: float
    rows: list
    mix: MonsterMix | None = None  # a sub-view's monster mix of the tier's campaigns


@dataclass
class EconomyResult:
    """Item values over the declared context, per tier and overall (the mean over tiers)."""

    context: EconomyContext
    tiers: list
    items: list
    elapsed_s: float
    runs: int
    value_replicas: dict = field(default_factory=dict)  # item -> bootstrap replicas of the mean over tiers
    view: SubView | None = None  # a sub-view (fights); None: the campaign itself

    @property
    def outcome(self) -> str:
        """What the values are measured on, in words."""
        if self.view is None:
            return self.context.describe()["outcome"]
        return (f"the chance to survive one monster encounter of the tier's campaigns' mix "
                f"({self.view.name}, {self.view.strategy})")

    def describe(self) -> dict:
        """The context printed and written with the values: the declared one, with the sub-view's outcome and trials."""
        out = self.context.describe()
        if self.view is not None:
            out.update(view=self.view.name, outcome=self.outcome, view_strategy=self.view.strategy,
                       trials=self.view.valuation_trials, view_selection_trials=self.view.selection_trials)
        return out

    def table(self) -> pl.DataFrame:
        """One row per item: overall value in G with its interval, effect, verdict."""
        return pl.DataFrame([{k: v for k, v in row.items() if k != "tiers"} for row in self.items])

    def tier_table(self) -> pl.DataFrame:
        """One row per item and tier."""
        return pl.DataFrame([{"budget": t.budget, "strategy": t.strategy, **row} for t in self.tiers
                             for row in t.rows])

    def to_json(self) -> dict:
        """The JSON of ``zonesim value --json`` (README "JSON contracts")."""
        tiers = [{"budget": t.budget, "strategy": t.strategy, "base_kit": describe_kit(t.base_kit),
                  "base_outcome": t.base_rate, **({"monster_mix": t.mix.describe()} if t.mix else {})}
                 for t in self.tiers]
        return json_safe({"context": {**self.describe(), "tiers": tiers, "elapsed_s": self.elapsed_s},
                        "items": self.items})


def clones(content: Content, item_id: str) -> frozenset:
    """``item_id`` and every item identical to it but for id, name and price: the
    cards a stalker who cannot have the item cannot have either."""
    item = content.items[item_id]
    same = {k: v for k, v in item.fields.items() if k not in ("name", "price")}
    return frozenset(e.id for e in content.items.values() if e.family == item.family
                     and {k: v for k, v in e.fields.items() if k not in ("name", "price")} == same)


def kind(content: Content, item_id: str) -> frozenset:
    """The cards that do ``item_id``'s job: every firearm (Z-20), the armour of
    its slot (Z-24), its escape, Zone-movement, location-movement or avoidance
    family (one active each, Z-25, Z-29, Z-30, Z-32), the one-shot teleports
    (Z-27, Z-28: a second one is not needed for the same trip); for any other
    card, its clones."""
    item = content.items[item_id]
    if item.family not in SLOT_FAMILIES:
        return clones(content, item_id)
    return frozenset(e.id for e in content.family(item.family)
                     if item.family != "armour" or e["slot"] == item["slot"])


def describe_kit(loadout: Loadout) -> str:
    """A kit in one line: its cards, or "nothing"."""
    cards = loadout.cards()
    return ", ".join(f"{i}x{n}" if n > 1 else i for i, n in cards.items()) or "nothing"


def _curve(buyer: Buyer, start: Loadout, budget: int, top: int, valuation) -> Curve:
    """The kit ``buyer`` shops at ``budget`` and those he adds with up to ``top`` G."""
    base = buyer.grow(start, budget)
    trace = []
    buyer.grow(base, top, trace)
    x = np.array([max(budget, buyer.kit_cost(k)) for k in trace], dtype=float)
    return Curve(x, tuple(trace), np.array([valuation(k).rates() for k in trace]))


@dataclass
class _Tier:
    """What every item's valuation at one tier shares."""

    content: Content
    budget: int
    top: int
    buyer_for: object
    valuation: object
    base_curve: Curve
    nothing: np.ndarray
    resample: np.ndarray
    sub_view: bool = False

    def __post_init__(self):
        self.on_path = set().union(*(k.cards() for k in self.base_curve.kits))  # the cards the base curve buys
        self.curves = {}

    def curve_without(self, banned):
        """The curve of the buyer who cannot have the ``banned`` cards (the base curve if it buys none)."""
        if not self.on_path & banned:
            return self.base_curve
        if banned not in self.curves:
            start = Loadout(character=self.base_curve.kits[0].character)
            self.curves[banned] = _curve(self.buyer_for(banned=banned), start, self.budget, self.top, self.valuation)
        return self.curves[banned]

    def value(self, item_id, upgrade=True):
        """One item at this tier: its row and its bootstrap replicas (module doc): the
        stand-alone value against the stalker who can have no card of its ``kind``
        and, for a card that takes a slot and if ``upgrade``, the upgrade value
        against the one who can have all but its clones."""
        own_kind, own_clones = kind(self.content, item_id), clones(self.content, item_id)
        row, reps = self._against(item_id, own_kind)
        if upgrade and own_kind != own_clones:
            up, _ = self._against(item_id, own_clones)
            row.update(upgrade_g=up["value_g"], upgrade_g_ci95=up["value_g_ci95"])
        else:
            row.update(upgrade_g=None, upgrade_g_ci95=None)
        return row, reps

    def _against(self, item_id, banned):
        """``item_id`` valued against the buyer who cannot have the ``banned`` cards."""
        content, budget = self.content, self.budget
        curve = self.curve_without(banned)
        without = curve.kits[0]
        holder = self.buyer_for(held=item_id, banned=banned)
        ways = [(g, holder.grow(g, budget)) for g in gifts(content, without, item_id) if holder.kit_cost(g) <= budget]
        ways.append((without, without))  # free disposal: he may leave the gift at home (last: a tie keeps the gift)
        gifted, kit = max(ways, key=lambda way: holder.selection(way[1]).mean)
        kit_b, without_b = self.valuation(kit), self.valuation(without)

        def value_on(idx):
            return money_for(*curve.points(idx), kit_b.rates()[idx].mean(), budget,
                             _rate(curve, self.base_curve, self.nothing, idx))

        value, censored = value_on(slice(None))
        supported = min(value, float(curve.points()[0][-1] - budget))
        reps = np.array([value_on(idx)[0] for idx in self.resample])
        low, high = (float(v) for v in np.percentile(reps, [2.5, 97.5]))
        effect, e_low, e_high = paired_batch_interval(kit_b.rates(), without_b.rates())
        gifted_b, taken_b = self.valuation(gifted), self.valuation(_taken_out(gifted, item_id, without))
        no_use = np.array_equal(gifted_b.sums, taken_b.sums)
        item = content.items[item_id]
        return {"item": item_id, "family": item.family, "price": item["price"], "value_g": value,
                "value_g_ci95": [low, high], "effect": effect, "effect_ci95": [e_low, e_high],
                "verdict": verdict(no_use, low, high, item["price"], self.sub_view), "censored": censored,
                "value_g_supported": supported, "kit": describe_kit(kit)}, (reps, kit_b.rates() - without_b.rates())


def _taken_out(gifted, item_id, without):
    """The gifted kit without the gift itself: a modifier's firearm stays (it
    came with the gift, Z-21); any other gift gives back ``without``."""
    if item_id in gifted.mods and gifted.weapon != without.weapon:
        return replace(gifted, mods=tuple(m for m in gifted.mods if m != item_id))
    return without


def item_economy(content: Content, ctx: EconomyContext, *, view=None, items=None, upgrades=True, on_progress=None,
                 client=None, store=None) -> EconomyResult:
    """Every item's value in G over the declared context (module doc), with the
    upgrade values of the cards that take a slot if ``upgrades``; with ``view``
    (a sub-view of ``ctx``: fights) the outcome is the chance to
    survive an encounter of the tier's campaigns' monster mix (``sim.economy.mix``).
    ``on_progress(done, total, label)`` after each item and tier; campaigns on the Dask ``client`` if given;
    each kit's outcome kept in (and on a resume read from) the checkpoint ``store`` if given."""
    start_time = time.perf_counter()
    for_sale = [e for e in content.items.values() if e.family in VALUED_FAMILIES]
    valued = [e.id for e in for_sale if items is None or e.id in items]
    top_price = max(e["price"] for e in for_sale)
    resample = np.random.default_rng(ctx.seed).integers(0, ctx.batches, (ctx.bootstrap, ctx.batches))
    start = Loadout(character=ctx.character)
    kits = KitStore(store) if store is not None else None
    journeys = {s: JourneyOutcome(content, s, ctx.days, ctx.seed, client=client, store=kits) for s in ctx.strategies}
    sub = ctx.view(view) if view else None
    steps, done, encounters = len(ctx.budgets) * len(valued), 0, []
    tiers, replicas = [], {}
    for budget in ctx.budgets:
        def buyer_for(outcome, trials=ctx.selection_trials, **kw):
            return Buyer(content, lambda lo: outcome.selection(lo, trials), max_count=ctx.max_count, **kw)

        picks = {s: buyer_for(o).grow(start, budget) for s, o in journeys.items()}
        strategy = max(picks, key=lambda s: (journeys[s].selection(picks[s], ctx.selection_trials).mean, s))
        outcome, trials, selection, mix = journeys[strategy], ctx.valuation_trials, ctx.selection_trials, None
        if sub is not None:
            mix = encounter_rates(load_journey(content), journeys[strategy].hex_entries(
                picks[strategy], ctx.valuation_trials, ctx.batches))
            outcome = EncounterOutcome(content, encounter_measure(content, sub), mix, ctx.seed,
                                       f"{sub.name}:{sub.strategy}", store=kits)
            trials, selection = sub.valuation_trials, sub.selection_trials
            encounters.append(outcome)

        def valuation(lo, outcome=outcome, trials=trials):
            return outcome.valuation(lo, trials, ctx.batches)

        def tier_buyer(outcome=outcome, selection=selection, **kw):
            return buyer_for(outcome, selection, **kw)

        top = budget + top_price
        base_curve = _curve(tier_buyer(), start, budget, top, valuation)
        tier = _Tier(content, budget, top, tier_buyer, valuation, base_curve, valuation(start).rates(), resample,
                     sub is not None)
        rows = []
        for item_id in valued:
            row, reps = tier.value(item_id, upgrades)
            rows.append(row)
            replicas.setdefault(item_id, []).append(reps)
            done += 1
            if on_progress:
                on_progress(done, steps, f"{budget} G: {item_id}")
        tiers.append(TierValues(budget, strategy, base_curve.kits[0], float(base_curve.rates[0].mean()), rows, mix))
    if kits is not None:
        kits.flush()
    items_out = [_overall(content, item_id, [t.rows[k] for t in tiers], replicas[item_id], ctx.budgets,
                          sub is not None) for k, item_id in enumerate(valued)]
    runs = sum(o.runs for o in (*journeys.values(), *encounters))
    value_replicas = {i: np.mean([r for r, _ in replicas[i]], axis=0) for i in valued}
    return EconomyResult(ctx, tiers, items_out, time.perf_counter() - start_time, runs, value_replicas, sub)


def encounter_measure(content: Content, sub: SubView):
    """monsters -> the per-trial survival measure of the sub-view's fights under its strategy."""
    import strategies
    from sim.run.value import fight_measure  # compiles the kernels: after the input checks

    strategy = strategies.get(sub.strategy)
    return lambda monsters: fight_measure(content, monsters, strategy)


def _overall(content, item_id, rows, replicas, budgets, sub_view):
    """The mean over tiers of one item's values, with the bootstrap of the mean."""
    item = content.items[item_id]
    value = float(np.mean([r["value_g"] for r in rows]))
    upgrade = None if rows[0]["upgrade_g"] is None else float(np.mean([r["upgrade_g"] for r in rows]))
    low, high = (float(v) for v in np.percentile(np.mean([r for r, _ in replicas], axis=0), [2.5, 97.5]))
    diffs = np.mean([d for _, d in replicas], axis=0)
    effect, e_low, e_high = paired_batch_interval(diffs, np.zeros_like(diffs))
    no_use = all(r["verdict"] == "no use here" for r in rows)
    return {"item": item_id, "family": item.family, "price": item["price"], "value_g": value,
            "value_g_ci95": [low, high], "effect": effect, "effect_ci95": [e_low, e_high],
            "verdict": verdict(no_use, low, high, item["price"], sub_view),
            "censored": any(r["censored"] for r in rows),
            "value_g_supported": float(np.mean([r["value_g_supported"] for r in rows])), "upgrade_g": upgrade,
            "tiers": [{"budget": b, **{k: r[k] for k in ("value_g", "value_g_ci95", "effect", "effect_ci95", "verdict",
                                                         "censored", "value_g_supported", "upgrade_g",
                                                         "upgrade_g_ci95", "kit")}}
                      for r, b in zip(rows, budgets)]}
