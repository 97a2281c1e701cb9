"""Hand-checkable tests of the plain-Python reference skirmish (sim.reference.skirmish)
against docs/skirmish-resolution.md (RULES A-01..A-07, M-01..M-08).

Small all-flat arenas (or hand-made grids), scripted strategies; random draws
are reproduced from the streams (``Stream(seed, trial, purpose)``) where a
rule depends on them.  Arena of size 8: the party stands at (4, 2) = hex 34
facing east; hex (4, c) = 32 + c (row 4 is even: E = c+1, W = c-1).
"""

import copy
import functools
from types import MappingProxyType

import pytest

from sim.content.load import load_content
from sim.content.skirmish import SkirmishSetup, build_arena, load_arena, load_skirmish, make_setup, parse_member
from sim.reference import skirmish as S
from sim.reference.fight import Stream
from sim.reference.skirmish import code

SEED = 20240917
S_MASK = 2**64 - 1


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------


@functools.cache
def _content():
    content = load_content()
    return content, load_skirmish(content)


def build(party=("novice:ak47",), monsters=("flesh",), size=8, grid=None, distance=3, rules=None,
          changes=None, strategy="hold"):
    """A setup; ``changes`` = {fighter index: {field: value}}, ``rules`` = {rule: value}."""
    content, sk = _content()
    arena = build_arena(grid) if grid is not None else load_arena(sk, size=size)
    setup = make_setup(content, sk, [parse_member(content, p) for p in party], list(monsters), arena,
                       strategy=strategy, distance=distance)
    fighters = [dict(f) for f in setup.fighters]
    for i, change in (changes or {}).items():
        fighters[i].update(change)
    all_rules = dict(setup.rules, **(rules or {}))
    return SkirmishSetup(setup.arena, MappingProxyType(all_rules), tuple(MappingProxyType(f) for f in fighters),
                         setup.names)


class Script:
    """Answers ``codes`` in order (then MANOEUVRE ATTACK / END keep) and keeps a
    snapshot of the asking fighter (and round, phase) at every question."""

    def __init__(self, *codes):
        self.codes = list(codes)
        self.seen = []

    def __call__(self, state, i):
        snap = copy.deepcopy(vars(state.fighters[i]))
        snap.update(round=state.round, phase=state.phase)
        self.seen.append(snap)
        if self.codes:
            return self.codes.pop(0)
        return man(S.M_ATTACK) if state.phase == S.PHASE_MANOEUVRE else end()

    def actions(self, rnd=None):
        return [s for s in self.seen if s["phase"] == S.PHASE_ACTION and (rnd is None or s["round"] == rnd)]


def man(m):
    return code(S.MANOEUVRE, m)


def end(a=S.KEEP):
    return code(S.END, a)


def mv(d, mode=0):
    return code(S.MOVE, d, mode)


def play(setup, scripts, trial=0, seed=SEED, log=None):
    return S.play(setup, seed, trial, strategies=scripts, log=log)


FIRST = {0: {"sequence": 20}}           # the stalker acts first
MONSTER_FIRST = {1: {"sequence": 20}}   # the monster acts first


# --------------------------------------------------------------------------
# random numbers
# --------------------------------------------------------------------------


def test_rng_pct_never_touches_the_dice_buffer():
    a, b = Stream(SEED, 3, 0), Stream(SEED, 3, 0)
    first = a.die(6)
    p = S.pct(a)
    second = a.die(6)
    w1 = b.next_word()
    w2 = b.next_word()
    assert first == (w1 * 6 >> 64) + 1
    assert second == ((w1 * 6 & S_MASK) * 6 >> 64) + 1  # still the first word's digits
    assert p == (w2 * 100 >> 64) + 1
    assert 1 <= p <= 100



# --------------------------------------------------------------------------
# A-01 sequence
# --------------------------------------------------------------------------


def test_a01_sequence_order_with_d10_ties():
    setup = build(party=("novice:ak47",) * 4, changes={4: {"sequence": 6}}, rules={"max_rounds": 1})
    ties = 0
    for trial in range(40):
        stream = Stream(SEED, trial, S.SETUP)
        t = [stream.die(10) for _ in range(5)]
        expected = sorted(range(5), key=lambda i: (-6, -t[i], i))
        log = []
        play(setup, {i: Script() for i in range(5)}, trial=trial, log=log)
        order = [i for (_, i, c, _) in log if c & 0xFF == S.MANOEUVRE]
        assert order == expected
        ties += len(set(t)) < 5
    assert ties > 0  # the index tie-break was exercised


def test_a01_sequence_beats_the_d10():
    setup = build(changes={0: {"sequence": 1}}, rules={"max_rounds": 1})  # flesh has sequence 3
    log = []
    play(setup, {0: Script(), 1: Script()}, log=log)
    assert [i for (_, i, _, _) in log] == [1, 1, 0, 0]


# --------------------------------------------------------------------------
# A-02 action points, banked AC, A-07 hit chance
# --------------------------------------------------------------------------


def test_a02_ap_per_turn_and_defend_record():
    setup = build(party=("verzila:ak47",), rules={"max_rounds": 2})
    s = Script(man(S.M_ATTACK), end(), man(S.M_ATTACK), end())
    rec = play(setup, {0: s, 1: Script()})
    assert [x["ap"] for x in s.seen] == [7, 7, 7, 7]  # 5 + 4 // 2
    assert rec["ap"][S.AP_DEFEND] == 14
    assert rec["outcome"] == S.DRAW and rec["rounds"] == 2 and rec["alive"] == 1 and rec["all_alive"] == 1


def _flesh_hits_stalker(trial, chance):
    """Flesh's first draw is its shot's percentile (stream 1)."""
    return S.pct(Stream(SEED, trial, 1)) <= chance


@pytest.mark.parametrize("manoeuvre, ac", [(S.M_MOVE, 6 + 8), (S.M_ALL_OUT_DEFENCE, 6 + 8 + 10),
                                            (S.M_ALL_OUT_ATTACK, 6)])
def test_a02_banked_ap_and_all_out_defence_raise_ac(manoeuvre, ac):
    # The stalker ends his turn with all 8 AP; flesh (adjacent) then shoots him once.
    setup = build(distance=1, changes=FIRST, rules={"max_rounds": 1})
    chance = 50 - 4 * 1 - ac
    seen_hit = seen_miss = 0
    for trial in range(30):
        flesh = Script(man(S.M_ATTACK), code(S.SHOOT, 0), end())
        rec = play(setup, {0: Script(man(manoeuvre), end()), 1: flesh}, trial=trial)
        hit = _flesh_hits_stalker(trial, chance)
        assert (rec["damage_taken"] > 0) == hit
        assert rec["shots"] == 0 and rec["hits"] == 0  # monsters' shots are not counted
        seen_hit += hit
        seen_miss += not hit
    assert seen_hit and seen_miss


