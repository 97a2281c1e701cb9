"""Price tuning: every card at the price its value in G earns, and the
Stalkeriada pace (how many games end with a winner).

**Prices at value.** Round 0 values every card at the content's prices
(``sim.economy.value``): the tiers' kits are bought there and held, and each
tier's rate (outcome per G) is kept.

**The numeraire** (docs/decisions/numeraire.md): every later round values the
cards at those rates, each tier's rate at the content's prices, so a tuned
price is in the G that the budgets and rewards of the content are in (a G
buys at each tier the outcome it bought), and lower prices cannot lower the
values that set them. A tuned copy records them and the held kits
(``[prices] numeraire`` and ``reference_kits`` of its economy.toml), and
tuning it again starts from them: the same G, the same kits, other dice.

**Keenest buyers.** After each move the shopper buys again at the new prices;
where the kit he buys does clearly better (``CLEAR_GAIN_Z`` standard errors on
the selection trials) than every held kit, it is held too (at most
``MAX_KITS`` a tier). A card's tier value is the most any buyer (a held kit
played by a plausible strategy for it) values it at
(``value_cards(rates=...)``): a firearm by the stalker who built his kit around
it, not only by one whose kit has no use for it. So a kit of complements (a
firearm and its modifiers, armour to fight in) that comes out cheaper than
what it does is priced up until no buyer prefers it clearly.

**Moves.** A moving price that lies outside its value interval (ends rounded
to the context's price step) goes part of the way to its value (``damping``,
shrinking round by round: ``damping * 2 / (k + 2)`` at move ``k``), rounded
to the step, at least one step and never below one step; a fair price stays,
so a second tuning moves only what the new dice put outside. Twins (cards
alike but for name, price and deck count) share one price. Tuning stops when
every moving price is fair and the shopper finds no clearly better kit, or
after ``rounds`` moves.

A card of no use anywhere, worth nothing anywhere (left at home) or not valued
keeps its price: nothing says what it is worth; so does a card whose effect
interval includes 0, and a card the designer locks (``locked``).

The one price a card moves to is a weighted fit over the tiers: the mean of
its tier values, each tier counting alike or by the designer's weights
(``[prices] weights``, ``--weights``). Beside it each tier's own value, and a
flag on a card whose tiers' values differ more than ``SPREAD`` times
(``tier_fit``).

With a ``coarse`` context (the same one at fewer valuation trials, the same
selection trials and so the same kits) prices first settle on it and only the
last rounds run at the full trials.

**Pace** (``tune_pace``): one factor on the exit visa's price, or on the loot
prices, found by bisection on common dice so that a chosen share of
Stalkeriada games has a winner (S-04, S-05, S-06)."""

from __future__ import annotations

import math
import shutil
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import polars as pl

from sim.content import Content, load_content
from sim.content.edit import copy_content_with, set_value
from sim.content.load import ContentError
from sim.content.loadout import LoadoutError
from sim.content.stalkeriada import STALKERIADA_FILE, load_stalkeriada
from sim.economy.shop import CLEAR_GAIN_Z, KitChoice, paired_gain
from sim.economy.value import EconomyResult, Estimate, band, value_cards
from sim.run.results import json_safe

FIXED = ("no use here", "not valued", "worth nothing here")


