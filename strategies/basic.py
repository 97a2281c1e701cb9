"""The plain strategies: ``fighter`` and ``runner``.

fighter
    Never tries to escape. Attacks the first living monster. Throws explosives
    whenever it carries any, the one with the most dice first (Z-18). Uses no
    stimulator by choice: only at a death check, the fewest that bring HP to
    >= 1, the smaller ones first among equal counts (Z-08). Before a fight it
    uses medkits that fit under max HP without waste, largest first (Z-31).
runner
    The fighter, but always tries the escape roll first (Z-33).
"""

from sim.kernels.fight import (
    E_DICE, FIREARM, H_HEAL, H_IN_COMBAT, HP, IN_COMBAT, MAX_HP, N_EXPL, N_HEAL, N_MON, NONE,
    expl_n, expl_slot, fewest_rescue_pick, heal_n, heal_slot, mon_hp,
)
from strategies.base import Strategy, decision


@decision(never_tries=True)
def never(view, params):
    """Never try the escape roll."""
    return 0


@decision
def always(view, params):
    """Always try the escape roll (Z-33)."""
    return 1


@decision
def first_alive(view, params):
    """Attack the lowest-index living monster."""
    for m in range(view[N_MON]):
        if view[mon_hp(view, m)] > 0:
            return m
    return 0


@decision
def biggest_explosive(view, params):
    """The carried explosive with the most dice (earliest on ties), else the firearm."""
    best, best_dice = FIREARM, 0
    for e in range(view[N_EXPL]):
        o = expl_slot(view, e)
        if view[expl_n(view, e)] > 0 and view[o + E_DICE] > best_dice:
            best, best_dice = e, view[o + E_DICE]
    return best


@decision(out_of_combat_only=True)
def medkits_before_fight(view, params):
    """Out of combat: the largest medkit that heals without waste (Z-31). In combat: nothing."""
    if view[IN_COMBAT] != 0:
        return NONE
    room = view[MAX_HP] - view[HP]
    best, best_heal = NONE, 0
    for i in range(view[N_HEAL]):
        o = heal_slot(view, i)
        if view[o + H_IN_COMBAT] == 0 and view[heal_n(view, i)] > 0 and best_heal < view[o + H_HEAL] <= room:
            best, best_heal = i, view[o + H_HEAL]
    return best


@decision
def fewest_stims(view, params):
    """Z-08: the fewest stimulators that bring HP to >= 1, smaller first."""
    return fewest_rescue_pick(view)


FIGHTER = Strategy(
    name="fighter",
    description="fights to the end; explosives first, biggest first; stimulators only to cheat death",
    escape=never, target=first_alive, weapon=biggest_explosive,
    heal=medkits_before_fight, rescue=fewest_stims,
)

RUNNER = Strategy(
    name="runner",
    description="always tries the escape roll, then fights like fighter",
    escape=always, target=first_alive, weapon=biggest_explosive,
    heal=medkits_before_fight, rescue=fewest_stims,
)
