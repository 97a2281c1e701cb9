"""Fight rules, one test per rule id, on the numba kernel (``sim.kernels.fight``)."""

import dataclasses
import math

import numba
import numpy as np
import pytest

import strategies
from sim.content import load_content
from sim.content.loadout import Loadout, LoadoutError
from sim.kernels import fight as K
from sim.reference import fight as reference
from sim.run.fight import FightRun, fight_template, simulate_fight
from tests.conftest import DATA, edit_file, edited_content, extra_monster, kernel_aggregates, proportion_tolerance

FIGHTER = strategies.get("fighter")
RUNNER = strategies.get("runner")


def fights(content, loadout, monsters, strategy=FIGHTER, n=20_000, seed=5):
    return simulate_fight(content, loadout, monsters, strategy, trials=n, seed=seed)


def same_fights(content, a, b, monsters, n=20_000):
    """True if loadouts ``a`` and ``b`` give identical fights on the same seed."""
    runs = [FightRun(content, lo, monsters, FIGHTER, 3) for lo in (a, b)]
    for run in runs:
        run.advance(n)
    return all(np.array_equal(getattr(runs[0], f), getattr(runs[1], f)) for f in ("counts", "rounds_hist", "hp_hist"))


def test_z01_every_stalker_has_hp_reputation_money_steps_and_a_type(content):
    """Every character type of the content starts a stalker with all five."""
    rules = content.rules["stalker"]
    for cid, character in content.characters.items():
        stalker = Loadout(cid).validate(content).stalker(content)
        assert stalker.character == cid
        assert stalker.max_hp == stalker.hp == character["max_hp"] >= 1
        assert stalker.reputation == rules["start_reputation"]
        assert stalker.money == rules["start_money"] + character["money_bonus"]
        assert stalker.step_budget == rules["step_budget"]
        assert fight_template(content, Loadout(cid), ["flesh"])[0][K.MAX_HP] == stalker.max_hp
    assert Loadout("mazhor").stalker(content).money == 2000  # Z-04
    hurt = Loadout("verzila", reputation=2, hp=9).stalker(content)
    assert (hurt.max_hp, hurt.hp, hurt.reputation) == (35, 9, 2)


def test_z07_start_money_reputation_and_step_budget_come_from_content(tmp_path, content):
    """Defaults 1000 G, reputation 0, 6 steps; edited in rules.toml they change
    the stalker and the run: at reputation 0 the runner always escapes (Z-33),
    at 3 only on 3-6."""
    stalker = Loadout().stalker(content)
    assert (stalker.money, stalker.reputation, stalker.step_budget) == (1000, 0, 6)
    folder = edited_content(tmp_path, "rules.toml", "start_money = 1000 ", "start_money = 1500 ")
    edit_file(folder, "rules.toml", "start_reputation = 0 ", "start_reputation = 3 ")
    edit_file(folder, "rules.toml", "step_budget = 6 ", "step_budget = 7 ")
    game = load_content(folder)
    stalker = Loadout().stalker(game)
    assert (stalker.money, stalker.reputation, stalker.step_budget) == (1500, 3, 7)
    n = 50_000
    assert fights(content, Loadout(), ["chimera"], RUNNER, n=n).probabilities["p_escape"] == 1.0
    p = fights(game, Loadout(), ["chimera"], RUNNER, n=n).probabilities["p_escape"]
    assert abs(p - 4 / 6) <= proportion_tolerance(4 / 6, n)


def test_z02_verzila_has_35_hp_and_novice_the_base(content):
    assert fight_template(content, Loadout("verzila"), ["flesh"])[0][K.MAX_HP] == 35
    assert fight_template(content, Loadout("novice"), ["flesh"])[0][K.MAX_HP] == content.rules["stalker"]["base_hp"]


