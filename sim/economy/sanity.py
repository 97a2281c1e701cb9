"""The economy's sanity checks on any content (``zonesim value --check``): the
properties every value table must have, whatever the numbers.

- **Twins**: two cards identical but for name and price (``clones``) are worth
  the same (their value intervals overlap) and agree on being of no use.
- **Dominance**: a card that does strictly more than another of its family and
  use (every number of it at least the other's, one above: more heal, more
  dice, more defence in the same slot) is never valued clearly below it,
  overall or at any tier.
- **Verdicts read from the intervals**: *worth nothing here* only where the
  effect interval lies at or below 0, *fair* only where the price is a grid
  price nearest to a value of the interval.
- **Seeds**: two runs at other seeds agree within their intervals for at least
  ``SEED_OVERALL`` of the cards overall and ``SEED_TIERS`` of the tier values."""

from __future__ import annotations

from itertools import permutations

from sim.content.loadout import clones
from sim.economy.kits import MORE_IS_BETTER, substitutes

SEED_OVERALL = 0.9
SEED_TIERS = 0.8
CLEAR_G, CLEAR_SHARE = 10.0, 0.05  # "clearly below": by more than this many G or this share of the other's top


def _numbers(entry) -> dict:
    return {k: v for k, v in entry.fields.items() if k not in ("name", "price") and not isinstance(v, bool)
            and isinstance(v, (int, float))}


def stronger_pairs(content) -> list:
    """``(strong, weak)`` card ids: the same family and use, the numbers that differ all of
    ``MORE_IS_BETTER``, each of ``strong`` above ``weak``'s (more dice, bonus, defence, heal, steps)."""
    out = []
    for a, b in permutations(content.items.values(), 2):
        if b.id not in substitutes(content, a.id):
            continue
        na, nb = _numbers(a), _numbers(b)
        differ = [k for k in na if na[k] != nb.get(k)]
        if na.keys() == nb.keys() and differ and all(k in MORE_IS_BETTER and na[k] > nb[k] for k in differ):
            out.append((a.id, b.id))
    return sorted(out)


def twin_pairs(content) -> list:
    """``(card, twin)`` ids: cards identical but for name and price."""
    return sorted({tuple(sorted((a, b))) for a in content.items for b in clones(content, a) if a != b})


def clearly_below(high: list, low: list) -> bool:
    """Interval ``high`` wholly below interval ``low`` by more than ``CLEAR_G`` G or ``CLEAR_SHARE``."""
    return high[1] + max(CLEAR_G, CLEAR_SHARE * low[1]) < low[0]


def overlap(a: list, b: list) -> bool:
    return a[0] <= b[1] + 1e-9 and b[0] <= a[1] + 1e-9


NO_USE = ("no use here", "worth nothing here")


def problems(content, rows: list, step: int) -> list:
    """One line per broken property in ``rows`` (``zonesim value --json``'s items)."""
    from sim.economy.value import band

    by = {r["item"]: r for r in rows}
    valued = {k: r for k, r in by.items() if r["value_g"] is not None}
    out = []
    for a, b in twin_pairs(content):
        if a in valued and b in valued and not overlap(valued[a]["value_g_ci95"], valued[b]["value_g_ci95"]):
            out.append(f"twins: {b} {_span(valued[b])} against {a} {_span(valued[a])}")
        if a in by and b in by and (by[a]["verdict"] in NO_USE) != (by[b]["verdict"] in NO_USE):
            out.append(f"twins: {a} '{by[a]['verdict']}' against {b} '{by[b]['verdict']}'")
    for strong, weak in stronger_pairs(content):
        if strong in valued and weak in valued:
            pairs = [("overall", valued[strong], valued[weak])] + [
                (hi["tier"], hi, lo) for hi, lo in zip(valued[strong]["tiers"], valued[weak]["tiers"])
                if hi["value_g"] is not None and lo["value_g"] is not None]
            out += [f"dominance: {strong} {_span(hi)} is clearly below {weak} {_span(lo)} ({where})"
                    for where, hi, lo in pairs if clearly_below(hi["value_g_ci95"], lo["value_g_ci95"])]
    for card, row in valued.items():
        for where, r in [("overall", row)] + [(t["tier"], t) for t in row["tiers"] if t["value_g"] is not None]:
            low, high = r["effect_ci95"]
            if r["verdict"] == "worth nothing here" and low is not None and low > 0:
                out.append(f"verdict: {card} 'worth nothing here' with an effect of {low:.3g}..{high:.3g} ({where})")
            if r["verdict"] == "fair":
                floor, ceiling = band(*r["value_g_ci95"], step)
                if not floor <= row["price"] <= ceiling:
                    out.append(f"verdict: {card} 'fair' at {row['price']} G, value {_span(r)} ({where})")
    return out


def seed_problems(first: list, second: list) -> list:
    """A line if two runs at other seeds agree within their intervals for fewer than
    ``SEED_OVERALL`` of the cards or ``SEED_TIERS`` of the tier values."""
    other = {r["item"]: r for r in second if r["value_g"] is not None}
    both = [(r, other[r["item"]]) for r in first if r["value_g"] is not None and r["item"] in other]
    tiers = [(x, y) for a, b in both for x, y in zip(a["tiers"], b["tiers"])
             if x["value_g"] is not None and y["value_g"] is not None]
    out = []
    agree = sum(overlap(a["value_g_ci95"], b["value_g_ci95"]) for a, b in both)
    if agree < SEED_OVERALL * len(both):
        out.append(f"seeds: {agree} of {len(both)} overall values agree across two runs")
    agree = sum(overlap(x["value_g_ci95"], y["value_g_ci95"]) for x, y in tiers)
    if agree < SEED_TIERS * len(tiers):
        out.append(f"seeds: {agree} of {len(tiers)} tier values agree across two runs")
    return out


def _span(row) -> str:
    low, high = row["value_g_ci95"]
    return f"{low:,.0f}..{high:,.0f} G"
