"""Whole Stalkeriada games (RULES S-01..S-24), exactly as docs/rules/stalkeriada-resolution.md.

A game lives in one ``int64`` array ``g``: a header (``H_*``), then blocks whose
offsets the header holds (``H_O_*``): tiles, face-up flags, who stands on each
cell, chips lying on each cell, fence types and flags, the neighbour table, the
chips' places and origins, a scratch block strategies may use, and one block of
``SEAT_SIZE`` fields per seat (``S_*``). Strategies read ``g`` (never a face-down
tile) through the decision signature ``DECISION``: ``(kind, seat, g, params) -> int``.

Streams per game: BOARD (fence types, tile shuffles) and one per seat (every die
of that seat), so a seat's dice do not depend on who sits in the other seats.

Numba inlines (``inline="always"``) the small accessors and the one-site steps of
a turn; the bigger helpers that several places call (death, arrest, trap rolls,
pick-ups) stay calls, so no helper is copied into each caller's copy of another:
inlining those too made the cold compile take four times as long and 4.3 GB of
memory, for no speed.
"""

import numpy as np
from numba import njit, prange, types

from sim.kernels import entry_point
from sim.kernels.rng import STATE_SIZE, die, mix, pick, start_stream, trial_base

# tile, square and fence kinds, in the order of sim.content.stalkeriada's TILE_KINDS,
# SQUARE_KINDS and FENCE_KINDS
(LOOT, ZUDA, MOSQUITO_BALD, FIRE_FLUFF, DEVILS_CABBAGE, TRAP, SWAMP_2, SWAMP_3, JELLY_BASEMENT, GRASS,
 CORRIDOR, GOLDEN_BALL, POINTER, JUMPING_POINTER, STOP, FLIP) = range(16)
EMPTY, EXIT, SHOP, POLICE, BORSCHT, BUTCHER, JELLY_ORDER = range(7)
GAP, FENCE, AMBUSH = range(3)

# decisions and their answers
D_FENCE, D_SLIDE, D_BUY, D_SELL, D_JELLY, D_STEP = range(6)
BUY_OZK, BUY_PLIERS, BUY_NUT = range(3)
STEP_EXIT, STEP_NUT = 6, 10
DECISION = types.int64(types.int64, types.int64, types.int64[::1], types.float64[::1])
DecisionType = types.FunctionType(DECISION)

# where a stalker is (S_WHERE)
CITY, OUTSIDE, GATE, CELL = range(4)
NO_CONTAINER, EMPTY_CONTAINER, FULL_CONTAINER = range(3)
MAX_SEATS = 6
BOX = -1  # a chip's place: BOX, a cell index, backpack(seat), or GONE (sold: out of play, S-06)
GONE = -2 - MAX_SEATS
BOARD = 0
RNG_SIZE = STATE_SIZE * (1 + MAX_SEATS)
INF = 1 << 40

# header of g
(H_SEATS, H_ROWS, H_COLS, H_CELLS, H_FENCES, H_ROUND, H_BACKPACK, H_GOLDEN_USED, H_GOLDEN_REVEALER,
 H_CHIPS, H_ZUDA, H_ARG, H_W_GAP, H_W_FENCE, H_W_AMBUSH, H_PRICE_OZK, H_PRICE_PLIERS, H_PRICE_NUT,
 H_WINNER, H_FINISHED, H_HUMMOCKS_2, H_HUMMOCKS_3, H_GAP_ON, H_PLIERS_ON, H_O_TILE, H_O_UP, H_O_OCC,
 H_O_LYING, H_O_FENCE, H_O_FENCE_UP, H_O_NBR, H_O_CHIP_PLACE, H_O_CHIP_ORIGIN, H_O_SCRATCH, H_O_SEAT,
 H_NUT_RANGE) = range(36)
HEADER = 36
SCRATCH_PER_CELL = 6

# a seat's fields
(S_MONEY, S_WHERE, S_AT, S_JAILED, S_CHIPS, S_CONTAINER, S_FILLED, S_OZK, S_PLIERS, S_NUTS, S_LIVES,
 S_PARTNER, S_SHARED, S_NUT_AT, S_PLACE, S_CONTAINER_AT) = range(16)
SEAT_SIZE = 16

# what a game records per seat (docs "What a game records")
(R_DEATHS_MOSQUITO, R_DEATHS_TRAP, R_DEATHS_JELLY, R_ARRESTS, R_ZUDA_ESCAPES, R_BOUGHT_OZK, R_BOUGHT_PLIERS,
 R_BOUGHT_NUT, R_BOUGHT_VISA, R_JELLY_ORDERS, R_JELLY_DELIVERED, R_PARTNERS, R_CROSSINGS, R_CHIPS_SOLD,
 R_GOLDEN_LIFE, R_GOLDEN_VISA, R_GOLDEN_BONUS, R_LIVES_SPENT, R_PLACE, R_LAST, R_MONEY) = range(21)
RECORD_FIELDS = ("deaths_mosquito", "deaths_trap", "deaths_jelly", "arrests", "zuda_escapes", "bought_ozk",
                 "bought_pliers", "bought_nut", "bought_exit_visa", "jelly_orders", "jelly_delivered", "partners",
                 "crossings", "chips_sold", "golden_life", "golden_visa", "golden_bonus", "lives_spent", "place",
                 "last", "money")
N_RECORD = len(RECORD_FIELDS)
CAUSE_MOSQUITO, CAUSE_TRAP, CAUSE_JELLY = R_DEATHS_MOSQUITO, R_DEATHS_TRAP, R_DEATHS_JELLY

# compiled settings (cfg)
(C_SQUARES, C_EXIT_SQ, C_POLICE_SQ, C_BUTCHER_SQ, C_START_MONEY, C_ARREST_ON, C_RELEASE_ON, C_PRICE_OZK,
 C_PRICE_PLIERS, C_PRICE_NUT, C_PRICE_VISA, C_PARTNER_ON, C_DEPOSIT, C_BONUS, C_SHARE, C_FEE, C_ORDER_ON,
 C_REWARD, C_FILL_ON, C_SPILL_ON, C_ACCIDENT_ON, C_FENCES, C_W_GAP, C_W_FENCE, C_W_AMBUSH, C_GAP_ON,
 C_PLIERS_ON, C_ROWS, C_COLS, C_BACKPACK, C_SURVIVE_ON, C_GOLDEN_BONUS, C_GOLDEN_LIFE, C_GOLDEN_VISA, C_ROUND_CAP,
 C_ZUDA, C_CHIPS, C_REENTRY) = range(38)
