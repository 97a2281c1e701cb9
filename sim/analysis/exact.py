"""Exact outcome probabilities of one fight: an absorbing Markov chain.

Scope: one stalker vs ONE monster, firearm only (no explosives), stimulators
used only at death checks with the fighter's rescue rule (Z-08, Z-31), an
optional escape roll before the first round (Z-33) and the max-rounds draw
(Z-38). Rules: the rule catalogue, ``docs/rules/index.md``; the resolution order is ``sim.kernels.fight``.

The transient state is (stalker hp, monster hp, stimulator counts left). The
probability distribution over it is pushed forward round by round with numpy
array shifts (one shift per damage value), and the mass that leaves it is
booked as win, death or, after ``max_rounds``, draw. Nothing is sampled:
the answers are exact up to floating-point rounding and serve both as instant
answers to small questions and as a check of the Monte Carlo engine.

Not modelled here (the caller does it first): the fighter's out-of-combat
pre-fight heal (medkits change the starting ``hp``), turning effective
reputation into an escape probability (``p_escape_roll``), and assembling
bonuses (modifier cap Z-21, Gromoboi Z-05, Doktor Z-03) into the numbers below.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

__all__ = [
    "ExactFight",
    "dice_sum_pmf",
    "damage_pmf",
    "rescue_plan",
    "solve_fight",
]

Stims = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class ExactFight:
    """Exact outcome of one fight (Z-38).

    ``mean_rounds`` is over all fights (an escape counts 0 rounds, a draw
    ``max_rounds``); ``mean_hp_left`` is over the surviving fights (win, draw,
    escape) and is ``nan`` when survival has probability 0.
    """

    p_win: float
    p_draw: float
    p_escape: float
    p_death: float
    mean_rounds: float
    mean_hp_left: float

    @property
    def p_survive(self) -> float:
        """Probability the stalker walks away alive: 1 - p_death."""
        return 1.0 - self.p_death


# --------------------------------------------------------------------------
# Dice (Z-15) and damage (Z-15, Z-23)


@lru_cache(maxsize=None)
def _dice_counts(n_dice: int, sides: int) -> tuple[int, ...]:
    """Number of ways each sum of ``n_dice`` dice with ``sides`` sides occurs (exact ints)."""
    counts = [1]
    for _ in range(n_dice):
        new = [0] * (len(counts) + sides)
        for total, ways in enumerate(counts):
            if ways:
                for face in range(1, sides + 1):
                    new[total + face] += ways
        counts = new
    return tuple(counts)


def dice_sum_pmf(n_dice: int, sides: int = 6) -> np.ndarray:
    """Exact pmf of NdS (Z-15): ``pmf[k] = P(sum == k)`` for k = 0 .. n_dice * sides.

    Computed from exact integer counts, so every entry is the correctly
    rounded float of ways / sides**n_dice. ``n_dice == 0`` gives ``[1.0]``.
    """
    if n_dice < 0:
        raise ValueError(f"n_dice must be >= 0, got {n_dice}")
    if sides < 1:
        raise ValueError(f"sides must be >= 1, got {sides}")
    total = sides**n_dice
    return np.array([ways / total for ways in _dice_counts(n_dice, sides)], dtype=np.float64)


def damage_pmf(n_dice: int, bonus: int, defence: int, sides: int = 6) -> np.ndarray:
    """Pmf of one hit's damage, max(0, NdS + bonus - defence) (Z-15, Z-23).

    Index = damage. ``n_dice == 0`` (no firearm: the attack rolls no dice and
    does 0 damage, fight spec "Loadout -> numbers") puts all mass at 0 whatever
    the bonus.
    """
    if n_dice == 0:
        return np.ones(1, dtype=np.float64)
    if n_dice < 0:
        raise ValueError(f"n_dice must be >= 0, got {n_dice}")
    shift = bonus - defence
    ways = [0] * (max(0, n_dice * sides + shift) + 1)
    for total, w in enumerate(_dice_counts(n_dice, sides)):
        if w:
            ways[max(0, total + shift)] += w  # exact integer counts, one rounding below
    denom = sides**n_dice
    return np.array([w / denom for w in ways], dtype=np.float64)


# --------------------------------------------------------------------------
# Rescue at the death check (Z-08, Z-31; fighter strategy)


@lru_cache(maxsize=None)
def _ranked_multisets(counts: tuple[int, ...], heals: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every sub-multiset of the carried stimulators as (total heal, counts used), best first.

    Fighter preference (fight spec "rescue"): fewest items, then smallest
    total healing, then more of the earlier types in content order.
    """
    ranked = []
    for used in itertools.product(*(range(c + 1) for c in counts)):
        total = sum(u * h for u, h in zip(used, heals))
        ranked.append((sum(used), total, tuple(-u for u in used), used))
    ranked.sort()
    return tuple((total, used) for _, total, _, used in ranked)


