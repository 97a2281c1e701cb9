"""Tactical skirmishes on a hex arena (RULES A-01..A-07, M-01..M-08), exactly as
docs/rules/skirmish-resolution.md.

A skirmish lives in one ``int64`` array ``g``: a header (``H_*``: the arena's
size, the round, the acting fighter's turn state, the rules' numbers ``H_R_*``),
then blocks at the offsets the header holds (``H_O_*``): neighbours, terrain
multipliers, distances, sight, mines, the sequence and ``FIGHTER_SIZE`` fields
per fighter (``F_*``). Strategies read ``g`` through ``DECISION``:
``decide(g, i) -> code`` with ``code = kind | a << 8 | b << 16``.

Streams per skirmish: one per fighter (every roll of that fighter) and SETUP
(the sequence d10s), so a fighter's rolls do not depend on the others' choices.
"""

import numpy as np
from numba import njit, prange, types

from sim.kernels import entry_point
from sim.kernels.rng import STATE_SIZE, die, mix, pick, roll, start_stream, trial_base

# action kinds, manoeuvres, postures, hands
(END, MOVE, TURN, STEP, SHOOT, RELOAD, EQUIP, USE, PICKUP, STAND, FIRST_AID, LAY_MINE, MANOEUVRE) = range(13)
ACTION_NAMES = ("end", "move", "turn", "step", "shoot", "reload", "equip", "use", "pickup", "stand", "first_aid",
                "lay_mine", "manoeuvre")
M_NONE = -1
M_MOVE, M_MOVE_ATTACK, M_ALL_OUT_ATTACK, M_ALL_OUT_DEFENCE, M_ATTACK = range(5)
MANOEUVRE_NAMES = ("move", "move_attack", "all_out_attack", "all_out_defence", "attack")
STANDING, KNEELING, PRONE = range(3)
EMPTY, FIREARM, HEAL_A, HEAL_B = range(4)
KEEP = 6
STAY, KNEEL = 6, 7
WIN, LOSS, DRAW = range(3)
OUTCOMES = ("win", "loss", "draw")

# AP kinds (records)
AP_KINDS = ("move", "shoot", "reload", "equip", "use", "pickup", "stand", "first_aid", "mine", "defend")
(AP_MOVE, AP_SHOOT, AP_RELOAD, AP_EQUIP, AP_USE, AP_PICKUP, AP_STAND, AP_FIRST_AID, AP_MINE, AP_DEFEND) = range(10)

# header of g
(H_N, H_COLS, H_F, H_PARTY, H_ROUND, H_OUTCOME, H_ACTOR, H_MAN, H_PTS, H_PTS0, H_SPRINT, H_FWD_ONLY, H_STEP_USED,
 H_MOVE_LOCKED, H_ROLL1, H_ROLL2, H_ROLL3,
 H_R_MAX_ROUNDS, H_R_AP_BASE, H_R_AP_DIV, H_R_AIMED_BONUS, H_R_RANGE_PENALTY, H_R_HIT_MIN, H_R_HIT_MAX,
 H_R_AOA_BONUS, H_R_AOD_AC, H_R_USE, H_R_EQUIP, H_R_PICKUP, H_R_RELOAD, H_R_STAND, H_R_MINE, H_R_FIRST_AID,
 H_R_KNEEL, H_R_DEAD_AT, H_R_KNOCKDOWN, H_R_KITE,
 H_R_HEX_AP, H_R_FORWARD, H_R_SIDEWAYS, H_R_TURN, H_R_ALLY, H_R_SPRINT, H_R_HALF, H_R_END_SIDES,
 H_R_EV_STANDING, H_R_EV_KNEELING, H_R_EV_PRONE, H_R_EV_SIDE, H_R_EV_BEHIND, H_R_EV_DICE, H_R_SEQ_DIE, H_R_AID_HP,
 H_O_NBR, H_O_MULT, H_O_DIST, H_O_LOS, H_O_MINE, H_O_OWNER, H_O_ORDER, H_O_FIGHTER, H_O_SCRATCH) = range(62)
HEADER = 64
RULE_FIELDS = {  # header slot <- skirmish.toml [rules] field
    H_R_MAX_ROUNDS: "max_rounds", H_R_AP_BASE: "ap_base", H_R_AP_DIV: "ap_agility_divisor",
    H_R_AIMED_BONUS: "aimed_bonus", H_R_RANGE_PENALTY: "range_penalty", H_R_HIT_MIN: "hit_min",
    H_R_HIT_MAX: "hit_max", H_R_AOA_BONUS: "all_out_attack_bonus", H_R_AOD_AC: "all_out_defence_ac",
    H_R_USE: "use_ap", H_R_EQUIP: "equip_ap", H_R_PICKUP: "pickup_ap", H_R_RELOAD: "reload_ap",
    H_R_STAND: "stand_ap", H_R_MINE: "mine_ap", H_R_FIRST_AID: "first_aid_ap", H_R_KNEEL: "kneel_ap",
    H_R_DEAD_AT: "dead_at_hp", H_R_KNOCKDOWN: "knockdown_damage", H_R_KITE: "kite_distance",
    H_R_HEX_AP: "hex_ap", H_R_FORWARD: "forward_points", H_R_SIDEWAYS: "sideways_points", H_R_TURN: "turn_points",
    H_R_ALLY: "ally_points", H_R_SPRINT: "sprint_points", H_R_HALF: "half_divisor", H_R_END_SIDES: "end_turn_sides",
    H_R_EV_STANDING: "evade_standing", H_R_EV_KNEELING: "evade_kneeling", H_R_EV_PRONE: "evade_prone",
    H_R_EV_SIDE: "evade_side", H_R_EV_BEHIND: "evade_behind", H_R_EV_DICE: "evade_dice",
    H_R_SEQ_DIE: "sequence_die", H_R_AID_HP: "first_aid_hp",
}

