"""The dice fight: one stalker against one or more monsters (Z-08, Z-15..Z-24,
Z-31..Z-33, Z-37, Z-38).

A fight's whole state is one ``int64`` array, the *view*, that strategies read
(and never write). The header slots are the constants below. After the header
come the per-fight counters, then the constant per-type stats, then scratch;
each section starts at the offset stored in a header slot:

- ``HEAL_N0``: carried count of each healing type (content order);
- ``EXPL_N0``: carried count of each explosive type (content order);
- ``MON_HP0``: hp of each monster (fight order); the state ends at ``STATE_END``;
- ``HEAL0``: ``HEAL_SLOTS`` per healing type: heal per use (the item's heal plus
  the character's bonus, Z-03), 1 if usable in combat (Z-31);
- ``EXPL0``: ``EXPL_SLOTS`` per explosive type: dice;
- ``MON0``: ``MON_SLOTS`` per monster: max hp, dice, bonus, defence;
- ``SCRATCH0``: ``2 * n_heal`` slots the kernel's own helpers may overwrite.

Everything a fight changes lies before ``STATE_END``, so a new trial restores
its state with one contiguous copy from the template.

Randomness per trial: stream ``STALKER`` for the stalker's attack dice,
``MONSTER`` for every monster's attack dice, ``ESCAPE_ROLL`` for the escape roll.
"""

import numpy as np
from numba import njit, prange, types

from sim.kernels import entry_point
from sim.kernels.rng import (
    STATE_SIZE, die, first_word, mix, roll, set_stream_at_first_word, start_stream, stream_key, trial_base,
)

# --- view header: what a fight changes ...
HP, ROUND, IN_COMBAT, N_ALIVE, TARGET = 0, 1, 2, 3, 4
HEALS_LEFT, STIMS_LEFT, EXPL_LEFT = 5, 6, 7  # carried healing items, in-combat ones, explosives
RESERVE = 8  # HP the carried in-combat healing items could restore (Z-08)
ONLY_STIM = 9  # the one in-combat healing type still carried, or NONE if none or several
# ... and what it does not
MAX_HP, DEFENCE, FIREARM_DICE, FIREARM_BONUS = 10, 11, 12, 13
EXPLOSIVE_BONUS, HEAL_BONUS, REPUTATION, ESCAPE_AUTO_MAX, MAX_ROUNDS = 14, 15, 16, 17, 18
N_HEAL, N_EXPL, N_MON = 19, 20, 21
HEAL_N0, EXPL_N0, MON_HP0, STATE_END = 22, 23, 24, 25
HEAL0, EXPL0, MON0, SCRATCH0 = 26, 27, 28, 29
HEADER = 30
HEAL_SLOTS, EXPL_SLOTS, MON_SLOTS = 2, 1, 4
# offsets inside a stats entry
H_HEAL, H_IN_COMBAT = 0, 1
E_DICE = 0
M_MAX_HP, M_DICE, M_BONUS, M_DEFENCE = 0, 1, 2, 3

# --- outcomes, in the order of the ``counts`` aggregate
WIN, DRAW, ESCAPE, DEATH = 0, 1, 2, 3
OUTCOMES = ("win", "draw", "escape", "death")

# --- random stream purposes
STALKER, MONSTER, ESCAPE_ROLL = 0, 1, 2
MAX_STREAMS = 8  # an ``rng`` array holds up to this many streams (journeys add their own)
TRIAL_BASE = STATE_SIZE * MAX_STREAMS  # slot of ``rng`` holding the trial's key base
ESCAPE_KEYED = TRIAL_BASE + 1  # nonzero once the trial's escape stream is keyed
RNG_SIZE = ESCAPE_KEYED + 1

FIREARM = -1
NONE = -1

# --- the decisions a strategy may take (bits of ``asks``)
ASK_ESCAPE, ASK_HEAL_IN_COMBAT = 1, 2

