"""Reference fight resolution: the slow and obvious reading of docs/rules/fight-resolution.md.

One fight is a stalker against a list of monsters (rules Z-08, Z-15..Z-24,
Z-31..Z-33, Z-37, Z-38 of the rule catalogue, docs/rules/index.md).  Everything here is plain Python on
Python ints (stdlib only); it exists to cross-check the fast kernel trial by
trial, so the dice are drawn from each random stream in exactly the order the
spec gives:

* STALKER stream: the stalker's attack dice (firearm and explosives), round by
  round, in the order the attacks happen.
* MONSTER stream: every monster's attack dice, round by round, living monsters
  in list order.
* ESCAPE stream: the one escape roll (Z-33), when the strategy tries and the
  effective reputation is above [fight] escape_auto_max.

Public functions: ``mix``, ``stream_key``, ``stream_word``, ``Stream``,
``load_content``, ``simulate_fight``, ``run_fights``.

Readings of the spec made here (where it does not say):

* Input is validated and a ``ValueError`` is raised for a loadout the rules do
  not allow: a modifier that does not fit the chosen firearm (Z-21, Z-22), the
  same modifier twice, a ``backpack`` entry that is not a firearm or a
  modifier, a stowed modifier without a stowed firearm of its own (Z-20,
  Z-22), armour in the wrong slot (Z-24), more than
  [fight] max_explosives explosives (Z-18), unknown ids, negative counts, an
  empty monster list, an unknown strategy.
* The ``used`` dict lists only the items actually used (no zero entries).
* A scenario ``hp`` is taken as given (not clamped to max_hp).
"""

from __future__ import annotations

import itertools
import os
import tomllib
from dataclasses import dataclass, field

# --------------------------------------------------------------------------
# Random numbers (spec "Random numbers"; all arithmetic modulo 2**64)
# --------------------------------------------------------------------------

MASK = 2**64 - 1
GOLDEN = 0x9E3779B97F4A7C15

# Stream purposes.
STALKER = 0  # the stalker's attack dice: firearm and explosives (Z-15..Z-19)
MONSTER = 1  # all monsters' attack dice (Z-37, Z-38)
ESCAPE = 2   # the escape roll (Z-33)

DICE_PER_WORD = 8


def mix(z: int) -> int:
    """The spec's 64-bit finaliser (the splitmix64 output function)."""
    z &= MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def stream_key(seed: int, trial: int, purpose: int) -> int:
    """key = mix( mix( mix(seed) + (trial+1)*GOLDEN ) + (purpose+1)*GOLDEN )."""
    k = mix(seed & MASK)
    k = mix((k + (trial + 1) * GOLDEN) & MASK)
    k = mix((k + (purpose + 1) * GOLDEN) & MASK)
    return k


def stream_word(key: int, n: int) -> int:
    """The stream's n-th 64-bit word, n = 1, 2, 3, ...: mix(key + n*GOLDEN)."""
    return mix((key + n * GOLDEN) & MASK)


class Stream:
    """One random stream: buffered dice, DICE_PER_WORD (8) dice per 64-bit word.

    To roll one die with s sides: if no die is left in the buffer word w, take
    the next word and set left = 8; then p = w * s, die = (p >> 64) + 1,
    w = p mod 2**64, left -= 1.  The dice are the base-s digits of w / 2**64.
    """

    def __init__(self, seed: int, trial: int, purpose: int):
        self.key = stream_key(seed, trial, purpose)
        self.words_taken = 0  # n of the last word taken
        self.w = 0
        self.left = 0

    @classmethod
    def from_key(cls, key: int) -> "Stream":
        """A stream with a given key (for tests)."""
        s = cls(0, 0, 0)
        s.key = key & MASK
        return s

    def next_word(self) -> int:
        self.words_taken += 1
        return stream_word(self.key, self.words_taken)

    def die(self, sides: int) -> int:
        """One die with `sides` sides, 1..sides."""
        if self.left == 0:
            self.w = self.next_word()
            self.left = DICE_PER_WORD
        p = self.w * sides
        value = (p >> 64) + 1
        self.w = p & MASK
        self.left -= 1
        return value

    def roll(self, n: int, sides: int) -> int:
        """NdS: n single dice rolled in sequence from this stream, summed."""
        total = 0
        for _ in range(n):
            total += self.die(sides)
        return total


# --------------------------------------------------------------------------
# Content
# --------------------------------------------------------------------------

CONTENT_FILES = ("rules", "characters", "items", "monsters")