# a fighter's fields
(F_SIDE, F_ALIVE, F_HP, F_MAX_HP, F_POS, F_FACING, F_POSTURE, F_AGILITY, F_DX, F_MOVE, F_SEQUENCE, F_SKILL,
 F_DEFENCE, F_DICE, F_BONUS, F_RANGE, F_ATTACK_AP, F_AIMED_AP, F_MAG, F_MAG_SIZE, F_SPARE, F_FIREARM, F_HAND,
 F_HEAL_N, F_HEAL_V, F_HEAL_N_B, F_HEAL_V_B, F_EXPL_N, F_EXPL_DICE, F_EXPL_BONUS, F_MEDIC_SKILL, F_MEDIC_USES,
 F_TRAPS, F_INSUB, F_AP, F_BANKED, F_AOD, F_AID_TARGET, F_AID_LEFT, F_NO_AP_ROUND, F_LAST_MAN, F_SPRINT_NEXT,
 F_STRATEGY, F_ORDER_KEY) = range(44)
FIGHTER_SIZE = 44

# what a skirmish records
(R_OUTCOME, R_ROUNDS, R_ALIVE, R_ALL_ALIVE, R_DEALT, R_TAKEN, R_KILLS, R_SHOTS, R_HITS, R_ILLEGAL, R_AP) = range(11)
RECORD_FIELDS = ("outcome", "rounds", "alive", "all_alive", "damage_dealt", "damage_taken", "kills", "shots",
                 "hits", "illegal") + tuple(f"ap_{k}" for k in AP_KINDS)
N_RECORD = len(RECORD_FIELDS)

# the replay log: one row per strategy answer
(L_ROUND, L_FIGHTER, L_CODE, L_OK, L_AP, L_POS, L_FACING, L_HP, L_ROLL1, L_ROLL2, L_ROLL3) = range(11)
LOG_FIELDS = 11

MAX_FIGHTERS = 16
SETUP = 16
RNG_SIZE = STATE_SIZE * (SETUP + 1)
N_STRATEGIES = 2  # fns[0] plays the party, fns[1] the monsters
DECISION = types.int64(types.int64[::1], types.int64)
DecisionType = types.FunctionType(DECISION)
NO = -1


def layout(n_hexes, n_fighters):
    """Block offsets of ``g`` (``H_O_NBR`` .. ``H_O_SCRATCH``) and its size. The
    scratch block (two words per hex) is for strategies' path searches."""
    sizes = (6 * n_hexes, n_hexes, n_hexes * n_hexes, n_hexes * n_hexes, n_hexes, n_hexes, n_fighters,
             FIGHTER_SIZE * n_fighters, 2 * n_hexes)
    offsets = np.cumsum((HEADER,) + sizes)
    return offsets[:-1], int(offsets[-1])


# --- reading the state (also for strategies) ---------------------------------------

@njit(inline="always", cache=True)
def code(kind, a, b):
    return kind | (a << 8) | (b << 16)


@njit(inline="always", cache=True)
def fb(g, i):
    """Offset of fighter ``i``'s fields."""
    return g[H_O_FIGHTER] + FIGHTER_SIZE * i


@njit(inline="always", cache=True)
def field(g, i, f):
    return g[g[H_O_FIGHTER] + FIGHTER_SIZE * i + f]


@njit(inline="always", cache=True)
def nbr(g, h, d):
    return g[g[H_O_NBR] + 6 * h + d]


@njit(inline="always", cache=True)
def mult(g, h):
    return g[g[H_O_MULT] + h]


@njit(inline="always", cache=True)
def dist(g, a, b):
    return g[g[H_O_DIST] + a * g[H_N] + b]


@njit(inline="always", cache=True)
def sight(g, a, b):
    return g[g[H_O_LOS] + a * g[H_N] + b] != 0


@njit(inline="always", cache=True)
def rel(d, f):
    """Direction ``d`` seen from facing ``f``: 0 ahead, 1/5 front sides, 2/4 back sides, 3 behind."""
    return (d - f + 6) % 6


@njit(inline="always", cache=True)
def sides(a, b):
    """Hex sides between two facings (M-05)."""
    k = abs(a - b)
    return min(k, 6 - k)


@njit(inline="always", cache=True)
def conscious(g, i):
    o = fb(g, i)
    return g[o + F_ALIVE] != 0 and g[o + F_HP] > 0


@njit(inline="always", cache=True)
def occupant(g, h):
    """The living fighter on hex ``h``, or NO."""
    for i in range(g[H_F]):
        o = fb(g, i)
        if g[o + F_ALIVE] != 0 and g[o + F_POS] == h:
            return i
    return NO


@njit(inline="always", cache=True)
def can_enter(g, h):
    """``h`` exists, holds no large object and no living fighter (A-03)."""
    return h >= 0 and mult(g, h) > 0 and occupant(g, h) == NO