@dataclass
class TuneResult:
    """Prices by round, the last round's values, and whether they converged."""

    context: object
    start: dict
    history: list  # prices at the start of each round, the final ones last
    values: EconomyResult
    converged: bool
    elapsed_s: float
    kits: dict = None  # the held kits, by tier label
    kit_check: dict = None  # ``kit_check`` at the tuned prices
    rates: dict = None  # the numeraire: each tier's rate at the content's prices (None: not measured)
    locked: tuple = ()  # the cards the designer held at their prices

    @property
    def prices(self) -> dict:
        return self.history[-1]

    def history_frame(self) -> pl.DataFrame:
        """Price per round and card (round 0: the content's prices)."""
        return pl.DataFrame([{"round": k, "item": i, "price": float(p)} for k, prices in enumerate(self.history)
                             for i, p in prices.items()])

    def table(self) -> pl.DataFrame:
        """One row per card: old and new price, its value in G and interval at the new prices, verdict,
        each tier's value and the tiers whose buyers the new price asks too much of."""
        return pl.DataFrame([{"item": r["item"], "old_price": self.start[r["item"]],
                              "new_price": self.prices[r["item"]], "value_g": r["value_g"],
                              "fair_low": r["value_g_ci95"][0], "fair_high": r["value_g_ci95"][1],
                              "verdict": r["verdict"], **{f"value_g {t['tier']}": t["value_g"] for t in r["tiers"]},
                              **tier_fit(r, self.prices[r["item"]], self.context.price_step)}
                             for r in self.values.items], infer_schema_length=None)

    def numeraire(self) -> str:
        """Each tier's rate (at the content's prices, or as economy.toml records it), in words:
        what every value is measured in."""
        from sim.economy.value import rate_text

        recorded = dict(getattr(self.context, "numeraire", ()))
        return "; ".join(rate_text(label, rate, self.context.unit, "not measured")
                         + (" (economy.toml's numeraire)" if label in recorded else " (at the content's prices)")
                         for label, rate in self.rates.items())

    def changes(self) -> list:
        """``card: old -> new G`` for the cards whose price moved."""
        return [f"{i}: {self.start[i]:,} -> {p:,} G" for i, p in self.prices.items() if p != self.start[i]]

    def state(self) -> str:
        """How tuning ended, in words."""
        return ("converged: every moving price lies in its value interval and no buyer clearly prefers another kit"
                if self.converged else "did not converge (a price still lies outside its value interval)")

    def weights_text(self) -> str:
        """How the tiers count in the one price: ``alike``, or ``1,000 G x2, 5,000 G x0.5``."""
        weights = self.context.weights()
        return "alike" if len(set(weights.values())) <= 1 else ", ".join(f"{t} x{w:g}" for t, w in weights.items())

    def to_markdown(self) -> str:
        """``diff.md``: the context, how tuning ended, each tier's kit check, then one row per card
        (old and new price, the change, the value interval at the new prices, each tier's value, notes)."""
        step = self.context.price_step
        moves = len(self.history) - 1
        lines = ["# Tuned prices", "", f"{self.values.caption()}.", "",
                 f"- {moves} price move{'' if moves == 1 else 's'}; {self.state()}",
                 f"- price step {step} G; one price over the tiers, weighted {self.weights_text()}",
                 f"- numeraire: {self.numeraire()}"]
        for label, check in self.kit_check.items():
            note = f"- {label}: holds {check['held']} ({check['cost']:,} G at the tuned prices)"
            if check.get("clearly_better"):
                note += (f"; the shopper would buy {check['would_buy']} ({check['would_cost']:,} G), "
                         f"{check['gain']:+.3f} (standard error {check['gain_se']:.3f})")
            lines.append(note)
        tiers = [t.label for t in self.values.tiers]
        lines += ["", "| card | old G | new G | change | value at the new prices, G | "
                  + " | ".join(tiers) + " | notes |", "|---|---:|---:|---:|---:|" + "---:|" * len(tiers) + "---|"]
        rows = {r["item"]: r for r in self.values.items}
        for item, old in self.start.items():
            row, new = rows[item], self.prices[item]
            low, high = row["value_g_ci95"]
            by_tier = {t["tier"]: t["value_g"] for t in row["tiers"]}
            notes = [held_reason(row, self.locked) or "", *fit_notes(tier_fit(row, new, step))]
            lines.append(f"| {item} | {old:,} | {new:,} | {new / old - 1:+.0%} | "
                         + ("n/a" if low is None else f"{low:,.0f}-{high:,.0f}") + " | "
                         + " | ".join("n/a" if by_tier.get(t) is None else f"{by_tier[t]:,.0f}" for t in tiers)
                         + f" | {'; '.join(n for n in notes if n)} |")
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict:
        """The JSON of ``zonesim tune --json`` (docs: JSON contracts)."""
        rows = {row["item"]: row for row in self.values.items}
        values = self.values.to_json()["context"]
        return {"converged": self.converged, "rounds": len(self.history) - 1,
                "context": self.context.describe(), "elapsed_s": self.elapsed_s,
                "tiers": values["tiers"], "rate": values["rate"],
                "kit_check": json_safe(self.kit_check), "locked": list(self.locked),
                "numeraire": {label: {"rate": r, "g_per_unit": None if not r else 1.0 / r}
                              for label, r in self.rates.items()},
                "tier_weights": self.context.weights(),
                "prices": [{"item": i, "old_price": self.start[i], "new_price": self.prices[i],
                            "value_g": rows[i]["value_g"], "fair_price_ci95": rows[i]["value_g_ci95"],
                            "verdict": rows[i]["verdict"], "held": held_reason(rows[i], self.locked),
                            "tiers": [{k: t[k] for k in ("tier", "value_g", "value_g_ci95")} for t in rows[i]["tiers"]],
                            **tier_fit(rows[i], self.prices[i], self.context.price_step)} for i in self.start]}


