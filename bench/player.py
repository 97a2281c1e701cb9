"""Tuned-player benchmark: how long the tuned journey player (``sim.run.player``)
takes to find for one kit, and what he gains.

    python bench/player.py [--json]

Kits: the three budget tiers' reference kits of the default economy (1,000,
2,500 and 5,000 G, results/example/value.json), each as it is and with an
AK-47. For each: the search time (the built-in family, then Optuna's TPE, 48
candidates of 2,000 campaigns each on the tuning dice; the disk cache off,
the kernels loaded), the best built-in strategy and the tuned player's gain
over it in days to spare on 10,000 other campaigns (paired, with its
standard error). The goal (2 cores): under 60 s a kit.
"""

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

KITS = {"1,000 G": "camo_cloak,zone_map,flashlight,molotov*2",
        "2,500 G": "leather_jacket,camo_cloak,glonass,bag_of_nuts,flashlight,medkit*2,stimulator,molotov*2,limonka*2",
        "5,000 G": "stealth_generator,glonass,dosimeter,nvg,medkit*2,molotov*2,limonka*2,tyoshcha*2"}
GOAL_S = 60
MEASURED = 10_000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    import strategies
    from sim.content import load_content
    from sim.content.journey import load_journey
    from sim.content.loadout import Loadout
    from sim.economy.context import load_context
    from sim.run.journey import campaign_outcomes
    from sim.run.player import tuned_player

    content = load_content()
    objective, goal = load_context(content).objective, load_journey(content).settings["goal_orders"]
    days, seed = 30, 1

    def spare(kit, strategy):
        return objective.score(campaign_outcomes(content, kit, strategy, days=days, seed=seed, first=0, n=MEASURED),
                               days, goal)

    tuned_player(content, Loadout.from_kit(content, KITS["1,000 G"]), objective, goal=goal, days=days, seed=seed,
                 candidates=7, trials=100, cache=False)  # loads the kernels and optuna
    rows = []
    for tier, spec in KITS.items():
        for label, kit_spec in ((tier, spec), (f"{tier} + AK-47", spec + ",ak47")):
            kit = Loadout.from_kit(content, kit_spec)
            start = time.perf_counter()
            player = tuned_player(content, kit, objective, goal=goal, days=days, seed=seed, cache=False)
            seconds = time.perf_counter() - start
            diff = spare(kit, player.strategy) - spare(kit, strategies.get(player.best_built_in, mode="journey"))
            rows.append({"kit": label, "search_s": seconds, "best_built_in": player.best_built_in,
                         "gain_days": float(diff.mean()), "gain_se": float(diff.std(ddof=1) / np.sqrt(diff.size)),
                         "player": player.strategy.description})
    if args.json:
        print(json.dumps({"rows": rows, "goal_s": GOAL_S, "measured_campaigns": MEASURED}))
        return
    print(f"{'kit':20s} {'search s':>8s} {'best built-in':>14s} {'gain (days)':>16s}  player")
    for r in rows:
        print(f"{r['kit']:20s} {r['search_s']:8.1f} {r['best_built_in']:>14s} "
              f"{r['gain_days']:+8.2f} ± {r['gain_se']:.2f}  {r['player']}")
    print(f"goal: under {GOAL_S} s a kit; gains paired over {MEASURED:,} campaigns the search never saw (seed {seed})")


if __name__ == "__main__":
    main()
