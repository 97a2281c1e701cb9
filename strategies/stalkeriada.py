"""Stalkeriada strategies: the ``planner`` family and its four shipped settings.

A Stalkeriada strategy is one ``@njit`` function with the signature
``sim.kernels.stalkeriada.DECISION``: ``decide(kind, seat, g, params) -> int``,
where ``kind`` is ``D_FENCE``, ``D_SLIDE``, ``D_BUY``, ``D_SELL``, ``D_JELLY`` or
``D_STEP`` and ``g`` the game state (docs/rules/stalkeriada-resolution.md, "Decisions").

The planner (docs "The built-in strategy family") buys its kit in the order
pliers, nuts, OZK while money stays above a reserve; picks the fence cell most
likely to let him in (the ambush rolls of the content's fence); in the Zone walks
the cheapest path (face-down cells weigh 2, swamps their hummocks up to 3, stop and
pointers 3) to the nearest face-down cell, chip or his own container laid down
after a trap while collecting, and to the nearest corridor, flip or known exit once
carrying ``home_at`` chips, a full container or a full backpack; throws a nut
before a face-down cell if told to.
"""

from dataclasses import dataclass

import numpy as np
from numba import njit

from sim.kernels.stalkeriada import (
    BUY_NUT, BUY_OZK, BUY_PLIERS, D_BUY, D_FENCE, D_JELLY, D_SELL, D_SLIDE, D_STEP, DECISION,
    DEVILS_CABBAGE, EMPTY_CONTAINER, FENCE, FIRE_FLUFF, FLIP, FULL_CONTAINER, GAP, GATE, GOLDEN_BALL,
    H_ARG, H_BACKPACK, H_CELLS, H_CHIPS, H_O_CHIP_PLACE, H_COLS, H_FENCES, H_GAP_ON, H_GOLDEN_REVEALER,
    H_GOLDEN_USED, H_HUMMOCKS_2, H_HUMMOCKS_3, H_O_FENCE, H_O_FENCE_UP, H_PLIERS_ON,
    H_O_NBR, H_O_OCC, H_O_TILE, H_O_UP,
    H_O_SCRATCH, H_PRICE_NUT, H_PRICE_OZK, H_PRICE_PLIERS, H_W_AMBUSH, H_W_FENCE, H_W_GAP, INF,
    JELLY_BASEMENT, JUMPING_POINTER, MOSQUITO_BALD, POINTER, S_AT, S_CHIPS, S_MONEY, S_NUTS,
    S_OZK, S_PLIERS, S_WHERE, STEP_EXIT, STEP_NUT, STOP, SWAMP_2, SWAMP_3, TRAP, CORRIDOR,
    S_CONTAINER_AT, carried_container, has_loot, is_up, load, lying, neighbour, occupant, seat_base, tile,
)
from sim.modes import SEARCH

PLANNER_PARAMS = ("pliers", "ozk", "nuts", "reserve", "home_at", "jelly", "sell_min", "throw")
P_PLIERS, P_OZK, P_NUTS, P_RESERVE, P_HOME_AT, P_JELLY, P_SELL_MIN, P_THROW = range(8)


@njit(inline="always", cache=True)
def deadly_tile(t, ozk):
    """A trap tile that would hurt this stalker (S-15)."""
    return t == MOSQUITO_BALD or t == TRAP or ((t == FIRE_FLUFF or t == DEVILS_CABBAGE) and not ozk)


@njit(inline="always", cache=True)
def deadly(g, x, ozk):
    """A face-up trap on cell ``x`` that would hurt this stalker."""
    return is_up(g, x) and deadly_tile(tile(g, x), ozk)


@njit(inline="always", cache=True)
def faces_in(on):
    """d6 faces that get a stalker past a fence cell whose ambush comes on ``on`` or
    more (S-11; ``on`` 7: never)."""
    return min(on, 7) - 1


@njit(inline="always", cache=True)
def fence_score(g, j, pliers, ozk):
    """12 x W x the chance to get in through fence cell ``j`` (S-11, the content's
    fence mix and ambush rolls), W = weight sum; 0 before a known deadly front cell."""
    w = g[H_W_GAP] + g[H_W_FENCE] + g[H_W_AMBUSH]
    gap, fence = 2 * faces_in(g[H_GAP_ON]), 2 * faces_in(g[H_PLIERS_ON]) if pliers else 0
    if deadly(g, j, ozk):
        return 0
    if g[g[H_O_FENCE_UP] + j]:
        kind = g[g[H_O_FENCE] + j]
        return gap * w if kind == GAP else fence * w if kind == FENCE else 0
    return gap * g[H_W_GAP] + fence * g[H_W_FENCE]


