"""The exact fewest-days route over a hex map (Z-25, Z-26, Z-34, Z-35, Z-36).

A day has ``base + extra`` steps (Z-34; ``extra`` from one movement item, Z-25).
Entering a hex costs its terrain's steps (Z-35; a road hex 1, Z-36). A move
costing more than the steps left waits for the next day and the leftover steps
are lost (Z-34); a move costing more than a whole day is impossible. An
Epicentre hex may be entered only if the steps spent that day plus its cost fit
the base budget: equipment steps never pay for it (Z-26).

Moving as soon as the rules allow is never worse than waiting, and the arrival
``(day, steps spent today)`` is monotone in the departure one (lexicographic
order), so a label-setting search over ``(hex, day, spent today, total steps)``
with Pareto labels is exact.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np

from sim.content.maps import HexMap
from sim.errors import ZonesimError

_NEVER = np.int64(2**40)  # "unreachable" in days_table's value iteration


@dataclass(frozen=True)
class Route:
    """Fewest days, then fewest steps; ``path`` runs from the start to the goal."""

    days: int
    steps: int
    path: tuple[tuple[int, int], ...]


def enter(day, spent, cost, limit):
    """``(day, spent today)`` after entering a hex; ``None`` if it never fits a day.

    ``limit`` is the hex's day limit (``HexMap.day_limit``): a move that does not
    fit the steps left happens on the next day (Z-34, Z-26).
    """
    if cost > limit:
        return None
    if spent + cost <= limit:
        return day, spent + cost
    return day + 1, cost


def _check(hexmap: HexMap, points, extra_steps, base_budget):
    """Reject points off the map and budgets that make no sense."""
    for col, row in points:
        if not hexmap.in_bounds(col, row):
            raise ZonesimError(f"{hexmap.path}: ({col}, {row}) is off the map "
                               f"({hexmap.width} x {hexmap.height}); use a hex on the map")
    if base_budget < 1 or extra_steps < 0:
        raise ZonesimError(f"route budget: base {base_budget}, extra {extra_steps}; use base >= 1 and extra >= 0")


def _dominated(kept, day, spent, total):
    """Whether a kept label is no later (by day, then spent today) and no longer."""
    return any((d, s) <= (day, spent) and t <= total for d, s, t in kept)


def _path(labels, index):
    """The hexes from the start to label ``index``."""
    path = []
    while index >= 0:
        at, index = labels[index]
        path.append(at)
    return tuple(reversed(path))


def fastest_route(hexmap: HexMap, start, goal, extra_steps=0, base_budget=6) -> Route | None:
    """The route from ``start`` to ``goal`` (``(col, row)``) in fewest days, then fewest steps; ``None`` if none.

    Labels pop in ``(day, total, spent, order)`` order: a dominating label never
    pops later, so the first label to reach the goal is optimal.
    """
    start, goal = tuple(map(int, start)), tuple(map(int, goal))
    _check(hexmap, (start, goal), extra_steps, base_budget)
    if start == goal:
        return Route(0, 0, (start,))
    limit = hexmap.day_limit(base_budget, extra_steps)
    labels = [(start, -1)]
    heap = [(1, 0, 0, 0)]
    kept = {}
    while heap:
        day, total, spent, index = heapq.heappop(heap)
        at = labels[index][0]
        if _dominated(kept.setdefault(at, []), day, spent, total):
            continue
        kept[at].append((day, spent, total))
        if at == goal:
            return Route(day, total, _path(labels, index))
        for col, row in hexmap.neighbours(*at):
            cost = int(hexmap.cost[row, col])
            moved = enter(day, spent, cost, int(limit[row, col]))
            if moved and not _dominated(kept.get((col, row), ()), moved[0], moved[1], total + cost):
                labels.append(((col, row), index))
                heapq.heappush(heap, (moved[0], total + cost, moved[1], len(labels) - 1))
    return None


def days_table(hexmap: HexMap, goal, extra_steps=0, base_budget=6) -> np.ndarray:
    """Fewest days from every hex to ``goal`` (int64 [row, col]; 0 at the goal, -1 if unreachable).

    Backward value iteration to its fixed point: ``arrive[h, s]`` is the arrival
    day at the goal (today = 1) from hex ``h`` with ``s`` steps spent today; a
    move into ``w`` gives ``arrive[w, s + cost]`` if it fits today, else
    ``1 + arrive[w, cost]`` (Z-34, Z-26), or nothing if it never fits.
    """
    goal = tuple(map(int, goal))
    _check(hexmap, (goal,), extra_steps, base_budget)
    budget = base_budget + extra_steps
    cost = hexmap.cost.ravel()
    limit = hexmap.day_limit(base_budget, extra_steps).ravel()
    target = goal[1] * hexmap.width + goal[0]
    spent = np.arange(budget + 1)
    arrive = np.full((cost.size, budget + 1), _NEVER, dtype=np.int64)
    arrive[target] = 1
    moves = []
    for into in hexmap.neighbour_table().T:
        w = np.maximum(into, 0)
        c, lim = cost[w][:, None], limit[w][:, None]
        after = np.minimum(spent + c, budget)
        moves.append((w[:, None], after, np.minimum(c, budget), spent + c <= lim, (into < 0)[:, None] | (c > lim)))
    while True:
        best = arrive.copy()
        for w, after, c, today, never in moves:
            candidate = np.where(today, arrive[w, after], np.minimum(arrive[w, c] + 1, _NEVER))
            best = np.minimum(best, np.where(never, _NEVER, candidate))
        best[target] = 1
        if np.array_equal(best, arrive):
            break
        arrive = best
    days = np.where(arrive[:, 0] >= _NEVER, -1, arrive[:, 0])
    days[target] = 0
    return days.reshape(hexmap.height, hexmap.width)
