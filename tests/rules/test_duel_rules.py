"""One monster is fought by ``_duel_rounds``, several by ``_melee_rounds`` (Z-38).
The duel must be the melee with the target fixed: a fight against the same
monster plus a second one already dead (so the melee rounds run, and the dead
one never rolls) gives the same outcome, rounds, HP and items, trial for trial."""

import numpy as np
import pytest

import strategies
from sim.kernels import fight as K
from sim.reference.loadout import loadout_from_dict
from sim.run.fight import fight_template
from strategies.base import Strategy, decision
from strategies.basic import always, biggest_explosive, first_alive, medkits_before_fight


@decision
def stim_when_low(view, params):
    """In combat, the last carried stimulator while HP < 10 and the monsters
    have more than 5 hp left between them; out of combat, medkits."""
    if view[K.IN_COMBAT] == 0:
        return medkits_before_fight(view, params)
    monsters_hp = 0
    for m in range(view[K.N_MON]):
        monsters_hp += max(0, view[K.mon_hp(view, m)])
    if view[K.HP] >= 10 or monsters_hp <= 5:
        return K.NONE
    for i in range(view[K.N_HEAL] - 1, -1, -1):
        if view[K.heal_n(view, i)] > 0 and view[K.heal_slot(view, i) + K.H_IN_COMBAT] != 0:
            return i
    return K.NONE


@decision
def largest_stim_first(view, params):
    """At a death check, the carried stimulator with the biggest heal."""
    best, best_heal = K.NONE, 0
    for i in range(view[K.N_HEAL]):
        o = K.heal_slot(view, i)
        if view[K.heal_n(view, i)] > 0 and view[o + K.H_IN_COMBAT] != 0 and view[o + K.H_HEAL] > best_heal:
            best, best_heal = i, view[o + K.H_HEAL]
    return best


HEALER = Strategy(name="healer", description="stimulators in combat below 10 HP; biggest first at a death check",
                  escape=always, target=first_alive, weapon=biggest_explosive, heal=stim_when_low,
                  rescue=largest_stim_first)

CASES = {
    "bench": ({"weapon": "ak47", "body": "vest", "healing": {"stimulator": 2}}, "bloodsucker", "fighter"),
    "explosives": ({"weapon": "ak47", "explosives": {"molotov": 2, "limonka": 1, "ppv": 1},
                    "healing": {"stimulator": 1}}, "chimera", "fighter"),
    "no_weapon": ({"character": "mazhor", "explosives": {"molotov": 2}}, "snork", "fighter"),
    "unarmed": ({"head": "helmet", "healing": {"stimulator": 1}}, "flesh", "fighter"),
    "medkits": ({"character": "verzila", "weapon": "berdanka", "hp": 12,
                 "healing": {"medkit": 3, "stimulator": 1}}, "snork", "fighter"),
    "escape": ({"weapon": "ak47", "escape_item": "camo_cloak", "reputation": 5,
                "healing": {"stimulator": 1}}, "chimera", "runner"),
    "tactician": ({"weapon": "ak47", "explosives": {"limonka": 2}, "reputation": 4,
                   "healing": {"stimulator": 2, "combat_stimulator": 1}}, "bloodsucker", "tactician"),
    "healer": ({"character": "doktor", "weapon": "ak47", "reputation": 6,
                "healing": {"stimulator": 3, "combat_stimulator": 2}}, "chimera", HEALER),
}


def melee_template(content, loadout, monster):
    """The fight against ``monster`` plus a second, dead one: the melee rounds' view."""
    template, _ = fight_template(content, loadout, [monster, monster])
    template[K.mon_hp(template, 1)] = 0
    template[K.N_ALIVE] = 1
    return template


def outcomes(template, strategy, seed, n):
    out = np.empty(n, np.int8)
    K.fight_outcomes(seed, 0, n, template, strategy.param_vector(), strategy.asks(), *strategy.decisions(), out)
    return out


def sums(template, strategy, seed, n):
    counts = np.zeros(len(K.OUTCOMES), np.int64)
    rounds = np.zeros(template[K.MAX_ROUNDS] + 1, np.int64)
    hp = np.zeros(template[K.MAX_HP] + 1, np.int64)
    used = np.zeros(template[K.N_HEAL] + template[K.N_EXPL], np.int64)
    K.run_fights(seed, 0, n, template, strategy.param_vector(), strategy.asks(), *strategy.decisions(),
                 counts, rounds, hp, used)
    return counts, rounds, hp, used


@pytest.mark.parametrize("case", sorted(CASES))
def test_z38_duel_rounds_equal_melee_rounds(content, case):
    loadout, monster, strategy = CASES[case]
    loadout = loadout_from_dict(loadout)
    strategy = strategies.get(strategy) if isinstance(strategy, str) else strategy
    duel, _ = fight_template(content, loadout, [monster])
    melee = melee_template(content, loadout, monster)
    n = 20_000
    assert np.array_equal(outcomes(duel, strategy, 31, n), outcomes(melee, strategy, 31, n))
    duel_sums, melee_sums = sums(duel, strategy, 32, n), sums(melee, strategy, 32, n)
    for a, b in zip(duel_sums, melee_sums):
        assert np.array_equal(a, b)
    rounds = duel_sums[1]
    assert np.count_nonzero(rounds) >= 2  # the fights vary, so equal sums mean something
