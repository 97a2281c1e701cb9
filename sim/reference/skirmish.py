"""Reference skirmish: the slow and obvious reading of docs/rules/skirmish-resolution.md.

One skirmish is a party of stalkers against monsters on a hex arena (the rule catalogue,
A-01..A-07 action points, M-01..M-08 hex movement with facing).  Plain Python
on Python ints (the setup's numpy arrays are turned into lists at the start);
it exists to cross-check the fast kernel skirmish for skirmish, so every random
number is drawn from its stream in exactly the order the contract gives.

Random streams of a skirmish (the skirmish is the trial of
docs/rules/fight-resolution.md; stream key mix(mix(mix(seed) + (trial+1)*GOLDEN) +
(purpose+1)*GOLDEN)):

* fighter i = purpose i: its d6 dice (attack damage, 3d6 evade rolls, the dice
  of the mines it laid) from the dice buffer, and its percentiles
  ``pct = pick(100) + 1`` (shots, mine laying, first aid) from whole words that
  never touch the dice buffer.
* SETUP = purpose 16: the d10 sequence draws (A-01), fighters in index order.

Public API
----------
``play(setup, seed, trial, strategies=None, log=None) -> dict`` plays one
skirmish; ``run(setup, seed, trials, trial_start=0) -> list`` plays several.
``code(kind, a=0, b=0)`` builds an action code ``kind | a << 8 | b << 16``;
``decode(c)`` splits it.  ``scripted(codes)`` makes a strategy that answers
the given codes in order.  ``STRATEGIES`` maps the built-in names (``beast``,
``hold``, ``kite``, ``rush``) to their callables; the shared notions
(``nearest``, ``shot_target``, ``min_e``, ``candidates``, ``walk``, ``approach``,
``retreat``, ``face``, ``fire``) are public too.  ``geometry(cols, rows, mult)``
gives the arena's ``(nbr, dist, los)`` worked out here, not taken from the
setup; ``bearing(d, f)`` and ``turned(f, a, k)`` are the facings' geometry.

Record keys: ``outcome`` (WIN 0, LOSS 1, DRAW 2), ``rounds``, ``alive``,
``all_alive``, ``damage_dealt``, ``damage_taken``, ``kills``, ``shots``,
``hits``, ``illegal``, ``ap`` (10 totals in ``AP_KINDS`` order), ``hp``,
``pos``, ``facing`` (per fighter, at the end).

What a strategy sees
--------------------
A strategy is a callable ``f(state, i) -> int`` (a code).  It is asked once per
turn for the manoeuvre (``state.phase == PHASE_MANOEUVRE``; answer
``code(MANOEUVRE, m)``) and then once per action (``state.phase ==
PHASE_ACTION``).  ``state`` is a ``State``:

* ``round`` (1..max_rounds), ``phase``, ``current`` (index of the fighter whose
  turn it is), ``rules`` (dict of [skirmish] rules), ``cols``, ``rows``;
* arena lists: ``mult[h]``, ``nbr[h][d]``, ``dist[a][b]``, ``los[a][b]`` (bool);
* ``mine[h]`` (dice of a mine on h, 0 none), ``mine_owner[h]`` (-1 none);
* ``fighters``: list of ``Fighter``; ``occupant(h)`` = index of the living
  fighter on h or -1.

A ``Fighter`` has every setup field (``side``, ``max_hp``, ``agility``,
``dx``, ``move``, ``sequence``, ``skill``, ``defence``, ``dice``, ``bonus``,
``range``, ``attack_ap``, ``aimed_ap``, ``mag_size``, ``spare``, ``firearm``,
``heal`` (two mutable ``[count, heal]`` lists), ``expl_count``, ``expl_dice``,
``expl_bonus``, ``medic_skill``, ``medic_uses``, ``traps``, ``insubstantial``,
``strategy``) plus the state: ``index``, ``hp``, ``pos``, ``facing``,
``posture`` (STANDING / KNEELING / PRONE), ``alive``, ``conscious`` (property),
``mag``, ``hand`` (HAND_FIREARM, HAND_HEAL_A, HAND_HEAL_B, HAND_EMPTY),
``banked``, ``aod``, ``aid_left``, ``aid_target``, ``no_ap_round``,
``last_manoeuvre``, ``sprint_next`` (sprint earned for the next turn) and the
turn fields ``ap``, ``manoeuvre`` (M_NONE while the manoeuvre is being asked),
``pts``, ``pts0``, ``sprint``, ``forward_only``, ``step_used``,
``move_locked``.  Strategies must not change the state.

Readings of the contract made here (each also marked ``# READING:`` where it
is implemented):

* Codes decode as kind = bits 0..7, a = bits 8..15, b = bits 16 and up; a
  field a kind does not use is ignored (also b of MANOEUVRE); an answer that is
  not a non-negative int, an unknown kind, or MANOEUVRE in the action phase is
  illegal.
* ``illegal`` counts illegal answers of every fighter (monsters included):
  the contract does not say "by stalkers" as it does for shots and hits.
* The sprint points lower the move points only; the AP are always those of
  the hexes entered (A-03).
* MOVE mode b must be 0 or 1; it matters only at a front side; in a pass-through
  (ally or evade) the same mode is used for the second hex.
* A non-forward MOVE clears ``forward_only`` also when the evade is lost.
* TURN has no posture condition and the sprint points never pay for it.
* STEP into a hex with a mine: the mine goes off, then ``facing = b`` (text
  order), even when the mine took him down.
* WIN is checked before LOSS after an action.
* "If ap == 0 after first aid" (end before the manoeuvre) applies also when
  there was no aid.
* PICKUP needs a dead fighter of side 0; FIRST_AID's ally is another fighter
  of the same side; an unconscious fighter on h1 is still passed through (ally)
  or still tries to stop the mover (enemy).
* ``hold`` rule 9 ("the front hex can take a mine (as LAY_MINE)") checks the
  hex conditions only, not the posture.
* ``min_e`` with no target is infinite; ``beast`` with no target picks
  MOVE_ATTACK, and answers END keep before its rule 0 (STAND).
* ``walk`` (the way round of ``approach``) counts hex steps along ``nbr``:
  terrain multipliers, facing and mines play no part; every living fighter
  other than the mover and the target (either side, conscious or not) blocks.
* A fighter that skips its turn gets only ``banked = 0`` (``aod`` is kept;
  such a fighter is always prone, so it never matters).
* Damage counts (``damage_dealt`` / ``damage_taken``) are the full damage,
  not capped by the hp left; ``kills`` counts every monster death.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from typing import ClassVar

from sim.reference.fight import Stream

# --------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------

# Action kinds (code bits 0..7).
END, MOVE, TURN, STEP, SHOOT, RELOAD, EQUIP, USE, PICKUP, STAND, FIRST_AID, LAY_MINE, MANOEUVRE = range(13)
KIND_NAMES = ("END", "MOVE", "TURN", "STEP", "SHOOT", "RELOAD", "EQUIP", "USE", "PICKUP", "STAND",
              "FIRST_AID", "LAY_MINE", "MANOEUVRE")

# Manoeuvres (M-03); M_NONE: the turn ended before a manoeuvre was chosen.
M_NONE = -1
M_MOVE, M_MOVE_ATTACK, M_ALL_OUT_ATTACK, M_ALL_OUT_DEFENCE, M_ATTACK = range(5)
MANOEUVRE_NAMES = ("MOVE", "MOVE_ATTACK", "ALL_OUT_ATTACK", "ALL_OUT_DEFENCE", "ATTACK")

# Outcomes.
WIN, LOSS, DRAW = 0, 1, 2
OUTCOMES = ("win", "loss", "draw")

# AP kinds of the record.
AP_MOVE, AP_SHOOT, AP_RELOAD, AP_EQUIP, AP_USE, AP_PICKUP, AP_STAND, AP_FIRST_AID, AP_MINE, AP_DEFEND = range(10)
AP_KINDS = ("move", "shoot", "reload", "equip", "use", "pickup", "stand", "first_aid", "mine", "defend")

# Special operands.
KEEP = 6    # END a: keep the facing
STAY = 6    # STEP a: no move
KNEEL = 7   # STEP a: kneel / stand up from a knee

# Postures.
STANDING, KNEELING, PRONE = 0, 1, 2

# What is in hand; EQUIP a = 0, 1, 2 puts HAND_FIREARM, HAND_HEAL_A, HAND_HEAL_B in hand.
HAND_EMPTY, HAND_FIREARM, HAND_HEAL_A, HAND_HEAL_B = -1, 0, 1, 2

# Stream purposes: fighter i is purpose i.
SETUP = 16

# Strategy phases.
PHASE_MANOEUVRE = "manoeuvre"
PHASE_ACTION = "action"

INF = float("inf")

RECORD_COUNTERS = ("damage_dealt", "damage_taken", "kills", "shots", "hits", "illegal")


def code(kind: int, a: int = 0, b: int = 0) -> int:
    """An action code ``kind | a << 8 | b << 16`` (0 <= kind, a < 256, b >= 0)."""
    if not (0 <= kind < 256 and 0 <= a < 256 and b >= 0):
        raise ValueError(f"code({kind}, {a}, {b}): need 0 <= kind, a < 256 and b >= 0")
    return kind | a << 8 | b << 16


def decode(c: int):
    """(kind, a, b) of a code."""
    # READING: kind = bits 0..7, a = bits 8..15, b = bits 16 and up (the contract
    # gives ``kind | a << 8 | b << 16`` without field widths); unused fields are ignored.
    return c & 0xFF, (c >> 8) & 0xFF, c >> 16


# --------------------------------------------------------------------------
# Random numbers
# --------------------------------------------------------------------------


def pick(stream: Stream, n: int) -> int:
    """pick(n) = (next word w * n) >> 64; the dice buffer is untouched."""
    return (stream.next_word() * n) >> 64


def pct(stream: Stream) -> int:
    """A percentile 1..100: pick(100) + 1."""
    return pick(stream, 100) + 1


# --------------------------------------------------------------------------
# Hex geometry (M-01, M-04, M-05, M-08, A-03, A-07), worked out here on its own
# --------------------------------------------------------------------------
#
# The kernel's tables come from sim/content/skirmish.py (offset neighbour steps,
# cube distances, a cube line of sight).  Here every hex is a point of the plane
# and everything is measured between points, so a slip in either shows up as a
# mismatch (tests/crosscheck/test_reference_skirmish.py compares them hex pair by hex pair).
#
# "Doubled" coordinates: hex (row r, col c) of the odd-r arena sits at
# x = 2c + (r & 1), y = r; its centre in the plane is (x, y * sqrt(3)), half a
# hex width being the unit, so a step (dx, dy) has squared length dx^2 + 3 dy^2
# (4 between neighbours) and the hex holding a point is the one whose centre is
# nearest.

STEPS = ((2, 0), (1, -1), (-1, -1), (-2, 0), (-1, 1), (1, 1))
"""Direction d as a step (dx, dy), y growing down the map: 0 E, then counter-clockwise
as seen on the map: 1 NE, 2 NW, 3 W, 4 SW, 5 SE."""


def _dot(u, v) -> int:
    """Scalar product in the plane (4 cos of the angle between two directions)."""
    return u[0] * v[0] + 3 * u[1] * v[1]


def _cross(u, v) -> int:
    """Sign of the plane's cross product: < 0 when v lies counter-clockwise of u on the map."""
    return u[0] * v[1] - u[1] * v[0]


