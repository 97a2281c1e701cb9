"""Item values in G: what a card does, at one exchange rate per tier.

For every tier of a context (a budget, or a given kit):

- **Reference kit.** The shopper (``sim.economy.shop``) buys the tier's kit
  once, on selection trials, and the kit is frozen for the whole valuation.
  He chooses again on further independent selection sets
  (``SELECTION_SETS`` in all); where the choices differ the values are
  measured under every kit bought and every interval spans them all.
- **Effect.** A card's effect is its paired change in the outcome on the
  valuation trials (``sim.economy.kits``): a card that takes a slot in its
  slot against the kit with no card of its kind (stand-alone), and against the
  kit as it is (upgrade); any other card added to the kit. Each side is
  played by the strongest strategy of the family for that kit, chosen on the
  first selection set (the tier's own kit keeps the tier's strategy), so a
  card is valued by the play it makes possible: a firearm by the stalker who
  draws it, the kit without it by the one who does best without. Free
  disposal: a card whose effect interval lies at or below 0 is left at home
  and its effect counts as 0; no effect counts below 0.
- **Rate.** One exchange rate per tier, from the same dice: the stand-alone
  effects of the cards the kit holds over what they cost. So the kit's cards
  are worth together what they cost together, and no price of a card the tier
  does not buy enters any value.
- **Value** = effect / rate: it follows effect within a tier, an upgrade is
  never worth more than the card stand-alone, a copy is worth its original.
  Where the rate cannot be measured (its interval reaches 0: money buys no
  outcome at this tier), the tier's values are null with that reason.
- **Market view**, beside the value: the reservation price, the most the
  tier's buyer would pay for the card at today's prices of the others: its
  value less the best surplus (value less price) another card of its kind
  offers, between 0 and the budget. He would buy the card at its price when
  that is at or below its reservation price.
- **Overall** (the headline): a card's mean effect over the tiers at the
  overall rate, set so that the cards the tiers buy (each once per tier that
  buys it) are worth together what they cost together. The tiers count alike,
  or by the context's weights (``[prices] weights`` of economy.toml, ``zonesim
  tune --weights``): a weighted mean, and a tier weighted 0 leaves it. A tier whose rate
  cannot be measured leaves it. Pricing every card at its overall value leaves
  the overall rate where it is, which is what lets tuning settle.

Intervals are 95% bootstrap intervals over the paired valuation batches, the
same resample for every card and tier (so the rate's noise is in every
value), widened for the few batches (``expand_factor``), and spanning both
kit choices. Verdicts, read from the intervals alone: *no use here* (no batch
changes, or the effect interval holds 0: nothing measured says the card changes
the outcome; or the whole value interval lies under half a price step: what it
does earns no price on the grid), *worth nothing here* (left at home: its effect interval lies at or
below 0), *over-priced* / *under-priced* (the price above / below the value
interval with its ends rounded to the nearest price step, the grid prices are
set on), else *fair*; *not valued*, with the reason, where a value is null.

Twins (cards alike but for name, price and deck count) are measured once: a copy
takes the value of its twin a kit holds, else of the first, read at its own price
(``as_twins``), since what a card does does not depend on its price."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace

import numpy as np
import polars as pl

from sim.analysis.stats import Z95, paired_batch_interval, t975
from sim.economy.outcome import SELECTION_BATCHES, SELECTION_FIRST
from sim.economy.shop import SCREEN_BATCHES, contenders, mean_outcome, plausible_strategies, strongest
from sim.run.results import json_safe

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")  # the kit choices


def ordinal(n: int) -> str:
    """The ``n``-th kit choice in words (0: "first")."""
    return ORDINALS[n] if n < len(ORDINALS) else f"{n + 1}th"
TIE = 1e-12  # relative: selection means that differ by less are equal (float rounding)


def expand_factor(batches: int) -> float:
    """How much a percentile bootstrap interval over ``batches`` batch means is
    widened: Student t over normal, and the batch means' n over n - 1."""
    return t975(batches - 1) / Z95 * math.sqrt(batches / (batches - 1))


def interval(point, replicas, expand, low_bound=-math.inf) -> list:
    """The expanded 95% percentile interval of ``replicas`` about ``point`` (holding it)."""
    lo, hi = np.percentile(replicas, [2.5, 97.5])
    return [float(max(low_bound, min(point, point - expand * (point - lo)))), float(max(point, point + expand * (hi - point)))]


def band(low, high, step) -> tuple:
    """The prices a card with value interval ``[low, high]`` may fairly have on a
    grid of ``step`` G: the grid prices nearest to a value in the interval (its ends
    rounded to the nearest step), at least one step."""
    def nearest(x):
        return step * math.floor(x / step + 0.5)

    return max(step, nearest(low)), max(step, nearest(high))


