"""Reference Stalkeriada: the slow and obvious reading of docs/rules/stalkeriada-resolution.md.

One game is P stalkers (2 <= P <= 6) going round the City loop, over the fence
and through the tile Zone; a stalker who buys the exit visa or wins it from the
Golden Ball finishes and leaves, and the game goes on until all but one have
finished or the round cap comes (the rule catalogue's S-01..S-24; the contract decides where
they differ).
Plain Python on Python ints (stdlib only); it exists to cross-check the fast
kernel game for game, so every random number is drawn from its stream in
exactly the order the contract gives.

Random streams of a game (the game is the trial of docs/rules/fight-resolution.md:
key base mix(mix(seed) + (game+1)*GOLDEN), stream key mix(base + (purpose+1)*GOLDEN)):

* BOARD = purpose 0: whole words only, through ``pick`` (never dice): the fence
  types j = 0..F-1, then the Fisher-Yates tile shuffle, then one more shuffle
  at every Flip (S-21).
* SEAT s = purpose 1 + s: every d6 rolled for the stalker in seat s (jail,
  jelly, City squares, fence, Zone steps, traps, pointers, Golden Ball, ...).

Public: ``PLANNER_PARAMS``, ``SEAT_COUNTERS``, ``load_settings``, ``pick``,
``neighbour``, ``initial_board``, ``simulate_game``, ``run_games``; the
planner's answers are the ``planner_*`` functions.  Chip conservation and
"two stalkers never share a cell" are asserted after every turn and every
Zone step.

Readings of the spec made here (where it does not say):

* A condition is read left to right and a die is rolled only when what comes
  before it holds: police rolls only for a stalker with loot, the Borscht
  partner roll only when there is no partner and nothing shared, the jelly
  order roll only after a JELLY answer of 1, the jelly accident roll only for a
  container filled in an earlier round, the Golden Ball roll only when it is
  unused and s revealed it.
* ``money_by_round`` holds one row per round played to its end: the round in
  which the game ends by the last finish is not recorded, even when that seat
  sat last (so such a game has length - 1 rows, a game that hits the cap has cap
  rows).
* ``turns`` counts every seat turn started, the finishing turns included; a
  seat that has finished plays no turns.
* ``jelly_orders`` counts orders given (the order_on roll succeeded and the seat
  got an empty container), not JELLY answers of 1.
* ``crossings`` counts fence attempts from outside a fence cell that reached
  "Crossed"; a way out of the Zone (STEP 6) is not a crossing.
* ``arrests`` counts arrests that jailed the seat; an arrest bought off with a
  zuda chip counts in ``zuda_escapes`` only.
* A death absorbed by an extra life is not a death: it counts in
  ``lives_spent`` only.  ``golden_life`` / ``golden_visa`` / ``golden_bonus``
  count Golden Ball rolls of 1 / 2 / 3..6; a Golden Ball visa is not in
  ``bought_exit_visa``.
* Flip (S-21) turns the Zone cells face down; the fence cells are not Zone
  cells and stay as they are.  It re-shuffles the tile array as it lies at that
  moment (Fisher-Yates in place on tile[0..R*C-1], BOARD continuing), not a
  fresh list in file order.
* Pointers (S-20): "the cell was face down when this step began" is read when
  the entry starts (before the partner's reveal), so a cell revealed by the
  partner or by s in this step counts, and a cell revealed earlier (also by a
  nut, which is a decision of its own) does not.
* The partner (S-07) dies on every trap kind, also on Fire Fluff / Devil's
  Cabbage when s wears the OZK, and also on a trap cell already face up.
* A thrown nut that is lost (a Mosquito Bald among the revealed cells, or c1 off
  the grid) leaves an earlier nut of the seat lying where it was.  The nut flies
  [zone] nut_range cells (2, S-22), fewer at the Zone's edge, and lies on the last.
* "Returns to the City" does not clear ``nut_at``: a nut left in the Zone stays
  there for a later trip (only "the Zone trip ends without return" and Flip
  clear it).
* A zuda escape at the fence entry (no stalker reaches the fence with chips, so
  never seen) ends the turn with the stalker still outside the fence.
* Planner answers: ``pliers``, ``ozk`` and ``throw`` act when non-zero; the JELLY
  answer is ``jelly`` itself, so only exactly 1 takes the order (other values are
  out of range and read as 0); ``home_at``, ``nuts``, ``reserve`` and
  ``sell_min`` are compared as given.
* STEP answers use the contract's encoding (``planner_step`` returns one int):
  0..5 a direction, 6 exit, 10 + d a nut towards d, -1 stop; any other answer
  stops too.
* In the planner's D, a cell that is both a goal and an exit cell has end 0
  (the least of its two ends).
* Planner, collect mode with best infinite: the mode becomes home, so the
  blocked cells (flip and corridor are no longer blocked), the goals, the exit
  cells and D are all those of home mode; the exit check then also needs loot.
* Chips sent to an origin cell (arrest) or to ``prev`` (trap survival) lie there
  whether the cell is face up or not; whoever enters it next picks them up.
* The re-entry share (S-23, [city] reentry_percent) is taken of the money's size
  on integers and keeps its sign, rounding towards zero for debts.
* A start bonus (a handicap for measuring, not a rule) is G a seat has above
  [city] start_money (S-10) when the game starts; nothing else changes.
"""

