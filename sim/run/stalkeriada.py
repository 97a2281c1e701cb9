"""Running Stalkeriada games: compile the content, seat the strategies, run the
kernel in chunks and turn its sums into tidy tables with 95% intervals."""

from __future__ import annotations

import itertools
import math
import numbers
import time
from dataclasses import dataclass, field

import numpy as np
import polars as pl

import sim.kernels.stalkeriada as K
import strategies
from sim import hexgrid
from sim.analysis.stats import Z95, mean_interval, wilson
from sim.content.load import Content
from sim.content.loadout import LoadoutError
from sim.content.stalkeriada import SQUARE_KINDS, TILE_KINDS, StalkeriadaContent, load_stalkeriada
from sim.run.chunks import plan, run_chunks

DEFAULT_PLAYERS = ("cautious", "greedy", "jelly", "rush")
ITEMS = ("ozk", "pliers", "nut")
PER_PLAYER_NAMES = {"place": "mean_place", "last": "p_last"}  # record sums read as means per game


def compile_tables(sc: StalkeriadaContent):
    """``(cfg, squares, prices, tiles0)`` for the kernel."""
    s = sc.settings
    cfg = np.zeros(K.CFG_SIZE, np.int64)
    for slot, value in {
        K.C_SQUARES: len(sc.squares), K.C_EXIT_SQ: sc.squares.index("exit"),
        K.C_POLICE_SQ: sc.squares.index("police"), K.C_BUTCHER_SQ: sc.squares.index("butcher"),
        K.C_START_MONEY: s["city"]["start_money"], K.C_ARREST_ON: s["police"]["arrest_on"],
        K.C_RELEASE_ON: s["police"]["release_on"], K.C_PRICE_OZK: s["shop"]["ozk"],
        K.C_PRICE_PLIERS: s["shop"]["pliers"], K.C_PRICE_NUT: s["shop"]["nut"],
        K.C_PRICE_VISA: s["shop"]["exit_visa"], K.C_PARTNER_ON: s["borscht"]["partner_on"],
        K.C_DEPOSIT: s["borscht"]["partner_deposit"], K.C_BONUS: s["borscht"]["partner_bonus"],
        K.C_SHARE: s["borscht"]["partner_share_percent"], K.C_FEE: s["butcher"]["fee"],
        K.C_ORDER_ON: s["jelly"]["order_on"], K.C_REWARD: s["jelly"]["reward"], K.C_FILL_ON: s["jelly"]["fill_on"],
        K.C_SPILL_ON: s["jelly"]["spill_on"], K.C_ACCIDENT_ON: s["jelly"]["accident_on"],
        K.C_FENCES: s["fence"]["cells"], K.C_W_GAP: s["fence"]["gap"], K.C_W_FENCE: s["fence"]["fence"],
        K.C_W_AMBUSH: s["fence"]["ambush"], K.C_GAP_ON: s["fence"]["gap_ambush_on"],
        K.C_PLIERS_ON: s["fence"]["pliers_ambush_on"], K.C_ROWS: s["zone"]["rows"], K.C_COLS: s["zone"]["cols"],
        K.C_BACKPACK: s["zone"]["backpack"], K.C_SURVIVE_ON: s["zone"]["trap_survive_on"],
        K.C_GOLDEN_BONUS: s["zone"]["golden_ball_bonus"], K.C_GOLDEN_LIFE: s["zone"]["golden_ball_life_roll"],
        K.C_GOLDEN_VISA: s["zone"]["golden_ball_visa_roll"], K.C_ROUND_CAP: s["game"]["round_cap"],
        K.C_ZUDA: s["tiles"]["zuda"], K.C_CHIPS: s["tiles"]["loot"] + s["tiles"]["zuda"],
        K.C_REENTRY: s["city"]["reentry_percent"],
    }.items():
        cfg[slot] = value
    squares = np.array([SQUARE_KINDS.index(q) for q in sc.squares], np.int64)
    tiles0 = np.array([TILE_KINDS.index(t) for t in sc.tile_list()], np.int64)
    return cfg, squares, np.array(sc.prices, np.int64), tiles0