def bearing(d: int, f: int) -> int:
    """Where direction d lies seen from facing f, by the angle between them:
    0 ahead, 1 a front side (60 degrees), 2 a back side (120), 3 behind (180);
    also the hex sides between two facings (M-05)."""
    return {4: 0, 2: 1, -2: 2, -4: 3}[_dot(STEPS[d], STEPS[f])]


def turned(f: int, a: int, k: int) -> int:
    """Facing f turned k hex sides toward facing a, never past it; from right
    behind, counter-clockwise (M-05 end of turn)."""
    for _ in range(min(k, bearing(a, f))):
        x, y = STEPS[f]
        if _cross(STEPS[f], STEPS[a]) <= 0:  # a 60-degree turn counter-clockwise
            f = STEPS.index(((x + 3 * y) // 2, (y - x) // 2))
        else:
            f = STEPS.index(((x - 3 * y) // 2, (y + x) // 2))
    return f


def _hex_distance(p, q) -> int:
    """Hexes between two points of the doubled grid: a diagonal step covers one
    row and one x unit, a step along the row two x units."""
    dx, dy = abs(p[0] - q[0]), abs(p[1] - q[1])
    return dy + max(0, (dx - dy) // 2)


def _clear(where, blocked, a: int, b: int, k: int) -> bool:
    """Line of sight between hexes a and b (k apart): no blocked hex other than a
    and b holds one of the points a + (b - a) s / k (s = 1 .. k-1) of the segment
    between their centres.  A point on the edge of two hexes is counted both ways:
    for the hex left of the segment, or for the one right of it, and sight is clear
    if either way is.  Exact integer arithmetic (every length times k)."""
    (ax, ay), (bx, by) = where[a], where[b]
    u = (bx - ax, by - ay)
    ways = [True, True]  # clear counting edge points for the left / the right hex
    for x in blocked:
        xx, xy = where[x]
        if x in (a, b) or not (min(ax, bx) - 2 <= xx <= max(ax, bx) + 2 and min(ay, by) - 1 <= xy <= max(ay, by) + 1):
            continue
        for s in range(1, k):
            px, py = ax * (k - s) + bx * s, ay * (k - s) + by * s
            own = (px - k * xx) ** 2 + 3 * (py - k * xy) ** 2
            holds = [True, True]  # x holds the point, edge points going left / right
            for dx, dy in STEPS:  # x's hex is where x's centre is nearer than its six neighbours'
                other = (px - k * (xx + dx)) ** 2 + 3 * (py - k * (xy + dy)) ** 2
                if other < own:
                    holds = [False, False]
                    break
                if other == own:
                    holds[1 if _cross(u, (-dx, -dy)) > 0 else 0] = False
            ways = [w and not h for w, h in zip(ways, holds)]
        if not any(ways):
            return False
    return True


class _SightRow:
    """``los[a]``: ``los[a][b]`` worked out when first asked, then remembered."""

    __slots__ = ("_a", "_known", "_where", "_blocked", "_dist")

    def __init__(self, a, where, blocked, dist):
        self._a, self._where, self._blocked, self._dist = a, where, blocked, dist
        self._known = {}

    def __getitem__(self, b):
        seen = self._known.get(b)
        if seen is None:
            seen = self._known[b] = _clear(self._where, self._blocked, self._a, b, self._dist[self._a][b])
        return seen


@lru_cache(maxsize=8)
def geometry(cols: int, rows: int, mult: tuple):
    """``(nbr, dist, los)`` of an odd-r arena of ``cols`` x ``rows`` hexes (``mult``
    per hex, 0 blocked): neighbour hex per direction (-1 off the arena), hex
    distance, line of sight (A-07; blocked hexes block it, fighters never)."""
    where = [(2 * c + (r & 1), r) for r in range(rows) for c in range(cols)]
    index = {p: h for h, p in enumerate(where)}
    nbr = [[index.get((x + dx, y + dy), -1) for dx, dy in STEPS] for x, y in where]
    dist = [[_hex_distance(p, q) for q in where] for p in where]
    blocked = [h for h, m in enumerate(mult) if m == 0]
    los = [_SightRow(a, where, blocked, dist) for a in range(len(where))]
    return nbr, dist, los


def hex_cost(rules, d: int, facing: int, mode: int):
    """M-04: (points, facing after, forward, allowed in ALL_OUT_ATTACK) of one hex
    entered in direction d with the given facing."""
    # READING: the mode matters only at a front side (ahead and the back hexes cost the same in either mode).
    b = bearing(d, facing)
    if b == 0:
        return rules["forward_points"], facing, True, True
    if b == 1 and mode == 0:
        return rules["forward_points"], d, True, True
    return rules["sideways_points"], facing, False, b == 1


# --------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------

SETUP_FIELDS = ("side", "max_hp", "agility", "dx", "move", "sequence", "skill", "defence", "dice", "bonus",
                "range", "attack_ap", "aimed_ap", "mag_size", "spare", "firearm", "expl_count", "expl_dice",
                "expl_bonus", "medic_skill", "medic_uses", "traps", "insubstantial", "strategy")


class Fighter:
    """One fighter: the setup's numbers and its state (start state per the contract)."""

    def __init__(self, index: int, spec):
        self.index = index
        for name in SETUP_FIELDS:
            value = spec[name]
            setattr(self, name, value if isinstance(value, str) else int(value))
        self.heal = [[int(n), int(h)] for n, h in spec["heal"]]
        self.hp = self.max_hp
        self.pos = int(spec["pos"])
        self.facing = int(spec["facing"])
        self.posture = STANDING
        self.alive = True
        self.mag = self.mag_size
        self.hand = HAND_FIREARM
        self.banked = 0
        self.aod = False
        self.aid_left = 0
        self.aid_target = -1
        self.no_ap_round = 0
        self.last_manoeuvre = M_NONE
        self.sprint_next = 0
        # Turn fields.
        self.ap = 0
        self.manoeuvre = M_NONE
        self.pts = 0
        self.pts0 = 0
        self.sprint = 0
        self.forward_only = True
        self.step_used = False
        self.move_locked = False

    @property
    def conscious(self) -> bool:
        return self.alive and self.hp > 0

    def __repr__(self):
        return (f"Fighter({self.index}, side={self.side}, hp={self.hp}, pos={self.pos}, facing={self.facing}, "
                f"posture={self.posture}, alive={self.alive})")


class State:
    """Everything a strategy may read (see the module docstring)."""

    def __init__(self, setup):
        arena = setup.arena
        self.cols, self.rows = int(arena.cols), int(arena.rows)
        self.mult = [int(x) for x in arena.mult.tolist()]
        # The arena's tables are worked out here, not taken from the setup (see geometry).
        self.nbr, self.dist, self.los = geometry(self.cols, self.rows, tuple(self.mult))
        self.rules = dict(setup.rules)
        self.fighters = [Fighter(i, spec) for i, spec in enumerate(setup.fighters)]
        self.mine = [0] * len(self.mult)
        self.mine_owner = [-1] * len(self.mult)
        self.round = 0
        self.phase = PHASE_ACTION
        self.current = -1

    def occupant(self, h: int) -> int:
        """The living fighter (conscious or not) on hex h, or -1."""
        for f in self.fighters:
            if f.alive and f.pos == h:
                return f.index
        return -1

    def free(self, h: int) -> bool:
        """h exists, is not blocked and not occupied."""
        return h >= 0 and self.mult[h] > 0 and self.occupant(h) < 0


# --------------------------------------------------------------------------
# Strategies: shared notions
# --------------------------------------------------------------------------


def targets(state: State, i: int) -> list:
    """Conscious enemies of i."""
    side = state.fighters[i].side
    return [f.index for f in state.fighters if f.side != side and f.conscious]


def nearest(state: State, i: int):
    """The target with the least (dist, index), or None."""
    p = state.fighters[i].pos
    best = min(((state.dist[p][state.fighters[t].pos], t) for t in targets(state, i)), default=None)
    return None if best is None else best[1]


def shot_target(state: State, i: int):
    """The target within range and sight with the least (dist, index), or None."""
    f = state.fighters[i]
    best = None
    for t in targets(state, i):
        q = state.fighters[t].pos
        d = state.dist[f.pos][q]
        if d <= f.range and state.los[f.pos][q] and (best is None or (d, t) < best):
            best = (d, t)
    return None if best is None else best[1]


def min_e(state: State, i: int, h: int):
    """minE(h): least distance from h to a target of i."""
    # READING: infinite when i has no target.
    return min((state.dist[h][state.fighters[t].pos] for t in targets(state, i)), default=INF)


def candidates(state: State, i: int) -> list:
    """Candidate moves (d, h, c, ap) of i: none unless i is standing, not
    move_locked and in MOVE, MOVE_ATTACK, ALL_OUT_ATTACK or ALL_OUT_DEFENCE;
    else a free neighbour, mode 0, affordable (c <= pts + sprint for a forward
    move, AP <= ap); no sideways / backward candidate in ALL_OUT_ATTACK."""
    f = state.fighters[i]
    if (f.posture != STANDING or f.move_locked
            or f.manoeuvre not in (M_MOVE, M_MOVE_ATTACK, M_ALL_OUT_ATTACK, M_ALL_OUT_DEFENCE)):
        return []
    out = []
    for d in range(6):
        h = state.nbr[f.pos][d]
        if not state.free(h):
            continue
        c, _, forward, aoa_ok = hex_cost(state.rules, d, f.facing, 0)
        if not aoa_ok and f.manoeuvre == M_ALL_OUT_ATTACK:
            continue
        ap = state.rules["hex_ap"] * state.mult[h]  # per hex, whatever its points
        if c <= f.pts + (f.sprint if forward else 0) and ap <= f.ap:
            out.append((d, h, c, ap))
    return out


def walk(state: State, i: int, t: int) -> list:
    """walk[h]: breadth-first steps from pos_t to h over hexes that are not blocked
    and not occupied (i's own hex and pos_t count as free); INF where unreachable."""
    # READING: steps are hex steps (nbr links): terrain multipliers, facing and mines
    # play no part; occupied = a living fighter (conscious or not), either side.
    p = state.fighters[i].pos
    q = state.fighters[t].pos
    occupied = {f.pos for f in state.fighters if f.alive} - {p, q}
    steps = [INF] * len(state.mult)
    steps[q] = 0
    frontier = deque([q])
    while frontier:
        x = frontier.popleft()
        for y in state.nbr[x]:
            if y < 0 or steps[y] != INF or state.mult[y] == 0 or y in occupied:
                continue
            steps[y] = steps[x] + 1
            frontier.append(y)
    return steps


def approach(state: State, i: int, t: int):
    """MOVE d mode 0 to the affordable candidate closer to t with the least
    (dist to t, mult, c, d); if none and t is more than 1 hex away, the way round:
    the candidate with walk[h] < walk[p] and the least (walk[h], mult, c, d);
    None when there is none."""
    f = state.fighters[i]
    q = state.fighters[t].pos
    here = state.dist[f.pos][q]
    moves = candidates(state, i)
    best = min(((state.dist[h][q], state.mult[h], c, d) for d, h, c, _ in moves
                if state.dist[h][q] < here), default=None)
    if best is None and here > 1 and moves:
        steps = walk(state, i, t)
        best = min(((steps[h], state.mult[h], c, d) for d, h, c, _ in moves
                    if steps[h] < steps[f.pos]), default=None)
    return None if best is None else code(MOVE, best[3], 0)


def retreat(state: State, i: int, min_left=None):
    """MOVE d mode 0 to the affordable candidate with minE(h) > minE(p) and the least
    (-minE(h), mult, c, d); ``min_left``: only candidates leaving ap - AP >= min_left."""
    f = state.fighters[i]
    here = min_e(state, i, f.pos)
    best = None
    for d, h, c, ap in candidates(state, i):
        if min_left is not None and f.ap - ap < min_left:
            continue
        e = min_e(state, i, h)
        if e > here:
            key = (-e, state.mult[h], c, d)
            if best is None or key < best:
                best = key
    return None if best is None else code(MOVE, best[3], 0)


def face(state: State, i: int, t: int) -> int:
    """The direction d with an on-arena neighbour nearest to t (least (dist, d)); KEEP if none."""
    f = state.fighters[i]
    q = state.fighters[t].pos
    best = min(((state.dist[h][q], d) for d, h in enumerate(state.nbr[f.pos]) if h != -1), default=None)
    return KEEP if best is None else best[1]


def fire(state: State, i: int, t: int):
    """SHOOT t aimed if the aimed shot leaves too little for a plain one, else plain; None if unaffordable."""
    f = state.fighters[i]
    if f.ap >= f.aimed_ap > 0 and f.ap - f.aimed_ap < f.attack_ap:
        return code(SHOOT, t, 1)
    if f.ap >= f.attack_ap:
        return code(SHOOT, t, 0)
    return None


def mine_spot(state: State, i: int) -> bool:
    """The front hex can take a mine: exists, not blocked, not occupied, no mine."""
    f = state.fighters[i]
    h = state.nbr[f.pos][f.facing]
    return state.free(h) and state.mine[h] == 0


# --------------------------------------------------------------------------
# Built-in strategies
# --------------------------------------------------------------------------


def beast(state: State, i: int) -> int:
    """Every monster: ATTACK when the nearest target is in range, else MOVE_ATTACK;
    stand up when prone, shoot, else STEP 6 once (ATTACK), else approach (MOVE_ATTACK),
    else END facing it."""
    f = state.fighters[i]
    t = nearest(state, i)
    if state.phase == PHASE_MANOEUVRE:
        # READING: no target at all -> MOVE_ATTACK (the contract assumes one).
        in_range = t is not None and state.dist[f.pos][state.fighters[t].pos] <= f.range
        return code(MANOEUVRE, M_ATTACK if in_range else M_MOVE_ATTACK)
    if t is None:
        # READING: "t = nearest (none: END keep)" comes before rule 0, so a prone beast
        # with no target ends its turn (it never happens: no target means LOSS).
        return code(END, KEEP)
    if f.posture == PRONE and f.ap >= state.rules["stand_ap"]:  # 0. stand up
        return code(STAND)
    q = state.fighters[t].pos
    if state.dist[f.pos][q] <= f.range and state.los[f.pos][q] and f.ap >= f.attack_ap:
        return code(SHOOT, t, 0)
    if f.manoeuvre == M_ATTACK and not f.step_used:
        return code(STEP, STAY, face(state, i, t))
    if f.manoeuvre == M_MOVE_ATTACK:
        move = approach(state, i, t)
        if move is not None:
            return move
    return code(END, face(state, i, t))


def _movement(state: State, i: int, name: str):
    """Rule 6 of the stalker strategies: the strategy's own movement, or None."""
    f = state.fighters[i]
    t = nearest(state, i)
    if name == "hold":
        if not f.step_used and t is not None:
            return code(STEP, STAY, face(state, i, t))
        return None
    if name == "rush":
        if t is not None and state.dist[f.pos][state.fighters[t].pos] > 1:
            return approach(state, i, t)
        return None
    # kite
    if min_e(state, i, f.pos) < state.rules["kite_distance"]:
        return retreat(state, i, min_left=f.attack_ap)
    if shot_target(state, i) is None and t is not None:
        return approach(state, i, t)
    return None


def _stalker_action(state: State, i: int, name: str) -> int:
    """Rules 1..10 of the stalker strategies: the first that applies."""
    f = state.fighters[i]
    R = state.rules
    # 1. first aid to the least adjacent unconscious ally
    if f.medic_uses > 0 and f.aid_left == 0 and f.manoeuvre != M_ALL_OUT_ATTACK:
        for j, g in enumerate(state.fighters):
            if (j != i and g.side == f.side and g.alive and not g.conscious
                    and state.dist[f.pos][g.pos] == 1):
                return code(FIRST_AID, j)
    # 2. stand up
    if f.posture == PRONE and f.ap >= R["stand_ap"]:
        return code(STAND)
    # 3. heal when at half hp or less
    if 2 * f.hp <= f.max_hp:
        for k in (0, 1):
            if f.heal[k][0] > 0:
                if f.hand == HAND_HEAL_A + k and f.ap >= R["use_ap"]:
                    return code(USE)
                if f.ap >= R["equip_ap"] + R["use_ap"]:
                    return code(EQUIP, 1 + k)
                break
    # 4. firearm back in hand
    if f.hand != HAND_FIREARM and f.firearm >= 0 and f.ap >= R["equip_ap"]:
        return code(EQUIP, 0)
    # 5. reload an empty magazine
    if f.mag_size > 0 and f.mag == 0 and f.spare > 0 and f.hand == HAND_FIREARM and f.ap >= R["reload_ap"]:
        return code(RELOAD)
    # 6. movement
    move = _movement(state, i, name)
    if move is not None:
        return move
    # 7. shoot
    t = shot_target(state, i)
    if t is not None and f.hand == HAND_FIREARM and (f.mag_size == 0 or f.mag > 0):
        shot = fire(state, i, t)
        if shot is not None:
            return shot
    # 8. top up the magazine
    if f.mag_size > 0 and f.mag < f.mag_size and f.spare > 0 and f.hand == HAND_FIREARM and f.ap >= R["reload_ap"]:
        return code(RELOAD)
    # 9. hold: lay a mine when no target is adjacent
    # READING: "can take a mine (as LAY_MINE)" checks the front hex only, not the posture.
    if (name == "hold" and f.expl_count > 0 and f.ap >= R["mine_ap"] and f.manoeuvre != M_ALL_OUT_ATTACK
            and mine_spot(state, i) and min_e(state, i, f.pos) >= 2):
        return code(LAY_MINE)
    # 10. end facing the nearest target
    t = nearest(state, i)
    return code(END, KEEP if t is None else face(state, i, t))


def _stalker_strategy(name: str, manoeuvre: int):
    def strategy(state: State, i: int) -> int:
        if state.phase == PHASE_MANOEUVRE:
            return code(MANOEUVRE, manoeuvre)
        return _stalker_action(state, i, name)

    strategy.__name__ = name
    strategy.__doc__ = f"The built-in stalker strategy `{name}`."
    return strategy


STRATEGIES = {
    "beast": beast,
    "hold": _stalker_strategy("hold", M_ATTACK),
    "kite": _stalker_strategy("kite", M_MOVE_ATTACK),
    "rush": _stalker_strategy("rush", M_MOVE_ATTACK),
}


def scripted(codes, manoeuvre=M_ATTACK):
    """A strategy answering ``codes`` in order (manoeuvre answers included); once
    they run out: MANOEUVRE ``manoeuvre`` when a manoeuvre is asked, else END keep."""
    answers = list(codes)

    def strategy(state: State, i: int) -> int:
        if answers:
            return answers.pop(0)
        return code(MANOEUVRE, manoeuvre) if state.phase == PHASE_MANOEUVRE else code(END, KEEP)

    return strategy


# --------------------------------------------------------------------------
# One skirmish
# --------------------------------------------------------------------------


class _Skirmish:
    def __init__(self, setup, seed: int, trial: int, strategies=None, log=None):
        self.state = State(setup)
        n = len(self.state.fighters)
        if n > SETUP:
            raise ValueError(f"{n} fighters; at most {SETUP}")
        self.streams = [Stream(seed, trial, i) for i in range(n)]
        self.setup_stream = Stream(seed, trial, SETUP)
        overrides = dict(strategies or {})
        self.strategies = []
        for f in self.state.fighters:
            s = overrides.get(f.index, f.strategy)
            if isinstance(s, str):
                if s not in STRATEGIES:
                    raise ValueError(f"fighter {f.index}: unknown strategy {s!r}; use one of {', '.join(STRATEGIES)}")
                s = STRATEGIES[s]
            self.strategies.append(s)
        self.log = log
        self.counts = dict.fromkeys(RECORD_COUNTERS, 0)
        self.ap_spent = [0] * len(AP_KINDS)
        self.outcome = None
        self.rounds = 0
        self.turn_over = False

    # ---- small helpers ------------------------------------------------------

    @property
    def R(self):
        return self.state.rules

    def _fighter(self, i: int) -> Fighter:
        return self.state.fighters[i]

    def _d6(self, i: int, n: int) -> int:
        """n d6 from fighter i's dice buffer, summed."""
        return self.streams[i].roll(n, 6)

    def _pay(self, i: int, ap: int, kind: int) -> None:
        """Spend ap AP of the given kind (recorded for stalkers)."""
        f = self._fighter(i)
        f.ap -= ap
        if f.side == 0:
            self.ap_spent[kind] += ap

    def _stalkers(self):
        return [f for f in self.state.fighters if f.side == 0]

    def _monsters(self):
        return [f for f in self.state.fighters if f.side == 1]

    # ---- damage, mines --------------------------------------------------------

    def _deal(self, v: int, damage: int, by_side: int) -> None:
        """Dealing damage: counts, knockdown (A-05), death / unconsciousness (A-06)."""
        t = self._fighter(v)
        t.hp -= damage
        # READING: the counts take the full damage, not capped by the hp left.
        if t.side == 0:
            self.counts["damage_taken"] += damage
        elif by_side == 0:
            self.counts["damage_dealt"] += damage
        k = self.R["knockdown_damage"]
        if k > 0 and damage >= k and t.conscious:
            t.posture = PRONE
        if t.side == 1:
            if t.hp <= 0:
                t.alive = False
                self.counts["kills"] += 1  # every monster death (only stalkers can kill one)
        elif t.hp <= self.R["dead_at_hp"]:
            t.alive = False
            t.aid_left, t.aid_target = 0, -1
        elif t.hp <= 0:
            t.posture = PRONE
            t.aid_left, t.aid_target = 0, -1

    def _enter(self, i: int, h: int) -> None:
        """Fighter i has entered h (and paid): a mine there goes off (A-05)."""
        st = self.state
        dice = st.mine[h]
        if dice == 0:
            return
        owner = st.mine_owner[h]
        o = self._fighter(owner)
        damage = max(0, self._d6(owner, dice) + o.expl_bonus - self._fighter(i).defence)
        st.mine[h], st.mine_owner[h] = 0, -1
        self._deal(i, damage, o.side)

    # ---- first aid (A-06) -------------------------------------------------------

    def _aid_valid(self, i: int, j: int) -> bool:
        f, g = self._fighter(i), self._fighter(j)
        return g.alive and not g.conscious and self.state.dist[f.pos][g.pos] == 1

    def _complete_aid(self, i: int) -> None:
        """medic_uses -= 1; pct(healer) <= medic_skill revives the ally at hp 1 (still prone)."""
        f = self._fighter(i)
        j = f.aid_target
        f.aid_target = -1
        f.medic_uses -= 1
        if pct(self.streams[i]) <= f.medic_skill:
            g = self._fighter(j)
            g.hp = self.R["first_aid_hp"]
            g.no_ap_round = self.state.round

    def _continue_aid(self, i: int) -> None:
        """A-06: an aid in progress goes on at the start of the turn, or is abandoned."""
        f = self._fighter(i)
        if not self._aid_valid(i, f.aid_target):
            f.aid_left, f.aid_target = 0, -1
            return
        spend = min(f.ap, f.aid_left)
        self._pay(i, spend, AP_FIRST_AID)
        f.aid_left -= spend
        if f.aid_left == 0:
            self._complete_aid(i)

    # ---- END (A-02, M-05, M-06) -------------------------------------------------

    def _end(self, i: int, a: int) -> None:
        """END with wished facing a (KEEP = keep): facing, banked AC, aod, sprint."""
        f = self._fighter(i)
        if a != KEEP and a != f.facing:
            spent = f.pts0 - f.pts
            half = -(-f.pts0 // self.R["half_divisor"])  # at most half the points, rounded up
            free = (f.manoeuvre in (M_MOVE, M_MOVE_ATTACK) and spent <= half) or f.manoeuvre == M_ALL_OUT_DEFENCE
            f.facing = a if free else turned(f.facing, a, self.R["end_turn_sides"])
        no_bank = f.posture == PRONE or f.manoeuvre == M_ALL_OUT_ATTACK or f.aid_left > 0
        f.banked = 0 if no_bank else f.ap
        self._pay(i, f.ap, AP_DEFEND)
        f.aod = f.manoeuvre == M_ALL_OUT_DEFENCE
        f.sprint_next = int(f.manoeuvre == M_MOVE and f.last_manoeuvre == M_MOVE and f.pts == 0
                            and f.sprint == 0 and f.forward_only)
        f.last_manoeuvre = f.manoeuvre
        self.turn_over = True

    # ---- actions ----------------------------------------------------------------

    def _act_end(self, i, a, b):
        if not 0 <= a <= KEEP:
            return False
        self._end(i, a)
        return True

    def _affordable(self, f: Fighter, points: int, ap: int, forward: bool) -> bool:
        p = points - (min(f.sprint, points) if forward else 0)
        return f.pts - p >= 0 and f.ap - ap >= 0

    def _pay_points(self, f: Fighter, points: int, forward: bool) -> None:
        """M-06: the sprint points pay a forward move's points first."""
        # READING: the sprint lowers the points only; the AP are those of the hexes.
        if forward:
            used = min(f.sprint, points)
            f.sprint -= used
            points -= used
        f.pts -= points

    def _act_move(self, i, d, mode):
        """MOVE (M-04, M-07, M-08, A-03): one hex, or through an ally / past an enemy."""
        st = self.state
        f = self._fighter(i)
        if f.manoeuvre not in (M_MOVE, M_MOVE_ATTACK, M_ALL_OUT_ATTACK, M_ALL_OUT_DEFENCE):
            return False
        # READING: b must be a mode, 0 or 1.
        if f.move_locked or f.posture != STANDING or not 0 <= d <= 5 or mode not in (0, 1):
            return False
        h1 = st.nbr[f.pos][d]
        if h1 < 0 or st.mult[h1] == 0:
            return False
        # READING: a living ally / enemy on h1 may be unconscious: still passed through / still evaded.
        R = self.R
        c1, face1, forward, aoa_ok = hex_cost(R, d, f.facing, mode)
        if f.manoeuvre == M_ALL_OUT_ATTACK and not aoa_ok:
            return False
        other = st.occupant(h1)
        ap1 = R["hex_ap"] * st.mult[h1]  # a hex costs its AP whatever its points (M-04)
        if other < 0:
            ap = ap1
            if not self._affordable(f, c1, ap, forward):
                return False
            self._moved(i, c1, ap, forward, h1, face1)
            return True
        # READING: the second hex is entered with the same mode.
        h2 = st.nbr[h1][d]
        if not st.free(h2):
            return False
        c2, face2, _, _ = hex_cost(R, d, face1, mode)
        ally = self._fighter(other).side == f.side
        extra = R["ally_points"] if ally else 0  # M-07: in points and in AP
        points = c1 + extra + c2
        ap = ap1 + extra + R["hex_ap"] * st.mult[h2]
        if not self._affordable(f, points, ap, forward):
            return False
        if ally or self._evade(i, other, d):
            self._moved(i, points, ap, forward, h2, face2)
        else:
            # Lost evade: h1's cost only, the facing change of a mode-0 turn, move locked.
            # READING: a non-forward move clears forward_only here too.
            self._pay_points(f, c1, forward)
            self._pay(i, ap1, AP_MOVE)
            f.facing = face1
            if not forward:
                f.forward_only = False
            f.move_locked = True
        return True

    def _moved(self, i, points, ap, forward, h, facing):
        """Pay a move, land on h with the given facing; a mine there goes off."""
        f = self._fighter(i)
        self._pay_points(f, points, forward)
        self._pay(i, ap, AP_MOVE)
        if not forward:
            f.forward_only = False
        f.pos = h
        f.facing = facing
        self._enter(i, h)

    def _evade(self, i: int, e: int, d: int) -> bool:
        """M-08: the quick contest of DX to get past enemy e (mover moving in direction d)."""
        f, g = self._fighter(i), self._fighter(e)
        if f.insubstantial or g.insubstantial:
            return True
        R = self.R
        eff = f.dx + R[{STANDING: "evade_standing", KNEELING: "evade_kneeling", PRONE: "evade_prone"}[g.posture]]
        dx, dy = STEPS[d]
        back = STEPS.index((-dx, -dy))  # from the enemy's hex toward the mover
        eff += {0: 0, 1: 0, 2: R["evade_side"], 3: R["evade_behind"]}[bearing(back, g.facing)]
        r_m = self._d6(i, R["evade_dice"])
        r_e = self._d6(e, R["evade_dice"])
        return eff - r_m > g.dx - r_e

    def _act_turn(self, i, a, b):
        """TURN (M-05): k = sides x turn_points points and k AP."""
        # READING: no posture condition; the sprint points do not pay for it.
        f = self._fighter(i)
        if f.manoeuvre not in (M_MOVE, M_MOVE_ATTACK, M_ALL_OUT_DEFENCE) or f.move_locked:
            return False
        if not 0 <= a <= 5 or a == f.facing:
            return False
        k = bearing(a, f.facing) * self.R["turn_points"]
        if k > f.pts or k > f.ap:
            return False
        f.pts -= k
        self._pay(i, k, AP_MOVE)
        f.facing = a
        f.forward_only = False
        return True

    def _act_step(self, i, a, b):
        """STEP (M-02): once per turn in ATTACK: a hex, stay, or kneel / stand; then facing b."""
        st = self.state
        f = self._fighter(i)
        if f.manoeuvre != M_ATTACK or f.step_used or not 0 <= b <= 5:
            return False
        if 0 <= a <= 5:
            h = st.nbr[f.pos][a]
            ap = self.R["hex_ap"] * st.mult[h]  # A-03; a step costs no move points (M-02)
            if not st.free(h) or f.posture != STANDING or ap > f.ap:
                return False
            f.step_used = True
            self._pay(i, ap, AP_MOVE)
            f.pos = h
            # READING: the mine goes off on entering, then facing = b (text order), even if he is down.
            self._enter(i, h)
        elif a == STAY:
            f.step_used = True
        elif a == KNEEL:
            if f.posture == PRONE or self.R["kneel_ap"] > f.ap:
                return False
            f.step_used = True
            self._pay(i, self.R["kneel_ap"], AP_MOVE)
            f.posture = KNEELING if f.posture == STANDING else STANDING
        else:
            return False
        f.facing = b
        return True

    def _armour_class(self, t: Fighter) -> int:
        """AC(target) (A-02, M-03)."""
        if t.posture == PRONE:  # no bonus from agility or unused AP
            return 0
        ac = (t.agility if t.aid_left == 0 else 0) + t.banked
        if t.aod:
            ac += self.R["all_out_defence_ac"]
        return ac

    def _act_shoot(self, i, a, b):
        """SHOOT (A-07): pct(shooter) <= chance hits; damage = dice d6 + bonus - defence."""
        st, R = self.state, self.R
        f = self._fighter(i)
        if f.manoeuvre not in (M_MOVE_ATTACK, M_ALL_OUT_ATTACK, M_ATTACK):
            return False
        if not 0 <= a < len(st.fighters) or b not in (0, 1):
            return False
        t = self._fighter(a)
        if not t.alive or t.side == f.side:
            return False
        dist = st.dist[f.pos][t.pos]
        if dist > f.range or not st.los[f.pos][t.pos] or f.hand != HAND_FIREARM:
            return False
        if f.mag_size > 0 and f.mag < 1:
            return False
        if b == 1 and f.aimed_ap <= 0:
            return False
        cost = f.aimed_ap if b == 1 else f.attack_ap
        if cost > f.ap:
            return False
        self._pay(i, cost, AP_SHOOT)
        if f.mag_size > 0:
            f.mag -= 1
        chance = f.skill - R["range_penalty"] * dist - self._armour_class(t)
        if b == 1:
            chance += R["aimed_bonus"]
        if f.manoeuvre == M_ALL_OUT_ATTACK:
            chance += R["all_out_attack_bonus"]
        chance = max(R["hit_min"], min(R["hit_max"], chance))
        hit = pct(self.streams[i]) <= chance
        if f.side == 0:
            self.counts["shots"] += 1
            self.counts["hits"] += int(hit)
        if hit:
            damage = max(0, self._d6(i, f.dice) + f.bonus - t.defence)
            self._deal(a, damage, f.side)
        return True

    def _act_reload(self, i, a, b):
        """RELOAD (A-04): from the spare rounds."""
        f = self._fighter(i)
        cost = self.R["reload_ap"]
        if f.hand != HAND_FIREARM or f.mag_size <= 0 or f.mag >= f.mag_size or f.spare <= 0 or cost > f.ap:
            return False
        self._pay(i, cost, AP_RELOAD)
        n = min(f.mag_size - f.mag, f.spare)
        f.mag += n
        f.spare -= n
        return True

    def _act_equip(self, i, a, b):
        """EQUIP (A-04): a = 0 firearm, 1 / 2 healing kind A / B."""
        f = self._fighter(i)
        cost = self.R["equip_ap"]
        if a == 0:
            carried = f.firearm >= 0
        elif a in (1, 2):
            carried = f.heal[a - 1][0] > 0
        else:
            return False
        if not carried or f.hand == a or cost > f.ap:
            return False
        self._pay(i, cost, AP_EQUIP)
        f.hand = a
        return True

    def _act_use(self, i, a, b):
        """USE (A-04, Z-31): the healing item in hand; the hand is empty afterwards."""
        f = self._fighter(i)
        cost = self.R["use_ap"]
        if f.hand not in (HAND_HEAL_A, HAND_HEAL_B) or f.heal[f.hand - 1][0] <= 0 or cost > f.ap:
            return False
        self._pay(i, cost, AP_USE)
        kind = f.heal[f.hand - 1]
        kind[0] -= 1
        f.hp = min(f.max_hp, f.hp + kind[1])
        f.hand = HAND_EMPTY
        return True

    def _act_pickup(self, i, a, b):
        """PICKUP (A-04): the rounds of a dead stalker with the same firearm on this hex."""
        f = self._fighter(i)
        cost = self.R["pickup_ap"]
        if not 0 <= a < len(self.state.fighters):
            return False
        c = self._fighter(a)
        # READING: "a dead stalker": side 0 and not alive.
        if c.side != 0 or c.alive or c.pos != f.pos:
            return False
        if f.firearm < 0 or c.firearm != f.firearm or c.mag + c.spare <= 0 or cost > f.ap:
            return False
        self._pay(i, cost, AP_PICKUP)
        f.spare += c.mag + c.spare
        c.mag = c.spare = 0
        return True

    def _act_stand(self, i, a, b):
        """STAND (A-05): prone -> standing."""
        f = self._fighter(i)
        cost = self.R["stand_ap"]
        if f.posture != PRONE or cost > f.ap:
            return False
        self._pay(i, cost, AP_STAND)
        f.posture = STANDING
        return True

    def _act_first_aid(self, i, a, b):
        """FIRST_AID (A-06): paid as far as the AP go; unfinished -> the turn ends."""
        st = self.state
        f = self._fighter(i)
        # READING: an ally is another fighter of the same side.
        if not 0 <= a < len(st.fighters) or a == i or self._fighter(a).side != f.side:
            return False
        if not self._aid_valid(i, a) or f.medic_uses <= 0 or f.aid_left > 0:
            return False
        if f.manoeuvre == M_ALL_OUT_ATTACK:
            return False
        cost = self.R["first_aid_ap"]
        spend = min(f.ap, cost)
        self._pay(i, spend, AP_FIRST_AID)
        f.aid_left = cost - spend
        f.aid_target = a
        if f.aid_left == 0:
            self._complete_aid(i)
        else:
            self._end(i, KEEP)
        return True

    def _act_lay_mine(self, i, a, b):
        """LAY_MINE (A-05): pct(layer) <= traps lays one explosive in the front hex."""
        st = self.state
        f = self._fighter(i)
        cost = self.R["mine_ap"]
        if f.expl_count <= 0 or f.posture not in (STANDING, KNEELING) or f.manoeuvre == M_ALL_OUT_ATTACK:
            return False
        h = st.nbr[f.pos][f.facing]
        if not st.free(h) or st.mine[h] != 0 or cost > f.ap:
            return False
        self._pay(i, cost, AP_MINE)
        if pct(self.streams[i]) <= f.traps:
            f.expl_count -= 1
            st.mine[h] = f.expl_dice
            st.mine_owner[h] = i
        return True

    _ACTIONS: ClassVar[dict] = {
        END: _act_end, MOVE: _act_move, TURN: _act_turn, STEP: _act_step, SHOOT: _act_shoot,
        RELOAD: _act_reload, EQUIP: _act_equip, USE: _act_use, PICKUP: _act_pickup, STAND: _act_stand,
        FIRST_AID: _act_first_aid, LAY_MINE: _act_lay_mine,
    }

    def _act(self, i: int, answer) -> bool:
        """Carry out one answer; False (nothing done) if it is illegal."""
        if not isinstance(answer, int) or isinstance(answer, bool) or answer < 0:
            return False
        kind, a, b = decode(answer)
        handler = self._ACTIONS.get(kind)  # READING: MANOEUVRE and unknown kinds are illegal here
        return handler is not None and handler(self, i, a, b)

    # ---- turns, rounds -------------------------------------------------------

    def _ask(self, i: int, phase: str):
        st = self.state
        st.phase = phase
        st.current = i
        return self.strategies[i](st, i)

    def _record(self, i: int, answer, accepted: bool) -> None:
        if not accepted:
            # READING: illegal answers of every fighter count, monsters too.
            self.counts["illegal"] += 1
        if self.log is not None:
            self.log.append((self.state.round, i, answer, accepted))

    def _manoeuvre(self, i: int) -> int:
        """The manoeuvre answer: MANOEUVRE m (m = 0..4), else MOVE_ATTACK and one illegal."""
        # READING: b of a MANOEUVRE code is ignored; a > 4 is "anything else".
        answer = self._ask(i, PHASE_MANOEUVRE)
        ok = (isinstance(answer, int) and not isinstance(answer, bool) and answer >= 0
              and decode(answer)[0] == MANOEUVRE and decode(answer)[1] <= M_ATTACK)
        self._record(i, answer, ok)
        return decode(answer)[1] if ok else M_MOVE_ATTACK

    def _check_end(self) -> bool:
        """WIN when no monster is alive, LOSS when no stalker is conscious."""
        # READING: WIN is checked first (both at once cannot happen: LOSS would have ended it earlier).
        if self.outcome is None:
            if not any(f.alive for f in self._monsters()):
                self.outcome = WIN
            elif not any(f.conscious for f in self._stalkers()):
                self.outcome = LOSS
            if self.outcome is not None:
                self.rounds = self.state.round
        return self.outcome is not None

    def _turn(self, i: int) -> None:
        """A turn (A-02, M-03)."""
        R = self.R
        f = self._fighter(i)
        self.turn_over = False
        f.ap = R["ap_base"] + f.agility // R["ap_agility_divisor"]
        f.banked = 0
        f.aod = False
        f.manoeuvre = M_NONE
        f.pts = f.pts0 = 0
        f.sprint = 0
        f.forward_only, f.step_used, f.move_locked = True, False, False
        earned, f.sprint_next = f.sprint_next, 0
        if f.aid_left > 0:
            self._continue_aid(i)
        # READING: also when there was no aid (ap_base + agility // divisor == 0).
        if f.ap == 0:
            self._end(i, KEEP)  # manoeuvre "none"
            return
        m = self._manoeuvre(i)
        f.manoeuvre = m
        if m in (M_MOVE, M_MOVE_ATTACK):  # M-03 move points
            f.pts = f.move
        elif m in (M_ALL_OUT_ATTACK, M_ALL_OUT_DEFENCE):
            f.pts = -(-f.move // R["half_divisor"])  # half, rounded up
        else:
            f.pts = 0
        f.pts0 = f.pts
        f.sprint = R["sprint_points"] if earned else 0
        while True:
            answer = self._ask(i, PHASE_ACTION)
            ok = self._act(i, answer)
            self._record(i, answer, ok)
            if not ok:
                self._end(i, KEEP)
                return
            if self.turn_over:  # END, or FIRST_AID not finished
                return
            # The turn stops at once, with no END, when the skirmish ends or he is down (a mine).
            if self._check_end():
                return
            if not f.conscious:
                return
            if f.ap == 0:
                self._end(i, KEEP)
                return

    def _order(self) -> list:
        """A-01: t_i = d(SETUP, sequence_die) in index order; sort by sequence, t (higher first), index."""
        draws = [self.setup_stream.die(self.R["sequence_die"]) for _ in self.state.fighters]
        self.sequence_draws = draws
        return sorted(range(len(draws)), key=lambda i: (-self._fighter(i).sequence, -draws[i], i))

    def play(self) -> dict:
        st = self.state
        order = self._order()
        self.order = order
        for r in range(1, self.R["max_rounds"] + 1):
            st.round = r
            for i in order:
                f = self._fighter(i)
                if f.conscious and f.no_ap_round != r:
                    self._turn(i)
                else:
                    # READING: only banked is reset; aod stays (such a fighter is prone, so it never counts).
                    f.banked = 0
                if self.outcome is not None:
                    return self._result()
        self.outcome = DRAW
        self.rounds = self.R["max_rounds"]
        return self._result()

    def _result(self) -> dict:
        stalkers = self._stalkers()
        alive = 0 if self.outcome == LOSS else sum(1 for f in stalkers if f.alive)
        fighters = self.state.fighters
        return dict(
            outcome=self.outcome, rounds=self.rounds, alive=alive, all_alive=int(alive == len(stalkers)),
            **self.counts, ap=list(self.ap_spent),
            hp=[f.hp for f in fighters], pos=[f.pos for f in fighters], facing=[f.facing for f in fighters],
        )


def play(setup, seed: int, trial: int, strategies=None, log=None) -> dict:
    """Play skirmish ``trial`` of ``seed``; ``strategies`` maps fighter indices to
    callables overriding the setup's strategy names; ``log`` (a list) gets
    (round, fighter, code, accepted) per strategy answer."""
    return _Skirmish(setup, seed, trial, strategies, log).play()


def run(setup, seed: int, trials: int, trial_start: int = 0) -> list:
    """The records of skirmishes trial_start .. trial_start + trials - 1."""
    return [play(setup, seed, t) for t in range(trial_start, trial_start + trials)]