DECISION = types.int64(types.int64[::1], types.float64[::1])
"""Every fight decision: ``decide(view, params) -> int``.

- ``escape``: nonzero to try the escape roll before the first round (Z-33).
- ``target``: index of the living monster to attack; asked while several live.
- ``weapon``: ``FIREARM`` (-1) or the index of a carried explosive (Z-18); asked
  while an explosive is carried.
- ``heal``: index of a healing item to use now, or ``NONE`` to stop; asked
  before the fight (``view[IN_COMBAT] == 0``, medkits allowed) and, for
  strategies that heal in combat, at the start of each round (stimulators
  only, Z-31); never at full HP, where healing is wasted.
- ``rescue``: index of the stimulator to use at a death check (Z-08); asked
  until HP >= 1 while several kinds are carried (with one kind there is no
  choice). An invalid answer falls back to ``fewest_rescue_pick``.

A decision is not asked where the rules leave only one legal answer.
"""
DecisionType = types.FunctionType(DECISION)


def layout(view, n_heal, n_expl, n_mon):
    """Write the section offsets of a view with these block sizes into its header."""
    view[HEAL_N0] = HEADER
    view[EXPL_N0] = view[HEAL_N0] + n_heal
    view[MON_HP0] = view[EXPL_N0] + n_expl
    view[STATE_END] = view[MON_HP0] + n_mon
    view[HEAL0] = view[STATE_END]
    view[EXPL0] = view[HEAL0] + HEAL_SLOTS * n_heal
    view[MON0] = view[EXPL0] + EXPL_SLOTS * n_expl
    view[SCRATCH0] = view[MON0] + MON_SLOTS * n_mon
    view[N_HEAL], view[N_EXPL], view[N_MON] = n_heal, n_expl, n_mon


def view_size(n_heal, n_expl, n_mon):
    """Length of a view with these block sizes."""
    return HEADER + (1 + HEAL_SLOTS + 2) * n_heal + (1 + EXPL_SLOTS) * n_expl + (1 + MON_SLOTS) * n_mon


# --- small view helpers, shared with strategies


@njit(inline="always", cache=True)
def heal_n(view, i):
    """Offset of the carried count of healing type ``i``."""
    return view[HEAL_N0] + i


@njit(inline="always", cache=True)
def expl_n(view, e):
    """Offset of the carried count of explosive type ``e``."""
    return view[EXPL_N0] + e


@njit(inline="always", cache=True)
def mon_hp(view, m):
    """Offset of monster ``m``'s hp."""
    return view[MON_HP0] + m


@njit(inline="always", cache=True)
def heal_slot(view, i):
    """Offset of healing type ``i``'s stats."""
    return view[HEAL0] + HEAL_SLOTS * i


@njit(inline="always", cache=True)
def expl_slot(view, e):
    """Offset of explosive type ``e``'s stats."""
    return view[EXPL0] + EXPL_SLOTS * e


@njit(inline="always", cache=True)
def mon_slot(view, m):
    """Offset of monster ``m``'s stats."""
    return view[MON0] + MON_SLOTS * m


@njit(cache=True)
def only_stim(view):
    """The one in-combat healing type carried, or ``NONE`` if none or several."""
    found = NONE
    for i in range(view[N_HEAL]):
        if view[heal_n(view, i)] > 0 and view[heal_slot(view, i) + H_IN_COMBAT] != 0:
            if found != NONE:
                return NONE
            found = i
    return found


@njit(cache=True)
def recount(view):
    """Recompute the derived state (items left, reserve, the only stimulator)
    from the carried counts, after counts are set from outside a fight."""
    heals, stims, reserve = 0, 0, 0
    for i in range(view[N_HEAL]):
        n = view[heal_n(view, i)]
        heals += n
        if view[heal_slot(view, i) + H_IN_COMBAT] != 0:
            stims += n
            reserve += n * view[heal_slot(view, i) + H_HEAL]
    view[HEALS_LEFT], view[STIMS_LEFT], view[RESERVE] = heals, stims, reserve
    explosives = 0
    for e in range(view[N_EXPL]):
        explosives += view[expl_n(view, e)]
    view[EXPL_LEFT] = explosives
    view[ONLY_STIM] = only_stim(view)


@njit(inline="always", cache=True)
def rescue_reserve(view):
    """Total HP the carried in-combat healing items could restore (Z-08)."""
    return view[RESERVE]


