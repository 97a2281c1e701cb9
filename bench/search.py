"""The Stalkeriada search player's speed: playouts per second, one run.

    python bench/search.py [--calls 200] [--games 20]

Scenario: the default content, the search player (``strategies.stalkeriada.
search_player``, his default menu, rollouts and horizon) in seat 1 against
cautious, greedy, jelly and rush. Times his search before a turn
(``sim.kernels.stalkeriada.choose``) from the positions of one game, 5 rounds
apart, as playouts per second (one playout: one setting played on one
determinised rollout for the horizon); then whole games with him at the table,
as games per second, beside the same games with jelly in his seat.
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="searches timed")
    parser.add_argument("--games", type=int, default=20, help="whole games with him at the table")
    args = parser.parse_args()

    import numba
    import numpy as np

    import sim.kernels.stalkeriada as K
    from sim.content import load_content
    from sim.content.stalkeriada import load_stalkeriada
    from sim.kernels.rng import mix
    from sim.run.stalkeriada import compile_tables, game_records, game_template, search_setting, seating
    from strategies.stalkeriada import SEARCH_MENU, search_player
    import strategies

    content = load_content()
    sc = load_stalkeriada(content)
    player = search_player(SEARCH_MENU)
    table = [player, *(strategies.get(n, mode="stalkeriada") for n in ("cautious", "greedy", "jelly", "rush"))]
    n = len(table)
    fns, params = seating(table)
    search, menu = search_setting(table, params.shape[1])
    cfg, squares, prices, tiles0 = compile_tables(sc)
    g = game_template(sc, n)
    rng = np.zeros(K.RNG_SIZE, np.uint64)
    rec = np.zeros((K.N_RECORD, K.MAX_SEATS), np.int64)
    scratch = K.search_scratch(g, search, menu.shape[0])
    K._start_streams(rng, mix(np.uint64(1)), 0, n)
    K.new_game(g, rng, cfg, tiles0, n, np.zeros(n, np.int64), 0)
    g[K.H_ROUND] = 1
    positions = []
    for _ in range(args.calls):
        K.play_on(g, rng, cfg, squares, prices, fns, params, n, 0, rec, 0, int(g[K.H_ROUND]) + 4)
        g[K.H_ROUND] += 1
        positions.append((g.copy(), rng.copy()))
        if g[K.H_WINNER] >= 0:
            break

    def search_all():
        for position, state in positions:
            K.choose(position, 0, 0, state, cfg, squares, prices, fns, params, n, 0, search, menu, scratch)

    search_all()  # load the compiled search
    start = time.perf_counter()
    search_all()
    elapsed = time.perf_counter() - start
    playouts = len(positions) * player.rollouts * len(player.menu)

    game_records(content, table, seed=1, games=1)
    start = time.perf_counter()
    game_records(content, table, seed=1, games=args.games)
    searched_s = time.perf_counter() - start
    start = time.perf_counter()
    game_records(content, [table[3], *table[1:]], seed=1, games=args.games)
    plain_s = time.perf_counter() - start

    print(f"search player: {len(player.menu)} settings x {player.rollouts} rollouts x {player.horizon} rounds; "
          f"{numba.get_num_threads()} threads (the searches run on one)")
    print(f"searches  {len(positions) / elapsed:12,.0f} per s    {elapsed / len(positions) * 1e3:8.2f} ms each")
    print(f"playouts  {playouts / elapsed:12,.0f} per s")
    print(f"games     {args.games / searched_s:12,.2f} per s with him, {args.games / plain_s:,.1f} per s with jelly "
          f"in his seat (one game at a time)")


if __name__ == "__main__":
    main()