def game_template(sc: StalkeriadaContent, n_seats):
    """An empty game array ``g`` with its header and neighbour table (kernel layout)."""
    s = sc.settings
    rows, cols = s["zone"]["rows"], s["zone"]["cols"]
    cells, fences, chips = rows * cols, s["fence"]["cells"], s["tiles"]["loot"] + s["tiles"]["zuda"]
    offsets, size = K.layout(cells, fences, chips, n_seats)
    g = np.zeros(size, np.int64)
    g[K.H_O_TILE:K.H_O_SEAT + 1] = offsets
    for slot, value in {
        K.H_SEATS: n_seats, K.H_ROWS: rows, K.H_COLS: cols, K.H_CELLS: cells, K.H_FENCES: fences,
        K.H_BACKPACK: s["zone"]["backpack"], K.H_CHIPS: chips, K.H_ZUDA: s["tiles"]["zuda"],
        K.H_W_GAP: s["fence"]["gap"], K.H_W_FENCE: s["fence"]["fence"], K.H_W_AMBUSH: s["fence"]["ambush"],
        K.H_PRICE_OZK: s["shop"]["ozk"], K.H_PRICE_PLIERS: s["shop"]["pliers"], K.H_PRICE_NUT: s["shop"]["nut"],
        K.H_HUMMOCKS_2: s["zone"]["swamp_2_hummocks"], K.H_HUMMOCKS_3: s["zone"]["swamp_3_hummocks"],
        K.H_GAP_ON: s["fence"]["gap_ambush_on"], K.H_PLIERS_ON: s["fence"]["pliers_ambush_on"],
        K.H_NUT_RANGE: s["zone"]["nut_range"],
    }.items():
        g[slot] = value
    nbr = hexgrid.neighbour_table(rows, cols, hexgrid.COUNTER_CLOCKWISE)  # S-13: directions 0..5 of the Zone
    g[g[K.H_O_NBR]:g[K.H_O_NBR] + 6 * cells] = nbr.ravel()
    return g


def seating(players):
    """Decision functions and parameter rows for the kernel, padded to ``MAX_SEATS``."""
    if not 2 <= len(players) <= K.MAX_SEATS:
        raise LoadoutError(f"--players: {len(players)} players; Stalkeriada seats 2 to {K.MAX_SEATS}")
    width = max(p.param_vector().size for p in players)
    params = np.zeros((K.MAX_SEATS, width))
    for i, p in enumerate(players):
        params[i, :p.param_vector().size] = p.param_vector()
    fns = tuple(players[i % len(players)].decide for i in range(K.MAX_SEATS))
    return fns, params


def search_setting(players, width):
    """``(search, menu)`` for the kernel (``sim.kernels.stalkeriada.choose``): the search
    player among ``players`` (at most one), his rollouts and horizon, and his menu's
    settings padded to ``width`` parameters; ``search[0]`` is -1 with none."""
    searching = [i for i, p in enumerate(players) if p.menu]
    if len(searching) > 1:
        raise LoadoutError(f"--players: {len(searching)} search players; seat at most one search player")
    menu = np.zeros((1, width))
    if not searching:
        return np.array([-1, 0, 0, 0, 0, 0], np.int64), menu
    player = players[searching[0]]
    menu = np.zeros((len(player.menu), width))
    for row, setting in zip(menu, player.menu):
        row[:len(setting)] = setting
    return np.array([searching[0], player.rollouts, player.horizon, *player.order_worth, round(100 * player.switch_z)],
                    np.int64), menu


def start_bonuses(start_bonus, players) -> tuple:
    """``start_bonus``: G above the starting money (S-10) for each of ``players``, in their
    order (None: none for anyone); a whole number >= 0 each, else a ``LoadoutError``."""
    if start_bonus is None:
        return (0,) * len(players)
    bonus = tuple(start_bonus)
    if len(bonus) != len(players) or not all(isinstance(b, numbers.Integral) and b >= 0 for b in bonus):
        raise LoadoutError(f"start_bonus: {start_bonus!r}; give one whole number of G >= 0 per player "
                           f"({len(players)} players)")
    return tuple(int(b) for b in bonus)


