"""Stalkeriada rules by id (RULES S-01..S-24, docs/stalkeriada-resolution.md).

Hand-set positions are played through the kernel's own ``turn``; the dice a
test expects are read from the seat's stream beforehand (never from the code
under test). Sub-mechanics with closed forms (fence, trap, Golden Ball, the
City walk) are checked against them within 4 standard errors."""

import numpy as np
import pytest

import sim.kernels.stalkeriada as K
from sim.content.loadout import LoadoutError
from sim.content.stalkeriada import TILE_KINDS, load_stalkeriada
from sim.hexgrid import COUNTER_CLOCKWISE, neighbour_table
from sim.run.chunks import Checkpoints
from sim.run.stalkeriada import game_records, simulate_stalkeriada
from strategies.stalkeriada import exit_cost as strategy_exit_cost
from strategies.stalkeriada import planner
from tests.conftest import proportion_tolerance, stalkeriada_content
from tests.rules.stalkeriada_table import TILE, Table


@pytest.fixture
def table(content):
    return Table(content)


def _repeat(table, trials, outcome):
    """Play one turn ``trials`` times from the current position (fresh dice each
    time), then put the position back."""
    start = table.g.copy()
    counts = {}
    for _ in range(trials):
        table.g[:] = start
        table.turn(0)
        key = outcome(table)
        counts[key] = counts.get(key, 0) + 1
    table.g[:] = start
    return counts


def _assert_rates(counts, expected, trials):
    for key, p in expected.items():
        got = counts.get(key, 0) / trials
        assert abs(got - p) <= proportion_tolerance(p, trials), f"{key}: {got:.4f} vs exact {p:.4f}"
    assert set(counts) <= set(expected), f"unexpected outcomes {set(counts) - set(expected)}"


# ---------------------------------------------------------------- board (S-10, S-24)

def test_s24_board_holds_the_content_tiles_and_fence_mix(content):
    sc = load_stalkeriada(content)
    counts = np.zeros(len(TILE_KINDS), int)
    fences = np.zeros(3, int)
    t = Table(content)
    for game in range(1000):
        t.new_board(game)
        tiles = t.g[t.g[K.H_O_TILE]:t.g[K.H_O_TILE] + 49]
        assert sorted(tiles) == sorted(t.tiles0)  # a permutation of the 49 tiles
        counts += np.bincount(tiles, minlength=len(TILE_KINDS))
        fences += np.bincount(t.g[t.g[K.H_O_FENCE]:t.g[K.H_O_FENCE] + 7], minlength=3)
        assert not t.g[t.g[K.H_O_UP]:t.g[K.H_O_UP] + 49].any()
    assert list(counts) == [1000 * sc.settings["tiles"][k] for k in TILE_KINDS]
    n = fences.sum()
    for kind, p in zip(("gap", "fence", "ambush"), (0.4, 0.4, 0.2)):  # S-12 [A] mix
        assert abs(fences[("gap", "fence", "ambush").index(kind)] / n - p) <= proportion_tolerance(p, n)


def test_s24_tile_positions_are_uniform(content):
    """Fisher-Yates over BOARD: the Golden Ball lies on each of 49 cells alike."""
    where = np.zeros(49, int)
    t = Table(content)
    for game in range(2000):
        t.new_board(game)
        where[list(t.g[t.g[K.H_O_TILE]:t.g[K.H_O_TILE] + 49]).index(TILE["golden_ball"])] += 1
    assert abs(where / 2000 - 1 / 49).max() <= proportion_tolerance(1 / 49, 2000)


def test_s10_seats_start_in_the_city_with_start_money(table):
    for s in range(2):
        assert (table.get(s, "where"), table.get(s, "at"), table.get(s, "money")) == (K.CITY, 0, 1000)


PAIR = ("cautious", "greedy")


def test_s10_start_bonus_zero_reproduces_the_games_without_it(content):
    """A bonus of 0 G for everyone changes no die and no number (S-10's starting money as it is)."""
    players = ("cautious", "greedy", "jelly", "rush")
    plain = simulate_stalkeriada(content, players, games=150, seed=21, rotate_seats=True)
    zero = simulate_stalkeriada(content, players, games=150, seed=21, rotate_seats=True, start_bonus=(0, 0, 0, 0))
    assert np.array_equal(plain.tally, zero.tally)
    for a, b in zip(game_records(content, players, seed=4, games=30, rotation=1),
                    game_records(content, players, seed=4, games=30, rotation=1, start_bonus=[0] * 4)):
        assert np.array_equal(a, b)