def verdict(no_use, home, low, high, price, reason=None, step=1) -> str:
    """The card's verdict (module doc): its price against its value interval
    widened to the price grid (``band``), since a price finer than ``step`` is
    not one a designer sets."""
    if reason is not None:
        return "not valued"
    if no_use:
        return "no use here"
    if home:
        return "worth nothing here"
    if high < step / 2:  # its whole interval rounds to 0 G on the price grid: it earns no price
        return "no use here"
    floor, ceiling = band(low, high, step)
    return "over-priced" if price > ceiling else "under-priced" if price < floor else "fair"


@dataclass
class Estimate:
    """A number and its bootstrap replicas (the same resample everywhere)."""

    point: float
    replicas: np.ndarray

    def __truediv__(self, other):
        return Estimate(self.point / other.point, self.replicas / other.replicas)

    def scaled(self, k):
        return Estimate(self.point * k, self.replicas * k)


def mean_of(estimates, weights=None) -> Estimate:
    """The (``weights``-weighted) mean of ``estimates``, replica by replica."""
    w = np.ones(len(estimates)) if weights is None else np.asarray(weights, float)
    return Estimate(float(np.average([e.point for e in estimates], weights=w)),
                    np.average([e.replicas for e in estimates], axis=0, weights=w))


def sum_of(estimates) -> Estimate:
    return Estimate(float(sum(e.point for e in estimates)), sum(e.replicas for e in estimates))


@dataclass
class CardEffect:
    """One card measured against one kit: its comparison, the per-batch paired
    changes and the selection trials' decisions, with its effects as valued
    (``standalone``, ``upgrade``: at least 0, 0 when left at home)."""

    comparison: object
    diff: np.ndarray | None = None
    no_use: bool = False
    home: bool = False
    standalone: Estimate | None = None
    upgrade: Estimate | None = None
    reason: str | None = None
    strategies: tuple = (None, None)  # the strategy that played the kit with the card, and without it


def _valued(diff, home, resample) -> Estimate:
    reps = np.maximum(0.0, diff[resample].mean(axis=1))
    return Estimate(0.0 if home else max(0.0, float(diff.mean())), reps)


def side_strategies(kits, outcomes: dict, selection: int, pinned: dict) -> dict:
    """``{kit: strategy}``: the strongest strategy of the family for each kit on the
    first selection set, every kit run together; a strategy clearly behind on the
    set's first batches is not run on the rest (``sim.economy.shop.contenders``).
    The kits of ``pinned`` keep theirs."""
    free = [k for k in kits if k not in pinned]
    out = {k: pinned[k] for k in kits if k in pinned}
    if len(outcomes) == 1:
        return out | dict.fromkeys(free, next(iter(outcomes)))
    heads = {s: o.head(free, SELECTION_FIRST, selection, SELECTION_BATCHES, SCREEN_BATCHES) for s, o in outcomes.items()}
    left = [contenders({s: heads[s][n] for s in outcomes}) for n in range(len(free))]
    means = {}
    for s, o in outcomes.items():
        kept = [kit for kit, names in zip(free, left) if s in names]
        means.update(((kit, s), mean_outcome(b)) for kit, b in
                     zip(kept, o.many(kept, SELECTION_FIRST, selection, SELECTION_BATCHES)))
    for kit, names in zip(free, left):
        out[kit] = max(names, key=lambda s: (means[kit, s], s))
    return out


def measure_kit(comparisons, outcomes: dict, *, trials, selection, batches, resample, pinned=None) -> list:
    """``CardEffect`` of every comparison against one kit, the kits run together
    (``Outcome.many``): each side (the kit with the card, and without it) played by
    the strongest strategy of the family ``outcomes`` for it (``side_strategies``;
    ``pinned``: ``{kit: strategy}`` kept, the tier's own kit), the valuation batches
    for the effects and the effect interval for free disposal, the first selection set
    for an upgrade's."""
    kits = list(dict.fromkeys(k for c in comparisons if c.reason is None
                              for k in (c.with_kit, c.without_kit, c.held_kit) if k is not None))
    played = side_strategies(kits, outcomes, selection, pinned or {})
    valued, chosen = {}, {}
    for strategy in dict.fromkeys(played.values()):
        group = [k for k in kits if played[k] == strategy]
        valued.update(zip(group, outcomes[strategy].many(group, 0, trials, batches)))
        chosen.update(zip(group, outcomes[strategy].many(group, SELECTION_FIRST, selection, SELECTION_BATCHES)))
    out = []
    for c in comparisons:
        if c.reason is None:
            failed = next((valued[k] for k in (c.with_kit, c.without_kit, c.held_kit)
                           if k is not None and isinstance(valued[k], Exception)), None)
            if failed is not None:
                c = _unfielded(c, failed)
        if c.reason is not None:
            out.append(CardEffect(c, reason=c.reason))
            continue
        w, wo, sw = valued[c.with_kit], valued[c.without_kit], chosen[c.with_kit]
        no_use = np.array_equal(w.sums, wo.sums)  # it changes nothing on the valuation trials: effect [0, 0]
        diff = w.rates() - wo.rates()
        _, low, high = paired_batch_interval(diff, np.zeros_like(diff))
        home = not no_use and high <= 0  # free disposal: it does no good, measurably (interval at or below 0)
        idle = no_use or low <= 0 < high  # nothing measured says it changes the outcome
        effect = CardEffect(c, diff, idle, home, _valued(diff, home, resample),
                            strategies=(played[c.with_kit], played[c.without_kit]))
        if c.in_slot:
            if c.in_kit:  # the card the kit holds: no upgrade over itself
                effect.upgrade = Estimate(0.0, np.zeros(len(resample)))
            elif c.held_kit is None:  # the kit holds none of its kind: the upgrade is the card
                effect.upgrade = effect.standalone
            else:
                effect.upgrade = _valued(w.rates() - valued[c.held_kit].rates(), _worse(sw, chosen[c.held_kit]),
                                         resample)
        out.append(effect)
    return out