CFG_SIZE = 38


def layout(cells, fences, chips, seats):
    """Block offsets of ``g`` and its size, in ``H_O_*`` order."""
    sizes = (cells, cells, cells, cells, fences, fences, 6 * cells, chips, chips,
             SCRATCH_PER_CELL * cells + 5, SEAT_SIZE * seats)
    offsets = np.cumsum((HEADER,) + sizes)
    return offsets[:-1], int(offsets[-1])


# ---------------------------------------------------------------- accessors (for strategies too)

@njit(inline="always", cache=True)
def seat_base(g, s):
    """Offset of seat ``s``'s fields in ``g``."""
    return g[H_O_SEAT] + s * SEAT_SIZE


@njit(inline="always", cache=True)
def neighbour(g, x, d):
    """The cell in direction ``d`` of cell ``x`` (odd-r layout), or -1 off the grid."""
    return g[g[H_O_NBR] + 6 * x + d]


@njit(inline="always", cache=True)
def is_up(g, x):
    """Whether cell ``x`` is face up."""
    return g[g[H_O_UP] + x] != 0


@njit(inline="always", cache=True)
def tile(g, x):
    """Tile of cell ``x`` (strategies: only when face up)."""
    return g[g[H_O_TILE] + x]


@njit(inline="always", cache=True)
def occupant(g, x):
    """Seat standing on cell ``x``, or -1."""
    return g[g[H_O_OCC] + x] - 1


@njit(inline="always", cache=True)
def lying(g, x):
    """Chips lying on cell ``x``."""
    return g[g[H_O_LYING] + x]


@njit(inline="always", cache=True)
def carried_container(g, o):
    """The seat's container if he carries it, else NO_CONTAINER (one laid on a cell
    after a trap, S-15, is his but not carried)."""
    return g[o + S_CONTAINER] if g[o + S_CONTAINER_AT] < 0 else NO_CONTAINER


@njit(inline="always", cache=True)
def has_loot(g, o):
    """S-03, S-12: loot chips or a full jelly container (seat block at ``o``)."""
    return g[o + S_CHIPS] > 0 or carried_container(g, o) == FULL_CONTAINER


@njit(inline="always", cache=True)
def load(g, o):
    """Backpack slots used: chips and the container carried (S-09, S-14)."""
    return g[o + S_CHIPS] + (carried_container(g, o) != NO_CONTAINER)


@njit(inline="always", cache=True)
def backpack(s):
    """A chip's place value for seat ``s``'s backpack."""
    return -2 - s


# ---------------------------------------------------------------- board

@njit(cache=True)
def _shuffle_tiles(g, rng):
    """Fisher-Yates over the tiles as they lie, drawing from BOARD."""
    o = g[H_O_TILE]
    for i in range(g[H_CELLS] - 1, 0, -1):
        j = pick(rng, BOARD, i + 1)
        g[o + i], g[o + j] = g[o + j], g[o + i]


@njit(cache=True)
def new_game(g, rng, cfg, tiles0, n_seats, bonus, rotation):
    """Lay a fresh board (fence types, then shuffled tiles) and seat the stalkers (S-10, S-24).
    Seat ``s`` starts with the starting money (S-10) plus ``bonus[(s + rotation) % n_seats]``,
    the handicap of the player sitting there (``bonus`` is indexed by player, as ``play``'s ``fns``)."""
    cells, fences = g[H_CELLS], cfg[C_FENCES]
    g[H_SEATS] = n_seats
    g[H_ROUND] = 0
    g[H_GOLDEN_USED] = 0
    g[H_GOLDEN_REVEALER] = -1
    g[H_WINNER] = -1
    g[H_FINISHED] = 0
    total = cfg[C_W_GAP] + cfg[C_W_FENCE] + cfg[C_W_AMBUSH]
    for j in range(fences):
        r = pick(rng, BOARD, total)
        g[g[H_O_FENCE] + j] = GAP if r < cfg[C_W_GAP] else FENCE if r < cfg[C_W_GAP] + cfg[C_W_FENCE] else AMBUSH
        g[g[H_O_FENCE_UP] + j] = 0
    for x in range(cells):
        g[g[H_O_TILE] + x] = tiles0[x]
        g[g[H_O_UP] + x] = 0
        g[g[H_O_OCC] + x] = 0
        g[g[H_O_LYING] + x] = 0
    _shuffle_tiles(g, rng)
    for c in range(g[H_CHIPS]):
        g[g[H_O_CHIP_PLACE] + c] = BOX
        g[g[H_O_CHIP_ORIGIN] + c] = -1
    for s in range(n_seats):
        o = seat_base(g, s)
        for f in range(SEAT_SIZE):
            g[o + f] = 0
        g[o + S_MONEY] = cfg[C_START_MONEY] + bonus[(s + rotation) % n_seats]  # S-10, with the handicap
        g[o + S_NUT_AT] = -1
        g[o + S_CONTAINER_AT] = -1


@njit(inline="always", cache=True)
def reveal(g, x, s):
    """Turn cell ``x`` face up (by seat ``s``): a loot tile lays its chip from the box,
    the Golden Ball remembers its revealer (S-13, S-14, S-19). False if already up."""
    if g[g[H_O_UP] + x]:
        return False
    g[g[H_O_UP] + x] = 1
    t = g[g[H_O_TILE] + x]
    if t == LOOT or t == ZUDA:
        lo, hi = (0, g[H_ZUDA]) if t == ZUDA else (g[H_ZUDA], g[H_CHIPS])
        for c in range(lo, hi):
            if g[g[H_O_CHIP_PLACE] + c] == BOX:
                g[g[H_O_CHIP_PLACE] + c] = x
                g[g[H_O_CHIP_ORIGIN] + c] = x
                g[g[H_O_LYING] + x] += 1
                break
    elif t == GOLDEN_BALL and g[H_GOLDEN_USED] == 0:
        g[H_GOLDEN_REVEALER] = s
    return True