def game_records(content: Content, players, *, seed, games, first_game=0, rotation=0, start_bonus=None):
    """Per-game results for tests: ``(results, records, money_rounds)`` with
    ``results[i]`` = (winner seat or -1, length, turns, complete rounds), ``records[i, field, seat]``;
    ``start_bonus`` as in ``simulate_stalkeriada``."""
    sc = load_stalkeriada(content)
    players = table_strategies(players)
    fns, params = seating(players)
    search, menu = search_setting(players, params.shape[1])
    bonus = np.array(start_bonuses(start_bonus, players), np.int64)
    n = len(players)
    cap = sc.settings["game"]["round_cap"]
    results = np.zeros((games, 4), np.int64)
    records = np.zeros((games, K.N_RECORD, n), np.int64)
    money_rounds = np.zeros((games, cap, n), np.int64)
    K.game_records(seed, first_game, games, rotation, game_template(sc, n), compile_tables(sc), fns, params, bonus,
                   n, search, menu, results, records, money_rounds)
    return results, records, money_rounds


@dataclass
class StalkeriadaResult:
    """Sums over ``games`` games of ``players`` (strategy names, in seat order of
    rotation 0). ``section(T_*)`` gives one tally section."""

    players: tuple
    games: int
    seed: int
    rotations: int
    round_cap: int
    tally: np.ndarray
    at: np.ndarray
    elapsed_s: float
    tuned: str = ""  # the tuned planner's setting, where one sat at the table (``sim.run.tuned_planner``)
    search: str = ""  # the search player, where one sat at the table (``strategies.stalkeriada.search_player``)

    def section(self, k):
        return self.tally[self.at[k]:self.at[k + 1]]

    @property
    def turns(self):
        return int(self.section(K.T_TURNS)[0])

    def _record(self, p, field):
        return int(self.section(K.T_RECORD)[p * K.N_RECORD + K.RECORD_FIELDS.index(field)])

    def win_rates(self) -> pl.DataFrame:
        """Win rate (finished first: the first exit visa, S-05) per player with its 95%
        Wilson interval, and the no-winner row (nobody finished by the round cap)."""
        wins, rows = self.section(K.T_WINS), []
        for p, name in enumerate(self.players):
            lo, hi = wilson(int(wins[p]), self.games)
            rows.append({"player": p, "strategy": name, "wins": int(wins[p]), "games": self.games,
                         "win_rate": wins[p] / self.games, "ci_low": lo, "ci_high": hi})
        none = int(self.section(K.T_NO_WINNER)[0])
        lo, hi = wilson(none, self.games)
        rows.append({"player": None, "strategy": "(no winner)", "wins": none, "games": self.games,
                     "win_rate": none / self.games, "ci_low": lo, "ci_high": hi})
        return pl.DataFrame(rows)

    def seat_rates(self) -> pl.DataFrame:
        """Win rate per player and seat (seat 1 moves first), with 95% intervals."""
        P = len(self.players)
        wins, games, rows = self.section(K.T_SEAT_WINS), self.section(K.T_SEAT_GAMES), []
        for p, name in enumerate(self.players):
            for s in range(P):
                w, n = int(wins[p * P + s]), int(games[p * P + s])
                if n:
                    lo, hi = wilson(w, n)
                    rows.append({"strategy": name, "seat": s + 1, "wins": w, "games": n, "win_rate": w / n,
                                 "ci_low": lo, "ci_high": hi})
        return pl.DataFrame(rows)

    def seat_advantage(self) -> pl.DataFrame:
        """Share of all games won by whoever sits in each seat (the first-player
        advantage); the seats' shares and the no-winner rate add up to 1."""
        P = len(self.players)
        wins, games = self.section(K.T_SEAT_WINS).reshape(P, P), self.section(K.T_SEAT_GAMES).reshape(P, P)
        rows = []
        for s in range(P):
            w, n = int(wins[:, s].sum()), int(games[:, s].sum())
            lo, hi = wilson(w, n)
            rows.append({"seat": s + 1, "wins": w, "games": n, "win_rate": w / n, "ci_low": lo, "ci_high": hi})
        return pl.DataFrame(rows)

    def lengths(self) -> pl.DataFrame:
        """Games by length in rounds (the cap's row holds the no-winner games too)."""
        hist = self.section(K.T_LENGTH)
        return pl.DataFrame({"rounds": np.nonzero(hist)[0], "games": hist[hist > 0]})

    def length_summary(self) -> dict:
        hist = self.section(K.T_LENGTH).astype(float)
        rounds = np.arange(hist.size)
        total, total_sq = float((hist * rounds).sum()), float((hist * rounds ** 2).sum())
        lo, hi = mean_interval(total, total_sq, self.games)
        cdf = np.cumsum(hist) / self.games
        return {"mean": total / self.games, "ci_low": lo, "ci_high": hi,
                "median": int(np.searchsorted(cdf, 0.5)), "p90": int(np.searchsorted(cdf, 0.9))}

    def per_player(self) -> pl.DataFrame:
        """Per-player means per game: deaths by cause, arrests, purchases, jelly, money,
        ``mean_place`` (1 = finished first, S-05) and ``p_last`` (the share of games placed last)."""
        rows = []
        sq = self.section(K.T_MONEY_SQ)
        for p, name in enumerate(self.players):
            row = {"strategy": name}
            for record in K.RECORD_FIELDS:
                row[PER_PLAYER_NAMES.get(record, record)] = self._record(p, record) / self.games
            lo, hi = mean_interval(self._record(p, "money"), float(sq[p]), self.games)
            row.update(money_ci_low=lo, money_ci_high=hi)
            rows.append(row)
        return pl.DataFrame(rows)

    def places(self) -> pl.DataFrame:
        """The finishing order (S-05): how often each player took each place, with 95% intervals."""
        P, counts, rows = len(self.players), self.section(K.T_PLACES), []
        for p, name in enumerate(self.players):
            for place in range(1, P + 1):
                n = int(counts[p * P + place - 1])
                lo, hi = wilson(n, self.games)
                rows.append({"strategy": name, "place": place, "games": n, "share": n / self.games,
                             "ci_low": lo, "ci_high": hi})
        return pl.DataFrame(rows)

    def deaths(self) -> pl.DataFrame:
        """Deaths per game by cause, per player, with 95% intervals on the rate per game."""
        rows = []
        for p, name in enumerate(self.players):
            for cause in ("mosquito", "trap", "jelly"):
                n = self._record(p, f"deaths_{cause}")
                half = Z95 * math.sqrt(n) / self.games  # Poisson count per game
                rows.append({"strategy": name, "cause": cause, "deaths": n, "per_game": n / self.games,
                             "ci_low": max(0.0, n / self.games - half), "ci_high": n / self.games + half})
        return pl.DataFrame(rows)

    def items(self) -> pl.DataFrame:
        """How often each shop item is bought, and the win rate of the games it was bought in and of
        the others: observed, not compared on the same dice (a planner who dies early buys less), so
        not what the item does; that is ``zonesim value --mode stalkeriada`` (restricted play)."""
        bought, bought_wins = self.section(K.T_BOUGHT_GAMES), self.section(K.T_BOUGHT_WINS)
        wins, rows = self.section(K.T_WINS), []
        for p, name in enumerate(self.players):
            for k, item in enumerate(ITEMS):
                n, w = int(bought[p * 3 + k]), int(bought_wins[p * 3 + k])
                n0, w0 = self.games - n, int(wins[p]) - w
                lo, hi = wilson(w, n)
                lo0, hi0 = wilson(w0, n0)
                rows.append({"strategy": name, "item": item, "bought_per_game": self._record(p, f"bought_{item}")
                             / self.games, "games_with": n, "win_rate_with": w / n if n else None,
                             "with_ci_low": lo, "with_ci_high": hi, "games_without": n0,
                             "win_rate_without": w0 / n0 if n0 else None, "without_ci_low": lo0,
                             "without_ci_high": hi0})
        return pl.DataFrame(rows)

    def money_curves(self) -> pl.DataFrame:
        """Mean money after each round, per player, over the games still running then."""
        games = self.section(K.T_ROUND_GAMES)
        money = self.section(K.T_MONEY_ROUND).reshape(len(self.players), self.round_cap)
        rounds = np.nonzero(games)[0]
        return pl.concat([pl.DataFrame({"strategy": name, "round": rounds + 1, "games": games[rounds],
                                        "mean_money": money[p, rounds] / games[rounds]})
                          for p, name in enumerate(self.players)])

    def summary(self) -> dict:
        return {
            "players": list(self.players), "games": self.games, "seed": self.seed,
            "rotate_seats": self.rotations > 1, "round_cap": self.round_cap,
            "win_rates": self.win_rates().to_dicts(), "seat_advantage": self.seat_advantage().to_dicts(),
            "length": self.length_summary(), "per_player": self.per_player().to_dicts(),
            "finishing_order": self.places().to_dicts(),
            "items": self.items().to_dicts(), "turns": self.turns, "elapsed_s": self.elapsed_s,
            "player_turns_per_s": self.turns / self.elapsed_s if self.elapsed_s > 0 else None,
            **({"tuned": self.tuned} if self.tuned else {}), **({"search": self.search} if self.search else {}),
        }


