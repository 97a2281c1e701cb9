"""Skirmish strategies: ``beast`` (every monster) and the stalkers' ``hold``,
``kite`` and ``rush`` (docs/rules/skirmish-resolution.md, "Built-in strategies").

A skirmish strategy is one ``@njit`` function with the signature
``sim.kernels.skirmish.DECISION``: ``decide(g, i) -> code``. When
``g[H_MAN] == M_NONE`` it is asked for its manoeuvre (``MANOEUVRE`` code, M-03);
afterwards for one action at a time until it answers ``END``
(``code(kind, a, b)``; the kinds, costs and legality are in the contract).

- ``hold``: the Attack manoeuvre; turns to face the nearest monster in its
  step and shoots from where it stands, heals, reloads, lays mines.
- ``rush``: Move and Attack; closes to point-blank range, then shoots.
- ``kite``: Move and Attack; backs away to ``kite_distance`` through the
  cheapest terrain while keeping the AP for a shot, then shoots.
"""

from dataclasses import dataclass

from numba import njit

from sim.kernels.skirmish import (
    DECISION, END, EQUIP, F_AIMED_AP, F_AID_LEFT, F_ALIVE, F_AP, F_ATTACK_AP, F_EXPL_N, F_FACING, F_FIREARM,
    F_HAND, F_HEAL_N, F_HEAL_N_B, F_HP, F_MAG, F_MAG_SIZE, F_MAX_HP, F_MEDIC_USES, F_POS, F_POSTURE, F_RANGE,
    F_SIDE, F_SPARE, FIREARM, FIRST_AID, H_F, H_MAN, H_MOVE_LOCKED, H_N, H_O_SCRATCH, H_PTS, H_R_EQUIP, H_R_KITE, H_R_MINE, H_R_RELOAD,
    H_R_STAND, H_R_USE, H_SPRINT, H_STEP_USED, HEAL_A, HEAL_B, KEEP, LAY_MINE, M_ALL_OUT_ATTACK, M_ATTACK,
    M_MOVE_ATTACK, M_NONE, MANOEUVRE, MOVE, NO, PRONE, RELOAD, SHOOT, STAND, STANDING, STAY, STEP, USE,
    can_enter, code, conscious, dist, fb, hex_ap, mine_spot, move_points, mult, nbr, occupant, rel, sight,
)

FAR = 1 << 30


@njit(inline="always", cache=True)
def nearest(g, i):
    """The conscious enemy nearest to ``i`` (least distance, then index), or NO."""
    o = fb(g, i)
    best, best_d = NO, FAR
    for t in range(g[H_F]):
        if g[fb(g, t) + F_SIDE] != g[o + F_SIDE] and conscious(g, t):
            d = dist(g, g[o + F_POS], g[fb(g, t) + F_POS])
            if d < best_d:
                best, best_d = t, d
    return best


@njit(inline="always", cache=True)
def shot_target(g, i):
    """The nearest conscious enemy in range and sight (A-07), or NO."""
    o = fb(g, i)
    p = g[o + F_POS]
    best, best_d = NO, FAR
    for t in range(g[H_F]):
        q = g[fb(g, t) + F_POS]
        if g[fb(g, t) + F_SIDE] != g[o + F_SIDE] and conscious(g, t):
            d = dist(g, p, q)
            if d <= g[o + F_RANGE] and sight(g, p, q) and d < best_d:
                best, best_d = t, d
    return best


@njit(inline="always", cache=True)
def min_enemy(g, i, h):
    """Distance from hex ``h`` to the nearest conscious enemy of ``i``."""
    side = g[fb(g, i) + F_SIDE]
    best = FAR
    for t in range(g[H_F]):
        if g[fb(g, t) + F_SIDE] != side and conscious(g, t):
            best = min(best, dist(g, h, g[fb(g, t) + F_POS]))
    return best


@njit(inline="always", cache=True)
def candidate(g, i, d):
    """A plain mode-0 move in direction ``d``: (hex or NO, points (M-04), AP (A-03))."""
    o = fb(g, i)
    man = g[H_MAN]
    if g[o + F_POSTURE] != STANDING or g[H_MOVE_LOCKED] or man == M_ATTACK or man == M_NONE:
        return NO, 0, 0
    h = nbr(g, g[o + F_POS], d)
    if not can_enter(g, h):
        return NO, 0, 0
    r = rel(d, g[o + F_FACING])
    forward = r == 0 or r == 1 or r == 5
    if not forward and man == M_ALL_OUT_ATTACK:
        return NO, 0, 0
    c, _ = move_points(g, d, 0, g[o + F_FACING])
    ap = hex_ap(g, h)
    sprint = g[H_SPRINT] if forward else 0
    if c - sprint > g[H_PTS] or ap > g[o + F_AP]:
        return NO, 0, 0
    return h, c, ap