@njit(inline="always", cache=True)
def armour_class(g, t):
    """AC of ``t`` (A-02, A-05, A-06, M-03): agility and banked AP unless prone or
    aiding, plus the All-out Defence bonus unless prone."""
    o = fb(g, t)
    if g[o + F_POSTURE] == PRONE:
        return 0
    ac = g[o + F_BANKED] + (g[H_R_AOD_AC] if g[o + F_AOD] else 0)
    if g[o + F_AID_LEFT] == 0:
        ac += g[o + F_AGILITY]
    return ac


@njit(inline="always", cache=True)
def hit_chance(g, i, t, aimed, man):
    """A-07: skill - range penalty x distance - AC, aimed and All-out Attack bonuses, clamped."""
    o = fb(g, i)
    c = (g[o + F_SKILL] - g[H_R_RANGE_PENALTY] * dist(g, g[o + F_POS], field(g, t, F_POS))
         - armour_class(g, t))
    if aimed:
        c += g[H_R_AIMED_BONUS]
    if man == M_ALL_OUT_ATTACK:
        c += g[H_R_AOA_BONUS]
    return min(g[H_R_HIT_MAX], max(g[H_R_HIT_MIN], c))


@njit(inline="always", cache=True)
def move_points(g, d, mode, facing):
    """M-04: points to enter the hex in direction ``d`` (forward_points ahead or ahead
    turning one side; sideways_points forward-sideways without turning, sideways or
    backward) and the facing after it."""
    r = rel(d, facing)
    if r == 0:
        return g[H_R_FORWARD], facing
    if (r == 1 or r == 5) and mode == 0:
        return g[H_R_FORWARD], d
    return g[H_R_SIDEWAYS], facing


@njit(inline="always", cache=True)
def hex_ap(g, h):
    """A-03: AP to enter hex ``h``: hex_ap times its terrain multiplier, whatever
    the move points (M-04) the hex costs."""
    return g[H_R_HEX_AP] * mult(g, h)


# --- outcomes and damage ---------------------------------------------------------------

@njit(inline="always", cache=True)
def _check_end(g):
    """WIN when no monster lives, LOSS when no stalker is conscious."""
    monsters = 0
    awake = 0
    for i in range(g[H_F]):
        o = fb(g, i)
        if g[o + F_ALIVE] != 0:
            if g[o + F_SIDE] == 1:
                monsters += 1
            elif g[o + F_HP] > 0:
                awake += 1
    if monsters == 0:
        g[H_OUTCOME] = WIN
    elif awake == 0:
        g[H_OUTCOME] = LOSS


@njit(inline="always", cache=True)
def _damage(g, victim, amount, by_side, rec):
    """Deal ``amount`` (A-05 knockdown, A-06 unconscious, dead thresholds)."""
    o = fb(g, victim)
    g[o + F_HP] -= amount
    if g[o + F_SIDE] == 0:
        rec[R_TAKEN] += amount
    elif by_side == 0:
        rec[R_DEALT] += amount
    hp = g[o + F_HP]
    if g[o + F_SIDE] == 1:
        if hp <= 0:
            g[o + F_ALIVE] = 0
            rec[R_KILLS] += 1
    elif hp <= g[H_R_DEAD_AT]:
        g[o + F_ALIVE] = 0
    elif hp <= 0:
        g[o + F_POSTURE] = PRONE
        g[o + F_AID_LEFT] = 0
    if hp > 0 and 0 < g[H_R_KNOCKDOWN] <= amount:
        g[o + F_POSTURE] = PRONE


@njit(inline="always", cache=True)
def _enter(g, i, h, rng, rec):
    """Fighter ``i`` arrives on ``h``; a mine there goes off (A-05)."""
    o = fb(g, i)
    g[o + F_POS] = h
    dice = g[g[H_O_MINE] + h]
    if dice > 0:
        owner = g[g[H_O_OWNER] + h]
        g[g[H_O_MINE] + h] = 0
        dmg = roll(rng, owner, dice, 6) + field(g, owner, F_EXPL_BONUS) - g[o + F_DEFENCE]
        dmg = max(0, dmg)
        g[H_ROLL3] = dmg
        _damage(g, i, dmg, field(g, owner, F_SIDE), rec)


# --- actions ------------------------------------------------------------------------

@njit(inline="always", cache=True)
def _spend(g, o, ap, kind, rec):
    g[o + F_AP] -= ap
    if g[o + F_SIDE] == 0:
        rec[R_AP + kind] += ap


@njit(inline="always", cache=True)
def _pay_points(g, forward, p):
    """Points for a move; the sprint points pay a forward move's points first (M-06)."""
    if forward:
        s = min(g[H_SPRINT], p)
        g[H_SPRINT] -= s
        p -= s
    g[H_PTS] -= p