def test_z03_doktor_heals_two_more_per_use(content, tmp_path):
    """A hammer hitting 10 a round (no dice): 25 -> 15 -> 5 -> -5. A novice needs
    both stimulators (4 + 4) to get back to 3; Doktor's stimulators heal 6, so
    one brings him to 1. Both die to the next hit (round 4)."""
    game = extra_monster(tmp_path, "hammer", hp=50, dice=0, bonus=10, defence=100)
    for character, used in (("novice", 2.0), ("doktor", 1.0)):
        r = fights(game, Loadout(character, healing=(("stimulator", 2),)), ["hammer"], n=50)
        assert r.probabilities["p_death"] == 1.0
        assert r.items_used == {"stimulator": used}
        assert r.rounds_hist[4] == 50
    view, _ = fight_template(content, Loadout("doktor", healing=(("medkit", 1),)), ["flesh"])
    assert view[view[K.HEAL0] + K.H_HEAL] == content.items["medkit"]["heal"] + 2


def test_z05_gromoboi_bonus_equals_a_plus_two_modifier(content):
    """Gromoboi's +2 on a bare berdanka is the same attack as rifling (+2): same
    streams, identical results, fight for fight."""
    a = FightRun(content, Loadout("gromoboi", weapon="berdanka"), ["bloodsucker"], FIGHTER, 3)
    b = FightRun(content, Loadout("novice", weapon="berdanka", mods=("rifling",)), ["bloodsucker"], FIGHTER, 3)
    a.advance(20_000)
    b.advance(20_000)
    assert np.array_equal(a.counts, b.counts) and np.array_equal(a.rounds_hist, b.rounds_hist)


def test_z08_death_only_when_stimulators_cannot_reach_one_hp(tmp_path):
    """The hammer hits 10: 25 -> 15 -> 5 -> -5. One stimulator (+4) cannot lift -5
    to 1, so the stalker dies in round 3 and the stimulator is not used."""
    game = extra_monster(tmp_path, "hammer", hp=50, dice=0, bonus=10, defence=100)
    r = fights(game, Loadout(healing=(("stimulator", 1),)), ["hammer"], n=50)
    assert r.probabilities["p_death"] == 1.0 and r.rounds_hist[3] == 50 and r.items_used == {}
    r = fights(game, Loadout(healing=(("combat_stimulator", 1), ("stimulator", 2))), ["hammer"], n=50)
    # -5 needs 6: the fewest is one combat stimulator (8) -> 3; next hit -7 needs 8: two stimulators -> 1;
    # the hit after that (round 5) kills
    assert r.items_used == {"stimulator": 2.0, "combat_stimulator": 1.0} and r.rounds_hist[5] == 50


def test_z15_z23_damage_is_dice_plus_bonus_minus_defence_never_negative(tmp_path):
    """A monster with defence above any roll never dies; one that cannot beat the
    armour never hurts: the fight is a 30-round draw with full HP."""
    game = extra_monster(tmp_path, "wall", hp=1, dice=1, bonus=0, defence=100)
    r = fights(game, Loadout(weapon="kvazar", mods=("electronic_sight",), body="exoskeleton", head="sphere_helmet"),
               ["wall"], n=200)
    assert r.probabilities["p_draw"] == 1.0 and r.mean_hp_left == 25
    assert r.rounds_hist[game.rules["fight"]["max_rounds"]] == 200


def test_z16_firearms_roll_their_dice_every_round(tmp_path):
    """Kvazar (3d6) against 18 HP and no defence: a kill in round 1 exactly when 3d6 = 18."""
    game = extra_monster(tmp_path, "target", hp=18, dice=0, bonus=0, defence=0)
    n = 200_000
    r = fights(game, Loadout(weapon="kvazar"), ["target"], n=n)
    p = 1 / 216
    assert abs(r.rounds_hist[1] / n - p) <= proportion_tolerance(p, n)


def test_z17_explosives_are_used_up(tmp_path):
    game = extra_monster(tmp_path, "wall", hp=1, dice=0, bonus=0, defence=100)
    r = fights(game, Loadout(explosives=(("molotov", 3), ("ppv", 1))), ["wall"], n=100)
    assert r.items_used == {"molotov": 3.0, "ppv": 1.0}