# ---------------------------------------------------------------- chips and places

@njit(cache=True)
def _chips_to(g, s, where):
    """Every chip of seat ``s`` to the box (``where`` = BOX), out of play (GONE), a cell
    (``where`` >= 0), or each to its origin cell (``where`` = -2)."""
    mine = backpack(s)
    for c in range(g[H_CHIPS]):
        if g[g[H_O_CHIP_PLACE] + c] == mine:
            dest = g[g[H_O_CHIP_ORIGIN] + c] if where == -2 else where
            g[g[H_O_CHIP_PLACE] + c] = dest
            if dest >= 0:
                g[g[H_O_LYING] + dest] += 1
    g[seat_base(g, s) + S_CHIPS] = 0


@njit(cache=True)
def _pick_up(g, s, x):
    """S-14: chips lying on ``x``, lowest number first, while the backpack has room;
    a loot cell emptied of its chips becomes grass."""
    o = seat_base(g, s)
    if g[g[H_O_LYING] + x] == 0:
        return
    for c in range(g[H_CHIPS]):
        if load(g, o) >= g[H_BACKPACK]:
            return
        if g[g[H_O_CHIP_PLACE] + c] == x:
            g[g[H_O_CHIP_PLACE] + c] = backpack(s)
            g[g[H_O_LYING] + x] -= 1
            g[o + S_CHIPS] += 1
            if g[g[H_O_LYING] + x] == 0:
                t = g[g[H_O_TILE] + x]
                if t == LOOT or t == ZUDA:
                    g[g[H_O_TILE] + x] = GRASS
                return


@njit(inline="always", cache=True)
def _off_cell(g, o):
    """Take the stalker off his Zone cell, if he stands on one."""
    if g[o + S_WHERE] == CELL:
        g[g[H_O_OCC] + g[o + S_AT]] = 0


@njit(inline="always", cache=True)
def _to_city(g, o, square):
    _off_cell(g, o)
    g[o + S_WHERE] = CITY
    g[o + S_AT] = square


@njit(inline="always", cache=True)
def _return_to_city(g, o, cfg):
    """Back to the City Exit with the backpack; a live partner pays his bonus (S-07)."""
    if g[o + S_PARTNER]:
        g[o + S_MONEY] += cfg[C_BONUS]
        g[o + S_PARTNER] = 0
        g[o + S_SHARED] = 1
    _to_city(g, o, cfg[C_EXIT_SQ])


@njit(inline="always", cache=True)
def _trip_ends(g, o):
    """A trip ended without return: the partner leaves, a nut lying in the Zone is lost."""
    g[o + S_PARTNER] = 0
    g[o + S_NUT_AT] = -1


@njit(cache=True)
def _finish(g, s, o):
    """S-05: seat ``s`` has his visa: he leaves the game, placed by the order of finishing
    (the first to finish is the winner); his backpack leaves play with him."""
    _trip_ends(g, o)
    _off_cell(g, o)
    g[o + S_WHERE] = CITY
    g[H_FINISHED] += 1
    g[o + S_PLACE] = g[H_FINISHED]
    if g[H_FINISHED] == 1:
        g[H_WINNER] = s


@njit(inline="always", cache=True)
def _to_butcher(g, o, cfg):
    """S-08: moved to the Butcher, who treats on credit."""
    if g[o + S_WHERE] != CITY:
        _trip_ends(g, o)
    _to_city(g, o, cfg[C_BUTCHER_SQ])
    g[o + S_MONEY] -= cfg[C_FEE]


@njit(cache=True)
def _lose_kit(g, o):
    """Container and bought items gone (arrest, death)."""
    g[o + S_CONTAINER] = NO_CONTAINER
    g[o + S_CONTAINER_AT] = -1
    g[o + S_OZK] = 0
    g[o + S_PLIERS] = 0
    g[o + S_NUTS] = 0
    g[o + S_SHARED] = 0


@njit(cache=True)
def _arrest(g, s, cfg, rec, at_fence_exit):
    """S-02: a carried Zuda buys the way out; else jail, confiscation, loot back to its cells."""
    o = seat_base(g, s)
    for c in range(g[H_ZUDA]):
        if g[g[H_O_CHIP_PLACE] + c] == backpack(s):
            g[g[H_O_CHIP_PLACE] + c] = BOX
            g[o + S_CHIPS] -= 1
            rec[R_ZUDA_ESCAPES, s] += 1
            if at_fence_exit:
                _return_to_city(g, o, cfg)
            return
    _chips_to(g, s, -2)
    _lose_kit(g, o)
    g[o + S_LIVES] = 0
    _trip_ends(g, o)
    _to_city(g, o, cfg[C_POLICE_SQ])
    g[o + S_JAILED] = 1
    rec[R_ARRESTS, s] += 1


@njit(cache=True)
def _death(g, s, cfg, rec, cause):
    """S-23 (and S-19's extra life): True if the stalker died; his player re-enters
    at the start square with the content's share of his savings (rounded towards 0)."""
    o = seat_base(g, s)
    if g[o + S_LIVES] > 0:
        g[o + S_LIVES] -= 1
        rec[R_LIVES_SPENT, s] += 1
        return False
    _chips_to(g, s, BOX)
    _lose_kit(g, o)
    _trip_ends(g, o)
    _to_city(g, o, 0)
    money = g[o + S_MONEY]
    share = abs(money) * cfg[C_REENTRY] // 100
    g[o + S_MONEY] = share if money >= 0 else -share
    rec[cause, s] += 1
    return True


@njit(cache=True)
def _trap_roll(g, s, cfg, rng, rec, prev, cause):
    """S-15: survive on the roll (the backpack's chips and container laid on the previous
    cell; from the gate there is none and they are lost; then to the Butcher) or die.
    True if the turn ends."""
    o = seat_base(g, s)
    if die(rng, 1 + s, 6) >= cfg[C_SURVIVE_ON]:
        _chips_to(g, s, prev if prev >= 0 else BOX)
        if carried_container(g, o) != NO_CONTAINER:
            if prev >= 0:
                g[o + S_CONTAINER_AT] = prev
            else:
                g[o + S_CONTAINER] = NO_CONTAINER
        _to_butcher(g, o, cfg)
        return True
    return _death(g, s, cfg, rec, cause)


