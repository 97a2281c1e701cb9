"""Where item values are measured: the contexts of the one valuation method.

A context says what a kit is played on (its outcome), who buys (budget tiers
and a strategy family, or given kits), which cards are valued and how each is
compared with a kit. The declared context of a content set is its
``economy.toml`` (a content folder without the file uses the shipped
default's): the journey campaign, and its fights sub-view. The scenario
options of ``zonesim value`` and ``zonesim tune`` make the others: one fight,
one skirmish, journeys with a given loadout, a Stalkeriada table."""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Callable

from sim.content.load import DEFAULT_DIR, Content, ContentError
from sim.content.loadout import Loadout, LoadoutError
from sim.economy.outcome import SELECTION_BATCHES

ECONOMY_FILE = "economy.toml"
MODES = ("journey",)
VIEWS = ("fights",)  # the sub-views of [views.*]: the campaigns' monster mix fought out


@dataclass(frozen=True)
class SubView:
    """A sub-view (``[views.NAME]``): the tiers of the context, but the outcome is
    the chance to survive one monster encounter of the campaigns' mix, fought by
    ``strategy``; trial counts are per monster group and kit."""

    name: str
    strategy: str
    valuation_trials: int
    selection_trials: int


@dataclass(frozen=True)
class EconomyContext:
    """The settings of ``economy.toml`` (one line each there)."""

    mode: str
    days: int
    character: str
    budgets: tuple
    strategies: tuple
    max_count: int
    seed: int
    valuation_trials: int
    selection_trials: int
    batches: int
    bootstrap: int
    price_step: int
    source: str
    views: tuple = ()
    kits: tuple = ()  # ((budget, Loadout), ...): the kits [kits] pins
    objective: object = None  # the Objective in use (sim.economy.objective)
    objectives: tuple = ()    # every Objective of [objectives]
    locked: tuple = ()        # [prices] locked: cards tuning leaves at their prices
    weights: tuple = ()       # [prices] weights: ((tier label, weight), ...) of the overall value
    handicap: int | None = None  # [stalkeriada] handicap: G more at the start the table's rate is measured with
    numeraire: tuple = ()     # [prices] numeraire for the objective in use: ((tier label, G per unit), ...)
    reference_kits: tuple = ()  # [prices] reference_kits beside it: ((tier label, (Loadout, ...)), ...)

    def view(self, name: str) -> SubView:
        """The sub-view ``name`` of ``[views]``, or a one-line error naming the file."""
        for v in self.views:
            if v.name == name:
                return v
        raise ContentError(f"{self.source}: [views.{name}]: missing; copy it from the default {ECONOMY_FILE}")


def _field(path, table, section, key, kind, low=None):
    where = f"{path}: {section}.{key}"
    if key not in table:
        raise ContentError(f"{where}: missing; copy it from the default {ECONOMY_FILE}")
    value = table[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ContentError(f"{where}: expected a whole number, got {value!r}")
    if kind is str and not isinstance(value, str):
        raise ContentError(f"{where}: expected a string, got {value!r}")
    if low is not None and value < low:
        raise ContentError(f"{where}: {value} is below {low}; use a value >= {low}")
    return value


def _pair(path, table, key, quick, low, section="trials"):
    """``[full, quick]`` trial counts; the one asked for."""
    value = table.get(key)
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                  for v in value)):
        raise ContentError(f"{path}: {section}.{key}: expected [full, quick] whole numbers, got {value!r}")
    if min(value) < low:
        raise ContentError(f"{path}: {section}.{key}: {value} has a count below {low}; use counts >= {low}")
    return value[1] if quick else value[0]


def _batched(path, table, key, quick, batches, section="trials"):
    """``_pair`` of valuation counts, at least two per batch and rounded down to whole batches."""
    value = _pair(path, table, key, quick, batches * 2, section)
    return value - value % batches


