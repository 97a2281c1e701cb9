"""Tests of the exact fight solver (sim.analysis.exact), named by rule id.

Rules: Z-08, Z-15, Z-23, Z-31, Z-33, Z-38; contract: docs/rules/fight-resolution.md.
The brute-force reference below enumerates every dice sequence and plays the
fight literally, step by step, with its own rescue search.
"""

from __future__ import annotations

import itertools
import math
import time
from fractions import Fraction

import numpy as np
import pytest

from sim.analysis.exact import ExactFight, damage_pmf, dice_sum_pmf, rescue_plan, solve_fight


def _fight(**kw) -> ExactFight:
    base = dict(
        hp=25,
        max_hp=25,
        defence=0,
        attack_dice=1,
        attack_bonus=0,
        stims=(),
        monster_hp=6,
        monster_dice=1,
        monster_bonus=0,
        monster_defence=0,
        max_rounds=30,
        p_escape_roll=None,
    )
    base.update(kw)
    return solve_fight(**base)


def _total(r: ExactFight) -> float:
    return r.p_win + r.p_draw + r.p_escape + r.p_death


# --------------------------------------------------------------------------
# Brute force: every dice sequence, played literally


def _ref_plan(hp, heals, counts):
    """Independent rescue search (Z-08): fewest items, smallest total, more earlier items."""
    if hp + sum(h * c for h, c in zip(heals, counts)) < 1:
        return None
    best = None
    for used in itertools.product(*(range(c + 1) for c in counts)):
        total = sum(u * h for u, h in zip(used, heals))
        if hp + total < 1:
            continue
        key = (sum(used), total, [-u for u in used])
        if best is None or key < best[0]:
            best = (key, used)
    return best[1]


def _play(dice, case):
    """One fight from a fixed dice sequence (fight spec "One fight", Z-38)."""
    it = iter(dice)
    hp, m = case["hp"], case["monster_hp"]
    heals = [h for h, _ in case["stims"]]
    counts = [c for _, c in case["stims"]]
    for r in range(1, case["max_rounds"] + 1):
        roll = sum(next(it) for _ in range(case["attack_dice"]))
        dmg = max(0, roll + case["attack_bonus"] - case["monster_defence"]) if case["attack_dice"] else 0
        m -= dmg
        if m <= 0:
            return "win", r, hp
        roll = sum(next(it) for _ in range(case["monster_dice"]))
        dmg = max(0, roll + case["monster_bonus"] - case["defence"]) if case["monster_dice"] else 0
        hp -= dmg
        if hp <= 0:
            used = _ref_plan(hp, heals, counts)
            if used is None:
                return "death", r, hp
            for h in sorted(h for h, u in zip(heals, used) for _ in range(u)):
                hp = min(case["max_hp"], hp + h)
            counts = [c - u for c, u in zip(counts, used)]
            assert hp >= 1
    return "draw", case["max_rounds"], hp


def _brute_force(case, escape_die_min=None):
    """Exact outcome by enumerating all dice (and the Z-33 escape d6 if given), as Fractions."""
    n = (case["attack_dice"] + case["monster_dice"]) * case["max_rounds"]
    prob = {"win": Fraction(0), "draw": Fraction(0), "death": Fraction(0), "escape": Fraction(0)}
    rounds = Fraction(0)
    hp_surv = Fraction(0)
    w = Fraction(1, 6**n)
    for dice in itertools.product(range(1, 7), repeat=n):
        outcome, r, hp = _play(dice, case)
        prob[outcome] += w
        rounds += w * r
        if outcome != "death":
            hp_surv += w * hp
    if escape_die_min is not None:
        p_esc = Fraction(7 - escape_die_min, 6)  # d6 >= escape_die_min escapes
        prob = {k: v * (1 - p_esc) for k, v in prob.items()}
        prob["escape"] = p_esc
        rounds *= 1 - p_esc
        hp_surv = hp_surv * (1 - p_esc) + p_esc * case["hp"]
    surv = prob["win"] + prob["draw"] + prob["escape"]
    return prob, rounds, (hp_surv / surv if surv else math.nan)


