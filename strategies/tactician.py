"""``tactician``: judges the fight before and during it.

- escape (Z-33): tries the roll when the damage race looks lost: the rounds it
  needs to kill every monster exceed ``flee_ratio`` x the rounds it can last
  (HP plus the stimulators' reserve over the expected damage taken per round).
- target: the monster whose expected damage per round, per round needed to
  kill it, is highest (kill the most dangerous per bullet first).
- weapon (Z-18): keeps explosives; throws the smallest one whose mean damage
  finishes the target when the firearm's would not; throws the biggest when
  its HP plus reserve lasts fewer than ``danger_rounds`` rounds.
- heal and rescue: as fighter (medkits before the fight, stimulators only at
  death checks, the fewest).

params: ``[flee_ratio, danger_rounds]``, default ``[1.0, 2.0]``.
"""

import numpy as np
from numba import njit

from sim.kernels.dice import expected_damage
from sim.kernels.fight import (
    DEFENCE, E_DICE, EXPLOSIVE_BONUS, FIREARM, FIREARM_BONUS, FIREARM_DICE,
    HP, M_BONUS, M_DEFENCE, M_DICE, N_EXPL, N_MON, TARGET,
    expl_n, expl_slot, mon_hp, mon_slot, rescue_reserve,
)
from strategies.base import Strategy, decision
from strategies.basic import fewest_stims, medkits_before_fight


@njit(cache=True)
def _firearm_damage(view, defence):
    """Mean firearm damage against ``defence`` (floored to keep ratios finite)."""
    if view[FIREARM_DICE] == 0:
        return 1e-3
    return max(1e-3, expected_damage(view[FIREARM_DICE], view[FIREARM_BONUS], defence))


@njit(cache=True)
def _incoming(view):
    """Mean damage the living monsters deal per round through the stalker's armour."""
    total = 0.0
    for m in range(view[N_MON]):
        o = mon_slot(view, m)
        if view[mon_hp(view, m)] > 0:
            total += expected_damage(view[o + M_DICE], view[o + M_BONUS], view[DEFENCE])
    return max(total, 1e-3)


@njit(cache=True)
def _rounds_left(view):
    """Rounds the stalker lasts on mean incoming damage, stimulators included."""
    return (view[HP] + rescue_reserve(view)) / _incoming(view)




@decision
def judge_escape(view, params):
    """Try to escape when the kill takes longer than ``flee_ratio`` x the rounds left."""
    to_kill = 0.0
    for m in range(view[N_MON]):
        o = mon_slot(view, m)
        if view[mon_hp(view, m)] > 0:
            to_kill += view[mon_hp(view, m)] / _firearm_damage(view, view[o + M_DEFENCE])
    return 1 if to_kill > params[0] * _rounds_left(view) else 0


@decision
def most_dangerous(view, params):
    """The living monster with the highest damage per round-to-kill."""
    best, best_score = 0, -1.0
    for m in range(view[N_MON]):
        o = mon_slot(view, m)
        if view[mon_hp(view, m)] <= 0:
            continue
        threat = expected_damage(view[o + M_DICE], view[o + M_BONUS], view[DEFENCE])
        score = threat * _firearm_damage(view, view[o + M_DEFENCE]) / view[mon_hp(view, m)]
        if score > best_score:
            best, best_score = m, score
    return best


@decision
def finisher_or_panic(view, params):
    """Biggest explosive when in danger, the smallest finishing one otherwise, else the firearm."""
    t = view[TARGET]
    hp, defence = view[mon_hp(view, t)], view[mon_slot(view, t) + M_DEFENCE]
    panic = _rounds_left(view) < params[1]
    best, best_dice = FIREARM, 0
    finisher, finisher_dice = FIREARM, 1 << 30
    for e in range(view[N_EXPL]):
        x = expl_slot(view, e)
        if view[expl_n(view, e)] <= 0:
            continue
        dice = view[x + E_DICE]
        if dice > best_dice:
            best, best_dice = e, dice
        if dice < finisher_dice and expected_damage(dice, view[EXPLOSIVE_BONUS], defence) >= hp:
            finisher, finisher_dice = e, dice
    if panic:
        return best
    if _firearm_damage(view, defence) < hp:
        return finisher
    return FIREARM


TACTICIAN = Strategy(
    name="tactician",
    description="flees a lost damage race, kills the most dangerous first, saves explosives to finish or in danger",
    escape=judge_escape, target=most_dangerous, weapon=finisher_or_panic,
    heal=medkits_before_fight, rescue=fewest_stims,
    params=np.array([1.0, 2.0]), param_names=("flee_ratio", "danger_rounds"),
)