@njit(cache=True)
def fewest_rescue_pick(view):
    """The stimulator to use next at a death check (Z-08): of the multisets of
    carried in-combat healing items that bring HP to >= 1, the fewest items,
    then the smallest total heal, then the most of the earlier items; its
    smallest item (earliest on ties). ``NONE`` if no multiset suffices.

    Works in the view's scratch block (two counters per healing type), so a
    death check allocates nothing.
    """
    n = view[N_HEAL]
    need = 1 - view[HP]
    single = NONE  # fast path: the smallest item that is enough alone is the answer
    for i in range(n):
        o = heal_slot(view, i)
        if view[heal_n(view, i)] > 0 and view[o + H_IN_COMBAT] != 0 and view[o + H_HEAL] >= need:
            if single == NONE or view[o + H_HEAL] < view[heal_slot(view, single) + H_HEAL]:
                single = i
    if single != NONE:
        return single
    trial, best = view[SCRATCH0], view[SCRATCH0] + n
    for i in range(n):
        view[trial + i] = 0
        view[best + i] = -1
    best_items, best_total = 1 << 40, 1 << 40
    while True:
        items, total = 0, 0
        for i in range(n):
            items += view[trial + i]
            total += view[trial + i] * view[heal_slot(view, i) + H_HEAL]
        if total >= need:
            better = items < best_items or (items == best_items and total < best_total)
            if items == best_items and total == best_total:
                for i in range(n):
                    if view[trial + i] != view[best + i]:
                        better = view[trial + i] > view[best + i]
                        break
            if better:
                for i in range(n):
                    view[best + i] = view[trial + i]
                best_items, best_total = items, total
        # next composition (mixed radix over carried in-combat counts)
        i = 0
        while i < n:
            o = heal_slot(view, i)
            cap = view[heal_n(view, i)] if view[o + H_IN_COMBAT] != 0 else 0
            if view[trial + i] < cap:
                view[trial + i] += 1
                break
            view[trial + i] = 0
            i += 1
        if i == n:
            break
    pick = NONE
    for i in range(n):
        if view[best + i] > 0 and (pick == NONE or view[heal_slot(view, i) + H_HEAL] < view[heal_slot(view, pick) + H_HEAL]):
            pick = i
    return pick


# --- the fight itself


@njit(inline="always", cache=True)
def _use_heal(view, i, used):
    """Spend one healing item ``i``; HP stops at max (Z-31)."""
    o = heal_slot(view, i)
    view[heal_n(view, i)] -= 1
    view[HEALS_LEFT] -= 1
    if view[o + H_IN_COMBAT] != 0:
        view[STIMS_LEFT] -= 1
        view[RESERVE] -= view[o + H_HEAL]
        if view[heal_n(view, i)] == 0:
            view[ONLY_STIM] = only_stim(view)
    view[HP] = min(view[MAX_HP], view[HP] + view[o + H_HEAL])
    used[i] += 1


@njit(inline="always", cache=True)
def _can_heal(view):
    """True if a carried healing item may be used now and could add HP (Z-31:
    healing stops at max HP, so at full health any use is wasted)."""
    if view[HP] >= view[MAX_HP]:
        return False
    return view[STIMS_LEFT] > 0 if view[IN_COMBAT] != 0 else view[HEALS_LEFT] > 0


@njit(inline="always", cache=True)
def _heal_phase(view, params, heal, used):
    """Heal by choice: medkits only out of combat, stimulators any time (Z-31).
    The strategy is asked only while some item could be used."""
    if _can_heal(view):
        _heal_by_choice(view, params, heal, used)


@njit(cache=True)
def _heal_by_choice(view, params, heal, used):
    """``_heal_phase``'s asking loop; not inlined: the kernels call it only when
    healing is possible, and compile one copy."""
    while _can_heal(view):
        i = heal(view, params)
        if i < 0 or i >= view[N_HEAL]:
            return
        if view[heal_n(view, i)] <= 0 or (view[IN_COMBAT] != 0 and view[heal_slot(view, i) + H_IN_COMBAT] == 0):
            return
        _use_heal(view, i, used)