@njit(inline="always", cache=True)
def exit_cost(g, x, pliers):
    """Cost of leaving the Zone from front cell ``x`` through its face-up fence
    cell (S-12): 1 + half the d6 faces that ambush him there (default content: 1
    through a fence with pliers, ambush 1/6; 2 through a gap, ambush 1/2); INF
    where there is no known way out."""
    if x >= g[H_COLS] or x >= g[H_FENCES] or not g[g[H_O_FENCE_UP] + x]:
        return INF
    kind = g[g[H_O_FENCE] + x]
    if kind == FENCE and pliers:
        return 1 + (6 - faces_in(g[H_PLIERS_ON])) // 2
    return 1 + (6 - faces_in(g[H_GAP_ON])) // 2 if kind == GAP else INF


@njit(inline="always", cache=True)
def end_cost(g, s, x, home, pliers, empty_container):
    """What is left to pay on reaching cell ``x``: 0 at a goal, the exit cost at
    a known exit (home mode), INF elsewhere (docs "STEP")."""
    up = is_up(g, x)
    if home:
        if up and (tile(g, x) == CORRIDOR or tile(g, x) == FLIP):
            return 0
        return exit_cost(g, x, pliers)
    if not up or lying(g, x) > 0 or g[seat_base(g, s) + S_CONTAINER_AT] == x:
        return 0
    t = tile(g, x)
    if (t == JELLY_BASEMENT and empty_container) or (t == GOLDEN_BALL and _golden_goal(g, s)):
        return 0
    return INF


@njit(inline="always", cache=True)
def _cell_weight(g, o_up, o_tile, o_occ, x, s, ozk, home):
    """``weight(x)`` of a cell the planner may enter, 0 if it is blocked."""
    occ = g[o_occ + x]
    if occ != 0 and occ != s + 1:
        return 0
    if g[o_up + x] == 0:
        return 2
    t = g[o_tile + x]
    if deadly_tile(t, ozk):
        return 0
    if not home and (t == FLIP or t == CORRIDOR):
        return 0
    if t == SWAMP_2:  # S-16; the search's cost ring holds weights 1..3
        return min(g[H_HUMMOCKS_2], 3)
    if t == SWAMP_3:
        return min(g[H_HUMMOCKS_3], 3)
    if t == STOP or t == POINTER or t == JUMPING_POINTER:
        return 3
    return 1


@njit(inline="always", cache=True)
def _chips_lying(g):
    """Whether any loot chip lies on a Zone cell."""
    for c in range(g[H_CHIPS]):
        if g[g[H_O_CHIP_PLACE] + c] >= 0:
            return True
    return False


@njit(inline="always", cache=True)
def _golden_goal(g, s):
    return g[H_GOLDEN_USED] == 0 and g[H_GOLDEN_REVEALER] == s