SPREAD = 2.0  # tier values further apart than this factor: the card, not its price, needs a change


def tier_fit(row, price, step) -> dict:
    """Which tiers' buyers ``price`` asks too much of (above the tier's value interval widened
    to whole steps), which tiers the card is of no use to (interval [0, 0]: no price is right
    or wrong there), and whether the tiers' values differ by more than ``SPREAD`` times
    (one tier's interval above ``SPREAD`` times another's, among the tiers it is worth something to)."""
    valued = [t for t in row["tiers"] if t["value_g"] is not None]
    idle = [t["tier"] for t in valued if tuple(t["value_g_ci95"]) == (0.0, 0.0)]
    over = [t["tier"] for t in valued if t["tier"] not in idle and price > band(*t["value_g_ci95"], step)[1]]
    worth = [t["value_g_ci95"] for t in valued if t["value_g"] > 0]
    spread = bool(worth) and max(low for low, _ in worth) > SPREAD * min(high for _, high in worth)
    return {"too_dear_for": over, "no_use_for": idle, "change_the_card": spread}


def fit_notes(fit: dict) -> list:
    """What ``tier_fit`` says of a price, in words."""
    return ([f"too dear for the {' and '.join(fit['too_dear_for'])} buyers"] if fit["too_dear_for"] else []) + (
        [f"of no use to the {' and '.join(fit['no_use_for'])} buyers"] if fit["no_use_for"] else []) + (
        [f"the tiers' values differ over {SPREAD:g}x: change the card, not its price"]
        if fit["change_the_card"] else [])


def held_reason(row, locked=()) -> str | None:
    """Why tuning leaves a card at its price (None: it moves)."""
    if row.get("item") in locked:
        return "locked by the designer"
    if row["verdict"] in FIXED:
        return f"{row['verdict']}: cannot be priced by this objective"
    low = row["effect_ci95"][0]
    if low is None or low <= 0:
        return "its effect interval includes 0: nothing measured says what it does"
    return None


def next_price(price, value, step, damping):
    """``damping`` of the way from ``price`` to ``value``, rounded to ``step``, and at least one
    step toward it (a price outside its value interval always moves); never below one step."""
    moved = step * round((price + damping * (value - price)) / step)
    if moved == price and abs(value - price) >= step / 2:
        moved = price + math.copysign(step, value - price)
    return int(max(step, moved))


def moving(result: EconomyResult, locked=()) -> list:
    """The rows of the cards whose price tuning moves (``held_reason`` None)."""
    return [row for row in result.items if held_reason(row, locked) is None]


def kit_check(ctx, kits: dict, shopped=None) -> dict:
    """Per tier at the prices of ``ctx``: the first held kit's cost, whether its budget still
    buys it, the kit the shopper buys now (shopping even where economy.toml pins a kit), and its
    paired gain on the selection trials over the held kits (the smallest, the least it gains):
    ``clearly_better`` when it beats every one of them beyond ``CLEAR_GAIN_Z`` standard errors.
    ``shopped``: ``shop_against`` at these prices, if already known."""
    shopped = shop_against(ctx, kits) if shopped is None else shopped
    out = {}
    for spec in ctx.tiers():
        held = kits[spec.label]
        row = {"held": held.kit.describe(), "challengers": [k.describe() for k in held.other_kits],
               "cost": ctx.kit_cost(held.kit), "budget": spec.budget,
               "affordable": spec.budget is None or ctx.kit_cost(held.kit) <= spec.budget}
        if spec.label in shopped:
            new, gains, _ = shopped[spec.label]
            kit, gain, se = min(gains, key=lambda g: g[1])
            row.update(would_buy=new.kit.describe(), would_cost=ctx.kit_cost(new.kit), gain=gain, gain_se=se,
                       against=kit.describe(), clearly_better=_clearly_better(new, gains))
        out[spec.label] = row
    return out


