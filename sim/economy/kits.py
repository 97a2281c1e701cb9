"""What each card's effect is measured against: its comparison with a tier's
reference kit.

A card that takes a slot (``sim.content.loadout.takes_a_slot``) is measured
in its slot against the kit with no card of its kind (the stand-alone effect)
and, when the kit holds another card of that kind, against the kit as it is
(the upgrade effect). A modifier for another firearm than the kit's comes with
its firearm, which is in both kits (Z-21).

A counted card (a consumable, Z-11, Z-18, Z-31) is one copy at the margin the
kit faces (``margin``): where the kit holds n copies of it (or of a card
identical to it), the n-th copy against n-1; where it holds a substitute (the
same family and kind of use, another strength: a medkit for an army medkit, a
limonka for a tyoshcha), the card in place of one copy of the strongest held
substitute no stronger than it (else of the weakest); else the first copy on
top of the kit. So a stronger card is measured where the weaker one it replaces
is, and a card that does strictly more is worth no less.

At a Stalkeriada table a kit is the shop items a planner buys (S-04, S-08,
S-11, S-15) and a card is one of them."""

from __future__ import annotations

from dataclasses import dataclass, replace

from sim.content import Content
from sim.content.loadout import Loadout, card_line, clones, kind, takes_a_slot


@dataclass(frozen=True)
class Comparison:
    """One card against a reference kit: ``with_kit`` holds ``count`` of it,
    ``without_kit`` none of its ``kind``; ``held_kit`` is the reference kit when it
    holds another card of the kind (the upgrade's baseline), else None;
    ``in_kit`` when the reference kit holds the card or a copy; ``held``: the copies
    of this very card the kit holds (what the tier's rate counts); ``in_slot`` when
    the card takes a slot; ``reason`` (and no kits) when the card cannot be measured
    against this kit."""

    card: str
    family: str
    price: int
    kind: frozenset
    basis: str
    with_kit: object = None
    without_kit: object = None
    held_kit: object = None
    in_kit: bool = False
    in_slot: bool = False
    count: int = 1
    reason: str | None = None
    held: int = 0


def loadout_comparison(content: Content, kit: Loadout, item_id: str) -> Comparison:
    """``item_id`` against the reference kit ``kit`` (module doc)."""
    item = content.items[item_id]
    own_kind, copies = kind(content, item_id), clones(content, item_id)
    held = set(kit.cards()) & own_kind
    base = Comparison(item_id, item.family, item["price"], own_kind, "", in_kit=bool(held & copies),
                      in_slot=takes_a_slot(content, item.family), held=kit.cards().get(item_id, 0))
    if not base.in_slot and item.family != "modifiers":
        return margin(content, kit, item_id, base)
    if item.family == "modifiers" and kit.weapon != item["firearm"]:
        without = kit.with_card(content, item["firearm"])
        basis = f"on a {item['firearm']} in place of {kit.weapon or 'no firearm'}"
    else:
        without = kit.without(own_kind)
        basis = ("in its slot, against no card of its kind" if base.in_slot else
                 f"on the kit's {kit.weapon}" if item.family == "modifiers" else "one card, against none of its copies")
    with_kit = None if without is None else without.with_card(content, item_id)
    if with_kit is None:
        return replace(base, basis=basis, reason=f"the kit has no room for it ({kit.describe()}: a deck or the "
                                                 "explosives cap, Z-11, Z-18)")
    upgrade = base.in_slot and held and not base.in_kit
    return replace(base, basis=basis, with_kit=with_kit, without_kit=without, held_kit=kit if upgrade else None)


MORE_IS_BETTER = ("dice", "bonus", "defence", "heal", "steps")  # Z-15, Z-21, Z-23, Z-31, Z-29: the more, the stronger


def strength(content: Content, item_id: str) -> float:
    """How strong a card is among its substitutes: the sum of its more-is-better numbers."""
    return sum(v for k, v in content.items[item_id].fields.items() if k in MORE_IS_BETTER and not isinstance(v, bool))


