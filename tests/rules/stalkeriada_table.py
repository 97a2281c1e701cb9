"""A Stalkeriada game set up by hand for the rule tests: seats, tiles and dice
under the test's control (S-01..S-24)."""

import numpy as np
from numba import njit

import sim.kernels.stalkeriada as K
import strategies
from sim.content.stalkeriada import TILE_KINDS, load_stalkeriada
from sim.kernels.rng import die, mix
from sim.run.stalkeriada import compile_tables, game_template, seating

TILE = {name: i for i, name in enumerate(TILE_KINDS)}


@njit(K.DECISION)
def step_east(kind, s, g, params):
    """A strategy that only ever steps east (direction 0)."""
    return 0 if kind == K.D_STEP else -1


class Table:
    """A game set up by hand: seats, tiles and dice under the test's control."""

    def __init__(self, content, players=("cautious", "greedy"), seed=5, game=0):
        self.sc = load_stalkeriada(content)
        self.strategies = [strategies.get(p, mode="stalkeriada") for p in players]
        self.fns, self.params = seating(self.strategies)
        self.n = len(players)
        self.g = game_template(self.sc, self.n)
        self.tables = compile_tables(self.sc)
        self.cfg, self.squares, self.prices, self.tiles0 = self.tables
        self.rng = np.zeros(K.RNG_SIZE, np.uint64)
        K._start_streams(self.rng, np.uint64(mix(np.uint64(seed))), game, self.n)
        self.rec = np.zeros((K.N_RECORD, K.MAX_SEATS), np.int64)
        self.bonus = np.zeros(self.n, np.int64)  # no starting handicap (S-10)
        K.new_game(self.g, self.rng, self.cfg, self.tiles0, self.n, self.bonus, 0)
        self.g[K.H_ROUND] = 1

    def new_board(self, game, seed=5):
        """Lay the board of ``game`` afresh (its own streams)."""
        K._start_streams(self.rng, np.uint64(mix(np.uint64(seed))), game, self.n)
        K.new_game(self.g, self.rng, self.cfg, self.tiles0, self.n, self.bonus, 0)

    def burn_until(self, s, wanted):
        """Skip seat ``s``'s dice until ``wanted(next dice)`` holds."""
        while not wanted(*self.next_dice(s, 3)):
            die(self.rng, 1 + s, 6)

    def o(self, s):
        return K.seat_base(self.g, s)

    def get(self, s, field):
        return int(self.g[self.o(s) + getattr(K, f"S_{field.upper()}")])

    def set(self, s, **fields):
        for field, value in fields.items():
            self.g[self.o(s) + getattr(K, f"S_{field.upper()}")] = value

    def place(self, s, where, at):
        if self.get(s, "where") == K.CELL:
            self.g[self.g[K.H_O_OCC] + self.get(s, "at")] = 0
        self.set(s, where=where, at=at)
        if where == K.CELL:
            self.g[self.g[K.H_O_OCC] + at] = s + 1

    def tile(self, x, kind, up=False):
        self.g[self.g[K.H_O_TILE] + x] = TILE[kind]
        self.g[self.g[K.H_O_UP] + x] = int(up)

    def all_tiles(self, kind, up=True):
        for x in range(self.g[K.H_CELLS]):
            self.tile(x, kind, up)

    def walk_east(self, into=None, background="grass", up=True):
        """Seat 0 on cell 0 of a Zone of ``background`` tiles, stepping east every
        step, with ``into`` face down on cell 1."""
        self.all_tiles(background, up)
        self.fns = (step_east,) * K.MAX_SEATS
        if into:
            self.tile(1, into)
        self.place(0, K.CELL, 0)

    def fence(self, j, kind, up=False):
        self.g[self.g[K.H_O_FENCE] + j] = ("gap", "fence", "ambush").index(kind)
        self.g[self.g[K.H_O_FENCE_UP] + j] = int(up)

    def give_chips(self, s, chips, origin):
        for c in chips:
            self.g[self.g[K.H_O_CHIP_PLACE] + c] = K.backpack(s)
            self.g[self.g[K.H_O_CHIP_ORIGIN] + c] = origin
        self.set(s, chips=self.get(s, "chips") + len(chips))

    def chip_place(self, c):
        return int(self.g[self.g[K.H_O_CHIP_PLACE] + c])

    def is_up(self, x):
        return bool(self.g[self.g[K.H_O_UP] + x])

    def next_dice(self, s, n):
        """The next ``n`` d6 of seat ``s``'s stream, without using them."""
        peek = self.rng.copy()
        return [int(die(peek, 1 + s, 6)) for _ in range(n)]

    def turn(self, s=0):
        K.one_turn(self.g, s, self.tables, self.rng, self.fns[s], self.params[s], self.rec)