def _unfielded(comparison, error):
    return replace(comparison, reason=f"cannot be fielded here: {error}")


def _worse(new, old) -> bool:
    """``new`` does worse than ``old`` on the selection trials (left at home)."""
    return new.mean < old.mean - TIE * max(1.0, abs(old.mean))


def copies(comparison) -> float:
    """How many of the comparison's measured effects the kit holds: every copy it holds,
    each at the margin measured (a counted card's n-th copy; ``count`` cards compared at once)."""
    return comparison.held / comparison.count


def held_effects(effects) -> tuple:
    """The measured effects of the cards the kit holds, by card id, and what their copies cost."""
    held = sorted((e for e in effects if e.comparison.held and e.reason is None), key=lambda e: e.comparison.card)
    return held, sum(e.comparison.price * e.comparison.held for e in held)


def per_g(held, cost, effect_of) -> Estimate:
    """The rate: every held copy's effect (``effect_of(e)``, an ``Estimate``) over what they cost."""
    return sum_of([effect_of(e).scaled(copies(e.comparison)) for e in held]).scaled(1.0 / cost)


def rate_of(effects, expand, unit):
    """The tier's rate (module doc): ``(Estimate, None)`` or ``(None, reason)``."""
    kit, cost = held_effects(effects)
    if not kit or cost <= 0:
        return None, f"the kit holds no card that costs anything, so no {unit} per G is measured here"
    rate = per_g(kit, cost, lambda e: e.standalone)
    if not rate.point > 0 or not interval(rate.point, rate.replicas, expand)[0] > 0:
        return None, (f"money buys no measurable {unit} here: the kit's cards ({cost:,} G) change it by "
                      f"{rate.point * cost:+.4g}, within the noise")
    return rate, None


@dataclass
class TierValues:
    """One tier: its label and budget, the kit choice, the rate and each card's row."""

    label: str
    budget: int | None
    choice: object
    kit_cost: int
    outcome: float
    rate: float | None
    rate_ci95: list | None
    reason: str | None
    rows: list
    unit: str
    mix: object = None
    plays: list = field(default_factory=list)  # the plausible (kit choice, strategy) pairs, the tier's own first
    rate_estimate: object = None  # the rate's ``Estimate`` (its bootstrap replicas): a numeraire for tuning

    def describe(self) -> dict:
        c = self.choice
        return {"label": self.label, "budget": self.budget, "strategy": c.strategy, "kit": c.kit.describe(),
                "kit_cost": self.kit_cost, "unspent": None if self.budget is None else self.budget - self.kit_cost,
                "outcome": self.outcome, "unit": self.unit, "strategies": c.outcomes, "rate": self.rate,
                "rate_ci95": self.rate_ci95, "g_per_unit": None if not self.rate else 1.0 / self.rate,
                "reason": self.reason,
                "plausible": [{"kit": kit, "strategy": strategy} for kit, strategy in self.plays],
                "agreement": {"pinned": c.pinned, "agree": c.agree, "second_kit": c.second_kit.describe(),
                              "other_kits": [k.describe() for k in c.other_kits], "differ": c.differ(),
                              "selection_trials": c.selection_trials},
                **({"monster_mix": self.mix.describe()} if self.mix is not None else {})}

    def other_plays(self) -> str:
        """The plausible plays beside the tier's own: ``frugal (first kit), cautious (third kit)``."""
        return ", ".join(f"{strategy} ({kit} kit)" for kit, strategy in self.plays[1:])

    def other_strategies(self) -> str:
        """The cards whose kit with them, or without them, a strategy other than the tier's
        plays: ``ak47 (with it: cautious); bag_of_nuts (without it: cautious)``."""
        notes = []
        for r in self.rows:
            sides = [f"{side} it: {r[f'strategy_{side}']}" for side in ("with", "without")
                     if r[f"strategy_{side}"] not in (None, self.choice.strategy)]
            if sides:
                notes.append(f"{r['item']} ({', '.join(sides)})")
        return "; ".join(notes)

    def rate_text(self) -> str:
        """"at 2,500 G, 1 day to spare = 560 G" (or why there is no rate)."""
        return rate_text(self.label, self.rate, self.unit, self.reason)