def load_content(content_dir) -> dict:
    """Read rules/characters/items/monsters.toml into plain dicts.

    Returns {"rules": ..., "characters": ..., "items": ..., "monsters": ...}.
    tomllib keeps the file order of tables, which is the "content file order"
    used for tie-breaks.
    """
    content = {}
    for name in CONTENT_FILES:
        path = os.path.join(str(content_dir), name + ".toml")
        with open(path, "rb") as f:
            content[name] = tomllib.load(f)
    return content


# --------------------------------------------------------------------------
# Loadout -> numbers (spec "Loadout -> numbers")
# --------------------------------------------------------------------------


@dataclass
class StalkerState:
    """The stalker's numbers for one fight."""

    max_hp: int
    hp: int
    defence: int
    has_firearm: bool
    firearm_dice: int
    firearm_bonus: int   # min(modifier_cap, sum of modifiers) + damage_bonus
    damage_bonus: int    # Z-05 Gromoboi; also on explosives (Z-19)
    heal_bonus: int      # Z-03 Doktor
    reputation: int      # effective reputation for the escape roll (Z-32)
    healing: dict = field(default_factory=dict)     # item id -> count carried
    explosives: dict = field(default_factory=dict)  # item id -> count carried


@dataclass
class MonsterState:
    """One monster in the fight, with its own hp (Z-37)."""

    id: str
    hp: int
    dice: int
    bonus: int
    defence: int

    @property
    def alive(self) -> bool:
        return self.hp > 0


