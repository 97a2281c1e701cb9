"""Economy benchmark: how long the item economy takes on the default content, once compiled.

    python bench/economy.py [--json] [--skip-tune]

Times, in one process after a warm-up that loads the compiled kernels, on the
default content and economy.toml's context (journey campaigns, budget tiers
1,000 / 2,500 / 5,000 G, seed 1):

- ``zonesim value --quick``: every card at the quick valuation counts;
- ``zonesim value``: every card at the full counts;
- ``zonesim value --view fights --quick``: the fights sub-view;
- ``zonesim tune``: prices to values, settled on the quick counts and checked
  (and moved if need be) at the full ones.

The goals (2 cores): value under 30 s, --quick under 15 s, tune under 3
minutes. Each figure is one run; the numbers do not depend on the thread count.
"""

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

GOALS = {"value_quick_s": 15, "value_full_s": 30, "tune_s": 180}


def timed(run):
    start = time.perf_counter()
    result = run()
    return result, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--skip-tune", action="store_true", help="leave out the tuning (the longest)")
    args = parser.parse_args()

    from sim.content import load_content
    from sim.economy.context import declared, load_context
    from sim.economy.tune import tune_prices
    from sim.economy.value import value_cards

    content = load_content()

    def context(quick, view=None):
        return declared(content, load_context(content, quick=quick), view=view)

    value_cards(context(True), items=["flashlight"])  # load the kernels (compiles them on an empty cache)
    quick, quick_s = timed(lambda: value_cards(context(True)))
    full, full_s = timed(lambda: value_cards(context(False)))
    fights, fights_s = timed(lambda: value_cards(context(True, "fights")))
    out = {"value_quick_s": quick_s, "value_full_s": full_s, "value_fights_quick_s": fights_s,
           "value_quick_batches": quick.runs, "value_full_batches": full.runs,
           "rates_g_per_day": {t.label: 1 / t.rate for t in full.tiers if t.rate},
           "overall_g_per_day": full.rate["g_per_unit"]}
    if not args.skip_tune:
        tuned, tune_s = timed(lambda: tune_prices(context(False), coarse=context(True)))
        out.update(tune_s=tune_s, tune_converged=tuned.converged, tune_moves=len(tuned.history) - 1)
    out["goals"] = GOALS
    if args.json:
        print(json.dumps(out))
        return
    print(f"zonesim value --quick          {quick_s:6.1f} s (goal {GOALS['value_quick_s']} s)")
    print(f"zonesim value                  {full_s:6.1f} s (goal {GOALS['value_full_s']} s)")
    print(f"zonesim value --view fights -q {fights_s:6.1f} s")
    if "tune_s" in out:
        state = "converged" if out["tune_converged"] else "did not converge"
        print(f"zonesim tune                   {out['tune_s']:6.1f} s (goal {GOALS['tune_s']} s), {state} in "
              f"{out['tune_moves']} price moves")
    print("rates at the full counts: " + ", ".join(f"{k}: 1 day = {v:,.0f} G" for k, v in
                                                   out["rates_g_per_day"].items())
          + f"; overall 1 day = {out['overall_g_per_day']:,.0f} G")


if __name__ == "__main__":
    main()