@njit(inline="always", cache=True)
def _death_check(view, params, rescue, used):
    """Z-08: at HP <= 0 the stalker dies unless his stimulators can bring HP to
    >= 1; then they are spent one at a time until they do. True if dead."""
    if view[HP] + rescue_reserve(view) < 1:
        return True
    while view[HP] < 1 and view[ONLY_STIM] != NONE:  # one kind of stimulator left: nothing to choose
        _use_heal(view, view[ONLY_STIM], used)
    if view[HP] < 1:
        _rescue_by_choice(view, params, rescue, used)
    return False


@njit(cache=True)
def _rescue_by_choice(view, params, rescue, used):
    """The strategy picks each stimulator while several kinds are carried (an
    invalid answer falls back to ``fewest_rescue_pick``), until HP >= 1."""
    while view[HP] < 1:
        i = view[ONLY_STIM]
        if i == NONE:
            i = rescue(view, params)
            valid = 0 <= i < view[N_HEAL]
            if valid:
                valid = view[heal_n(view, i)] > 0 and view[heal_slot(view, i) + H_IN_COMBAT] != 0
            if not valid:
                i = fewest_rescue_pick(view)
        _use_heal(view, i, used)


@njit(inline="always", cache=True)
def _stalker_attack(view, params, rng, target, weapon, used):
    """Z-15..Z-21, Z-38: one attack on the chosen monster, firearm or one explosive."""
    t = 0
    if view[N_MON] > 1:
        t = target(view, params) if view[N_ALIVE] > 1 else -1
        if t < 0 or t >= view[N_MON] or view[mon_hp(view, t)] <= 0:
            t = 0
            while view[mon_hp(view, t)] <= 0:
                t += 1
        view[TARGET] = t
    w = weapon(view, params) if view[EXPL_LEFT] > 0 else FIREARM
    if w != FIREARM and (w < 0 or w >= view[N_EXPL] or view[expl_n(view, w)] <= 0):
        w = FIREARM
    if w == FIREARM:
        if view[FIREARM_DICE] == 0:
            return
        damage = roll(rng, STALKER, view[FIREARM_DICE], 6) + view[FIREARM_BONUS]
    else:
        view[expl_n(view, w)] -= 1
        view[EXPL_LEFT] -= 1
        used[view[N_HEAL] + w] += 1
        damage = roll(rng, STALKER, view[expl_slot(view, w) + E_DICE], 6) + view[EXPLOSIVE_BONUS]
    damage -= view[mon_slot(view, t) + M_DEFENCE]
    if damage > 0:
        h = mon_hp(view, t)
        view[h] -= damage
        if view[h] <= 0:
            view[N_ALIVE] -= 1


@njit(cache=True)
def _attack_by_choice(view, params, rng, target, weapon, used):
    """``_stalker_attack`` as one compiled call, for duel rounds with an
    explosive to choose (a copy fewer to compile)."""
    _stalker_attack(view, params, rng, target, weapon, used)


@njit(inline="always", cache=True)
def fight_once(view, params, asks, rng, escape, target, weapon, heal, rescue, used):
    """Resolve one fight on a freshly reset ``view``; returns the outcome code.
    ``asks`` holds ``ASK_ESCAPE`` if the strategy may try to escape and
    ``ASK_HEAL_IN_COMBAT`` if it may heal by choice in combat; decisions a
    strategy declares it never takes are not asked.
    ``view[ROUND]`` ends as the rounds fought (0 for an escape), ``view[HP]``
    as the HP left."""
    view[IN_COMBAT] = 0
    _heal_phase(view, params, heal, used)
    if asks & ASK_ESCAPE and escape(view, params) != 0:  # Z-33
        rep = view[REPUTATION]
        if rep <= view[ESCAPE_AUTO_MAX]:
            return ESCAPE
        if rng[ESCAPE_KEYED] == 0:  # keyed on the trial's first escape roll
            start_stream(rng, ESCAPE_ROLL, rng[TRIAL_BASE], ESCAPE_ROLL)
            rng[ESCAPE_KEYED] = 1
        if die(rng, ESCAPE_ROLL, 6) >= rep:
            return ESCAPE
    view[IN_COMBAT] = 1
    if view[N_MON] == 1:
        return _duel_rounds(view, params, asks, rng, target, weapon, heal, rescue, used)
    return _melee_rounds(view, params, asks, rng, target, weapon, heal, rescue, used)