def test_z18_one_explosive_per_round(tmp_path):
    """Two PPVs (5d6 each) against 11 HP: one per round, so round 1 kills with
    P(5d6 >= 11) = 7524/7776, not the near-certainty of two throws."""
    game = extra_monster(tmp_path, "target", hp=11, dice=0, bonus=0, defence=0)
    n = 200_000
    r = fights(game, Loadout(explosives=(("ppv", 2),)), ["target"], n=n)
    p = 7524 / 7776
    assert abs(r.rounds_hist[1] / n - p) <= proportion_tolerance(p, n)
    assert r.items_used["ppv"] == pytest.approx(1 + (1 - r.rounds_hist[1] / n))


def test_z18_an_explosive_replaces_the_firearm_roll(tmp_path):
    """Kvazar with all its modifiers (3d6+6) and a molotov (2d6) against 13 HP:
    the Kvazar alone kills in round 1 nine times in ten; the molotov alone
    never reaches 13, and it is thrown instead of the shot, so round 1 never kills."""
    game = extra_monster(tmp_path, "target", hp=13, dice=0, bonus=0, defence=0)
    kvazar = Loadout(weapon="kvazar", mods=("boosted_battery", "quark_accelerator", "electronic_sight"))
    r = fights(game, dataclasses.replace(kvazar, explosives=(("molotov", 1),)), ["target"], n=2_000)
    assert r.rounds_hist[1] == 0 and r.probabilities["p_win"] == 1.0
    assert fights(game, kvazar, ["target"], n=2_000).rounds_hist[1] > 1_000


def test_z18_too_many_explosives_names_the_fix(content):
    with pytest.raises(LoadoutError, match=r"--explosives: 12 carried, at most 10 per stalker \(Z-18\); drop 2 or "
                                           r"raise \[fight\] max_explosives in rules.toml"):
        Loadout(explosives=(("limonka", 4), ("molotov", 4), ("ppv", 4))).validate(content)


def test_z19_gromoboi_applies_to_explosives_modifiers_do_not(content, tmp_path):
    """A molotov (2d6) against 13 HP kills in round 1 only with Gromoboi's +2
    (2d6 >= 11: 3/36); the berdanka's +6 of modifiers does not help it."""
    game = extra_monster(tmp_path, "target", hp=13, dice=0, bonus=0, defence=0)
    n = 200_000
    mods = ("zeroing", "rifling", "expanding_bullets")
    plain = fights(game, Loadout("novice", weapon="berdanka", mods=mods, explosives=(("molotov", 1),)),
                   ["target"], n=n)
    assert plain.rounds_hist[1] == 0
    grom = fights(game, Loadout("gromoboi", explosives=(("molotov", 1),)), ["target"], n=n)
    assert abs(grom.rounds_hist[1] / n - 3 / 36) <= proportion_tolerance(3 / 36, n)
    view, _ = fight_template(content, Loadout("gromoboi", weapon="berdanka", mods=mods), ["flesh"])
    assert view[K.FIREARM_BONUS] == 8 and view[K.EXPLOSIVE_BONUS] == 2


def test_z20_one_active_firearm(content):
    """A loadout names one firearm; its dice and modifiers are the attack."""
    view, _ = fight_template(content, Loadout(weapon="ak47", mods=("rebored", "laser_sight")), ["flesh"])
    assert view[K.FIREARM_DICE] == 2 and view[K.FIREARM_BONUS] == 4


def test_z20_a_second_firearm_rides_in_the_backpack(content):
    """An AK-47 in hand and a Kvazar stowed: the Kvazar is paid for and takes
    its card, but the fights are those of the AK-47 alone."""
    ak = Loadout(weapon="ak47", mods=("rebored", "laser_sight"))
    both = dataclasses.replace(ak, backpack=("kvazar", "ak47"))
    assert both.validate(content).cards()["ak47"] == 2
    assert both.cost(content) == ak.cost(content) + content.items["kvazar"]["price"] + content.items["ak47"]["price"]
    view = fight_template(content, both, ["flesh"])[0]
    assert (view[K.FIREARM_DICE], view[K.FIREARM_BONUS]) == (2, 4)
    assert same_fights(content, ak, both, ["bloodsucker"])


