"""The optimal fight: the policy a perfect player follows against one monster,
solved exactly by backward induction over the rounds (Z-08, Z-15, Z-18,
Z-23, Z-31, Z-33, Z-38).

His decisions, each taken from the moves the rules allow:

- Z-33: whether to try the escape roll before round 1;
- Z-18: each round, the firearm or one of the explosives he still carries;
- Z-08, Z-31: at a death check, which of his stimulators to use.

Stimulators are used only at death checks, and that loses nothing: a
stimulator used at a death check heals from HP <= 0, so its heal is never cut
at max HP, while one used earlier may be; and one kept may never be needed.
Medkits are used before the fight by the caller (Z-31: outside combat only).

His objective is stated: ``score = P(survive) - g_weight x (G of explosives
and stimulators spent)``; ``g_weight`` 0 (the default) is survival alone.
Ties go to the firearm and to the fewest, cheapest stimulators.

The state at the start of a round is (stimulators left, explosives left,
stalker HP, monster HP); each round is two stages, his attack then the
monster's, and each stage is one matrix product per action over the HP axis.
After ``max_rounds`` rounds both walk away (Z-38: a draw). Not covered: a
group of monsters (the state would hold every monster's HP and the target
choice), and decisions outside the fight (walking, shopping).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from sim.analysis.exact import damage_pmf

__all__ = ["Carried", "OptimalFight", "solve_optimal", "FIREARM", "MAX_STATES"]

FIREARM = -1
MAX_STATES = 20_000_000
"""Largest state space solved (configurations x stalker HP x monster HP x rounds)."""
WIN, DRAW, SPENT = 0, 1, 2  # the components carried for every state
TIE = 1e-12


@dataclass(frozen=True)
class Carried:
    """One kind of explosive (``amount``: its dice) or stimulator (``amount``: its heal), how many, and its price."""

    amount: int
    count: int
    price: float = 0.0


@dataclass(frozen=True)
class OptimalFight:
    """The optimal player's exact outcome, and his policy.

    ``weapon(r, stims, explosives, hp, monster_hp)`` is his choice at the start
    of round ``r`` (1-based): ``FIREARM`` or an explosive's index.
    """

    p_win: float
    p_draw: float
    p_escape: float
    p_death: float
    g_spent: float
    g_weight: float
    tries_escape: bool
    states: int
    _policy: np.ndarray
    _stim_index: dict
    _expl_index: dict

    @property
    def p_survive(self) -> float:
        """Probability he walks away alive: 1 - p_death."""
        return 1.0 - self.p_death

    @property
    def score(self) -> float:
        """The objective: survival less ``g_weight`` x the G spent."""
        return self.p_survive - self.g_weight * self.g_spent

    def weapon(self, r: int, stims: tuple, explosives: tuple, hp: int, monster_hp: int) -> int:
        """Z-18: the firearm (``FIREARM``) or the explosive he throws in round ``r`` at this state."""
        k = self._stim_index[tuple(stims)] * len(self._expl_index) + self._expl_index[tuple(explosives)]
        return int(self._policy[r - 1, k, hp - 1, monster_hp - 1])


def _configs(carried) -> tuple[list, dict]:
    configs = list(itertools.product(*(range(c.count + 1) for c in carried)))
    return configs, {c: i for i, c in enumerate(configs)}


def _heal(hp: int, used: tuple, stims, max_hp: int) -> int:
    """Z-31: the used stimulators, smallest heal first, each cut at max HP."""
    for heal in sorted(s.amount for s, u in zip(stims, used) for _ in range(u)):
        hp = min(max_hp, hp + heal)
    return hp


def _shift_matrix(pmf: np.ndarray, n: int) -> np.ndarray:
    """``T[a, b] = pmf[a - b]``: from level ``a + 1`` to level ``b + 1`` after losing ``a - b`` (n levels)."""
    a = np.arange(n)[:, None] - np.arange(n)[None, :]
    out = np.zeros((n, n))
    ok = (a >= 0) & (a < pmf.size)
    out[ok] = pmf[a[ok]]
    return out


def _tail(pmf: np.ndarray, n: int) -> np.ndarray:
    """``P(damage >= level)`` for levels 1 .. n."""
    cdf = np.concatenate([[0.0], np.cumsum(pmf)])
    return 1.0 - cdf[np.minimum(np.arange(1, n + 1), pmf.size)]


def solve_optimal(
    *,
    hp: int,
    max_hp: int,
    defence: int,
    attack_dice: int,
    attack_bonus: int,
    explosive_bonus: int = 0,
    explosives: tuple = (),
    stims: tuple = (),
    monster_hp: int,
    monster_dice: int,
    monster_bonus: int,
    monster_defence: int,
    max_rounds: int,
    p_escape_roll: float | None,
    g_weight: float = 0.0,
    sides: int = 6,
) -> OptimalFight:
    """The optimal policy against one monster and its exact outcome (module docstring).

    ``explosives`` and ``stims`` are ``Carried`` (dice or heal, count, price) in
    content order; ``p_escape_roll`` the probability his one escape roll succeeds
    (Z-33; None: he may not try). ``sides`` is for small test dice only.
    """
    if g_weight < 0:
        raise ValueError(f"g_weight must be 0 or more, got {g_weight}")
    if hp < 1 or max_hp < 1 or monster_hp < 1:
        raise ValueError("hp, max_hp and monster_hp must be >= 1")
    if max_rounds < 0:
        raise ValueError(f"max_rounds must be >= 0, got {max_rounds}")
    if any(c.count < 0 for c in (*explosives, *stims)):
        raise ValueError("carried counts must be >= 0")
    stim_configs, stim_index = _configs(stims)
    expl_configs, expl_index = _configs(explosives)
    C, X, H, M = len(stim_configs), len(expl_configs), max(hp, max_hp), monster_hp
    states = C * X * H * M * max(1, max_rounds)
    if states > MAX_STATES:
        raise ValueError(f"the optimal fight has {states:,} states (carried counts x HP x monster HP x rounds); "
                         f"it solves up to {MAX_STATES:,}: carry fewer explosives or stimulators")

    pe = damage_pmf(monster_dice, monster_bonus, defence, sides)  # the monster's hit on him (Z-23)
    actions = [(FIREARM, damage_pmf(attack_dice, attack_bonus, monster_defence, sides), 0.0)]
    actions += [(t, damage_pmf(e.amount, explosive_bonus, monster_defence, sides), e.price)
                for t, e in enumerate(explosives)]
    thrown = [None] + [np.array([expl_index.get(x[:t] + (x[t] - 1,) + x[t + 1:], -1) for x in expl_configs])
                       for t in range(len(explosives))]  # config after throwing t; -1: none carried
    rescues = _rescue_table(stims, stim_configs, stim_index, pe.size - 1, max_hp)
    hit_on_him = _shift_matrix(pe, H)  # stalker HP h -> h - e, both alive
    lethal = [(e, pe[e]) for e in range(pe.size) if pe[e] > 0]

    v = np.zeros((C, X, 3, H, M))
    v[:, :, DRAW] = 1.0  # Z-38: after max_rounds rounds both walk away
    policy = np.full((max(1, max_rounds), C * X, H, M), FIREARM, dtype=np.int8)
    for r in range(max_rounds, 0, -1):
        after_his_attack = _monster_stage(v, hit_on_him, lethal, rescues, g_weight, H)
        v, choice = _stalker_stage(after_his_attack, actions, thrown, g_weight, M)
        policy[r - 1] = choice.reshape(C * X, H, M)

    full = stim_index[tuple(s.count for s in stims)], expl_index[tuple(e.count for e in explosives)]
    start = v[full[0], full[1], :, hp - 1, M - 1]
    p_esc = 0.0 if p_escape_roll is None else float(p_escape_roll)
    fight_score = _score(start, g_weight, axis=0)
    tries = p_esc > 0 and p_esc * 1.0 + (1 - p_esc) * fight_score > fight_score + TIE
    p_fight = 1.0 - p_esc if tries else 1.0
    p_win, p_draw, spent = (p_fight * float(start[i]) for i in (WIN, DRAW, SPENT))
    p_escape = p_esc if tries else 0.0
    return OptimalFight(p_win=p_win, p_draw=p_draw, p_escape=p_escape,
                        p_death=max(0.0, 1.0 - p_win - p_draw - p_escape), g_spent=spent, g_weight=g_weight,
                        tries_escape=bool(tries), states=states, _policy=policy, _stim_index=stim_index,
                        _expl_index=expl_index)


def _rescue_table(stims, configs, index, n_neg, max_hp) -> list:
    """Z-08 / Z-31: for each stimulator config and post-hit HP ``j`` in ``1 - n_neg .. 0``,
    every use that brings HP to >= 1, as (config left, HP after, G spent), fewest and cheapest first."""
    table = []
    for cfg in configs:
        per_hp = []
        for j in range(1 - n_neg, 1):
            options = []
            for used in itertools.product(*(range(c + 1) for c in cfg)):
                after = _heal(j, used, stims, max_hp)
                if any(used) and after >= 1:
                    price = sum(u * s.price for u, s in zip(used, stims))
                    left = index[tuple(c - u for c, u in zip(cfg, used))]
                    options.append((sum(used), price, left, after))
            options.sort()
            per_hp.append([(left, after, price) for _, price, left, after in options])
        table.append(per_hp)
    return table


def _score(v, g_weight, axis=2):
    """The objective of values whose components (``WIN``, ``DRAW``, ``SPENT``) lie on ``axis``."""
    return np.take(v, WIN, axis) + np.take(v, DRAW, axis) - g_weight * np.take(v, SPENT, axis)


def _monster_stage(v, hit_on_him, lethal, rescues, g_weight, H):
    """The monster hits (Z-23); a hit to HP <= 0 is a death check, met by the best rescue or death (Z-08).
    ``v``: the value at the start of the next round; returns it just after his attack, monster alive."""
    out = np.einsum("cxkhm,gh->cxkgm", v, hit_on_him, optimize=True)  # out[g] = sum_e pe[e] v[g - e]
    n_neg = len(rescues[0]) if rescues else 0
    if not n_neg:
        return out
    C, X, _, _, M = v.shape
    best = np.zeros((C, n_neg, X, 3, M))  # the value of a death check at post-hit HP j (index j + n_neg - 1)
    for c in range(C):
        for jj, options in enumerate(rescues[c]):
            if not options:
                continue  # death: every component 0
            chosen, chosen_score = None, None
            for left, after, price in options:
                cand = v[left, :, :, after - 1, :].copy()
                cand[:, SPENT] += price
                score = _score(cand, g_weight, axis=1)
                if chosen is None:
                    chosen, chosen_score = cand, score
                else:
                    better = score > chosen_score + TIE
                    chosen = np.where(better[:, None, :], cand, chosen)
                    chosen_score = np.where(better, score, chosen_score)
            best[c, jj] = chosen
    for e, p in lethal:
        for h in range(1, min(e, H) + 1):  # h - e <= 0
            j = h - e
            if j >= 1 - n_neg:
                out[:, :, :, h - 1] += p * best[:, j + n_neg - 1]
    return out


def _stalker_stage(w, actions, thrown, g_weight, M):
    """He attacks (Z-15, Z-18): the firearm or one explosive; the monster at HP <= 0 dies (a win).
    ``w``: the value after his attack; returns the value at the round's start and his choices."""
    C, X, K, H, _ = w.shape
    best, best_score, choice = None, None, None
    for t, pmf, price in actions:
        to = thrown[t + 1] if t != FIREARM else np.arange(X)
        valid = to >= 0
        if not valid.any():
            continue
        kept = np.where(valid, to, 0)
        cand = np.einsum("cxkhm,nm->cxkhn", w[:, kept], _shift_matrix(pmf, M), optimize=True)
        cand[:, :, WIN] += _tail(pmf, M)  # the monster dies: a win
        cand[:, :, SPENT] += price
        score = _score(cand, g_weight)
        if best is None:
            best, best_score, choice = cand, score, np.full(score.shape, FIREARM, np.int8)
            continue
        better = (score > best_score + TIE) & valid[None, :, None, None]
        best = np.where(better[:, :, None], cand, best)
        best_score = np.where(better, score, best_score)
        choice = np.where(better, np.int8(t), choice)
    return best, choice