_TINY = [
    # 1d6 both sides, 3 rounds, no stims: deaths and draws both possible.
    dict(hp=5, max_hp=6, defence=0, attack_dice=1, attack_bonus=0, stims=(), monster_hp=8,
         monster_dice=1, monster_bonus=0, monster_defence=0, max_rounds=3),
    # 1d6 both sides, 3 rounds, two stimulator types (+5 from hp 0 is capped at max_hp 4, Z-31).
    dict(hp=4, max_hp=4, defence=0, attack_dice=1, attack_bonus=1, stims=((2, 1), (5, 1)),
         monster_hp=9, monster_dice=1, monster_bonus=1, monster_defence=1, max_rounds=3),
    # defence on both sides, equal-heal tie stims, 3 rounds.
    dict(hp=3, max_hp=4, defence=1, attack_dice=1, attack_bonus=0, stims=((3, 1), (3, 1)),
         monster_hp=7, monster_dice=1, monster_bonus=2, monster_defence=2, max_rounds=3),
    # 2d6 stalker vs 1d6 monster, 2 rounds, several stims of one type.
    dict(hp=2, max_hp=5, defence=0, attack_dice=2, attack_bonus=0, stims=((1, 3),),
         monster_hp=13, monster_dice=1, monster_bonus=0, monster_defence=1, max_rounds=2),
]


@pytest.mark.parametrize("case", _TINY)
@pytest.mark.parametrize("escape_die_min", [None, 4])
def test_z38_z08_z33_brute_force_enumeration_equals_solver(case, escape_die_min):
    prob, rounds, hp_left = _brute_force(case, escape_die_min)
    p_esc = None if escape_die_min is None else (7 - escape_die_min) / 6
    res = solve_fight(**case, p_escape_roll=p_esc)
    assert res.p_win == pytest.approx(float(prob["win"]), abs=1e-12)
    assert res.p_draw == pytest.approx(float(prob["draw"]), abs=1e-12)
    assert res.p_death == pytest.approx(float(prob["death"]), abs=1e-12)
    assert res.p_escape == pytest.approx(float(prob["escape"]), abs=1e-12)
    assert res.mean_rounds == pytest.approx(float(rounds), abs=1e-12)
    assert res.mean_hp_left == pytest.approx(float(hp_left), abs=1e-12)
    # every case reaches all three fight outcomes
    assert prob["win"] > 0 and prob["draw"] > 0 and prob["death"] > 0


# --------------------------------------------------------------------------
# Z-38: probabilities, one-round kill, draw


@pytest.mark.parametrize(
    "kw",
    [
        dict(),
        dict(hp=35, max_hp=35, defence=3, attack_dice=2, attack_bonus=4, stims=((4, 4), (8, 4)),
             monster_hp=30, monster_dice=3, monster_defence=2),
        dict(hp=10, stims=((6, 2), (10, 1)), monster_hp=20, monster_dice=2, monster_bonus=2,
             monster_defence=2, p_escape_roll=1 / 3),
        dict(attack_dice=0, monster_hp=18, monster_dice=3, monster_defence=3, max_rounds=5),
        dict(max_rounds=0, p_escape_roll=0.5),
    ],
)
def test_z38_probabilities_sum_to_one(kw):
    res = _fight(**kw)
    assert _total(res) == pytest.approx(1.0, abs=1e-12)
    for p in (res.p_win, res.p_draw, res.p_escape, res.p_death):
        assert -1e-15 <= p <= 1 + 1e-12
    assert res.p_survive == pytest.approx(1.0 - res.p_death, abs=0)


def test_z38_one_round_kill_is_a_sure_win_in_one_round():
    # 1d6 + 6 against a 6-hp monster always kills it before it can hit back.
    res = _fight(hp=7, max_hp=25, attack_dice=1, attack_bonus=6, monster_hp=6, monster_dice=3,
                 monster_bonus=10)
    assert res.p_win == pytest.approx(1.0, abs=1e-12)
    assert res.p_death == 0.0 and res.p_draw == 0.0 and res.p_escape == 0.0
    assert res.mean_rounds == pytest.approx(1.0, abs=1e-12)
    assert res.mean_hp_left == pytest.approx(7.0, abs=1e-12)


