"""Optimal-fight benchmark: the exact solve time of ``--strategy optimal`` per fight.

    python bench/optimal.py

Fights: every monster of the default content against each loadout tier of
report.toml, as it is and with 2 limonkas and 2 tyoshchas more (the weapon
choice in play), at reputation 5. Prints each kit's states and its median and
slowest solve over the monsters (backward induction, ``sim.analysis.optimal``;
one process, numpy's threads).
"""

import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

EXTRA = (("limonka", 2), ("tyoshcha", 2))


def main():
    from sim.content import load_content
    from sim.report.study import load_study
    from sim.run.fight import optimal_fight

    content = load_content()
    tiers = load_study(content, quick=True).tiers
    print(f"{'kit':34s} {'states (max)':>14s} {'median s':>9s} {'max s':>7s}")
    for tier, kit in tiers.items():
        for name, loadout in ((tier, kit), (f"{tier} + 2 limonka, 2 tyoshcha", replace(kit, explosives=EXTRA))):
            times, states = [], 0
            for monster in content.monsters:
                start = time.perf_counter()
                _, best = optimal_fight(content, replace(loadout, reputation=5), [monster])
                times.append(time.perf_counter() - start)
                states = max(states, best.states)
            print(f"{name:34s} {states:14,d} {statistics.median(times):9.3f} {max(times):7.3f}")


if __name__ == "__main__":
    main()
