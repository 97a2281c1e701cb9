"""Balance-solver benchmark: how fast ``zonesim balance`` searches, and what it proposes, on the default content.

    python bench/balance.py [--json] [--budget N]

One run of the default ``balance.toml`` (the report's finding thresholds as
bands, the monsters' assumed numbers as knobs), once the kernels are loaded:
candidates measured per minute of search, the whole run's time against the
goal (20 minutes on 2 cores), and the top proposal's changes with every
target whose verdict it changes or that stays missed, before and after, each
measured again at the full counts on fresh dice.
"""

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

GOAL_S = 20 * 60


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--budget", type=int, default=None, help="candidates (default: the file's)")
    args = parser.parse_args()

    from sim import api
    from sim.content import DEFAULT_DIR

    targets = DEFAULT_DIR / "balance.toml"
    api.balance(targets, budget=1, quick=True)  # load the kernels
    start = time.perf_counter()
    result = api.balance(targets, budget=args.budget)
    total = time.perf_counter() - start
    top = result.proposals[0] if result.proposals else None
    rows = [] if top is None else [
        {"metric": t.metric, "band": [t.low, t.high], "before": result.baseline[t.metric]["value"],
         "before_met": result.baseline[t.metric]["met"], "after": top["targets"][t.metric]["value"],
         "after_met": top["targets"][t.metric]["met"]}
        for t in result.targets if not (result.baseline[t.metric]["met"] and top["targets"][t.metric]["met"])]
    out = {"candidates": result.candidates, "search_s": result.search_s, "total_s": total, "goal_s": GOAL_S,
           "candidates_per_min": result.candidates / result.search_s * 60, "targets": len(result.targets),
           "knobs": len(result.spec.knobs), "baseline_met": result.baseline_met(),
           "top": None if top is None else {"met": top["met"], "changes": top["changes"], "rows": rows}}
    if args.json:
        print(json.dumps(out))
        return
    print(f"zonesim balance (default balance.toml, {out['candidates']} candidates): {total:.0f} s "
          f"(goal {GOAL_S} s), {out['candidates_per_min']:.0f} candidates a minute of search")
    if top:
        print(f"top proposal: {len(top['changes'])} numbers, {top['met']} of {out['targets']} targets met "
              f"(baseline {out['baseline_met']})")


if __name__ == "__main__":
    main()