@njit(inline="always", cache=True)
def _melee_rounds(view, params, asks, rng, target, weapon, heal, rescue, used):
    """The rounds of a fight against several monsters (Z-38: a draw after the last)."""
    for r in range(1, view[MAX_ROUNDS] + 1):
        view[ROUND] = r
        if asks & ASK_HEAL_IN_COMBAT:
            _heal_phase(view, params, heal, used)
        _stalker_attack(view, params, rng, target, weapon, used)
        if view[N_ALIVE] == 0:
            return WIN
        for m in range(view[N_MON]):
            if view[mon_hp(view, m)] <= 0:
                continue
            o = mon_slot(view, m)
            damage = roll(rng, MONSTER, view[o + M_DICE], 6) + view[o + M_BONUS] - view[DEFENCE]
            if damage > 0:  # Z-23
                view[HP] -= damage
                if view[HP] <= 0 and _death_check(view, params, rescue, used):
                    return DEATH
    return DRAW


@njit(inline="always", cache=True)
def _write_back(view, r, h, hp, monster_hp):
    """Put a duel's round, HP and the monster's hp, held in locals, into the view."""
    view[ROUND] = r
    view[HP] = hp
    view[h] = monster_hp


@njit(inline="always", cache=True)
def _duel_rounds(view, params, asks, rng, target, weapon, heal, rescue, used):
    """``_melee_rounds`` against one monster: the same rules and dice, with the
    hot state (the round, HP, the monster's hp, the damage terms) held in locals
    and written back to the view before anything reads it (a decision, the
    death check) and at the end, so every decision still reads a current view.
    Rounds with a firearm attack and nothing to decide skip ``_stalker_attack``."""
    h, o = mon_hp(view, 0), mon_slot(view, 0)
    hp, monster_hp = view[HP], view[h]
    firearm_dice = view[FIREARM_DICE]
    firearm_bonus = view[FIREARM_BONUS] - view[o + M_DEFENCE]
    monster_dice, monster_bonus = view[o + M_DICE], view[o + M_BONUS] - view[DEFENCE]
    max_rounds = view[MAX_ROUNDS]
    for r in range(1, max_rounds + 1):  # Z-38
        if asks & ASK_HEAL_IN_COMBAT:
            _write_back(view, r, h, hp, monster_hp)
            _heal_phase(view, params, heal, used)
            hp = view[HP]
        if view[EXPL_LEFT] > 0:  # a weapon to choose (Z-18)
            _write_back(view, r, h, hp, monster_hp)
            _attack_by_choice(view, params, rng, target, weapon, used)
            monster_hp = view[h]
        elif firearm_dice > 0:
            damage = roll(rng, STALKER, firearm_dice, 6) + firearm_bonus
            if damage > 0:
                monster_hp -= damage
        if monster_hp <= 0:
            _write_back(view, r, h, hp, monster_hp)
            view[N_ALIVE] = 0
            return WIN
        damage = roll(rng, MONSTER, monster_dice, 6) + monster_bonus
        if damage > 0:  # Z-23
            hp -= damage
            if hp <= 0:
                _write_back(view, r, h, hp, monster_hp)
                if _death_check(view, params, rescue, used):
                    return DEATH
                hp = view[HP]
    _write_back(view, max_rounds, h, hp, monster_hp)
    return DRAW


@njit(inline="always", cache=True)
def _reset(view, template):
    """Restore a fight's state (everything before ``STATE_END``) from ``template``."""
    for k in range(template[STATE_END]):
        view[k] = template[k]


@njit(inline="always", cache=True)
def _trial_keys(seed_mixed, trial):
    """A trial's key base and the keys of its stalker and monster streams."""
    base = trial_base(seed_mixed, trial)
    stalker, monster = stream_key(base, STALKER), stream_key(base, MONSTER)
    return base, stalker, first_word(stalker), monster, first_word(monster)