@pytest.mark.parametrize("man_, aimed, bonus", [(S.M_ATTACK, 0, 0), (S.M_ATTACK, 1, 15),
                                                (S.M_ALL_OUT_ATTACK, 1, 25), (S.M_MOVE_ATTACK, 0, 0)])
def test_a07_hit_chance(man_, aimed, bonus):
    setup = build(changes={0: {"sequence": 20, "skill": 65}}, rules={"max_rounds": 1})
    chance = 65 - 4 * 3 - 3 + bonus  # skill - range - flesh agility (flesh has banked 0 in round 1)
    hits = 0
    for trial in range(40):
        rec = play(setup, {0: Script(man(man_), code(S.SHOOT, 1, aimed), end()), 1: Script()}, trial=trial)
        stream = Stream(SEED, trial, 0)
        hit = S.pct(stream) <= chance
        assert rec["shots"] == 1 and rec["hits"] == int(hit)
        damage = stream.roll(2, 6) if hit else 0  # ak47 2d6, flesh defence 0
        assert rec["damage_dealt"] == damage and rec["hp"][1] == 10 - damage
        assert rec["ap"][S.AP_SHOOT] == (5 if aimed else 4)
        hits += hit
    assert 0 < hits < 40


def test_a07_hit_chance_is_clamped():
    setup = build(changes={0: {"sequence": 20, "skill": 0}}, rules={"max_rounds": 1})
    for trial in range(60):
        rec = play(setup, {0: Script(man(S.M_ATTACK), code(S.SHOOT, 1), end()), 1: Script()}, trial=trial)
        assert rec["hits"] == int(S.pct(Stream(SEED, trial, 0)) <= 5)


def test_a07_shot_legality():
    setup = build(distance=3, changes={0: {"sequence": 20, "range": 2}}, rules={"max_rounds": 1})
    # out of range, shooting in MOVE, aimed without aimed_ap: each illegal ends the turn
    for script in ([man(S.M_ATTACK), code(S.SHOOT, 1)], [man(S.M_MOVE), code(S.SHOOT, 1)],
                   [man(S.M_ATTACK), code(S.SHOOT, 0)]):
        log = []
        rec = play(setup, {0: Script(*script), 1: Script()}, log=log)
        assert rec["illegal"] == 1 and rec["shots"] == 0
        assert rec["ap"][S.AP_DEFEND] == 8  # END keep after the illegal answer


def test_a07_no_shot_through_a_large_object():
    grid = [[1] * 6 for _ in range(5)]
    grid[2][3] = 0  # party at (2, 2) = 14, flesh at (2, 4) = 16
    setup = build(grid=grid, distance=2, changes=FIRST, rules={"max_rounds": 1})
    rec = play(setup, {0: Script(man(S.M_ATTACK), code(S.SHOOT, 1)), 1: Script()})
    assert rec["illegal"] == 1 and rec["shots"] == 0


# --------------------------------------------------------------------------
# A-03 terrain, M-04 moves
# --------------------------------------------------------------------------


def test_m04_forward_move_costs_one_point_and_one_ap():
    setup = build(changes=FIRST, rules={"max_rounds": 1})
    s = Script(man(S.M_MOVE), mv(0), end())
    rec = play(setup, {0: s, 1: Script()})
    after = s.actions()[1]
    assert (after["pos"], after["facing"], after["pts"], after["ap"]) == (35, 0, 4, 7)
    assert rec["ap"][S.AP_MOVE] == 1 and rec["pos"][0] == 35


def test_a03_m04_backward_and_sideways_hexes_cost_two_points_but_one_ap():
    setup = build(changes=FIRST, rules={"max_rounds": 1})
    s = Script(man(S.M_MOVE), mv(3), mv(1, 0), mv(2, 1), end())
    rec = play(setup, {0: s, 1: Script()})
    a = s.actions()
    # backward (rel 3): 2 points (M-04), 1 AP, facing kept
    assert (a[1]["pos"], a[1]["facing"], a[1]["pts"], a[1]["ap"], a[1]["forward_only"]) == (33, 0, 3, 7, False)
    # rel 1 mode 0: 1 point, facing becomes 1 (NE of (4, 1) is (3, 1) = 25)
    assert (a[2]["pos"], a[2]["facing"], a[2]["pts"], a[2]["ap"]) == (25, 1, 2, 6)
    # rel 1 mode 1 (d = 2 with facing 1): 2 points, 1 AP, facing kept
    assert (a[3]["pos"], a[3]["facing"], a[3]["pts"], a[3]["ap"]) == (17, 1, 0, 5)  # NW of odd (3, 1) is (2, 1)
    assert rec["ap"][S.AP_MOVE] == 3 and rec["illegal"] == 0


def test_m04_move_needs_points():
    setup = build(changes=FIRST, rules={"max_rounds": 1})
    s = Script(man(S.M_MOVE), mv(3), mv(3), mv(3))  # 2 + 2 + 2 > 5 points
    rec = play(setup, {0: s, 1: Script()})
    assert rec["illegal"] == 1 and rec["pos"][0] == 32 and rec["ap"] == [2, 0, 0, 0, 0, 0, 0, 0, 0, 6]


def test_a03_terrain_multiplies_the_ap_of_a_hex_not_its_points():
    grid = [[1] * 8 for _ in range(5)]
    grid[2][3], grid[2][1] = 2, 3  # party at (2, 2) = 18, flesh far east
    setup = build(grid=grid, distance=5, changes=FIRST, rules={"max_rounds": 1})
    s = Script(man(S.M_MOVE), mv(0), mv(3), mv(3), end())
    rec = play(setup, {0: s, 1: Script()})
    a = s.actions()
    assert (a[1]["pos"], a[1]["pts"], a[1]["ap"]) == (19, 4, 6)   # forward into 2x: 1 point, 2 AP
    assert (a[2]["pos"], a[2]["pts"], a[2]["ap"]) == (18, 2, 5)   # backward into 1x: 2 points, 1 AP
    assert (a[3]["pos"], a[3]["pts"], a[3]["ap"]) == (17, 0, 2)   # backward into 3x: 2 points, 3 AP
    assert rec["illegal"] == 0 and rec["pos"][0] == 17 and rec["ap"][S.AP_MOVE] == 6