from __future__ import annotations

import heapq
import math
import tomllib
from pathlib import Path

from sim.reference.fight import Stream

DEFAULT_SETTINGS = Path(__file__).resolve().parents[1] / "content" / "default" / "stalkeriada.toml"

PLANNER_PARAMS = ("pliers", "ozk", "nuts", "reserve", "home_at", "jelly", "sell_min", "throw")

SEAT_COUNTERS = (
    "deaths_mosquito", "deaths_trap", "deaths_jelly", "arrests", "zuda_escapes",
    "bought_ozk", "bought_pliers", "bought_nut", "bought_exit_visa",
    "jelly_orders", "jelly_delivered", "partners", "crossings", "chips_sold",
    "golden_life", "golden_visa", "golden_bonus", "lives_spent",
)

BOARD = 0  # stream purpose of the board; seat s uses purpose 1 + s

TILE_KINDS = (
    "loot", "zuda", "mosquito_bald", "fire_fluff", "devils_cabbage", "trap", "swamp_2", "swamp_3",
    "jelly_basement", "grass", "corridor", "golden_ball", "pointer", "jumping_pointer", "stop", "flip",
)
TRAP_KINDS = frozenset(("mosquito_bald", "fire_fluff", "devils_cabbage", "trap"))
OZK_PROOF = frozenset(("fire_fluff", "devils_cabbage"))  # S-15
FENCE_TYPES = ("gap", "fence", "ambush")
SHOP_ITEMS = ("ozk", "pliers", "nut")  # BUY answers 0, 1, 2

# Container states (None = no container).
EMPTY = "empty"
FULL = "full"

# STEP answers (the contract's encoding): 0..5 a direction, EXIT, NUT + d (d = 0..5)
# a nut towards direction d; anything else (the planner answers STOP) stops.
EXIT = 6
NUT = 10
STOP = -1

# Planner step weights of face-up cells (swamps: their hummocks, at most 3; anything else 1;
# face down 2).
FACE_UP_WEIGHT = {"stop": 3, "pointer": 3, "jumping_pointer": 3}
DEADLY_ALWAYS = frozenset(("mosquito_bald", "trap"))  # deadly to s whatever he wears
COLLECT_BLOCKING = frozenset(("flip", "corridor"))    # blocked for the planner in collect mode only

# S-13 odd-r offsets (dr, dc) of directions 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE. Read from the rules on
# their own, not from sim.hexgrid: the reference is an independent reading of the rules, so the
# cross-check catches a mistake in either.
_EVEN_ROW = ((0, 1), (-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0))
_ODD_ROW = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, 0), (1, 1))


# --------------------------------------------------------------------------
# Settings, random numbers, geometry
# --------------------------------------------------------------------------


def load_settings(path=None) -> dict:
    """Parse a stalkeriada.toml (default: the shipped one) into a plain dict."""
    with open(DEFAULT_SETTINGS if path is None else path, "rb") as f:
        return tomllib.load(f)


def pick(stream: Stream, n: int) -> int:
    """The stream's next whole word w (dice buffer untouched): (w * n) >> 64."""
    return (stream.next_word() * n) >> 64


def neighbour(cell, d, rows, cols):
    """step(x, d): the cell in direction d (0..5) of `cell` (index r*cols + c), None off the grid."""
    r, c = divmod(cell, cols)
    dr, dc = (_ODD_ROW if r % 2 else _EVEN_ROW)[d]
    r2, c2 = r + dr, c + dc
    if 0 <= r2 < rows and 0 <= c2 < cols:
        return r2 * cols + c2
    return None


def _tile_list(settings) -> list:
    """The [tiles] kinds, each repeated by its count, in the contract's fixed order."""
    unknown = set(settings["tiles"]) - set(TILE_KINDS) - {"assumed"}
    if unknown:
        raise ValueError(f"unknown tile kind {sorted(unknown)[0]!r}")
    tiles = []
    for kind in TILE_KINDS:
        tiles.extend([kind] * settings["tiles"].get(kind, 0))
    zone = settings["zone"]
    if len(tiles) != zone["rows"] * zone["cols"]:
        raise ValueError("the [tiles] counts must sum to rows * cols")
    return tiles


def _draw_fence_types(settings, board: Stream) -> list:
    """Fence cell j = 0..F-1: weighted choice gap / fence / ambush by r = pick(BOARD, sum)."""
    fence = settings["fence"]
    weights = [fence[t] for t in FENCE_TYPES]
    types = []
    for _ in range(fence["cells"]):
        r = pick(board, sum(weights))
        running = 0
        for kind, w in zip(FENCE_TYPES, weights):
            running += w
            if running > r:
                types.append(kind)
                break
    return types


def _shuffle(tiles: list, board: Stream) -> None:
    """Fisher-Yates in place: for i = n-1 down to 1: j = pick(BOARD, i+1); swap."""
    for i in range(len(tiles) - 1, 0, -1):
        j = pick(board, i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]


def initial_board(settings, seed, game):
    """(fence types, tiles) as drawn at game start: fence cells first, then the shuffle."""
    board = Stream(seed, game, BOARD)
    fence_types = _draw_fence_types(settings, board)
    tiles = _tile_list(settings)
    _shuffle(tiles, board)
    return fence_types, tiles