def test_s10_start_bonus_raises_its_players_win_rate_in_every_seat(content):
    """The first player starting with an exit visa's price (S-04) above the starting money
    wins far more often, in each seat he takes (the bonus follows him through the
    rotations); each gain is above 4 standard errors of the difference."""
    visa = load_stalkeriada(content).settings["shop"]["exit_visa"]
    base = simulate_stalkeriada(content, PAIR, games=1500, seed=17, rotate_seats=True).seat_rates()
    rich = simulate_stalkeriada(content, PAIR, games=1500, seed=17, rotate_seats=True,
                                start_bonus=(visa, 0)).seat_rates()
    for seat in (1, 2):
        p0, n0 = _seat_rate(base, "cautious", seat)
        p1, n1 = _seat_rate(rich, "cautious", seat)
        se = np.sqrt(p0 * (1 - p0) / n0 + p1 * (1 - p1) / n1)
        assert p1 - p0 > 4 * se, f"seat {seat}: {p0:.3f} -> {p1:.3f}"


def _seat_rate(rates, strategy, seat):
    row = rates.filter((rates["strategy"] == strategy) & (rates["seat"] == seat)).row(0, named=True)
    return row["win_rate"], row["games"]


def test_s10_start_bonus_sums_alike_in_any_chunks_and_keeps_its_own_checkpoints(content, tmp_path):
    """The same seed gives the same sums for any chunk size, and a checkpoint store holding
    the chunks of the same games without the bonus is not read for the run with it."""
    bonus = (3000, 0)
    whole = simulate_stalkeriada(content, PAIR, games=300, seed=9, rotate_seats=True, start_bonus=bonus)
    store = Checkpoints(tmp_path / "checkpoints", {}, resume=False)
    plain = simulate_stalkeriada(content, PAIR, games=300, seed=9, rotate_seats=True, chunk=77, store=store)
    stored = simulate_stalkeriada(content, PAIR, games=300, seed=9, rotate_seats=True, chunk=77, store=store,
                                  start_bonus=bonus)
    again = simulate_stalkeriada(content, PAIR, games=300, seed=9, rotate_seats=True, chunk=77, store=store,
                                 start_bonus=bonus)
    assert not np.array_equal(whole.tally, plain.tally)
    assert np.array_equal(whole.tally, stored.tally) and np.array_equal(whole.tally, again.tally)


@pytest.mark.parametrize("start_bonus", [(-1, 0), (0,), (0, 0, 0), (2.5, 0)])
def test_s10_start_bonus_is_one_whole_number_at_or_above_0_per_player(content, start_bonus):
    with pytest.raises(LoadoutError, match="start_bonus"):
        simulate_stalkeriada(content, PAIR, games=10, seed=1, start_bonus=start_bonus)


def test_s13_neighbours_are_odd_r_and_symmetric():
    nbr = neighbour_table(7, 7, COUNTER_CLOCKWISE)
    assert list(nbr[0]) == [1, -1, -1, -1, -1, 7]        # (0,0): E, and SE (1,0)
    assert list(nbr[8]) == [9, 2, 1, 7, 15, 16]          # (1,1), odd row
    assert list(nbr[16]) == [17, 9, 8, 15, 22, 23]       # (2,2), even row
    for x in range(49):
        for d in range(6):
            n = nbr[x, d]
            if n >= 0:
                assert nbr[n, (d + 3) % 6] == x          # opposite directions meet


# ---------------------------------------------------------------- City (S-01..S-10)