def test_m03_all_out_attack_points_and_no_backward_move():
    setup = build(size=10, distance=7, changes=FIRST, rules={"max_rounds": 1})
    s = Script(man(S.M_ALL_OUT_ATTACK), mv(0), mv(0), mv(0), mv(0))
    rec = play(setup, {0: s, 1: Script()})
    assert s.actions()[0]["pts"] == 3  # (5 + 1) // 2
    assert rec["illegal"] == 1 and rec["ap"][S.AP_MOVE] == 3
    rec = play(setup, {0: Script(man(S.M_ALL_OUT_ATTACK), mv(3)), 1: Script()})
    assert rec["illegal"] == 1 and rec["ap"][S.AP_MOVE] == 0
    # rel 1 mode 1 is allowed in ALL_OUT_ATTACK; banked AC is 0 there
    s = Script(man(S.M_ALL_OUT_ATTACK), mv(1, 1), end())
    rec = play(setup, {0: s, 1: Script()})
    assert rec["illegal"] == 0 and rec["ap"][S.AP_MOVE] == 1 and rec["ap"][S.AP_DEFEND] == 7


def test_m03_illegal_manoeuvre_counts_as_move_attack():
    setup = build(changes=FIRST, rules={"max_rounds": 1})
    s = Script(end(), mv(0), end())
    log = []
    rec = play(setup, {0: s, 1: Script()}, log=log)
    first = s.actions()[0]
    assert first["manoeuvre"] == S.M_MOVE_ATTACK and first["pts"] == 5
    assert rec["illegal"] == 1 and rec["pos"][0] == 35
    assert log[0] == (1, 0, end(), False) and log[1] == (1, 0, mv(0), True)


# --------------------------------------------------------------------------
# M-05 facing
# --------------------------------------------------------------------------


def test_m05_turning_costs_one_point_and_ap_per_side():
    setup = build(changes=FIRST, rules={"max_rounds": 1})
    s = Script(man(S.M_MOVE), code(S.TURN, 3), code(S.TURN, 5), code(S.TURN, 5))
    rec = play(setup, {0: s, 1: Script()})
    a = s.actions()
    assert (a[1]["facing"], a[1]["pts"], a[1]["ap"]) == (3, 2, 5)  # 180 degrees: 3
    assert (a[2]["facing"], a[2]["pts"], a[2]["ap"]) == (5, 0, 3)
    assert rec["illegal"] == 1 and rec["ap"][S.AP_MOVE] == 5 and rec["facing"][0] == 5


def test_m05_turn_not_in_attack():
    setup = build(changes=FIRST, rules={"max_rounds": 1})
    rec = play(setup, {0: Script(man(S.M_ATTACK), code(S.TURN, 1)), 1: Script()})
    assert rec["illegal"] == 1 and rec["facing"][0] == 0


@pytest.mark.parametrize("manoeuvre, moves, wish, facing", [
    (S.M_MOVE_ATTACK, [], 3, 3),                    # nothing spent: free turn
    (S.M_MOVE, [mv(0)] * 3, 3, 3),                  # 3 <= (5 + 1) // 2: free
    (S.M_MOVE, [mv(0)] * 4, 3, 1),                  # 4 > 3: one side, (3 - 0) mod 6 = 3 -> +1
    (S.M_ATTACK, [], 4, 5),                         # one side, 4 > 3 -> -1
    (S.M_ALL_OUT_ATTACK, [], 2, 1),
    (S.M_ALL_OUT_DEFENCE, [mv(0)] * 3, 3, 3),       # always free
    (S.M_ATTACK, [], S.KEEP, 0),
])
def test_m05_end_of_turn_facing(manoeuvre, moves, wish, facing):
    setup = build(size=10, distance=7, changes=FIRST, rules={"max_rounds": 1})
    rec = play(setup, {0: Script(man(manoeuvre), *moves, end(wish)), 1: Script()})
    assert rec["illegal"] == 0 and rec["facing"][0] == facing


# --------------------------------------------------------------------------
# M-02 step
# --------------------------------------------------------------------------


def test_m02_step_once_per_turn_in_attack():
    setup = build(changes=FIRST, rules={"max_rounds": 2})
    s = Script(man(S.M_ATTACK), code(S.STEP, S.KNEEL, 2), code(S.STEP, S.STAY, 0),
               man(S.M_ATTACK), code(S.STEP, 0, 0),                       # kneeling: no step to a hex
               )
    rec = play(setup, {0: s, 1: Script()})
    a = s.actions(1)
    assert (a[1]["posture"], a[1]["facing"], a[1]["ap"]) == (S.KNEELING, 2, 7)
    assert rec["illegal"] == 2 and rec["ap"][S.AP_MOVE] == 1 and rec["pos"][0] == 34
    s = Script(man(S.M_ATTACK), code(S.STEP, 5, 4), end(), man(S.M_MOVE), code(S.STEP, S.STAY, 0))
    rec = play(setup, {0: s, 1: Script()})
    assert rec["pos"][0] == 42 and rec["facing"][0] == 4 and rec["illegal"] == 1  # SE of (4, 2) is (5, 2)


# --------------------------------------------------------------------------
# M-06 sprint
# --------------------------------------------------------------------------


def test_m06_sprint_after_two_full_forward_moves():
    far = {0: {"sequence": 20}, 1: {"pos": 19, "facing": 3}}  # monster in the corner (0, 19)
    setup = build(size=20, distance=5, changes=far, rules={"max_rounds": 4})
    s = Script(man(S.M_MOVE), *[mv(0)] * 5, end(),
               man(S.M_MOVE), *[mv(0)] * 5, end(),
               man(S.M_MOVE), *[mv(0)] * 6, end(),
               man(S.M_MOVE), code(S.TURN, 1), end())
    rec = play(setup, {0: s, 1: Script()})
    assert [s.actions(r)[0]["sprint"] for r in (1, 2, 3, 4)] == [0, 0, 1, 1]
    third = s.actions(3)
    assert third[1]["pts"] == 5 and third[1]["sprint"] == 0  # the sprint paid the first hex
    assert third[-1]["pts"] == 0 and third[-1]["pos"] == 202 + 16
    assert rec["ap"][S.AP_MOVE] == 5 + 5 + 6 + 1 and rec["illegal"] == 0


def test_m06_no_sprint_after_a_turn_or_a_short_move():
    far = {0: {"sequence": 20}, 1: {"pos": 19, "facing": 3}}
    setup = build(size=20, distance=5, changes=far, rules={"max_rounds": 3})
    s = Script(man(S.M_MOVE), *[mv(0)] * 5, end(),
               man(S.M_MOVE), code(S.TURN, 1), code(S.TURN, 0), *[mv(0)] * 3, end(),
               man(S.M_MOVE), end())
    play(setup, {0: s, 1: Script()})
    assert s.actions(3)[0]["sprint"] == 0