def margin(content: Content, kit: Loadout, item_id: str, base: Comparison) -> Comparison:
    """A counted card's comparison: one copy at the margin the kit faces (module doc). A card
    the kit does not hold takes the place of the strongest held substitute no stronger than
    it (else of the weakest), so a stronger card is measured where a weaker one is: the PPV
    in place of the kit's tyoshcha, the army medkit in place of a medkit."""
    counts = kit.cards()
    held = [c for c in substitutes(content, item_id) | clones(content, item_id) if counts.get(c)]
    own = strength(content, item_id)
    if item_id in held:
        marginal = item_id
    elif held:
        below = [c for c in held if strength(content, c) <= own]
        marginal = (max(below, key=lambda c: (strength(content, c), c)) if below else
                    min(held, key=lambda c: (strength(content, c), c)))
    else:
        marginal = None
    if marginal is None:
        without, basis = kit, "one card on top of the kit"
    else:
        without = kit.without([marginal])
        for _ in range(counts[marginal] - 1):
            without = without.with_card(content, marginal)
        n = counts[marginal]
        basis = (f"copy {n} of {n}, against {n - 1}" if marginal == item_id else
                 f"in place of one {marginal} ({n} held)")
    with_kit = without.with_card(content, item_id)
    if with_kit is None:
        return replace(base, basis=basis, reason=f"the kit has no room for it ({kit.describe()}: a deck or the "
                                                 "explosives cap, Z-11, Z-18)")
    return replace(base, basis=basis, with_kit=with_kit, without_kit=without)


def substitutes(content: Content, item_id: str) -> frozenset:
    """The cards that do ``item_id``'s job at another strength: its family's cards whose fields
    other than numbers (and name and price) are its own (a medkit and an army medkit)."""
    def kind_of(entry):
        return {k: v for k, v in entry.fields.items() if k not in ("name", "price")
                and (isinstance(v, bool) or not isinstance(v, (int, float)))}

    item = content.items[item_id]
    return frozenset(e.id for e in content.family(item.family) if kind_of(e) == kind_of(item))


def loadout_comparisons(content: Content, kit: Loadout, cards) -> list:
    return [loadout_comparison(content, kit, i) for i in cards]


def valued_cards(content: Content, items=None) -> list:
    """The ids of the cards a valuation prices: every card of every item family (``items``: only these)."""
    return [e.id for e in content.items.values() if items is None or e.id in items]


SHOP_ITEMS = (("ozk", "ozk"), ("pliers", "pliers"), ("nut", "nuts"))
"""Stalkeriada shop items (S-04) and the planner parameter that buys each."""


@dataclass(frozen=True)
class ShopKit:
    """The shop items a Stalkeriada planner buys: ``((item, count), ...)``, and
    ``bonus``: G the planner holding the kit starts with above the starting money (S-10)."""

    items: tuple
    bonus: int = 0

    @classmethod
    def of(cls, strategy) -> "ShopKit":
        from strategies.stalkeriada import PLANNER_PARAMS

        return cls(tuple((item, int(strategy.params[PLANNER_PARAMS.index(param)])) for item, param in SHOP_ITEMS))

    def count(self, item) -> int:
        return dict(self.items)[item]

    def cards(self) -> dict:
        """The items bought, as ``{item: count}``."""
        return {i: n for i, n in self.items if n}

    def with_count(self, item, n) -> "ShopKit":
        return replace(self, items=tuple((i, n if i == item else c) for i, c in self.items))

    def with_bonus(self, g) -> "ShopKit":
        """The same items, starting with ``g`` G above the starting money (S-10)."""
        return replace(self, bonus=g)

    def strategy(self, planner):
        """``planner`` buying this kit instead of its own."""
        from strategies.stalkeriada import PLANNER_PARAMS

        params = list(planner.params)
        for item, param in SHOP_ITEMS:
            params[PLANNER_PARAMS.index(param)] = float(self.count(item))
        return replace(planner, name=f"{planner.name} ({self.describe()})", params=tuple(params))

    def cost(self, shop) -> int:
        return sum(shop[i] * n for i, n in self.items)

    def describe(self) -> str:
        """The items bought in one line (``ozk, nut x2``), or "nothing"; then the starting
        bonus, if any (``ozk + 5000 G at the start``)."""
        extra = f" + {self.bonus} G at the start" if self.bonus > 0 else ""
        return card_line(self.cards().items()) + extra


def shop_comparisons(shop: dict, kit: ShopKit, cards) -> list:
    """Each shop item against the planner's kit, one copy at the margin the kit faces (as
    ``margin``): the n-th of the n the planner buys against n - 1, or, one he does not buy,
    the first against none. Banning it from his shopping list on the same games is restricted
    play (the item's effect on his win rate)."""
    out = []
    for item in cards:
        held = kit.count(item)
        n = max(held, 1)
        out.append(Comparison(item, "stalkeriada shop", shop[item], frozenset([item]),
                              f"copy {n} of {n}, against {n - 1}" if held else "one on top of the kit",
                              kit.with_count(item, n),
                              kit.with_count(item, n - 1), in_kit=held > 0, count=1, held=held))
    return out
