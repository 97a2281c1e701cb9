"""Stalkeriada benchmark: the numba kernel vs the plain-Python reference, one run.

    python bench/stalkeriada.py [--games 20000] [--reference-games 40]

Scenario: the default matchup (cautious, greedy, jelly, rush) on the default
content, 4 players. Prints complete games and player-turns per second for both
and their ratio (player-turns: one seat's turn, jail turns included).
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--reference-games", type=int, default=40)
    args = parser.parse_args()

    import numba

    from sim.content import load_content
    from sim.content.stalkeriada import load_stalkeriada
    from sim.reference import stalkeriada as ref
    import strategies
    from sim.run.stalkeriada import DEFAULT_PLAYERS, simulate_stalkeriada

    content = load_content()
    simulate_stalkeriada(content, DEFAULT_PLAYERS, games=50, seed=1)  # load from cache / compile
    kernel = simulate_stalkeriada(content, DEFAULT_PLAYERS, games=args.games, seed=1, chunk=args.games)
    k_games, k_turns = kernel.games / kernel.elapsed_s, kernel.turns / kernel.elapsed_s

    settings = ref.load_settings(load_stalkeriada(content).path)
    params = [list(strategies.get(p, mode="stalkeriada").params) for p in DEFAULT_PLAYERS]
    start = time.perf_counter()
    records = ref.run_games(settings, params, 1, args.reference_games)
    elapsed = time.perf_counter() - start
    r_games, r_turns = len(records) / elapsed, sum(r["turns"] for r in records) / elapsed

    no_winner = kernel.win_rates()["win_rate"][-1]
    print(f"scenario: {', '.join(DEFAULT_PLAYERS)} on the default content; {numba.get_num_threads()} threads")
    print(f"kernel    {k_games:12,.0f} games/s {k_turns:14,.0f} player-turns/s  ({kernel.games:,} games, "
          f"no winner {no_winner:.3f})")
    print(f"reference {r_games:12,.1f} games/s {r_turns:14,.0f} player-turns/s  ({len(records)} games)")
    print(f"ratio     {k_turns / r_turns:12,.0f} x")


if __name__ == "__main__":
    main()