@njit(cache=True)
def _flip(g, rng, cfg):
    """S-21: everyone in the Zone or at the fence back to the City; the Zone's tiles as they
    lie (emptied loot cells are grass, S-14) are turned face down and reshuffled; chips lying
    on cells go to the box, which lays them again only on a loot cell still holding its loot."""
    for t in range(g[H_SEATS]):
        o = seat_base(g, t)
        if g[o + S_WHERE] != CITY:
            _return_to_city(g, o, cfg)
        g[o + S_NUT_AT] = -1
        if g[o + S_CONTAINER_AT] >= 0:  # a container laid on a cell is swept away with it
            g[o + S_CONTAINER] = NO_CONTAINER
            g[o + S_CONTAINER_AT] = -1
    for c in range(g[H_CHIPS]):
        if g[g[H_O_CHIP_PLACE] + c] >= 0:
            g[g[H_O_CHIP_PLACE] + c] = BOX
    for x in range(g[H_CELLS]):
        g[g[H_O_LYING] + x] = 0
        g[g[H_O_UP] + x] = 0
    _shuffle_tiles(g, rng)
    g[H_GOLDEN_REVEALER] = -1


# ---------------------------------------------------------------- City, fence, Zone

@njit(inline="always", cache=True)
def _city(g, s, cfg, squares, prices, rng, fn, params, rec):
    """S-01..S-10: move round the loop and act on the square stopped on."""
    o = seat_base(g, s)
    q = (g[o + S_AT] + die(rng, 1 + s, 6)) % cfg[C_SQUARES]
    g[o + S_AT] = q
    kind = squares[q]
    if kind == EXIT:
        if not has_loot(g, o):
            j = fn(D_FENCE, s, g, params)
            g[o + S_WHERE] = OUTSIDE
            g[o + S_AT] = j if 0 <= j < cfg[C_FENCES] else 0
    elif kind == SHOP:
        if g[o + S_MONEY] >= cfg[C_PRICE_VISA]:  # S-05
            g[o + S_MONEY] -= cfg[C_PRICE_VISA]
            rec[R_BOUGHT_VISA, s] += 1
            _finish(g, s, o)
            return
        while True:
            item = fn(D_BUY, s, g, params)
            if item == BUY_OZK and not g[o + S_OZK] and g[o + S_MONEY] >= cfg[C_PRICE_OZK]:
                g[o + S_MONEY] -= cfg[C_PRICE_OZK]
                g[o + S_OZK] = 1
                rec[R_BOUGHT_OZK, s] += 1
            elif item == BUY_PLIERS and not g[o + S_PLIERS] and g[o + S_MONEY] >= cfg[C_PRICE_PLIERS]:
                g[o + S_MONEY] -= cfg[C_PRICE_PLIERS]
                g[o + S_PLIERS] = 1
                rec[R_BOUGHT_PLIERS, s] += 1
            elif item == BUY_NUT and g[o + S_MONEY] >= cfg[C_PRICE_NUT]:
                g[o + S_MONEY] -= cfg[C_PRICE_NUT]
                g[o + S_NUTS] += 1
                rec[R_BOUGHT_NUT, s] += 1
            else:
                return
    elif kind == POLICE:
        if has_loot(g, o) and die(rng, 1 + s, 6) >= cfg[C_ARREST_ON]:
            _arrest(g, s, cfg, rec, False)
    elif kind == BORSCHT:
        n = g[o + S_CHIPS]
        if n > 0:
            g[H_ARG] = prices[die(rng, 1 + s, 6) - 1]
            if fn(D_SELL, s, g, params) == 1:  # S-06
                gain = g[H_ARG] * n
                if g[o + S_SHARED]:
                    gain -= gain * cfg[C_SHARE] // 100
                g[o + S_MONEY] += gain
                rec[R_CHIPS_SOLD, s] += n
                _chips_to(g, s, GONE)
                g[o + S_SHARED] = 0
        if not g[o + S_PARTNER] and not g[o + S_SHARED] and die(rng, 1 + s, 6) >= cfg[C_PARTNER_ON]:  # S-07
            g[o + S_PARTNER] = 1
            g[o + S_MONEY] += cfg[C_DEPOSIT]
            rec[R_PARTNERS, s] += 1
    elif kind == JELLY_ORDER:  # S-09
        if carried_container(g, o) == FULL_CONTAINER:
            g[o + S_MONEY] += cfg[C_REWARD]
            g[o + S_CONTAINER] = NO_CONTAINER
            rec[R_JELLY_DELIVERED, s] += 1
        elif (g[o + S_CONTAINER] == NO_CONTAINER and load(g, o) < g[H_BACKPACK]
              and fn(D_JELLY, s, g, params) == 1):
            if die(rng, 1 + s, 6) >= cfg[C_ORDER_ON]:
                g[o + S_CONTAINER] = EMPTY_CONTAINER
                rec[R_JELLY_ORDERS, s] += 1


@njit(cache=True)
def _ambushed(g, s, cfg, rng, j):
    """S-11, S-12: turn fence cell ``j`` face up; 1 ambush (jail), 0 through, -1 cannot pass."""
    g[g[H_O_FENCE_UP] + j] = 1
    kind = g[g[H_O_FENCE] + j]
    if kind == GAP:
        return 1 if die(rng, 1 + s, 6) >= cfg[C_GAP_ON] else 0
    if kind == FENCE:
        if not g[seat_base(g, s) + S_PLIERS]:
            return -1
        return 1 if die(rng, 1 + s, 6) >= cfg[C_PLIERS_ON] else 0
    return 1