@pytest.mark.parametrize("max_rounds", [1, 7, 30])
def test_z38_z23_unhurtable_stalker_doing_no_damage_draws(max_rounds):
    # Defence 20 absorbs 1d6+1 every time (Z-23); no firearm does 0 damage.
    res = _fight(hp=9, max_hp=12, defence=20, attack_dice=0, attack_bonus=5, monster_hp=6,
                 monster_dice=1, monster_bonus=1, max_rounds=max_rounds)
    assert res.p_draw == pytest.approx(1.0, abs=1e-12)
    assert res.p_win == 0.0 and res.p_death == 0.0
    assert res.mean_rounds == pytest.approx(max_rounds, abs=1e-12)
    assert res.mean_hp_left == pytest.approx(9.0, abs=1e-12)


def test_z38_monster_dead_at_zero_does_not_hit_back():
    # Exactly 6 hp and 1d6+5 (6..11) damage: hp <= 0 is dead, so always a round-1 win.
    res = _fight(hp=1, max_hp=1, attack_dice=1, attack_bonus=5, monster_hp=6, monster_bonus=50)
    assert res.p_win == pytest.approx(1.0, abs=1e-12) and res.p_death == 0.0
    assert res.mean_rounds == pytest.approx(1.0, abs=1e-12)


def test_z38_speed_35hp_four_plus_four_stims_vs_30hp_for_30_rounds():
    kw = dict(hp=35, max_hp=35, defence=1, attack_dice=1, attack_bonus=0, stims=((4, 4), (8, 4)),
              monster_hp=30, monster_dice=3, monster_bonus=0, monster_defence=0, max_rounds=30)
    _fight(**kw)  # warm caches
    t0 = time.perf_counter()
    res = _fight(**kw)
    elapsed = time.perf_counter() - t0
    assert _total(res) == pytest.approx(1.0, abs=1e-12)
    assert elapsed < 0.5


# --------------------------------------------------------------------------
# Z-08 / Z-31: death check, rescue plan, heal cap


def test_z08_rescue_plan_fewest_items_then_smallest_total():
    stims = ((4, 2), (8, 2))
    assert rescue_plan(-3, stims) == (1, 0)  # one +4 suffices
    assert rescue_plan(-4, stims) == (0, 1)  # +4 gives 0; one +8 beats two +4
    assert rescue_plan(-7, stims) == (0, 1)
    assert rescue_plan(-8, stims) == (1, 1)  # 4+8 (total 12) beats 8+8 (16)
    assert rescue_plan(-12, stims) == (0, 2)  # 4+8 gives 0: need 8+8
    assert rescue_plan(-15, stims) == (0, 2)  # 8+8 = 16 reaches 1
    assert rescue_plan(-16, stims) == (1, 2)  # needs 17: three items, 4+8+8
    assert rescue_plan(-23, stims) == (2, 2)
    assert rescue_plan(-24, stims) is None
    assert rescue_plan(0, ((4, 3), (8, 1))) == (1, 0)
    assert rescue_plan(-8, ((4, 3), (8, 1))) == (1, 1)  # two +4 give 0
    # fewest items beats smallest total: one +10 rather than two +2
    assert rescue_plan(-3, ((2, 5), (10, 1))) == (0, 1)


def test_z08_rescue_plan_ties_prefer_earlier_items_and_death_is_none():
    assert rescue_plan(-2, ((4, 1), (4, 1))) == (1, 0)
    assert rescue_plan(-2, ((4, 0), (4, 1))) == (0, 1)
    assert rescue_plan(-20, ((4, 1), (8, 1))) is None  # -20 + 12 < 1
    assert rescue_plan(-11, ((4, 1), (8, 1))) == (1, 1)  # -11 + 12 = 1 survives
    assert rescue_plan(0, ()) is None
    assert rescue_plan(3, ((4, 2),)) == (0,)  # not a death check: nothing used


def test_z08_death_when_stims_cannot_reach_one_hp():
    # 1d6+10 always takes a 1-hp stalker to <= -10; one +4 cannot save him.
    res = _fight(hp=1, max_hp=25, attack_dice=1, monster_hp=30, monster_bonus=10, stims=((4, 1),))
    assert res.p_death == pytest.approx(1.0, abs=1e-12)
    assert res.p_win == 0.0 and res.p_draw == 0.0
    assert res.mean_rounds == pytest.approx(1.0, abs=1e-12)
    assert math.isnan(res.mean_hp_left)
    assert res.p_survive == pytest.approx(0.0, abs=1e-12)