def load_context(content: Content, *, quick=False, objective=None) -> EconomyContext:
    """Read and check ``economy.toml`` of ``content`` (or the default's), one-line errors naming file and field;
    ``objective``: one of its ``[objectives]`` instead of ``[objective] use``."""
    from sim.economy.objective import read_objectives

    path = Path(content.directory) / ECONOMY_FILE
    if not path.is_file():
        path = DEFAULT_DIR / ECONOMY_FILE
    try:
        raw = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{path}: not valid TOML ({exc}); fix the syntax") from None
    for section in ("context", "trials", "prices"):
        if not isinstance(raw.get(section), dict):
            raise ContentError(f"{path}: [{section}]: missing section; copy it from the default {ECONOMY_FILE}")
    ctx, trials, prices = raw["context"], raw["trials"], raw["prices"]
    mode = _field(path, ctx, "context", "mode", str)
    if mode not in MODES:
        raise ContentError(f"{path}: context.mode: '{mode}' is not supported; use one of: {', '.join(MODES)}")
    character = _field(path, ctx, "context", "character", str)
    if character not in content.characters:
        raise ContentError(f"{path}: context.character: unknown character '{character}'; "
                           f"use one of: {', '.join(content.characters)}")
    budgets = ctx.get("budgets")
    if not (isinstance(budgets, list) and budgets and all(isinstance(b, int) and not isinstance(b, bool) and b > 0
                                                           for b in budgets)):
        raise ContentError(f"{path}: context.budgets: expected a list of positive whole G, got {budgets!r}")
    names = ctx.get("strategies")
    if not (isinstance(names, list) and names and all(isinstance(n, str) for n in names)):
        raise ContentError(f"{path}: context.strategies: expected a list of journey strategy names, got {names!r}")
    batches = _field(path, trials, "trials", "batches", int, 2)
    views = raw.get("views", {})
    if not isinstance(views, dict) or any(name not in VIEWS or not isinstance(t, dict) for name, t in views.items()):
        raise ContentError(f"{path}: [views]: expected tables named {' or '.join(f'views.{v}' for v in VIEWS)}")
    objectives, chosen = read_objectives(path, raw, objective)
    numeraire = _numeraire(path, prices, budgets, [o.name for o in objectives], chosen.name)
    return EconomyContext(
        mode=mode, days=_field(path, ctx, "context", "days", int, 1), character=character,
        budgets=tuple(sorted(set(budgets))), strategies=tuple(names),
        max_count=_field(path, ctx, "context", "max_count", int, 1), seed=_field(path, trials, "trials", "seed", int, 0),
        valuation_trials=_batched(path, trials, "valuation", quick, batches),
        selection_trials=_pair(path, trials, "selection", quick, 2),
        batches=batches, bootstrap=_field(path, trials, "trials", "bootstrap", int, 20),
        price_step=_field(path, prices, "prices", "step", int, 1), source=str(path),
        views=tuple(_sub_view(path, name, table, quick, batches) for name, table in views.items()),
        kits=_pinned(path, content, raw.get("kits", {}), budgets, character), objective=chosen,
        objectives=objectives, locked=_locked(path, content, prices), weights=_weights(path, prices, budgets),
        handicap=_handicap(path, raw.get("stalkeriada")),
        numeraire=numeraire, reference_kits=_reference_kits(path, content, prices, budgets, character, bool(numeraire)))


def _numeraire(path, prices, budgets, objectives, used) -> tuple:
    """``[prices] numeraire = { objective = NAME, BUDGET = G per unit, ... }``: the rates a tuned
    copy was tuned in (``zonesim tune --out`` writes it), for the objective in use (else none)."""
    table = prices.get("numeraire")
    if table is None:
        return ()
    where = f"{path}: prices.numeraire"
    if not isinstance(table, dict) or table.get("objective") not in objectives:
        raise ContentError(f"{where}: expected {{ objective = one of {', '.join(objectives)}, BUDGET = G per unit, "
                           f"... }}, got {table!r}")
    labels = [budget_label(b) for b in sorted(set(budgets))]
    out = []
    for key, g in table.items():
        if key == "objective":
            continue
        if not (key.isdigit() and budget_label(int(key)) in labels):
            raise ContentError(f"{where}: '{key}' is not one of context.budgets")
        if isinstance(g, bool) or not isinstance(g, (int, float)) or not 0 < g < math.inf:
            raise ContentError(f"{where}: {key} = {g!r}; give the G one unit of the objective cost, above 0")
        out.append((budget_label(int(key)), float(g)))
    return tuple(out) if table["objective"] == used else ()


def _reference_kits(path, content, prices, budgets, character, in_use) -> tuple:
    """``[prices] reference_kits = { BUDGET = [[card ids], ...], ... }``: the kits a tuned copy's
    values were measured on (``zonesim tune --out`` writes it beside the numeraire); none unless
    ``in_use`` (the numeraire is recorded for the objective in use)."""
    table = prices.get("reference_kits")
    if table is None:
        return ()
    where = f"{path}: prices.reference_kits"
    if "numeraire" not in prices:
        raise ContentError(f"{where}: given without prices.numeraire; delete both to tune afresh")
    if not isinstance(table, dict):
        raise ContentError(f"{where}: expected {{ BUDGET = [[card ids], ...], ... }}, got {table!r}")
    out = []
    for key, kits in table.items():
        if not (key.isdigit() and int(key) in budgets):
            raise ContentError(f"{where}: '{key}' is not one of context.budgets")
        if not (isinstance(kits, list) and kits and all(isinstance(k, list) for k in kits)):
            raise ContentError(f"{where}: {key}: expected a list of kits, each a list of card ids")
        out.append((budget_label(int(key)), tuple(build_kit(content, k, character, f"{where}.{key}") for k in kits)))
    return tuple(out) if in_use else ()


def _handicap(path, table) -> int | None:
    """``[stalkeriada] handicap``: whole G at or above 1 (None: no such section)."""
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ContentError(f"{path}: [stalkeriada]: expected a table with handicap = G")
    return _field(path, table, "stalkeriada", "handicap", int, 1)