@njit(inline="always", cache=True)
def _fence(g, s, cfg, rng, fn, params, rec):
    """S-11: one fence cell per turn; True if crossed (the Zone move follows)."""
    o = seat_base(g, s)
    j = g[o + S_AT]
    outcome = _ambushed(g, s, cfg, rng, j)
    if outcome == 1:
        _arrest(g, s, cfg, rec, False)
        return False
    if outcome == -1:  # along the fence with the steps rolled
        k = die(rng, 1 + s, 6)
        g[H_ARG] = k
        j2 = fn(D_SLIDE, s, g, params)
        if 0 <= j2 < cfg[C_FENCES] and abs(j2 - j) <= k:
            g[o + S_AT] = j2
        return False
    rec[R_CROSSINGS, s] += 1
    g[o + S_WHERE] = GATE
    return True


@njit(cache=True)
def _throw_nut(g, s, x, d):
    """S-22: the nut flies up to ``H_NUT_RANGE`` cells ahead (stopping at the Zone's
    edge), revealing each, and lies on the last; a Mosquito Bald among them costs it."""
    o = seat_base(g, s)
    g[o + S_NUTS] -= 1
    last, bald = x, False
    for _ in range(g[H_NUT_RANGE]):
        c = neighbour(g, last, d)
        if c < 0:
            break
        reveal(g, c, s)
        bald = bald or tile(g, c) == MOSQUITO_BALD
        last = c
    if last != x and not bald:
        g[o + S_NUT_AT] = last


@njit(inline="always", cache=True)
def is_trap(t):
    return t == MOSQUITO_BALD or t == FIRE_FLUFF or t == DEVILS_CABBAGE or t == TRAP


@njit(inline="always", cache=True)
def _zone(g, s, cfg, rng, fn, params, rec):
    """S-13..S-22: a d6 of steps through the Zone, one decision per step."""
    o = seat_base(g, s)
    cols = g[H_COLS]
    steps = die(rng, 1 + s, 6)
    forced, jump = -1, False
    while steps > 0:
        x = g[o + S_AT]
        if forced >= 0:  # S-20
            target = neighbour(g, x, forced)
            if jump and target >= 0:
                target = neighbour(g, target, forced)
            forced = -1
            if target < 0 or occupant(g, target) >= 0:
                steps -= 1
                continue
        else:
            a = fn(D_STEP, s, g, params)
            if g[o + S_WHERE] == GATE:
                if not 0 <= a < 6 or occupant(g, x) >= 0:
                    return
                target = x  # the front cell (0, j) behind fence cell j
            elif 0 <= a < 6:
                target = neighbour(g, x, a)
                if target < 0 or occupant(g, target) >= 0:
                    return
            elif a == STEP_EXIT:  # S-12
                if x >= cols or x >= g[H_FENCES] or not has_loot(g, o):
                    return
                steps -= 1
                outcome = _ambushed(g, s, cfg, rng, x)
                if outcome == 1:
                    _arrest(g, s, cfg, rec, True)
                    return
                if outcome == 0:
                    _return_to_city(g, o, cfg)
                    return
                continue
            elif STEP_NUT <= a < STEP_NUT + 6:
                if g[o + S_NUTS] <= 0:
                    return
                _throw_nut(g, s, x, a - STEP_NUT)
                continue
            else:
                return
        was_down = not is_up(g, target)
        if g[o + S_PARTNER]:  # S-07: the partner goes first
            reveal(g, target, s)
            if is_trap(tile(g, target)):
                g[o + S_PARTNER] = 0
                steps -= 1
                continue
        prev = x if g[o + S_WHERE] == CELL else -1
        reveal(g, target, s)
        _off_cell(g, o)
        g[o + S_WHERE] = CELL
        g[o + S_AT] = target
        g[g[H_O_OCC] + target] = s + 1
        t = tile(g, target)
        steps = max(0, steps - (g[H_HUMMOCKS_2] if t == SWAMP_2 else g[H_HUMMOCKS_3] if t == SWAMP_3 else 1))  # S-16
        if g[o + S_NUT_AT] == target:
            g[o + S_NUTS] += 1
            g[o + S_NUT_AT] = -1
        _pick_up(g, s, target)
        if g[o + S_CONTAINER_AT] == target and load(g, o) < g[H_BACKPACK]:  # S-15: his container back
            g[o + S_CONTAINER_AT] = -1
        if t == MOSQUITO_BALD:  # S-15
            if _death(g, s, cfg, rec, CAUSE_MOSQUITO):
                return
        elif t == FIRE_FLUFF or t == DEVILS_CABBAGE or t == TRAP:
            if not (g[o + S_OZK] and t != TRAP) and _trap_roll(g, s, cfg, rng, rec, prev, CAUSE_TRAP):
                return
        elif t == JELLY_BASEMENT:  # S-17
            if carried_container(g, o) == EMPTY_CONTAINER:
                r = die(rng, 1 + s, 6)
                if r >= cfg[C_FILL_ON]:
                    g[o + S_CONTAINER] = FULL_CONTAINER
                    g[o + S_FILLED] = g[H_ROUND]
                elif r <= cfg[C_SPILL_ON] and _trap_roll(g, s, cfg, rng, rec, prev, CAUSE_JELLY):
                    return
        elif t == CORRIDOR or t == STOP:  # S-18
            if t == CORRIDOR:
                _return_to_city(g, o, cfg)
            return
        elif t == GOLDEN_BALL:  # S-19
            if g[H_GOLDEN_USED] == 0 and g[H_GOLDEN_REVEALER] == s:
                g[H_GOLDEN_USED] = 1
                r = die(rng, 1 + s, 6)
                if r == cfg[C_GOLDEN_LIFE]:
                    g[o + S_LIVES] += 1
                    rec[R_GOLDEN_LIFE, s] += 1
                elif r == cfg[C_GOLDEN_VISA]:
                    rec[R_GOLDEN_VISA, s] += 1
                    _finish(g, s, o)
                    return
                else:
                    rec[R_GOLDEN_BONUS, s] += 1
                    g[o + S_MONEY] += cfg[C_GOLDEN_BONUS]
                    _return_to_city(g, o, cfg)
                    return
        elif t == POINTER or t == JUMPING_POINTER:  # S-20
            forced = die(rng, 1 + s, 6) - 1
            jump = t == JUMPING_POINTER
            if steps == 0 and was_down:
                steps = 1
        elif t == FLIP:
            _flip(g, rng, cfg)
            return


