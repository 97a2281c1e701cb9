"""Restricted play (Jaffe et al., AIIDE 2012): what the game loses when the
player may not use a card.

At each budget tier the shopper buys his kit from every card (the tier's kit,
as ``zonesim value`` buys it) and again with the banned cards struck from the
shop (``choose_kit(banned=...)``, the same selection sets and resamples). Each
kit is played by the strongest strategy of the family for it, on the same
valuation trials (common dice), so the loss is the paired difference of the
outcome per batch, with the 95% bootstrap interval of the values (the same
resample), and in G at the tier's rate (``value``'s numeraire: the kit's
cards are worth their cost). Beside it stands the cards' marginal value from
the same run: the loss re-shops around the ban, the marginal value does not,
so a held card's loss is at most its marginal effect, up to the noise. A
loss clearly below 0 is a finding about the shopper: the kit he buys without
the card does better, so his kit (the most gain per G, card by card) is not
the best the budget buys.

At a Stalkeriada table a planner's shop items are valued this way already
(the planner with the item struck from his shopping list against the same
planner allowed it, on the same games and seats): the loss is the card's row
of the valuation.

In one fight the strong player is the optimal one (``sim.analysis.optimal``),
solved exactly: with the given loadout, and without the banned cards or
without the escape try (the action ``escape``, Z-33); the loss is in survival,
exact (``fight_restricted``)."""

from __future__ import annotations

from dataclasses import dataclass

from sim.economy.shop import strongest
from sim.economy.value import Estimate, bootstrap_resample, expand_factor, interval, value_cards
from sim.run.results import json_safe


@dataclass
class TierLoss:
    """One tier's restricted play: the kits with and without the ban, the loss in
    the outcome's unit and in G (None, with ``reason``, where not measured)."""

    label: str
    budget: int | None
    unit: str
    kit: str
    strategy: str
    banned_kit: str | None
    banned_strategy: str | None
    loss: float | None
    loss_ci95: list
    loss_g: float | None
    loss_g_ci95: list
    value_g: dict  # each banned card's marginal value in G at this tier (``zonesim value``'s)
    reason: str | None = None

    def describe(self) -> dict:
        return dict(self.__dict__)


@dataclass
class RestrictedResult:
    """Restricted play for ``banned`` in the context ``context`` (a valuation context, or
    ``FightScenario``), tier by tier."""

    context: object
    banned: tuple
    tiers: list
    values: object = None  # the EconomyResult the kits, rates and marginal values come from (None: a fight)

    def caption(self) -> str:
        return f"without {', '.join(self.banned)}: {self.context.caption()}"

    def to_json(self) -> dict:
        return json_safe({"banned": list(self.banned), "context": self.context.describe(),
                          "tiers": [t.describe() for t in self.tiers]})


ACTIONS = ("escape",)  # what the player may be banned from doing beside buying a card (fights: Z-33)


@dataclass(frozen=True)
class FightScenario:
    """One fight: a monster and the given loadout, played by the optimal player."""

    monsters: tuple
    kit: object
    reputation: int

    def caption(self) -> str:
        return (f"one fight against {', '.join(self.monsters)} with {self.kit.describe()}, reputation "
                f"{self.reputation}, the optimal player (solved exactly)")

    def describe(self) -> dict:
        return {"mode": "fight", "monsters": list(self.monsters), "kit": self.kit.describe(),
                "reputation": self.reputation, "player": "optimal", "exact": True}


def fight_restricted(content, kit, monsters, banned) -> RestrictedResult:
    """The optimal player's exact survival with ``kit`` against one monster, less his survival
    without the cards of ``banned`` and, if ``banned`` holds ``escape``, without the escape try."""
    from sim.run.fight import optimal_fight

    cards = [b for b in banned if b not in ACTIONS]
    without = kit.without(cards)
    best = optimal_fight(content, kit, monsters)[1]
    restricted = optimal_fight(content, without, monsters, may_escape="escape" not in banned)[1]
    loss = best.p_survive - restricted.p_survive
    player = "optimal" + (", no escape" if "escape" in banned else "")
    tier = TierLoss("the given loadout", None, "survival", kit.describe(), "optimal", without.describe(), player,
                    loss, [loss, loss], None, [None, None], {},
                    "exact: the optimal player solved with and without; survival is not priced in a fight")
    reputation = content.rules["stalker"]["start_reputation"] if kit.reputation is None else kit.reputation
    return RestrictedResult(FightScenario(tuple(monsters), kit, reputation), tuple(banned), [tier])


