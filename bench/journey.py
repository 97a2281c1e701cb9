"""Journey benchmark: the numba kernel vs the plain-Python reference, one run.

    python bench/journey.py [--trials 400000] [--reference-trials 400]

Scenario: novice, ak47, helmet, vest, 2 stimulators, 2 medkits, zone map, on the
default map's three orders over 30 days, greedy (fighter, fewest steps). Prints
journeys and hex-steps per second for both and their ratio.
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LOADOUT = {"weapon": "ak47", "head": "helmet", "body": "vest", "healing": {"stimulator": 2, "medkit": 2},
           "movement": ["zone_map"]}
STRATEGY = {"fight": "fighter", "danger_weight": 0, "recover_loot": True}
DAYS = 30


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=400_000)
    parser.add_argument("--reference-trials", type=int, default=400)
    args = parser.parse_args()

    import numba

    from sim.content import DEFAULT_DIR, load_content
    from sim.reference import journey as ref
    from sim.reference.loadout import loadout_from_dict
    import strategies
    from sim.run.journey import simulate_journey

    content, loadout, greedy = load_content(), loadout_from_dict(LOADOUT), strategies.get("greedy", mode="journey")
    simulate_journey(content, loadout, greedy, days=DAYS, trials=1000, seed=1)  # load from cache / compile
    kernel = simulate_journey(content, loadout, greedy, days=DAYS, trials=args.trials, seed=1, chunk=args.trials)
    k_rate, k_steps = args.trials / kernel.elapsed_s, kernel.hex_steps / kernel.elapsed_s

    ref_content = ref.load_journey_content(DEFAULT_DIR)
    start = time.perf_counter()
    reference = ref.run_journeys(ref_content, LOADOUT, STRATEGY, DAYS, 1, args.reference_trials)
    elapsed = time.perf_counter() - start
    r_rate, r_steps = args.reference_trials / elapsed, sum(reference["traffic"].values()) / elapsed

    print(f"scenario: novice, ak47, helmet, vest, 2 stimulators, 2 medkits, zone map; 3 orders, {DAYS} days, "
          f"greedy; {numba.get_num_threads()} threads")
    print(f"kernel    {k_rate:12,.0f} journeys/s {k_steps:14,.0f} hex-steps/s  "
          f"(p_complete {kernel.probabilities['p_complete']:.4f})")
    print(f"reference {r_rate:12,.0f} journeys/s {r_steps:14,.0f} hex-steps/s  "
          f"(p_complete {reference['counts']['completed'] / args.reference_trials:.4f})")
    print(f"ratio     {k_steps / r_steps:12,.0f} x")


if __name__ == "__main__":
    main()