def _weights(path, prices, budgets) -> tuple:
    """``[prices] weights``: ``{budget in G: weight}`` of the overall value (``tier_weights``)."""
    weights = prices.get("weights", {})
    if not isinstance(weights, dict):
        raise ContentError(f"{path}: prices.weights: expected a table of budget = weight, e.g. "
                           f"{{ {budgets[0]} = 1 }}, got {weights!r}")
    try:
        return tier_weights(weights, [budget_label(b) for b in sorted(set(budgets))], f"{path}: prices.weights")
    except LoadoutError as exc:
        raise ContentError(str(exc)) from None


def tier_weights(weights: dict, labels: list, where: str) -> tuple:
    """``((label, weight), ...)`` from ``{budget in G or tier label: weight}``: every key a tier
    of ``labels``, every weight a number at or above 0, their sum (the tiers not named count 1)
    above 0; else a one-line error naming ``where``."""
    out = {}
    for key, weight in weights.items():
        label = budget_label(int(key)) if str(key).isdigit() else str(key)
        if label not in labels:
            raise LoadoutError(f"{where}: unknown tier '{key}'; use a budget in G or a tier label: "
                               f"{', '.join(labels)}")
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not weight >= 0 or weight == math.inf:
            raise LoadoutError(f"{where}: {key} = {weight!r}; give a weight at or above 0")
        out[label] = float(weight)
    if not sum(out.get(label, 1.0) for label in labels) > 0:
        raise LoadoutError(f"{where}: the weights sum to 0; give at least one tier a weight above 0")
    return tuple(out.items())


def _locked(path, content, prices) -> tuple:
    """``[prices] locked``: card ids of items.toml whose prices tuning leaves as they are."""
    cards = prices.get("locked", [])
    if not (isinstance(cards, list) and all(isinstance(c, str) for c in cards)):
        raise ContentError(f"{path}: prices.locked: expected a list of card ids, got {cards!r}")
    for card in cards:
        if card not in content.items:
            raise ContentError(f"{path}: prices.locked: unknown card '{card}'; use ids of items.toml")
    return tuple(cards)


def _sub_view(path, name, table, quick, batches) -> SubView:
    section = f"views.{name}"
    return SubView(name, _field(path, table, section, "strategy", str),
                   _batched(path, table, "valuation", quick, batches, section),
                   _pair(path, table, "selection", quick, 2, section))


def _pinned(path, content, table, budgets, character) -> tuple:
    """``[kits]``: ``"BUDGET" = ["card", ...]`` (a card twice for two), each a legal kit within its budget."""
    if not isinstance(table, dict):
        raise ContentError(f"{path}: [kits]: expected a table of \"BUDGET\" = [card ids]")
    out = []
    for key, cards in table.items():
        where = f"{path}: kits.{key}"
        if not (key.isdigit() and int(key) in budgets):
            raise ContentError(f"{where}: not one of context.budgets ({', '.join(map(str, budgets))}); pin a kit "
                               "for a listed budget")
        if not (isinstance(cards, list) and all(isinstance(c, str) for c in cards)):
            raise ContentError(f"{where}: expected a list of card ids, e.g. [\"glonass\", \"stimulator\"]")
        out.append((int(key), build_kit(content, cards, character, where)))  # over its budget: the tables say so
    return tuple(sorted(out))


def build_kit(content: Content, cards, character: str, where: str) -> Loadout:
    """The kit of ``cards`` (ids, a card twice for two), or a one-line error naming ``where``."""
    kit = Loadout(character=character)
    for card in cards:
        if card not in content.items:
            raise ContentError(f"{where}: unknown card '{card}'; use ids of items.toml")
        bigger = kit.with_card(content, card)
        if bigger is None or bigger.cards() != {**kit.cards(), card: kit.cards().get(card, 0) + 1}:
            raise ContentError(f"{where}: '{card}' does not fit beside {kit.describe()} (one card a slot, its "
                               "firearm before a modifier, decks and the explosives cap)")
        kit = bigger
    return kit


@dataclass
class TierSpec:
    """One tier of a context: its label and budget (None for a given kit), the
    outcome under each strategy of the family, and how its kit is chosen
    (``choose()``; a shopper's also ``choose(banned=cards)``, restricted play)."""

    label: str
    budget: int | None
    outcomes: dict
    choose: Callable
    mix: object = None