def test_z20_only_firearms_and_their_modifiers_are_stowed(content):
    with pytest.raises(LoadoutError, match=r"^backpack: 'vest' is not a firearm or a modifier; stow only these: "
                                           r"berdanka, ak47, kvazar, zeroing"):
        Loadout(weapon="ak47", backpack=("vest",)).validate(content)
    with pytest.raises(ValueError, match="neither a firearm nor a modifier"):
        reference.prepare_stalker(reference.load_content(content.directory), {"backpack": ["vest"]})


def test_z21_a_modifier_counts_only_on_its_own_firearm(content):
    """Berdanka mods on a stowed Berdanka add nothing to the active AK-47; an AK
    modifier on the active Berdanka is refused with the fix."""
    stowed = Loadout(weapon="ak47", mods=("rebored",), backpack=("berdanka", "expanding_bullets", "rifling"))
    assert fight_template(content, stowed, ["flesh"])[0][K.FIREARM_BONUS] == 1
    with pytest.raises(LoadoutError, match=r"^--mods: 'laser_sight' fits ak47, not berdanka; add --weapon ak47, "
                                           r"move it to backpack with a stowed ak47, or drop the modifier$"):
        Loadout(weapon="berdanka", mods=("laser_sight",), backpack=("ak47",)).validate(content)


def test_z21_modifiers_stack_to_the_cap(tmp_path):
    """AK-47 with rebored + laser sight is 2d6+4, with all three 2d6+6; with the
    laser sight at +2 in the content all three make +5."""
    game = load_content(edited_content(tmp_path, "rules.toml", "modifier_cap = 6", "modifier_cap = 9"))
    all_three = Loadout(weapon="ak47", mods=("rebored", "ap_rounds", "laser_sight"))
    assert fight_template(game, all_three, ["flesh"])[0][K.FIREARM_BONUS] == 6
    game = load_content(edited_content(tmp_path / "b", "items.toml", "bonus = 3\nprice = 750", "bonus = 2\nprice = 750"))
    assert fight_template(game, all_three, ["flesh"])[0][K.FIREARM_BONUS] == 5


def test_z22_stowing_a_firearm_stows_its_modifiers(content):
    """Swapping AK-47 and Berdanka moves each one's modifiers with it: the same
    cards, the Berdanka's attack (1d6+1) alone; kernel and reference agree."""
    ak = Loadout(weapon="ak47", mods=("rebored", "laser_sight"), backpack=("berdanka", "zeroing"))
    berdanka = Loadout(weapon="berdanka", mods=("zeroing",), backpack=("ak47", "rebored", "laser_sight"))
    assert ak.validate(content).cards() == berdanka.validate(content).cards()
    view = fight_template(content, berdanka, ["flesh"])[0]
    assert (view[K.FIREARM_DICE], view[K.FIREARM_BONUS]) == (1, 1)
    assert same_fights(content, berdanka, Loadout(weapon="berdanka", mods=("zeroing",)), ["snork"])
    as_dict = {"weapon": "berdanka", "mods": ["zeroing"], "backpack": ["ak47", "rebored", "laser_sight"]}
    got = kernel_aggregates(content, as_dict, ["snork"], FIGHTER, 11, 300)
    want = reference.run_fights(reference.load_content(content.directory), as_dict, ["snork"], "fighter", 11, 300)
    assert got == {k: want[k] for k in got}


