"""Tactical skirmish rules (A-01..A-07, M-01..M-08) through the kernel's own
``apply`` and ``one_turn`` on hand-set arenas; chances are checked against
exact values within 4 standard errors."""

import itertools
import math
from dataclasses import replace
from types import MappingProxyType

import numpy as np
import pytest
from numba import njit

import sim.kernels.skirmish as K
from sim.content.skirmish import RULES, build_arena, load_arena, load_skirmish, make_setup, parse_member
from sim.kernels.rng import mix
from sim.run.skirmish import skirmish_template
from strategies.skirmish import BEAST


@njit(K.DECISION, cache=True)
def scripted(g, i):
    """Answers the codes stored in the scratch block, in order (then END)."""
    base = g[K.H_O_SCRATCH]
    k = g[base]
    g[base] = k + 1
    c = g[base + 1 + k]
    return c if c != 0 else K.code(K.END, K.KEEP, 0)


def code(kind, a=0, b=0):
    return kind | a << 8 | b << 16


class Board:
    """One skirmish state on a small arena: fighters placed by hand, rules as the
    default content unless given."""

    def __init__(self, content, sk, grid=None, party=("novice:ak47",), monsters=("flesh",), at=None,
                 facing=None, seed=1, trial=0, rules=None, **fields):
        grid = grid or [[1] * 7 for _ in range(7)]
        arena = build_arena(grid)
        base = make_setup(content, sk, [parse_member(content, p) for p in party], list(monsters),
                          load_arena(sk, size=9), "hold", 1)
        fighters = []
        for i, f in enumerate(base.fighters):
            extra = {k: v[i] for k, v in fields.items() if v[i] is not None}
            f = dict(f, pos=at[i], facing=(facing or [0] * len(at))[i], **extra)
            fighters.append(MappingProxyType(f))
        self.setup = replace(base, arena=arena, rules=MappingProxyType({**sk.rules, **(rules or {})}),
                             fighters=tuple(fighters))
        self.cols = arena.cols
        self.g = skirmish_template(self.setup)
        self.rng = np.zeros(K.RNG_SIZE, np.uint64)
        self.rec = np.zeros(K.N_RECORD, np.int64)
        self.restart(seed, trial)

    def restart(self, seed, trial):
        K.start_streams(self.rng, mix(np.uint64(seed)), trial, self.g[K.H_F])
        K.new_skirmish(self.g, skirmish_template(self.setup), self.rng)
        self.g[K.H_ROUND] = 1

    def hex(self, r, c):
        return r * self.cols + c

    def get(self, i, f):
        return int(self.g[K.fb(self.g, i) + f])

    def set(self, i, **fields):
        for name, v in fields.items():
            self.g[K.fb(self.g, i) + getattr(K, "F_" + name.upper())] = v

    def begin(self, i, man, ap=None, pts=None, sprint=0):
        """The state after fighter ``i`` chose manoeuvre ``man`` (M-03)."""
        self.set(i, ap=ap if ap is not None else 20)
        move = self.get(i, K.F_MOVE)
        points = {K.M_MOVE: move, K.M_MOVE_ATTACK: move, K.M_ALL_OUT_ATTACK: (move + 1) // 2,
                  K.M_ALL_OUT_DEFENCE: (move + 1) // 2, K.M_ATTACK: 0}[man]
        g = self.g
        g[K.H_MAN], g[K.H_PTS], g[K.H_PTS0] = man, pts if pts is not None else points, points
        g[K.H_SPRINT], g[K.H_FWD_ONLY], g[K.H_STEP_USED], g[K.H_MOVE_LOCKED] = sprint, 1, 0, 0

    def apply(self, i, c):
        return bool(K.apply(self.g, i, c, self.rng, self.rec))

    def turn(self, i, *codes):
        """One whole turn of ``i`` answering ``codes`` (manoeuvre first)."""
        base = self.g[K.H_O_SCRATCH]
        self.g[base:base + len(codes) + 2] = 0
        self.g[base + 1:base + 1 + len(codes)] = codes
        log = np.zeros((64, K.LOG_FIELDS), np.int64)
        self.set(i, strategy=0)
        n = K.one_turn(self.g, i, (scripted, BEAST.decide), self.rng, self.rec, log)
        return log[:n]


@pytest.fixture(scope="module")
def sk(content):
    return load_skirmish(content)


def far_monster(board):
    """Put the monster (fighter 1) in the far corner, out of the way."""
    board.set(1, pos=board.hex(6, 6))


# --- A-01 sequence ------------------------------------------------------------------

def test_a01_sequence_highest_first_ties_by_d10_then_index(content, sk):
    for trial in range(40):
        b = Board(content, sk, party=("novice:ak47", "novice:ak47"), monsters=("flesh", "flesh"),
                  at=[0, 1, 47, 48], grid=[[1] * 7 for _ in range(7)], trial=trial,
                  sequence=[5, 5, 9, 5])
        rng = np.zeros(K.RNG_SIZE, np.uint64)
        K.start_streams(rng, mix(np.uint64(1)), trial, 4)
        from sim.kernels.rng import die
        d10 = [die(rng, K.SETUP, 10) for _ in range(4)]
        expected = sorted(range(4), key=lambda i: (-[5, 5, 9, 5][i], -d10[i], i))
        order = b.g[b.g[K.H_O_ORDER]:b.g[K.H_O_ORDER] + 4].tolist()
        assert order == expected
        assert order[0] == 2


# --- A-02 AP and armour class ----------------------------------------------------------

def test_a02_ap_from_agility_and_unused_ap_bank_as_armour_class(content, sk):
    b = Board(content, sk, at=[0, 48], agility=[7, None])
    b.turn(0, code(K.MANOEUVRE, K.M_ATTACK), code(K.END, K.KEEP))
    ap = sk.rules["ap_base"] + 7 // sk.rules["ap_agility_divisor"]
    assert b.get(0, K.F_BANKED) == ap
    assert b.rec[K.R_AP + K.AP_DEFEND] == ap
    assert K.armour_class(b.g, 0) == 7 + ap
    b.turn(0, code(K.MANOEUVRE, K.M_ATTACK), code(K.STEP, K.STAY, 0), code(K.END, K.KEEP))
    assert b.get(0, K.F_BANKED) == ap  # a new turn resets, then banks again
    b.turn(0, code(K.MANOEUVRE, K.M_ALL_OUT_ATTACK), code(K.END, K.KEEP))
    assert b.get(0, K.F_BANKED) == 0 and K.armour_class(b.g, 0) == 7


def test_a02_turn_ends_when_ap_run_out(content, sk):
    b = Board(content, sk, at=[0, 48])
    log = b.turn(0, code(K.MANOEUVRE, K.M_MOVE), *[code(K.MOVE, 0)] * 9)
    moves = [r[K.L_OK] for r in log if r[K.L_CODE] & 255 == K.MOVE]
    assert moves == [1] * 5 + [0]  # the move points (5) run out before the AP (8): the 6th is illegal
    b2 = Board(content, sk, at=[0, 48], agility=[0, None], move=[9, None])
    log = b2.turn(0, code(K.MANOEUVRE, K.M_MOVE), *[code(K.MOVE, 0)] * 9)
    assert [r[K.L_AP] for r in log if r[K.L_CODE] & 255 == K.MOVE] == [4, 3, 2, 1, 0]
    assert b2.get(0, K.F_POS) == 5 and b2.rec[K.R_ILLEGAL] == 0


# --- A-03 terrain and room ------------------------------------------------------------------

@pytest.mark.parametrize("m", [1, 2, 3])
def test_a03_moving_costs_ap_times_the_terrain_multiplier(content, sk, m):
    grid = [[1] * 7 for _ in range(7)]
    grid[3][4] = m
    b = Board(content, sk, grid=grid, at=[3 * 7 + 3, 48])
    b.begin(0, K.M_MOVE, ap=10)
    assert b.apply(0, code(K.MOVE, 0))
    assert b.get(0, K.F_AP) == 10 - m and b.g[K.H_PTS] == 4


@pytest.mark.parametrize("m", [1, 2, 3])
@pytest.mark.parametrize("d, mode", [(3, 0), (2, 0), (4, 0), (1, 1), (5, 1)])
def test_a03_a_hex_costs_its_terrain_ap_whatever_its_move_points(content, sk, m, d, mode):
    """Backward, sideways and ahead-sideways hexes cost 2 move points (M-04) but,
    like any hex, 1 AP times the terrain (A-03), not 2 x the terrain."""
    centre = 3 * 7 + 3
    grid = [[1] * 7 for _ in range(7)]
    target = int(load_arena(sk, size=7).nbr[centre, d])
    grid[target // 7][target % 7] = m
    b = Board(content, sk, grid=grid, at=[centre, 48])
    b.begin(0, K.M_MOVE, ap=10)
    assert b.apply(0, code(K.MOVE, d, mode)) and b.get(0, K.F_POS) == target
    assert b.get(0, K.F_AP) == 10 - sk.rules["hex_ap"] * m and b.g[K.H_PTS] == 5 - 2
    assert b.rec[K.R_AP + K.AP_MOVE] == m


def test_a03_hex_ap_comes_from_the_content(content, sk):
    b = Board(content, sk, at=[3 * 7 + 3, 48], rules={"hex_ap": 2})
    b.begin(0, K.M_MOVE, ap=10)
    assert b.apply(0, code(K.MOVE, 3)) and b.get(0, K.F_AP) == 8
    b.begin(0, K.M_ATTACK, ap=10)
    assert b.apply(0, code(K.STEP, 0, 0)) and b.get(0, K.F_AP) == 8  # a step's hex too (M-02)


def test_a03_nobody_enters_a_large_object_or_leaves_the_arena(content, sk):
    grid = [[1] * 7 for _ in range(7)]
    grid[3][4] = 0
    b = Board(content, sk, grid=grid, at=[3 * 7 + 3, 48])
    b.begin(0, K.M_MOVE)
    assert not b.apply(0, code(K.MOVE, 0))
    b.set(0, pos=0)
    assert not b.apply(0, code(K.MOVE, 3))
    assert b.get(0, K.F_POS) == 0


def test_a03_corpses_take_no_room(content, sk):
    b = Board(content, sk, at=[3 * 7 + 3, 3 * 7 + 4])
    b.set(1, alive=0, hp=0)
    b.begin(0, K.M_MOVE)
    assert b.apply(0, code(K.MOVE, 0)) and b.get(0, K.F_POS) == 3 * 7 + 4


# --- A-04 items ------------------------------------------------------------------------------

def test_a04_equip_4_use_3_heals_and_empties_the_hand(content, sk):
    b = Board(content, sk, party=("doktor:ak47,stimulator*2",), at=[0, 48])
    b.begin(0, K.M_ATTACK, ap=10)
    b.set(0, hp=5)
    assert not b.apply(0, code(K.USE))  # the stimulator is not in hand
    assert b.apply(0, code(K.EQUIP, 1)) and b.get(0, K.F_AP) == 6
    assert not b.apply(0, code(K.EQUIP, 1))  # already in hand
    assert b.apply(0, code(K.USE)) and b.get(0, K.F_AP) == 3
    heal = content.items["stimulator"]["heal"] + content.characters["doktor"]["heal_bonus"]
    assert b.get(0, K.F_HP) == 5 + heal and b.get(0, K.F_HEAL_N) == 1 and b.get(0, K.F_HAND) == K.EMPTY
    assert not b.apply(0, code(K.SHOOT, 1))  # the firearm is not in hand
    assert b.rec[K.R_AP + K.AP_EQUIP] == 4 and b.rec[K.R_AP + K.AP_USE] == 3


def test_a04_reload_2_fills_the_magazine_from_spare_rounds(content, sk):
    b = Board(content, sk, party=("novice:ak47",), at=[0, 48])
    b.begin(0, K.M_ATTACK, ap=10)
    assert not b.apply(0, code(K.RELOAD))  # full
    b.set(0, mag=1, spare=3)
    assert b.apply(0, code(K.RELOAD))
    assert (b.get(0, K.F_MAG), b.get(0, K.F_SPARE), b.get(0, K.F_AP)) == (4, 0, 8)
    assert not b.apply(0, code(K.RELOAD))  # no spare rounds left


def test_a04_pick_up_4_takes_a_dead_comrades_rounds_from_the_same_hex(content, sk):
    b = Board(content, sk, party=("novice:ak47", "novice:ak47", "novice:kvazar"), at=[10, 10, 10, 48])
    for dead in (1, 2):
        b.set(dead, alive=0, hp=-9)
    b.begin(0, K.M_ATTACK, ap=10)
    assert not b.apply(0, code(K.PICKUP, 2))  # another firearm's rounds
    before = b.get(0, K.F_SPARE)
    assert b.apply(0, code(K.PICKUP, 1)) and b.get(0, K.F_AP) == 6
    assert b.get(0, K.F_SPARE) == before + 6 + 12 and b.get(1, K.F_SPARE) == 0
    assert not b.apply(0, code(K.PICKUP, 1))  # nothing left
    assert not b.apply(0, code(K.PICKUP, 3))  # a living monster


# --- A-05 standing up, mines --------------------------------------------------------------

def test_a05_standing_up_costs_4_and_prone_fighters_get_no_ac_bonus(content, sk):
    b = Board(content, sk, at=[0, 48], agility=[6, None])
    b.set(0, posture=K.PRONE, banked=5)
    assert K.armour_class(b.g, 0) == 0
    b.begin(0, K.M_MOVE, ap=8)
    assert not b.apply(0, code(K.MOVE, 0))  # prone: stand first
    assert b.apply(0, code(K.STAND)) and b.get(0, K.F_AP) == 4
    assert K.armour_class(b.g, 0) == 6 + 5


def test_a05_a_mine_costs_6_needs_a_traps_roll_and_goes_off(content, sk):
    successes = 0
    n = 3000
    b = Board(content, sk, party=("gromoboi:ak47,tyoshcha",), monsters=("chimera",), at=[3, 48])
    for trial in range(n):
        b.restart(1, trial)
        b.rec[:] = 0
        b.begin(0, K.M_ATTACK, ap=10)
        assert b.apply(0, code(K.LAY_MINE)) and b.get(0, K.F_AP) == 4
        mined = b.g[b.g[K.H_O_MINE] + 4]
        if mined:
            successes += 1
            assert mined == content.items["tyoshcha"]["dice"] and b.get(0, K.F_EXPL_N) == 0
            b.set(1, pos=5, facing=3)
            b.begin(1, K.M_MOVE_ATTACK, ap=10)
            hp = b.get(1, K.F_HP)
            assert b.apply(1, code(K.MOVE, 3))
            dealt = hp - b.get(1, K.F_HP)
            assert dealt == b.g[K.H_ROLL3] and b.g[b.g[K.H_O_MINE] + 4] == 0
            assert b.rec[K.R_DEALT] == dealt
    p = sk.stalker["traps"] / 100
    assert abs(successes / n - p) < 4 * math.sqrt(p * (1 - p) / n)


def test_a05_mine_damage_is_its_dice_plus_the_layers_bonus_minus_defence(content, sk):
    dealt = []
    b = Board(content, sk, party=("gromoboi:ak47",), monsters=("chimera",), at=[3, 5], facing=[0, 3])
    for trial in range(4000):
        b.restart(1, trial)
        b.g[b.g[K.H_O_MINE] + 4], b.g[b.g[K.H_O_OWNER] + 4] = 4, 0
        b.begin(1, K.M_MOVE_ATTACK, ap=10)
        hp = b.get(1, K.F_HP)
        b.apply(1, code(K.MOVE, 3))
        dealt.append(hp - b.get(1, K.F_HP))
    expected = 4 * 3.5 + content.characters["gromoboi"]["damage_bonus"] - content.monsters["chimera"]["defence"]
    assert abs(np.mean(dealt) - expected) < 4 * np.std(dealt) / math.sqrt(len(dealt))
    assert min(dealt) >= 0


# --- A-06 first aid -------------------------------------------------------------------

def test_a06_first_aid_10_ap_carries_over_and_wakes_the_ally_without_ap(content, sk):
    b = Board(content, sk, party=("novice:ak47", "novice:ak47"), at=[10, 11, 48], agility=[6, None, None])
    b.set(1, hp=-2, posture=K.PRONE)
    b.turn(0, code(K.MANOEUVRE, K.M_ATTACK), code(K.FIRST_AID, 1))
    assert b.get(0, K.F_AID_LEFT) == 10 - 8 and b.get(0, K.F_BANKED) == 0
    assert K.armour_class(b.g, 0) == 0  # no agility while aiding
    b.g[K.H_ROUND] = 2
    b.turn(0, code(K.MANOEUVRE, K.M_ATTACK), code(K.END, K.KEEP))
    assert b.get(0, K.F_AID_LEFT) == 0 and b.get(0, K.F_MEDIC_USES) == 2
    assert b.rec[K.R_AP + K.AP_FIRST_AID] == 10
    if b.get(1, K.F_HP) == 1:
        assert b.get(1, K.F_NO_AP_ROUND) == 2
    else:
        assert b.get(1, K.F_HP) == -2


def test_a06_first_aid_succeeds_at_the_medic_skill_and_uses_run_out(content, sk):
    for who, uses, skill in (("novice", 3, sk.stalker["medic_skill"]), ("doktor", 2, 85)):
        woke = 0
        n = 3000
        b = Board(content, sk, party=(f"{who}:ak47", "novice:ak47"), at=[10, 11, 48])
        for trial in range(n):
            b.restart(1, trial)
            b.set(1, hp=0, posture=K.PRONE)
            b.begin(0, K.M_ATTACK, ap=10)
            assert b.apply(0, code(K.FIRST_AID, 1))
            woke += b.get(1, K.F_HP) == 1
        p = skill / 100
        assert abs(woke / n - p) < 4 * math.sqrt(p * (1 - p) / n)
        b.set(1, hp=0)
        for k in range(uses - 1):
            b.begin(0, K.M_ATTACK, ap=10)
            b.set(1, hp=0)
            assert b.apply(0, code(K.FIRST_AID, 1))
        b.set(1, hp=0)
        b.begin(0, K.M_ATTACK, ap=10)
        assert not b.apply(0, code(K.FIRST_AID, 1)), f"{who} has {uses} uses a day"


def test_a06_first_aid_only_on_an_unconscious_adjacent_ally(content, sk):
    b = Board(content, sk, party=("novice:ak47", "novice:ak47"), at=[10, 12, 48])
    b.set(1, hp=0)
    b.begin(0, K.M_ATTACK, ap=10)
    assert not b.apply(0, code(K.FIRST_AID, 1))  # two hexes away
    b.set(1, pos=11, hp=3)
    assert not b.apply(0, code(K.FIRST_AID, 1))  # conscious
    assert not b.apply(0, code(K.FIRST_AID, 2))  # a monster


# --- A-07 shots ------------------------------------------------------------------------------

def test_a07_shot_costs_4_aimed_5_and_the_hit_chance_is_clamped(content, sk):
    b = Board(content, sk, at=[0, 6], agility=[6, 4])
    b.set(1, banked=3)
    d = 6
    chance = sk.stalker["skill"] - sk.rules["range_penalty"] * d - (4 + 3)
    assert K.hit_chance(b.g, 0, 1, 0, K.M_ATTACK) == chance
    assert K.hit_chance(b.g, 0, 1, 1, K.M_ATTACK) == chance + sk.rules["aimed_bonus"]
    assert K.hit_chance(b.g, 0, 1, 0, K.M_ALL_OUT_ATTACK) == chance + sk.rules["all_out_attack_bonus"]
    b.set(0, skill=0)
    assert K.hit_chance(b.g, 0, 1, 0, K.M_ATTACK) == sk.rules["hit_min"]
    b.set(0, skill=300)
    assert K.hit_chance(b.g, 0, 1, 0, K.M_ATTACK) == sk.rules["hit_max"]
    b.begin(0, K.M_ATTACK, ap=9)
    assert b.apply(0, code(K.SHOOT, 1, 1)) and b.get(0, K.F_AP) == 4
    assert b.apply(0, code(K.SHOOT, 1, 0)) and b.get(0, K.F_AP) == 0
    b.begin(0, K.M_MOVE, ap=9)
    assert not b.apply(0, code(K.SHOOT, 1))  # the Move manoeuvre has no attack


def test_a07_hits_land_at_the_hit_chance(content, sk):
    n, hits = 20000, 0
    b = Board(content, sk, at=[0, 5], monsters=("chimera",))
    chance = K.hit_chance(b.g, 0, 1, 0, K.M_ATTACK)
    for trial in range(n):
        b.restart(1, trial)
        b.begin(0, K.M_ATTACK, ap=4)
        b.apply(0, code(K.SHOOT, 1))
    hits = b.rec[K.R_HITS]
    assert b.rec[K.R_SHOTS] == n
    p = chance / 100
    assert abs(hits / n - p) < 4 * math.sqrt(p * (1 - p) / n)


def test_a07_no_shot_out_of_range_or_sight(content, sk):
    grid = [[1] * 7 for _ in range(7)]
    grid[0][3] = 0
    b = Board(content, sk, grid=grid, at=[0, 6])
    b.begin(0, K.M_ATTACK, ap=10)
    assert not b.apply(0, code(K.SHOOT, 1))  # the object blocks the line
    b.set(1, pos=21)
    assert b.apply(0, code(K.SHOOT, 1))
    b.set(0, range=1)
    assert not b.apply(0, code(K.SHOOT, 1))


# --- M-01..M-05 moving with facing -----------------------------------------------------------

# rel(direction, facing) -> (points, turns toward it) for mode 0 and mode 1
MOVE_TABLE = {0: ((1, False), (1, False)), 1: ((1, True), (2, False)), 5: ((1, True), (2, False)),
              2: ((2, False), (2, False)), 4: ((2, False), (2, False)), 3: ((2, False), (2, False))}


@pytest.mark.parametrize("facing", range(6))
def test_m04_move_costs_from_every_facing_to_every_neighbour(content, sk, facing):
    centre = 3 * 7 + 3
    for d, mode in itertools.product(range(6), (0, 1)):
        b = Board(content, sk, at=[centre, 48], facing=[facing, 0])
        b.begin(0, K.M_MOVE, ap=20)
        assert b.apply(0, code(K.MOVE, d, mode))
        points, turns = MOVE_TABLE[(d - facing) % 6][mode]
        assert 5 - b.g[K.H_PTS] == points and 20 - b.get(0, K.F_AP) == 1  # a hex is 1 AP on flat ground
        assert b.get(0, K.F_FACING) == (d if turns else facing)
        assert b.get(0, K.F_POS) == K.nbr(b.g, centre, d)
        b = Board(content, sk, at=[centre, 48], facing=[facing, 0])
        b.begin(0, K.M_ALL_OUT_ATTACK, ap=20)
        assert b.apply(0, code(K.MOVE, d, mode)) == ((d - facing) % 6 in (0, 1, 5))  # no back or sideways


def test_m01_neighbours_are_odd_r_and_distances_symmetric(content, sk):
    arena = load_arena(sk, size=7)
    assert arena.nbr[0].tolist() == [1, -1, -1, -1, -1, 7]
    assert arena.nbr[7].tolist() == [8, 1, 0, -1, 14, 15]
    assert (arena.dist == arena.dist.T).all()
    for h in range(49):
        for d in range(6):
            x = arena.nbr[h, d]
            if x >= 0:
                assert arena.dist[h, x] == 1 and arena.nbr[x, (d + 3) % 6] == h


def test_m02_step_moves_one_hex_any_way_or_kneels_once_and_turns_freely(content, sk):
    centre = 3 * 7 + 3
    for d in range(6):
        b = Board(content, sk, at=[centre, 48])
        b.begin(0, K.M_ATTACK, ap=10)
        assert b.apply(0, code(K.STEP, d, (d + 3) % 6))
        assert b.get(0, K.F_POS) == K.nbr(b.g, centre, d) and b.get(0, K.F_FACING) == (d + 3) % 6
        assert b.get(0, K.F_AP) == 9
        assert not b.apply(0, code(K.STEP, K.STAY, 0))  # once per turn
    b = Board(content, sk, at=[centre, 48])
    b.begin(0, K.M_ATTACK, ap=10)
    assert b.apply(0, code(K.STEP, K.KNEEL, 2))
    assert b.get(0, K.F_POSTURE) == K.KNEELING and b.get(0, K.F_AP) == 10 - sk.rules["kneel_ap"]
    b.begin(0, K.M_MOVE, ap=10)
    assert not b.apply(0, code(K.STEP, K.STAY, 0))  # only the Attack manoeuvre steps
    assert not b.apply(0, code(K.MOVE, 0))  # kneeling: stand up first


def test_m03_move_points_per_manoeuvre(content, sk):
    b = Board(content, sk, at=[0, 48], move=[5, None])
    expected = {K.M_MOVE: 5, K.M_MOVE_ATTACK: 5, K.M_ALL_OUT_ATTACK: 3, K.M_ALL_OUT_DEFENCE: 3, K.M_ATTACK: 0}
    for man, pts in expected.items():
        b.turn(0, code(K.MANOEUVRE, man), code(K.END, K.KEEP))
        assert b.g[K.H_PTS0] == pts
    log = b.turn(0, code(K.MANOEUVRE, 7), code(K.END, K.KEEP))
    assert log[0][K.L_OK] == 0 and b.g[K.H_MAN] == K.M_MOVE_ATTACK


@pytest.mark.parametrize("m", [1, 3])
def test_m05_turning_costs_a_point_and_an_ap_per_side_whatever_the_ground(content, sk, m):
    grid = [[1] * 7 for _ in range(7)]
    grid[3][3] = m  # he turns on this hex: the terrain multiplies hexes entered, not turns
    for new in range(6):
        b = Board(content, sk, grid=grid, at=[24, 48], facing=[0, 0])
        b.begin(0, K.M_MOVE, ap=10)
        k = min(new, 6 - new)  # 180 degrees = 3
        assert b.apply(0, code(K.TURN, new)) == (k > 0)
        assert 5 - b.g[K.H_PTS] == k and 10 - b.get(0, K.F_AP) == k
    b = Board(content, sk, at=[24, 48], facing=[0, 0], rules={"turn_points": 2})
    b.begin(0, K.M_MOVE, ap=10)
    assert not b.apply(0, code(K.TURN, 3))  # 3 sides x 2 = 6 points, 5 given
    assert b.apply(0, code(K.TURN, 2)) and 5 - b.g[K.H_PTS] == 4 and 10 - b.get(0, K.F_AP) == 4
    b.begin(0, K.M_ALL_OUT_ATTACK, ap=10)
    assert not b.apply(0, code(K.TURN, 1))


@pytest.mark.parametrize("man,spent,free", [(K.M_MOVE, 3, True), (K.M_MOVE, 4, False), (K.M_MOVE_ATTACK, 0, True),
                                            (K.M_ALL_OUT_DEFENCE, 3, True), (K.M_ALL_OUT_ATTACK, 0, False),
                                            (K.M_ATTACK, 0, False)])
def test_m05_end_of_turn_facing(content, sk, man, spent, free):
    b = Board(content, sk, at=[0, 48], facing=[0, 0])
    codes = [code(K.MANOEUVRE, man)] + [code(K.MOVE, 0)] * spent + [code(K.END, 3)]
    b.turn(0, *codes)
    assert b.get(0, K.F_POS) == spent
    assert b.get(0, K.F_FACING) == (3 if free else 1)


def test_m06_sprint_after_two_move_turns_all_forward(content, sk):
    b = Board(content, sk, grid=[[1] * 15], at=[0, 14], move=[3, None])
    forward3 = [code(K.MOVE, 0)] * 3
    b.turn(0, code(K.MANOEUVRE, K.M_MOVE), *forward3, code(K.END, K.KEEP))
    assert b.get(0, K.F_SPRINT_NEXT) == 0  # the first Move turn
    b.turn(0, code(K.MANOEUVRE, K.M_MOVE), *forward3, code(K.END, K.KEEP))
    assert b.get(0, K.F_SPRINT_NEXT) == 1
    start = b.get(0, K.F_POS)
    b.turn(0, code(K.MANOEUVRE, K.M_MOVE), *[code(K.MOVE, 0)] * 4, code(K.END, K.KEEP))
    assert b.get(0, K.F_POS) == start + 4  # 3 points and the sprint point
    b.turn(0, code(K.MANOEUVRE, K.M_MOVE), code(K.TURN, 1), code(K.TURN, 0), code(K.MOVE, 0), code(K.END, K.KEEP))
    assert b.get(0, K.F_SPRINT_NEXT) == 0  # turning is not running forward


def test_m07_passing_an_ally_costs_one_more_point(content, sk):
    b = Board(content, sk, party=("novice:ak47", "novice:ak47"), at=[21, 22, 48])
    b.begin(0, K.M_MOVE, ap=10)
    assert b.apply(0, code(K.MOVE, 0))
    assert b.get(0, K.F_POS) == 23 and 5 - b.g[K.H_PTS] == 3 and b.get(0, K.F_AP) == 7
    b.set(0, pos=21)
    b.set(1, pos=22)
    b.begin(0, K.M_MOVE, ap=10, pts=2)
    assert not b.apply(0, code(K.MOVE, 0))  # 3 points needed


@pytest.mark.parametrize("m", [2, 3])
def test_m07_passing_an_ally_on_rough_ground_costs_one_ap_more_not_one_hex_more(content, sk, m):
    """The ally's hex costs its terrain AP (A-03) plus ally_points (M-07), not
    (1 + 1) x its terrain."""
    grid = [[1] * 7 for _ in range(7)]
    grid[3][1] = m  # the ally's hex 22
    b = Board(content, sk, grid=grid, party=("novice:ak47", "novice:ak47"), at=[21, 22, 48])
    b.begin(0, K.M_MOVE, ap=10)
    assert b.apply(0, code(K.MOVE, 0)) and b.get(0, K.F_POS) == 23
    assert 10 - b.get(0, K.F_AP) == m + 1 + 1 and 5 - b.g[K.H_PTS] == 3
    b = Board(content, sk, grid=grid, party=("novice:ak47", "novice:ak47"), at=[21, 22, 48],
              rules={"ally_points": 2})
    b.begin(0, K.M_MOVE, ap=10)
    assert b.apply(0, code(K.MOVE, 0)) and 10 - b.get(0, K.F_AP) == m + 2 + 1 and 5 - b.g[K.H_PTS] == 4


def _p_evade(eff, dx_enemy):
    three = np.zeros(19)
    for a, b_, c in itertools.product(range(1, 7), repeat=3):
        three[a + b_ + c] += 1 / 216
    return sum(three[r] * three[s] for r in range(3, 19) for s in range(3, 19) if eff - r > dx_enemy - s)


@pytest.mark.parametrize("posture,enemy_facing,modifier", [
    (K.STANDING, 3, -5), (K.KNEELING, 3, -2), (K.PRONE, 3, 5), (K.STANDING, 1, -5 + 2), (K.STANDING, 0, -5 + 5)])
def test_m08_evade_contest_with_posture_and_approach_modifiers(content, sk, posture, enemy_facing, modifier):
    n, passed = 6000, 0
    b = Board(content, sk, at=[21, 22], facing=[0, enemy_facing], dx=[13, 10])
    for trial in range(n):
        b.restart(1, trial)
        b.set(1, posture=posture)
        b.begin(0, K.M_MOVE, ap=10)
        assert b.apply(0, code(K.MOVE, 0))
        passed += b.get(0, K.F_POS) == 23
        if b.get(0, K.F_POS) == 21:
            assert b.g[K.H_MOVE_LOCKED] and not b.apply(0, code(K.MOVE, 1))
    p = _p_evade(13 + modifier, 10)
    assert abs(passed / n - p) < 4 * math.sqrt(p * (1 - p) / n) + 1e-9


def test_m08_insubstantial_creatures_evade_and_are_evaded_automatically(content, sk):
    for who in (0, 1):
        insub = [who == 0, who == 1]
        for trial in range(50):
            b = Board(content, sk, at=[21, 22], facing=[0, 3], dx=[3, 18], insubstantial=insub, trial=trial)
            b.begin(0, K.M_MOVE, ap=10)
            assert b.apply(0, code(K.MOVE, 0)) and b.get(0, K.F_POS) == 23


def test_m08_no_evade_without_a_free_hex_beyond(content, sk):
    b = Board(content, sk, monsters=("flesh", "flesh"), at=[21, 22, 23], facing=[0, 3, 3])
    b.begin(0, K.M_MOVE, ap=10)
    assert not b.apply(0, code(K.MOVE, 0))


# --- rule numbers come from the content ------------------------------------------------------

def test_a04_item_costs_are_the_rulebook_numbers_and_come_from_the_content(content, sk):
    assert (sk.rules["use_ap"], sk.rules["equip_ap"], sk.rules["pickup_ap"], sk.rules["reload_ap"]) == (3, 4, 4, 2)
    costs = {"use_ap": 1, "equip_ap": 2, "pickup_ap": 5, "reload_ap": 6}
    b = Board(content, sk, party=("doktor:ak47,stimulator*2", "novice:ak47"), at=[10, 10, 48], rules=costs)
    b.set(1, alive=0, hp=-9)
    b.begin(0, K.M_ATTACK, ap=20)
    b.set(0, hp=5, mag=1)
    for c, kind, cost in ((code(K.EQUIP, 1), K.AP_EQUIP, 2), (code(K.USE), K.AP_USE, 1),
                          (code(K.EQUIP, 0), K.AP_EQUIP, 2), (code(K.PICKUP, 1), K.AP_PICKUP, 5),
                          (code(K.RELOAD), K.AP_RELOAD, 6)):
        ap = b.get(0, K.F_AP)
        assert b.apply(0, c) and ap - b.get(0, K.F_AP) == cost
    assert b.rec[K.R_AP + K.AP_EQUIP] == 4


EVADE = {"evade_standing": -1, "evade_kneeling": 3, "evade_prone": 7, "evade_side": 4, "evade_behind": 9,
         "evade_dice": 2}


@pytest.mark.parametrize("posture,enemy_facing,modifier", [
    (K.STANDING, 3, -1), (K.KNEELING, 3, 3), (K.PRONE, 3, 7), (K.STANDING, 1, -1 + 4), (K.STANDING, 5, -1 + 4),
    (K.STANDING, 0, -1 + 9), (K.STANDING, 2, -1), (K.STANDING, 4, -1)])
def test_m08_evade_modifiers_and_dice_come_from_the_content(content, sk, posture, enemy_facing, modifier):
    """With every M-08 number changed in the content, each contest is decided by
    exactly those numbers (the rolls are read back from the state)."""
    for trial in range(60):
        b = Board(content, sk, at=[21, 22], facing=[0, enemy_facing], dx=[11, 10], trial=trial, rules=EVADE)
        b.set(1, posture=posture)
        b.begin(0, K.M_MOVE, ap=10)
        assert b.apply(0, code(K.MOVE, 0))
        r_m, r_e = int(b.g[K.H_ROLL1]), int(b.g[K.H_ROLL2])
        assert 2 <= r_m <= 12 and 2 <= r_e <= 12  # evade_dice d6 each
        assert (b.get(0, K.F_POS) == 23) == (11 + modifier - r_m > 10 - r_e)


@pytest.mark.parametrize("rule, value, check", [
    ("forward_points", 2, lambda b: b.g[K.H_PTS] == 5 - 2),
    ("sideways_points", 3, lambda b: b.g[K.H_PTS] == 5 - 3),
    ("sprint_points", 2, lambda b: b.g[K.H_SPRINT] == 2),
    ("half_divisor", 3, lambda b: b.g[K.H_PTS0] == 2),
    ("end_turn_sides", 2, lambda b: b.get(0, K.F_FACING) == 2),
    ("first_aid_hp", 3, lambda b: b.get(1, K.F_HP) == 3),
])
def test_movement_sprint_aid_and_sequence_numbers_come_from_the_content(content, sk, rule, value, check):
    """M-03..M-06, A-06: each rule number, changed in the content, changes the kernel's play."""
    b = Board(content, sk, party=("novice:ak47", "doktor:ak47"), at=[24, 48, 47], rules={rule: value},
              medic_skill=[100, None, None])
    if rule in ("forward_points", "sideways_points"):
        b.begin(0, K.M_MOVE, ap=10)
        assert b.apply(0, code(K.MOVE, 0 if rule == "forward_points" else 3))
    elif rule == "sprint_points":
        b.set(0, sprint_next=1)
        b.turn(0, code(K.MANOEUVRE, K.M_MOVE))
    elif rule == "half_divisor":
        b.turn(0, code(K.MANOEUVRE, K.M_ALL_OUT_ATTACK))  # Move 5: 5 / 3 rounded up
    elif rule == "end_turn_sides":
        b.turn(0, code(K.MANOEUVRE, K.M_ALL_OUT_ATTACK), code(K.END, 3))  # not free: 2 sides toward W
    elif rule == "first_aid_hp":
        b.set(1, pos=25, hp=-1, posture=K.PRONE)
        b.begin(0, K.M_ATTACK, ap=10)
        assert b.apply(0, code(K.FIRST_AID, 1))
    assert check(b)


def test_a01_sequence_die_comes_from_the_content(content, sk):
    orders = set()
    for die in (10, 1):  # a one-sided die leaves every tie to the index
        for trial in range(12):
            b = Board(content, sk, party=("novice:ak47", "novice:ak47"), at=[0, 1, 48], trial=trial,
                      rules={"sequence_die": die}, sequence=[5, 5, 5])
            orders.add((die, tuple(b.g[b.g[K.H_O_ORDER]:b.g[K.H_O_ORDER] + 3].tolist())))
    assert {o for d, o in orders if d == 1} == {(0, 1, 2)} and len([o for d, o in orders if d == 10]) > 1


def test_every_rule_number_the_kernel_reads_is_a_content_field():
    """The kernel reads its rule numbers (A-01..A-07, M-01..M-08) from skirmish.toml's fields."""
    assert set(K.RULE_FIELDS.values()) <= set(RULES)  # every rule number the kernel reads is a content field