@njit(inline="always", cache=True)
def _start_trial(rng, keys):
    """Start a trial's streams from its ``_trial_keys``; its escape stream is
    keyed only if the trial rolls to escape."""
    base, stalker, stalker_word, monster, monster_word = keys
    rng[TRIAL_BASE] = base
    rng[ESCAPE_KEYED] = 0
    set_stream_at_first_word(rng, STALKER, stalker, stalker_word)
    set_stream_at_first_word(rng, MONSTER, monster, monster_word)


BLOCK = 4096
"""Trials per parallel block; the sums do not depend on it."""

_TRIALS_SIG = types.void(
    types.int64, types.int64, types.int64, types.int64[::1], types.float64[::1], types.int64,
    DecisionType, DecisionType, DecisionType, DecisionType, DecisionType,
    types.int64[::1], types.int64[::1], types.int64[::1], types.int64[::1], types.int8[::1],
)


@entry_point(_TRIALS_SIG, parallel=True)
def fight_trials(seed, trial_start, n_trials, template, params, asks,
                 escape, target, weapon, heal, rescue,
                 counts, rounds_hist, hp_hist, used, out):
    """Fight trials ``trial_start .. trial_start + n_trials - 1``: adds their
    aggregates to ``counts`` (by outcome), ``rounds_hist`` (rounds fought),
    ``hp_hist`` (HP left, deaths at 0) and ``used`` (healing items, then
    explosives), and, if ``out`` is not empty, puts trial ``trial_start + i``'s
    outcome in ``out[i]``. Integer sums: identical for any thread count or chunking.
    One compiled body serves ``run_fights`` and ``fight_outcomes``."""
    n_blocks = (n_trials + BLOCK - 1) // BLOCK
    c_b = np.zeros((n_blocks, counts.size), np.int64)
    r_b = np.zeros((n_blocks, rounds_hist.size), np.int64)
    h_b = np.zeros((n_blocks, hp_hist.size), np.int64)
    u_b = np.zeros((n_blocks, used.size), np.int64)
    seed_mixed = mix(np.uint64(seed))
    per_trial = out.size > 0
    for b in prange(n_blocks):
        view = template.copy()
        rng = np.zeros(RNG_SIZE, np.uint64)
        u_row = u_b[b]
        first = trial_start + b * BLOCK
        last = min(trial_start + n_trials, first + BLOCK)
        keys = _trial_keys(seed_mixed, first)
        for trial in range(first, last):
            _reset(view, template)
            _start_trial(rng, keys)
            keys = _trial_keys(seed_mixed, trial + 1)  # worked out while this trial fights
            outcome = fight_once(view, params, asks, rng, escape, target, weapon, heal, rescue, u_row)
            c_b[b, outcome] += 1
            r_b[b, view[ROUND]] += 1
            h_b[b, max(0, view[HP])] += 1
            if per_trial:
                out[trial - trial_start] = outcome
    counts += c_b.sum(axis=0)
    rounds_hist += r_b.sum(axis=0)
    hp_hist += h_b.sum(axis=0)
    used += u_b.sum(axis=0)


_NO_OUTCOMES = np.zeros(0, np.int8)


def run_fights(seed, trial_start, n_trials, template, params, asks, escape, target, weapon, heal, rescue,
               counts, rounds_hist, hp_hist, used):
    """``fight_trials`` adding only the aggregates."""
    fight_trials(seed, trial_start, n_trials, template, params, asks, escape, target, weapon, heal, rescue,
                 counts, rounds_hist, hp_hist, used, _NO_OUTCOMES)


def fight_outcomes(seed, trial_start, n_trials, template, params, asks, escape, target, weapon, heal, rescue, out):
    """The outcome of each trial ``trial_start + i`` in ``out[i]`` (``WIN`` ..
    ``DEATH``), on the same streams as ``run_fights``: two loadouts run with one
    seed meet the same dice, so their per-trial differences pair up."""
    fight_trials(seed, trial_start, n_trials, template, params, asks, escape, target, weapon, heal, rescue,
                 np.zeros(len(OUTCOMES), np.int64), np.zeros(template[MAX_ROUNDS] + 1, np.int64),
                 np.zeros(template[MAX_HP] + 1, np.int64), np.zeros(template[N_HEAL] + template[N_EXPL], np.int64),
                 out)
