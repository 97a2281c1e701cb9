"""Tests of the plain-Python reference fight (sim.reference.fight) on its own.

Each test is named by the rule id it checks (docs/rules/index.md) or by `rng` for the
random-number contract of docs/fight-resolution.md.  Expected values are
computed by hand or by independent expressions, never by the code under test.
"""

import copy
import math
from fractions import Fraction
from pathlib import Path

import pytest

from sim.reference.fight import (
    ESCAPE,
    GOLDEN,
    MONSTER,
    STALKER,
    Stream,
    load_content,
    mix,
    run_fights,
    simulate_fight,
    stream_key,
    stream_word,
)

CONTENT_DIR = Path(__file__).resolve().parents[2] / "sim" / "content" / "default"
TWO64 = 2**64
SEED = 12345


@pytest.fixture(scope="module")
def content():
    return load_content(CONTENT_DIR)


def loadout(**kw):
    base = {
        "character": "novice",
        "weapon": None,
        "mods": [],
        "head": None,
        "body": None,
        "healing": {},
        "explosives": {},
        "escape_item": None,
        "reputation": 5,
        "hp": None,
    }
    base.update(kw)
    return base


def with_monster(content, monster_id, hp, dice, bonus=0, defence=0):
    """A copy of the content with an extra monster (dice = 0 rolls nothing: a fixed hit)."""
    c = copy.deepcopy(content)
    c["monsters"][monster_id] = {"name": monster_id, "hp": hp, "dice": dice, "bonus": bonus, "defence": defence}
    return c


def predicted_win_round(seed, trial, attacks, hp, defence=0):
    """Replay the STALKER stream for a list of (n_dice, bonus) attacks, one per round."""
    s = Stream(seed, trial, STALKER)
    for r, (n, bonus) in enumerate(attacks, start=1):
        hp -= max(0, s.roll(n, 6) + bonus - defence)
        if hp <= 0:
            return r
    return None


# --------------------------------------------------------------------------
# Random numbers
# --------------------------------------------------------------------------


def _mix_independent(z):
    # Same formula written with % 2**64 and explicit xor-shifts.
    z %= TWO64
    z = ((z ^ (z >> 30)) * 13787848793156543929) % TWO64
    z = ((z ^ (z >> 27)) * 10723151780598845931) % TWO64
    return z ^ (z >> 31)


def test_rng_mix_known_values():
    assert mix(0) == 0
    # splitmix64 seeded with 0: its outputs are mix(n * GOLDEN), the published
    # sequence 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F.
    assert stream_word(0, 1) == 0xE220A8397B1DCDAF
    assert stream_word(0, 2) == 0x6E789E6AA1B965F4
    assert stream_word(0, 3) == 0x06C45D188009454F
    for z in (1, 2, 12345, GOLDEN, TWO64 - 1, 0xDEADBEEFCAFEBABE):
        assert mix(z) == _mix_independent(z)
        assert 0 <= mix(z) < TWO64


def test_rng_stream_key_and_first_word():
    for seed, trial, purpose in [(0, 0, STALKER), (SEED, 7, MONSTER), (2**63 + 5, 999, ESCAPE)]:
        g = 0x9E3779B97F4A7C15
        k = _mix_independent(_mix_independent(_mix_independent(seed) + (trial + 1) * g) + (purpose + 1) * g)
        assert stream_key(seed, trial, purpose) == k
        s = Stream(seed, trial, purpose)
        assert s.next_word() == _mix_independent(k + 1 * g)
        assert s.next_word() == _mix_independent(k + 2 * g)
    # purposes and trials give different streams
    keys = {stream_key(SEED, t, p) for t in range(5) for p in (STALKER, MONSTER, ESCAPE)}
    assert len(keys) == 15