@dataclass
class Context:
    """What every context gives the valuation (``sim.economy.value``)."""

    content: Content
    mode: str
    unit: str
    outcome_words: str
    seed: int
    trials: int
    selection: int
    batches: int
    bootstrap: int
    price_step: int
    max_count: int = 2
    client: object = field(default=None, repr=False)
    store: object = field(default=None, repr=False)
    tier_weights: tuple = ()  # ((tier label, weight), ...): the overall's weights (tiers not named: 1)

    def describe(self) -> dict:
        return {"mode": self.mode, "outcome": self.outcome_words, "unit": self.unit, "trials": self.trials,
                "selection_trials": self.selection, "batches": self.batches, "bootstrap": self.bootstrap,
                "seed": self.seed, "tier_weights": self.weights(), **self._describe()}

    def tier_labels(self) -> list:
        """The tiers' labels, in order (``2,500 G``, a given kit's label)."""
        plan = self.tier_plan
        return [budget_label(b) for b in plan.budgets] + [label for label, _ in plan.pinned]

    def weights(self) -> dict:
        """``{tier label: weight}`` of the overall value (``sim.economy.value``): 1 unless weighted."""
        return {label: 1.0 for label in self.tier_labels()} | dict(self.tier_weights)

    def weighted(self, weights: dict, where: str) -> "Context":
        """The context with the overall's tier ``weights`` (``{budget in G or tier label: weight}``),
        or a one-line error naming ``where``."""
        return replace(self, tier_weights=tier_weights(weights, self.tier_labels(), where))

    def _describe(self) -> dict:
        return {}

    def caption(self) -> str:
        """The context in one line: what is measured, who buys, trials and seed."""
        return (f"{self.mode}: {self.outcome_words}; {self.buyers()}; {self.trials:,} trials per kit in "
                f"{self.batches} paired batches, {self.selection:,} per kit for the shopper; seed {self.seed}")

    def buyers(self) -> str:
        plan = self.tier_plan
        tiers = [f"{b:,}" for b in plan.budgets]
        who = [f"budgets {' / '.join(tiers)} G" if tiers else "", *(f"{label}: {kit.describe()}"
                                                                     for label, kit in plan.pinned)]
        return f"{plan.character}, {'; '.join(w for w in who if w)}; strategies {', '.join(self.strategies)}"

    def price(self, card) -> int:
        return self.content.items[card]["price"]

    def cards(self, items=None) -> list:
        from sim.economy.kits import valued_cards

        return valued_cards(self.content, items)

    def compare(self, kit, cards) -> list:
        from sim.economy.kits import loadout_comparisons

        return loadout_comparisons(self.content, kit, cards)

    def kit_cost(self, kit) -> int:
        return kit.cost(self.content)

    def rate(self, spec, kit, strategy, effects, resample, expand) -> tuple:
        """The tier's rate, ``(Estimate, None)`` or ``(None, reason)``: the kit's cards' effects
        over what they cost (``sim.economy.value.rate_of``)."""
        from sim.economy.value import rate_of

        return rate_of(effects, expand, self.unit)

    def card_limit(self) -> int | None:
        """The most cards a stalker may carry (K-05; None: no limit in this context)."""
        return None

    def kind(self, card) -> frozenset:
        """The cards that do ``card``'s job (``sim.content.loadout.kind``)."""
        from sim.content.loadout import kind

        return kind(self.content, card)

    def twins(self) -> list:
        """Groups of two or more valued cards that do the same (``sim.content.loadout.twins``):
        tuning gives each group one price."""
        from sim.content.loadout import twins

        return twins(self.content, self.cards())

    def kit_cards(self, kit) -> list:
        """The valued cards ``kit`` holds."""
        valued = set(self.cards())
        return [c for c in kit.cards() if c in valued]

    def at_prices(self, prices: dict, scratch: Path) -> "Context":
        """The same context with these prices (``{card: G}``); ``scratch``: a folder
        for a content copy where the prices live in a file."""
        from sim.content.edit import with_prices

        return replace(self, content=with_prices(self.content, prices))

    def write_prices(self, target: Path, prices: dict, rates=None, kits=None) -> Path:
        """A copy of the content folder at ``target`` with ``prices``, comments and layout kept
        (``rates`` and ``kits``, the numeraire and the held kits by tier, are recorded only by the
        declared context)."""
        from sim.content.edit import write_item_prices

        return write_item_prices(Path(self.content.directory), target, prices)


@dataclass
class KitTiers:
    """Budget tiers a shopper buys for (``budgets``; ``pinned_budgets``: those whose kit
    economy.toml gives), and given kits (``pinned``: ``((label, kit), ...)``)."""

    budgets: tuple = ()
    pinned: tuple = ()  # ((label, kit), ...)
    character: str = "novice"
    pinned_budgets: dict = field(default_factory=dict)  # budget -> kit given in economy.toml


def budget_label(budget: int) -> str:
    """A budget tier's label: ``2,500 G``."""
    return f"{budget:,} G"


