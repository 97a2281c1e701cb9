"""The explorer's form: every assumed [A] number and price, each typed value
checked by the loaders (a refused one gets their one-line error and runs
nothing), undo and reset, and "Save as" through the TOML editor."""

import shutil
import tomllib

import pytest

from sim.compare.diff import content_diff
from sim.compare.sensitivity import assumed_parameters
from sim.content import DEFAULT_DIR
from sim.explore import Explorer
from sim.explore.fields import content_fields, item_prices, parse, same


@pytest.fixture
def explorer():
    """An explorer of the shipped content, never started: edits are checked, nothing is measured."""
    ex = Explorer(quick=True)
    yield ex
    ex.close()


def test_the_form_holds_every_assumed_number_and_every_price():
    fields = content_fields(DEFAULT_DIR)
    keys = {(f.file, f.key) for f in fields}
    assert {(p.file, p.key) for p in assumed_parameters(DEFAULT_DIR)} <= keys
    raw = tomllib.loads((DEFAULT_DIR / "items.toml").read_text(encoding="utf-8"))
    prices = {("items.toml", f"{family}.{item}.price") for family, items in raw.items() for item in items}
    assert prices == {(f.file, f.key) for f in item_prices(DEFAULT_DIR)} and prices <= keys
    assert len(keys) == len(fields)
    assert [f.file for f in fields[:3]] == ["items.toml"] * 3 and fields[0].name == "price"
    files = [f.file for f in fields]
    assert files.index("monsters.toml") < files.index("rules.toml") < files.index("skirmish.toml")


@pytest.mark.parametrize("text,value", [("25", 25), (" 2.5 ", 2.5), ("true", True), ("1_000", 1000),
                                        ("abc", "abc"), ("", ""), ("[1, 2]", "[1, 2]")])
def test_a_fields_text_is_read_as_toml_reads_it(text, value):
    assert same(parse(text), value)


def test_same_tells_a_flag_from_a_number():
    assert same(20, 20) and not same(20.0, 20) and not same(1, True)


@pytest.mark.parametrize("text,message", [
    ("0", "monsters.toml: bloodsucker.hp: 0 is below the minimum 1; use a value >= 1"),
    ("abc", "monsters.toml: bloodsucker.hp: expected int, got str 'abc'"),
    ("2.5", "monsters.toml: bloodsucker.hp: expected int, got float 2.5"),
])
def test_a_refused_value_gets_the_loaders_line_and_runs_nothing(explorer, text, message):
    generation = explorer.generation
    assert explorer.set("monsters.toml", "bloodsucker.hp", text) == message
    assert "\n" not in message
    assert explorer.errors == {("monsters.toml", "bloodsucker.hp"): message}
    assert explorer.generation == generation and explorer.edits == {} and explorer.history == []


def test_a_value_refused_by_a_rule_across_entries_names_it(explorer):
    problem = explorer.set("items.toml", "modifiers.rebored.bonus", "9")
    assert problem.startswith("items.toml: firearms.ak47: its modifiers total +14, above the cap +6 (Z-21)")


def test_edits_undo_and_reset(explorer):
    assert explorer.set("monsters.toml", "bloodsucker.hp", "30") is None
    assert explorer.set("items.toml", "firearms.ak47.price", "1400") is None
    assert explorer.generation == 2
    assert explorer.edits == {("monsters.toml", "bloodsucker.hp"): 30, ("items.toml", "firearms.ak47.price"): 1400}
    assert explorer.text("monsters.toml", "bloodsucker.hp") == "30"
    assert explorer.set("items.toml", "firearms.ak47.price", "1400") is None  # the same value again: nothing runs
    assert explorer.generation == 2
    assert explorer.undo() and explorer.edits == {("monsters.toml", "bloodsucker.hp"): 30}
    assert explorer.reset() and explorer.edits == {}
    assert explorer.undo() and explorer.edits == {("monsters.toml", "bloodsucker.hp"): 30}
    assert explorer.set("monsters.toml", "bloodsucker.hp", "20") is None  # back to the baseline's value
    assert explorer.edits == {} and not explorer.reset()


def test_save_as_writes_a_folder_validate_accepts_and_compare_diffs(explorer, tmp_path):
    from sim.api import validate

    explorer.set("monsters.toml", "bloodsucker.hp", "30")
    explorer.set("rules.toml", "market.trophy_price_per_hp", "25")
    saved = explorer.save_as(tmp_path / "saved")
    assert validate(saved)["monsters"] == 7
    assert {(d["file"], d["key"], d["base"], d["new"]) for d in content_diff(DEFAULT_DIR, saved)} == {
        ("monsters.toml", "bloodsucker.hp", 20, 30), ("rules.toml", "market.trophy_price_per_hp", 20, 25)}
    assert explorer.changes() == content_diff(DEFAULT_DIR, saved)
    before = (DEFAULT_DIR / "monsters.toml").read_text(encoding="utf-8").splitlines()
    after = (saved / "monsters.toml").read_text(encoding="utf-8").splitlines()
    assert [(a, b) for a, b in zip(before, after) if a != b] == [("hp = 20", "hp = 30")]  # comments kept


def test_save_as_refuses_a_folder_that_exists(explorer, tmp_path):
    from sim.errors import ZonesimError

    with pytest.raises(ZonesimError, match="already exists; give a new folder"):
        explorer.save_as(tmp_path)


def test_a_balance_proposal_opens_as_the_draft_and_undo_goes_back(explorer, tmp_path):
    """A folder written as ``zonesim balance`` writes a proposal (``OUT/proposal-N/content``,
    through the TOML editor) opens as the draft: its changes are the edits, undo goes back."""
    from sim.balance.spec import Knob, with_values

    knobs = {Knob("monsters.toml", "chimera.hp", 30, 10, 40, 1): 19,
             Knob("items.toml", "firearms.ak47.price", 1500, 500, 3000, 100): 1200}
    proposal = tmp_path / "balance" / "proposal-1"
    with_values(DEFAULT_DIR, proposal / "content", knobs)
    explorer.set("monsters.toml", "bloodsucker.hp", "30")
    assert explorer.open_draft(proposal) == 2
    assert explorer.edits == {("monsters.toml", "chimera.hp"): 19, ("items.toml", "firearms.ak47.price"): 1200}
    assert explorer.changes() == content_diff(DEFAULT_DIR, proposal / "content")
    assert explorer.undo() and explorer.edits == {("monsters.toml", "bloodsucker.hp"): 30}


def test_a_draft_that_changes_a_field_the_page_does_not_show_is_refused(explorer, tmp_path):
    from sim.content.load import ContentError

    folder = shutil.copytree(DEFAULT_DIR, tmp_path / "other")
    monsters = folder / "monsters.toml"
    monsters.write_text(monsters.read_text(encoding="utf-8").replace('name = "Bloodsucker"', 'name = "Sucker"'),
                        encoding="utf-8")
    with pytest.raises(ContentError, match="1 field the explorer does not show .monsters.toml: bloodsucker.name"):
        explorer.open_draft(folder)
    assert explorer.edits == {} and explorer.generation == 0