def _share_towards_zero(money: int, percent: int) -> int:
    """trunc(money * percent / 100) (S-23)."""
    share = abs(money) * percent // 100
    return share if money >= 0 else -share


# --------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------
# A place is ("city", q) | ("outside", j) | ("gate", j) | ("cell", x).
# A chip's place is ("box", None) | ("cell", x) | ("seat", s).

BOX = ("box", None)
GONE = ("gone", None)  # S-06: sold loot leaves play


class _Seat:
    """One stalker."""

    def __init__(self, index: int, params, money: int, seed: int, game: int):
        if len(params) != len(PLANNER_PARAMS):
            raise ValueError(f"seat {index}: {len(PLANNER_PARAMS)} planner parameters expected")
        self.index = index
        self.params = dict(zip(PLANNER_PARAMS, params))
        self.dice = Stream(seed, game, 1 + index)  # SEAT s
        self.money = money
        self.place = ("city", 0)
        self.jailed = False
        self.chips = []          # chip numbers, in the order taken
        self.container = None    # None | EMPTY | FULL
        self.container_at = None  # S-15: the cell his container was laid on after a trap (not carried)
        self.filled_round = 0
        self.ozk = False
        self.pliers = False
        self.nuts = 0
        self.lives = 0
        self.partner = False
        self.shared = False
        self.nut_at = None
        self.stats = {name: 0 for name in SEAT_COUNTERS}
        self.finished = None     # S-05: the place in the order of finishing, once he has his visa

    def d6(self) -> int:
        return self.dice.die(6)

    def load(self) -> int:
        return len(self.chips) + (0 if self.carried() is None else 1)

    def has_loot(self) -> bool:
        return bool(self.chips) or self.carried() == FULL

    def carried(self):
        """The container if he carries it (not laid on a cell), else None."""
        return self.container if self.container_at is None else None

    def lose_container(self) -> None:
        self.container = None
        self.container_at = None

    def in_zone_or_at_fence(self) -> bool:
        return self.place[0] in ("outside", "gate", "cell")


class Move:
    """The Zone move of one turn: steps left, the forced next step, whether the turn is over."""

    def __init__(self, steps: int):
        self.steps = steps
        self.forced = None  # (direction, jump)
        self.ended = False


