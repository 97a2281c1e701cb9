"""The numba skirmish kernel equals the plain-Python reference (two independent
readings of docs/skirmish-resolution.md) skirmish for skirmish: every record
field and every strategy answer with its legality, in order.
(``chaos``, a state-driven pseudo-random strategy of ``tests.crosscheck.agree``,
makes every action kind, its illegal cases and the rare rules come up).
"""

from dataclasses import replace
from types import MappingProxyType

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sim.kernels.skirmish as K
from sim.content.skirmish import build_arena, load_arena, load_skirmish, make_setup, parse_member
from tests.crosscheck.agree import skirmishes_agree


@pytest.fixture(scope="module")
def sk(content):
    return load_skirmish(content)


def _setup(content, sk, party, monsters, strategy="hold", size=None, distance=None):
    return make_setup(content, sk, [parse_member(content, p) for p in party], monsters,
                      load_arena(sk, size=size), strategy, distance)


@pytest.mark.parametrize("strategy", ["hold", "kite", "rush"])
def test_default_skirmish_matches_reference(content, sk, strategy):
    setup = _setup(content, sk, ["novice:ak47,vest,stimulator*2"], ["bloodsucker", "blind_dog"], strategy)
    got = skirmishes_agree(setup, strategy, seed=3, trials=150)
    assert {rec[0] for rec, _ in got} >= {K.WIN, K.LOSS}


@pytest.mark.parametrize("strategy", ["hold", "kite", "rush", "chaos"])
def test_party_with_medic_mines_and_berdanka_matches_reference(content, sk, strategy):
    party = ["doktor:berdanka,rifling,helmet,stimulator*2,limonka*3", "verzila:ak47,laser_sight,vest,combat_stimulator",
             "gromoboi:kvazar,leather_jacket,stimulator,combat_stimulator,molotov*2"]
    setup = _setup(content, sk, party, ["snork", "boar", "flesh", "controller"], strategy, distance=6)
    got = skirmishes_agree(setup, strategy, seed=11, trials=120)
    ap = np.array([rec[K.R_AP:] for rec, _ in got]).sum(axis=0)
    used = {K.AP_KINDS[k] for k in np.flatnonzero(ap)}
    assert {"shoot", "reload", "defend"} | ({"move"} if strategy != "hold" else set()) <= used


def test_chaos_monsters_and_party_match_reference(content, sk):
    setup = _setup(content, sk, ["novice:ak47,vest,stimulator*2,tyoshcha*2", "doktor:ak47,stimulator"],
                   ["bloodsucker", "blind_dog", "snork"], "hold", distance=3)
    got = skirmishes_agree(setup, "chaos", seed=5, trials=200, monsters_name="chaos")
    codes = {c & 255 for _, log in got for (_, _, c, ok) in log if ok}
    assert codes >= {K.MOVE, K.TURN, K.STEP, K.SHOOT, K.RELOAD, K.EQUIP, K.STAND, K.LAY_MINE, K.MANOEUVRE}


def _random_setup(data, content, sk):
    rows, cols = data.draw(st.integers(3, 9)), data.draw(st.integers(3, 9))
    grid = [[data.draw(st.sampled_from([1, 1, 1, 2, 3, 0])) for _ in range(cols)] for _ in range(rows)]
    arena = build_arena(grid)
    free = [h for h in range(rows * cols) if arena.mult[h] > 0]
    n_party, n_mon = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3))
    if len(free) < n_party + n_mon:
        grid = [[1] * cols for _ in range(rows)]
        arena = build_arena(grid)
        free = list(range(rows * cols))
    spots = data.draw(st.permutations(free))[:n_party + n_mon]
    chars = list(content.characters)
    guns = ["berdanka", "ak47", "kvazar"]
    party = [parse_member(content, f"{data.draw(st.sampled_from(chars))}:{data.draw(st.sampled_from(guns))},"
                                   f"stimulator*{data.draw(st.integers(0, 2))},limonka*{data.draw(st.integers(0, 2))}")
             for _ in range(n_party)]
    monsters = [data.draw(st.sampled_from(list(content.monsters))) for _ in range(n_mon)]
    rules = dict(sk.rules)
    rules.update(knockdown_damage=data.draw(st.integers(0, 9)), dead_at_hp=data.draw(st.integers(-8, 0)),
                 max_rounds=data.draw(st.integers(1, 12)), kite_distance=data.draw(st.integers(1, 5)),
                 ap_base=data.draw(st.integers(0, 6)), kneel_ap=data.draw(st.integers(0, 2)))
    # the and M-03..M-08 numbers of the content, changed alike in both engines
    for name, low, high in (("hex_ap", 1, 2), ("forward_points", 1, 2), ("sideways_points", 1, 3),
                            ("turn_points", 1, 2), ("ally_points", 0, 2), ("sprint_points", 0, 2),
                            ("half_divisor", 1, 3), ("end_turn_sides", 0, 3), ("evade_standing", -6, 6),
                            ("evade_kneeling", -6, 6), ("evade_prone", -6, 6), ("evade_side", -6, 6),
                            ("evade_behind", -6, 6), ("evade_dice", 1, 4), ("sequence_die", 1, 12),
                            ("first_aid_hp", 1, 3)):
        rules[name] = data.draw(st.integers(low, high))
    base = make_setup(content, sk, party, monsters, load_arena(sk, size=9), "hold", 1)
    fighters = []
    for f, h in zip(base.fighters, spots):
        f = dict(f, pos=h, facing=data.draw(st.integers(0, 5)), insubstantial=data.draw(st.booleans()),
                 sequence=data.draw(st.integers(0, 3)), dx=data.draw(st.integers(6, 14)),
                 move=data.draw(st.integers(1, 8)), agility=data.draw(st.integers(0, 8)))
        fighters.append(MappingProxyType(f))
    return replace(base, arena=arena, rules=MappingProxyType(rules), fighters=tuple(fighters))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_arenas_fighters_and_rules_match_reference(content, sk, data):
    setup = _random_setup(data, content, sk)
    party = data.draw(st.sampled_from(["hold", "kite", "rush", "chaos"]))
    monsters = data.draw(st.sampled_from(["beast", "chaos"]))
    skirmishes_agree(setup, party, seed=data.draw(st.integers(0, 2**32)), trials=6, monsters_name=monsters)