def _sections(P, cap):
    sizes = {K.T_GAMES: 1, K.T_NO_WINNER: 1, K.T_TURNS: 1, K.T_WINS: P, K.T_SEAT_WINS: P * P,
             K.T_SEAT_GAMES: P * P, K.T_LENGTH: cap + 1, K.T_RECORD: P * K.N_RECORD, K.T_MONEY_SQ: P,
             K.T_BOUGHT_GAMES: P * 3, K.T_BOUGHT_WINS: P * 3, K.T_MONEY_ROUND: P * cap, K.T_ROUND_GAMES: cap,
             K.T_PLACES: P * P}
    return np.concatenate([[0], np.cumsum([sizes[k] for k in range(K.T_END)])]).astype(np.int64)


@dataclass
class StalkeriadaWork:
    """Chunks of games (picklable, for clusters): chunk part ``k`` seats ``tables[k]``
    (strategies in seat order), each starting with ``bonuses[k]`` G above the starting
    money (S-10; no ``bonuses``: none at any table), and plays every seat rotation with
    ``rotate_seats``; a chunk's ``start`` counts games x rotations. Returns ``{tally, elapsed_s}``."""

    content: Content
    tables: tuple
    seed: int
    rotate_seats: bool
    bonuses: tuple = ()
    _inputs: dict = field(default_factory=dict, repr=False, compare=False)

    def __getstate__(self):
        return {**self.__dict__, "_inputs": {}}

    def inputs(self, part):
        """``(template, tables, fns, params, bonus, search, menu, P, at, rotations)`` of table ``part``."""
        if part not in self._inputs:
            sc = load_stalkeriada(self.content)
            fns, params = seating(self.tables[part])
            P, cap = len(self.tables[part]), sc.settings["game"]["round_cap"]
            bonus = np.array(self.bonuses[part] if self.bonuses else (0,) * P, np.int64)
            self._inputs[part] = (game_template(sc, P), compile_tables(sc), fns, params, bonus,
                                  *search_setting(self.tables[part], params.shape[1]), P, _sections(P, cap),
                                  P if self.rotate_seats else 1)
        return self._inputs[part]

    def __call__(self, chunk):
        template, tables, fns, params, bonus, search, menu, P, at, rotations = self.inputs(chunk.part)
        tally = np.zeros(at[-1], np.int64)
        start = time.perf_counter()
        K.run_games(self.seed, chunk.start, chunk.n, rotations, template, tables, fns, params, bonus, P, search, menu,
                    at, tally)
        return {"tally": tally, "elapsed_s": np.float64(time.perf_counter() - start)}