PROBABILITIES = ("survival", "win rate")  # units that are chances: rates are read per 0.01


def rate_text(label, rate, unit, reason=None) -> str:
    if rate is None:
        return f"{label}: no rate ({reason})"
    if unit in PROBABILITIES:
        return f"{label}: +0.01 {unit} = {0.01 / rate:,.0f} G"
    return f"{label}: 1 {unit.replace('days ', 'day ', 1)} = {1.0 / rate:,.0f} G"


def _row(e: CardEffect, reason) -> dict:
    c = e.comparison
    row = {"item": c.card, "family": c.family, "price": c.price, "count": c.count, "basis": c.basis,
           "in_kit": c.in_kit, "held": c.held, "effect": None, "effect_ci95": [None, None], "value_g": None,
           "value_g_ci95": [None, None], "upgrade_g": None, "upgrade_g_ci95": [None, None], "reservation_g": None,
           "reservation_g_ci95": [None, None], "buys": None, "reason": e.reason or reason,
           "strategy_with": e.strategies[0], "strategy_without": e.strategies[1]}
    if e.reason is None:
        mean, lo, hi = paired_batch_interval(e.diff, np.zeros_like(e.diff))
        row.update(effect=mean, effect_ci95=[lo, hi])
    return row


def in_g(name, estimate, expand) -> dict:
    """``{name: point, name_ci95: interval}`` of an amount in G (never below 0)."""
    return {name: estimate.point, f"{name}_ci95": interval(estimate.point, estimate.replicas, expand, 0.0)}


def priced_rows(effects, rate, reason, expand, budget, step) -> tuple[list, dict]:
    """Per card its row (value, upgrade and reservation price in G, verdict) at
    ``rate``, and ``{card: (value Estimate, price)}`` of the valued ones."""
    rows, values = [], {}
    for e in effects:
        row = _row(e, reason)
        c = e.comparison
        if row["reason"] is None:
            per = rate.scaled(c.count)
            value = e.standalone / per
            values[c.card] = (value, c.price)
            row.update(in_g("value_g", value, expand))
            if e.upgrade is not None:
                row.update(in_g("upgrade_g", e.upgrade / per, expand))
        row["verdict"] = verdict(e.no_use, e.home, *row["value_g_ci95"], c.price, row["reason"], step)
        rows.append(row)
    for row, e in zip(rows, effects):
        if e.comparison.card in values:
            res = reservation(e.comparison, values, budget)
            row.update(in_g("reservation_g", res, expand), buys=bool(row["price"] <= res.point))
    return rows, values


def reservation(comparison, values, budget) -> Estimate:
    """The most the buyer would pay at today's prices: the card's value less the
    best surplus (value less price) of another card of its kind, within [0, budget]."""
    value = values[comparison.card][0]
    best = Estimate(0.0, np.zeros_like(value.replicas))
    for other in sorted(comparison.kind - {comparison.card}):
        if other in values:
            v, price = values[other]
            best = Estimate(max(best.point, v.point - price), np.maximum(best.replicas, v.replicas - price))
    top = math.inf if budget is None else budget
    return Estimate(min(top, max(0.0, value.point - best.point)), np.clip(value.replicas - best.replicas, 0.0, top))


@dataclass
class EconomyResult:
    """Item values in a context, per tier and overall."""

    context: object
    tiers: list
    items: list
    rate: dict
    elapsed_s: float
    runs: int
    value_replicas: dict = field(default_factory=dict)  # item -> bootstrap replicas of the overall value
    synergy: pl.DataFrame | None = None  # the pairs measured with a given loadout (``sim.economy.synergy``)
    by_objective: dict | None = None  # every card's value under each objective (``values_by_objective``)
    shapley: pl.DataFrame | None = None  # each tier's kit shared among its cards (``sim.economy.shapley``)

    def describe(self) -> dict:
        return self.context.describe()

    def caption(self) -> str:
        """The context in one line, with the strategy each tier picked."""
        picked = ", ".join(f"{t.label}: {t.choice.strategy}" for t in self.tiers)
        return f"{self.context.caption()}; picked {picked}"

    def table(self) -> pl.DataFrame:
        """One row per card: overall value in G with its interval, effect, reservation price, verdict."""
        return pl.DataFrame([{k: v for k, v in row.items() if k != "tiers"} for row in self.items],
                            infer_schema_length=None)

    def objective_table(self) -> pl.DataFrame | None:
        """One row per card: its overall value in G under each objective, with interval and verdict."""
        if self.by_objective is None:
            return None
        return pl.DataFrame(self.by_objective["rows"], infer_schema_length=None)

    def tier_table(self) -> pl.DataFrame:
        """One row per card and tier, with the tier's kit and rate."""
        return pl.DataFrame([{"tier": t.label, "budget": t.budget, "strategy": t.choice.strategy,
                              "kit": t.choice.kit.describe(), "rate": t.rate, **row}
                             for t in self.tiers for row in t.rows], infer_schema_length=None)

    def to_json(self) -> dict:
        """The JSON of ``zonesim value --json`` (docs: JSON contracts)."""
        pairs = {} if self.synergy is None else {"synergy": self.synergy.to_dicts()}
        if self.by_objective is not None:
            pairs["by_objective"] = self.by_objective
        if self.shapley is not None:
            pairs["shapley"] = self.shapley.to_dicts()
        return json_safe({"context": {**self.describe(), "tiers": [t.describe() for t in self.tiers],
                                      "rate": self.rate, "elapsed_s": self.elapsed_s},
                          "items": self.items, **pairs})


