"""The Stalkeriada search player (``strategies.stalkeriada.search_player``): before
each of his turns he plays every setting of his menu on the same determinised
rollouts and takes the turn with the best (``sim.kernels.stalkeriada.choose``)."""

import json
from collections import Counter

import numpy as np

import sim.kernels.stalkeriada as K
import strategies
from sim.content.stalkeriada import TILE_KINDS
from sim.run.stalkeriada import game_records, simulate_stalkeriada
from strategies.stalkeriada import search_player
from tests.conftest import zonesim
from tests.rules.stalkeriada_table import Table

SHIPPED = ("cautious", "greedy", "jelly", "rush")


def _settings(*names):
    return [strategies.get(n, mode="stalkeriada") for n in names]


def test_s24_a_determinised_board_keeps_what_the_seats_have_seen(content):
    """Face-up tiles and fence cells stay; the face-down tiles are the same multiset,
    laid again; over many draws each face-down cell holds each hidden tile kind in
    proportion to its count (4 standard errors). Shuffling every cell, or never
    moving a tile, fails this."""
    t = Table(content)
    g, cells = t.g, t.g[K.H_CELLS]
    up = np.zeros(cells, bool)
    up[::3] = True
    g[g[K.H_O_UP]:g[K.H_O_UP] + cells] = up
    g[g[K.H_O_FENCE_UP]:g[K.H_O_FENCE_UP] + 3] = 1
    tiles = g[g[K.H_O_TILE]:g[K.H_O_TILE] + cells].copy()
    fences = g[g[K.H_O_FENCE]:g[K.H_O_FENCE] + g[K.H_FENCES]].copy()
    hidden = Counter(tiles[~up].tolist())
    rng = np.zeros(K.RNG_SIZE, np.uint64)
    work = np.zeros(cells, np.int64)
    draws, cell = 4000, int(np.flatnonzero(~up)[0])
    seen = Counter()
    for i in range(draws):
        copy = g.copy()
        K._start_streams(rng, np.uint64(i + 1), i, 1)
        K.determinise(copy, rng, work)
        laid = copy[g[K.H_O_TILE]:g[K.H_O_TILE] + cells]
        assert (laid[up] == tiles[up]).all()
        assert Counter(laid[~up].tolist()) == hidden
        assert (copy[g[K.H_O_FENCE]:g[K.H_O_FENCE] + 3] == fences[:3]).all()
        seen[int(laid[cell])] += 1
    n_down = int((~up).sum())
    for kind, count in hidden.items():
        p = count / n_down
        se = (p * (1 - p) / draws) ** 0.5
        assert abs(seen[kind] / draws - p) < 4 * se + 1e-9, (TILE_KINDS[kind], seen[kind], p)


def test_s05_a_search_over_one_setting_plays_that_setting_on_the_same_dice(content):
    """His rollouts draw their own dice: with a menu of one setting, every game is the
    setting's own game, move for move (the records of every seat agree)."""
    jelly, greedy = _settings("jelly", "greedy")
    plain = game_records(content, [jelly, greedy], seed=4, games=6)
    searched = game_records(content, [search_player([jelly], rollouts=3, horizon=4), greedy], seed=4, games=6)
    for a, b in zip(plain, searched):
        assert np.array_equal(a, b)


def test_the_search_player_gives_the_same_numbers_for_any_chunking_and_thread_count(content):
    from sim.options import set_threads

    player = search_player(_settings(*SHIPPED), rollouts=2, horizon=3)
    table = [player, "cautious", "rush"]
    whole = simulate_stalkeriada(content, table, games=6, seed=7, rotate_seats=True)
    set_threads(1)
    try:
        pieces = simulate_stalkeriada(content, table, games=6, seed=7, rotate_seats=True, chunk=5)
    finally:
        set_threads(None)
    assert np.array_equal(whole.tally, pieces.tally)
    assert whole.turns > 0 and whole.games == 18


def test_the_search_player_sits_at_a_table_with_his_budget(content):
    out = zonesim("stalkeriada", "--players", "search,rush", "--games", "2", "--rollouts", "2", "--horizon", "2",
                  "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["players"] == ["search", "rush"]
    assert data["search"].startswith("searches jelly, cautious, greedy, rush before each turn: 2 determinised")
    for args, words in ((("--players", "search,rush", "--rollouts", "0"), "--rollouts: 0; give at least 1"),
                        (("--players", "search,rush", "--horizon", "-1"), "--horizon: -1; give at least 1"),
                        (("--players", "cautious,rush", "--rollouts", "4"), "no search seat at the table"),
                        (("--players", "search,search,rush"), "seat at most one search player"),
                        (("--players", "search,tuned,rush"), "tuned and search at one table")):
        refused = zonesim("stalkeriada", *args, "--games", "2")
        assert refused.returncode == 2 and words in refused.stderr and "Traceback" not in refused.stderr, \
            (args, refused.stderr)
    refused = zonesim("stalkeriada-matrix", "--players", "search,rush,greedy")
    assert refused.returncode == 2 and "not for a round robin" in refused.stderr


def test_zonesim_strategies_lists_the_search_player():
    out = zonesim("strategies", "--json")
    listed = {s["name"]: s for s in json.loads(out.stdout)["stalkeriada"]}
    assert listed["search"]["params"]["rollouts"] == 8 and listed["search"]["params"]["horizon_rounds"] == 10
    assert "finish first" in listed["search"]["optimises"]


def test_s09_starting_on_rush_he_takes_the_jelly_orders_his_rollouts_value(content):
    """Rush never takes a witch's-jelly order (S-09); the search player who starts on
    rush with jelly in his menu leaves rush when an order is offered (his rollouts
    count the order at a quarter of its reward) and takes some."""
    rush, jelly, greedy = _settings("rush", "jelly", "greedy")
    orders = K.RECORD_FIELDS.index("jelly_orders")
    plain = game_records(content, [rush, greedy], seed=4, games=12)[1]
    searched = game_records(content, [search_player([rush, jelly], rollouts=4, horizon=4), greedy], seed=4,
                            games=12)[1]
    assert plain[:, orders, 0].sum() == 0
    assert searched[:, orders, 0].sum() > 0