def _tier_specs(ctx, tiers: KitTiers, outcomes_for) -> list:
    """The ``TierSpec`` of every budget (the shopper's kit, or the pinned one) and given kit."""
    from sim.economy.shop import SELECTION_RESAMPLES, choose_kit, pinned_kit

    start = Loadout(character=tiers.character)
    specs = []
    for budget in tiers.budgets:
        outcomes = outcomes_for()
        if budget in tiers.pinned_budgets:
            choose = (lambda o=outcomes, k=tiers.pinned_budgets[budget]: pinned_kit(o, k, ctx.selection))
        else:
            choose = (lambda banned=frozenset(), o=outcomes, b=budget: choose_kit(
                ctx.content, o, start, b, trials=ctx.selection, max_count=ctx.max_count, max_cards=ctx.card_limit(),
                resamples=SELECTION_RESAMPLES, banned=banned))
        specs.append(TierSpec(budget_label(budget), budget, outcomes, choose))
    for label, kit in tiers.pinned:
        outcomes = outcomes_for()
        specs.append(TierSpec(label, None, outcomes, lambda o=outcomes, k=kit: pinned_kit(o, k, ctx.selection)))
    return specs


@dataclass
class CampaignContext(Context):
    """The journey campaign (Z-34..Z-41) on the content's map, order deck and
    event tables: the outcome is the objective's score; the family is journey
    strategies."""

    days: int = 30
    objective: object = None  # sim.economy.objective.Objective
    objectives: tuple = ()    # every objective of economy.toml (``with_objective``)
    goal_orders: int = 1
    strategies: tuple = ("cautious",)
    tier_plan: KitTiers = field(default_factory=KitTiers)
    declared: bool = False  # economy.toml's own context (its tuned copy records the numeraire)
    numeraire: tuple = ()  # economy.toml's recorded numeraire: ((tier label, G per unit), ...)
    reference_kits: tuple = ()  # the kits it was tuned on: ((tier label, (Loadout, ...)), ...)
    _outcomes: dict = field(default_factory=dict, repr=False)

    def _describe(self):
        return {"days": self.days, "objective": self.objective.name, "goal_orders": self.goal_orders,
                "character": self.tier_plan.character, "budgets": list(self.tier_plan.budgets),
                "strategies": list(self.strategies)}

    def card_limit(self):
        """journey.toml's asset limit (K-05): a kit above it would be discarded at the first day's end."""
        from sim.content.journey import load_journey

        limit = load_journey(self.content).settings.get("asset_limit")
        return None if limit is None or limit < 0 else int(limit)

    def outcome(self, strategy):
        """The campaign's outcome under ``strategy`` (one per strategy, shared by the tiers)."""
        from sim.economy.outcome import JourneyOutcome

        if strategy not in self._outcomes:
            self._outcomes[strategy] = JourneyOutcome(self.content, strategy, self.days, self.seed, self.objective,
                                                      self.goal_orders, client=self.client, store=self.store)
        return self._outcomes[strategy]

    def tiers(self) -> list:
        return _tier_specs(self, self.tier_plan, lambda: {s: self.outcome(s) for s in self.strategies})

    def with_objective(self, objective) -> "CampaignContext":
        """The same campaigns valued under ``objective``, on this context's runs."""
        return replace(self, unit=objective.unit, outcome_words=campaign_words(objective, self.days, self.goal_orders),
                       objective=objective,
                       _outcomes={s: self.outcome(s).for_objective(objective) for s in self.strategies})

    def at_prices(self, prices, scratch):
        return replace(super().at_prices(prices, scratch), _outcomes={})

    def write_prices(self, target, prices, rates=None, kits=None):
        """The copy with ``prices`` and, for economy.toml's context, ``rates`` (``{tier label:
        outcome per G}``, the numeraire they were tuned in) and ``kits`` (``{tier label: KitChoice}``,
        the kits the values were measured on) recorded as ``[prices] numeraire`` and
        ``[prices] reference_kits`` of its ``economy.toml``, so a second tuning measures in the same
        G on the same kits."""
        copy = super().write_prices(target, prices)
        recorded = {b: rates[budget_label(b)] for b in self.tier_plan.budgets if (rates or {}).get(budget_label(b))}
        if recorded and self.declared:
            from sim.content.edit import set_or_add

            path = copy / ECONOMY_FILE
            text = path.read_text(encoding="utf-8") if path.is_file() else (DEFAULT_DIR / ECONOMY_FILE).read_text()
            table = ", ".join([f'objective = "{self.objective.name}"'] + [f"{b} = {1 / r:.6g}"
                                                                          for b, r in recorded.items()])
            text = set_or_add(text, "prices", "numeraire", f"{{ {table} }}")
            held = {b: kits[budget_label(b)].kits for b in recorded if budget_label(b) in (kits or {})}
            if held:
                text = set_or_add(text, "prices", "reference_kits", "{ " + ", ".join(
                    f"{b} = [{', '.join(_kit_toml(k) for k in ks)}]" for b, ks in held.items()) + " }")
            path.write_text(text, encoding="utf-8")
        return copy


def _kit_toml(kit) -> str:
    """A kit as a TOML list of card ids, a card twice for two: ``["medkit", "medkit"]``."""
    return "[" + ", ".join(f'"{c}"' for c, n in kit.cards().items() for _ in range(n)) + "]"


