"""The optimal fight (``sim.analysis.optimal``) against a brute-force search over
every policy, against the fixed strategies' exact chains, and on the default
content against every built-in strategy."""

import itertools
from dataclasses import replace

import numpy as np
import pytest

from sim.analysis.exact import damage_pmf, solve_fight
from sim.analysis.optimal import FIREARM, Carried, solve_optimal

SIDES = 2  # two-sided dice keep the reachable states few enough to list every policy


def _heal(j, used, stims, max_hp):
    for heal in sorted(s.amount for s, u in zip(stims, used) for _ in range(u)):
        j = min(max_hp, j + heal)
    return j


class Fight:
    """One small fight, its decision points and a plain recursive value of any policy,
    written from the rules (Z-08, Z-15, Z-18, Z-23, Z-31, Z-33, Z-38), not from the solver."""

    def __init__(self, **kw):
        self.kw = kw
        self.stims, self.explosives = kw.get("stims", ()), kw.get("explosives", ())
        self.g = kw.get("g_weight", 0.0)
        self.pe = damage_pmf(kw["monster_dice"], kw["monster_bonus"], kw["defence"], SIDES)
        self.weapons = {FIREARM: damage_pmf(kw["attack_dice"], kw["attack_bonus"], kw["monster_defence"], SIDES)}
        self.weapons.update({t: damage_pmf(e.amount, kw.get("explosive_bonus", 0), kw["monster_defence"], SIDES)
                             for t, e in enumerate(self.explosives)})

    def weapon_options(self, x):
        return [FIREARM] + [t for t in range(len(x)) if x[t] > 0]

    def rescue_options(self, j, c):
        return [u for u in itertools.product(*(range(n + 1) for n in c))
                if any(u) and _heal(j, u, self.stims, self.kw["max_hp"]) >= 1]

    def decisions(self):
        """Every reachable decision point with more than one legal move, and its moves."""
        found, seen = {}, set()

        def round_(r, c, x, h, m):
            if r > self.kw["max_rounds"] or (r, c, x, h, m) in seen:
                return
            seen.add((r, c, x, h, m))
            options = self.weapon_options(x)
            if len(options) > 1:
                found[("w", r, c, x, h, m)] = options
            for a in options:
                x2 = x if a == FIREARM else x[:a] + (x[a] - 1,) + x[a + 1:]
                for d in np.flatnonzero(self.weapons[a]):
                    if m - d > 0:
                        for e in np.flatnonzero(self.pe):
                            j = h - e
                            if j >= 1:
                                round_(r + 1, c, x2, j, m - d)
                                continue
                            uses = self.rescue_options(j, c)
                            if len(uses) > 1:
                                found[("r", r, c, x2, j, m - d)] = uses
                            for u in uses:
                                round_(r + 1, tuple(a - b for a, b in zip(c, u)), x2,
                                       _heal(j, u, self.stims, self.kw["max_hp"]), m - d)

        round_(1, tuple(s.count for s in self.stims), tuple(e.count for e in self.explosives),
               self.kw["hp"], self.kw["monster_hp"])
        return found

    def value(self, policy, escape):
        """Survival less g x G spent under ``policy`` ({decision point: move}; a point
        with one legal move needs none)."""

        def round_(r, c, x, h, m):
            if r > self.kw["max_rounds"]:
                return 1.0  # Z-38: a draw
            a = policy.get(("w", r, c, x, h, m), FIREARM)
            cost = 0.0 if a == FIREARM else self.g * self.explosives[a].price
            x2 = x if a == FIREARM else x[:a] + (x[a] - 1,) + x[a + 1:]
            total = -cost
            for d, pd in enumerate(self.weapons[a]):
                if pd == 0:
                    continue
                if m - d <= 0:
                    total += pd  # a win
                    continue
                for e, p in enumerate(self.pe):
                    if p == 0:
                        continue
                    j = h - e
                    if j >= 1:
                        total += pd * p * round_(r + 1, c, x2, j, m - d)
                        continue
                    uses = self.rescue_options(j, c)
                    if not uses:
                        continue  # Z-08: death
                    u = policy.get(("r", r, c, x2, j, m - d), uses[0])
                    spent = self.g * sum(n * s.price for n, s in zip(u, self.stims))
                    total += pd * p * (round_(r + 1, tuple(a - b for a, b in zip(c, u)), x2,
                                              _heal(j, u, self.stims, self.kw["max_hp"]), m - d) - spent)
            return total

        fight = round_(1, tuple(s.count for s in self.stims), tuple(e.count for e in self.explosives),
                       self.kw["hp"], self.kw["monster_hp"])
        p = self.kw.get("p_escape_roll") or 0.0
        return p + (1 - p) * fight if escape else fight

    def brute_force(self):
        points = self.decisions()
        keys = list(points)
        best = -np.inf
        for moves in itertools.product(*(points[k] for k in keys)):
            policy = dict(zip(keys, moves))
            for escape in ((False, True) if self.kw.get("p_escape_roll") else (False,)):
                best = max(best, self.value(policy, escape))
        return best, int(np.prod([len(v) for v in points.values()]))