@njit(inline="always", cache=True)
def cheapest_move(g, s, x, home):
    """``(best, d)``: the least ``weight(n) + D(n)`` over the neighbours ``n`` of
    ``x`` in direction ``d``, first ``d`` on ties (docs "STEP"); ``(INF, -1)`` if
    none. Dijkstra from ``x`` over keys ``8 * cost + first direction`` in a ring of
    four cost buckets (weights are 1..3), stopped once no cheaper way remains."""
    o = seat_base(g, s)
    ozk, pliers = g[o + S_OZK], g[o + S_PLIERS]
    empty_container = carried_container(g, o) == EMPTY_CONTAINER
    cells = g[H_CELLS]
    o_up, o_tile, o_occ, nbr = g[H_O_UP], g[H_O_TILE], g[H_O_OCC], g[H_O_NBR]
    # scratch: key and weight + 1 of each cell, both stored above this search's stamp
    # (anything below it is from an earlier search: unknown), four cost buckets
    key = g[H_O_SCRATCH]
    known = key + cells
    ring = known + cells
    count = ring + 4 * cells
    g[count + 4] += 1
    base = g[count + 4] << 20
    for b in range(4):
        g[count + b] = 0
    pending = 0
    best, bound = INF, INF  # the best goal next door; the least a longer way could cost
    # a way on through a cell that is no goal enters at least one more cell: 1 step,
    # or 2 while collecting with no face-up goal anywhere (face-down cells weigh 2)
    more = 2 if (not home and not empty_container and not _golden_goal(g, s) and not _chips_lying(g)
                 and g[o + S_CONTAINER_AT] < 0) else 1
    for d in range(6):
        n = g[nbr + 6 * x + d]
        if n >= 0:
            w = _cell_weight(g, o_up, o_tile, o_occ, n, s, ozk, home)
            if w > 0:
                k = 8 * w + d
                g[key + n] = base + k
                b = (k >> 3) & 3
                g[ring + b * cells + g[count + b]] = n
                g[count + b] += 1
                pending += 1
                e = end_cost(g, s, n, home, pliers, empty_container)
                if e < INF:
                    best = min(best, k + 8 * e)
                bound = min(bound, k + 8 * (e if e < more else more))
    if best < INF and best <= bound:  # no longer way can beat (or tie before) the goal next door
        return best >> 3, best & 7
    level = 1
    while pending > 0 and 8 * level <= best:
        b = level & 3
        for i in range(g[count + b]):
            n = g[ring + b * cells + i]
            k = g[key + n] - base
            if k >> 3 != level:  # moved to a cheaper level since
                continue
            e = end_cost(g, s, n, home, pliers, empty_container)
            if e < INF and k + 8 * e < best:
                best = k + 8 * e
            for d in range(6):
                m = g[nbr + 6 * n + d]
                if m < 0:
                    continue
                w = g[known + m] - base - 1
                if w < 0:
                    w = _cell_weight(g, o_up, o_tile, o_occ, m, s, ozk, home)
                    g[known + m] = base + w + 1
                if w == 0:
                    continue
                k2 = k + 8 * w
                old = g[key + m] - base
                if old < 0 or k2 < old:
                    g[key + m] = base + k2
                    if old < 0 or old >> 3 != k2 >> 3:
                        b2 = (k2 >> 3) & 3
                        g[ring + b2 * cells + g[count + b2]] = m
                        g[count + b2] += 1
                        pending += 1
        pending -= g[count + b]
        g[count + b] = 0
        level += 1
    return (best >> 3, best & 7) if best < INF else (INF, -1)


@njit(inline="always", cache=True)
def plan_step(g, s, params):
    """The planner's STEP answer (docs "STEP")."""
    o = seat_base(g, s)
    x = g[o + S_AT]
    if g[o + S_WHERE] == GATE:
        return 0 if occupant(g, x) < 0 else -1
    home = (g[o + S_CHIPS] >= params[P_HOME_AT] or load(g, o) == g[H_BACKPACK]
            or carried_container(g, o) == FULL_CONTAINER)
    best, best_d = cheapest_move(g, s, x, home)
    if best >= INF and not home:  # nothing left to collect: make for a way out
        home = True
        best, best_d = cheapest_move(g, s, x, home)
    way_out = exit_cost(g, x, g[o + S_PLIERS])
    if home and has_loot(g, o) and way_out < INF and way_out <= best:
        return STEP_EXIT
    if best >= INF:
        return -1
    if params[P_THROW] > 0 and g[o + S_NUTS] > 0 and not is_up(g, neighbour(g, x, best_d)):
        return STEP_NUT + best_d
    return best_d


@njit(DECISION, cache=True, _nrt=False)  # allocates nothing: no reference counting (see kernels.play)
def planner(kind, s, g, params):
    """The planner family (module docstring); parameters ``PLANNER_PARAMS``."""
    o = seat_base(g, s)
    if kind == D_STEP:
        return plan_step(g, s, params)
    if kind == D_FENCE or kind == D_SLIDE:
        pliers = g[o + S_PLIERS]
        here, reach = g[o + S_AT], g[H_ARG]
        best, best_j = -1, 0
        for j in range(g[H_FENCES]):
            if kind == D_SLIDE and abs(j - here) > reach:
                continue
            score = fence_score(g, j, pliers, g[o + S_OZK])
            if score > best or (kind == D_SLIDE and score == best and abs(j - here) < abs(best_j - here)):
                best, best_j = score, j
        return best_j
    if kind == D_BUY:
        money, reserve = g[o + S_MONEY], params[P_RESERVE]
        if params[P_PLIERS] > 0 and not g[o + S_PLIERS] and money - g[H_PRICE_PLIERS] >= reserve:
            return BUY_PLIERS
        if g[o + S_NUTS] < params[P_NUTS] and money - g[H_PRICE_NUT] >= reserve:
            return BUY_NUT
        if params[P_OZK] > 0 and not g[o + S_OZK] and money - g[H_PRICE_OZK] >= reserve:
            return BUY_OZK
        return -1
    if kind == D_SELL:
        return 1 if g[H_ARG] >= params[P_SELL_MIN] else 0
    if kind == D_JELLY:
        return 1 if params[P_JELLY] > 0 else 0
    return -1