def bootstrap_resample(ctx) -> np.ndarray:
    """The batches each bootstrap resample draws (the same for every card, tier and view of ``ctx``)."""
    return np.random.default_rng(ctx.seed).integers(0, ctx.batches, (ctx.bootstrap, ctx.batches))


def value_cards(ctx, *, items=None, kits=None, rates=None, on_progress=None) -> EconomyResult:
    """Every card's value in the context ``ctx`` (``sim.economy.context``) by the
    module's method; ``kits``: ``{tier label: KitChoice}`` held instead of
    chosen (tuning); ``on_progress(done, total, label)`` as the tiers go.

    ``rates`` (tuning, ``sim.economy.tune``): ``{tier label: (rate Estimate, reason)}``
    fixed, the numeraire, instead of each kit's own; a card's tier value is then the
    most any of the tier's buyers values it at (its keenest buyer), and its overall
    value the weighted mean of its tier values. A buyer is a kit of the tier's
    (``KitChoice.kits``) played by a plausible strategy for it: the strongest, each
    side of a card's comparison by the strongest for that side; another not clearly
    worse, both sides by it (else every card would be credited with the gap between
    the two strategies)."""
    started = time.perf_counter()
    cards = ctx.cards(items)
    resample = bootstrap_resample(ctx)
    expand, step = expand_factor(ctx.batches), ctx.price_step
    specs = ctx.tiers()
    chosen = []
    for k, spec in enumerate(specs):
        if on_progress:
            on_progress(k, 2 * len(specs), f"{spec.label}: choosing the kit")
        chosen.append((kits or {}).get(spec.label) or spec.choose())
    # every kit's cards at every tier (the overall rate needs them) and the cards of each one's kind (the
    # reservation prices): the values of the cards asked for are those of a run over every card
    kit_cards = [c for choice in chosen for kit in choice.kits for c in ctx.kit_cards(kit)]
    wanted = list(dict.fromkeys(cards + kit_cards + [k for c in cards for k in sorted(ctx.kind(c))]))
    tiers, choices = [], []
    for k, (spec, choice) in enumerate(zip(specs, chosen)):
        if on_progress:
            on_progress(len(specs) + k, 2 * len(specs), f"{spec.label}: measuring every card")
        outcome = spec.outcomes[choice.strategy]
        runs, plays = [], []  # one run per plausible play: the tier's kit and strategy first
        for n, kit in enumerate(choice.kits):
            own = choice.strategy if rates is None or n == 0 else strongest(spec.outcomes, kit, ctx.selection)[0]
            for strategy in plausible_strategies(spec.outcomes, kit, own, ctx.selection):
                played = spec.outcomes if rates is None or strategy == own else {strategy: spec.outcomes[strategy]}
                effects = measure_kit(ctx.compare(kit, wanted), played, trials=ctx.trials,
                                      selection=ctx.selection, batches=ctx.batches, resample=resample,
                                      pinned={kit: strategy})
                runs.append((effects, *(ctx.rate(spec, kit, strategy, effects, resample, expand) if rates is None
                                        else rates.get(spec.label, (None, "not valued when tuning began")))))
                plays.append((ordinal(n), strategy))
        rows, priced = [], []
        for effects, rate, reason in runs:
            run_rows, values = priced_rows(effects, rate, reason, expand, spec.budget, step)
            by_card = {r["item"]: r for r in run_rows}
            rows.append([by_card[c] for c in cards])
            priced.append(values)
        kit_runs = [n for n, (_, strategy) in enumerate(plays) if strategy == choice.strategy]
        _, rate, reason = runs[0]
        base = outcome.valuation(choice.kit, ctx.trials, ctx.batches)
        tier_rows = _span([rows[n] for n in kit_runs], step) if rates is None else _keenest(rows)
        tiers.append(TierValues(spec.label, spec.budget, choice, ctx.kit_cost(choice.kit),
                                None if isinstance(base, Exception) else base.mean,
                                None if rate is None else rate.point,
                                None if rate is None else interval(rate.point, rate.replicas, expand),
                                reason, _with_spread(tier_rows, rows), ctx.unit,
                                getattr(spec, "mix", None), plays, rate))
        choices.append((runs, kit_runs, priced))
    if on_progress:
        on_progress(2 * len(specs), 2 * len(specs), "done")
    budget = max((s.budget for s in specs if s.budget is not None), default=None)
    weights = ctx.weights()
    sources = twin_sources(ctx.twins(), [r for t in tiers for r in t.rows])
    for t in tiers:
        t.rows = as_twins(t.rows, sources, step)
    if rates is not None:
        items_out, rate = keenest_overall(choices, tiers, cards, expand, step, weights, ctx.unit)
        return EconomyResult(ctx, tiers, as_twins(items_out, sources, step), rate, time.perf_counter() - started,
                             sum(o.runs for spec in specs for o in spec.outcomes.values()))

    def overall_at(picks):
        return overall([runs[n] for (runs, _, _), n in zip(choices, picks)], tiers, cards, expand, ctx.unit, budget,
                       step, weights)

    firsts = [0] * len(choices)
    items_out, rate, replicas = overall_at(firsts)
    most = max(len(kit_runs) for _, kit_runs, _ in choices)
    if most > 1:  # the k-th kit choice of every tier at once (a tier with fewer keeps its last)
        kth = [[kit_runs[min(k, len(kit_runs) - 1)] for _, kit_runs, _ in choices] for k in range(1, most)]
        items_out = _span([items_out] + [overall_at(picks)[0] for picks in kth], step)
    one_changed = [firsts[:t] + [n] + firsts[t + 1:] for t, (runs, _, _) in enumerate(choices)
                   for n in range(1, len(runs))]
    items_out = _with_spread(items_out, [items_out] + [overall_at(picks)[0] for picks in one_changed])
    runs = sum(o.runs for spec in specs for o in spec.outcomes.values())
    replicas.update({card: replicas[source] for card, source in sources.items() if source in replicas})
    return EconomyResult(ctx, tiers, as_twins(items_out, sources, step), rate, time.perf_counter() - started, runs,
                         replicas)


