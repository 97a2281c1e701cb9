"""Skirmish benchmark: the numba kernel vs the plain-Python reference, one run.

    python bench/skirmish.py [--trials 400000] [--reference-trials 2000] [--strategy hold]

Scenario: one novice (AK-47, vest, 2 stimulators) against a bloodsucker and a
blind dog on the built-in 15 x 15 arena, default content. Prints skirmishes
and fighter-turns per second for both and their ratio.
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=400_000)
    parser.add_argument("--reference-trials", type=int, default=2_000)
    parser.add_argument("--strategy", default="hold")
    args = parser.parse_args()

    import numba

    from sim.content import load_content
    from sim.content.skirmish import load_arena, load_skirmish, make_setup, parse_member
    from sim.reference import skirmish as ref
    import strategies
    from sim.run.skirmish import simulate_skirmish

    content = load_content()
    sk = load_skirmish(content)
    setup = make_setup(content, sk, [parse_member(content, "novice:ak47,vest,stimulator*2")],
                       ["bloodsucker", "blind_dog"], load_arena(sk), args.strategy)
    strategy = strategies.get(args.strategy, mode="skirmish")
    simulate_skirmish(setup, strategy, trials=100, seed=1)  # load from cache / compile
    kernel = simulate_skirmish(setup, strategy, trials=args.trials, seed=1, chunk=args.trials)
    k_rate = kernel.trials / kernel.elapsed_s

    start = time.perf_counter()
    records = ref.run(setup, 1, args.reference_trials)
    elapsed = time.perf_counter() - start
    r_rate = len(records) / elapsed
    survive = sum(r["all_alive"] for r in records) / len(records)

    print(f"scenario: novice (ak47, vest, 2 stimulators) vs bloodsucker + blind dog, built-in 15x15 arena, "
          f"{args.strategy}; {numba.get_num_threads()} threads")
    print(f"kernel    {k_rate:12,.0f} skirmishes/s  ({kernel.trials:,} skirmishes, "
          f"survival {kernel.summary()['p_survive']:.4f})")
    print(f"reference {r_rate:12,.1f} skirmishes/s  ({len(records):,} skirmishes, survival {survive:.4f})")
    print(f"ratio     {k_rate / r_rate:12,.0f} x")


if __name__ == "__main__":
    main()