@njit(inline="always", cache=True)
def turn(g, s, cfg, squares, prices, rng, fn, params, rec):
    """One turn of seat ``s`` (docs "A turn of seat s")."""
    o = seat_base(g, s)
    if g[o + S_JAILED]:  # S-02
        if die(rng, 1 + s, 6) >= cfg[C_RELEASE_ON]:
            g[o + S_JAILED] = 0
        return
    if carried_container(g, o) == FULL_CONTAINER and g[o + S_FILLED] < g[H_ROUND]:  # S-17
        if die(rng, 1 + s, 6) >= cfg[C_ACCIDENT_ON]:
            g[o + S_CONTAINER] = NO_CONTAINER
            _to_butcher(g, o, cfg)
            return
    where = g[o + S_WHERE]
    if where == CITY:
        _city(g, s, cfg, squares, prices, rng, fn, params, rec)
    elif where != OUTSIDE or _fence(g, s, cfg, rng, fn, params, rec):
        _zone(g, s, cfg, rng, fn, params, rec)


@njit(cache=True)
def _rank_the_rest(g, n_seats):
    """S-05: the seats still in are placed after those who finished, by money (most
    first; the earlier seat on ties). The last place is the loser."""
    for _ in range(g[H_FINISHED], n_seats):
        best = -1
        for s in range(n_seats):
            o = seat_base(g, s)
            if g[o + S_PLACE] == 0 and (best < 0 or g[o + S_MONEY] > g[seat_base(g, best) + S_MONEY]):
                best = s
        g[H_FINISHED] += 1
        g[seat_base(g, best) + S_PLACE] = g[H_FINISHED]


# ``_nrt=False``: a game allocates no array, so numba's reference counting is
# switched off here; with it, the helpers' array arguments cost an atomic
# increment and decrement per call, about a third of the time (bench/stalkeriada.py).
@njit(cache=True, _nrt=False)
def play(g, rng, cfg, squares, prices, tiles0, fns, params, bonus, n_seats, rotation, rec, money_rounds, search, menu,
         scratch):
    """One game; seat ``s`` is played by player ``p = (s + rotation) % n_seats``, who
    starts with ``bonus[p]`` G above the starting money (S-10). A seat with his visa
    plays no more turns; the game ends when all but one have finished,
    or at the round cap (S-05). The searching player ``search[SEARCH_PLAYER]`` (-1:
    none) picks his row of ``menu`` before each of his turns while nobody has
    finished (``choose``). Fills ``rec`` (fields x seats, money last) and
    ``money_rounds`` (round x seat after each complete round); returns (winner seat
    = the first to finish, or -1; length; seat turns; complete rounds)."""
    new_game(g, rng, cfg, tiles0, n_seats, bonus, rotation)
    rec[:] = 0
    turns, complete = 0, 0
    over = False
    for rnd in range(1, cfg[C_ROUND_CAP] + 1):
        g[H_ROUND] = rnd
        for s in range(n_seats):
            if g[seat_base(g, s) + S_PLACE]:
                continue
            p = (s + rotation) % n_seats
            if p == search[SEARCH_PLAYER] and g[H_WINNER] < 0:
                choose(g, s, p, rng, cfg, squares, prices, fns, params, n_seats, rotation, search, menu, scratch)
            turn(g, s, cfg, squares, prices, rng, fns[p], params[p], rec)
            turns += 1
            if g[H_FINISHED] >= n_seats - 1:
                over = True
                break
        if over:
            break
        complete = rnd
        for s in range(n_seats):
            money_rounds[rnd - 1, s] = g[seat_base(g, s) + S_MONEY]
    _rank_the_rest(g, n_seats)
    for s in range(n_seats):
        o = seat_base(g, s)
        rec[R_MONEY, s] = g[o + S_MONEY]
        rec[R_PLACE, s] = g[o + S_PLACE]
        rec[R_LAST, s] = g[o + S_PLACE] == n_seats
    return g[H_WINNER], g[H_ROUND], turns, complete


# ---------------------------------------------------------------- the search player

SEARCH_PLAYER, SEARCH_ROLLOUTS, SEARCH_HORIZON, SEARCH_ORDER, SEARCH_FULL, SEARCH_SWITCH = range(6)  # ``search``
SEARCH_SALT = np.uint64(0x5EA2C4ED0B5E55ED)  # keys the rollouts' dice apart from the game's own
DETERMINISE = 1 + MAX_SEATS  # the stream purpose that lays a rollout's hidden board


@njit(cache=True, _nrt=False)
def determinise(g, rng, work):
    """One layout of the hidden board, each as likely as the game makes it given what
    every seat has seen: the tiles of the face-down cells shuffled among those cells
    (S-24, S-21: the tiles are shuffled face down), and each face-down fence cell drawn
    again from the fence mix (S-12). ``work``: room for one index per cell."""
    o_tile, o_up, n = g[H_O_TILE], g[H_O_UP], 0
    for x in range(g[H_CELLS]):
        if g[o_up + x] == 0:
            work[n] = x
            n += 1
    for i in range(n - 1, 0, -1):
        j = pick(rng, BOARD, i + 1)
        a, b = o_tile + work[i], o_tile + work[j]
        g[a], g[b] = g[b], g[a]
    total = g[H_W_GAP] + g[H_W_FENCE] + g[H_W_AMBUSH]
    for j in range(g[H_FENCES]):
        if g[g[H_O_FENCE_UP] + j] == 0:
            r = pick(rng, BOARD, total)
            g[g[H_O_FENCE] + j] = GAP if r < g[H_W_GAP] else FENCE if r < g[H_W_GAP] + g[H_W_FENCE] else AMBUSH