@njit(cache=True)
def walk_from(g, q, p):
    """Breadth-first steps from hex ``q`` over free hexes (``p`` and ``q`` count as
    free) into the scratch block; unreached hexes hold FAR."""
    n = g[H_N]
    walk, queue = g[H_O_SCRATCH], g[H_O_SCRATCH] + n
    for h in range(n):
        g[walk + h] = FAR
    g[walk + q] = 0
    g[queue] = q
    head, tail = 0, 1
    while head < tail:
        h = g[queue + head]
        head += 1
        for d in range(6):
            x = nbr(g, h, d)
            if x >= 0 and g[walk + x] == FAR and mult(g, x) > 0 and (x == p or occupant(g, x) == NO):
                g[walk + x] = g[walk + h] + 1
                g[queue + tail] = x
                tail += 1


@njit(cache=True)
def approach(g, i, t):
    """MOVE toward ``t``: the affordable move that gets closer, least (distance,
    terrain, points, direction); when none does, the first step of the way round
    obstacles and fighters (breadth-first); NO if none."""
    p = g[fb(g, i) + F_POS]
    q = g[fb(g, t) + F_POS]
    here = dist(g, p, q)
    best, key = NO, FAR
    for d in range(6):
        h, c, _ = candidate(g, i, d)
        if h != NO and dist(g, h, q) < here:
            k = ((dist(g, h, q) * 4 + mult(g, h)) * 64 + c) * 8 + d
            if k < key:
                best, key = d, k
    if best == NO and here > 1:
        walk_from(g, q, p)
        walk = g[H_O_SCRATCH]
        for d in range(6):
            h, c, _ = candidate(g, i, d)
            if h != NO and g[walk + h] < g[walk + p]:
                k = ((g[walk + h] * 4 + mult(g, h)) * 64 + c) * 8 + d
                if k < key:
                    best, key = d, k
    return NO if best == NO else code(MOVE, best, 0)


@njit(cache=True)
def retreat(g, i, reserve):
    """MOVE away: the affordable move leaving ``reserve`` AP that gets farther from
    the nearest enemy, least (-distance, terrain, points, direction); NO if none."""
    ap = g[fb(g, i) + F_AP]
    here = min_enemy(g, i, g[fb(g, i) + F_POS])
    best, key = NO, FAR
    for d in range(6):
        h, c, cost = candidate(g, i, d)
        if h != NO and ap - cost >= reserve:
            e = min_enemy(g, i, h)
            if e > here:
                k = (((1024 - e) * 4 + mult(g, h)) * 64 + c) * 8 + d
                if k < key:
                    best, key = d, k
    return NO if best == NO else code(MOVE, best, 0)


@njit(inline="always", cache=True)
def face(g, i, t):
    """The facing toward ``t``: the neighbour direction closest to it, lowest first."""
    p = g[fb(g, i) + F_POS]
    q = g[fb(g, t) + F_POS]
    best, best_d = KEEP, FAR
    for d in range(6):
        h = nbr(g, p, d)
        if h >= 0 and dist(g, h, q) < best_d:
            best, best_d = d, dist(g, h, q)
    return best


@njit(inline="always", cache=True)
def fire(g, i, t):
    """SHOOT ``t``: aimed when an aimed shot costs no plain shot, else plain (A-07)."""
    o = fb(g, i)
    ap, aimed, plain = g[o + F_AP], g[o + F_AIMED_AP], g[o + F_ATTACK_AP]
    if 0 < aimed <= ap and ap - aimed < plain:
        return code(SHOOT, t, 1)
    if ap >= plain:
        return code(SHOOT, t, 0)
    return NO


@njit(DECISION, cache=True, _nrt=False)  # allocates nothing: no reference counting
def beast(g, i):
    """Every monster: Attack when in reach, else Move and Attack toward the nearest stalker."""
    o = fb(g, i)
    t = nearest(g, i)
    if g[H_MAN] == M_NONE:
        near = t != NO and dist(g, g[o + F_POS], g[fb(g, t) + F_POS]) <= g[o + F_RANGE]
        return code(MANOEUVRE, M_ATTACK if near else M_MOVE_ATTACK, 0)
    if t == NO:
        return code(END, KEEP, 0)
    if g[o + F_POSTURE] == PRONE and g[o + F_AP] >= g[H_R_STAND]:
        return code(STAND, 0, 0)
    p, q = g[o + F_POS], g[fb(g, t) + F_POS]
    if dist(g, p, q) <= g[o + F_RANGE] and sight(g, p, q) and g[o + F_AP] >= g[o + F_ATTACK_AP]:
        return code(SHOOT, t, 0)
    if g[H_MAN] == M_ATTACK and not g[H_STEP_USED]:
        return code(STEP, STAY, face(g, i, t))
    if g[H_MAN] == M_MOVE_ATTACK:
        c = approach(g, i, t)
        if c != NO:
            return c
    return code(END, face(g, i, t), 0)


STYLE_HOLD, STYLE_RUSH, STYLE_KITE = range(3)