@dataclass
class SurvivalContext(Context):
    """Survival in one encounter of weighted monster groups, fought (or skirmished)
    under each strategy of a family: ``measure_for(strategy name, monsters)``
    gives the per-trial measure (``sim.run.fight.FightMeasure``,
    ``sim.run.skirmish.SkirmishMeasure``)."""

    groups: tuple = ()
    shares: tuple = (1.0,)
    strategies: tuple = ("fighter",)
    measure_for: Callable = None
    tier_plan: KitTiers = field(default_factory=KitTiers)
    label: str = "fight"

    def _describe(self):
        return {"monsters": [list(g) for g in self.groups], "shares": list(self.shares),
                "character": self.tier_plan.character, "budgets": list(self.tier_plan.budgets),
                "given_kits": [{"label": label, "kit": kit.describe()} for label, kit in self.tier_plan.pinned],
                "strategies": list(self.strategies)}

    def outcomes(self, groups=None, shares=None) -> dict:
        from sim.economy.outcome import SurvivalOutcome

        groups = self.groups if groups is None else groups
        shares = self.shares if shares is None else shares
        return {s: SurvivalOutcome(self.content, tuple(self.measure_for(s, g) for g in groups), tuple(shares),
                                   self.seed, f"{self.label}:{s}:{[list(g) for g in groups]}", client=self.client,
                                   store=self.store)
                for s in self.strategies}

    def tiers(self) -> list:
        return _tier_specs(self, self.tier_plan, self.outcomes)


@dataclass
class FightsView(SurvivalContext):
    """The fights sub-view of the campaign (``[views.fights]``): at each budget
    tier, the monster mix the tier's campaigns meet (their hex entries and the
    Z-39 tables, ``sim.economy.mix``), fought to the end by the view's strategy;
    the fight kit is bought on survival by the same shopper."""

    campaign: CampaignContext = None

    def tiers(self) -> list:
        from sim.content.journey import load_journey
        from sim.economy.mix import encounter_rates

        journey, specs = load_journey(self.content), []
        for spec in self.campaign.tiers():
            choice = spec.choose()
            entries = spec.outcomes[choice.strategy].hex_entries(choice.kit, self.campaign.trials)
            mix = encounter_rates(journey, entries)
            tier = _tier_specs(self, replace(self.tier_plan, budgets=(spec.budget,)),
                               lambda m=mix: self.outcomes(m.groups, tuple(float(x) for x in m.shares)))[0]
            specs.append(replace(tier, mix=mix))
        return specs


@dataclass
class TableContext(Context):
    """A Stalkeriada table (S-01..S-24): the win rate of each planner strategy
    against ``opponents`` (seats rotated); a tier is a planner, its kit the shop
    items it buys (S-04), its cards the shop's."""

    planners: tuple = ()
    opponents: tuple = ()
    handicap: int = 1  # economy.toml's [stalkeriada] handicap: G more at the start (the rate's measure)

    def _describe(self):
        return {"planners": [p.name for p in self.planners], "opponents": [o.name for o in self.opponents],
                "handicap": self.handicap}

    def tier_labels(self):
        return [p.name for p in self.planners]

    def buyers(self):
        return (f"planners {', '.join(p.name for p in self.planners)}, each with the shop items it buys, at a table "
                f"with {', '.join(o.name for o in self.opponents)} (every seat order)")

    @cached_property
    def shop(self) -> dict:
        """The shop's prices (S-04), read once per context."""
        from sim.content.stalkeriada import load_stalkeriada

        return dict(load_stalkeriada(self.content).settings["shop"])

    def price(self, card):
        return self.shop[card]

    def cards(self, items=None):
        from sim.economy.kits import SHOP_ITEMS

        return [i for i, _ in SHOP_ITEMS if items is None or i in items]

    def compare(self, kit, cards):
        from sim.economy.kits import shop_comparisons

        return shop_comparisons(self.shop, kit, cards)

    def kit_cost(self, kit):
        return kit.cost(self.shop)

    def rate(self, spec, kit, strategy, effects, resample, expand) -> tuple:
        """The win rate one G buys: the planner with ``kit`` and ``handicap`` G more at the start
        (S-10) against the same planner without, on the same games and seats, over ``handicap``;
        ``(Estimate, None)``, or ``(None, reason)`` where the money changes nothing measurable."""
        from sim.economy.value import Estimate, interval

        bonus = self.handicap
        outcome = spec.outcomes[strategy]
        richer, base = outcome.many([kit.with_bonus(bonus), kit], 0, self.trials, self.batches)
        for got in (richer, base):
            if isinstance(got, Exception):
                return None, f"cannot be fielded here: {got}"
        diff = (richer.rates() - base.rates()) / bonus
        rate = Estimate(float(diff.mean()), diff[resample].mean(axis=1))
        if not rate.point > 0 or not interval(rate.point, rate.replicas, expand)[0] > 0:
            return None, (f"money buys no measurable {self.unit} here: {bonus:,} G more at the start changes it by "
                          f"{rate.point * bonus:+.4g}, within the noise")
        return rate, None

    def kit_cards(self, kit):
        return [i for i, n in kit.items if n]

    def kind(self, card):
        return frozenset([card])

    def tiers(self):
        from sim.economy.kits import ShopKit
        from sim.economy.outcome import TableOutcome
        from sim.economy.shop import pinned_kit

        specs = []
        for planner in self.planners:
            outcomes = {planner.name: TableOutcome(self.content, planner, tuple(self.opponents), self.seed,
                                                   client=self.client, store=self.store)}
            kit = ShopKit.of(planner)
            specs.append(TierSpec(planner.name, None, outcomes, lambda o=outcomes, k=kit: pinned_kit(o, k,
                                                                                                  self.selection)))
        return specs

    def at_prices(self, prices, scratch):
        import tempfile

        from sim.content.load import load_content

        folder = Path(tempfile.mkdtemp(prefix="prices-", dir=scratch)) / "content"
        return replace(self, content=load_content(self.write_prices(folder, prices)))

    def write_prices(self, target, prices, rates=None, kits=None):
        from sim.content.edit import write_shop_prices

        return write_shop_prices(Path(self.content.directory), target, prices)