@pytest.mark.parametrize("kwargs, message", [
    ({"weapon": "ak47", "backpack": ("laser_sight",)},
     "backpack: 1 'laser_sight' but 0 ak47 stowed; a stowed modifier sits on a stowed firearm it fits "
     "(Z-21, Z-22); list it in --mods on the active ak47"),
    ({"weapon": "ak47", "backpack": ("berdanka", "zeroing", "zeroing")},
     "backpack: 2 'zeroing' but 1 berdanka stowed; a stowed modifier sits on a stowed firearm it fits "
     "(Z-21, Z-22); add a berdanka to backpack or drop a 'zeroing'"),
    ({"backpack": ("zeroing",)},
     "backpack: 1 'zeroing' but 0 berdanka stowed; a stowed modifier sits on a stowed firearm it fits "
     "(Z-21, Z-22); add a berdanka to backpack or drop a 'zeroing'"),
])
def test_z22_a_stowed_modifier_needs_its_stowed_firearm(content, kwargs, message):
    with pytest.raises(LoadoutError) as info:
        Loadout(**kwargs).validate(content)
    assert str(info.value) == message
    with pytest.raises(ValueError, match="Z-22"):
        reference.prepare_stalker(reference.load_content(content.directory),
                                  {k: list(v) if isinstance(v, tuple) else v for k, v in kwargs.items()})


def test_z24_head_plus_body_defence(content):
    view, _ = fight_template(content, Loadout(head="sphere_helmet", body="exoskeleton"), ["flesh"])
    assert view[K.DEFENCE] == 6


def test_z31_medkits_only_out_of_combat_and_healing_stops_at_max(tmp_path):
    """Starting at 12 HP with three medkits (+5): two fit under 25 (-> 22), the
    third would waste HP and is kept; none is used in combat."""
    game = extra_monster(tmp_path, "hammer", hp=50, dice=0, bonus=10, defence=100)
    r = fights(game, Loadout(hp=12, healing=(("medkit", 3),)), ["hammer"], n=20)
    assert r.items_used == {"medkit": 2.0}
    assert r.rounds_hist[3] == 20  # 22 -> 12 -> 2 -> dead


def test_z32_z33_escape_roll_and_items(content):
    """Reputation 5 escapes on 5-6; a camo cloak (-2) makes it 3-6; reputation
    <= 1 always escapes; above 6 never."""
    n = 100_000
    for rep, item, p in ((5, None, 2 / 6), (5, "camo_cloak", 4 / 6), (3, "stealth_generator", 1.0),
                         (0, None, 1.0), (7, None, 0.0)):
        r = fights(content, Loadout(weapon="berdanka", reputation=rep, escape_item=item), ["chimera"], RUNNER, n=n)
        assert abs(r.probabilities["p_escape"] - p) <= proportion_tolerance(p, n), (rep, item)


def test_z33_always_escaping_reputation_comes_from_content(tmp_path):
    """[fight] escape_auto_max = 3: reputation 3 escapes with no roll (default: on 3-6)."""
    game = load_content(edited_content(tmp_path, "rules.toml", "escape_auto_max = 1", "escape_auto_max = 3"))
    r = fights(game, Loadout(reputation=3), ["chimera"], RUNNER, n=2_000)
    assert r.probabilities["p_escape"] == 1.0


def test_z37_default_bestiary(content):
    expected = {"blind_dog": (6, 1, 0, 0), "flesh": (10, 1, 1, 0), "boar": (14, 2, 0, 1), "snork": (12, 2, 0, 1),
                "bloodsucker": (20, 2, 2, 2), "chimera": (30, 3, 0, 2), "controller": (18, 3, 0, 3)}
    for mid, stats in expected.items():
        m = content.monsters[mid]
        assert (m["hp"], m["dice"], m["bonus"], m["defence"]) == stats


def test_z38_stalker_strikes_first_and_monsters_in_order(tmp_path):
    """A 1-HP monster that would kill at once never hits: the stalker's first shot
    kills it. Two hammers (10 each) hit in order within the round."""
    game = extra_monster(tmp_path, "glass", hp=1, dice=0, bonus=100, defence=0)
    r = fights(game, Loadout(weapon="berdanka"), ["glass"], n=1000)
    assert r.probabilities["p_win"] == 1.0 and r.rounds_hist[1] == 1000
    game = extra_monster(tmp_path / "b", "hammer", hp=50, dice=0, bonus=10, defence=100)
    r = fights(game, Loadout(), ["hammer", "hammer"], n=10)
    assert r.rounds_hist[2] == 10  # 25 -> 5 -> dead in round 2


