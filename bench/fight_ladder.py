"""Where the fight kernel's time goes: a ladder from the bare duel up to the kernel.

    python bench/fight_ladder.py [--trials 20000000] [--json]

Scenario: ``bench/fight.py``'s (novice, ak47, vest, 2 stimulators vs bloodsucker,
strategy fighter). Each rung is the rung below plus one thing the kernel
does, compiled by numba on the same dice, so every rung wins exactly the
kernel's fights (the bench stops if not); the drop from rung to rung is what
that thing costs:

1. the bare duel of ``bench/fight.py``: both streams and the fight in locals;
2. the streams in the kernel's ``rng`` array, rolled by its ``roll`` (the
   stream state in memory, four d6 from one product);
3. the kernel's view reset from its template for each trial and the fight's
   terms read from it (the fight itself still in locals);
4. the fight on the view: the round, HP and the monster's hp
   written back when a trial ends or HP falls to 0, the death check by the
   view's reserve and its one stimulator kind (Z-08);
5. the outcome tallies: outcome counts, the rounds and HP-left histograms per
   block;
6. the kernel itself (``fight_trials``): the strategy's decision functions as
   arguments, the checks before the fight (healing, escape) and the explosive
   check each round.

Each rung reports its best of ``REPEATS`` timings on all threads.
"""

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.fight import LOADOUT, MONSTERS, REPEATS, SEED, bare_duel_fights, duel_numbers  # noqa: E402


def _best(run, trials, *args):
    """(best fights/s of ``REPEATS``, wins) of ``run(trials, *args)``, after one warm-up call."""
    run(1000, *args)
    best, wins = 0.0, 0
    for _ in range(REPEATS):
        start = time.perf_counter()
        wins = run(trials, *args)
        best = max(best, trials / (time.perf_counter() - start))
    return best, int(wins)