SMALL_FIGHTS = {
    "explosive or firearm": dict(hp=3, max_hp=3, defence=0, attack_dice=1, attack_bonus=0,
                                 explosives=(Carried(2, 1, 100),), monster_hp=4, monster_dice=1, monster_bonus=0,
                                 monster_defence=0, max_rounds=3, p_escape_roll=None),
    "which stimulator": dict(hp=3, max_hp=4, defence=0, attack_dice=1, attack_bonus=0,
                             stims=(Carried(1, 1, 200), Carried(5, 1, 450)), monster_hp=5, monster_dice=1,
                             monster_bonus=1, monster_defence=0, max_rounds=3, p_escape_roll=None),
    "all at a price": dict(hp=2, max_hp=3, defence=0, attack_dice=1, attack_bonus=0,
                           explosives=(Carried(1, 1, 100), Carried(2, 1, 250)), stims=(Carried(2, 1, 200),),
                           monster_hp=4, monster_dice=1, monster_bonus=1, monster_defence=0, max_rounds=2,
                           p_escape_roll=0.25, g_weight=0.0005),
}


@pytest.mark.parametrize("name", SMALL_FIGHTS)
def test_z18_z08_z33_optimal_policy_equals_the_best_of_every_policy(name):
    """The solver's score equals the best score over every deterministic policy of a
    small fight (weapons each round, stimulators at each death check, the escape try),
    each policy valued by plain recursion from the rules. Each fight has a policy
    clearly better than the firearm with the fewest stimulators: a solver that never
    threw, or always rescued with the first option, fails here."""
    kw = SMALL_FIGHTS[name]
    fight = Fight(**kw)
    best, policies = fight.brute_force()
    assert policies >= 16, policies
    assert best > fight.value({}, escape=False) + 0.1  # the firearm and the fewest stimulators do worse
    solved = solve_optimal(sides=SIDES, **kw)
    assert solved.score == pytest.approx(best, abs=1e-12)


def test_z18_the_policy_table_reads_his_choice_at_each_state():
    """``weapon``: with a limonka that always kills a 2-HP monster, he throws it in round 1
    (the firearm's one die kills half the time); with none left he fires; and when a
    survival is worth less than the explosive's G he keeps it and fires."""
    kw = dict(hp=1, max_hp=1, defence=0, attack_dice=1, attack_bonus=0, explosives=(Carried(2, 1, 100),),
              monster_hp=2, monster_dice=1, monster_bonus=0, monster_defence=0, max_rounds=3, p_escape_roll=None)
    best = solve_optimal(sides=SIDES, **kw)
    assert best.weapon(1, (), (1,), 1, 2) == 0 and best.p_survive == pytest.approx(1.0)
    assert best.weapon(1, (), (0,), 1, 2) == FIREARM
    frugal = solve_optimal(sides=SIDES, g_weight=1 / 50, **kw)  # a survival worth 50 G, the limonka 100 G
    assert frugal.weapon(1, (), (1,), 1, 2) == FIREARM and frugal.g_spent == 0