@njit(cache=True)
def _move(g, i, d, mode, rng, rec):
    """M-04, M-07, M-08, A-03: one hex, passing through an ally or evading an enemy.
    Points per M-04; AP per hex entered (A-03), whatever its points; an ally's hex
    costs ally_points more in points and in AP (M-07)."""
    o = fb(g, i)
    man = g[H_MAN]
    if (man == M_ATTACK or man == M_NONE or g[H_MOVE_LOCKED] or g[o + F_POSTURE] != STANDING or mode > 1
            or d > 5):
        return False
    p0, f0 = g[o + F_POS], g[o + F_FACING]
    h1 = nbr(g, p0, d)
    if h1 < 0 or mult(g, h1) == 0:
        return False
    r = rel(d, f0)
    if man == M_ALL_OUT_ATTACK and (r == 2 or r == 3 or r == 4):
        return False
    c1, f1 = move_points(g, d, mode, f0)
    forward = (r == 0) or ((r == 1 or r == 5) and mode == 0)
    other = occupant(g, h1)
    sprint = g[H_SPRINT] if forward else 0
    if other == NO:
        ap = hex_ap(g, h1)
        if c1 - sprint > g[H_PTS] or ap > g[o + F_AP]:
            return False
        _pay_points(g, forward, c1)
        _spend(g, o, ap, AP_MOVE, rec)
        g[o + F_FACING] = f1
        if not forward:
            g[H_FWD_ONLY] = 0
        _enter(g, i, h1, rng, rec)
        return True
    h2 = nbr(g, h1, d)
    if not can_enter(g, h2):
        return False
    ally = field(g, other, F_SIDE) == g[o + F_SIDE]
    extra = g[H_R_ALLY] if ally else 0
    c2, f2 = move_points(g, d, mode, f1)
    points = c1 + extra + c2
    ap1 = hex_ap(g, h1) + extra
    ap = ap1 + hex_ap(g, h2)
    if points - sprint > g[H_PTS] or ap > g[o + F_AP]:
        return False
    if not forward:
        g[H_FWD_ONLY] = 0
    if not ally and not _evade(g, i, other, d, rng):
        _pay_points(g, forward, c1)
        _spend(g, o, ap1, AP_MOVE, rec)
        g[o + F_FACING] = f1
        g[H_MOVE_LOCKED] = 1
        return True
    _pay_points(g, forward, points)
    _spend(g, o, ap, AP_MOVE, rec)
    g[o + F_FACING] = f2
    _enter(g, i, h2, rng, rec)
    return True


@njit(inline="always", cache=True)
def _evade(g, i, e, d, rng):
    """M-08: the quick contest of DX to get past enemy ``e``; insubstantial ones pass."""
    if field(g, i, F_INSUB) or field(g, e, F_INSUB):
        return True
    oe = fb(g, e)
    posture = g[oe + F_POSTURE]
    if posture == STANDING:
        mod = g[H_R_EV_STANDING]
    elif posture == KNEELING:
        mod = g[H_R_EV_KNEELING]
    else:
        mod = g[H_R_EV_PRONE]
    r = rel((d + 3) % 6, g[oe + F_FACING])  # the side of e the mover comes from
    if r == 2 or r == 4:
        mod += g[H_R_EV_SIDE]
    elif r == 3:
        mod += g[H_R_EV_BEHIND]
    r_m = roll(rng, i, g[H_R_EV_DICE], 6)  # d6: the game's die (Z-15)
    r_e = roll(rng, e, g[H_R_EV_DICE], 6)
    g[H_ROLL1] = r_m
    g[H_ROLL2] = r_e
    return field(g, i, F_DX) + mod - r_m > g[oe + F_DX] - r_e


@njit(inline="always", cache=True)
def _turn(g, i, a, rec):
    """M-05: turning during movement costs turn_points points and as many AP per hex side."""
    o = fb(g, i)
    man = g[H_MAN]
    if not (man == M_MOVE or man == M_MOVE_ATTACK or man == M_ALL_OUT_DEFENCE) or g[H_MOVE_LOCKED]:
        return False
    if a < 0 or a > 5 or a == g[o + F_FACING]:
        return False
    k = sides(g[o + F_FACING], a) * g[H_R_TURN]
    if k > g[H_PTS] or k > g[o + F_AP]:
        return False
    g[H_PTS] -= k
    _spend(g, o, k, AP_MOVE, rec)
    g[o + F_FACING] = a
    g[H_FWD_ONLY] = 0
    return True


@njit(cache=True)
def _step(g, i, a, b, rng, rec):
    """M-02: the Attack manoeuvre's step: one hex any way (A-03 AP, no move points),
    stay, or kneel/stand; any facing."""
    o = fb(g, i)
    if g[H_MAN] != M_ATTACK or g[H_STEP_USED] or b < 0 or b > 5 or a < 0 or a > KNEEL:
        return False
    posture = g[o + F_POSTURE]
    if a < STAY:
        h = nbr(g, g[o + F_POS], a)
        if posture != STANDING or not can_enter(g, h) or hex_ap(g, h) > g[o + F_AP]:
            return False
        g[H_STEP_USED] = 1
        _spend(g, o, hex_ap(g, h), AP_MOVE, rec)
        g[o + F_FACING] = b
        _enter(g, i, h, rng, rec)
        return True
    if a == KNEEL:
        if posture == PRONE or g[H_R_KNEEL] > g[o + F_AP]:
            return False
        g[o + F_POSTURE] = KNEELING if posture == STANDING else STANDING
        _spend(g, o, g[H_R_KNEEL], AP_MOVE, rec)
    g[H_STEP_USED] = 1
    g[o + F_FACING] = b
    return True