def declared(content: Content, settings: EconomyContext, *, view=None, client=None, store=None,
             campaign=None) -> Context:
    """The declared context of ``economy.toml`` (``settings``), or its sub-view ``view``.
    A view buys its kits on the tiers' campaigns: ``campaign``, the declared context a
    valuation of the same content and settings ran on, lends them with its runs (the same
    kits, nothing run again); by default they are bought anew."""
    tiers = KitTiers(settings.budgets, (), settings.character, dict(settings.kits))
    if campaign is None:
        goal = campaign_goal(content, settings)
        campaign = CampaignContext(
            content, "journey", settings.objective.unit, campaign_words(settings.objective, settings.days, goal),
            settings.seed, settings.valuation_trials, settings.selection_trials, settings.batches,
            settings.bootstrap, settings.price_step, settings.max_count, client, store, days=settings.days,
            objective=settings.objective, objectives=settings.objectives, goal_orders=goal,
            strategies=settings.strategies, tier_plan=tiers, declared=True, tier_weights=settings.weights,
            numeraire=settings.numeraire, reference_kits=settings.reference_kits)
    elif (campaign.content.digest, campaign.seed, campaign.tier_plan) != (content.digest, settings.seed, tiers):
        raise ValueError("declared: the lent campaign is of other content or settings")
    if view is None:
        return campaign
    sub = settings.view(view)
    return FightsView(
        content, f"journey: {sub.name}", "survival",
        f"the chance to survive one monster encounter of each tier's campaigns' mix, fought by {sub.strategy}, "
        "each with the whole kit fresh (an upper bound for single-use cards: over a campaign they run out)",
        settings.seed, sub.valuation_trials, sub.selection_trials, settings.batches, settings.bootstrap,
        settings.price_step, settings.max_count, client, store, strategies=(sub.strategy,),
        measure_for=fight_measure_for(content), tier_plan=tiers, label=sub.name, campaign=campaign,
        tier_weights=settings.weights)


def campaign_goal(content: Content, settings: EconomyContext) -> int:
    """journey.toml's goal (Z-41: order cards held), once every objective is checked against its deck."""
    from sim.content.journey import load_journey
    from sim.economy.objective import check_deck

    journey = load_journey(content)
    check_deck(settings.source, settings.objectives, len(journey.orders))
    return journey.settings["goal_orders"]


def campaign_words(objective, days: int, goal: int) -> str:
    """What a campaign's outcome is, in words: the objective, the goal and the campaign's length."""
    return f"objective {objective.describe()}, in campaigns of {days} days with a goal of {goal} order cards held"


def fight_measure_for(content: Content, family=None):
    """``(strategy name, monsters) -> FightMeasure``; ``family``: ``{name: Strategy}`` (default: by name)."""
    import strategies
    from sim.run.fight import FightMeasure

    return lambda name, monsters: FightMeasure(content, tuple(monsters),
                                               family[name] if family else strategies.get(name))