@pytest.mark.parametrize("sides", [6, 20, 2])
def test_rng_dice_are_base_s_digits_8_per_word(sides):
    key = stream_key(SEED, 3, MONSTER)
    s = Stream(SEED, 3, MONSTER)
    got = [s.die(sides) for _ in range(16)]
    expected = []
    for n in (1, 2):  # 8 dice per word, then the next word
        frac = Fraction(_mix_independent(key + n * GOLDEN), TWO64)
        for _ in range(8):
            frac *= sides
            digit = math.floor(frac)
            expected.append(digit + 1)
            frac -= digit
    assert got == expected


def test_rng_roll_sums_dice_in_sequence():
    a = Stream(SEED, 0, STALKER)
    b = Stream(SEED, 0, STALKER)
    assert a.roll(3, 6) == sum(b.die(6) for _ in range(3))
    assert a.roll(10, 6) == sum(b.die(6) for _ in range(10))  # crosses a word boundary
    assert a.roll(0, 6) == 0


def test_rng_dice_in_range_and_roughly_uniform():
    s = Stream(SEED, 0, STALKER)
    n = 60_000
    counts = [0] * 7
    for _ in range(n):
        d = s.die(6)
        assert 1 <= d <= 6
        counts[d] += 1
    se = math.sqrt(n * (1 / 6) * (5 / 6))
    for face in range(1, 7):
        assert abs(counts[face] - n / 6) <= 4 * se, (face, counts)
    for sides in (2, 3, 10, 20):
        s = Stream(SEED, 1, MONSTER)
        faces = {s.die(sides) for _ in range(2000)}
        assert faces == set(range(1, sides + 1))


# --------------------------------------------------------------------------
# Characters (Z-02..Z-05)
# --------------------------------------------------------------------------


def test_z02_max_hp_base_and_verzila(content):
    # reputation 0 -> the runner always escapes (Z-33) and keeps his start hp.
    for char, hp in (("novice", 25), ("verzila", 35)):
        res = simulate_fight(content, loadout(character=char, reputation=0), ["chimera"], "runner", SEED, 0)
        assert res == {"outcome": "escape", "rounds": 0, "hp_left": hp, "used": {}}


def test_z03_doktor_plus_two_per_use(content):
    # Pre-fight medkit: +5, Doktor +7.
    for char, hp in (("novice", 15), ("doktor", 17)):
        lo = loadout(character=char, reputation=0, hp=10, healing={"medkit": 1})
        res = simulate_fight(content, lo, ["blind_dog"], "runner", SEED, 0)
        assert (res["outcome"], res["hp_left"], res["used"]) == ("escape", hp, {"medkit": 1})
    # Two medkits: +2 on each use (10 -> 17 -> 24 for Doktor).
    lo = loadout(character="doktor", reputation=0, hp=10, healing={"medkit": 2})
    res = simulate_fight(content, lo, ["blind_dog"], "runner", SEED, 0)
    assert (res["hp_left"], res["used"]) == (24, {"medkit": 2})
    # In combat: a fixed 10-damage hit at hp 5 leaves -5; a stimulator (+4) cannot
    # save a novice (-1), but saves Doktor (+6 -> 1).
    c = with_monster(content, "hitter", hp=100, dice=0, bonus=10)
    lo = loadout(character="novice", hp=5, healing={"stimulator": 1})
    assert simulate_fight(c, lo, ["hitter"], "fighter", SEED, 0) == {
        "outcome": "death", "rounds": 1, "hp_left": -5, "used": {}}
    lo = loadout(character="doktor", hp=5, healing={"stimulator": 1})
    assert simulate_fight(c, lo, ["hitter"], "fighter", SEED, 0) == {
        "outcome": "death", "rounds": 2, "hp_left": -9, "used": {"stimulator": 1}}


def test_z04_mazhor_money_does_not_change_fights(content):
    lo = loadout(weapon="ak47", mods=["rebored"], body="vest", healing={"stimulator": 2})
    a = run_fights(content, lo, ["bloodsucker"], "fighter", SEED, 200)
    b = run_fights(content, dict(lo, character="mazhor"), ["bloodsucker"], "fighter", SEED, 200)
    assert a == b