class Game:
    def __init__(self, settings, seat_params, seed: int, game: int, start_bonus=None):
        if not 2 <= len(seat_params) <= 6:
            raise ValueError("2 to 6 seats")
        start_bonus = start_bonus or [0] * len(seat_params)
        if len(start_bonus) != len(seat_params):
            raise ValueError("one start bonus per seat")
        self.s = settings
        city, zone, fence = settings["city"], settings["zone"], settings["fence"]
        self.squares = list(city["squares"])
        self.exit_sq = self.squares.index("exit")
        self.police_sq = self.squares.index("police")
        self.butcher_sq = self.squares.index("butcher")
        self.rows, self.cols = zone["rows"], zone["cols"]
        self.n_cells = self.rows * self.cols
        self.n_fence = fence["cells"]
        if self.n_fence > self.cols:
            raise ValueError("[fence] cells must be <= [zone] cols")
        self.nb = [[neighbour(x, d, self.rows, self.cols) for d in range(6)] for x in range(self.n_cells)]

        # The board: fence types, then the tile shuffle, from BOARD.
        self.board = Stream(seed, game, BOARD)
        self.fence_types = _draw_fence_types(settings, self.board)
        self.fence_up = [False] * self.n_fence
        self.tiles = _tile_list(settings)
        _shuffle(self.tiles, self.board)
        self.face_up = [False] * self.n_cells

        # Loot chips: zuda first, then plain loot; all in the box.
        self.n_zuda = settings["tiles"]["zuda"]
        self.n_chips = self.n_zuda + settings["tiles"]["loot"]
        self.chip_place = [BOX] * self.n_chips
        self.chip_origin = [None] * self.n_chips

        self.ball_used = False
        self.ball_revealer = None

        # S-10: every seat starts with [city] start_money, plus its start bonus
        self.seats = [_Seat(i, p, city["start_money"] + bonus, seed, game)
                      for i, (p, bonus) in enumerate(zip(seat_params, start_bonus))]
        self.round = 0
        self.winner = None
        self.finishers = 0
        self.turns = 0

    # ---- chips -----------------------------------------------------------

    def move_chip(self, chip: int, place) -> None:
        old = self.chip_place[chip]
        if old[0] == "seat":
            self.seats[old[1]].chips.remove(chip)
        self.chip_place[chip] = place
        if place[0] == "seat":
            self.seats[place[1]].chips.append(chip)

    def chips_on(self, x: int) -> list:
        return [c for c in range(self.n_chips) if self.chip_place[c] == ("cell", x)]

    def check_chips(self) -> None:
        """The L chips are conserved: each in exactly one of box / gone / a cell / a backpack."""
        in_packs = 0
        for seat in self.seats:
            mine = [c for c in range(self.n_chips) if self.chip_place[c] == ("seat", seat.index)]
            assert sorted(seat.chips) == mine, "backpack and chip places disagree"
            assert seat.load() <= self.s["zone"]["backpack"], "backpack over its size"
            in_packs += len(seat.chips)
        in_box = self.chip_place.count(BOX) + self.chip_place.count(GONE)
        on_cells = sum(1 for place in self.chip_place if place[0] == "cell")
        assert in_box + on_cells + in_packs == self.n_chips, "loot chips not conserved"

    def check_cells(self) -> None:
        """S-13: two stalkers never share a cell."""
        cells = [seat.place[1] for seat in self.seats if seat.place[0] == "cell"]
        assert len(cells) == len(set(cells)), "two stalkers on one cell"

    # ---- board -----------------------------------------------------------

    def reveal(self, x: int, seat: _Seat) -> None:
        """Turn x face up; put the lowest boxed chip of its kind on it; note the Ball's revealer."""
        if self.face_up[x]:
            return
        self.face_up[x] = True
        tile = self.tiles[x]
        if tile in ("loot", "zuda"):
            kind_range = range(self.n_zuda) if tile == "zuda" else range(self.n_zuda, self.n_chips)
            for c in kind_range:
                if self.chip_place[c] == BOX:
                    self.move_chip(c, ("cell", x))
                    self.chip_origin[c] = x
                    break
        elif tile == "golden_ball" and not self.ball_used:
            self.ball_revealer = seat.index

    def stalker_on(self, x: int):
        for seat in self.seats:
            if seat.place == ("cell", x):
                return seat
        return None

    def occupied_by_other(self, x: int, seat: _Seat) -> bool:
        other = self.stalker_on(x)
        return other is not None and other is not seat

    # ---- common outcomes -------------------------------------------------

    def trip_ends(self, seat: _Seat) -> None:
        """The Zone trip ends without return: the partner leaves (deposit kept), the nut is lost."""
        seat.partner = False
        seat.nut_at = None

    def return_to_city(self, seat: _Seat) -> None:
        """Corridor, Golden Ball, fence exit, Flip: the partner is paid off (S-07); to the Exit square."""
        if seat.partner:
            seat.money += self.s["borscht"]["partner_bonus"]
            seat.partner = False
            seat.shared = True
        seat.place = ("city", self.exit_sq)

    def finish(self, seat: _Seat, move=None) -> None:
        """S-05: seat has his visa: he leaves the game (and his backpack leaves play with him),
        placed by the order of finishing; the first to finish is the winner."""
        self.trip_ends(seat)
        seat.place = ("city", seat.place[1] if seat.place[0] == "city" else self.exit_sq)
        self.finishers += 1
        seat.finished = self.finishers
        if self.winner is None:
            self.winner = seat.index
        if move is not None:
            move.ended = True

    def go_to_butcher(self, seat: _Seat) -> None:
        """S-08: treated at the Butcher for a fee, even on credit."""
        if seat.in_zone_or_at_fence():
            self.trip_ends(seat)
        seat.place = ("city", self.butcher_sq)
        seat.money -= self.s["butcher"]["fee"]

    def arrest(self, seat: _Seat) -> bool:
        """S-02. True if a zuda chip bought the way out (then nothing else happens)."""
        zuda = [c for c in seat.chips if c < self.n_zuda]
        if zuda:
            self.move_chip(min(zuda), BOX)
            seat.stats["zuda_escapes"] += 1
            return True
        for c in list(seat.chips):  # police confiscate; loot back to the cells it came from
            self.move_chip(c, ("cell", self.chip_origin[c]))
        seat.lose_container()
        seat.ozk = seat.pliers = False
        seat.nuts = 0
        seat.lives = 0
        seat.shared = False
        self.trip_ends(seat)
        seat.place = ("city", self.police_sq)
        seat.jailed = True
        seat.stats["arrests"] += 1
        return False

    def death(self, seat: _Seat, cause: str, move: Move) -> None:
        """S-23 (S-19 extra life first); S-15 Mosquito Bald and failed trap rolls."""
        if seat.lives > 0:
            seat.lives -= 1
            seat.stats["lives_spent"] += 1
            return
        for c in list(seat.chips):
            self.move_chip(c, BOX)
        seat.lose_container()
        seat.ozk = seat.pliers = False
        seat.nuts = 0
        seat.shared = False
        self.trip_ends(seat)
        seat.money = _share_towards_zero(seat.money, self.s["city"]["reentry_percent"])
        seat.place = ("city", 0)
        seat.stats["deaths_" + cause] += 1
        move.ended = True

    def trap_roll(self, seat: _Seat, prev, cause: str, move: Move) -> None:
        """S-15: survive on trap_survive_on+, the backpack (chips, container) laid on the previous
        cell (lost when he came from the gate), then the Butcher."""
        if seat.d6() >= self.s["zone"]["trap_survive_on"]:
            for c in list(seat.chips):
                self.move_chip(c, BOX if prev is None else ("cell", prev))
            if seat.carried() is not None:
                if prev is None:
                    seat.lose_container()
                else:
                    seat.container_at = prev
            self.go_to_butcher(seat)
            move.ended = True
        else:
            self.death(seat, cause, move)

    # ---- a turn ----------------------------------------------------------

    def play_turn(self, seat: _Seat) -> None:
        self.turns += 1
        # 1. Jail (S-02).
        if seat.jailed:
            if seat.d6() >= self.s["police"]["release_on"]:
                seat.jailed = False
            return
        # 2. Jelly accident (S-17).
        if (seat.carried() == FULL and seat.filled_round < self.round
                and seat.d6() >= self.s["jelly"]["accident_on"]):
            seat.container = None
            self.go_to_butcher(seat)
            return
        # 3. By place.
        kind, where = seat.place
        if kind == "city":
            q = (where + seat.d6()) % len(self.squares)  # S-01
            seat.place = ("city", q)
            self.act_city(seat, q)
        elif kind == "outside":
            self.fence_attempt(seat, where)
        else:
            self.zone_move(seat)

    # ---- City (S-01..S-10) -----------------------------------------------

    def act_city(self, seat: _Seat, q: int) -> None:
        square = self.squares[q]
        if square == "exit":  # S-03
            if not seat.has_loot():
                j = planner_fence(self, seat)
                if not 0 <= j < self.n_fence:
                    j = 0
                seat.place = ("outside", j)
        elif square == "shop":
            self.shop(seat)
        elif square == "police":  # S-02
            if seat.has_loot() and seat.d6() >= self.s["police"]["arrest_on"]:
                self.arrest(seat)
        elif square == "borscht":
            self.borscht(seat)
        elif square == "jelly_order":  # S-09
            jelly = self.s["jelly"]
            if seat.carried() == FULL:
                seat.money += jelly["reward"]
                seat.container = None
                seat.stats["jelly_delivered"] += 1
            elif (seat.container is None and seat.load() < self.s["zone"]["backpack"]
                  and planner_jelly(seat) == 1 and seat.d6() >= jelly["order_on"]):
                seat.container = EMPTY
                seat.stats["jelly_orders"] += 1
        # butcher (S-08: only one sent there pays) and empty: nothing.

    def shop(self, seat: _Seat) -> None:
        """S-04, S-05."""
        shop = self.s["shop"]
        if seat.money >= shop["exit_visa"]:
            seat.money -= shop["exit_visa"]
            seat.stats["bought_exit_visa"] += 1
            self.finish(seat)
            return
        while True:
            item = planner_buy(self, seat)
            if item not in (0, 1, 2):
                return
            name = SHOP_ITEMS[item]
            price = shop[name]
            owned = (name == "ozk" and seat.ozk) or (name == "pliers" and seat.pliers)
            if seat.money < price or owned:
                return
            seat.money -= price
            if name == "nut":
                seat.nuts += 1
            else:
                setattr(seat, name, True)
            seat.stats["bought_" + name] += 1

    def borscht(self, seat: _Seat) -> None:
        """S-06 sale, S-07 partner."""
        bar = self.s["borscht"]
        if seat.chips:
            price = bar["prices"][seat.d6() - 1]
            if planner_sell(seat, price) == 1:
                gain = price * len(seat.chips)
                if seat.shared:
                    gain -= gain * bar["partner_share_percent"] // 100
                seat.money += gain
                seat.stats["chips_sold"] += len(seat.chips)
                for c in list(seat.chips):
                    self.move_chip(c, GONE)
                seat.shared = False
        if not seat.partner and not seat.shared and seat.d6() >= bar["partner_on"]:
            seat.partner = True
            seat.money += bar["partner_deposit"]
            seat.stats["partners"] += 1

    # ---- Fence (S-11, S-12) ----------------------------------------------

    def fence_attempt(self, seat: _Seat, j: int) -> None:
        fence = self.s["fence"]
        self.fence_up[j] = True
        kind = self.fence_types[j]
        if kind == "gap":
            if seat.d6() >= fence["gap_ambush_on"]:
                self.arrest(seat)
                return
        elif kind == "fence":
            if not seat.pliers:
                k = seat.d6()
                j2 = planner_slide(self, seat, j, k)
                if abs(j2 - j) <= k and 0 <= j2 < self.n_fence:
                    seat.place = ("outside", j2)
                return
            if seat.d6() >= fence["pliers_ambush_on"]:
                self.arrest(seat)
                return
        else:  # ambush
            self.arrest(seat)
            return
        seat.stats["crossings"] += 1
        seat.place = ("gate", j)
        self.zone_move(seat)

    # ---- Zone (S-13..S-22) -----------------------------------------------

    def zone_move(self, seat: _Seat) -> None:
        move = Move(seat.d6())  # S-13
        while move.steps > 0 and not move.ended:
            if move.forced is not None:  # S-20: the pointer sets this step
                d, jump = move.forced
                move.forced = None
                target = self.nb[seat.place[1]][d]
                if jump and target is not None:
                    target = self.nb[target][d]
                if target is None or self.occupied_by_other(target, seat):
                    move.steps -= 1
                else:
                    self.enter(seat, target, move)
            else:
                self.decided_step(seat, move)
            self.check_cells()

    def decided_step(self, seat: _Seat, move: Move) -> None:
        a = planner_step(self, seat)
        kind, where = seat.place
        if a in range(6):
            target = where if kind == "gate" else self.nb[where][a]  # gate j -> cell (0, j)
            if target is None or self.occupied_by_other(target, seat):
                move.ended = True
            else:
                self.enter(seat, target, move)
        elif a == EXIT:
            if kind == "cell" and where < self.n_fence and seat.has_loot():  # (0, j), j < F
                self.leave_zone(seat, where, move)
            else:
                move.ended = True
        elif a in range(NUT, NUT + 6):
            if seat.nuts > 0 and kind == "cell":
                self.throw_nut(seat, where, a - NUT)  # costs no step
            else:
                move.ended = True
        else:  # -1 or any other answer: stop
            move.ended = True

    def leave_zone(self, seat: _Seat, j: int, move: Move) -> None:
        """S-12: the way out over fence j, with the same ambush checks."""
        fence = self.s["fence"]
        move.steps -= 1
        self.fence_up[j] = True
        kind = self.fence_types[j]
        if kind == "gap":
            caught = seat.d6() >= fence["gap_ambush_on"]
        elif kind == "fence":
            if not seat.pliers:
                return  # the step fails
            caught = seat.d6() >= fence["pliers_ambush_on"]
        else:
            caught = True
        if not caught or self.arrest(seat):  # a zuda escape lets him through
            self.return_to_city(seat)
        move.ended = True

    def throw_nut(self, seat: _Seat, x: int, d: int) -> None:
        """S-22: reveals up to nut_range cells ahead; lost on a Mosquito Bald."""
        seat.nuts -= 1
        landed = []
        for _ in range(self.s["zone"]["nut_range"]):
            nxt = self.nb[landed[-1] if landed else x][d]
            if nxt is None:
                break
            landed.append(nxt)
        if not landed:
            return
        for c in landed:
            self.reveal(c, seat)
        if any(self.tiles[c] == "mosquito_bald" for c in landed):
            return
        seat.nut_at = landed[-1]

    def enter(self, seat: _Seat, target: int, move: Move) -> None:
        # S-20: was the cell face down when this step began (so that this step, by s
        # or his partner, revealed it)?
        revealed_now = not self.face_up[target]
        if seat.partner:  # S-07: the partner goes first
            self.reveal(target, seat)
            if self.tiles[target] in TRAP_KINDS:
                seat.partner = False
                move.steps -= 1
                return
        prev = seat.place[1] if seat.place[0] == "cell" else None
        self.reveal(target, seat)  # S-13
        seat.place = ("cell", target)
        tile = self.tiles[target]
        zone = self.s["zone"]
        cost = {"swamp_2": zone["swamp_2_hummocks"], "swamp_3": zone["swamp_3_hummocks"]}.get(tile, 1)  # S-16
        move.steps = max(0, move.steps - cost)
        if seat.nut_at == target:  # S-22: the nut is picked up
            seat.nuts += 1
            seat.nut_at = None
        lying = self.chips_on(target)
        for c in lying:  # S-14
            if seat.load() >= self.s["zone"]["backpack"]:
                break
            self.move_chip(c, ("seat", seat.index))
            if c == lying[-1] and tile in ("loot", "zuda"):  # S-14: emptied, the cell is grass
                self.tiles[target] = "grass"
        if seat.container_at == target and seat.load() < self.s["zone"]["backpack"]:  # S-15
            seat.container_at = None
        self.tile_acts(seat, tile, prev, revealed_now, move)

    def tile_acts(self, seat: _Seat, tile: str, prev, revealed_now: bool, move: Move) -> None:
        if tile == "mosquito_bald":  # S-15
            self.death(seat, "mosquito", move)
        elif tile in OZK_PROOF:  # S-15
            if not seat.ozk:
                self.trap_roll(seat, prev, "trap", move)
        elif tile == "trap":
            self.trap_roll(seat, prev, "trap", move)
        elif tile == "jelly_basement":  # S-17
            if seat.carried() == EMPTY:
                jelly = self.s["jelly"]
                r = seat.d6()
                if r >= jelly["fill_on"]:
                    seat.container = FULL
                    seat.filled_round = self.round
                elif r <= jelly["spill_on"]:
                    self.trap_roll(seat, prev, "jelly", move)
        elif tile == "corridor":  # S-18
            self.return_to_city(seat)
            move.ended = True
        elif tile == "stop":  # S-18
            move.ended = True
        elif tile == "golden_ball":  # S-19
            if not self.ball_used and self.ball_revealer == seat.index:
                self.ball_used = True
                r = seat.d6()
                zone = self.s["zone"]
                if r == zone["golden_ball_life_roll"]:
                    seat.lives += 1
                    seat.stats["golden_life"] += 1
                elif r == zone["golden_ball_visa_roll"]:
                    seat.stats["golden_visa"] += 1
                    self.finish(seat, move)
                else:
                    seat.money += self.s["zone"]["golden_ball_bonus"]
                    seat.stats["golden_bonus"] += 1
                    self.return_to_city(seat)
                    move.ended = True
        elif tile in ("pointer", "jumping_pointer"):  # S-20
            r = seat.d6()
            move.forced = (r - 1, tile == "jumping_pointer")
            if move.steps == 0 and revealed_now:
                move.steps = 1
        elif tile == "flip":  # S-21
            self.flip()
            move.ended = True
        # loot, zuda, grass, swamps: nothing more.

    def flip(self) -> None:
        """S-21: home with the backpacks; the tiles as they lie (emptied loot cells are grass)
        face down and reshuffled; chips lying on cells to the box, which lays a chip again only
        on a loot cell that still holds its loot."""
        for seat in self.seats:  # partner bonuses in seat order
            if seat.in_zone_or_at_fence():
                self.return_to_city(seat)
        for c in range(self.n_chips):
            if self.chip_place[c][0] == "cell":
                self.move_chip(c, BOX)
        for seat in self.seats:
            seat.nut_at = None
            if seat.container_at is not None:  # a container laid on a cell is swept away
                seat.lose_container()
        self.face_up = [False] * self.n_cells
        _shuffle(self.tiles, self.board)
        self.ball_revealer = None

    # ---- the game --------------------------------------------------------

    def play(self) -> dict:
        """S-05: rounds until all but one have finished (the game ends at that turn) or the cap;
        then the seats still in are placed after the finishers, by money (the earlier seat on ties)."""
        cap = self.s["game"]["round_cap"]
        P = len(self.seats)
        money_by_round = []
        length = cap
        for rnd in range(1, cap + 1):
            self.round = rnd
            for seat in self.seats:
                if seat.finished is None:
                    self.play_turn(seat)
                    self.check_chips()
                    self.check_cells()
                if self.finishers >= P - 1:
                    break
            if self.finishers >= P - 1:
                length = rnd
                break
            money_by_round.append([seat.money for seat in self.seats])
        still_in = sorted((s for s in self.seats if s.finished is None), key=lambda s: (-s.money, s.index))
        for place, seat in enumerate(still_in, start=self.finishers + 1):
            seat.finished = place
        record = {
            "winner": self.winner,
            "length": length,
            "turns": self.turns,
            "money_by_round": money_by_round,
            "money": [seat.money for seat in self.seats],
            "place": [seat.finished for seat in self.seats],
            "last": [int(seat.finished == P) for seat in self.seats],
        }
        for name in SEAT_COUNTERS:
            record[name] = [seat.stats[name] for seat in self.seats]
        return record