def check_locked(ctx, locked) -> tuple:
    """``locked`` as a tuple of card ids the context prices, or a one-line error naming the unknown one."""
    cards = set(ctx.cards())
    for card in locked:
        if card not in cards:
            raise LoadoutError(f"--lock: unknown card '{card}'; use ids the context prices: {', '.join(sorted(cards))}")
    return tuple(dict.fromkeys(locked))


MAX_KITS = 6  # kits held per tier: the one bought at the content's prices and the challengers the checks add


def tune_prices(ctx, *, rounds=12, damping=1.0, items=None, coarse=None, locked=(), on_progress=None) -> TuneResult:
    """Tune every valued card's price in the context ``ctx`` (module doc)."""
    if not 0 < damping <= 1:
        raise LoadoutError(f"--damping: {damping}; give a fraction in (0, 1]")
    if rounds < 1:
        raise LoadoutError(f"--rounds: {rounds}; give at least 1")
    locked = check_locked(ctx, locked)
    started = time.perf_counter()
    stages = [c for c in (coarse, ctx) if c is not None]
    scratch = Path(tempfile.mkdtemp(prefix="zonesim-tune-"))
    total, valuations = rounds + len(stages) + 1, 0
    try:
        start = {c: ctx.price(c) for c in ctx.cards(items)}
        twins = ctx.twins()
        history, stage, kits, rates = [dict(start)], 0, None, None
        while True:
            label = f"round {len(history) - 1}" + (" (quick trials)" if stages[stage] is not ctx else "")
            progress = None if on_progress is None else (
                lambda d, n, what, k=valuations, label=label: on_progress(min(k, total - 1) * n + d, total * n,
                                                                         f"{label}: {what}"))
            priced = stages[stage].at_prices(history[-1], scratch)
            if kits is None:
                kits, rates = recorded_state(priced)
            if kits is None:  # the kits bought at the content's prices, and the tiers' rates: the numeraire
                bought = value_cards(priced, items=items, on_progress=progress)
                valuations += 1
                kits = {t.label: held_choice(t.choice) for t in bought.tiers}
                rates = numeraire(bought, dict(getattr(ctx, "numeraire", ())))
            result = value_cards(priced, items=items, kits=kits, rates=rates, on_progress=progress)
            valuations += 1
            prices = proposal(result, history[-1], locked, ctx.price_step, 2.0 * damping / (len(history) + 1),
                              twins)
            shopped = shop_against(stages[stage].at_prices(prices, scratch), kits)
            grown = challengers(kits, shopped)
            kits = {label: _with_kit(kits[label], grown[label]) if label in grown else choice
                    for label, choice in kits.items()}
            settled = prices == history[-1] and not grown
            if settled and stage + 1 < len(stages):
                stage += 1  # settled on the quick trials: checked (and moved on) at the full ones
                continue
            if settled or len(history) > rounds:
                break
            history.append(prices)
            if len(history) > rounds:
                stage = len(stages) - 1  # the last valuation, at the last prices, at the full trials
        # settled: the last round shopped at these prices, on the full trials, with these kits
        check = kit_check(ctx.at_prices(history[-1], scratch), kits, shopped if settled else None)
        return TuneResult(ctx, start, history, result, settled, time.perf_counter() - started, kits, check,
                          {label: None if rate is None else rate.point for label, (rate, _) in rates.items()},
                          locked)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def numeraire(result: EconomyResult, recorded: dict) -> dict:
    """``{tier label: (rate Estimate, reason)}``: the rate economy.toml records for a tier
    (``[prices] numeraire``, G per unit: a tuned copy's), else the one measured in ``result``."""
    out = {}
    for t in result.tiers:
        if t.label in recorded:
            out[t.label] = fixed_rate(recorded[t.label], result.context.bootstrap)
        else:
            out[t.label] = (t.rate_estimate, t.reason)
    return out


def recorded_state(ctx) -> tuple:
    """``(kits, rates)`` a tuned copy records (``[prices] numeraire`` and ``reference_kits`` of its
    economy.toml) where it records both for every tier, each kit played by the strongest
    strategy of the family for it; else ``(None, None)``."""
    from sim.economy.shop import pinned_kit

    recorded, held = dict(getattr(ctx, "numeraire", ())), dict(getattr(ctx, "reference_kits", ()))
    specs = ctx.tiers()
    if not specs or any(spec.label not in recorded or spec.label not in held for spec in specs):
        return None, None
    kits = {spec.label: replace(pinned_kit(spec.outcomes, held[spec.label][0], ctx.selection),
                                other_kits=held[spec.label][1:]) for spec in specs}
    return kits, {label: fixed_rate(g, ctx.bootstrap) for label, g in recorded.items()}