def test_z38_optimal_equals_the_fixed_chain_where_there_is_no_choice():
    """With no explosives and no stimulators the fighter has no choice, and the
    runner only the escape try: the optimal player's outcome is theirs, exactly."""
    kw = dict(hp=10, max_hp=10, defence=1, attack_dice=2, attack_bonus=1, monster_hp=20, monster_dice=2,
              monster_bonus=2, monster_defence=2, max_rounds=30)
    for p_escape in (None, 0.5):
        fixed, best = solve_fight(stims=(), p_escape_roll=p_escape, **kw), solve_optimal(p_escape_roll=p_escape, **kw)
        assert (best.p_win, best.p_draw, best.p_death) == pytest.approx((fixed.p_win, fixed.p_draw, fixed.p_death),
                                                                        abs=1e-12)


def test_a_price_on_consumables_spends_less():
    """The objective's weight on G: the optimal player who pays for what he throws
    spends less and survives no more often than the one who counts survival alone."""
    kw = dict(hp=10, max_hp=10, defence=1, attack_dice=2, attack_bonus=1, monster_hp=20, monster_dice=2,
              monster_bonus=2, monster_defence=2, max_rounds=30, p_escape_roll=None,
              stims=(Carried(4, 2, 200),), explosives=(Carried(3, 2, 250), Carried(5, 1, 900)))
    free, costed = solve_optimal(**kw), solve_optimal(g_weight=1e-3, **kw)
    assert costed.g_spent < free.g_spent and costed.p_survive <= free.p_survive + 1e-12
    assert costed.score >= free.p_survive - 1e-3 * free.g_spent - 1e-12  # his own objective is no worse


def test_bad_objective_weight_is_refused():
    with pytest.raises(ValueError, match="g_weight must be 0 or more"):
        solve_optimal(hp=1, max_hp=1, defence=0, attack_dice=1, attack_bonus=0, monster_hp=1, monster_dice=1,
                      monster_bonus=0, monster_defence=0, max_rounds=1, p_escape_roll=None, g_weight=-1)


def _default_fights(content):
    """Every monster of the default content against each loadout tier of report.toml,
    as it is and with two limonkas added (so the weapon choice is in play)."""
    from sim.report.study import load_study

    tiers = load_study(content, quick=True).tiers
    for tier, kit in tiers.items():
        for kit_name, loadout in ((tier, kit), (f"{tier}+2 limonka", replace(kit, explosives=(("limonka", 2),)))):
            for monster in content.monsters:
                yield kit_name, loadout, monster


def test_z38_the_optimal_player_survives_at_least_as_often_as_every_built_in_strategy(content):
    """Over every monster of the default content and the four loadout tiers (each
    also with two limonkas), at the rulebook's reputation 5 (an escape roll that can
    fail): his exact survival is never below the fighter's and runner's exact chains
    where they solve (no explosives), nor below any built-in strategy's sampled
    survival by more than 4 standard errors (20,000 fights)."""
    import strategies
    from sim.run.fight import exact_fight, optimal_fight, simulate_fight

    built_in = strategies.built_in("fight")
    checked = 0
    for kit_name, loadout, monster in _default_fights(content):
        kit = replace(loadout, reputation=5)
        result, _ = optimal_fight(content, kit, [monster])
        best = result.probabilities["p_survive"]
        for name, strat in built_in.items():
            if name in ("fighter", "runner") and not kit.explosives:
                fixed = exact_fight(content, kit, [monster], strat).probabilities["p_survive"]
                assert best >= fixed - 1e-12, (kit_name, monster, name, best, fixed)
            sampled = simulate_fight(content, kit, [monster], strat, trials=20_000, seed=3)
            p = sampled.probabilities["p_survive"]
            se = max(np.sqrt(p * (1 - p) / 20_000), 1 / 20_000)
            assert best >= p - 4 * se, (kit_name, monster, name, best, p)
            checked += 1
    assert checked == len(built_in) * 2 * 4 * len(content.monsters)