def _count(value, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{what}: count must be a non-negative int, got {value!r}")
    return value


def prepare_stalker(content: dict, loadout: dict) -> StalkerState:
    rules = content["rules"]
    items = content["items"]
    fight_rules = rules["fight"]

    char_id = loadout.get("character", "novice")
    if char_id not in content["characters"]:
        raise ValueError(f"unknown character {char_id!r}")
    character = content["characters"][char_id]

    # Z-02: max HP is the character's own (Verzila 35) or the base 25.
    # "missing character fields are 0" except max_hp, which defaults to base_hp.
    max_hp = character.get("max_hp", rules["stalker"]["base_hp"])
    damage_bonus = character.get("damage_bonus", 0)  # Z-05
    heal_bonus = character.get("heal_bonus", 0)      # Z-03
    # Z-04: Mazhor's money_bonus is money only; it plays no part in a fight.
    # Z-06: the other bonuses are permanent: they apply in every fight.

    # Start hp = max_hp unless the scenario gives one.
    hp = loadout.get("hp")
    if hp is None:
        hp = max_hp

    # Z-23, Z-24: defence = head + body, 0 for a missing slot.
    defence = 0
    for slot in ("head", "body"):
        armour_id = loadout.get(slot)
        if armour_id is None:
            continue
        if armour_id not in items["armour"]:
            raise ValueError(f"unknown armour {armour_id!r}")
        armour = items["armour"][armour_id]
        if armour["slot"] != slot:
            raise ValueError(f"{armour_id!r} is {armour['slot']} armour, not {slot}")
        defence += armour["defence"]

    # Z-15, Z-16, Z-20, Z-21: one active firearm, its modifiers stacked to the cap.
    weapon_id = loadout.get("weapon")
    mods = list(loadout.get("mods") or [])
    if len(set(mods)) != len(mods):
        raise ValueError(f"modifier listed twice: {mods!r}")
    if weapon_id is None:
        if mods:
            raise ValueError("modifiers without a firearm")  # Z-21, Z-22
        has_firearm = False
        firearm_dice = 0
        firearm_bonus = 0
    else:
        if weapon_id not in items["firearms"]:
            raise ValueError(f"unknown firearm {weapon_id!r}")
        mod_sum = 0
        for mod_id in mods:
            if mod_id not in items["modifiers"]:
                raise ValueError(f"unknown modifier {mod_id!r}")
            mod = items["modifiers"][mod_id]
            if mod["firearm"] != weapon_id:  # Z-21: each fits one firearm type
                raise ValueError(f"{mod_id!r} fits {mod['firearm']!r}, not {weapon_id!r}")
            mod_sum += mod["bonus"]
        has_firearm = True
        firearm_dice = items["firearms"][weapon_id]["dice"]
        # Z-21 cap on the modifiers only; Z-05 Gromoboi on top.
        firearm_bonus = min(fight_rules["modifier_cap"], mod_sum) + damage_bonus

    # Z-20, Z-22: stowed firearms, each with its own modifiers, are carried and never used.
    backpack = list(loadout.get("backpack") or [])
    for item_id in backpack:
        if item_id in items["modifiers"]:
            fits = items["modifiers"][item_id]["firearm"]
            if backpack.count(item_id) > backpack.count(fits):  # Z-21: one of each per firearm
                raise ValueError(f"stowed modifier {item_id!r} without a stowed {fits!r} of its own (Z-22)")
        elif item_id not in items["firearms"]:
            raise ValueError(f"{item_id!r} is neither a firearm nor a modifier; only those are stowed (Z-20)")

    # Z-31: healing items carried.
    healing = {}
    for item_id, n in (loadout.get("healing") or {}).items():
        if item_id not in items["healing"]:
            raise ValueError(f"unknown healing item {item_id!r}")
        healing[item_id] = _count(n, item_id)

    # Z-17, Z-18: explosives carried, at most max_explosives.
    explosives = {}
    for item_id, n in (loadout.get("explosives") or {}).items():
        if item_id not in items["explosives"]:
            raise ValueError(f"unknown explosive {item_id!r}")
        explosives[item_id] = _count(n, item_id)
    if sum(explosives.values()) > fight_rules["max_explosives"]:
        raise ValueError("more explosives than [fight] max_explosives (Z-18)")

    # Z-32: effective reputation = max(0, reputation + escape item's (negative) reputation).
    reputation = loadout.get("reputation", rules["stalker"]["start_reputation"])  # Z-07 default
    escape_id = loadout.get("escape_item")
    escape_shift = 0
    if escape_id is not None:
        if escape_id not in items["escape"]:
            raise ValueError(f"unknown escape item {escape_id!r}")
        escape_shift = items["escape"][escape_id]["reputation"]
    effective_reputation = max(0, reputation + escape_shift)

    return StalkerState(
        max_hp=max_hp,
        hp=hp,
        defence=defence,
        has_firearm=has_firearm,
        firearm_dice=firearm_dice,
        firearm_bonus=firearm_bonus,
        damage_bonus=damage_bonus,
        heal_bonus=heal_bonus,
        reputation=effective_reputation,
        healing=healing,
        explosives=explosives,
    )


def prepare_monsters(content: dict, monsters: list) -> list:
    if not monsters:
        raise ValueError("a fight needs at least one monster")
    out = []
    for monster_id in monsters:
        if monster_id not in content["monsters"]:
            raise ValueError(f"unknown monster {monster_id!r}")
        m = content["monsters"][monster_id]
        out.append(MonsterState(monster_id, m["hp"], m["dice"], m.get("bonus", 0), m.get("defence", 0)))
    return out


def _heal_amount(content: dict, stalker: StalkerState, item_id: str) -> int:
    """Z-31 heal of one use, plus Z-03 Doktor's bonus on every use."""
    return content["items"]["healing"][item_id]["heal"] + stalker.heal_bonus


def _use_healing(content: dict, stalker: StalkerState, item_id: str, used: dict) -> None:
    """Use one healing item: Z-31 healing stops at max HP, the excess is lost."""
    stalker.healing[item_id] -= 1
    used[item_id] = used.get(item_id, 0) + 1
    stalker.hp = min(stalker.max_hp, stalker.hp + _heal_amount(content, stalker, item_id))


def _carried_in_order(content: dict, carried: dict, table: str) -> list:
    """Ids of carried items (count > 0) in content file order."""
    return [item_id for item_id in content["items"][table] if carried.get(item_id, 0) > 0]


# --------------------------------------------------------------------------
# Built-in strategies (spec "Built-in strategies")
# --------------------------------------------------------------------------


def fighter_pre_fight_heal(content: dict, stalker: StalkerState, used: dict) -> None:
    """Z-31: medkits out of combat.

    While some carried out-of-combat item (in_combat = false) heals no more
    than the missing hp, use the one with the largest heal (ties: content
    file order).  Stimulators are not used before the fight.
    """
    healing_table = content["items"]["healing"]
    while True:
        best = None
        for item_id in _carried_in_order(content, stalker.healing, "healing"):
            if healing_table[item_id]["in_combat"]:
                continue
            amount = _heal_amount(content, stalker, item_id)
            if amount > stalker.max_hp - stalker.hp:
                continue
            if best is None or healing_table[item_id]["heal"] > healing_table[best]["heal"]:
                best = item_id  # strict '>' keeps the earliest on ties
        if best is None:
            return
        _use_healing(content, stalker, best, used)


def fighter_target(monsters: list) -> MonsterState:
    """The lowest-index living monster."""
    for m in monsters:
        if m.alive:
            return m
    raise AssertionError("no living monster")


def _fighter_explosive(content: dict, stalker: StalkerState):
    """Z-17, Z-18: throw the carried explosive with the most dice (ties: content
    file order); None if none is carried (then the firearm is used)."""
    table = content["items"]["explosives"]
    best = None
    for item_id in _carried_in_order(content, stalker.explosives, "explosives"):
        if best is None or table[item_id]["dice"] > table[best]["dice"]:
            best = item_id
    return best


def _fighter_rescue(content: dict, stalker: StalkerState) -> list:
    """Z-08: which stimulators to use, in the order of use, to bring hp to >= 1.

    Among multisets of carried in-combat items whose total healing
    (heal + heal_bonus each) brings hp to >= 1: the fewest items; then the
    smallest total healing; then more of the earlier items in content order.
    The chosen items are used smallest heal first (ties: content order).

    Brute force over count vectors.  Only to keep it fast, a count of item i
    above ceil(need / h_i) is skipped: that many of item i alone would already
    suffice with fewer items, so such a vector is never the fewest-items choice;
    likewise an item that heals <= 0 is never in it.
    """
    table = content["items"]["healing"]
    need = 1 - stalker.hp
    ids = [i for i in _carried_in_order(content, stalker.healing, "healing") if table[i]["in_combat"]]
    heals = [_heal_amount(content, stalker, i) for i in ids]
    ranges = []
    for item_id, h in zip(ids, heals):
        if h <= 0:
            ranges.append(range(1))
        else:
            useful = -(-need // h)  # ceil(need / h)
            ranges.append(range(min(stalker.healing[item_id], useful) + 1))

    best_key = None
    best_counts = None
    for counts in itertools.product(*ranges):
        total = sum(c * h for c, h in zip(counts, heals))
        if stalker.hp + total < 1:
            continue
        key = (sum(counts), total, tuple(-c for c in counts))
        if best_key is None or key < best_key:
            best_key = key
            best_counts = counts
    if best_counts is None:
        raise AssertionError("rescue called although the death check failed")

    order = sorted(range(len(ids)), key=lambda k: (table[ids[k]]["heal"], k))
    plan = []
    for k in order:
        plan.extend([ids[k]] * best_counts[k])
    return plan


@dataclass(frozen=True)
class Strategy:
    name: str
    tries_escape: bool  # Z-33: fighter never tries, runner always tries


STRATEGIES = {
    "fighter": Strategy("fighter", tries_escape=False),
    "runner": Strategy("runner", tries_escape=True),  # exactly fighter except escape
}


# --------------------------------------------------------------------------
# One fight (spec "One fight")
# --------------------------------------------------------------------------


def stalker_attack(content: dict, stalker: StalkerState, target: MonsterState,
                    dice: Stream, used: dict) -> None:
    """Step b: one attack on the target, firearm or one explosive (Z-15..Z-19)."""
    explosive_id = _fighter_explosive(content, stalker)
    if explosive_id is not None:
        # Z-17: single use; Z-18: at most one per round (one attack per round);
        # Z-19: Gromoboi applies, modifiers do not.
        stalker.explosives[explosive_id] -= 1
        used[explosive_id] = used.get(explosive_id, 0) + 1
        n_dice = content["items"]["explosives"][explosive_id]["dice"]
        roll = dice.roll(n_dice, 6)
        damage = max(0, roll + stalker.damage_bonus - target.defence)  # Z-15, Z-23
    elif stalker.has_firearm:
        # Z-16: unlimited shots; Z-21 modifiers (capped) + Z-05 Gromoboi.
        roll = dice.roll(stalker.firearm_dice, 6)
        damage = max(0, roll + stalker.firearm_bonus - target.defence)  # Z-15, Z-23
    else:
        damage = 0  # no firearm: 0 damage, no dice rolled
    target.hp -= damage


def monster_attack(monster: MonsterState, stalker: StalkerState, dice: Stream) -> None:
    """Step c: one monster hit: monster.dice d6 + bonus - stalker defence, min 0 (Z-15, Z-23, Z-37)."""
    roll = dice.roll(monster.dice, 6)
    damage = max(0, roll + monster.bonus - stalker.defence)
    stalker.hp -= damage


def survives_hit(content: dict, stalker: StalkerState, used: dict) -> bool:
    """Z-08 after a hit left hp <= 0: death unless the carried stimulators can save him.

    Death if hp + (heal + heal_bonus of every carried in-combat item) < 1; then
    no item is used.  Otherwise the rescue's stimulators are used one at a time
    until hp >= 1.
    """
    table = content["items"]["healing"]
    can_heal = sum(
        n * _heal_amount(content, stalker, item_id)
        for item_id, n in stalker.healing.items()
        if table[item_id]["in_combat"]
    )
    if stalker.hp + can_heal < 1:
        return False
    for item_id in _fighter_rescue(content, stalker):
        if stalker.hp >= 1:
            break
        _use_healing(content, stalker, item_id, used)  # Z-31: capped at max HP
    return True


def outcome_record(outcome: str, rounds: int, stalker: StalkerState, used: dict) -> dict:
    return {
        "outcome": outcome,
        "rounds": rounds,
        "hp_left": stalker.hp,
        "used": {k: v for k, v in used.items() if v > 0},
    }


def simulate_fight(content: dict, loadout: dict, monsters: list, strategy: str,
                   seed: int, trial: int) -> dict:
    """One fight; returns {"outcome", "rounds", "hp_left", "used"}.

    outcome is "win", "draw", "escape" or "death"; rounds is the round the
    fight ended in (0 for an escape, [fight] max_rounds for a draw); hp_left is
    the hp at the end (for a death, the hp <= 0 that killed him); used maps
    item id -> count used (healing and explosives).
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}")
    plan = STRATEGIES[strategy]
    fight_rules = content["rules"]["fight"]

    stalker = prepare_stalker(content, loadout)
    foes = prepare_monsters(content, monsters)
    used = {}

    stalker_dice = Stream(seed, trial, STALKER)
    monster_dice = Stream(seed, trial, MONSTER)
    escape_dice = Stream(seed, trial, ESCAPE)

    # 1. Pre-fight heal, out of combat (Z-31).
    fighter_pre_fight_heal(content, stalker, used)

    # 2. Escape (Z-32, Z-33; Z-38: one roll before the first round).
    if plan.tries_escape:
        if stalker.reputation <= fight_rules["escape_auto_max"]:
            return outcome_record("escape", 0, stalker, used)  # Z-33 [A] no roll
        if escape_dice.die(6) >= stalker.reputation:
            return outcome_record("escape", 0, stalker, used)

    # 3. Rounds (Z-38): the stalker attacks first, then each living monster.
    max_rounds = fight_rules["max_rounds"]
    for r in range(1, max_rounds + 1):
        # a. in-combat heal by choice: the built-in strategies do none.

        # b. the stalker attacks.
        target = fighter_target(foes)
        stalker_attack(content, stalker, target, stalker_dice, used)
        if not any(m.alive for m in foes):
            return outcome_record("win", r, stalker, used)

        # c. each living monster, in list order, attacks.
        for m in foes:
            if not m.alive:
                continue
            monster_attack(m, stalker, monster_dice)
            if stalker.hp <= 0 and not survives_hit(content, stalker, used):
                return outcome_record("death", r, stalker, used)  # Z-08

    # Z-38: after max_rounds both sides alive: the stalker walks away.
    return outcome_record("draw", max_rounds, stalker, used)


def run_fights(content: dict, loadout: dict, monsters: list, strategy: str, seed: int,
               n_trials: int, trial_start: int = 0) -> dict:
    """Aggregate trials trial_start .. trial_start + n_trials - 1.

    Returns {"counts": {"win", "draw", "escape", "death"}, "rounds_hist":
    {rounds: n}, "hp_hist": {max(hp_left, 0): n}, "used": {item_id: total},
    "sum_rounds": int, "sum_hp_survivors": int (hp_left summed over every
    outcome but death)}.
    """
    counts = {"win": 0, "draw": 0, "escape": 0, "death": 0}
    rounds_hist = {}
    hp_hist = {}
    used_total = {}
    sum_rounds = 0
    sum_hp_survivors = 0
    for trial in range(trial_start, trial_start + n_trials):
        res = simulate_fight(content, loadout, monsters, strategy, seed, trial)
        counts[res["outcome"]] += 1
        rounds_hist[res["rounds"]] = rounds_hist.get(res["rounds"], 0) + 1
        hp = max(0, res["hp_left"])
        hp_hist[hp] = hp_hist.get(hp, 0) + 1
        for item_id, n in res["used"].items():
            used_total[item_id] = used_total.get(item_id, 0) + n
        sum_rounds += res["rounds"]
        if res["outcome"] != "death":
            sum_hp_survivors += res["hp_left"]
    return {
        "counts": counts,
        "rounds_hist": rounds_hist,
        "hp_hist": hp_hist,
        "used": used_total,
        "sum_rounds": sum_rounds,
        "sum_hp_survivors": sum_hp_survivors,
    }
