"""Fight benchmark: the numba kernel vs the plain-Python reference, one run.

    python bench/fight.py [--trials 20000000] [--reference-trials 20000]

Scenario: novice, ak47, vest, 2 stimulators vs bloodsucker, strategy fighter.
Prints encounters per second for both (the kernel's best of three runs) and
their ratio; then a tight plain-Python loop of the same fights (locals only,
dice from ``random.random``: the fastest plain Python, one core) and the
kernel's ratio to it; then the RNG limit (also a best of three):
d6 draws per second the random streams alone produce (scalar, auto-vectorisation
off, all threads) divided by the d6 an encounter uses, and the kernel's share
of that limit; last the bare duel, the ceiling of any numba kernel of this
fight on these dice (the same fight compiled with every number folded into
locals; it must win exactly the kernel's fights), against all three.
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LOADOUT = {"character": "novice", "weapon": "ak47", "body": "vest", "healing": {"stimulator": 2}}
MONSTERS = ["bloodsucker"]
REPEATS = 3  # the kernel and the bare RNG each report their best of this many timings
SEED = 1  # the kernel's and the bare duel's: the same dice, so the same wins


def rng_draws_per_second(n_per_thread: int) -> float:
    """d6 per second of the bare streams on all threads (run under NUMBA_LOOP_VECTORIZE=0)."""
    import numba
    import numpy as np
    from numba import njit, prange

    from sim.kernels.rng import STATE_SIZE, die, mix, start_stream, trial_base

    @njit(parallel=True)
    def draw(n, threads):
        sums = np.zeros(threads, np.int64)
        for t in prange(threads):
            rng = np.zeros(STATE_SIZE, np.uint64)
            start_stream(rng, 0, trial_base(mix(np.uint64(1)), t), 0)
            s = 0
            for _ in range(n):
                s += die(rng, 0, 6)
            sums[t] = s
        return sums

    threads = numba.get_num_threads()
    draw(1000, threads)
    best = 0.0
    for _ in range(REPEATS):
        start = time.perf_counter()
        total = draw(n_per_thread, threads).sum()
        best = max(best, n_per_thread * threads / (time.perf_counter() - start))
        assert 3.4 * n_per_thread * threads < total < 3.6 * n_per_thread * threads
    return best


class Duel(NamedTuple):
    """The scenario's duel in plain numbers, as the reference reads the loadout and
    the content: HP, the one stimulator kind (Z-08), the firearm's dice less the
    monster's defence (Z-15, Z-23), the monster's dice less the armour, the rounds (Z-38)."""

    max_hp: int
    heal: int
    stims: int
    fire_dice: int
    fire_bonus: int
    bite_dice: int
    bite_bonus: int
    monster_hp: int
    max_rounds: int


def duel_numbers(content) -> Duel:
    """The bench scenario as a ``Duel``."""
    from sim.reference import fight as ref

    stalker = ref.prepare_stalker(content, LOADOUT)
    (monster_id,) = MONSTERS
    monster = content["monsters"][monster_id]
    (stim_id, stims_carried), = stalker.healing.items()
    return Duel(max_hp=stalker.max_hp, heal=content["items"]["healing"][stim_id]["heal"] + stalker.heal_bonus,
                stims=stims_carried, fire_dice=stalker.firearm_dice,
                fire_bonus=stalker.firearm_bonus - monster["defence"], bite_dice=monster["dice"],
                bite_bonus=monster["bonus"] - stalker.defence, monster_hp=monster["hp"],
                max_rounds=content["rules"]["fight"]["max_rounds"])


def tight_loop_fights(duel: Duel, trials: int, seed: int = 1) -> tuple[float, int]:
    """The scenario's fights in the tightest plain Python: the rounds of Z-38 on
    local ints, one monster (Z-37), the firearm's dice less the defence (Z-15,
    Z-23) and the one stimulator kind spent at death checks (Z-08), dice from
    ``random.random``. Returns (fights/s, wins)."""
    max_hp, heal, stims_carried, fire_dice, fire_bonus, bite_dice, bite_bonus, monster_hp, max_rounds = duel
    rand = random.Random(seed).random
    wins = 0
    start = time.perf_counter()
    for _ in range(trials):
        hp, stims, mhp = max_hp, stims_carried, monster_hp
        for _ in range(max_rounds):
            damage = fire_dice + fire_bonus
            for _ in range(fire_dice):
                damage += int(rand() * 6)
            if damage > 0:
                mhp -= damage
                if mhp <= 0:
                    wins += 1
                    break
            damage = bite_dice + bite_bonus
            for _ in range(bite_dice):
                damage += int(rand() * 6)
            if damage > 0:
                hp -= damage
                if hp <= 0:
                    if hp + stims * heal < 1:
                        break
                    while hp < 1:
                        hp = min(max_hp, hp + heal)
                        stims -= 1
    return trials / (time.perf_counter() - start), wins


def bare_duel_fights(duel: Duel, trials: int, seed: int) -> tuple[float, int]:
    """The ceiling of a numba kernel on these dice: the same duel as
    ``tight_loop_fights``, compiled, on the kernel's own streams (the same keys,
    words and base-6 digits, so it wins exactly the kernel's fights), with both
    streams and the fight in locals: no view, no strategy, no outcome arrays, no
    loadout read at run time. Best of ``REPEATS`` timings on all threads; returns
    (fights/s, wins)."""
    import numpy as np
    from numba import njit, prange

    from sim.kernels.fight import BLOCK, MONSTER, STALKER
    from sim.kernels.rng import DICE_PER_WORD, GOLDEN, _high_product, mix, stream_key, trial_base

    one, six = np.uint64(1), np.uint64(6)

    @njit(inline="always")
    def dice(key, count, word, left, n):
        total = 0
        for _ in range(n):
            if left == 0:
                count += one
                word, left = mix(key + count * GOLDEN), DICE_PER_WORD
            total += np.int64(_high_product(word, 6)) + 1
            word, left = word * six, left - 1
        return total, count, word, left

    @njit
    def block(seed_mixed, first, last, max_hp, heal, stims, fire_dice, fire_bonus, bite_dice, bite_bonus,
              monster_hp, max_rounds):
        won = 0
        for trial in range(first, last):
            base = trial_base(seed_mixed, trial)
            s_key, m_key = stream_key(base, STALKER), stream_key(base, MONSTER)
            s_count, s_word, s_left = one, mix(s_key + GOLDEN), DICE_PER_WORD
            m_count, m_word, m_left = one, mix(m_key + GOLDEN), DICE_PER_WORD
            hp, left, mhp = max_hp, stims, monster_hp
            for _ in range(max_rounds):
                damage, s_count, s_word, s_left = dice(s_key, s_count, s_word, s_left, fire_dice)
                damage += fire_bonus
                if damage > 0:
                    mhp -= damage
                    if mhp <= 0:
                        won += 1
                        break
                damage, m_count, m_word, m_left = dice(m_key, m_count, m_word, m_left, bite_dice)
                damage += bite_bonus
                if damage > 0:
                    hp -= damage
                    if hp <= 0:
                        if hp + left * heal < 1:
                            break
                        while hp < 1:
                            hp, left = min(max_hp, hp + heal), left - 1
        return won

    @njit(parallel=True)
    def fights(seed, n, max_hp, heal, stims, fire_dice, fire_bonus, bite_dice, bite_bonus, monster_hp, max_rounds):
        n_blocks = (n + BLOCK - 1) // BLOCK
        wins = np.zeros(n_blocks, np.int64)
        seed_mixed = mix(np.uint64(seed))
        for b in prange(n_blocks):
            wins[b] = block(seed_mixed, b * BLOCK, min(n, (b + 1) * BLOCK), max_hp, heal, stims, fire_dice,
                            fire_bonus, bite_dice, bite_bonus, monster_hp, max_rounds)
        return wins.sum()

    fights(seed, 1000, *duel)
    best, wins = 0.0, 0
    for _ in range(REPEATS):
        start = time.perf_counter()
        wins = fights(seed, trials, *duel)
        best = max(best, trials / (time.perf_counter() - start))
    return best, int(wins)


def d6_per_encounter(content_dir, trials: int) -> float:
    """Mean d6 an encounter draws, counted on the reference implementation."""
    from sim.reference import fight as ref

    count = 0
    original = ref.Stream.die

    def counting(self, sides):
        nonlocal count
        count += 1
        return original(self, sides)

    ref.Stream.die = counting
    try:
        ref.run_fights(ref.load_content(content_dir), LOADOUT, MONSTERS, "fighter", 99, trials)
    finally:
        ref.Stream.die = original
    return count / trials


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20_000_000)
    parser.add_argument("--reference-trials", type=int, default=20_000)
    parser.add_argument("--tight-trials", type=int, default=400_000)
    parser.add_argument("--rng-only", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if args.rng_only:
        print(rng_draws_per_second(args.rng_only))
        return

    import numba

    import strategies
    from sim.content import DEFAULT_DIR, load_content
    from sim.reference import fight as ref
    from sim.reference.loadout import loadout_from_dict
    from sim.run.fight import simulate_fight

    content = load_content()
    fighter = strategies.get("fighter")
    loadout = loadout_from_dict(LOADOUT)
    simulate_fight(content, loadout, MONSTERS, fighter, trials=10_000, seed=SEED)  # load from cache / compile
    runs = [simulate_fight(content, loadout, MONSTERS, fighter, trials=args.trials, seed=SEED, chunk=args.trials)
            for _ in range(REPEATS)]
    kernel = max(runs, key=lambda run: run.encounters_per_s)
    kernel_rate = kernel.encounters_per_s

    ref_content = ref.load_content(DEFAULT_DIR)
    start = time.perf_counter()
    reference = ref.run_fights(ref_content, LOADOUT, MONSTERS, "fighter", 1, args.reference_trials)
    ref_rate = args.reference_trials / (time.perf_counter() - start)
    duel = duel_numbers(ref_content)
    tight_rate, tight_wins = max((tight_loop_fights(duel, args.tight_trials, seed) for seed in range(1, 4)),
                                 key=lambda run: run[0])
    bare_rate, bare_wins = bare_duel_fights(duel, args.trials, SEED)

    env = {**os.environ, "NUMBA_LOOP_VECTORIZE": "0"}
    out = subprocess.run([sys.executable, __file__, "--rng-only", str(200_000_000)], env=env,
                         capture_output=True, text=True, check=True)
    rng_rate = float(out.stdout.strip().splitlines()[-1])
    draws = d6_per_encounter(DEFAULT_DIR, 20_000)
    limit = rng_rate / draws

    p_ref = reference["counts"]["win"] / args.reference_trials
    p_tight = tight_wins / args.tight_trials
    p_kernel = kernel.probabilities["p_win"]
    se = math.sqrt(p_kernel * (1 - p_kernel) / args.tight_trials)
    if abs(p_tight - p_kernel) > 4 * se:
        raise SystemExit(f"the tight loop's p_win {p_tight:.4f} is not the kernel's {p_kernel:.4f}: different rules")
    kernel_wins = round(p_kernel * args.trials)
    if bare_wins != kernel_wins:
        raise SystemExit(f"the bare duel won {bare_wins:,} fights, the kernel {kernel_wins:,}: different dice")
    figures = {
        "threads": numba.get_num_threads(),
        "kernel_encounters_per_s": kernel_rate,
        "reference_encounters_per_s": ref_rate,
        "ratio": kernel_rate / ref_rate,
        "tight_loop_encounters_per_s": tight_rate,
        "ratio_to_tight_loop": kernel_rate / tight_rate,
        "bare_duel_encounters_per_s": bare_rate,
        "bare_duel_ratio_to_tight_loop": bare_rate / tight_rate,
        "rng_d6_per_s": rng_rate,
        "d6_per_encounter": draws,
        "rng_limit_encounters_per_s": limit,
        "share_of_rng_limit": kernel_rate / limit,
        "bare_duel_share_of_rng_limit": bare_rate / limit,
        "p_win_kernel": kernel.probabilities["p_win"],
        "p_win_reference": p_ref,
        "p_win_tight_loop": p_tight,
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(f"scenario: novice, ak47, vest, 2 stimulators vs bloodsucker (fighter); {figures['threads']} threads")
    print(f"kernel    {kernel_rate:14,.0f} encounters/s  ({args.trials:,} fights, p_win {kernel.probabilities['p_win']:.4f})")
    print(f"reference {ref_rate:14,.0f} encounters/s  ({args.reference_trials:,} fights, p_win {p_ref:.4f})")
    print(f"ratio     {kernel_rate / ref_rate:14,.0f} x")
    print(f"tight loop {tight_rate:13,.0f} encounters/s  ({args.tight_trials:,} fights, p_win {p_tight:.4f}); "
          f"kernel at {kernel_rate / tight_rate:,.0f} x")
    print(f"rng limit {rng_rate:14,.0f} d6/s / {draws:.2f} d6 per encounter = {limit:,.0f} encounters/s; "
          f"kernel at {kernel_rate / limit:.0%} of it")
    print(f"bare duel {bare_rate:14,.0f} encounters/s  (the same dice, no view or strategy: the ceiling); "
          f"{bare_rate / kernel_rate:.2f} x the kernel, {bare_rate / tight_rate:,.0f} x the tight loop, "
          f"{bare_rate / limit:.0%} of the rng limit")


if __name__ == "__main__":
    main()