PRICED = ("over-priced", "under-priced", "fair")


def twin_sources(groups, tier_rows) -> dict:
    """``{card: the twin whose measurement it takes}`` for every twin but the source of
    its group (``Context.twins``): the twin a kit holds, else the first; a group whose
    kits hold two of its twins is measured twin by twin."""
    out = {}
    for group in groups:
        held = sorted({r["item"] for r in tier_rows if r["item"] in group and r.get("held")})
        if len(held) > 1:
            continue
        source = held[0] if held else group[0]
        out.update({card: source for card in group if card != source})
    return out


def _read_at(row, price, twin, step) -> dict:
    """A measured row (the twin ``twin``'s, overall or at one tier) read at ``price``: its
    verdict and whether the buyer buys, and its basis the twin's measurement."""
    out = dict(row)
    if out["verdict"] in PRICED:
        out["verdict"] = verdict(False, False, *out["value_g_ci95"], price, step=step)
    if out.get("reservation_g") is not None:
        out["buys"] = bool(price <= out["reservation_g"])
    if "basis" in out:
        out.update(basis=f"measured as its twin {twin}", in_kit=False, held=0)
    return out


def _repriced(row, source, twin, step) -> dict:
    """``source``'s measured row (the twin ``twin``'s) as ``row``'s card: its id, price and
    deck count, and verdicts read at its own price, overall and at each tier."""
    out = {**_read_at(source, row["price"], twin, step),
           **{k: row[k] for k in ("item", "family", "price", "count") if k in row}}
    if "tiers" in source:
        out["tiers"] = [_read_at(t, row["price"], twin, step) for t in source["tiers"]]
    return out


def as_twins(rows, sources, step) -> list:
    """Twins (cards alike but for name, price and deck count) measured once: each takes
    the value its source twin measured (``twin_sources``), read against its own price.
    What a card does does not depend on its price; a dearer twin's restocks are a price,
    which tuning sets (one price for the group)."""
    by_item = {r["item"]: r for r in rows}
    return [_repriced(r, by_item[sources[r["item"]]], sources[r["item"]], step)
            if sources.get(r["item"]) in by_item else r for r in rows]