# --------------------------------------------------------------------------
# The built-in "planner" strategy
# --------------------------------------------------------------------------


def _deadly(game: Game, seat: _Seat, n: int) -> bool:
    """Face up and deadly to s: mosquito_bald, trap, or fire_fluff / devils_cabbage without ozk."""
    if not game.face_up[n]:
        return False
    tile = game.tiles[n]
    return tile in DEADLY_ALWAYS or (tile in OZK_PROOF and not seat.ozk)


def _faces_in(ambush_on: int) -> int:
    """d6 faces that let s past a fence cell whose ambush comes on ambush_on or more (7: never)."""
    return min(ambush_on, 7) - 1


def _fence_score(game: Game, seat: _Seat, j: int) -> int:
    """12 x W x the chance to get in at fence j, by the content's fence weights and ambush rolls.

    0 whatever the fence if the front cell (0, j) is face up and deadly to s.
    """
    if _deadly(game, seat, j):  # cell (0, j) has index j
        return 0
    f = game.s["fence"]
    w = f["gap"] + f["fence"] + f["ambush"]
    chance = {"gap": 2 * _faces_in(f["gap_ambush_on"]),  # 12 x (faces in) / 6
              "fence": 2 * _faces_in(f["pliers_ambush_on"]) if seat.pliers else 0,
              "ambush": 0}
    if game.fence_up[j]:
        return chance[game.fence_types[j]] * w
    return sum(chance[kind] * f[kind] for kind in FENCE_TYPES)