def _plan(hp: int, counts: tuple[int, ...], heals: tuple[int, ...]) -> tuple[int, ...] | None:
    """Fighter rescue for post-hit ``hp`` with ``counts`` carried; None = death (Z-08)."""
    # Z-08 death check: every carried in-combat item together cannot reach hp >= 1.
    if hp + sum(h * c for h, c in zip(heals, counts)) < 1:
        return None
    for total, used in _ranked_multisets(counts, heals):
        if hp + total >= 1:
            return used
    return None  # unreachable: the full multiset passed the check above


def rescue_plan(hp: int, stims: Stims) -> tuple[int, ...] | None:
    """Stimulators the fighter uses after a hit leaves ``hp`` (Z-08, Z-31).

    ``stims`` is ``((heal_amount_including_bonus, count), ...)`` in content
    order. Returns the count used of each type, or ``None`` when the stalker
    dies (hp + every carried heal < 1; no item is used then). Among the
    multisets that bring hp to >= 1: fewest items, then smallest total healing,
    then more of the earlier types. ``hp >= 1`` needs nothing: all zeros.
    """
    heals = tuple(int(h) for h, _ in stims)
    counts = tuple(int(c) for _, c in stims)
    if any(c < 0 for c in counts):
        raise ValueError(f"stimulator counts must be >= 0, got {counts}")
    return _plan(int(hp), counts, heals)


def _apply_heals(hp: int, used: tuple[int, ...], heals: tuple[int, ...], max_hp: int) -> int:
    """Use the planned items smallest heal first, each capped at max_hp (Z-31)."""
    items = sorted(h for h, u in zip(heals, used) for _ in range(u))
    for h in items:
        hp = min(max_hp, hp + h)
    return hp


# --------------------------------------------------------------------------
# The chain


