"""Every rule of the rule catalogue (``docs/rules/index.md``) is played and
tested, and every assumed [A] number lives in content:

- each rule id (``Z-21``) is cited in ``sim/`` or ``strategies/``, and a test
  function is named for it (``test_z21_...``, or ``test_z15_z23_...`` for two);
- each [A] rule is cited in a content file that lists assumed fields;
- each assumed field of the shipped content is read through the loader's
  schema (a value of the wrong type is refused with a line naming the field)
  and cites the rule it sets.
"""

import re
import shutil
from pathlib import Path

import pytest

from sim.compare.sensitivity import assumed_parameters
from sim.content import DEFAULT_DIR, load_content
from sim.content.edit import set_value
from sim.content.load import ContentError
from sim.checks import check_whole
from tests.conftest import RULES_MD

ROOT = Path(__file__).resolve().parents[2]
ID = re.compile(r"^- ([ZSKAM]-\d+) ", re.MULTILINE)
TEST_NAME = re.compile(r"^\s*def (test_(?:[zskam]\d+_)+)", re.MULTILINE)


def _rule_ids():
    return ID.findall(RULES_MD.read_text(encoding="utf-8"))


def _assumed_rule_ids():
    return re.findall(r"^- ([ZSKAM]-\d+) .*\[A\]", RULES_MD.read_text(encoding="utf-8"), re.MULTILINE)


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


ASSUMED_RULES = _assumed_rule_ids()
ASSUMED_FIELDS = assumed_parameters(DEFAULT_DIR)
CONTENT_FILES = {p.relative_to(DEFAULT_DIR).as_posix(): p.read_text(encoding="utf-8")
                 for p in sorted(DEFAULT_DIR.rglob("*.toml"))}


def _citations(file, key):
    """Rule ids cited for ``key`` of ``file``: on its line, else in its table, else in the file's header."""
    lines = CONTENT_FILES[file].splitlines()
    *tables, field = key.split(".")
    headers = [i for i, line in enumerate(lines) if line.startswith("[")]
    table = re.sub(r"\[\d+\]$", "", ".".join(tables))
    start = next((i for i in headers if re.match(rf"\[+{re.escape(table)}\]+", lines[i])), 0) if tables else 0
    end = next((i for i in headers if i > start), len(lines))
    line = next((x for x in lines[start:end] if re.match(rf"\s*{re.escape(field)}\s*=", x)), "")
    header = lines[:headers[0] if headers else len(lines)]
    for scope in (line, "\n".join(lines[start:end]), "\n".join(header)):
        if found := re.findall(r"\b[ZSKAM]-\d+\b", scope):
            return found
    return []


def test_assumed_rules_and_fields_are_found():
    assert len(ASSUMED_RULES) >= 30 and {"Z-02", "Z-37", "Z-42", "S-24", "A-07"} <= set(ASSUMED_RULES)
    assert len(ASSUMED_FIELDS) >= 150


@pytest.mark.parametrize("rule", ASSUMED_RULES)
def test_assumed_rule_lives_in_content(rule):
    holders = [name for name, text in CONTENT_FILES.items() if re.search(rf"\b{rule}\b", text) and "assumed" in text]
    assert holders, f"{rule} is [A]: its numbers belong in a content file that cites it and lists them in `assumed`"


@pytest.mark.parametrize("field", ASSUMED_FIELDS, ids=lambda p: f"{p.file}:{p.key}")
def test_assumed_field_cites_its_rule(field):
    cited = _citations(field.file, field.key)
    assert set(cited) & set(RULE_IDS), f"{field.file}: {field.key}: cite the rule it sets (e.g. `# Z-37 [A]`)"


def _load_all(folder):
    check_whole(load_content(folder))


def test_every_assumed_field_is_read_through_the_loaders_schema(tmp_path):
    """A string in any assumed field is refused by the loader with one line naming
    the field: the number reaches the game through the schema, nowhere else."""
    folder = tmp_path / "content"
    shutil.copytree(DEFAULT_DIR, folder)
    _load_all(folder)
    unread = []
    for field in ASSUMED_FIELDS:
        path, text = folder / field.file, CONTENT_FILES[field.file]
        path.write_text(set_value(text, field.key, '"x"'), encoding="utf-8")
        try:
            _load_all(folder)
            unread.append(f"{field.file}: {field.key} accepted a string")
        except ContentError as exc:
            if field.key.rsplit(".", 1)[-1] not in str(exc):
                unread.append(f"{field.file}: {field.key}: the error does not name the field: {exc}")
        finally:
            path.write_text(text, encoding="utf-8")
    assert not unread, "\n".join(unread)