def planner_fence(game: Game, seat: _Seat) -> int:
    """FENCE: the highest score, lowest j on ties."""
    best = 0
    for j in range(1, game.n_fence):
        if _fence_score(game, seat, j) > _fence_score(game, seat, best):
            best = j
    return best


def planner_slide(game: Game, seat: _Seat, j: int, k: int) -> int:
    """SLIDE(k): highest score within k, then the nearest, then the lowest j'."""
    candidates = range(max(0, j - k), min(game.n_fence - 1, j + k) + 1)
    return min(candidates, key=lambda j2: (-_fence_score(game, seat, j2), abs(j2 - j), j2))


def planner_buy(game: Game, seat: _Seat) -> int:
    """BUY: pliers, then nuts up to the count kept, then the OZK, each keeping the reserve."""
    p = seat.params
    shop = game.s["shop"]
    if p["pliers"] and not seat.pliers and seat.money - shop["pliers"] >= p["reserve"]:
        return 1
    if seat.nuts < p["nuts"] and seat.money - shop["nut"] >= p["reserve"]:
        return 2
    if p["ozk"] and not seat.ozk and seat.money - shop["ozk"] >= p["reserve"]:
        return 0
    return -1


def planner_sell(seat: _Seat, price: int) -> int:
    return 1 if price >= seat.params["sell_min"] else 0