# --------------------------------------------------------------------------
# M-07 pass through an ally, M-08 evade
# --------------------------------------------------------------------------


def test_m07_passing_through_an_ally_costs_one_more_point_and_ap():
    grid = [[1] * 8 for _ in range(5)]
    grid[2][3] = 2  # the ally's hex (2, 3) = 19 is rough
    setup = build(party=("novice:ak47", "novice:ak47"), monsters=("flesh",), grid=grid, distance=5,
                  changes={0: {"sequence": 20}, 1: {"pos": 19}}, rules={"max_rounds": 1})
    s = Script(man(S.M_MOVE), mv(0), end())
    rec = play(setup, {0: s, 1: Script(), 2: Script()})
    after = s.actions()[1]
    # 1 x 2 AP for the ally's rough hex + 1 for passing him + 1 x 1 on the landing hex; 3 points
    assert (after["pos"], after["pts"], after["ap"]) == (20, 2, 4)
    assert rec["ap"][S.AP_MOVE] == 4


def test_m07_pass_through_needs_a_free_landing_hex():
    setup = build(party=("novice:ak47", "novice:ak47", "novice:ak47"), distance=5,
                  changes={0: {"sequence": 20}, 1: {"pos": 35}, 2: {"pos": 36}}, rules={"max_rounds": 1})
    rec = play(setup, {0: Script(man(S.M_MOVE), mv(0)), 1: Script(), 2: Script(), 3: Script()})
    assert rec["illegal"] == 1 and rec["pos"][0] == 34


@pytest.mark.parametrize("facing, kneel, modifier", [
    (3, False, -5),        # standing, facing the mover
    (2, False, -5),        # front-left: no approach bonus
    (1, False, -5 + 2),    # side
    (5, False, -5 + 2),
    (0, False, -5 + 5),    # from behind
    (3, True, -2),         # kneeling
])
def test_m08_evade_contest(facing, kneel, modifier):
    # flesh (dx 9) stands next to the stalker (dx 11); it turns / kneels first, then he tries to pass.
    setup = build(distance=1, changes=MONSTER_FIRST, rules={"max_rounds": 1})
    wins = 0
    for trial in range(40):
        flesh = Script(man(S.M_ATTACK), code(S.STEP, S.KNEEL if kneel else S.STAY, facing), end())
        s = Script(man(S.M_MOVE), mv(0), code(S.TURN, 1), end())
        rec = play(setup, {0: s, 1: flesh}, trial=trial)
        r_m = Stream(SEED, trial, 0).roll(3, 6)
        r_e = Stream(SEED, trial, 1).roll(3, 6)
        win = 11 + modifier - r_m > 9 - r_e
        if win:
            assert rec["pos"][0] == 36 and rec["ap"][S.AP_MOVE] == 2 + 1 and rec["illegal"] == 0
        else:  # stays, pays 1 point / 1 AP, cannot move or turn any more
            assert rec["pos"][0] == 34 and rec["ap"][S.AP_MOVE] == 1 and rec["illegal"] == 1
        wins += win
    assert 0 < wins < 40


def test_m08_insubstantial_is_evaded_without_a_roll():
    setup = build(distance=1, changes={0: {"sequence": 20}, 1: {"insubstantial": True}}, rules={"max_rounds": 1})
    for trial in range(10):
        s = Script(man(S.M_MOVE), mv(0), code(S.SHOOT, 1), end())  # SHOOT illegal in MOVE
        rec = play(setup, {0: s, 1: Script()}, trial=trial)
        assert rec["pos"][0] == 36 and rec["ap"][S.AP_MOVE] == 2


# --------------------------------------------------------------------------
# A-04 items
# --------------------------------------------------------------------------


def test_a04_reload_from_spare():
    setup = build(changes={0: {"sequence": 20}, 1: {"max_hp": 1000}}, rules={"max_rounds": 2})
    s = Script(man(S.M_ATTACK), code(S.SHOOT, 1), code(S.SHOOT, 1),
               man(S.M_ATTACK), code(S.RELOAD), code(S.RELOAD))
    rec = play(setup, {0: s, 1: Script()})
    second = s.actions(2)
    assert (second[0]["mag"], second[0]["spare"]) == (4, 12)
    assert (second[1]["mag"], second[1]["spare"], second[1]["ap"]) == (6, 10, 6)
    assert rec["ap"][S.AP_RELOAD] == 2 and rec["illegal"] == 1  # a full magazine cannot be reloaded
    assert rec["shots"] == 2


def test_a04_empty_magazine_cannot_shoot():
    setup = build(party=("novice:berdanka",), changes={0: {"sequence": 20}, 1: {"max_hp": 1000}},
                  rules={"max_rounds": 1})
    rec = play(setup, {0: Script(man(S.M_ATTACK), code(S.SHOOT, 1), code(S.SHOOT, 1)), 1: Script()})
    assert rec["shots"] == 1 and rec["illegal"] == 1


def test_a04_equip_and_use_a_stimulator():
    # flesh always hits for exactly 5 (dice 0, bonus 5); then the stalker takes a stimulator (heal 4)
    setup = build(party=("novice:ak47,stimulator*2",), distance=1,
                  changes={1: {"sequence": 20, "dice": 0, "bonus": 5}},
                  rules={"max_rounds": 2, "hit_min": 100, "hit_max": 100})
    s = Script(man(S.M_ATTACK), code(S.EQUIP, 1), S.code(S.USE), code(S.SHOOT, 1),
               man(S.M_ATTACK), code(S.EQUIP, 0), code(S.SHOOT, 1), end())
    flesh = Script(man(S.M_ATTACK), code(S.SHOOT, 0), end(), man(S.M_ATTACK), end())
    rec = play(setup, {0: s, 1: flesh})
    a = s.actions(1)
    assert a[0]["hp"] == 20 and a[1]["hand"] == S.HAND_HEAL_A and a[1]["ap"] == 4
    assert a[2]["hp"] == 24 and a[2]["hand"] == S.HAND_EMPTY and a[2]["heal"] == [[1, 4], [0, 0]]
    assert rec["illegal"] == 1  # no firearm in hand
    assert rec["ap"][S.AP_EQUIP] == 8 and rec["ap"][S.AP_USE] == 3 and rec["shots"] == 1
    assert rec["damage_taken"] == 5 and rec["hp"][0] == 24