def rungs(template):
    """The compiled rungs 2-5: ``{name: run(trials, template) -> wins}``."""
    import numpy as np
    from numba import njit, prange

    from sim.kernels import fight as K
    from sim.kernels.rng import mix, roll

    @njit(inline="always")
    def duel_on_array(rng, terms):
        hp, stims, heal, fire_dice, fire_bonus, bite_dice, bite_bonus, monster_hp, max_rounds, max_hp = terms
        for _ in range(max_rounds):
            damage = roll(rng, K.STALKER, fire_dice, 6) + fire_bonus
            if damage > 0:
                monster_hp -= damage
                if monster_hp <= 0:
                    return 1
            damage = roll(rng, K.MONSTER, bite_dice, 6) + bite_bonus
            if damage > 0:
                hp -= damage
                if hp <= 0:
                    if hp + stims * heal < 1:
                        return 0
                    while hp < 1:
                        hp, stims = min(max_hp, hp + heal), stims - 1
        return 0

    @njit(inline="always")
    def duel_on_view(view, rng, used):
        """``sim.kernels.fight._duel_rounds`` with nothing to decide (no explosive, one stimulator kind)."""
        h, o = K.mon_hp(view, 0), K.mon_slot(view, 0)
        hp, monster_hp = view[K.HP], view[h]
        firearm_dice = view[K.FIREARM_DICE]
        firearm_bonus = view[K.FIREARM_BONUS] - view[o + K.M_DEFENCE]
        monster_dice, monster_bonus = view[o + K.M_DICE], view[o + K.M_BONUS] - view[K.DEFENCE]
        max_rounds = view[K.MAX_ROUNDS]
        for r in range(1, max_rounds + 1):
            damage = roll(rng, K.STALKER, firearm_dice, 6) + firearm_bonus
            if damage > 0:
                monster_hp -= damage
            if monster_hp <= 0:
                K._write_back(view, r, h, hp, monster_hp)
                view[K.N_ALIVE] = 0
                return K.WIN
            damage = roll(rng, K.MONSTER, monster_dice, 6) + monster_bonus
            if damage > 0:
                hp -= damage
                if hp <= 0:
                    K._write_back(view, r, h, hp, monster_hp)
                    if view[K.HP] + K.rescue_reserve(view) < 1:
                        return K.DEATH
                    while view[K.HP] < 1 and view[K.ONLY_STIM] != K.NONE:
                        K._use_heal(view, view[K.ONLY_STIM], used)
                    hp = view[K.HP]
        K._write_back(view, max_rounds, h, hp, monster_hp)
        return K.DRAW

    @njit(inline="always")
    def duel_terms(t):
        """``duel_on_array``'s numbers read from a view: HP, the one stimulator kind's count and
        heal, the attack terms less the defences (Z-15, Z-23), the monster's hp, the rounds, max HP."""
        o, stim = K.mon_slot(t, 0), t[K.ONLY_STIM]
        return (t[K.HP], t[K.heal_n(t, stim)], t[K.heal_slot(t, stim) + K.H_HEAL], t[K.FIREARM_DICE],
                t[K.FIREARM_BONUS] - t[o + K.M_DEFENCE], t[o + K.M_DICE], t[o + K.M_BONUS] - t[K.DEFENCE],
                t[K.mon_hp(t, 0)], t[K.MAX_ROUNDS], t[K.MAX_HP])

    @njit(parallel=True)
    def streams_in_array(n, template):
        terms = duel_terms(template)
        n_blocks = (n + K.BLOCK - 1) // K.BLOCK
        wins = np.zeros(n_blocks, np.int64)
        seed_mixed = mix(np.uint64(SEED))
        for b in prange(n_blocks):
            rng = np.zeros(K.RNG_SIZE, np.uint64)
            first, last = b * K.BLOCK, min(n, (b + 1) * K.BLOCK)
            keys = K._trial_keys(seed_mixed, first)
            for trial in range(first, last):
                K._start_trial(rng, keys)
                keys = K._trial_keys(seed_mixed, trial + 1)
                wins[b] += duel_on_array(rng, terms)
        return wins.sum()

    def view_rung(play):
        """A rung that resets the view from its template each trial and counts the trials
        ``play(view, rng, used)`` wins."""
        @njit(parallel=True)
        def run(n, template):
            n_blocks = (n + K.BLOCK - 1) // K.BLOCK
            wins = np.zeros(n_blocks, np.int64)
            used = np.zeros((n_blocks, 1), np.int64)
            seed_mixed = mix(np.uint64(SEED))
            for b in prange(n_blocks):
                view, rng = template.copy(), np.zeros(K.RNG_SIZE, np.uint64)
                first, last = b * K.BLOCK, min(n, (b + 1) * K.BLOCK)
                keys = K._trial_keys(seed_mixed, first)
                for trial in range(first, last):
                    K._reset(view, template)
                    K._start_trial(rng, keys)
                    keys = K._trial_keys(seed_mixed, trial + 1)
                    wins[b] += play(view, rng, used[b])
            return wins.sum()
        return run

    @njit(inline="always")
    def read_the_view(view, rng, used):
        won = duel_on_array(rng, duel_terms(view))
        view[K.HP] = won  # the view is written each trial, as a fight writes it
        return won

    @njit(inline="always")
    def fight_on_the_view(view, rng, used):
        return duel_on_view(view, rng, used) == K.WIN

    @njit(parallel=True)
    def with_tallies(n, template):
        n_blocks = (n + K.BLOCK - 1) // K.BLOCK
        c_b = np.zeros((n_blocks, len(K.OUTCOMES)), np.int64)
        r_b = np.zeros((n_blocks, template[K.MAX_ROUNDS] + 1), np.int64)
        h_b = np.zeros((n_blocks, template[K.MAX_HP] + 1), np.int64)
        used = np.zeros((n_blocks, 1), np.int64)
        seed_mixed = mix(np.uint64(SEED))
        for b in prange(n_blocks):
            view, rng = template.copy(), np.zeros(K.RNG_SIZE, np.uint64)
            first, last = b * K.BLOCK, min(n, (b + 1) * K.BLOCK)
            keys = K._trial_keys(seed_mixed, first)
            for trial in range(first, last):
                K._reset(view, template)
                K._start_trial(rng, keys)
                keys = K._trial_keys(seed_mixed, trial + 1)
                outcome = duel_on_view(view, rng, used[b])
                c_b[b, outcome] += 1
                r_b[b, view[K.ROUND]] += 1
                h_b[b, max(0, view[K.HP])] += 1
        return c_b.sum(axis=0)[K.WIN]

    return {"streams in the rng array": streams_in_array, "the view reset and read": view_rung(read_the_view),
            "on the view": view_rung(fight_on_the_view), "with the outcome tallies": with_tallies}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20_000_000)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    import numba

    import strategies
    from sim.content import DEFAULT_DIR, load_content
    from sim.reference import fight as ref
    from sim.reference.loadout import loadout_from_dict
    from sim.run.fight import fight_template, simulate_fight

    content, loadout = load_content(), loadout_from_dict(LOADOUT)
    template = fight_template(content, loadout, MONSTERS)[0]
    ladder = {"bare duel": bare_duel_fights(duel_numbers(ref.load_content(DEFAULT_DIR)), args.trials, SEED)}
    for name, run in rungs(template).items():
        ladder[name] = _best(run, args.trials, template)
    fighter = strategies.get("fighter")
    simulate_fight(content, loadout, MONSTERS, fighter, trials=10_000, seed=SEED)
    runs = [simulate_fight(content, loadout, MONSTERS, fighter, trials=args.trials, seed=SEED, chunk=args.trials)
            for _ in range(REPEATS)]
    kernel = max(runs, key=lambda run: run.encounters_per_s)
    ladder["the kernel"] = (kernel.encounters_per_s, round(kernel.probabilities["p_win"] * args.trials))
    for name, (_, wins) in ladder.items():
        if wins != ladder["the kernel"][1]:
            raise SystemExit(f"{name} won {wins:,} fights, the kernel {ladder['the kernel'][1]:,}: different dice")
    figures = {"threads": numba.get_num_threads(), "trials": args.trials,
               "rungs": [{"rung": name, "fights_per_s": rate} for name, (rate, _) in ladder.items()]}
    if args.json:
        print(json.dumps(figures))
        return
    bare = ladder["bare duel"][0]
    previous = bare
    for name, (rate, _) in ladder.items():
        print(f"{name:28s} {rate:14,.0f} fights/s  {rate / bare:5.0%} of the bare duel  "
              f"{rate / previous - 1:+6.1%} on the rung below")
        previous = rate


if __name__ == "__main__":
    main()