def planner_jelly(seat: _Seat):
    return seat.params["jelly"]


def _blocked(game: Game, seat: _Seat, n: int, home: bool) -> bool:
    """Another stalker on n, or n face up and deadly to s, or (collect mode) a face-up flip / corridor."""
    if game.occupied_by_other(n, seat):
        return True
    if _deadly(game, seat, n):
        return True
    return not home and game.face_up[n] and game.tiles[n] in COLLECT_BLOCKING


def _weight(game: Game, n: int) -> int:
    if not game.face_up[n]:
        return 2
    tile, zone = game.tiles[n], game.s["zone"]
    if tile in ("swamp_2", "swamp_3"):  # S-16: its hummocks, at most 3
        return min(zone[tile + "_hummocks"], 3)
    return FACE_UP_WEIGHT.get(tile, 1)


def _exit_cost(game: Game, seat: _Seat, x: int):
    """Exit cost of front-row cell (0, j), j < F, whose fence j is face up and a fence when s has
    pliers or a gap: 1 + (the d6 faces that ambush him there) // 2 (default content: fence 1,
    gap 2); None if x is not an exit cell."""
    if x >= game.n_fence or not game.fence_up[x]:
        return None
    kind, f = game.fence_types[x], game.s["fence"]
    if kind == "fence" and seat.pliers:
        return 1 + (6 - _faces_in(f["pliers_ambush_on"])) // 2
    if kind == "gap":
        return 1 + (6 - _faces_in(f["gap_ambush_on"])) // 2
    return None