def values_by_objective(result: EconomyResult, on_progress=None) -> EconomyResult:
    """``result`` with ``by_objective``: every card's overall value in G under each
    objective of its campaign context, each at its own rate per tier, on the same
    frozen kits and the same campaigns (scored again, not run again)."""
    ctx = result.context
    kits = {t.label: t.choice for t in result.tiers}
    cards = [r["item"] for r in result.items]
    rows = {r["item"]: {"item": r["item"], "price": r["price"]} for r in result.items}
    objectives = []
    for k, objective in enumerate(ctx.objectives):
        if on_progress:
            on_progress(k, len(ctx.objectives), f"valuing under {objective.name}")
        other = result if objective == ctx.objective else value_cards(ctx.with_objective(objective), items=cards,
                                                                      kits=kits)
        objectives.append({"name": objective.name, "describe": objective.describe(), "unit": objective.unit,
                           "g_per_unit": other.rate["g_per_unit"], "reason": other.rate["reason"]})
        for r in other.items:
            rows[r["item"]].update({f"{objective.name}_g": r["value_g"], f"{objective.name}_g_ci95": r["value_g_ci95"],
                                    f"{objective.name}_verdict": r["verdict"]})
    return replace(result, by_objective={"objectives": objectives, "rows": list(rows.values())})


def _with_spread(rows, plays) -> list:
    """``rows`` with ``value_g_spread``: the lowest and highest value of each card over
    the row sets of ``plays`` (its value under each plausible kit and strategy)."""
    out = []
    for row, *others in zip(rows, *plays):
        values = [r["value_g"] for r in others if r["value_g"] is not None]
        out.append({**row, "value_g_spread": [min(values), max(values)] if values else [None, None]})
    return out


def _keenest(plays) -> list:
    """Per card, the row of the play (kit and strategy) that values it most: what its
    keenest buyer among the tier's kits would pay (``rates`` of ``value_cards``)."""
    out = []
    for rows in zip(*plays):
        valued = [r for r in rows if r["value_g"] is not None]
        out.append(dict(max(valued, key=lambda r: r["value_g"]) if valued else rows[0]))
    return out


def keenest_overall(choices, tiers, cards, expand, step, weights, unit) -> tuple:
    """The overall rows of a valuation at fixed rates (``rates`` of ``value_cards``): a card's
    value is the weighted mean over the tiers of its keenest buyer's value there (the same
    bootstrap resample throughout), its effect the mean of those plays' effects; ``(rows, rate dict)``."""
    valued = [(t, runs, priced) for t, (runs, _, priced) in zip(tiers, choices)
              if t.rate is not None and weights.get(t.label, 1.0) > 0]
    rows = []
    for card in cards:
        picks = []
        for t, runs, priced in valued:
            plays = [(priced[n][card][0], effects) for n, (effects, _, _) in enumerate(runs) if card in priced[n]]
            if plays:
                value, effects = max(plays, key=lambda p: p[0].point)
                effect = next(e for e in effects if e.comparison.card == card)
                picks.append((value, effect.standalone, weights.get(t.label, 1.0)))
        row, tier_rows = _blank_overall_row(card, tiers, None)
        if not picks:
            row["reason"] = next((r["reason"] for r in tier_rows if r["reason"]), "not valued at any tier")
        else:
            w = [p[2] for p in picks]
            effect = mean_of([p[1] for p in picks], w)
            row.update(effect=effect.point, effect_ci95=interval(effect.point, effect.replicas, expand))
            row.update(in_g("value_g", mean_of([p[0] for p in picks], w), expand))
        rows.append(_close_overall_row(row, tiers, tier_rows, step))
    rate = {"rate": None, "rate_ci95": None, "g_per_unit": None, "unit": unit,
            "reason": "each tier at its rate when tuning began (the numeraire)",
            "tiers": [t.label for t, _, _ in valued],
            "weights": {t.label: weights.get(t.label, 1.0) for t, _, _ in valued}}
    return rows, rate


def _span(choices, step) -> list:
    """The first kit choice's rows with each interval spanning every choice's (verdicts from the spans)."""
    out = []
    for rows in zip(*choices):
        row = dict(rows[0])
        for key in ("value_g", "upgrade_g", "reservation_g"):
            bounds = [r[f"{key}_ci95"] for r in rows if r[f"{key}_ci95"][0] is not None]
            if row[f"{key}_ci95"][0] is not None:
                row[f"{key}_ci95"] = [min(b[0] for b in bounds), max(b[1] for b in bounds)]
        if row["verdict"] in PRICED:
            row["verdict"] = verdict(False, False, *row["value_g_ci95"], row["price"], step=step)
        out.append(row)
    return out