@njit(cache=True)
def _shoot(g, i, t, aimed, rng, rec):
    """A-07: a shot (or a monster's blow) at a living enemy in range and sight."""
    o = fb(g, i)
    man = g[H_MAN]
    if not (man == M_MOVE_ATTACK or man == M_ALL_OUT_ATTACK or man == M_ATTACK):
        return False
    if t < 0 or t >= g[H_F] or aimed > 1:
        return False
    ot = fb(g, t)
    if g[ot + F_ALIVE] == 0 or g[ot + F_SIDE] == g[o + F_SIDE]:
        return False
    p, q = g[o + F_POS], g[ot + F_POS]
    if dist(g, p, q) > g[o + F_RANGE] or not sight(g, p, q) or g[o + F_HAND] != FIREARM:
        return False
    if g[o + F_MAG_SIZE] > 0 and g[o + F_MAG] < 1:
        return False
    cost = g[o + F_AIMED_AP] if aimed else g[o + F_ATTACK_AP]
    if cost <= 0 or cost > g[o + F_AP]:
        return False
    _spend(g, o, cost, AP_SHOOT, rec)
    if g[o + F_MAG_SIZE] > 0:
        g[o + F_MAG] -= 1
    chance = hit_chance(g, i, t, aimed, man)
    r = pick(rng, i, 100) + 1
    g[H_ROLL1] = r
    g[H_ROLL2] = chance
    stalker = g[o + F_SIDE] == 0
    if stalker:
        rec[R_SHOTS] += 1
    if r <= chance:
        if stalker:
            rec[R_HITS] += 1
        dmg = max(0, roll(rng, i, g[o + F_DICE], 6) + g[o + F_BONUS] - g[ot + F_DEFENCE])
        g[H_ROLL3] = dmg
        _damage(g, t, dmg, g[o + F_SIDE], rec)
    return True


@njit(cache=True)
def _item_action(g, i, kind, a, rec):
    """A-04, A-05: reload, equip, use, pick up, stand up."""
    o = fb(g, i)
    ap = g[o + F_AP]
    if kind == RELOAD:
        cost = g[H_R_RELOAD]
        if (g[o + F_HAND] != FIREARM or g[o + F_MAG_SIZE] == 0 or g[o + F_MAG] >= g[o + F_MAG_SIZE]
                or g[o + F_SPARE] <= 0 or cost > ap):
            return False
        n = min(g[o + F_MAG_SIZE] - g[o + F_MAG], g[o + F_SPARE])
        g[o + F_MAG] += n
        g[o + F_SPARE] -= n
        _spend(g, o, cost, AP_RELOAD, rec)
        return True
    if kind == EQUIP:
        cost = g[H_R_EQUIP]
        if a == 0:
            have = g[o + F_FIREARM] >= 0
        elif a == 1:
            have = g[o + F_HEAL_N] > 0
        elif a == 2:
            have = g[o + F_HEAL_N_B] > 0
        else:
            return False
        if not have or g[o + F_HAND] == FIREARM + a or cost > ap:
            return False
        g[o + F_HAND] = FIREARM + a
        _spend(g, o, cost, AP_EQUIP, rec)
        return True
    if kind == USE:
        cost = g[H_R_USE]
        hand = g[o + F_HAND]
        if hand != HEAL_A and hand != HEAL_B:
            return False
        slot = F_HEAL_N if hand == HEAL_A else F_HEAL_N_B
        if g[o + slot] <= 0 or cost > ap:
            return False
        g[o + slot] -= 1
        g[o + F_HP] = min(g[o + F_MAX_HP], g[o + F_HP] + g[o + slot + 1])
        g[o + F_HAND] = EMPTY
        _spend(g, o, cost, AP_USE, rec)
        return True
    if kind == PICKUP:
        cost = g[H_R_PICKUP]
        if a < 0 or a >= g[H_F] or cost > ap:
            return False
        oc = fb(g, a)
        rounds = g[oc + F_MAG] + g[oc + F_SPARE]
        if (g[oc + F_ALIVE] != 0 or g[oc + F_SIDE] != 0 or g[oc + F_POS] != g[o + F_POS]
                or g[oc + F_FIREARM] < 0 or g[oc + F_FIREARM] != g[o + F_FIREARM] or rounds <= 0):
            return False
        g[o + F_SPARE] += rounds
        g[oc + F_MAG] = 0
        g[oc + F_SPARE] = 0
        _spend(g, o, cost, AP_PICKUP, rec)
        return True
    # STAND
    cost = g[H_R_STAND]
    if g[o + F_POSTURE] != PRONE or cost > ap:
        return False
    g[o + F_POSTURE] = STANDING
    _spend(g, o, cost, AP_STAND, rec)
    return True


@njit(inline="always", cache=True)
def _aid_valid(g, i, t):
    ot = fb(g, t)
    return (g[ot + F_ALIVE] != 0 and g[ot + F_HP] <= 0 and g[ot + F_SIDE] == field(g, i, F_SIDE)
            and dist(g, field(g, i, F_POS), g[ot + F_POS]) == 1)


@njit(inline="always", cache=True)
def _aid_complete(g, i, rng):
    """A-06: a use is spent; success wakes the ally at first_aid_hp, with no AP this round."""
    o = fb(g, i)
    g[o + F_MEDIC_USES] -= 1
    r = pick(rng, i, 100) + 1
    g[H_ROLL1] = r
    if r <= g[o + F_MEDIC_SKILL]:
        ot = fb(g, g[o + F_AID_TARGET])
        g[ot + F_HP] = g[H_R_AID_HP]
        g[ot + F_NO_AP_ROUND] = g[H_ROUND]