def test_s01_city_walk_matches_the_markov_chain(tmp_path):
    """Landing squares after t = 1..6 moves from square 0 against P^t of the d6 walk.
    The seat carries loot, so no square moves it off the loop (police never arrest here)."""
    content = stalkeriada_content(tmp_path, {"police": {"arrest_on": 7}, "borscht": {"partner_on": 7}})
    table = Table(content, players=("rush", "rush"))
    Q = table.cfg[K.C_SQUARES]
    step = np.zeros((Q, Q))
    for q in range(Q):
        for k in range(1, 7):
            step[q, (q + k) % Q] += 1 / 6
    table.params[:, 6] = 10 ** 9  # never sells
    walks, moves = 3000, 6
    seen = np.zeros((moves, Q))
    start = table.g.copy()
    for _ in range(walks):
        table.g[:] = start
        table.give_chips(0, [5], origin=0)
        for t in range(moves):
            table.turn(0)
            seen[t, table.get(0, "at")] += 1
    dist = np.eye(Q)[0]
    for t in range(moves):
        dist = dist @ step
        for q in range(Q):
            assert abs(seen[t, q] / walks - dist[q]) <= proportion_tolerance(dist[q], walks), (t, q)


def _land_on(table, s, square):
    """Put seat ``s`` where its next d6 lands it on ``square``."""
    table.set(s, where=K.CITY, at=(square - table.next_dice(s, 1)[0]) % table.cfg[K.C_SQUARES])


def test_s03_exit_puts_a_stalker_without_loot_before_the_fence(table):
    _land_on(table, 0, 0)
    table.turn(0)
    assert table.get(0, "where") == K.OUTSIDE
    table.set(0, where=K.CITY)
    table.give_chips(0, [3], origin=10)
    _land_on(table, 0, 0)
    table.turn(0)
    assert (table.get(0, "where"), table.get(0, "at")) == (K.CITY, 0)  # with loot he stays


def test_s04_shop_sells_the_kit_at_its_prices(table):
    shop = table.squares.tolist().index(K.SHOP)
    _land_on(table, 0, shop)
    table.turn(0)  # cautious: pliers 100, nut 50, nut 50, OZK 500 from 1000
    assert (table.get(0, "pliers"), table.get(0, "nuts"), table.get(0, "ozk"), table.get(0, "money")) == (1, 2, 1, 300)
    assert table.rec[K.R_BOUGHT_NUT, 0] == 2


def test_s05_buying_the_exit_visa_wins(table):
    shop = table.squares.tolist().index(K.SHOP)
    table.set(0, money=25_000)
    _land_on(table, 0, shop)
    table.turn(0)
    assert table.g[K.H_WINNER] == 0 and table.get(0, "money") == 0 and table.rec[K.R_BOUGHT_VISA, 0] == 1
    assert table.get(0, "place") == 1 and table.g[K.H_FINISHED] == 1


def _places(records):
    return records[:, K.RECORD_FIELDS.index("place"), :]


def test_s05_a_visa_ends_the_game_for_its_buyer_only(tmp_path):
    """Play goes on until all but one have finished; the finishers are placed in
    the order they finished, the one left is last."""
    content = stalkeriada_content(tmp_path, {"shop": {"exit_visa": 6000}})
    results, records, _ = game_records(content, ["cautious", "greedy", "jelly", "rush"], seed=8, games=120)
    visas = (records[:, K.RECORD_FIELDS.index("bought_exit_visa"), :]
             + records[:, K.RECORD_FIELDS.index("golden_visa"), :])
    places = _places(records)
    ended = results[:, 3] < results[:, 1]  # the last round is not complete: ended by a finish
    assert ended.sum() >= 10  # loot is finite (S-06): most games reach the cap even at 6,000 G
    for i in np.nonzero(ended)[0]:
        assert sorted(places[i]) == [1, 2, 3, 4] and visas[i].sum() == 3, f"game {i}"
        assert places[i, visas[i] == 0].tolist() == [4] and places[i, results[i, 0]] == 1
        assert records[i, K.RECORD_FIELDS.index("last"), :].tolist() == (places[i] == 4).astype(int).tolist()


def test_s05_at_the_round_cap_the_players_still_in_are_ranked_by_money(tmp_path):
    content = stalkeriada_content(tmp_path, {"game": {"round_cap": 12}})
    results, records, _ = game_records(content, ["cautious", "greedy", "jelly", "rush"], seed=2, games=60)
    money = records[:, K.R_MONEY, :]
    for i in np.nonzero(results[:, 0] < 0)[0]:
        order = sorted(range(4), key=lambda s: (-money[i, s], s))
        assert [_places(records)[i, s] for s in order] == [1, 2, 3, 4], f"game {i}"