def test_z38_draw_after_max_rounds_from_content(tmp_path):
    game = load_content(edited_content(tmp_path, "rules.toml", "max_rounds = 30", "max_rounds = 7"))
    r = fights(game, Loadout(), ["flesh"], n=100, strategy=FIGHTER)
    assert r.rounds_hist.size == 8


def test_same_seed_same_numbers_for_any_threads_and_chunks(content):
    """Counter-based streams: 1 or 2 threads, any chunking, any resume point."""
    loadout = Loadout(weapon="ak47", body="vest", healing=(("stimulator", 2),), explosives=(("limonka", 1),))
    results = []
    for threads, chunks in ((1, [50_000]), (2, [50_000]), (2, [1, 4095, 4097, 41_807]), (1, [25_000, 25_000])):
        numba.set_num_threads(threads)
        run = FightRun(content, loadout, ["bloodsucker", "snork"], FIGHTER, 77)
        for c in chunks:
            run.advance(c)
        results.append((run.counts.tolist(), run.rounds_hist.tolist(), run.hp_hist.tolist(), run.used.tolist()))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert all(r == results[0] for r in results[1:])


def test_user_strategy_file_changes_results(content):
    """--strategy FILE.py:NAME loads a user's bundle with no edit to sim/."""
    coward = strategies.get(f"{DATA / 'coward.py'}:COWARD")
    loadout = Loadout(weapon="ak47", reputation=4)
    fighter = fights(content, loadout, ["chimera"], FIGHTER, n=50_000)
    fled = fights(content, loadout, ["chimera"], coward, n=50_000)
    assert fighter.probabilities["p_escape"] == 0
    assert abs(fled.probabilities["p_escape"] - 0.5) <= proportion_tolerance(0.5, 50_000)
    careful = strategies.get(f"{DATA / 'coward.py'}:CAREFUL")
    hurt = fights(content, dataclasses.replace(loadout, hp=10), ["chimera"], careful, n=20_000)
    assert hurt.probabilities["p_escape"] > 0.4


def test_unknown_strategy_names_the_choices():
    with pytest.raises(strategies.StrategyError, match="fighter, runner, tactician"):
        strategies.get("berserker")


def test_tactician_flees_lost_fights_and_fights_won_ones(content):
    """Against a chimera with a bare berdanka it runs (and survives more than the
    fighter); against a blind dog with an AK it fights and wins."""
    tact = strategies.get("tactician")
    weak = Loadout(weapon="berdanka", reputation=3)
    assert fights(content, weak, ["chimera"], tact).probabilities["p_escape"] > 0.5
    assert fights(content, weak, ["chimera"], tact).probabilities["p_survive"] > \
        fights(content, weak, ["chimera"], FIGHTER).probabilities["p_survive"] + 0.2
    strong = Loadout(weapon="ak47", reputation=3)
    assert fights(content, strong, ["blind_dog"], tact).probabilities["p_win"] > 0.99


def test_tactician_saves_explosives_for_the_kill(content):
    """With a strong rifle against a flesh it keeps its PPV (the rifle finishes)."""
    r = fights(content, Loadout(weapon="kvazar", explosives=(("ppv", 1),)), ["flesh"], strategies.get("tactician"))
    assert r.items_used.get("ppv", 0) < 0.05
    assert fights(content, Loadout(weapon="kvazar", explosives=(("ppv", 1),)), ["flesh"]).items_used["ppv"] == 1.0


def test_target_ci_stops_when_narrow_enough(content):
    r = simulate_fight(content, Loadout(weapon="ak47"), ["snork"], FIGHTER, trials=10_000_000, seed=1,
                       chunk=20_000, target_ci=0.01)
    lo, hi = r.ci95["p_survive"]
    assert hi - lo < 0.01 and r.trials < 10_000_000 and r.trials % 20_000 == 0
    p = r.probabilities["p_survive"]
    assert r.trials <= 20_000 * math.ceil(4 * 1.96**2 * p * (1 - p) / 0.01**2 / 20_000 + 1)