def test_z05_gromoboi_plus_two_on_firearm_and_explosives(content):
    c = with_monster(content, "dummy", hp=40, dice=0, bonus=0, defence=1)
    lo = loadout(character="gromoboi", weapon="berdanka", mods=["rifling"], explosives={"limonka": 2})
    attacks = [(3, 2), (3, 2)] + [(1, 4)] * 28  # limonka 3d6+2 twice, then berdanka 1d6+2+2
    for t in range(100):
        res = simulate_fight(c, lo, ["dummy"], "fighter", SEED, t)
        expected = predicted_win_round(SEED, t, attacks, 40, defence=1)
        assert res["outcome"] == ("win" if expected else "draw")
        assert res["rounds"] == (expected or 30)
        assert res["used"] == {"limonka": 2}


# --------------------------------------------------------------------------
# Death and rescue (Z-08)
# --------------------------------------------------------------------------


def test_z08_death_only_when_stims_cannot_save(content):
    # No weapon; a fixed 10-damage hit each round: 25 -> 15 -> 5 -> -5.
    c = with_monster(content, "hitter", hp=100, dice=0, bonus=10)
    res = simulate_fight(c, loadout(), ["hitter"], "fighter", SEED, 0)
    assert res == {"outcome": "death", "rounds": 3, "hp_left": -5, "used": {}}
    # One stimulator: -5 + 4 = -1 < 1 -> death, and the stimulator is not used.
    res = simulate_fight(c, loadout(healing={"stimulator": 1}), ["hitter"], "fighter", SEED, 0)
    assert res == {"outcome": "death", "rounds": 3, "hp_left": -5, "used": {}}
    # Two: -5 + 8 = 3 -> saved with both; round 4: 3 - 10 = -7 -> death.
    res = simulate_fight(c, loadout(healing={"stimulator": 2}), ["hitter"], "fighter", SEED, 0)
    assert res == {"outcome": "death", "rounds": 4, "hp_left": -7, "used": {"stimulator": 2}}
    # hp 6 -> -4: -4 + 4 = 0 < 1 -> death.
    res = simulate_fight(c, loadout(hp=6, healing={"stimulator": 1}), ["hitter"], "fighter", SEED, 0)
    assert res == {"outcome": "death", "rounds": 1, "hp_left": -4, "used": {}}
    # hp 7 -> -3, +4 = 1 >= 1: saved.
    res = simulate_fight(c, loadout(hp=7, healing={"stimulator": 1}), ["hitter"], "fighter", SEED, 0)
    assert res == {"outcome": "death", "rounds": 2, "hp_left": -9, "used": {"stimulator": 1}}


def test_z08_medkits_never_rescue(content):
    # Z-31: medkits only out of combat; at full hp none is used before the fight,
    # and they do not count in the death check.
    c = with_monster(content, "hitter", hp=100, dice=0, bonus=10)
    lo = loadout(healing={"medkit": 3, "army_medkit": 3})
    res = simulate_fight(c, lo, ["hitter"], "fighter", SEED, 0)
    assert res == {"outcome": "death", "rounds": 3, "hp_left": -5, "used": {}}