def test_s02_police_jail_confiscates_everything_but_money(table):
    police = table.squares.tolist().index(K.POLICE)
    table.set(0, where=K.CITY, at=(police - 1) % 16, pliers=1, ozk=1, nuts=2, money=700)
    table.give_chips(0, [4, 9], origin=20)
    table.g[table.g[K.H_O_CHIP_ORIGIN] + 9] = 33
    table.burn_until(0, lambda move, arrest, _: arrest >= 5)
    table.set(0, at=(police - table.next_dice(0, 1)[0]) % 16)
    table.turn(0)
    assert table.get(0, "jailed") == 1 and table.get(0, "at") == police
    assert (table.get(0, "pliers"), table.get(0, "ozk"), table.get(0, "nuts"), table.get(0, "chips")) == (0, 0, 0, 0)
    assert table.get(0, "money") == 700
    assert table.chip_place(4) == 20 and table.chip_place(9) == 33  # loot back to its cells
    assert table.rec[K.R_ARRESTS, 0] == 1
    # in jail until a 5-6
    first = table.next_dice(0, 1)[0]
    table.turn(0)
    assert table.get(0, "jailed") == (0 if first >= 5 else 1)


def test_s02_a_carried_zuda_slips_away(table):
    police = table.squares.tolist().index(K.POLICE)
    table.set(0, pliers=1)
    table.give_chips(0, [0, 7], origin=12)  # chip 0 is a Zuda
    table.burn_until(0, lambda move, arrest, _: arrest >= 5)
    table.set(0, where=K.CITY, at=(police - table.next_dice(0, 1)[0]) % 16)
    table.turn(0)
    assert table.get(0, "jailed") == 0 and table.get(0, "pliers") == 1
    assert table.chip_place(0) == K.BOX and table.chip_place(7) == K.backpack(0)
    assert table.rec[K.R_ZUDA_ESCAPES, 0] == 1