@njit(cache=True)
def _first_aid(g, i, t, rng, rec):
    """A-06: 10 AP on an unconscious adjacent ally, carried over if short."""
    o = fb(g, i)
    if (t < 0 or t >= g[H_F] or t == i or g[H_MAN] == M_ALL_OUT_ATTACK or g[o + F_MEDIC_USES] <= 0
            or g[o + F_AID_LEFT] > 0 or not _aid_valid(g, i, t)):
        return False
    spend = min(g[o + F_AP], g[H_R_FIRST_AID])
    g[o + F_AID_LEFT] = g[H_R_FIRST_AID] - spend
    g[o + F_AID_TARGET] = t
    _spend(g, o, spend, AP_FIRST_AID, rec)
    if g[o + F_AID_LEFT] == 0:
        _aid_complete(g, i, rng)
    return True


@njit(inline="always", cache=True)
def mine_spot(g, i):
    """The front hex if a mine can go there (A-05), else NO."""
    o = fb(g, i)
    h = nbr(g, g[o + F_POS], g[o + F_FACING])
    if h < 0 or mult(g, h) == 0 or occupant(g, h) != NO or g[g[H_O_MINE] + h] > 0:
        return NO
    return h


@njit(cache=True)
def _lay_mine(g, i, rng, rec):
    """A-05: 6 AP and a traps roll put an explosive in the front hex."""
    o = fb(g, i)
    h = mine_spot(g, i)
    if (g[o + F_EXPL_N] <= 0 or g[o + F_POSTURE] == PRONE or h == NO or g[H_MAN] == M_ALL_OUT_ATTACK
            or g[H_R_MINE] > g[o + F_AP]):
        return False
    _spend(g, o, g[H_R_MINE], AP_MINE, rec)
    r = pick(rng, i, 100) + 1
    g[H_ROLL1] = r
    if r <= g[o + F_TRAPS]:
        g[o + F_EXPL_N] -= 1
        g[g[H_O_MINE] + h] = g[o + F_EXPL_DICE]
        g[g[H_O_OWNER] + h] = i
    return True


@njit(cache=True)
def _end_turn(g, i, a, rec):
    """A-02 defend (banked AP), M-05 end-of-turn facing (free after spending at most
    half the points, rounded up; else end_turn_sides toward ``a``), M-06 sprint."""
    o = fb(g, i)
    man = g[H_MAN]
    f = g[o + F_FACING]
    if 0 <= a <= 5 and a != f:
        half = g[H_R_HALF]
        free = ((man == M_MOVE or man == M_MOVE_ATTACK) and g[H_PTS0] - g[H_PTS] <= (g[H_PTS0] + half - 1) // half
                or man == M_ALL_OUT_DEFENCE)
        if free:
            g[o + F_FACING] = a
        else:
            r = rel(a, f)
            k = min(g[H_R_END_SIDES], sides(a, f))
            g[o + F_FACING] = (f + (k if r <= 3 else 6 - k)) % 6
    ap = g[o + F_AP]
    if g[o + F_POSTURE] == PRONE or man == M_ALL_OUT_ATTACK or g[o + F_AID_LEFT] > 0:
        g[o + F_BANKED] = 0
    else:
        g[o + F_BANKED] = ap
    _spend(g, o, ap, AP_DEFEND, rec)
    g[o + F_AOD] = 1 if man == M_ALL_OUT_DEFENCE else 0
    g[o + F_SPRINT_NEXT] = 1 if (man == M_MOVE and g[o + F_LAST_MAN] == M_MOVE and g[H_PTS] == 0
                                 and g[H_SPRINT] == 0 and g[H_FWD_ONLY]) else 0
    g[o + F_LAST_MAN] = man


@njit(cache=True)
def apply(g, i, c, rng, rec):
    """Carry out action code ``c`` of fighter ``i``; False if it is illegal (nothing changes)."""
    kind, a, b = c & 255, (c >> 8) & 255, (c >> 16) & 255
    if c < 0:
        return False
    if kind == MOVE:
        return _move(g, i, a, b, rng, rec)
    if kind == TURN:
        return _turn(g, i, a, rec)
    if kind == STEP:
        return _step(g, i, a, b, rng, rec)
    if kind == SHOOT:
        return _shoot(g, i, a, b, rng, rec)
    if kind == RELOAD or kind == EQUIP or kind == USE or kind == PICKUP or kind == STAND:
        return _item_action(g, i, kind, a, rec)
    if kind == FIRST_AID:
        return _first_aid(g, i, a, rng, rec)
    if kind == LAY_MINE:
        return _lay_mine(g, i, rng, rec)
    return False


# --- turns, rounds, a skirmish ----------------------------------------------------------

@njit(inline="always", cache=True)
def _log(g, log, n, i, c, ok):
    if n < log.shape[0]:
        o = fb(g, i)
        row = log[n]
        row[L_ROUND], row[L_FIGHTER], row[L_CODE], row[L_OK] = g[H_ROUND], i, c, ok
        row[L_AP], row[L_POS], row[L_FACING], row[L_HP] = g[o + F_AP], g[o + F_POS], g[o + F_FACING], g[o + F_HP]
        row[L_ROLL1], row[L_ROLL2], row[L_ROLL3] = g[H_ROLL1], g[H_ROLL2], g[H_ROLL3]
    return n + 1