def test_z08_rescue_picks_fewest_stimulators(content):
    c = with_monster(content, "hitter", hp=100, dice=0, bonus=10)
    c["rules"]["fight"]["max_rounds"] = 1  # look at the first rescue only
    # hp 5 -> -5, need 6: one combat stimulator (8) beats two stimulators (8).
    lo = loadout(hp=5, healing={"stimulator": 3, "combat_stimulator": 1})
    res = simulate_fight(c, lo, ["hitter"], "fighter", SEED, 0)
    assert res == {"outcome": "draw", "rounds": 1, "hp_left": 3, "used": {"combat_stimulator": 1}}
    # hp 2 -> -8, need 9: no single item does it; two items: 4+8 = 12 is the
    # smallest total (8+8 = 16 also works).
    lo = loadout(hp=2, healing={"stimulator": 1, "combat_stimulator": 2})
    res = simulate_fight(c, lo, ["hitter"], "fighter", SEED, 0)
    assert res == {"outcome": "draw", "rounds": 1, "hp_left": 4, "used": {"stimulator": 1, "combat_stimulator": 1}}
    # Whole fight, default 30 rounds: round 1 combat stimulator (-5 -> 3); round 2
    # 3 -> -7, need 8: two stimulators (-> 1); round 3 1 -> -9, one stimulator left
    # (-9 + 4 < 1): death.
    c30 = with_monster(content, "hitter", hp=100, dice=0, bonus=10)
    lo = loadout(hp=5, healing={"stimulator": 3, "combat_stimulator": 1})
    res = simulate_fight(c30, lo, ["hitter"], "fighter", SEED, 0)
    assert res == {"outcome": "death", "rounds": 3, "hp_left": -9,
                   "used": {"combat_stimulator": 1, "stimulator": 2}}


def test_z08_rescue_smallest_total_then_more_of_earlier_items(content):
    # A content with three in-combat items: stim_a 5, stim_b 5, stim_c 6 (file order a, b, c).
    c = with_monster(content, "hitter", hp=100, dice=0, bonus=10)
    c["rules"]["fight"]["max_rounds"] = 1
    for item_id, heal in (("stim_a", 5), ("stim_b", 5), ("stim_c", 6)):
        c["items"]["healing"][item_id] = {"name": item_id, "heal": heal, "in_combat": True, "price": 1}
    # hp 5 -> -5, need 6: one item suffices only with stim_c.
    res = simulate_fight(c, loadout(hp=5, healing={"stim_a": 2, "stim_b": 2, "stim_c": 1}), ["hitter"], "fighter", SEED, 0)
    assert res["used"] == {"stim_c": 1} and res["hp_left"] == 1
    # hp 1 -> -9, need 10: two items; a+a, a+b, b+b all total 10 (< 11 with c):
    # prefer more of the earlier items -> a+a.
    res = simulate_fight(c, loadout(hp=1, healing={"stim_a": 2, "stim_b": 2, "stim_c": 2}), ["hitter"], "fighter", SEED, 0)
    assert res["used"] == {"stim_a": 2} and res["hp_left"] == 1
    # Only one stim_a: a+b (total 10) over b+b (10) and c+x (11).
    res = simulate_fight(c, loadout(hp=1, healing={"stim_a": 1, "stim_b": 2, "stim_c": 2}), ["hitter"], "fighter", SEED, 0)
    assert res["used"] == {"stim_a": 1, "stim_b": 1}
    # Smallest total among fewest: need 6 with items 5, 6 and the combat stimulator (8) -> 6.
    res = simulate_fight(c, loadout(hp=5, healing={"combat_stimulator": 1, "stim_c": 1}), ["hitter"], "fighter", SEED, 0)
    assert res["used"] == {"stim_c": 1}


def test_z08_rescue_uses_smallest_heal_first_capped_at_max_hp(content):
    # Z-31 cap: a character with max_hp 3; each stimulator use is capped at 3.
    c = with_monster(content, "hitter", hp=100, dice=0, bonus=4)
    c["characters"]["tiny"] = {"name": "tiny", "max_hp": 3}
    lo = loadout(character="tiny", healing={"combat_stimulator": 2})
    # 3 -> -1 -> min(3, 7) = 3 -> -1 -> 3 -> -1: death in round 3.
    res = simulate_fight(c, lo, ["hitter"], "fighter", SEED, 0)
    assert res == {"outcome": "death", "rounds": 3, "hp_left": -1, "used": {"combat_stimulator": 2}}


# --------------------------------------------------------------------------
# Weapons, modifiers, armour (Z-15..Z-24)
# --------------------------------------------------------------------------