def test_s06_borscht_pays_the_price_table_sold_loot_leaves_play_and_s07_halves_a_shared_sale(table):
    borscht = table.squares.tolist().index(K.BORSCHT)
    for shared in (0, 1):
        table.set(0, money=0, shared=shared, chips=0, partner=1)
        table.give_chips(0, [3, 4, 5], origin=8)
        _land_on(table, 0, borscht)
        price_roll = table.next_dice(0, 2)[1]
        table.turn(0)
        gain = 3 * [500, 500, 1000, 1000, 2000, 2000][price_roll - 1]
        assert table.get(0, "money") == (gain // 2 if shared else gain)
        assert table.chip_place(3) == K.GONE and table.get(0, "chips") == 0  # S-06: not back to the box


def test_s07_partner_joins_on_a_six_pays_deposit_and_bonus(table):
    borscht = table.squares.tolist().index(K.BORSCHT)
    table.burn_until(0, lambda move, check, _: check == 6)
    table.set(0, where=K.CITY, at=(borscht - table.next_dice(0, 1)[0]) % 16, money=0)
    table.turn(0)
    assert table.get(0, "partner") == 1 and table.get(0, "money") == 300
    # back in the City alive (a corridor): +2700, and the next sale is shared
    table.tile(0, "corridor", up=True)
    table.place(0, K.GATE, 0)
    table.turn(0)
    assert (table.get(0, "partner"), table.get(0, "shared"), table.get(0, "money")) == (0, 1, 3000)


def test_s07_the_partner_goes_first_and_dies_on_a_trap(table):
    table.all_tiles("grass")
    table.tile(0, "trap")
    table.set(0, partner=1)
    table.place(0, K.GATE, 0)
    table.burn_until(0, lambda steps, *_: steps == 1)
    table.turn(0)
    assert table.get(0, "partner") == 0 and table.get(0, "where") == K.GATE  # he stays; the step is spent
    assert table.is_up(0)


def test_s08_butcher_treats_on_credit(table):
    table.walk_east(into="trap")
    table.set(0, money=200)
    table.burn_until(0, lambda steps, roll, _: roll >= 5)  # steps, then a surviving trap roll
    table.turn(0)
    assert (table.get(0, "where"), table.get(0, "at"), table.get(0, "money")) == (K.CITY, 10, -800)


def test_s09_jelly_order_and_delivery(table):
    jelly = table.squares.tolist().index(K.JELLY_ORDER)
    table.params[0, 5] = 1
    table.burn_until(0, lambda move, roll, _: roll == 6)
    table.set(0, where=K.CITY, at=(jelly - table.next_dice(0, 1)[0]) % 16)
    table.turn(0)
    assert table.get(0, "container") == K.EMPTY_CONTAINER and table.rec[K.R_JELLY_ORDERS, 0] == 1
    table.set(0, container=K.FULL_CONTAINER, filled=1, money=0)
    table.g[K.H_ROUND] = 1  # filled this round: no accident roll
    _land_on(table, 0, jelly)
    table.turn(0)
    assert table.get(0, "money") == 20_000 and table.get(0, "container") == K.NO_CONTAINER


# ---------------------------------------------------------------- fence (S-11, S-12)

@pytest.mark.parametrize("kind,pliers,expected", [
    ("gap", 0, {"jail": 1 / 2, "in": 1 / 2}),
    ("gap", 1, {"jail": 1 / 2, "in": 1 / 2}),
    ("fence", 0, {"fail": 1.0}),
    ("fence", 1, {"jail": 1 / 6, "in": 5 / 6}),
    ("ambush", 1, {"jail": 1.0}),
])
def test_s11_fence_outcomes_are_exact(table, kind, pliers, expected):
    table.all_tiles("stop", up=False)
    table.fence(3, kind)
    table.place(0, K.OUTSIDE, 3)
    table.set(0, pliers=pliers)

    def outcome(t):
        return "jail" if t.get(0, "jailed") else "fail" if t.get(0, "where") == K.OUTSIDE else "in"

    trials = 6000
    _assert_rates(_repeat(table, trials, outcome), expected, trials)


def test_s12_leaving_needs_loot_and_the_same_ambush_check(table):
    table.all_tiles("grass")
    table.fence(2, "fence", up=True)
    table.place(0, K.CELL, 2)
    table.set(0, pliers=1)
    table.give_chips(0, [6], origin=30)

    def outcome(t):
        return "jail" if t.get(0, "jailed") else "out" if t.get(0, "where") == K.CITY else "zone"

    table.params[0, 4] = 1  # home with one chip
    trials = 6000
    _assert_rates(_repeat(table, trials, outcome), {"jail": 1 / 6, "out": 5 / 6}, trials)
    # without loot the planner cannot leave: it stays in the Zone
    table.set(0, chips=0)
    table.g[table.g[K.H_O_CHIP_PLACE] + 6] = K.BOX
    table.turn(0)
    assert table.get(0, "where") == K.CELL


@pytest.mark.parametrize("changes,fence_choice,exit_cost", [
    ({}, 1, 1),  # default rolls: a gap lets him in 1/2, pliers 5/6
    ({"gap_ambush_on": 7, "pliers_ambush_on": 1}, 0, 4),  # gaps never ambush, pliers always do
])
def test_s11_s12_planner_odds_come_from_the_content(tmp_path, changes, fence_choice, exit_cost):
    t = Table(stalkeriada_content(tmp_path, {"fence": changes}))
    t.all_tiles("stop", up=False)
    t.fence(0, "gap", up=True)
    t.fence(1, "fence", up=True)
    t.fence(2, "fence", up=True)
    t.set(0, pliers=1)
    assert planner(K.D_FENCE, 0, t.g, t.params[0]) == fence_choice
    assert strategy_exit_cost(t.g, 2, 1) == exit_cost


# ---------------------------------------------------------------- Zone (S-13..S-22)

def test_s13_no_two_stalkers_share_a_cell(table):
    table.walk_east()
    table.place(1, K.CELL, 1)
    table.turn(0)
    assert table.get(0, "at") == 0  # east is taken: the move ends


def test_s14_loot_fills_the_backpack_to_five(table):
    table.walk_east(into="loot")
    table.give_chips(0, [2, 3, 4, 5, 6], origin=40)
    table.turn(0)
    assert table.get(0, "chips") == 5
    lying = [c for c in range(14) if table.chip_place(c) == 1]
    assert len(lying) == 1  # the revealed chip waits on the cell
    table.set(0, chips=4)
    table.g[table.g[K.H_O_CHIP_PLACE] + 2] = K.BOX
    table.place(0, K.CELL, 0)
    table.turn(0)
    assert table.get(0, "chips") == 5 and table.chip_place(lying[0]) == K.backpack(0)


def test_s14_a_loot_cell_emptied_of_its_loot_becomes_grass(table):
    table.walk_east(into="loot", background="stop")
    table.give_chips(0, [2, 3, 4, 5, 6], origin=40)
    table.turn(0)  # a full backpack: the chip stays, the cell is still loot
    assert table.g[table.g[K.H_O_TILE] + 1] == TILE["loot"]
    table.set(0, chips=4)
    table.g[table.g[K.H_O_CHIP_PLACE] + 2] = K.BOX
    table.place(0, K.CELL, 0)
    table.turn(0)
    assert table.get(0, "chips") == 5 and table.g[table.g[K.H_O_TILE] + 1] == TILE["grass"]


@pytest.mark.parametrize("kind,ozk,expected", [
    ("trap", 1, {"butcher": 1 / 3, "dead": 2 / 3}),
    ("fire_fluff", 0, {"butcher": 1 / 3, "dead": 2 / 3}),
    ("fire_fluff", 1, {"fine": 1.0}),
    ("devils_cabbage", 1, {"fine": 1.0}),
    ("mosquito_bald", 1, {"dead": 1.0}),
])
def test_s15_trap_survival_is_exact(table, kind, ozk, expected):
    table.walk_east(into=kind, background="stop")
    table.set(0, ozk=ozk, money=1000)

    def outcome(t):
        if t.get(0, "where") == K.CELL:
            return "fine"
        return "butcher" if t.get(0, "money") == 0 else "dead"

    trials = 6000
    _assert_rates(_repeat(table, trials, outcome), expected, trials)


def test_s15_survivor_lays_his_container_on_the_previous_cell_and_takes_it_back(table):
    table.walk_east(background="stop")
    table.tile(1, "trap")
    table.set(0, container=K.FULL_CONTAINER, filled=1)
    table.burn_until(0, lambda steps, roll, _: roll >= 5)
    table.turn(0)
    assert table.get(0, "at") == 10 and table.get(0, "container") == K.FULL_CONTAINER
    assert table.get(0, "container_at") == 0 and not K.has_loot(table.g, table.o(0))  # his, not carried
    table.tile(0, "stop", up=True)  # back on that cell, and there the turn ends
    table.place(0, K.GATE, 0)
    table.turn(0)
    assert table.get(0, "container_at") == -1 and K.has_loot(table.g, table.o(0))


def test_s15_survivor_lays_his_items_on_the_previous_cell(table):
    table.walk_east()
    table.tile(2, "trap")
    table.give_chips(0, [4, 5], origin=44)
    table.burn_until(0, lambda steps, roll, _: steps >= 2 and roll >= 5)
    table.turn(0)
    assert table.get(0, "at") == 10 and table.chip_place(4) == 1 and table.chip_place(5) == 1


def test_s16_swamp_hummocks_come_from_the_content(tmp_path):
    t = Table(stalkeriada_content(tmp_path, {"zone": {"swamp_3_hummocks": 1}}))
    t.walk_east(into="swamp_3")
    t.burn_until(0, lambda steps, *_: steps >= 2)
    steps = t.next_dice(0, 1)[0]
    t.turn(0)
    assert t.get(0, "at") == steps  # one step a cell, the swamp's too


def test_s16_swamp_costs_its_hummocks(table):
    table.walk_east(into="swamp_3")
    steps = table.next_dice(0, 1)[0]
    table.turn(0)
    assert table.get(0, "at") == (1 if steps <= 3 else 1 + steps - 3)


def test_s17_basement_fills_spills_and_accident(table):
    table.walk_east(background="stop")
    table.tile(1, "jelly_basement", up=True)
    table.set(0, container=K.EMPTY_CONTAINER, money=1000)

    def outcome(t):
        if t.get(0, "container") == K.FULL_CONTAINER:
            return "full"
        if t.get(0, "where") == K.CELL:
            return "nothing"
        return "butcher" if t.get(0, "money") == 0 else "dead"

    trials = 6000  # fill 2/6; spill 1/6 then the trap roll (1/3 survive); nothing 3/6
    _assert_rates(_repeat(table, trials, outcome),
                  {"full": 1 / 3, "nothing": 1 / 2, "butcher": 1 / 18, "dead": 1 / 9}, trials)
    # a full container filled in an earlier round spills on a 6 at the start of a turn
    table.g[K.H_ROUND] = 5
    table.place(0, K.CITY, 2)
    table.set(0, container=K.FULL_CONTAINER, filled=4, money=1000)
    first = table.next_dice(0, 1)[0]
    table.turn(0)
    assert (table.get(0, "container") == K.NO_CONTAINER) == (first == 6)


def test_s18_corridor_sends_home_and_stop_ends_the_turn(table):
    table.walk_east(into="corridor")
    table.give_chips(0, [8], origin=3)
    table.turn(0)
    assert (table.get(0, "where"), table.get(0, "at"), table.get(0, "chips")) == (K.CITY, 0, 1)
    table.tile(1, "stop")
    table.place(0, K.CELL, 0)
    table.turn(0)
    assert table.get(0, "at") == 1


def test_s19_golden_ball_outcomes_are_exact(table):
    table.walk_east(into="golden_ball")
    table.set(0, money=0)

    def outcome(t):
        assert t.g[K.H_GOLDEN_USED] == 1  # once, whatever the roll
        return "visa" if t.g[K.H_WINNER] == 0 else "life" if t.get(0, "lives") else "bonus"

    trials = 6000
    _assert_rates(_repeat(table, trials, outcome), {"life": 1 / 6, "visa": 1 / 6, "bonus": 2 / 3}, trials)


def test_s19_golden_ball_rolls_come_from_the_content(tmp_path):
    t = Table(stalkeriada_content(tmp_path, {"zone": {"golden_ball_life_roll": 7, "golden_ball_visa_roll": 6}}))
    t.walk_east(into="golden_ball")

    def outcome(t):
        return "visa" if t.g[K.H_WINNER] == 0 else "life" if t.get(0, "lives") else "bonus"

    trials = 6000
    _assert_rates(_repeat(t, trials, outcome), {"visa": 1 / 6, "bonus": 5 / 6}, trials)


def test_s19_golden_ball_only_for_its_revealer(table):
    table.walk_east()
    table.tile(1, "golden_ball", up=True)
    table.g[K.H_GOLDEN_REVEALER] = 1
    table.turn(0)
    assert table.g[K.H_GOLDEN_USED] == 0 and table.g[K.H_WINNER] == -1


def test_s20_pointer_forces_the_next_step(table):
    nbr = neighbour_table(7, 7, COUNTER_CLOCKWISE)
    for direction in range(1, 7):  # revealed on the last step: one more step that way, over a cell
        table.walk_east(up=False)
        table.tile(24, "jumping_pointer")
        table.place(0, K.CELL, 23)
        table.burn_until(0, lambda steps, roll, _: steps == 1 and roll == direction)
        table.turn(0)
        over = nbr[24, direction - 1]
        landing = nbr[over, direction - 1] if over >= 0 else -1
        assert table.get(0, "at") == (landing if landing >= 0 else 24), direction
        assert over < 0 or landing < 0 or not table.is_up(over)  # the cell jumped over is not entered


def test_s21_flip_sends_everyone_home_and_reshuffles(table):
    table.walk_east(into="flip")
    table.place(1, K.OUTSIDE, 4)
    table.give_chips(0, [7], origin=20)
    table.g[table.g[K.H_O_CHIP_PLACE] + 9] = 30
    table.g[table.g[K.H_O_LYING] + 30] = 1
    before = sorted(table.g[table.g[K.H_O_TILE]:table.g[K.H_O_TILE] + 49])
    table.turn(0)
    for s in range(2):
        assert (table.get(s, "where"), table.get(s, "at")) == (K.CITY, 0)
    assert table.get(0, "chips") == 1 and table.chip_place(9) == K.BOX
    assert not table.g[table.g[K.H_O_UP]:table.g[K.H_O_UP] + 49].any()
    assert sorted(table.g[table.g[K.H_O_TILE]:table.g[K.H_O_TILE] + 49]) == before


def test_s21_flip_reshuffles_emptied_loot_cells_as_grass(table):
    table.walk_east(into="loot", background="stop")
    table.tile(2, "flip")
    before = np.bincount(table.g[table.g[K.H_O_TILE]:table.g[K.H_O_TILE] + 49], minlength=len(TILE_KINDS))
    table.burn_until(0, lambda steps, *_: steps >= 2)
    table.turn(0)
    after = np.bincount(table.g[table.g[K.H_O_TILE]:table.g[K.H_O_TILE] + 49], minlength=len(TILE_KINDS))
    assert table.get(0, "where") == K.CITY and table.get(0, "chips") == 1
    assert (after[TILE["loot"]], after[TILE["grass"]]) == (before[TILE["loot"]] - 1, before[TILE["grass"]] + 1)


def test_s06_s14_s21_no_chip_is_sold_twice_in_a_game(content):
    """Sold loot leaves play and emptied cells are grass, Flips included: a game
    sells at most the loot and zuda chips there are."""
    _, records, _ = game_records(content, ["cautious", "greedy", "jelly", "rush"], seed=3, games=150)
    sold = records[:, K.RECORD_FIELDS.index("chips_sold"), :].sum(axis=1)
    assert sold.max() <= 14 and sold.mean() > 5


def test_s22_nut_reveals_two_cells_and_a_mosquito_bald_costs_it(table):
    table.walk_east(up=False)
    table.set(0, nuts=2)
    K._throw_nut(table.g, 0, 0, 0)  # east: cells 1 and 2
    assert table.is_up(1) and table.is_up(2) and not table.is_up(3)
    assert table.get(0, "nut_at") == 2 and table.get(0, "nuts") == 1
    table.tile(7, "mosquito_bald")
    K._throw_nut(table.g, 0, 0, 5)  # south-east: (1,0) = 7, then (2,1) = 15
    assert table.is_up(7) and table.is_up(15)
    assert table.get(0, "nuts") == 0 and table.get(0, "nut_at") == 2  # lost; the earlier nut still lies
    table.tile(2, "grass", up=True)  # picked up on reaching the second cell
    table.burn_until(0, lambda steps, *_: steps >= 2)
    table.turn(0)
    assert table.get(0, "nuts") == 1 and table.get(0, "nut_at") == -1


@pytest.mark.parametrize("reach, revealed", [(1, [1]), (3, [1, 2, 3]), (9, [1, 2, 3, 4, 5, 6])])
def test_s22_nut_range_comes_from_the_content(tmp_path, reach, revealed):
    """The nut flies ``nut_range`` cells (stopping at the Zone's edge: 7 columns) and lies on the last."""
    t = Table(stalkeriada_content(tmp_path, {"zone": {"nut_range": reach}}))
    t.walk_east(up=False)
    t.set(0, nuts=1)
    K._throw_nut(t.g, 0, 0, 0)
    assert [x for x in range(1, 7) if t.is_up(x)] == revealed
    assert t.get(0, "nut_at") == revealed[-1] and t.get(0, "nuts") == 0


@pytest.mark.parametrize("percent, money, left", [(25, 1350, 337), (100, 1350, 1350), (25, -1350, -337)])
def test_s23_reentry_share_comes_from_the_content(tmp_path, percent, money, left):
    t = Table(stalkeriada_content(tmp_path, {"city": {"reentry_percent": percent}}))
    t.walk_east(into="mosquito_bald")
    t.set(0, money=money)
    t.turn(0)
    assert (t.get(0, "where"), t.get(0, "money")) == (K.CITY, left)


def test_s23_death_halves_the_savings(table):
    table.walk_east(into="mosquito_bald")
    table.set(0, money=1350, pliers=1)
    table.give_chips(0, [3], origin=4)
    table.turn(0)
    assert (table.get(0, "where"), table.get(0, "at"), table.get(0, "money")) == (K.CITY, 0, 675)
    assert table.get(0, "pliers") == 0 and table.chip_place(3) == K.BOX
    assert table.rec[K.R_DEATHS_MOSQUITO, 0] == 1


def test_s19_an_extra_life_is_spent_instead_of_dying(table):
    table.walk_east(into="mosquito_bald")
    table.set(0, lives=1, money=1000)
    table.turn(0)
    assert table.get(0, "lives") == 0 and table.get(0, "where") == K.CELL and table.get(0, "money") == 1000
    assert table.rec[K.R_LIVES_SPENT, 0] == 1