def table_strategies(players):
    """``players`` (names of the registry or strategies) as strategies, 2 to ``MAX_SEATS`` of them."""
    seated = tuple(strategies.get(p, mode="stalkeriada") if isinstance(p, str) else p for p in players)
    search_setting(seated, seating(seated)[1].shape[1])
    return seated


@dataclass(frozen=True)
class _BonusChunks:
    """A chunk store (``sim.run.chunks``) seen through names that carry the starting
    bonus, so a run with a bonus never takes the chunks of the same games without."""

    store: object
    bonus: tuple

    def _name(self, name):
        return f"bonus-{'-'.join(map(str, self.bonus))}-{name}"

    def load(self, name):
        return self.store.load(self._name(name))

    def save(self, name, aggregate):
        self.store.save(self._name(name), aggregate)


def simulate_stalkeriada(content: Content, players, *, games, seed, rotate_seats=False, chunk=1 << 16,
                         on_progress=None, first_game=0, client=None, store=None,
                         start_bonus=None) -> StalkeriadaResult:
    """``games`` games (per seat rotation with ``rotate_seats``: every player takes
    every seat on the same dice) between ``players`` (names or strategies),
    numbered from ``first_game`` (the same dice as those games of a longer run);
    ``start_bonus``: G above the starting money (S-10) per player, in the order of
    ``players`` (a handicap that follows its player to every seat; None: none);
    in chunks, here or on a Dask ``client`` (finished chunks kept in ``store``, ``sim.run.chunks``)."""
    if games < 1:
        raise LoadoutError(f"--games: {games}; give at least 1 game")
    seated = table_strategies(players)
    bonus = start_bonuses(start_bonus, seated)
    work = StalkeriadaWork(content, (seated,), seed, rotate_seats, (bonus,))
    rotations = work.inputs(0)[-1]
    if store is not None and any(bonus):
        store = _BonusChunks(store, bonus)
    total = run_chunks(work, plan(games * rotations, chunk, first=first_game * rotations), client=client,
                       store=store, on_progress=on_progress)[0]
    return _result(work, 0, total, games * rotations)