def test_z31_rescue_heal_is_capped_at_max_hp():
    # Hit to 1-d (d = 1..6), one +8 stimulator: min(3, 9 - d) = 3 every time.
    res = _fight(hp=1, max_hp=3, attack_dice=0, monster_hp=5, monster_dice=1, stims=((8, 1),),
                 max_rounds=1)
    assert res.p_draw == pytest.approx(1.0, abs=1e-12)
    assert res.mean_hp_left == pytest.approx(3.0, abs=1e-12)
    # Two rounds: the second hit always kills (no stimulator left, hp 3 - d <= 0 for d >= 3).
    res2 = _fight(hp=1, max_hp=3, attack_dice=0, monster_hp=5, monster_dice=1, stims=((8, 1),),
                  max_rounds=2)
    assert res2.p_death == pytest.approx(4 / 6, abs=1e-12)
    assert res2.p_draw == pytest.approx(2 / 6, abs=1e-12)
    assert res2.mean_hp_left == pytest.approx(1.5, abs=1e-12)  # hp 2 or 1


# --------------------------------------------------------------------------
# Z-33: escape


@pytest.mark.parametrize("p", [0.0, 1 / 6, 0.5, 2 / 3, 1.0])
def test_z33_escape_probability_passes_straight_through(p):
    res = _fight(hp=20, max_hp=25, monster_hp=12, monster_dice=2, p_escape_roll=p)
    assert res.p_escape == p
    assert _total(res) == pytest.approx(1.0, abs=1e-12)
    no_try = _fight(hp=20, max_hp=25, monster_hp=12, monster_dice=2, p_escape_roll=None)
    assert no_try.p_escape == 0.0
    assert res.p_win == pytest.approx((1 - p) * no_try.p_win, abs=1e-12)
    assert res.mean_rounds == pytest.approx((1 - p) * no_try.mean_rounds, abs=1e-12)


def test_z33_sure_escape_is_zero_rounds_and_full_hp():
    res = _fight(hp=17, max_hp=25, p_escape_roll=1.0)
    assert res.p_escape == 1.0 and res.p_win == 0.0 and res.p_death == 0.0
    assert res.mean_rounds == 0.0
    assert res.mean_hp_left == 17.0


# --------------------------------------------------------------------------
# Z-15 / Z-23: dice and damage


def test_z15_dice_sum_pmf_is_exact():
    pmf = dice_sum_pmf(2)
    expected = np.array([0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]) / 36
    assert np.array_equal(pmf, expected)
    assert np.array_equal(dice_sum_pmf(0), np.array([1.0]))
    for n, s in [(1, 6), (3, 6), (5, 6), (2, 10)]:
        pmf = dice_sum_pmf(n, s)
        assert len(pmf) == n * s + 1
        assert pmf.sum() == pytest.approx(1.0, abs=1e-15)
        assert pmf @ np.arange(len(pmf)) == pytest.approx(n * (s + 1) / 2, abs=1e-12)


@pytest.mark.parametrize("n,bonus,defence", [(1, 0, 0), (2, 4, 2), (3, 0, 3), (2, 0, 9), (1, 0, 20), (4, 2, 0)])
def test_z15_z23_damage_pmf_sums_to_one_with_right_mean(n, bonus, defence):
    pmf = damage_pmf(n, bonus, defence)
    assert pmf.sum() == pytest.approx(1.0, abs=1e-14)
    rolls = [sum(d) for d in itertools.product(range(1, 7), repeat=n)]
    mean = Fraction(sum(max(0, t + bonus - defence) for t in rolls), len(rolls))
    assert pmf @ np.arange(len(pmf)) == pytest.approx(float(mean), abs=1e-13)
    assert pmf[0] == pytest.approx(sum(t + bonus - defence <= 0 for t in rolls) / len(rolls), abs=1e-15)


def test_z15_no_firearm_zero_dice_is_zero_damage():
    assert np.array_equal(damage_pmf(0, 5, 0), np.array([1.0]))