def test_a04_pickup_from_a_dead_stalker():
    # flesh kills stalker 1 (25 - 40 <= -5); stalker 0 walks onto the corpse and takes its rounds
    setup = build(party=("novice:ak47", "novice:ak47"), distance=1,
                  changes={0: {"pos": 35, "sequence": 1}, 1: {"pos": 36}, 2: {"pos": 37, "sequence": 20,
                                                                              "dice": 0, "bonus": 40}},
                  rules={"max_rounds": 1, "hit_min": 100, "hit_max": 100})
    s = Script(man(S.M_MOVE), mv(0), code(S.PICKUP, 1), code(S.PICKUP, 1), end())
    flesh = Script(man(S.M_ATTACK), code(S.SHOOT, 1), end())
    rec = play(setup, {0: s, 1: Script(), 2: flesh})
    a = s.actions()
    assert a[2]["spare"] == 12 + 6 + 12
    assert rec["illegal"] == 1 and rec["ap"][S.AP_PICKUP] == 4 and rec["alive"] == 1 and rec["all_alive"] == 0


# --------------------------------------------------------------------------
# A-05 mines, stand; A-06 first aid
# --------------------------------------------------------------------------


def test_a05_a_mine_goes_off():
    setup = build(party=("novice:ak47,limonka*2",), changes={0: {"sequence": 20, "traps": 100}},
                  rules={"max_rounds": 1})
    kills = 0
    for trial in range(8):
        s = Script(man(S.M_ATTACK), code(S.LAY_MINE), end())
        flesh = Script(man(S.M_MOVE_ATTACK), mv(3), mv(3), end())
        rec = play(setup, {0: s, 1: flesh}, trial=trial)
        assert s.actions()[1]["expl_count"] == 1
        stream = Stream(SEED, trial, 0)
        S.pct(stream)  # the laying roll
        damage = stream.roll(3, 6)
        assert rec["damage_dealt"] == damage and rec["hp"][1] == 10 - damage and rec["pos"][1] == 35
        assert rec["ap"][S.AP_MINE] == 6 and rec["illegal"] == 0
        assert rec["outcome"] == (S.WIN if damage >= 10 else S.DRAW) and rec["kills"] == int(damage >= 10)
        kills += damage >= 10
    assert 0 < kills < 8


def test_a05_mine_laying_can_fail():
    setup = build(party=("novice:ak47,limonka*2",), changes=FIRST, rules={"max_rounds": 1})
    outcomes = set()
    for trial in range(12):
        s = Script(man(S.M_ATTACK), code(S.LAY_MINE), code(S.LAY_MINE), end())
        rec = play(setup, {0: s, 1: Script()}, trial=trial)
        ok = S.pct(Stream(SEED, trial, 0)) <= 50
        assert s.actions()[1]["expl_count"] == (1 if ok else 2)
        assert rec["ap"][S.AP_MINE] == 6 and rec["illegal"] == 1  # 2 AP left < 6
        outcomes.add(ok)
    assert outcomes == {True, False}


def test_a05_knockdown_and_stand():
    setup = build(distance=1, changes={1: {"sequence": 20, "dice": 0, "bonus": 8}},
                  rules={"max_rounds": 1, "hit_min": 100, "hit_max": 100, "knockdown_damage": 8})
    s = Script(man(S.M_MOVE), code(S.STAND), mv(3), end())
    rec = play(setup, {0: s, 1: Script(man(S.M_ATTACK), code(S.SHOOT, 0), end())})
    a = s.actions()
    assert a[0]["posture"] == S.PRONE and a[0]["hp"] == 17
    assert a[1]["posture"] == S.STANDING and a[1]["ap"] == 4
    assert rec["illegal"] == 0 and rec["ap"][S.AP_STAND] == 4 and rec["ap"][S.AP_MOVE] == 1  # backward: 1 AP
    assert rec["ap"][S.AP_DEFEND] == 3 and rec["pos"][0] == 33
    # prone: no move, and a knocked-down fighter banks no AC
    rec = play(setup, {0: Script(man(S.M_MOVE), mv(3)), 1: Script(man(S.M_ATTACK), code(S.SHOOT, 0), end())})
    assert rec["illegal"] == 1 and rec["ap"][S.AP_DEFEND] == 8 and rec["pos"][0] == 34


def test_a06_first_aid_carries_over_to_the_next_turn():
    # Round 1: flesh knocks stalker 1 out (hp 25 - 25 = 0); stalker 0 starts first aid with his 8 AP.
    # Round 2: he pays the 2 AP left, the aid succeeds (medic_skill 100): stalker 1 at hp 1, no turn this round.
    setup = build(party=("novice:ak47", "novice:ak47"), distance=1,
                  changes={0: {"pos": 34, "sequence": 10, "medic_skill": 100}, 1: {"pos": 35, "sequence": 5},
                           2: {"pos": 36, "sequence": 20, "dice": 0, "bonus": 25}},
                  rules={"max_rounds": 3, "hit_min": 100, "hit_max": 100})
    healer = Script(man(S.M_ATTACK), code(S.FIRST_AID, 1), man(S.M_ATTACK), end())
    patient = Script()
    flesh = Script(man(S.M_ATTACK), code(S.SHOOT, 1), end())
    log = []
    rec = play(setup, {0: healer, 1: patient, 2: flesh}, log=log)
    assert [s["round"] for s in healer.seen if s["phase"] == S.PHASE_MANOEUVRE] == [1, 2, 3]
    round2 = next(s for s in healer.seen if s["round"] == 2)
    assert round2["ap"] == 6 and round2["aid_left"] == 0 and round2["medic_uses"] == 2
    assert rec["ap"][S.AP_FIRST_AID] == 10 and rec["ap"][S.AP_DEFEND] == 6 + 8 + 8  # rounds 2, 3 + patient in 3
    assert {r for (r, i, _, _) in log if i == 1} == {3}  # unconscious in 1, no_ap_round in 2
    assert patient.seen[0]["hp"] == 1 and patient.seen[0]["posture"] == S.PRONE
    assert rec["hp"][1] == 1 and rec["alive"] == 2 and rec["all_alive"] == 1