def _result(work: StalkeriadaWork, part, total, games) -> StalkeriadaResult:
    *_, P, at, rotations = work.inputs(part)
    cap = load_stalkeriada(work.content).settings["game"]["round_cap"]
    return StalkeriadaResult(tuple(s.name for s in work.tables[part]), games, work.seed, rotations, cap,
                             total["tally"], at, float(total["elapsed_s"]))


@dataclass
class RoundRobin:
    """Win rate (finished first) of strategy i over all games that had strategy j at
    the table (``rate[i, j]``, 95% Wilson ``low`` / ``high``), and the same as a long
    table with i's mean place and share of last places in those games (S-05)."""

    rate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    table: pl.DataFrame
    elapsed_s: float


def round_robin(content: Content, names, set_size, *, games, seed, chunk=1 << 16, on_progress=None, client=None,
                store=None) -> RoundRobin:
    """Every set of ``set_size`` strategies of ``names`` plays ``games`` games per
    seat rotation, all sets on the same seed (common dice); each set is a part of
    the chunks (``sim.run.chunks``), here or on a Dask ``client``."""
    n = len(names)
    wins, played = np.zeros((n, n), np.int64), np.zeros((n, n), np.int64)
    place_sum, last = np.zeros((n, n), np.int64), np.zeros((n, n), np.int64)
    groups = list(itertools.combinations(range(n), set_size))
    work = StalkeriadaWork(content, tuple(table_strategies([names[i] for i in g]) for g in groups), seed, True)
    chunks = [c for k in range(len(groups)) for c in plan(games * set_size, chunk, part=k)]
    totals = run_chunks(work, chunks, client=client, store=store,
                        on_progress=on_progress and (lambda done, _total, _w: on_progress(done, None, None)))
    elapsed = 0.0
    for k, group in enumerate(groups):
        result = _result(work, k, totals[k], games * set_size)
        elapsed += result.elapsed_s
        won = result.section(K.T_WINS)
        for a, i in enumerate(group):
            for j in group:
                if i != j:
                    wins[i, j] += won[a]
                    played[i, j] += result.games
                    place_sum[i, j] += result._record(a, "place")
                    last[i, j] += result._record(a, "last")
    rate, low, high = (np.full((n, n), np.nan) for _ in range(3))
    rows = []
    for i, j in itertools.permutations(range(n), 2):
        if played[i, j]:
            rate[i, j] = wins[i, j] / played[i, j]
            low[i, j], high[i, j] = wilson(int(wins[i, j]), int(played[i, j]))
            rows.append({"strategy": names[i], "against": names[j], "wins": int(wins[i, j]),
                         "games": int(played[i, j]), "win_rate": rate[i, j], "ci_low": low[i, j],
                         "ci_high": high[i, j], "mean_place": place_sum[i, j] / played[i, j],
                         "p_last": last[i, j] / played[i, j]})
    return RoundRobin(rate, low, high, pl.DataFrame(rows), elapsed)


__all__ = ["DEFAULT_PLAYERS", "RoundRobin", "StalkeriadaResult", "round_robin", "compile_tables", "game_records",
           "game_template", "seating", "simulate_stalkeriada", "start_bonuses"]