def test_z15_z21_one_round_kill_blind_dog(content):
    # AK-47 + rebored + laser sight = 2d6+4 >= 6 = blind dog hp: always a kill in round 1.
    lo = loadout(weapon="ak47", mods=["rebored", "laser_sight"])
    agg = run_fights(content, lo, ["blind_dog"], "fighter", SEED, 300)
    assert agg["counts"] == {"win": 300, "draw": 0, "escape": 0, "death": 0}
    assert agg["rounds_hist"] == {1: 300} and agg["hp_hist"] == {25: 300}
    # Berdanka + expanding bullets + Gromoboi = 1d6+3+2 >= 6.
    lo = loadout(character="gromoboi", weapon="berdanka", mods=["expanding_bullets"])
    agg = run_fights(content, lo, ["blind_dog"], "fighter", SEED, 300)
    assert agg["counts"]["win"] == 300 and agg["rounds_hist"] == {1: 300}


def test_z15_damage_is_dice_plus_bonus_minus_defence(content):
    # Controller: def 3; AK-47 + rebored = 2d6+1 - 3 per shot, min 0.
    c = copy.deepcopy(content)
    c["monsters"]["controller"]["dice"] = 0  # make it harmless for this test
    lo = loadout(weapon="ak47", mods=["rebored"])
    for t in range(100):
        res = simulate_fight(c, lo, ["controller"], "fighter", SEED, t)
        expected = predicted_win_round(SEED, t, [(2, 1)] * 30, 18, defence=3)
        assert res["rounds"] == (expected or 30)
        assert res["outcome"] == ("win" if expected else "draw")


def test_z16_no_firearm_does_no_damage(content):
    c = with_monster(content, "dummy", hp=1, dice=0, bonus=0)
    for char in ("novice", "gromoboi"):
        res = simulate_fight(c, loadout(character=char), ["dummy"], "fighter", SEED, 0)
        assert res == {"outcome": "draw", "rounds": 30, "hp_left": 25, "used": {}}


def test_z17_explosive_with_most_dice_first_then_firearm(content):
    c = with_monster(content, "dummy", hp=45, dice=0, bonus=0, defence=1)
    lo = loadout(weapon="ak47", explosives={"molotov": 1, "ppv": 1, "limonka": 1})
    attacks = [(5, 0), (3, 0), (2, 0)] + [(2, 0)] * 27  # ppv, limonka, molotov, then AK-47
    for t in range(100):
        res = simulate_fight(c, lo, ["dummy"], "fighter", SEED, t)
        expected = predicted_win_round(SEED, t, attacks, 45, defence=1)
        assert res["rounds"] == (expected or 30)
        n = min(res["rounds"], 3)
        assert res["used"] == {k: 1 for k in ["ppv", "limonka", "molotov"][:n]}


def test_z17_explosive_ties_content_order(content):
    c = with_monster(content, "dummy", hp=1, dice=0)
    c["items"]["explosives"]["limonka"]["dice"] = 2  # now molotov and limonka both 2d6
    lo = loadout(explosives={"limonka": 1, "molotov": 1})
    res = simulate_fight(c, lo, ["dummy"], "fighter", SEED, 0)
    assert res == {"outcome": "win", "rounds": 1, "hp_left": 25, "used": {"molotov": 1}}


def test_z18_one_explosive_per_round_and_at_most_ten(content):
    c = with_monster(content, "dummy", hp=1000, dice=0)
    c["rules"]["fight"]["max_rounds"] = 4
    res = simulate_fight(c, loadout(explosives={"limonka": 10}), ["dummy"], "fighter", SEED, 0)
    assert res["outcome"] == "draw" and res["used"] == {"limonka": 4}
    with pytest.raises(ValueError):
        simulate_fight(c, loadout(explosives={"limonka": 6, "ppv": 5}), ["dummy"], "fighter", SEED, 0)