def fixed_rate(g_per_unit: float, bootstrap: int) -> tuple:
    """``(rate Estimate, None)`` of a recorded rate: the same in every bootstrap resample."""
    rate = 1.0 / g_per_unit
    return Estimate(rate, np.full(bootstrap, rate)), None


def held_choice(choice: KitChoice) -> KitChoice:
    """A tier's kit choice, held from now on (its other choices dropped)."""
    return KitChoice(choice.strategy, choice.kit, (), choice.outcomes, choice.selection_trials, pinned=True)


def _with_kit(choice: KitChoice, kit) -> KitChoice:
    return KitChoice(choice.strategy, choice.kit, (*choice.other_kits, kit), choice.outcomes,
                     choice.selection_trials, pinned=True)


def shop_against(ctx, kits: dict) -> dict:
    """Per budget tier at the prices of ``ctx``: the kit the shopper buys, and its paired gain
    (mean, standard error, on the selection trials) over each held kit, each played by the
    strongest strategy of the family for it (``{label: (KitChoice, [(held kit, gain, se)], spec)}``)."""
    from sim.content.loadout import Loadout
    from sim.economy.shop import choose_kit, strongest

    out = {}
    for spec in ctx.tiers():
        held = kits[spec.label]
        if spec.budget is None:
            continue
        new = choose_kit(ctx.content, spec.outcomes, Loadout(character=held.kit.character), spec.budget,
                         trials=ctx.selection, max_count=ctx.max_count, max_cards=ctx.card_limit())
        gains = [(k, *paired_gain(spec.outcomes[new.strategy].selection(new.kit, ctx.selection),
                                  spec.outcomes[strongest(spec.outcomes, k, ctx.selection)[0]].selection(
                                      k, ctx.selection))) for k in held.kits]
        out[spec.label] = (new, gains, spec)
    return out


def _clearly_better(new, gains) -> bool:
    """The new kit beats every held kit (the kits the values were measured on, whether or not the
    budget still buys them) beyond ``CLEAR_GAIN_Z`` standard errors."""
    return all(new.kit != k and gain > 0 and gain > CLEAR_GAIN_Z * se for k, gain, se in gains)


def challengers(kits: dict, shopped: dict) -> dict:
    """``{label: kit}``: the kit the shopper bought (``shopped``, from ``shop_against``) where it is
    clearly better than every held kit and the tier holds fewer than ``MAX_KITS``."""
    return {label: new.kit for label, (new, gains, _) in shopped.items()
            if _clearly_better(new, gains) and new.kit not in kits[label].kits and len(kits[label].kits) < MAX_KITS}


def proposal(result, prices, locked, step, damping, twins=()) -> dict:
    """The next prices: a moving card whose price lies outside its value interval (ends rounded
    to the step) goes ``damping`` of the way to its value, at least one step (``next_price``);
    a fair one stays. Twins (``twins``: groups of cards that do the same) share one price: while
    their prices differ or one of them moves, each goes to the fair price among theirs nearest the
    group's mean value, or where none is fair, toward that value from their mean price."""
    rows = {row["item"]: row for row in moving(result, locked)}
    fair = {item for item, row in rows.items() if _within(row["price"], band(*row["value_g_ci95"], step))}
    out = dict(prices)
    for item, row in rows.items():
        if item not in fair:
            out[item] = next_price(row["price"], row["value_g"], step, damping)
    for group in twins:
        members = [rows[c] for c in group if c in rows]
        if len(members) > 1 and (len({prices[r["item"]] for r in members}) > 1
                                 or any(out[r["item"]] != prices[r["item"]] for r in members)):
            value = sum(r["value_g"] for r in members) / len(members)
            at = [r["price"] for r in members if r["item"] in fair]
            shared = (min(at, key=lambda p: abs(p - value)) if at else
                      next_price(step * round(sum(r["price"] for r in members) / len(members) / step), value, step,
                                 damping))
            for r in members:
                out[r["item"]] = shared
    return out