@njit(cache=True, _nrt=False)
def play_on(g, rng, cfg, squares, prices, fns, params, n_seats, rotation, rec, s0, last_round):
    """Turns as ``play`` plays them, from seat ``s0`` of the round under way to the end of
    round ``last_round`` (or the round cap), stopping when somebody finishes (S-05)."""
    first = s0
    for rnd in range(g[H_ROUND], min(last_round, cfg[C_ROUND_CAP]) + 1):
        g[H_ROUND] = rnd
        for s in range(first, n_seats):
            if g[seat_base(g, s) + S_PLACE]:
                continue
            p = (s + rotation) % n_seats
            turn(g, s, cfg, squares, prices, rng, fns[p], params[p], rec)
            if g[H_WINNER] >= 0:
                return
        first = 0


@njit(inline="always", cache=True)
def worth(g, s, cfg, prices, search):
    """What seat ``s`` holds, in G: money, loot carried at the Borscht's mean price
    (S-06), bought items at their shop price (S-04), and a jelly order (S-09) at
    ``search[SEARCH_ORDER]`` per mille of its reward while the container is empty,
    ``search[SEARCH_FULL]`` once it is full."""
    o = seat_base(g, s)
    mean_price = 0.0
    for k in range(prices.size):
        mean_price += prices[k] / prices.size
    container = g[o + S_CONTAINER]
    order = (search[SEARCH_ORDER] if container == EMPTY_CONTAINER else search[SEARCH_FULL]
             if container == FULL_CONTAINER else 0)
    return (g[o + S_MONEY] + g[o + S_CHIPS] * mean_price + order * cfg[C_REWARD] / 1000
            + g[o + S_OZK] * cfg[C_PRICE_OZK] + g[o + S_PLIERS] * cfg[C_PRICE_PLIERS] + g[o + S_NUTS] * cfg[C_PRICE_NUT])


@njit(inline="always", cache=True)
def rollout_score(g, s, n_seats, cfg, prices, search):
    """1 if seat ``s`` finished first (S-05), 0 if another did; else, at the horizon,
    0.5 plus up to 0.45 for his lead in ``worth`` over the richest other seat, as a
    share of the exit visa's price (less for a deficit)."""
    if g[H_WINNER] >= 0:
        return 1.0 if g[H_WINNER] == s else 0.0
    best = -1e300
    for t in range(n_seats):
        if t != s and g[seat_base(g, t) + S_PLACE] == 0:
            best = max(best, worth(g, t, cfg, prices, search))
    lead = (worth(g, s, cfg, prices, search) - best) / cfg[C_PRICE_VISA]
    return 0.5 + 0.45 * min(1.0, max(-1.0, lead))


@njit(inline="always", cache=True)
def _copy(dst, src):
    """``dst[:] = src`` element by element (a slice assignment may allocate: no reference counting here)."""
    for i in range(src.size):
        dst[i] = src[i]


@njit(cache=True, _nrt=False)
def choose(g, s, p, rng, cfg, squares, prices, fns, params, n_seats, rotation, search, menu, scratch):
    """The search player's pick before his turn (seat ``s``, player ``p``): each row of
    ``menu`` (a setting of his decision function) is played on the same
    ``search[SEARCH_ROLLOUTS]`` rollouts, each on its own determinised board
    (``determinise``) and its own dice, keyed by the game's, the round and the seat
    (so no rollout sees the game's future dice), from this turn for
    ``search[SEARCH_HORIZON]`` rounds with every other seat played by its own
    strategy. He keeps the row he plays (``params[p]``; a game starts on the first)
    unless another's paired mean ``rollout_score`` beats it by more than
    ``search[SEARCH_SWITCH]`` hundredths of a standard error; then he takes the best
    such row. ``scratch``: the rollouts' working arrays."""
    g_det, g_roll, rng_roll, rec_roll, work, scores = scratch
    rows, rollouts, last_round = menu.shape[0], search[SEARCH_ROLLOUTS], g[H_ROUND] + search[SEARCH_HORIZON] - 1
    turn_base = trial_base(mix(rng[0] ^ SEARCH_SALT), g[H_ROUND] * MAX_SEATS + s)
    held = 0
    for m in range(rows):
        same = True
        for k in range(menu.shape[1]):
            same = same and menu[m, k] == params[p, k]
        if same:
            held = m
            break
    for r in range(rollouts):
        base = trial_base(turn_base, r)
        _copy(g_det, g)
        start_stream(rng_roll, BOARD, base, DETERMINISE)
        determinise(g_det, rng_roll, work)
        for m in range(rows):
            _copy(g_roll, g_det)
            for stream in range(1 + n_seats):
                start_stream(rng_roll, stream, base, stream)
            _copy(params[p], menu[m])
            play_on(g_roll, rng_roll, cfg, squares, prices, fns, params, n_seats, rotation, rec_roll, s, last_round)
            scores[r, m] = rollout_score(g_roll, s, n_seats, cfg, prices, search)
    best, best_gain = held, 0.0
    for m in range(rows):
        total, total_sq = 0.0, 0.0
        for r in range(rollouts):
            d = scores[r, m] - scores[r, held]
            total += d
            total_sq += d * d
        gain = total / rollouts
        se = np.sqrt(max(0.0, total_sq / rollouts - gain * gain) / max(1, rollouts - 1))
        if gain > best_gain and gain > search[SEARCH_SWITCH] / 100 * se:
            best, best_gain = m, gain
    _copy(params[p], menu[best])


@njit(cache=True)
def search_scratch(g, search, rows):
    """The working arrays of ``choose`` for games laid out like ``g``, with ``rows`` menu rows."""
    return (np.empty_like(g), np.empty_like(g), np.zeros(RNG_SIZE, np.uint64), np.zeros((N_RECORD, MAX_SEATS), np.int64),
            np.zeros(g[H_CELLS], np.int64), np.zeros((max(1, search[SEARCH_ROLLOUTS]), rows)))


@njit(cache=True)
def _start_streams(rng, seed_mixed, game, n_seats):
    base = trial_base(seed_mixed, game)
    for stream in range(1 + n_seats):
        start_stream(rng, stream, base, stream)


_TABLES = types.UniTuple(types.int64[::1], 4)
_TURN_SIG = types.void(types.int64[::1], types.int64, _TABLES, types.uint64[::1], DecisionType, types.float64[::1],
                       types.int64[:, ::1])