def test_a06_first_aid_can_fail_and_is_abandoned_when_the_target_dies():
    setup = build(party=("novice:ak47", "novice:ak47"), distance=1,
                  changes={0: {"pos": 34, "sequence": 10, "medic_skill": 0}, 1: {"pos": 35, "sequence": 5},
                           2: {"pos": 36, "sequence": 20, "dice": 0, "bonus": 25}},
                  rules={"max_rounds": 2, "hit_min": 100, "hit_max": 100, "first_aid_ap": 8})
    healer = Script(man(S.M_ATTACK), code(S.FIRST_AID, 1), man(S.M_ATTACK), end())
    rec = play(setup, {0: healer, 1: Script(), 2: Script(man(S.M_ATTACK), code(S.SHOOT, 1), end())})
    round2 = next(s for s in healer.seen if s["round"] == 2)
    assert round2["medic_uses"] == 2 and round2["ap"] == 8  # completed (and failed) in round 1
    assert S.pct(Stream(SEED, 0, 0)) > 0  # medic_skill 0: the roll always fails
    assert rec["hp"][1] == 0 and rec["ap"][S.AP_FIRST_AID] == 8 and rec["ap"][S.AP_DEFEND] == 8  # round 2 only
    # the flesh finishes him in round 2 before the healer's continuation: the aid is abandoned
    setup = build(party=("novice:ak47", "novice:ak47"), distance=1,
                  changes={0: {"pos": 34, "sequence": 10}, 1: {"pos": 35, "sequence": 5},
                           2: {"pos": 36, "sequence": 20, "dice": 0, "bonus": 25}},
                  rules={"max_rounds": 2, "hit_min": 100, "hit_max": 100})
    healer = Script(man(S.M_ATTACK), code(S.FIRST_AID, 1), man(S.M_ATTACK), end())
    flesh = Script(man(S.M_ATTACK), code(S.SHOOT, 1), end(), man(S.M_ATTACK), code(S.SHOOT, 1), end())
    rec = play(setup, {0: healer, 1: Script(), 2: flesh})
    assert rec["hp"][1] == -25 and rec["ap"][S.AP_FIRST_AID] == 8
    assert healer.seen[-2]["ap"] == 8 and healer.seen[-2]["aid_left"] == 0  # nothing paid in round 2


def test_a06_unconscious_mine_victim_ends_the_turn_without_end():
    # The turn of a fighter downed by a mine stops at once, with no END ("A turn", amended).
    setup = build(party=("novice:ak47,limonka", "novice:ak47"), distance=5,
                  changes={0: {"sequence": 20, "traps": 100, "max_hp": 1}, 1: {"pos": 0}},
                  rules={"max_rounds": 2, "dead_at_hp": -100})
    s = Script(man(S.M_ATTACK), code(S.LAY_MINE), end(), man(S.M_MOVE), mv(0), end())
    log = []
    rec = play(setup, {0: s, 1: Script(), 2: Script()}, log=log)
    assert rec["hp"][0] < 0 and rec["pos"][0] == 35 and rec["ap"][S.AP_MOVE] == 1
    assert rec["ap"][S.AP_DEFEND] == 2 + 8 + 8  # his round 1 END, stalker 1's two turns; nothing after the mine
    assert not [x for x in log if x[0] == 2 and x[1] == 0 and x[2] & 0xFF == S.END]
    assert rec["outcome"] == S.DRAW and rec["alive"] == 2


# --------------------------------------------------------------------------
# Outcomes, determinism, built-in strategies
# --------------------------------------------------------------------------


def test_outcomes_win_and_loss():
    win = build(changes={0: {"sequence": 20}, 1: {"max_hp": 1}}, rules={"hit_min": 100, "hit_max": 100})
    log = []
    rec = play(win, {0: Script(man(S.M_ATTACK), code(S.SHOOT, 1), end()), 1: Script()}, log=log)
    assert (rec["outcome"], rec["rounds"], rec["kills"], rec["alive"], rec["all_alive"]) == (S.WIN, 1, 1, 1, 1)
    assert len(log) == 2  # the skirmish ends at once, no END asked
    assert rec["ap"][S.AP_DEFEND] == 0  # ... and none done: the 3 AP left are not banked
    loss = build(distance=1, changes={1: {"sequence": 20, "dice": 0, "bonus": 20}},
                 rules={"hit_min": 100, "hit_max": 100})
    # round 1: 25 - 20 = 5; the second shot (2 AP left) is illegal; round 2: 5 - 20 = -15 <= -5: dead
    flesh = Script(man(S.M_ATTACK), code(S.SHOOT, 0), code(S.SHOOT, 0), man(S.M_ATTACK), code(S.SHOOT, 0))
    rec = play(loss, {0: Script(), 1: flesh})
    assert (rec["outcome"], rec["rounds"], rec["alive"], rec["all_alive"]) == (S.LOSS, 2, 0, 0)
    assert rec["hp"][0] == -15 and rec["damage_taken"] == 40 and rec["illegal"] == 1
    draw = build(rules={"max_rounds": 3})
    rec = play(draw, {0: Script(), 1: Script()})
    assert (rec["outcome"], rec["rounds"], rec["alive"], rec["all_alive"]) == (S.DRAW, 3, 1, 1)


def test_determinism_and_trials_differ():
    setup = build(party=("novice:ak47,stimulator", "doktor:kvazar"), monsters=("snork", "flesh"), size=12,
                  distance=6)
    a = S.run(setup, SEED, 6)
    b = [S.play(setup, SEED, t) for t in range(6)]
    assert a == b
    assert S.run(setup, SEED, 2, trial_start=3) == a[3:5]
    assert len({repr(r) for r in a}) > 1
    assert S.run(setup, SEED + 1, 6) != a


@pytest.mark.parametrize("strategy", ["hold", "kite", "rush"])
def test_builtin_strategies_play_legally(strategy):
    setup = build(party=("novice:ak47,vest,stimulator*2,limonka*2", "doktor:kvazar,combat_stimulator"),
                  monsters=("snork", "flesh"), size=15, distance=8, strategy=strategy)
    for trial in range(10):
        log = []
        rec = S.play(setup, SEED, trial, log=log)
        assert all(ok for (_, i, _, ok) in log if i < 2)  # the stalkers' strategies never answer illegally
        assert rec["outcome"] in (S.WIN, S.LOSS, S.DRAW) and 1 <= rec["rounds"] <= 20
        assert rec["hits"] <= rec["shots"] and len(rec["ap"]) == 10
        assert sum(rec["ap"]) >= 8  # every stalker turn spends or banks its AP


def test_beast_closes_in_and_attacks():
    setup = build(distance=2, rules={"max_rounds": 1}, changes={1: {"sequence": 20}})
    log = []
    S.play(setup, SEED, 0, strategies={0: Script()}, log=log)
    beast = [c for (_, i, c, _) in log if i == 1]
    # MOVE_ATTACK (range 1 < 2), step west, shoot (6 - 1 >= 4 AP), END facing the stalker (west)
    assert beast == [man(S.M_MOVE_ATTACK), mv(3), code(S.SHOOT, 0, 0), end(3)]