def overall(runs, tiers, cards, expand, unit, budget, step, weights=None):
    """The headline values (module doc) from each tier's ``(effects, rate, reason)``, the
    tiers weighted by ``weights`` (``{label: weight}``, default alike):
    ``(rows, rate dict, {card: value replicas})``."""
    weights = weights or {}
    measured = [(effects, t) for (effects, rate, _), t in zip(runs, tiers)
                if rate is not None and weights.get(t.label, 1.0) > 0]  # a tier weighted 0 leaves the overall
    per_card = {c: [] for c in cards}  # every measured card (the kits' cards too, for the rate)
    for effects, t in measured:
        for e in effects:
            if e.reason is None:
                per_card.setdefault(e.comparison.card, []).append((e, weights.get(t.label, 1.0)))
    tiers_held = [held_effects(effects) for effects, _ in measured]
    kit_cards, cost = [e for held, _ in tiers_held for e in held], sum(c for _, c in tiers_held)
    reason = None
    if not measured:
        reason = "no tier's rate is measured (" + "; ".join(t.reason for t in tiers if t.reason) + ")"
    elif cost <= 0:
        reason = f"the tiers' kits hold no card that costs anything, so no {unit} per G is measured"
    rate = None
    if reason is None:
        every = {e.comparison.card: _mean_effect(per_card[e.comparison.card]) for e in kit_cards}
        rate = per_g(kit_cards, cost, lambda e: every[e.comparison.card])
        if not rate.point > 0 or not interval(rate.point, rate.replicas, expand)[0] > 0:
            reason, rate = f"money buys no measurable {unit} over the tiers", None
    rate_out = {"rate": None if rate is None else rate.point,
                "rate_ci95": None if rate is None else interval(rate.point, rate.replicas, expand),
                "g_per_unit": None if rate is None else 1.0 / rate.point, "unit": unit, "reason": reason,
                "tiers": [t.label for _, t in measured],
                "weights": {t.label: weights.get(t.label, 1.0) for _, t in measured}}
    values = {}
    for card, effects in per_card.items():
        if rate is not None and effects:  # kind-mates of the cards asked for are valued too (reservation prices)
            values[card] = (_mean_effect(effects) / rate.scaled(effects[0][0].comparison.count),
                            effects[0][0].comparison.price)
    rows, replicas = [], {}
    for card in cards:
        rows.append(_overall_row(card, tiers, per_card[card], values, rate, reason, expand, budget, step))
        if card in values:
            replicas[card] = values[card][0].replicas
    return rows, rate_out, replicas


def _mean_effect(weighted, of=lambda e: e.standalone) -> Estimate:
    """The weighted mean over the tiers of ``of(effect)`` from ``[(CardEffect, weight), ...]``."""
    return mean_of([of(e) for e, _ in weighted], [w for _, w in weighted])


def _blank_overall_row(card, tiers, reason) -> tuple:
    """``(row, tier rows)``: a card's overall row with nothing valued yet, and its row at each tier."""
    tier_rows = [next(r for r in t.rows if r["item"] == card) for t in tiers]
    row = {k: tier_rows[0][k] for k in ("item", "family", "price", "count")}
    row.update(effect=None, effect_ci95=[None, None], value_g=None, value_g_ci95=[None, None], upgrade_g=None,
               upgrade_g_ci95=[None, None], reservation_g=None, reservation_g_ci95=[None, None], buys=None,
               reason=reason)
    return row, tier_rows


def _close_overall_row(row, tiers, tier_rows, step) -> dict:
    """``row`` with its verdict (*no use here* / *worth nothing here* only where every valued tier
    says so) and each tier's row under ``tiers``."""
    valued = [r for r in tier_rows if r["reason"] is None]
    no_use = bool(valued) and all(r["verdict"] == "no use here" for r in valued)
    home = not no_use and bool(valued) and all(r["verdict"] in ("no use here", "worth nothing here") for r in valued)
    row["verdict"] = verdict(no_use, home, *row["value_g_ci95"], row["price"], row["reason"], step)
    row["tiers"] = [{"tier": t.label, "budget": t.budget, **{k: r[k] for k in (
        "value_g", "value_g_ci95", "effect", "effect_ci95", "upgrade_g", "upgrade_g_ci95", "reservation_g",
        "buys", "verdict", "reason", "basis", "in_kit", "held", "strategy_with", "strategy_without",
        "value_g_spread")}}
        for t, r in zip(tiers, tier_rows)]
    return row


def _overall_row(card, tiers, weighted, values, rate, reason, expand, budget, step) -> dict:
    row, tier_rows = _blank_overall_row(card, tiers, reason)
    effects = [e for e, _ in weighted]
    if effects:  # the mean over the tiers of the effect as valued (0 where it is left at home)
        effect = _mean_effect(weighted)
        row.update(effect=effect.point, effect_ci95=interval(effect.point, effect.replicas, expand))
    elif reason is None:
        row["reason"] = next((r["reason"] for r in tier_rows if r["reason"]), "not measured at any tier")
    if card in values:
        row.update(in_g("value_g", values[card][0], expand))
        if all(e.upgrade is not None for e in effects):
            row.update(in_g("upgrade_g", _mean_effect(weighted, lambda e: e.upgrade) /
                            rate.scaled(effects[0].comparison.count), expand))
        res = reservation(effects[0].comparison, values, budget)
        row.update(in_g("reservation_g", res, expand), buys=bool(row["price"] <= res.point))
    return _close_overall_row(row, tiers, tier_rows, step)
