"""Every rule of RULES.md is played and tested: its id (``Z-21``) is cited in
``sim/`` or ``strategies/``, and a test function is named for it
(``test_z21_...``, or ``test_z15_z23_...`` for two rules)."""

import re
from pathlib import Path

import pytest

from tests.conftest import RULES_MD

ROOT = Path(__file__).resolve().parents[1]
ID = re.compile(r"^- ([ZSKAM]-\d+) ", re.M)
TEST_NAME = re.compile(r"^\s*def (test_(?:[zskam]\d+_)+)", re.M)


def _rule_ids():
    return ID.findall(RULES_MD.read_text(encoding="utf-8")) if RULES_MD else []


def _text(folders, suffixes):
    return "\n".join(p.read_text(encoding="utf-8") for folder in folders for p in sorted((ROOT / folder).rglob("*"))
                     if p.suffix in suffixes and p.is_file())


RULE_IDS = _rule_ids()
CITED = set(re.findall(r"\b[ZSKAM]-\d+\b", _text(("sim", "strategies"), {".py", ".toml", ".md"})))
TESTED = {f"{tag[0].upper()}-{tag[1:]}" for prefix in TEST_NAME.findall(_text(("tests",), {".py"}))
          for tag in prefix[len("test_"):].split("_") if tag}
needs_rules_md = pytest.mark.skipif(RULES_MD is None, reason="../shared/RULES.md (the rule catalog) not found")


@needs_rules_md
def test_rules_md_ids_are_parsed():
    assert {"Z-01", "Z-43", "S-24", "K-08", "A-07", "M-08"} <= set(RULE_IDS)
    assert len(RULE_IDS) == len(set(RULE_IDS))


@needs_rules_md
@pytest.mark.parametrize("rule", RULE_IDS or ["none"])
def test_rule_is_cited_in_the_code(rule):
    assert rule in CITED, f"{rule}: cite it (as `{rule}`) in the code of sim/ or strategies/ that plays it"


@needs_rules_md
@pytest.mark.parametrize("rule", RULE_IDS or ["none"])
def test_rule_has_a_test_named_for_it(rule):
    name = "test_" + rule.lower().replace("-", "")
    assert rule in TESTED, f"{rule}: add a test named {name}_... in tests/"