def _within(price, bounds) -> bool:
    return bounds[0] <= price <= bounds[1]


# --- Stalkeriada pace -----------------------------------------------------------------

PACE_MOVES = ("visa", "loot")
PACE_STEPS = 10
PACE_RANGE = (1 / 8, 8.0)


@dataclass
class PaceTune:
    """The factor found, the prices it gives, and the finish share at each bisection step."""

    move: str
    target: float
    factor: float
    prices: dict  # shop.exit_visa and borscht.prices at the factor
    start: dict
    finished: float  # share of games with a winner at the factor
    steps: list  # [{"factor", "finished"}] in bisection order
    games: int
    seed: int
    players: tuple = ()  # the planners' names in seat order

    def to_json(self) -> dict:
        """The JSON of ``zonesim tune --objective target-finish=P --json``."""
        return {"players": list(self.players), "objective": f"target-finish={self.target}", "move": self.move, "factor": self.factor,
                "finished": self.finished, "old_prices": self.start, "new_prices": self.prices,
                "steps": self.steps, "games": self.games, "seed": self.seed}


def parse_pace_objective(text: str) -> float:
    """``target-finish=P`` with 0 < P < 1 -> P."""
    key, _, value = text.partition("=")
    try:
        share = float(value)
    except ValueError:
        share = math.nan
    if key != "target-finish" or not 0 < share < 1:
        raise LoadoutError(f"--objective: '{text}'; use target-finish=P with 0 < P < 1 (the share of games with "
                           "a winner), e.g. target-finish=0.5")
    return share


def paced_prices(start: dict, move: str, factor: float) -> dict:
    """``start`` (``exit_visa``, ``loot``) with the visa times ``factor`` or each loot price over it."""
    if move == "visa":
        return {"exit_visa": max(1, round(start["exit_visa"] * factor)), "loot": list(start["loot"])}
    return {"exit_visa": start["exit_visa"], "loot": [max(1, round(p / factor)) for p in start["loot"]]}


def write_paced(source: Path, target: Path, prices: dict) -> Path:
    """A copy of the content folder at ``target`` (whole or not at all) with
    ``stalkeriada.toml``'s visa and loot prices replaced, comments and layout kept."""
    text = (source / STALKERIADA_FILE).read_text(encoding="utf-8")
    try:
        text = set_value(set_value(text, "shop.exit_visa", prices["exit_visa"]), "borscht.prices", prices["loot"])
    except ContentError as exc:
        raise LoadoutError(f"{source / STALKERIADA_FILE}: {exc}") from None
    return copy_content_with(source, target, STALKERIADA_FILE, text)


def tune_pace(content: Content, players, *, target: float, move="visa", games=2000, seed=1,
              on_step=None) -> PaceTune:
    """The factor on the visa or loot prices at which a share ``target`` of games
    between ``players`` (seats rotated) has a winner: a larger factor makes
    finishing harder, so the share falls as it rises; every step plays the
    same dice (the same seed and game numbers)."""
    from sim.run.stalkeriada import simulate_stalkeriada

    if move not in PACE_MOVES:
        raise LoadoutError(f"--move: '{move}'; use one of {', '.join(PACE_MOVES)}")
    sc = load_stalkeriada(content)
    start = {"exit_visa": int(sc.settings["shop"]["exit_visa"]), "loot": [int(p) for p in sc.prices]}
    work, steps = Path(tempfile.mkdtemp(prefix="zonesim-pace-")), []
    lo, hi = PACE_RANGE
    try:
        for k in range(PACE_STEPS):
            factor = math.sqrt(lo * hi)
            prices = paced_prices(start, move, factor)
            at = load_content(write_paced(Path(content.directory), work / f"step{k}", prices))
            result = simulate_stalkeriada(at, players, games=games, seed=seed, rotate_seats=True)
            finished = 1 - float(result.win_rates()["win_rate"][-1])
            steps.append({"factor": factor, "finished": finished, **prices})
            if on_step:
                on_step(k + 1, PACE_STEPS)
            lo, hi = (factor, hi) if finished > target else (lo, factor)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    best = min(steps, key=lambda s: (abs(s["finished"] - target), s["factor"]))
    return PaceTune(move, target, best["factor"], paced_prices(start, move, best["factor"]), start, best["finished"],
                    [{"factor": s["factor"], "finished": s["finished"]} for s in steps], games, seed)