def test_hold_steps_fires_aimed_then_reloads():
    setup = build(changes={0: {"sequence": 20}, 1: {"max_hp": 1000}}, rules={"max_rounds": 1})
    log = []
    S.play(setup, SEED, 0, strategies={1: Script()}, log=log)
    hold = [c for (_, i, c, _) in log if i == 0]
    assert hold == [man(S.M_ATTACK), code(S.STEP, S.STAY, 0), code(S.SHOOT, 1, 1), code(S.RELOAD), end(0)]


# --------------------------------------------------------------------------
# Amendments: candidate moves need a standing, unlocked mover in a moving
# manoeuvre; approach's way round; beast rule 0 (STAND); stalker rule 7 needs
# the firearm in hand.
# --------------------------------------------------------------------------


def _state(setup, i=0, **fields):
    """A fresh State with fighter i's fields set (as during its turn)."""
    state = S.State(setup)
    state.phase = S.PHASE_ACTION
    state.current = i
    for name, value in fields.items():
        setattr(state.fighters[i], name, value)
    return state


def _answers(log, i):
    return [(c, ok) for (_, j, c, ok) in log if j == i]


def test_candidates_need_a_standing_unlocked_mover_in_a_moving_manoeuvre():
    setup = build(distance=5)
    base = dict(manoeuvre=S.M_MOVE, pts=5, ap=8)
    for m in (S.M_MOVE, S.M_MOVE_ATTACK, S.M_ALL_OUT_ATTACK, S.M_ALL_OUT_DEFENCE):
        state = _state(setup, **dict(base, manoeuvre=m))
        assert S.candidates(state, 0)
    assert S.approach(_state(setup, **base), 0, 1) == mv(0)
    for change in (dict(posture=S.PRONE), dict(posture=S.KNEELING), dict(move_locked=True),
                   dict(manoeuvre=S.M_ATTACK), dict(manoeuvre=S.M_NONE)):
        state = _state(setup, **dict(base, **change))
        assert S.candidates(state, 0) == []
        assert S.approach(state, 0, 1) is None and S.retreat(state, 0) is None


def test_beast_knocked_prone_stands_up_then_walks():
    # The stalker knocks flesh (6 AP, move 4) down from 3 hexes; flesh stands (4 AP) and walks 2 hexes west.
    setup = build(distance=3, changes={0: {"sequence": 20, "dice": 0, "bonus": 10}, 1: {"max_hp": 100}},
                  rules={"max_rounds": 1, "hit_min": 100, "hit_max": 100, "knockdown_damage": 10})
    log = []
    rec = S.play(setup, SEED, 0, strategies={0: Script(man(S.M_ATTACK), code(S.SHOOT, 1, 1), end())}, log=log)
    assert _answers(log, 1) == [(man(S.M_MOVE_ATTACK), True), (code(S.STAND), True), (mv(3), True), (mv(3), True)]
    assert rec["hp"][1] == 90 and rec["pos"][1] == 35 and rec["illegal"] == 0


def test_beast_prone_without_the_ap_to_stand_does_not_try_to_move():
    setup = build(distance=3, changes={0: {"sequence": 20, "dice": 0, "bonus": 10}, 1: {"max_hp": 100}},
                  rules={"max_rounds": 1, "hit_min": 100, "hit_max": 100, "knockdown_damage": 10,
                         "stand_ap": 7})  # flesh has 6 AP
    log = []
    rec = S.play(setup, SEED, 0, strategies={0: Script(man(S.M_ATTACK), code(S.SHOOT, 1, 1), end())}, log=log)
    assert _answers(log, 1) == [(man(S.M_MOVE_ATTACK), True), (end(3), True)]
    assert rec["pos"][1] == 37 and rec["illegal"] == 0


def test_beast_walks_round_a_monster_in_its_way():
    # Stalker on 34 = (4, 2); flesh 1 on 35 = (4, 3) next to him, flesh 2 on 36 = (4, 4) behind it, facing W.
    # No free forward neighbour of 36 is closer (27 = (3, 3) and 43 = (5, 3) are 2 away, like 36), so the
    # way round: walk from 34 avoiding 35: 26, 42 -> 1; 27, 43 -> 2; 36 -> 3. Ties on (2, 1, 1): least d = 2 (NW).
    setup = build(monsters=("flesh", "flesh"), distance=2, changes={1: {"pos": 35}, 2: {"pos": 36}},
                  rules={"max_rounds": 1})
    state = _state(setup, 2, manoeuvre=S.M_MOVE_ATTACK, pts=4, ap=6)
    steps = S.walk(state, 2, 0)
    assert (steps[34], steps[26], steps[42], steps[27], steps[43], steps[36]) == (0, 1, 1, 2, 2, 3)
    assert steps[35] == S.INF  # occupied
    assert S.approach(state, 2, 0) == mv(2)
    log = []
    rec = S.play(setup, SEED, 0, strategies={0: Script(), 1: Script()}, log=log)
    # NW to 27 (facing 2), then W (rel 1, mode 0) to 26 = (3, 2), adjacent: shoot with the 4 AP left.
    assert _answers(log, 2) == [(man(S.M_MOVE_ATTACK), True), (mv(2), True), (mv(3), True),
                                (code(S.SHOOT, 0, 0), True)]
    assert rec["pos"][2] == 26 and rec["facing"][2] == 3


def _walled(rows_blocked):
    grid = [[1] * 8 for _ in range(7)]
    for r in rows_blocked:
        grid[r][3] = 0
    # stalker on (3, 1) = 25, flesh on (3, 4) = 28 facing W, the wall in column 3
    return build(grid=grid, distance=3, changes={0: {"pos": 25}, 1: {"pos": 28, "facing": 3}})


def test_approach_way_round_follows_the_walk_and_gives_up_when_walled_in():
    # Wall (r, 3) for r = 0..5: the only way round is through row 6, so SW (d 4, to 36 = (4, 4))
    # beats NW (d 2, to 20 = (2, 4)) although neither is closer by dist (both 3, like 28).
    setup = _walled(range(6))
    state = _state(setup, 1, manoeuvre=S.M_MOVE_ATTACK, pts=4, ap=6)
    assert state.dist[36][25] == state.dist[20][25] == state.dist[28][25] == 3
    steps = S.walk(state, 1, 0)
    assert steps[36] < steps[28] < steps[20]
    assert S.approach(state, 1, 0) == mv(4)
    # Not enough points for a forward hex: no candidate, no way round.
    assert S.approach(_state(setup, 1, manoeuvre=S.M_MOVE_ATTACK, pts=0, ap=6), 1, 0) is None
    # The wall closed (rows 0..6): the target cannot be reached, walk is infinite, no approach.
    setup = _walled(range(7))
    state = _state(setup, 1, manoeuvre=S.M_MOVE_ATTACK, pts=4, ap=6)
    assert S.walk(state, 1, 0)[28] == S.INF
    assert S.approach(state, 1, 0) is None


