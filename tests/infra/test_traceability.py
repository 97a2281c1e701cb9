"""Every rule of the rule catalogue (``docs/rules/index.md``) is played and
tested: its id (``Z-21``) is cited in ``sim/`` or ``strategies/``, and a test
function is named for it (``test_z21_...``, or ``test_z15_z23_...`` for two
rules); and no kernel or strategy holds a rule number of its own (every numeric
literal is accounted for)."""

import ast
import collections
import re
from pathlib import Path

import pytest

from tests.conftest import RULES_MD

ROOT = Path(__file__).resolve().parents[2]
ID = re.compile(r"^- ([ZSKAM]-\d+) ", re.M)
TEST_NAME = re.compile(r"^\s*def (test_(?:[zskam]\d+_)+)", re.M)


def _rule_ids():
    return ID.findall(RULES_MD.read_text(encoding="utf-8"))


def _text(folders, suffixes):
    return "\n".join(p.read_text(encoding="utf-8") for folder in folders for p in sorted((ROOT / folder).rglob("*"))
                     if p.suffix in suffixes and p.is_file())


RULE_IDS = _rule_ids()
CITED = set(re.findall(r"\b[ZSKAM]-\d+\b", _text(("sim", "strategies"), {".py", ".toml", ".md"})))
TESTED = {f"{tag[0].upper()}-{tag[1:]}" for prefix in TEST_NAME.findall(_text(("tests",), {".py"}))
          for tag in prefix[len("test_"):].split("_") if tag}


def test_rules_md_ids_are_parsed():
    assert {"Z-01", "Z-43", "S-24", "K-08", "A-07", "M-08"} <= set(RULE_IDS)
    assert len(RULE_IDS) == len(set(RULE_IDS))


@pytest.mark.parametrize("rule", RULE_IDS)
def test_rule_is_cited_in_the_code(rule):
    assert rule in CITED, f"{rule}: cite it (as `{rule}`) in the code of sim/ or strategies/ that plays it"


@pytest.mark.parametrize("rule", RULE_IDS)
def test_rule_has_a_test_named_for_it(rule):
    name = "test_" + rule.lower().replace("-", "")
    assert rule in TESTED, f"{rule}: add a test named {name}_... in tests/"


# Numeric literals other than 0 and 1 in each function of the kernels and strategies
# (the skirmish kernel's are in tests/rules/test_skirmish_rules.py), and how many of each. None is a
# rule number: every [G] and [A] number reaches the code from the content.
LITERALS = {
    "sim/kernels/stalkeriada.py": {
        # six hex directions (6), scratch words (5); backpack(s) = -2 - s and the "to origin" place (-2);
        # the d6 (6); percent shares (100); result columns 2, 3; three shop items (3)
        "layout": {6: 1, 5: 1}, "neighbour": {6: 1}, "backpack": {2: 1}, "_chips_to": {2: 1}, "_arrest": {2: 1},
        "_death": {100: 1}, "_trap_roll": {6: 1}, "_city": {6: 5, 100: 1}, "_ambushed": {6: 2}, "_fence": {6: 1},
        "_zone": {6: 7}, "turn": {6: 2}, "game_records": {2: 1, 3: 1}, "run_games": {3: 2},
    },
    "sim/kernels/journey.py": {
        # two blocks; permille (1000); a "never" sentinel (1 << 62); level rows start at level 2; the d6;
        # indices into the tables and strategy tuples (3, 4, 6..9)
        "blocks": {2: 1}, "_shop": {1000: 1}, "_influence_needed": {62: 1}, "_gain_xp": {2: 6, 3: 1},
        "_trap": {6: 2}, "_skill_event": {6: 1}, "_hex_event": {7: 2, 4: 2, 8: 1},
        "journey_once": {7: 1, 8: 1, 9: 1, 3: 1, 6: 1}, "_campaign": {7: 1}, "run_journeys": {6: 1},
    },
    "sim/kernels/fight.py": {
        # two words per monster slot, an "infinite" sentinel (1 << 40), the d6
        "view_size": {2: 1}, "fewest_rescue_pick": {40: 2}, "_stalker_attack": {6: 2}, "fight_once": {6: 1},
        "_melee_rounds": {6: 1}, "_duel_rounds": {6: 2},
    },
    "sim/kernels/dice.py": {
        # the d6; trials per parallel block (4096)
        "ways_to_roll": {2: 1}, "expected_damage": {6.0: 3}, "skill_test": {6: 3},
        "count_skill_passes": {4096: 4, 4095: 1},
    },
    "strategies/stalkeriada.py": {
        # play heuristics of the planner: d6 faces (6; 7 "never"), route weights (2, 3), Dijkstra keys
        # (8 x cost + direction, 20 rings), direction tables (4, 6)
        "faces_in": {7: 1}, "fence_score": {2: 2}, "exit_cost": {2: 2, 6: 2}, "_cell_weight": {2: 1, 3: 3},
        "cheapest_move": {20: 1, 4: 4, 2: 1, 6: 4, 3: 10, 7: 2, 8: 7},
    },
    "strategies/tactician.py": {"_firearm_damage": {0.001: 2}, "_incoming": {0.001: 1}, "finisher_or_panic": {30: 1}},
    "strategies/basic.py": {},
}


def _literals(path):
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    found = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            counts = collections.Counter(n.value for n in ast.walk(node) if isinstance(n, ast.Constant)
                                         and isinstance(n.value, (int, float)) and not isinstance(n.value, bool)
                                         and n.value not in (0, 1))
            if counts:
                found[node.name] = dict(counts)
    return found


@pytest.mark.parametrize("path", sorted(LITERALS))
def test_kernels_and_strategies_hold_no_rule_number_of_their_own(path):
    """Every numeric literal is accounted for above; a new one (a rule number written into
    the code instead of the content, like the nut's range S-22 or the re-entry share S-23
    once were) fails here."""
    assert _literals(path) == LITERALS[path]