@njit(inline="always", cache=True)
def _care(g, i):
    """Rules 1-5 of every stalker strategy: first aid, stand up, heal, re-arm, reload."""
    o = fb(g, i)
    ap = g[o + F_AP]
    if g[o + F_MEDIC_USES] > 0 and g[o + F_AID_LEFT] == 0 and g[H_MAN] != M_ALL_OUT_ATTACK:
        for j in range(g[H_F]):
            oj = fb(g, j)
            if (j != i and g[oj + F_SIDE] == g[o + F_SIDE] and g[oj + F_ALIVE] != 0 and g[oj + F_HP] <= 0
                    and dist(g, g[o + F_POS], g[oj + F_POS]) == 1):
                return code(FIRST_AID, j, 0)
    if g[o + F_POSTURE] == PRONE and ap >= g[H_R_STAND]:
        return code(STAND, 0, 0)
    if 2 * g[o + F_HP] <= g[o + F_MAX_HP]:
        kind = 1 if g[o + F_HEAL_N] > 0 else (2 if g[o + F_HEAL_N_B] > 0 else 0)
        if kind > 0:
            if g[o + F_HAND] == (HEAL_A if kind == 1 else HEAL_B):
                if ap >= g[H_R_USE]:
                    return code(USE, 0, 0)
            elif ap >= g[H_R_EQUIP] + g[H_R_USE]:
                return code(EQUIP, kind, 0)
    if g[o + F_HAND] != FIREARM and g[o + F_FIREARM] >= 0 and ap >= g[H_R_EQUIP]:
        return code(EQUIP, 0, 0)
    if (g[o + F_MAG_SIZE] > 0 and g[o + F_MAG] == 0 and g[o + F_SPARE] > 0 and g[o + F_HAND] == FIREARM
            and ap >= g[H_R_RELOAD]):
        return code(RELOAD, 0, 0)
    return NO


@njit(inline="always", cache=True)
def _movement(g, i, style, t):
    """Rule 6: each strategy's movement (``t`` the nearest target)."""
    o = fb(g, i)
    if style == STYLE_HOLD:
        if not g[H_STEP_USED]:
            return code(STEP, STAY, face(g, i, t))
        return NO
    if style == STYLE_RUSH:
        if dist(g, g[o + F_POS], g[fb(g, t) + F_POS]) > 1:
            return approach(g, i, t)
        return NO
    if min_enemy(g, i, g[o + F_POS]) < g[H_R_KITE]:
        return retreat(g, i, g[o + F_ATTACK_AP])
    if shot_target(g, i) == NO:
        return approach(g, i, t)
    return NO


@njit(inline="always", cache=True)
def stalker(g, i, style):
    """The stalker strategies' rules 1-10 (contract)."""
    o = fb(g, i)
    if g[H_MAN] == M_NONE:
        return code(MANOEUVRE, M_ATTACK if style == STYLE_HOLD else M_MOVE_ATTACK, 0)
    c = _care(g, i)
    if c != NO:
        return c
    t = nearest(g, i)
    if t != NO:
        c = _movement(g, i, style, t)
        if c != NO:
            return c
    s = shot_target(g, i)
    if s != NO and g[o + F_HAND] == FIREARM and (g[o + F_MAG_SIZE] == 0 or g[o + F_MAG] > 0):
        c = fire(g, i, s)
        if c != NO:
            return c
    ap = g[o + F_AP]
    if (g[o + F_MAG_SIZE] > 0 and g[o + F_MAG] < g[o + F_MAG_SIZE] and g[o + F_SPARE] > 0
            and g[o + F_HAND] == FIREARM and ap >= g[H_R_RELOAD]):
        return code(RELOAD, 0, 0)
    if (style == STYLE_HOLD and g[o + F_EXPL_N] > 0 and ap >= g[H_R_MINE] and g[H_MAN] != M_ALL_OUT_ATTACK
            and g[o + F_POSTURE] != PRONE and mine_spot(g, i) != NO
            and min_enemy(g, i, g[o + F_POS]) >= 2):
        return code(LAY_MINE, 0, 0)
    return code(END, KEEP if t == NO else face(g, i, t), 0)


@njit(DECISION, cache=True, _nrt=False)  # allocates nothing: no reference counting
def hold(g, i):
    """Stand and shoot (Attack manoeuvre): face the nearest monster, shoot, heal, lay mines."""
    return stalker(g, i, STYLE_HOLD)


@njit(DECISION, cache=True, _nrt=False)  # allocates nothing: no reference counting
def rush(g, i):
    """Close in (Move and Attack) to point-blank, then shoot."""
    return stalker(g, i, STYLE_RUSH)


@njit(DECISION, cache=True, _nrt=False)  # allocates nothing: no reference counting
def kite(g, i):
    """Keep every monster at kite_distance, over the cheapest ground, keeping a shot's AP."""
    return stalker(g, i, STYLE_KITE)


@dataclass(frozen=True)
class SkirmishStrategy:
    """A named skirmish strategy: a ``DECISION`` function for the party."""

    name: str
    description: str
    decide: object


HOLD = SkirmishStrategy("hold", "hold and shoot: stand (Attack manoeuvre), face, shoot, heal, lay mines", hold)
KITE = SkirmishStrategy("kite", "keep the monsters at kite_distance over the cheapest ground, then shoot", kite)
RUSH = SkirmishStrategy("rush", "close to point-blank range (Move and Attack), then shoot", rush)
BEAST = SkirmishStrategy("beast", "every monster: Attack in reach, else Move and Attack to the nearest stalker",
                         beast)