def scenario(content: Content, settings: EconomyContext, *, mode="fight", monsters=(), loadout=None,
             strategies=(), opponents=(), days=30, budgets=(), trials=None, selection=None, seed=1, client=None,
             store=None) -> Context:
    """The context of a scenario of ``zonesim value`` / ``tune``: ``mode`` fight
    (one fight against ``monsters``), skirmish (one tactical skirmish against
    them), journey (campaigns of ``days`` days) or stalkeriada (a table of the
    planners ``strategies`` against ``opponents``). The tiers: the given
    ``loadout`` as it is, else the ``budgets`` (default: economy.toml's) with
    the shopper; ``strategies`` is the family (``strongest`` in fights: every
    built-in and the tactician grid). ``trials`` per kit (the mode's
    ``valuation_trials``, ``sim.modes``), ``selection`` per kit for the shopper
    (default a tenth of ``trials``). The mode's ``valuation`` builds it."""
    from sim.modes import MODES, resolve

    valued = [name for name, m in MODES.items() if m.valuation]
    if mode not in valued:
        raise ContentError(f"--mode: '{mode}' has no valuation scenario; use one of: {', '.join(valued)}")
    trials = MODES[mode].valuation_trials if trials is None else trials
    batches = settings.batches
    if trials < 2 * batches:
        raise ContentError(f"--trials: {trials}; give at least {2 * batches} for {batches} paired batches")
    trials -= trials % batches
    selection = max(2 * SELECTION_BATCHES, trials // 10) if selection is None else selection
    common = dict(seed=seed, trials=trials, selection=selection, batches=batches, bootstrap=settings.bootstrap,
                  price_step=settings.price_step, max_count=settings.max_count, client=client, store=store)
    setup = Scenario(content, settings, tuple(monsters), loadout, tuple(strategies), tuple(opponents), days,
                     tuple(budgets))
    return resolve(MODES[mode].valuation)(setup, common)


@dataclass(frozen=True)
class Scenario:
    """The options of a ``zonesim value`` / ``tune`` scenario, as ``scenario`` is given them."""

    content: Content
    settings: EconomyContext
    monsters: tuple
    loadout: Loadout | None
    strategies: tuple
    opponents: tuple
    days: int
    budgets: tuple

    def tiers(self) -> KitTiers:
        """The given loadout as it is, else the budgets (default: economy.toml's) with the shopper."""
        if self.loadout is not None:
            return KitTiers((), (("the given loadout", self.loadout),), self.loadout.character)
        return KitTiers(tuple(sorted(self.budgets or self.settings.budgets)), (), self.settings.character)


def table_scenario(s: Scenario, common: dict) -> Context:
    """A Stalkeriada table: the planners ``s.strategies`` against ``s.opponents``; the outcome is the win rate."""
    if s.settings.handicap is None:
        raise ContentError(f"{s.settings.source}: [stalkeriada] handicap: missing; copy it from the default "
                           f"{ECONOMY_FILE}")
    return TableContext(s.content, "stalkeriada", "win rate",
                        f"the planner's win rate against {', '.join(o.name for o in s.opponents)}",
                        planners=s.strategies, opponents=s.opponents, handicap=s.settings.handicap, **common)


def journey_scenario(s: Scenario, common: dict) -> Context:
    """Campaigns of ``s.days`` days under the journey strategies (default economy.toml's); outcome: the
    objective's score."""
    goal = campaign_goal(s.content, s.settings)
    return CampaignContext(s.content, "journey", s.settings.objective.unit,
                           campaign_words(s.settings.objective, s.days, goal),
                           days=s.days, objective=s.settings.objective, objectives=s.settings.objectives,
                           goal_orders=goal,
                           strategies=s.strategies or s.settings.strategies, tier_plan=s.tiers(), **common)


def skirmish_scenario(s: Scenario, common: dict) -> Context:
    """One skirmish of the party against ``s.monsters`` (strategy default ``hold``); outcome: survival."""
    import strategies as registry
    from sim.content.skirmish import load_arena, load_skirmish
    from sim.run.skirmish import skirmish_measure

    sk = load_skirmish(s.content)
    arena = load_arena(sk)
    names = s.strategies or ("hold",)
    family = {n: registry.get(n, mode="skirmish") for n in names}
    return SurvivalContext(s.content, "skirmish", "survival", f"the chance to survive a skirmish against "
                           f"{' + '.join(s.monsters)}", groups=(s.monsters,), strategies=names,
                           measure_for=lambda n, g: skirmish_measure(s.content, sk, g, arena, family[n]),
                           tier_plan=s.tiers(), label="skirmish", **common)


def fight_scenario(s: Scenario, common: dict) -> Context:
    """One fight against ``s.monsters`` under the fight strategies (default fighter); outcome: survival."""
    family = fight_family(s.strategies)
    return SurvivalContext(s.content, "fight", "survival", f"the chance to survive a fight against "
                           f"{' + '.join(s.monsters)}", groups=(s.monsters,), strategies=tuple(family),
                           measure_for=fight_measure_for(s.content, family), tier_plan=s.tiers(), **common)


def fight_family(names) -> dict:
    """``{name: Strategy}`` of the fight strategies ``names`` (default fighter);
    ``strongest`` adds every built-in and the tactician grid (``sim.run.search``)."""
    import strategies as built_in
    from sim.run.search import candidates

    family = {}
    for name in names or ("fighter",):
        for strategy in candidates() if name == "strongest" else [built_in.get(name)]:
            family[strategy.name] = strategy
    return family