@entry_point(_TURN_SIG)
def one_turn(g, s, tables, rng, fn, params, rec):
    """One turn of seat ``s`` with the compiled tables (for tests and tools)."""
    cfg, squares, prices, _ = tables
    turn(g, s, cfg, squares, prices, rng, fn, params, rec)


_RECORDS_SIG = types.void(types.int64, types.int64, types.int64, types.int64, types.int64[::1], _TABLES,
                          types.UniTuple(DecisionType, MAX_SEATS), types.float64[:, ::1], types.int64[::1], types.int64,
                          types.int64[::1], types.float64[:, ::1], types.int64[:, ::1], types.int64[:, :, ::1],
                          types.int64[:, :, ::1])


@entry_point(_RECORDS_SIG)
def game_records(seed, first_game, n_games, rotation, template, tables, fns, params, bonus, n_seats, search, menu,
                 results, records, money_rounds):
    """Games ``first_game ..`` one by one (``bonus``: each player's extra starting money,
    S-10; ``search``, ``menu``: the search player, as in ``play``): ``results[i]`` =
    (winner seat, length, turns, complete rounds), ``records[i]`` the per-seat fields,
    ``money_rounds[i]`` money by round."""
    cfg, squares, prices, tiles0 = tables
    g = template.copy()
    rng = np.zeros(RNG_SIZE, np.uint64)
    mine = params.copy()  # the search player's row changes from turn to turn
    scratch = search_scratch(g, search, menu.shape[0])
    seed_mixed = mix(np.uint64(seed))
    for i in range(n_games):
        _start_streams(rng, seed_mixed, first_game + i, n_seats)
        mine[:] = params
        results[i, 0], results[i, 1], results[i, 2], results[i, 3] = play(
            g, rng, cfg, squares, prices, tiles0, fns, mine, bonus, n_seats, rotation, records[i], money_rounds[i],
            search, menu, scratch)


# tally sections (offsets ``at`` built by sim.run.stalkeriada)
(T_GAMES, T_NO_WINNER, T_TURNS, T_WINS, T_SEAT_WINS, T_SEAT_GAMES, T_LENGTH, T_RECORD, T_MONEY_SQ,
 T_BOUGHT_GAMES, T_BOUGHT_WINS, T_MONEY_ROUND, T_ROUND_GAMES, T_PLACES, T_END) = range(15)
BOUGHT_ITEMS = (R_BOUGHT_OZK, R_BOUGHT_PLIERS, R_BOUGHT_NUT)
BLOCK = 256
"""Games per parallel block; the sums do not depend on it."""
SEARCH_BLOCK = 4
"""Games per parallel block with a search player (each of his turns plays rollouts)."""

_RUN_SIG = types.void(types.int64, types.int64, types.int64, types.int64, types.int64[::1], _TABLES,
                      types.UniTuple(DecisionType, MAX_SEATS), types.float64[:, ::1], types.int64[::1], types.int64,
                      types.int64[::1], types.float64[:, ::1], types.int64[::1], types.int64[::1])


@entry_point(_RUN_SIG, parallel=True)
def run_games(seed, first, n, rotations, template, tables, fns, params, bonus, n_seats, search, menu, at, tally):
    """Games ``first .. first + n - 1`` of a run: game ``i`` uses the streams of
    ``i // rotations`` and the seat rotation ``i % rotations`` (so every rotation
    plays the same dice; player ``p``'s starting bonus ``bonus[p]``, S-10, goes with
    him to every seat; ``search``, ``menu``: the search player, as in ``play``). Adds
    per-player sums to ``tally`` (sections ``T_*`` at ``at``); integer sums, identical
    for any thread count or chunking."""
    cfg, squares, prices, tiles0 = tables
    cap, P = cfg[C_ROUND_CAP], n_seats
    block = BLOCK if search[SEARCH_PLAYER] < 0 else SEARCH_BLOCK
    n_blocks = (n + block - 1) // block
    tally_b = np.zeros((n_blocks, tally.size), np.int64)
    seed_mixed = mix(np.uint64(seed))
    for b in prange(n_blocks):
        g = template.copy()
        rng = np.zeros(RNG_SIZE, np.uint64)
        rec = np.zeros((N_RECORD, MAX_SEATS), np.int64)
        money_rounds = np.zeros((cap, MAX_SEATS), np.int64)
        mine = params.copy()  # a thread's own copy: no shared reference counts; the search player's row changes
        scratch = search_scratch(g, search, menu.shape[0])
        t = tally_b[b]
        for i in range(first + b * block, min(first + n, first + (b + 1) * block)):
            rotation = i % rotations
            _start_streams(rng, seed_mixed, i // rotations, P)
            mine[:] = params
            w, length, turns, complete = play(g, rng, cfg, squares, prices, tiles0, fns, mine, bonus, P, rotation,
                                              rec, money_rounds, search, menu, scratch)
            t[at[T_GAMES]] += 1
            t[at[T_TURNS]] += turns
            t[at[T_LENGTH] + length] += 1
            if w < 0:
                t[at[T_NO_WINNER]] += 1
            t[at[T_ROUND_GAMES]: at[T_ROUND_GAMES] + complete] += 1
            for s in range(P):
                p = (s + rotation) % P
                won = w == s
                t[at[T_SEAT_GAMES] + p * P + s] += 1
                if won:
                    t[at[T_WINS] + p] += 1
                    t[at[T_SEAT_WINS] + p * P + s] += 1
                for f in range(N_RECORD):
                    t[at[T_RECORD] + p * N_RECORD + f] += rec[f, s]
                t[at[T_MONEY_SQ] + p] += rec[R_MONEY, s] * rec[R_MONEY, s]
                t[at[T_PLACES] + p * P + rec[R_PLACE, s] - 1] += 1
                for k in range(len(BOUGHT_ITEMS)):
                    if rec[BOUGHT_ITEMS[k], s] > 0:
                        t[at[T_BOUGHT_GAMES] + p * 3 + k] += 1
                        t[at[T_BOUGHT_WINS] + p * 3 + k] += won
                for r in range(complete):
                    t[at[T_MONEY_ROUND] + p * cap + r] += money_rounds[r, s]
    tally += tally_b.sum(axis=0)