def test_z19_modifiers_do_not_apply_to_explosives(content):
    c = with_monster(content, "dummy", hp=30, dice=0)
    lo = loadout(weapon="ak47", mods=["rebored", "ap_rounds", "laser_sight"], explosives={"molotov": 2})
    attacks = [(2, 0), (2, 0)] + [(2, 6)] * 28
    for t in range(100):
        res = simulate_fight(c, lo, ["dummy"], "fighter", SEED, t)
        assert res["rounds"] == predicted_win_round(SEED, t, attacks, 30)


def test_z21_modifier_cap(content):
    c = with_monster(content, "dummy", hp=30, dice=0)
    # Z-21 [G]: AK-47 + rebored + laser = 2d6+4; all three = 2d6+6.
    for mods, bonus in ((["rebored", "laser_sight"], 4), (["rebored", "ap_rounds", "laser_sight"], 6)):
        for t in range(50):
            res = simulate_fight(c, loadout(weapon="ak47", mods=mods), ["dummy"], "fighter", SEED, t)
            assert res["rounds"] == predicted_win_round(SEED, t, [(2, bonus)] * 30, 30)
    # With the cap lowered to 2 in content: laser sight (+3) gives only +2; Gromoboi on top.
    c2 = copy.deepcopy(c)
    c2["rules"]["fight"]["modifier_cap"] = 2
    for t in range(50):
        res = simulate_fight(c2, loadout(weapon="ak47", mods=["laser_sight"]), ["dummy"], "fighter", SEED, t)
        assert res["rounds"] == predicted_win_round(SEED, t, [(2, 2)] * 30, 30)
        res = simulate_fight(c2, loadout(character="gromoboi", weapon="ak47", mods=["laser_sight"]),
                             ["dummy"], "fighter", SEED, t)
        assert res["rounds"] == predicted_win_round(SEED, t, [(2, 4)] * 30, 30)
    # A modifier fits one firearm type only.
    with pytest.raises(ValueError):
        simulate_fight(c, loadout(weapon="ak47", mods=["zeroing"]), ["dummy"], "fighter", SEED, 0)


def test_z23_z24_defence_is_head_plus_body(content):
    c = with_monster(content, "hitter", hp=100, dice=0, bonus=10)
    # helmet 1 + vest 2: 7 per hit: 25 -> 18 -> 11 -> 4 -> -3.
    res = simulate_fight(c, loadout(head="helmet", body="vest"), ["hitter"], "fighter", SEED, 0)
    assert res == {"outcome": "death", "rounds": 4, "hp_left": -3, "used": {}}
    # exoskeleton 4 only: 6 per hit: 25 -> 19 -> 13 -> 7 -> 1 -> -5.
    res = simulate_fight(c, loadout(body="exoskeleton"), ["hitter"], "fighter", SEED, 0)
    assert res == {"outcome": "death", "rounds": 5, "hp_left": -5, "used": {}}
    # Defence above the hit: damage 0 (min 0), never wears out (Z-23).
    c2 = with_monster(content, "weak", hp=100, dice=0, bonus=3)
    res = simulate_fight(c2, loadout(head="sphere_helmet", body="leather_jacket"), ["weak"], "fighter", SEED, 0)
    assert res == {"outcome": "draw", "rounds": 30, "hp_left": 25, "used": {}}
    with pytest.raises(ValueError):
        simulate_fight(c, loadout(head="vest"), ["hitter"], "fighter", SEED, 0)


# --------------------------------------------------------------------------
# Healing, escape (Z-31..Z-33)
# --------------------------------------------------------------------------