def restricted_play(ctx, banned, on_progress=None) -> RestrictedResult:
    """What each tier's buyer in ``ctx`` loses when he may not buy the cards ``banned`` (module doc)."""
    banned = tuple(dict.fromkeys(banned))
    values = value_cards(ctx, items=list(banned), on_progress=on_progress)
    marginal = {t.label: {r["item"]: r["value_g"] for r in t.rows} for t in values.tiers}
    if ctx.mode == "stalkeriada":
        return RestrictedResult(ctx, banned, [_table_loss(t, banned) for t in values.tiers], values)
    resample, expand = bootstrap_resample(ctx), expand_factor(ctx.batches)
    out = []
    for spec, tier in zip(ctx.tiers(), values.tiers):
        common = dict(label=tier.label, budget=tier.budget, unit=ctx.unit, kit=tier.choice.kit.describe(),
                      strategy=tier.choice.strategy, value_g=marginal[tier.label])
        if spec.budget is None:
            out.append(TierLoss(**common, **_unmeasured("a given kit: no shopper to restrict")))
            continue
        without = spec.choose(banned=frozenset(banned)).kit
        same = without.cards() == tier.choice.kit.cards()
        if same:  # the same cards, whatever the order he bought them in: the same kit, played alike
            without = tier.choice.kit
        strategy = tier.choice.strategy if same else strongest(spec.outcomes, without, ctx.selection)[0]
        held = spec.outcomes[tier.choice.strategy].valuation(tier.choice.kit, ctx.trials, ctx.batches)
        other = spec.outcomes[strategy].valuation(without, ctx.trials, ctx.batches)
        common.update(banned_kit=without.describe(), banned_strategy=strategy)
        failed = next((r for r in (held, other) if isinstance(r, Exception)), None)
        if failed is not None:
            out.append(TierLoss(**common, **_unmeasured(f"cannot be fielded here: {failed}", kits=False)))
            continue
        diff = held.rates() - other.rates()
        loss = Estimate(float(diff.mean()), diff[resample].mean(axis=1))
        low, high = interval(loss.point, loss.replicas, expand)
        in_g = None if tier.rate_estimate is None else loss / tier.rate_estimate
        out.append(TierLoss(**common, loss=loss.point, loss_ci95=[low, high],
                            loss_g=None if in_g is None else in_g.point,
                            loss_g_ci95=[None, None] if in_g is None else interval(in_g.point, in_g.replicas, expand),
                            reason=_note(same, high, None if in_g is not None else tier.reason)))
    return RestrictedResult(ctx, banned, out, values)


def _note(same, high, no_rate) -> str | None:
    """What a measured loss says beyond its numbers (None: nothing)."""
    if same:
        return "he buys none of it at these prices: the ban changes nothing"
    if high < 0:
        return ("the kit bought without it does clearly better: the shopper's kit (the most gain per G, card by "
                "card) is not the best this budget buys")
    return no_rate


def _unmeasured(reason, kits=True) -> dict:
    blank = dict(loss=None, loss_ci95=[None, None], loss_g=None, loss_g_ci95=[None, None], reason=reason)
    return {**blank, **(dict(banned_kit=None, banned_strategy=None) if kits else {})}


def _table_loss(tier, banned) -> TierLoss:
    """A Stalkeriada planner's loss: his valuation's row of the one banned shop item (``ban_problem``
    lets one through at a table)."""
    row = next(r for r in tier.rows if r["item"] == banned[0])
    common = dict(label=tier.label, budget=None, unit=tier.unit, kit=tier.choice.kit.describe(),
                  strategy=tier.choice.strategy, banned_kit=None, banned_strategy=tier.choice.strategy,
                  value_g={r["item"]: r["value_g"] for r in tier.rows})
    return TierLoss(**common, loss=row["effect"], loss_ci95=list(row["effect_ci95"]), loss_g=row["value_g"],
                    loss_g_ci95=list(row["value_g_ci95"]), reason=row.get("reason"))


def fight_ban_problem(kit, banned) -> str | None:
    """Why ``banned`` cannot be restricted in one fight with ``kit`` (one line), or None."""
    if not banned:
        return "--ban: give a card of the loadout or an action to ban, e.g. --ban escape"
    held = kit.cards()
    stray = [b for b in banned if b not in ACTIONS and b not in held]
    if stray:
        return (f"--ban: {', '.join(stray)} is not in the loadout ({kit.describe()}); ban one of its cards or an "
                f"action: {', '.join(ACTIONS)}")
    return None


def ban_problem(ctx, banned) -> str | None:
    """Why ``banned`` cannot be restricted in ``ctx`` (one line), or None."""
    known = ctx.cards()
    unknown = [c for c in banned if c not in known]
    if not banned:
        return "--ban: give a card to ban, e.g. --ban ak47"
    if unknown:
        return (f"--ban: unknown card {', '.join(unknown)} in this context; its cards are "
                f"{', '.join(known)}")
    if ctx.mode == "stalkeriada" and len(banned) > 1:
        return "--ban: at a Stalkeriada table ban one shop item at a time"
    return None