def _is_goal(game: Game, seat: _Seat, n: int, home: bool, with_chips) -> bool:
    up, tile = game.face_up[n], game.tiles[n]
    if home:  # both take him to the City with his backpack
        return up and tile in ("corridor", "flip")
    return (not up or n in with_chips or n == seat.container_at
            or (up and tile == "jelly_basement" and seat.carried() == EMPTY)
            or (up and tile == "golden_ball" and not game.ball_used and game.ball_revealer == seat.index))


def _distances(game: Game, seat: _Seat, home: bool) -> list:
    """D(n) over non-blocked cells (Dijkstra from the path ends); inf elsewhere.

    A path n = n0, ..., nk through non-blocked cells is worth the weights of n1..nk plus
    end(nk): 0 for a goal, the exit cost for an exit cell (home mode only); D is the least.
    """
    open_cells = [not _blocked(game, seat, n, home) for n in range(game.n_cells)]
    with_chips = {place[1] for place in game.chip_place if place[0] == "cell"}
    dist = [math.inf] * game.n_cells
    for n in range(game.n_cells):
        if not open_cells[n]:
            continue
        if _is_goal(game, seat, n, home, with_chips):
            dist[n] = 0
        elif home:
            cost = _exit_cost(game, seat, n)
            if cost is not None:
                dist[n] = cost
    heap = [(dist[n], n) for n in range(game.n_cells) if dist[n] < math.inf]
    heapq.heapify(heap)
    while heap:
        d_n, n = heapq.heappop(heap)
        if d_n > dist[n]:
            continue
        via = _weight(game, n) + d_n  # reaching n from a neighbour m costs n's weight
        for m in game.nb[n]:
            if m is not None and open_cells[m] and via < dist[m]:
                dist[m] = via
                heapq.heappush(heap, (via, m))
    return dist


def _best_direction(game: Game, seat: _Seat, x: int, home: bool):
    """(best, d): the least weight(n) + D(n) over d = 0..5 with n = step(x, d) not blocked; first d on ties."""
    dist = _distances(game, seat, home)
    best, best_d = math.inf, None
    for d in range(6):
        n = game.nb[x][d]
        if n is None or _blocked(game, seat, n, home):
            continue
        value = _weight(game, n) + dist[n]
        if value < best:
            best, best_d = value, d
    return best, best_d


def planner_step(game: Game, seat: _Seat) -> int:
    """STEP: a direction 0..5, EXIT (6), NUT + d (10..15) a nut towards d, or STOP (-1)."""
    kind, x = seat.place
    if kind == "gate":  # only the front cell (0, j), index j, can be entered
        return STOP if game.occupied_by_other(x, seat) else 0
    p = seat.params
    home = (len(seat.chips) >= p["home_at"] or seat.load() == game.s["zone"]["backpack"]
            or seat.carried() == FULL)
    best, best_d = _best_direction(game, seat, x, home)
    if best == math.inf and not home:  # nothing left to collect: go home
        home = True
        best, best_d = _best_direction(game, seat, x, home)
    if home and seat.has_loot():
        cost = _exit_cost(game, seat, x)
        if cost is not None and cost <= best:
            return EXIT
    if best == math.inf:
        return STOP
    if p["throw"] and seat.nuts > 0 and not game.face_up[game.nb[x][best_d]]:
        return NUT + best_d
    return best_d


# --------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------


def simulate_game(settings, seat_params, seed, game, start_bonus=None) -> dict:
    """One game with the planner in every seat (seat_params: P sequences of 8 numbers;
    start_bonus: P amounts of G each seat starts with above [city] start_money, S-10).

    Returns {"winner", "length", "turns", "money_by_round", "money", and one list
    per seat for each name in SEAT_COUNTERS}.
    """
    return Game(settings, seat_params, seed, game, start_bonus).play()


def run_games(settings, seat_params, seed, games, first_game=0, start_bonus=None) -> list:
    """Games first_game .. first_game + games - 1 (start_bonus as in ``simulate_game``)."""
    return [simulate_game(settings, seat_params, seed, g, start_bonus) for g in range(first_game, first_game + games)]