@njit(inline="always", cache=True)
def _clear_rolls(g):
    g[H_ROLL1] = 0
    g[H_ROLL2] = 0
    g[H_ROLL3] = 0


@njit(cache=True)
def take_turn(g, i, fn, rng, rec, log, n_log):
    """One turn of fighter ``i`` (A-02, A-06 carry-over, M-03); returns the log length."""
    o = fb(g, i)
    g[H_ACTOR] = i
    g[o + F_AP] = g[H_R_AP_BASE] + g[o + F_AGILITY] // g[H_R_AP_DIV]
    g[o + F_BANKED] = 0
    g[o + F_AOD] = 0
    g[H_MAN] = M_NONE
    if g[o + F_AID_LEFT] > 0:
        t = g[o + F_AID_TARGET]
        if _aid_valid(g, i, t):
            spend = min(g[o + F_AP], g[o + F_AID_LEFT])
            g[o + F_AID_LEFT] -= spend
            _spend(g, o, spend, AP_FIRST_AID, rec)
            if g[o + F_AID_LEFT] == 0:
                _clear_rolls(g)
                _aid_complete(g, i, rng)
        else:
            g[o + F_AID_LEFT] = 0
    if g[o + F_AP] == 0:
        _end_turn(g, i, KEEP, rec)
        return n_log
    g[H_STEP_USED] = 0
    g[H_MOVE_LOCKED] = 0
    g[H_FWD_ONLY] = 1
    g[H_SPRINT] = g[H_R_SPRINT] if g[o + F_SPRINT_NEXT] else 0
    _clear_rolls(g)
    c = fn(g, i)
    ok = (c & 255) == MANOEUVRE and ((c >> 8) & 255) <= M_ATTACK and c >= 0
    man = (c >> 8) & 255 if ok else M_MOVE_ATTACK
    if not ok:
        rec[R_ILLEGAL] += 1
    g[H_MAN] = man
    move = g[o + F_MOVE]
    half = g[H_R_HALF]
    pts = move if man == M_MOVE or man == M_MOVE_ATTACK else ((move + half - 1) // half if man != M_ATTACK else 0)
    g[H_PTS] = pts
    g[H_PTS0] = pts
    n_log = _log(g, log, n_log, i, c, ok)
    while True:
        _clear_rolls(g)
        c = fn(g, i)
        if (c & 255) == END and c >= 0 and ((c >> 8) & 255) <= KEEP:
            _end_turn(g, i, (c >> 8) & 255, rec)
            return _log(g, log, n_log, i, c, True)
        ok = apply(g, i, c, rng, rec)
        if not ok:
            rec[R_ILLEGAL] += 1
            _end_turn(g, i, KEEP, rec)
            return _log(g, log, n_log, i, c, False)
        n_log = _log(g, log, n_log, i, c, True)
        _check_end(g)
        if g[H_OUTCOME] >= 0 or not conscious(g, i):
            return n_log
        if g[o + F_AID_LEFT] > 0 or g[o + F_AP] == 0:
            _end_turn(g, i, KEEP, rec)
            return n_log


@njit(cache=True)
def new_skirmish(g, template, rng):
    """Reset the state of ``g`` (a copy of ``template``) and fix the sequence
    (A-01): sequence, then a sequence_die per fighter (SETUP stream, in index order), then index."""
    for k in range(HEADER):  # the arena's tables never change: only the state is reset
        g[k] = template[k]
    for k in range(g[H_O_MINE], g[H_O_SCRATCH]):
        g[k] = template[k]
    g[H_OUTCOME] = NO
    nf = g[H_F]
    order = g[H_O_ORDER]
    for i in range(nf):
        g[fb(g, i) + F_ORDER_KEY] = field(g, i, F_SEQUENCE) * (g[H_R_SEQ_DIE] + 1) + die(rng, SETUP, g[H_R_SEQ_DIE])
        g[order + i] = i
    for a in range(1, nf):  # insertion sort: higher key first, lower index on ties
        j = a
        while j > 0 and field(g, g[order + j], F_ORDER_KEY) > field(g, g[order + j - 1], F_ORDER_KEY):
            g[order + j], g[order + j - 1] = g[order + j - 1], g[order + j]
            j -= 1


# ``_nrt=False``: a skirmish allocates no array, so numba's reference counting
# is switched off; with it, every helper's array arguments cost an atomic
# increment and decrement per call (bench/skirmish.py).
@njit(cache=True, _nrt=False)
def play(g, template, rng, fns, rec, log):
    """One skirmish into ``rec``; ``log`` (rows ``L_*``) gets every strategy answer
    up to its length. Returns the number of answers."""
    new_skirmish(g, template, rng)
    for k in range(N_RECORD):
        rec[k] = 0
    n_log = 0
    nf = g[H_F]
    rnd = 0
    for rnd in range(1, g[H_R_MAX_ROUNDS] + 1):
        g[H_ROUND] = rnd
        for k in range(nf):
            i = g[g[H_O_ORDER] + k]
            o = fb(g, i)
            if conscious(g, i) and g[o + F_NO_AP_ROUND] != rnd:
                n_log = take_turn(g, i, fns[g[o + F_STRATEGY]], rng, rec, log, n_log)
            else:
                g[o + F_BANKED] = 0
            if g[H_OUTCOME] >= 0:
                break
        if g[H_OUTCOME] >= 0:
            break
    if g[H_OUTCOME] < 0:
        g[H_OUTCOME] = DRAW
    rec[R_OUTCOME] = g[H_OUTCOME]
    rec[R_ROUNDS] = rnd
    alive = 0
    party = g[H_PARTY]
    if g[H_OUTCOME] != LOSS:
        for i in range(party):
            alive += field(g, i, F_ALIVE) != 0
    rec[R_ALIVE] = alive
    rec[R_ALL_ALIVE] = alive == party
    return n_log


@njit(inline="always", cache=True)
def start_streams(rng, seed_mixed, trial, n_fighters):
    base = trial_base(seed_mixed, trial)
    for i in range(n_fighters):
        start_stream(rng, i, base, i)
    start_stream(rng, SETUP, base, SETUP)


_FNS = types.UniTuple(DecisionType, N_STRATEGIES)
_TURN_SIG = types.int64(types.int64[::1], types.int64, _FNS, types.uint64[::1], types.int64[::1],
                        types.int64[:, ::1])


@entry_point(_TURN_SIG)
def one_turn(g, i, fns, rng, rec, log):
    """One turn of fighter ``i`` with its strategy (for tests and tools); returns
    the number of answers logged."""
    return take_turn(g, i, fns[g[fb(g, i) + F_STRATEGY]], rng, rec, log, 0)
_RECORDS_SIG = types.void(types.int64, types.int64, types.int64, types.int64[::1], _FNS, types.int64[:, ::1],
                          types.int64[:, ::1], types.int64)


@entry_point(_RECORDS_SIG)
def skirmish_records(seed, first, n, template, fns, records, log, log_trial):
    """Skirmishes ``first .. first + n - 1`` one by one: ``records[k]`` the record
    of skirmish ``first + k``; the answers of skirmish ``log_trial`` go to ``log``."""
    g = template.copy()
    rng = np.zeros(RNG_SIZE, np.uint64)
    no_log = np.zeros((0, LOG_FIELDS), np.int64)
    seed_mixed = mix(np.uint64(seed))
    for k in range(n):
        start_streams(rng, seed_mixed, first + k, g[H_F])
        play(g, template, rng, fns, records[k], log if first + k == log_trial else no_log)


BLOCK = 1024
"""Skirmishes per parallel block; the sums do not depend on it."""


@njit(cache=True)
def _block_state(template):
    """A thread's own skirmish array, streams, record and (empty) log."""
    return (template.copy(), np.zeros(RNG_SIZE, np.uint64), np.zeros(N_RECORD, np.int64),
            np.zeros((0, LOG_FIELDS), np.int64))
T_TRIALS, T_OUTCOMES, T_RECORD, T_SQUARES, T_ROUNDS = 0, 1, 4, 4 + N_RECORD, 4 + 2 * N_RECORD
TALLY_SIZE = T_ROUNDS + 64
_RUN_SIG = types.void(types.int64, types.int64, types.int64, types.int64[::1], _FNS, types.int64[::1])


@entry_point(_RUN_SIG, parallel=True)
def run_skirmishes(seed, first, n, template, fns, tally):
    """Skirmishes ``first .. first + n - 1``: adds to ``tally`` the count, the
    outcomes, the sum and the sum of squares of every record field, and the
    rounds histogram (capped at 63). Integer sums: identical for any thread
    count or chunking."""
    n_blocks = (n + BLOCK - 1) // BLOCK
    tally_b = np.zeros((n_blocks, TALLY_SIZE), np.int64)
    seed_mixed = mix(np.uint64(seed))
    for b in prange(n_blocks):
        g, rng, rec, no_log = _block_state(template)
        t = tally_b[b]
        for k in range(first + b * BLOCK, min(first + n, first + (b + 1) * BLOCK)):
            start_streams(rng, seed_mixed, k, g[H_F])
            play(g, template, rng, fns, rec, no_log)
            t[T_TRIALS] += 1
            t[T_OUTCOMES + rec[R_OUTCOME]] += 1
            for f in range(N_RECORD):
                t[T_RECORD + f] += rec[f]
                t[T_SQUARES + f] += rec[f] * rec[f]
            t[T_ROUNDS + min(rec[R_ROUNDS], 63)] += 1
    tally += tally_b.sum(axis=0)


_SURVIVAL_SIG = types.void(types.int64, types.int64, types.int64, types.int64[::1], _FNS, types.int8[::1])


@entry_point(_SURVIVAL_SIG, parallel=True)
def skirmish_survival(seed, first, n, template, fns, out):
    """``out[k]`` = 1 if every stalker survives skirmish ``first + k`` (item values
    on common random numbers; identical for any thread count)."""
    n_blocks = (n + BLOCK - 1) // BLOCK
    seed_mixed = mix(np.uint64(seed))
    for b in prange(n_blocks):
        g, rng, rec, no_log = _block_state(template)
        for k in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            start_streams(rng, seed_mixed, first + k, g[H_F])
            play(g, template, rng, fns, rec, no_log)
            out[k] = rec[R_ALL_ALIVE]
