"""The buyer: what a stalker with a budget puts in his starting kit.

A kit is grown one card at a time (a firearm or a modifier for it, Z-20, Z-21;
head or body armour, Z-24; one more medkit, stimulator or explosive within its
deck and the explosives cap, Z-11, Z-18, Z-31; an escape, Zone-movement,
location-movement or avoidance item, one active each, Z-25, Z-29, Z-30, Z-32;
a one-shot card, Z-27, Z-28), a slot's card being swapped for another. At each step the buyer compares every
affordable change on the selection trials and takes the one with the most gain
per G among those whose gain is clear of the noise (more than two standard
errors of the paired batch differences); a change that costs nothing extra and
gains is taken first. He stops when no change gains.

A ``held`` card is given for free: it never leaves the kit and its price is
not paid; ``banned`` cards cannot be bought (the stalker who cannot have an item)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from sim.content import Content
from sim.content.loadout import Loadout, LoadoutError

CLEAR_GAIN_Z = 2.0


@dataclass(frozen=True)
class Buyer:
    """Who buys: the content, the outcome (``selection(loadout)`` gives its
    batches), the card he holds for free, the cards he cannot buy, and his cap
    on copies of one consumable."""

    content: Content
    selection: object
    held: str | None = None
    banned: frozenset = frozenset()
    max_count: int = 2

    def kit_cost(self, loadout: Loadout) -> int:
        """What the kit cost him: its price less the held card's (Z-42)."""
        free = self.content.items[self.held]["price"] if self.held else 0
        return loadout.cost(self.content) - free

    def changes(self, loadout: Loadout):
        """Every legal one-card purchase or swap of ``loadout`` that keeps the held card."""
        content, out = self.content, []

        def offer(item_id, **fields):
            if item_id in self.banned:
                return
            try:
                changed = replace(loadout, **fields).validate(content)
            except LoadoutError:  # a deck or the explosives cap is exhausted
                return
            if self.held is None or self.held in changed.cards():
                out.append(changed)

        for item in content.family("firearms"):
            if item.id != loadout.weapon:
                offer(item.id, weapon=item.id, mods=())
        for item in content.family("modifiers"):
            if item["firearm"] == loadout.weapon and item.id not in loadout.mods:
                offer(item.id, mods=loadout.mods + (item.id,))
        for item in content.family("armour"):
            if getattr(loadout, item["slot"]) != item.id:
                offer(item.id, **{item["slot"]: item.id})
        for family, field_name in (("healing", "healing"), ("explosives", "explosives")):
            for item in content.family(family):
                counts = dict(getattr(loadout, field_name))
                if counts.get(item.id, 0) - (item.id == self.held) < self.max_count:
                    counts[item.id] = counts.get(item.id, 0) + 1
                    offer(item.id, **{field_name: tuple(counts.items())})
        for item in content.family("escape"):
            if loadout.escape_item != item.id:
                offer(item.id, escape_item=item.id)
        for family in ("movement", "location", "avoidance"):  # one active of each (Z-25, Z-29, Z-30)
            for item in content.family(family):
                if (item.id,) != getattr(loadout, family):
                    offer(item.id, **{family: (item.id,)})
        for item in content.family("one_shot"):
            if item.id not in loadout.one_shot:
                offer(item.id, one_shot=loadout.one_shot + (item.id,))
        return out

    def grow(self, loadout: Loadout, budget: int, trace=None) -> Loadout:
        """Buy, one clear gain at a time, until nothing affordable gains (see module doc).
        ``trace`` (a list) receives every kit on the way, the start included."""
        current = self.selection(loadout)
        if trace is not None:
            trace.append(loadout)
        while True:
            best, best_key = None, None
            base_cost = self.kit_cost(loadout)
            for changed in self.changes(loadout):
                cost = self.kit_cost(changed)
                if cost > budget:
                    continue
                gain, se = paired_gain(self.selection(changed), current)
                if gain <= CLEAR_GAIN_Z * se or gain <= 0:
                    continue
                extra = cost - base_cost
                key = (1, gain, -extra) if extra <= 0 else (0, gain / extra, -extra)
                if best_key is None or key > best_key:
                    best, best_key = changed, key
            if best is None:
                return loadout
            loadout, current = best, self.selection(best)
            if trace is not None:
                trace.append(loadout)


def paired_gain(new, old):
    """Mean gain of ``new`` over ``old`` and its standard error from the paired batches."""
    diff = new.rates() - old.rates()
    se = float(diff.std(ddof=1)) / math.sqrt(diff.size) if diff.size > 1 else 0.0
    return float(diff.mean()), se


def gifts(content: Content, loadout: Loadout, item_id: str) -> list:
    """The ways a stalker can take ``item_id`` as a gift into ``loadout``: in its
    slot (``give``) and, for a card of which one is active at a time, also
    carried beside the one he has (Z-25, Z-29, Z-30: the best is used)."""
    out = [g for g in (give(content, loadout, item_id),) if g is not None]
    family = content.items[item_id].family
    held = getattr(loadout, family, ()) if family in ("movement", "location", "avoidance") else ()
    if held and item_id not in held:
        out.append(replace(loadout, **{family: held + (item_id,)}))
    return out


def give(content: Content, loadout: Loadout, item_id: str) -> Loadout | None:
    """``loadout`` with ``item_id`` added as a gift: it takes its slot (the card
    there is handed back), a modifier for another firearm than the kit's comes
    with its own firearm (Z-21, bought), a consumable is one more card; None if
    the rules forbid it (deck, explosives cap)."""
    item = content.items[item_id]
    family = item.family
    if family == "firearms":
        fields = {"weapon": item_id, "mods": ()}
    elif family == "modifiers":
        same = loadout.weapon == item["firearm"]
        fields = {"weapon": item["firearm"], "mods": (loadout.mods if same else ()) + (item_id,)}
    elif family == "armour":
        fields = {item["slot"]: item_id}
    elif family in ("healing", "explosives"):
        counts = dict(getattr(loadout, family))
        counts[item_id] = counts.get(item_id, 0) + 1
        fields = {family: tuple(counts.items())}
    elif family == "escape":
        fields = {"escape_item": item_id}
    elif family in ("movement", "location", "avoidance"):
        fields = {family: (item_id,)}
    elif family == "one_shot":
        fields = {"one_shot": loadout.one_shot + (item_id,)}
    else:
        return None
    try:
        return replace(loadout, **fields).validate(content)
    except LoadoutError:
        return None