def test_z31_pre_fight_heal_largest_that_fits(content):
    def run(hp, healing):
        lo = loadout(reputation=0, hp=hp, healing=healing)
        res = simulate_fight(content, lo, ["boar"], "runner", SEED, 0)
        return res["hp_left"], res["used"]

    assert run(20, {"army_medkit": 1, "medkit": 1}) == (25, {"medkit": 1})          # army does not fit
    assert run(5, {"medkit": 2, "army_medkit": 2}) == (25, {"army_medkit": 2})      # largest first
    assert run(12, {"medkit": 3, "army_medkit": 1}) == (22, {"army_medkit": 1})     # 5 > 3 missing
    assert run(22, {"medkit": 3}) == (22, {})
    assert run(10, {"stimulator": 3, "combat_stimulator": 1}) == (10, {})           # no stims before


def test_z32_escape_item_lowers_reputation(content):
    # rep 3 + camo cloak (-2) = 1 -> automatic; stealth generator (-3) -> max(0, 0).
    for item in ("camo_cloak", "stealth_generator"):
        agg = run_fights(content, loadout(reputation=3, escape_item=item), ["chimera"], "runner", SEED, 100)
        assert agg["counts"]["escape"] == 100
    # rep 5 + camo cloak = 3: escape on a d6 of 3-6 from the ESCAPE stream.
    lo = loadout(reputation=5, escape_item="camo_cloak", weapon="ak47")
    for t in range(100):
        res = simulate_fight(content, lo, ["snork"], "runner", SEED, t)
        assert (res["outcome"] == "escape") == (Stream(SEED, t, ESCAPE).die(6) >= 3)


def test_z33_escape_auto(content):
    for rep in (0, 1):
        agg = run_fights(content, loadout(reputation=rep), ["chimera", "controller"], "runner", SEED, 200)
        assert agg["counts"] == {"win": 0, "draw": 0, "escape": 200, "death": 0}
        assert agg["rounds_hist"] == {0: 200} and agg["sum_rounds"] == 0
        assert agg["sum_hp_survivors"] == 200 * 25


def test_z33_escape_roll_d6_at_least_reputation(content):
    lo = loadout(reputation=5, weapon="ak47", mods=["rebored"], body="vest")
    escapes = 0
    n = 600
    for t in range(n):
        runner = simulate_fight(content, lo, ["bloodsucker"], "runner", SEED, t)
        escaped = Stream(SEED, t, ESCAPE).die(6) >= 5
        assert (runner["outcome"] == "escape") == escaped
        escapes += escaped
        if not escaped:
            # a failed escape is followed by the fighter's fight (separate streams)
            assert runner == simulate_fight(content, lo, ["bloodsucker"], "fighter", SEED, t)
    assert abs(escapes / n - 1 / 3) < 4 * math.sqrt((1 / 3) * (2 / 3) / n)
    # reputation 7 never escapes; the fighter never tries
    assert run_fights(content, loadout(reputation=7), ["blind_dog"], "runner", SEED, 100)["counts"]["escape"] == 0
    assert run_fights(content, loadout(reputation=0), ["blind_dog"], "fighter", SEED, 100)["counts"]["escape"] == 0


# --------------------------------------------------------------------------
# Monsters and round order (Z-37, Z-38)
# --------------------------------------------------------------------------


def test_z37_default_bestiary(content):
    expected = {
        "blind_dog": (6, 1, 0, 0), "flesh": (10, 1, 1, 0), "boar": (14, 2, 0, 1), "snork": (12, 2, 0, 1),
        "bloodsucker": (20, 2, 2, 2), "chimera": (30, 3, 0, 2), "controller": (18, 3, 0, 3),
    }
    got = {k: (m["hp"], m["dice"], m["bonus"], m["defence"]) for k, m in content["monsters"].items()}
    assert got == expected


def test_z38_stalker_attacks_first(content):
    # At hp 1 any dog bite could kill, but the 2d6+4 shot always kills first.
    lo = loadout(weapon="ak47", mods=["rebored", "laser_sight"], hp=1)
    agg = run_fights(content, lo, ["blind_dog"], "fighter", SEED, 200)
    assert agg["counts"]["win"] == 200 and agg["rounds_hist"] == {1: 200} and agg["hp_hist"] == {1: 200}