def solve_fight(
    *,
    hp: int,
    max_hp: int,
    defence: int,
    attack_dice: int,
    attack_bonus: int,
    stims: Stims,
    monster_hp: int,
    monster_dice: int,
    monster_bonus: int,
    monster_defence: int,
    max_rounds: int,
    p_escape_roll: float | None,
) -> ExactFight:
    """Exact outcome of stalker vs one monster (fight spec "One fight").

    - Z-33: ``p_escape_roll`` None = never try; otherwise the probability the
      one escape roll before round 1 succeeds (escape: 0 rounds, hp unchanged).
    - Z-38: each round the stalker attacks first (firearm, Z-15/Z-23 damage
      vs ``monster_defence``); a monster at hp <= 0 dies before hitting back
      (win, rounds = r). Then the monster hits (vs ``defence``).
    - Z-08: a hit to hp <= 0 is a death check; the fighter's rescue plan uses
      stimulators (Z-31: each heal capped at ``max_hp``) or the stalker dies.
    - Z-38: after ``max_rounds`` rounds with both alive: draw.

    ``stims`` is ``((heal_amount_including_bonus, count), ...)`` in content order.
    """
    if max_hp < 1:
        raise ValueError(f"max_hp must be >= 1, got {max_hp}")
    if hp < 1:
        raise ValueError(f"hp must be >= 1 at the start of a fight, got {hp}")
    if monster_hp < 1:
        raise ValueError(f"monster_hp must be >= 1, got {monster_hp}")
    if max_rounds < 0:
        raise ValueError(f"max_rounds must be >= 0, got {max_rounds}")
    if attack_dice < 0 or monster_dice < 0:
        raise ValueError("dice counts must be >= 0")
    if p_escape_roll is not None and not 0.0 <= p_escape_roll <= 1.0:
        raise ValueError(f"p_escape_roll must be in [0, 1] or None, got {p_escape_roll}")

    heals = tuple(int(h) for h, _ in stims)
    counts0 = tuple(int(c) for _, c in stims)
    if any(c < 0 for c in counts0):
        raise ValueError(f"stimulator counts must be >= 0, got {counts0}")

    # Z-33: escape before the first round.
    p_escape = 0.0 if p_escape_roll is None else float(p_escape_roll)
    p_fight = 1.0 - p_escape

    pd = damage_pmf(attack_dice, attack_bonus, monster_defence)  # stalker -> monster
    pe = damage_pmf(monster_dice, monster_bonus, defence)  # monster -> stalker
    d_idx = np.flatnonzero(pd)
    e_idx = np.flatnonzero(pe)

    H = max(hp, max_hp)  # stalker hp 1..H stored at index hp-1 (a scenario hp may exceed max_hp)
    M = monster_hp  # monster hp 1..M stored at index m-1
    configs = list(itertools.product(*(range(c + 1) for c in counts0)))
    c_index = {c: i for i, c in enumerate(configs)}
    C = len(configs)

    # Post-hit hp h runs from h_min = 1 - max damage up to H; the n_neg values
    # h <= 0 go through the Z-08 death check. Same layout for the monster.
    n_neg = len(pe) - 1  # h = 1 - n_neg .. 0
    m_neg = len(pd) - 1  # monster hp = 1 - m_neg .. 0 -> dead

    # Z-08 / Z-31 rescue table: (config, post-hit h <= 0) -> flat row of the
    # (config, hp) state it lands in, or -1 for death.
    dest = np.full((C, n_neg), -1, dtype=np.int64)
    for ci, cfg in enumerate(configs):
        for j in range(n_neg):
            h = j - n_neg + 1
            used = _plan(h, cfg, heals)
            if used is None:
                continue
            new_hp = _apply_heals(h, used, heals, max_hp)
            new_cfg = tuple(a - b for a, b in zip(cfg, used))
            dest[ci, j] = c_index[new_cfg] * H + (new_hp - 1)
    dest = dest.reshape(-1)
    rescued = dest >= 0
    rescue_rows = dest[rescued]
    any_death_row = not rescued.all()

    hp_values = np.arange(1, H + 1, dtype=np.float64)

    P = np.zeros((C, H, M), dtype=np.float64)
    P[c_index[counts0], hp - 1, M - 1] = p_fight

    p_win = p_death = 0.0
    rounds_sum = 0.0  # sum of rounds x probability (escape contributes 0)
    hp_sum = p_escape * hp  # sum of hp_left x probability over survivors

    U = np.empty((C, H, M + m_neg), dtype=np.float64)
    T = np.empty((C, H + n_neg, M), dtype=np.float64)
    for r in range(1, max_rounds + 1):
        # Z-38 b / Z-15 / Z-23: the stalker fires; monster hp m -> m - d.
        U.fill(0.0)
        for d in d_idx:
            lo = m_neg - d  # index of m - d for m = 1 is (1 - d) - (1 - m_neg)
            U[:, :, lo : lo + M] += pd[d] * P
        won = U[:, :, :m_neg].sum(axis=(0, 2))  # per stalker hp; monster hp <= 0 -> dead
        w = float(won.sum())
        p_win += w
        rounds_sum += r * w
        hp_sum += float(won @ hp_values)
        Q = U[:, :, m_neg:]  # monster still alive; it hits back

        # Z-38 c / Z-23: the monster hits; stalker hp s -> s - e.
        T.fill(0.0)
        for e in e_idx:
            lo = n_neg - e
            T[:, lo : lo + H, :] += pe[e] * Q
        P = np.ascontiguousarray(T[:, n_neg:, :])
        if n_neg:
            # Z-08: hp <= 0 -> death check, then the fighter's rescue (Z-31 cap).
            neg = T[:, :n_neg, :].reshape(C * n_neg, M)
            if any_death_row:
                dead = float(neg[~rescued].sum())
                p_death += dead
                rounds_sum += r * dead
            if rescue_rows.size:
                np.add.at(P.reshape(C * H, M), rescue_rows, neg[rescued])

    # Z-38: after max_rounds both still alive -> draw.
    left = P.sum(axis=(0, 2))
    p_draw = float(left.sum())
    rounds_sum += max_rounds * p_draw
    hp_sum += float(left @ hp_values)

    survive = p_win + p_draw + p_escape
    mean_hp_left = hp_sum / survive if survive > 0.0 else math.nan
    return ExactFight(
        p_win=p_win,
        p_draw=p_draw,
        p_escape=p_escape,
        p_death=p_death,
        mean_rounds=rounds_sum,
        mean_hp_left=mean_hp_left,
    )