def test_prone_stalker_never_answers_move():
    # A range-3 flesh knocks the rush stalker down from 3 hexes each round (10 damage).
    changes = {0: {"max_hp": 100}, 1: {"sequence": 20, "range": 3, "dice": 0, "bonus": 10, "max_hp": 1000}}
    rules = {"max_rounds": 2, "hit_min": 100, "hit_max": 100, "knockdown_damage": 10}
    flesh = Script(man(S.M_ATTACK), code(S.SHOOT, 0), end(), man(S.M_ATTACK), code(S.SHOOT, 0), end())
    # stand_ap 9 > his 8 AP: he cannot stand, approach gives nothing, he shoots from the ground instead
    setup = build(distance=3, strategy="rush", changes=changes, rules=dict(rules, stand_ap=9))
    log = []
    rec = S.play(setup, SEED, 0, strategies={1: copy.deepcopy(flesh)}, log=log)
    answers = _answers(log, 0)
    assert all(ok for _, ok in answers) and rec["illegal"] == 0
    assert not [c for c, _ in answers if c & 0xFF == S.MOVE]
    assert code(S.SHOOT, 1, 1) in [c for c, _ in answers] and rec["pos"][0] == 34
    # with stand_ap 4 he stands up first, then walks in
    setup = build(distance=3, strategy="rush", changes=changes, rules=dict(rules, max_rounds=1))
    log = []
    rec = S.play(setup, SEED, 0, strategies={1: copy.deepcopy(flesh)}, log=log)
    assert _answers(log, 0) == [(man(S.M_MOVE_ATTACK), True), (code(S.STAND), True), (mv(0), True),
                                (mv(0), True), (end(0), True)]
    assert rec["pos"][0] == 36


def test_stalker_rule7_needs_the_firearm_in_hand():
    # 3 AP left with a stimulator in hand: too few to EQUIP the firearm (equip_ap 5), enough for a shot
    # (attack_ap 2): rule 7 does not shoot, rule 10 ends facing the flesh.
    setup = build(party=("novice:ak47,stimulator",), changes={0: {"attack_ap": 2, "aimed_ap": 0}},
                  rules={"equip_ap": 5})
    for name in ("hold", "kite", "rush"):
        state = _state(setup, manoeuvre=S.M_ATTACK, ap=3, step_used=True, hand=S.HAND_HEAL_A)
        assert S.STRATEGIES[name](state, 0) == end(0)
        state.fighters[0].hand = S.HAND_FIREARM
        assert S.STRATEGIES[name](state, 0) == code(S.SHOOT, 1, 0)
    # In play: hold after EQUIP stimulator (8 - 5 = 3 AP): STEP 6, then END, not SHOOT.
    setup = build(party=("novice:ak47,stimulator",), changes={0: {"sequence": 20, "attack_ap": 2, "aimed_ap": 0}},
                  rules={"max_rounds": 1, "equip_ap": 5})
    hold = S.STRATEGIES["hold"]
    prefix = [man(S.M_ATTACK), code(S.EQUIP, 1)]

    def strategy(state, i):
        return prefix.pop(0) if prefix else hold(state, i)

    log = []
    rec = S.play(setup, SEED, 0, strategies={0: strategy, 1: Script()}, log=log)
    assert _answers(log, 0) == [(man(S.M_ATTACK), True), (code(S.EQUIP, 1), True),
                                (code(S.STEP, S.STAY, 0), True), (end(0), True)]
    assert rec["shots"] == 0 and rec["illegal"] == 0


# --------------------------------------------------------------------------
# The reference's own hex geometry against the arena tables the kernel uses
# --------------------------------------------------------------------------


def _compare_geometry(arena):
    """nbr, dist and los of the reference (plane points, doubled coordinates)
    equal the content's (offset steps, cube distance, cube line) for every hex
    (pair)."""
    mult = tuple(int(m) for m in arena.mult)
    nbr, dist, los = S.geometry(arena.cols, arena.rows, mult)
    n = len(mult)
    assert nbr == arena.nbr.tolist()
    assert dist == arena.dist.tolist()
    assert [[los[a][b] for b in range(n)] for a in range(n)] == arena.los.tolist()


def test_m01_a07_reference_geometry_equals_the_kernels_on_the_default_arena():
    _compare_geometry(load_arena(_content()[1]))


@pytest.mark.parametrize("seed", range(6))
def test_m01_a07_reference_geometry_equals_the_kernels_on_random_arenas(seed):
    import random

    rnd = random.Random(seed)
    rows, cols = rnd.randint(2, 9), rnd.randint(2, 9)
    _compare_geometry(build_arena([[0 if rnd.random() < 0.3 else rnd.randint(1, 3) for _ in range(cols)]
                                   for _ in range(rows)]))


def test_a07_sight_along_the_zigzag_edge_is_not_blocked_by_the_far_side():
    """A line between (0, 0) and (2, 0) runs along the arena's left edge between
    (1, 0) and no hex at all: one side is open, so sight is clear even with (1, 0)
    and (0, 2) (the hex a naive index of the missing (1, -1) lands on) blocked."""
    arena = build_arena([[1, 1, 0], [0, 1, 1], [1, 1, 1]])
    assert arena.los[0, 6] and S.geometry(3, 3, tuple(int(m) for m in arena.mult))[2][0][6]


def test_m04_m05_m08_facings_and_sides_equal_the_kernels():
    """Where a direction lies seen from a facing (ahead, front side, back side,
    behind: M-04 front hexes, M-08 side / behind), the hex sides between facings
    (M-05) and the end-of-turn turn toward a facing, for every pair of facings."""
    import sim.kernels.skirmish as K

    kind = {0: 0, 1: 1, 5: 1, 2: 2, 4: 2, 3: 3}
    for d in range(6):
        for f in range(6):
            assert S.bearing(d, f) == kind[K.rel(d, f)] == K.sides(d, f)
            for k in range(4):
                step = min(k, K.sides(d, f))
                assert S.turned(f, d, k) == (f + (step if K.rel(d, f) <= 3 else 6 - step)) % 6