def test_z38_target_lowest_index_and_only_living_monsters_attack(content):
    # Each shot kills one dog: round 1 dog 1 dies, dog 2 bites once, round 2 dog 2 dies.
    lo = loadout(weapon="ak47", mods=["rebored", "laser_sight"])
    for t in range(100):
        res = simulate_fight(content, lo, ["blind_dog", "blind_dog"], "fighter", SEED, t)
        bite = Stream(SEED, t, MONSTER).die(6)
        assert res == {"outcome": "win", "rounds": 2, "hp_left": 25 - bite, "used": {}}


def test_z38_monsters_attack_in_list_order(content):
    c = with_monster(content, "a3", hp=100, dice=0, bonus=3)
    c = with_monster(c, "b5", hp=100, dice=0, bonus=5)
    lo = loadout(hp=4, healing={"stimulator": 1})
    # a3 then b5: 4 -> 1 -> -4; -4 + 4 = 0 < 1 -> death, stimulator unused.
    assert simulate_fight(c, lo, ["a3", "b5"], "fighter", SEED, 0) == {
        "outcome": "death", "rounds": 1, "hp_left": -4, "used": {}}
    # b5 then a3: 4 -> -1 -> stimulator -> 3 -> 0 -> death.
    assert simulate_fight(c, lo, ["b5", "a3"], "fighter", SEED, 0) == {
        "outcome": "death", "rounds": 1, "hp_left": 0, "used": {"stimulator": 1}}


def test_z38_30_round_draw(content):
    # No weapon; sphere helmet 2 + exoskeleton 4 = 6 >= any blind dog bite (1d6).
    lo = loadout(head="sphere_helmet", body="exoskeleton")
    agg = run_fights(content, lo, ["blind_dog"], "fighter", SEED, 100)
    assert agg["counts"] == {"win": 0, "draw": 100, "escape": 0, "death": 0}
    assert agg["rounds_hist"] == {30: 100} and agg["hp_hist"] == {25: 100}
    c = copy.deepcopy(content)
    c["rules"]["fight"]["max_rounds"] = 5
    assert simulate_fight(c, lo, ["blind_dog"], "fighter", SEED, 0)["rounds"] == 5


# --------------------------------------------------------------------------
# run_fights
# --------------------------------------------------------------------------


def test_run_fights_aggregates_trials(content):
    lo = loadout(weapon="ak47", mods=["rebored"], head="helmet", healing={"stimulator": 2, "medkit": 1},
                 explosives={"limonka": 1}, hp=15)
    monsters = ["snork", "flesh"]
    agg = run_fights(content, lo, monsters, "fighter", SEED, 120, trial_start=30)
    results = [simulate_fight(content, lo, monsters, "fighter", SEED, t) for t in range(30, 150)]
    assert sum(agg["counts"].values()) == 120
    for k in ("win", "draw", "escape", "death"):
        assert agg["counts"][k] == sum(r["outcome"] == k for r in results)
    assert agg["sum_rounds"] == sum(r["rounds"] for r in results)
    assert agg["sum_hp_survivors"] == sum(r["hp_left"] for r in results if r["outcome"] != "death")
    assert sum(agg["hp_hist"].values()) == 120 and min(agg["hp_hist"]) >= 0
    assert agg["used"]["limonka"] == 120 and agg["used"]["medkit"] == 120
    # splitting the trial range gives the same totals
    a = run_fights(content, lo, monsters, "fighter", SEED, 50, trial_start=30)
    b = run_fights(content, lo, monsters, "fighter", SEED, 70, trial_start=80)
    assert {k: a["counts"][k] + b["counts"][k] for k in a["counts"]} == agg["counts"]
    assert a["sum_rounds"] + b["sum_rounds"] == agg["sum_rounds"]
    # deterministic
    assert run_fights(content, lo, monsters, "fighter", SEED, 120, trial_start=30) == agg