@dataclass(frozen=True)
class StalkeriadaStrategy:
    """A named Stalkeriada strategy: a ``DECISION`` function and its parameters. A
    search player (``search_player``) also has a ``menu`` of parameter settings, one
    picked before each of his turns by ``rollouts`` rollouts of ``horizon`` rounds
    each (``sim.kernels.stalkeriada.choose``); ``params`` is the menu's first."""

    name: str
    description: str
    decide: object
    params: tuple
    param_names: tuple = PLANNER_PARAMS
    menu: tuple = ()
    rollouts: int = 0
    horizon: int = 0
    order_worth: tuple = (0, 0)  # a jelly order in his rollouts' score, per mille of its reward: empty, full
    switch_z: float = 0.0  # he leaves the setting he plays for one better by this many standard errors

    def param_vector(self):
        p = np.asarray(self.params, dtype=np.float64)
        return p if p.size else np.zeros(1)


def planner_strategy(name, description, **values):
    """A setting of the planner family: every ``PLANNER_PARAMS`` name given."""
    return StalkeriadaStrategy(name, description, planner, tuple(float(values[k]) for k in PLANNER_PARAMS))


CAUTIOUS = planner_strategy("cautious", "buys pliers, 2 nuts and the OZK first; goes home with 2 loot; throws nuts",
                    pliers=1, ozk=1, nuts=2, reserve=0, home_at=2, jelly=0, sell_min=500, throw=1)
GREEDY = planner_strategy("greedy", "buys pliers only; fills the backpack (5 loot) before going home",
                  pliers=1, ozk=0, nuts=0, reserve=0, home_at=5, jelly=0, sell_min=500, throw=0)
JELLY = planner_strategy("jelly", "takes the witch's-jelly order; pliers, OZK and a nut; home with 3 loot",
                 pliers=1, ozk=1, nuts=1, reserve=0, home_at=3, jelly=1, sell_min=500, throw=1)
RUSH = planner_strategy("rush", "buys nothing but the exit visa; goes home with 3 loot",
                pliers=0, ozk=0, nuts=0, reserve=0, home_at=3, jelly=0, sell_min=500, throw=0)


SEARCH_MENU = (JELLY, CAUTIOUS, GREEDY, RUSH)  # the shipped settings; he starts each game on the first (the best alone)
ROLLOUTS = 8  # rollouts per setting of the menu, before each of his turns
HORIZON = 10  # rounds each rollout plays on
ORDER_WORTH = (250, 750)  # a jelly order in his rollouts' score, per mille of its reward: container empty, full
SWITCH_Z = 2.0  # standard errors by which another setting must beat his to be taken


def search_player(menu, *, rollouts=ROLLOUTS, horizon=HORIZON, order_worth=ORDER_WORTH, switch_z=SWITCH_Z,
                  name=SEARCH):
    """The search player over the settings ``menu`` (planner strategies, the first his
    start): before each turn he plays every setting on the same ``rollouts`` determinised
    rollouts of ``horizon`` rounds, scored with a jelly order at ``order_worth`` per mille
    of its reward (empty, full), and moves to the best setting when it beats the one he
    plays by ``switch_z`` standard errors (``sim.kernels.stalkeriada.choose``)."""
    description = (f"searches {', '.join(m.name for m in menu)} before each turn: {rollouts} determinised rollouts "
                   f"each of {horizon} rounds; starts on {menu[0].name} and leaves the setting he plays for one "
                   f"better by {switch_z:g} standard errors")
    return StalkeriadaStrategy(name, description, planner, menu[0].params, menu=tuple(m.params for m in menu),
                               rollouts=rollouts, horizon=horizon, order_worth=tuple(order_worth),
                               switch_z=switch_z)


def search_listing() -> dict:
    """The search player as ``zonesim strategies`` lists him."""
    return {"name": SEARCH, "description": "before each of his turns, plays each shipped planner setting on the same "
            "determinised rollouts (the face-down tiles and fences laid again as the seats' knowledge allows, fresh "
            "dice, the other seats by their own strategies) and leaves the setting he plays (jelly at the start) "
            "only for one clearly better (strategies.stalkeriada.search_player)",
            "params": {"rollouts": ROLLOUTS, "horizon_rounds": HORIZON, "switch_z": SWITCH_Z,
                       "jelly_order_worth_permille": list(ORDER_WORTH)},
            "optimises": "his chance to finish first, scored at the horizon by his lead in money and goods over the "
                         "richest other seat"}
