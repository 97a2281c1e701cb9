"""Tests of content loading (``sim.content.load_content``) and ``Loadout.validate``.

Rules: RULES.md Z-11 (finite decks, default deck size), Z-18 (at most 10
explosives), Z-21 (modifiers fit one firearm, stack to at most +6), Z-24 (one
head and one body armour), Z-37 / Z-42 ([A] content values), "Content ids".

Every content test copies the shipped default into ``tmp_path``, breaks one
TOML file and checks that ``ContentError`` is raised with one line that names
the file, the entry and the field, and says how to fix it.
"""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest

from sim.content import DEFAULT_DIR, ContentError, load_content
from sim.content.loadout import Loadout, LoadoutError, check_monsters
from tests.conftest import RULES_MD, edit_file, edited_content

needs_rules_md = pytest.mark.skipif(RULES_MD is None, reason="../shared/RULES.md (the rule catalog) not found")


# --------------------------------------------------------------------------
# helpers


def _copy_default(tmp_path: Path) -> Path:
    directory = tmp_path / "content"
    shutil.copytree(DEFAULT_DIR, directory)
    return directory


def _content_error(directory: Path, *fragments: str) -> str:
    """Load ``directory``, expect a one-line ContentError containing every fragment."""
    with pytest.raises(ContentError) as info:
        load_content(directory)
    message = str(info.value)
    assert message, "empty error message"
    assert "\n" not in message, f"message is not one line: {message!r}"
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    return message


def _line_of(text: str, needle: str) -> int:
    """1-based number of the line of ``text`` that contains ``needle``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not found")


@pytest.fixture(scope="module")
def default():
    return load_content()


# --------------------------------------------------------------------------
# the shipped default


def test_default_content_loads(default):
    assert default.directory == DEFAULT_DIR
    assert len(default.characters) >= 5
    assert len(default.monsters) >= 7
    assert default.family("firearms")
    assert re.fullmatch(r"[0-9a-f]{64}", default.digest)


def test_default_loads_from_a_copy_with_the_same_digest(tmp_path, default):
    copy = load_content(_copy_default(tmp_path))
    assert copy.digest == default.digest
    assert list(copy.items) == list(default.items)


def _rules_content_ids() -> dict:
    """The "Content ids" section of RULES.md as ``{label: [(id, qualifier), ...]}``.

    The qualifier is the word that introduces a group (``head``/``body``,
    ``one-shot``) or the parenthesised firearm that follows a group of modifiers.
    """
    text = RULES_MD.read_text(encoding="utf-8")
    section = text.split("## Content ids", 1)[1]
    section = re.split(r"\n-{10,}|\n## ", section, maxsplit=1)[0]
    bullets = []
    for line in section.splitlines():
        if line.startswith("- "):
            bullets.append(line[2:].strip())
        elif line.startswith((" ", "\t")) and bullets and line.strip():
            bullets[-1] += " " + line.strip()
    out = {}
    for bullet in bullets:
        label, _, rest = bullet.partition(":")
        entries = []
        for group in rest.split(";"):
            ids = re.findall(r"`([A-Za-z0-9_]+)`", group)
            after = re.search(r"\(([a-z0-9_]+)\)\s*$", group.strip())
            before = re.match(r"\s*([a-z-]+)\s+`", group)
            qualifier = after.group(1) if after else before.group(1) if before else None
            entries += [(i, qualifier) for i in ids]
        out[label.strip()] = entries
    return out


CONTENT_IDS = _rules_content_ids() if RULES_MD else {}

# RULES.md label -> where the ids live in a Content: "characters", "monsters" or item families
WHERE = {
    "characters": ("characters",),
    "monsters": ("monsters",),
    "firearms": ("firearms",),
    "modifiers": ("modifiers",),
    "explosives": ("explosives",),
    "armour": ("armour",),
    "healing": ("healing",),
    "zone movement": ("movement", "one_shot"),
    "location movement": ("location",),
    "event avoidance": ("avoidance",),
    "escape": ("escape",),
}
# Listed in RULES.md; their content (maps, the Stalkeriada shop) comes with the journey and Stalkeriada modes.
NOT_IN_SCHEMA = ("terrain", "Stalkeriada shop")


@needs_rules_md
def test_rules_md_content_ids_section_is_parsed():
    assert set(CONTENT_IDS) == set(WHERE) | set(NOT_IN_SCHEMA)
    assert ("novice", None) in CONTENT_IDS["characters"]
    assert ("rebored", "ak47") in CONTENT_IDS["modifiers"]
    assert ("vest", "body") in CONTENT_IDS["armour"]
    assert sum(len(v) for v in CONTENT_IDS.values()) >= 60


@needs_rules_md
@pytest.mark.parametrize("label", sorted(WHERE))
def test_every_rules_md_content_id_exists_in_default(default, label):
    where = WHERE[label]
    for item_id, qualifier in CONTENT_IDS[label]:
        if where == ("characters",):
            assert item_id in default.characters, item_id
        elif where == ("monsters",):
            assert item_id in default.monsters, item_id
        else:
            assert item_id in default.items, item_id
            entry = default.items[item_id]
            assert entry.family in where, f"{item_id} is in [{entry.family}], expected one of {where}"
            if label == "modifiers":  # Z-21: each modifier fits the firearm it is listed under
                assert entry["firearm"] == qualifier, item_id
            if label == "armour":  # Z-24
                assert entry["slot"] == qualifier, item_id
            if label == "zone movement":  # Z-25 reusable vs Z-27/Z-28 one-shot
                assert entry.family == ("one_shot" if qualifier == "one-shot" else "movement"), item_id


def test_default_values_match_rules_md(default):
    """Spot checks of [G]/[A] numbers from Z-02, Z-18, Z-21, Z-24, Z-37, Z-42."""
    assert default.rules["stalker"]["base_hp"] == 25
    assert default.characters["novice"]["max_hp"] == 25
    assert default.characters["verzila"]["max_hp"] == 35
    assert default.rules["fight"]["modifier_cap"] == 6
    assert default.rules["fight"]["max_explosives"] == 10
    assert default.items["ak47"]["dice"] == 2
    assert default.items["rebored"]["bonus"] + default.items["laser_sight"]["bonus"] == 4
    assert sum(e["bonus"] for e in default.family("modifiers") if e["firearm"] == "ak47") == 6
    assert default.items["exoskeleton"]["defence"] == 4
    assert default.monsters["bloodsucker"]["hp"] == 20
    assert default.monsters["bloodsucker"]["trophy_price"] == 20 * 20  # hp x trophy_price_per_hp


# --------------------------------------------------------------------------
# [A] fields


def test_assumed_fields_match_the_assumed_lists_of_the_files(default):
    expected = set()
    rules = tomllib.loads((DEFAULT_DIR / "rules.toml").read_text(encoding="utf-8"))
    expected |= {f"rules.toml: {s}.{f}" for s, t in rules.items() for f in t.get("assumed", [])}
    for name in ("characters.toml", "monsters.toml"):
        raw = tomllib.loads((DEFAULT_DIR / name).read_text(encoding="utf-8"))
        expected |= {f"{name}: {e}.{f}" for e, t in raw.items() for f in t.get("assumed", [])}
    items = tomllib.loads((DEFAULT_DIR / "items.toml").read_text(encoding="utf-8"))
    expected |= {f"items.toml: {i}.{f}" for fam in items.values() for i, t in fam.items()
                 for f in t.get("assumed", [])}
    fields = default.assumed_fields()
    assert len(fields) == len(set(fields)), "an assumed field is listed twice"
    assert set(fields) == expected


def test_assumed_fields_examples(default):
    fields = set(default.assumed_fields())
    for assumed in ("rules.toml: stalker.base_hp", "rules.toml: market.default_deck",
                    "rules.toml: fight.max_rounds", "characters.toml: mazhor.money_bonus",
                    "characters.toml: gromoboi.damage_bonus", "monsters.toml: chimera.hp",
                    "items.toml: ak47.dice", "items.toml: ak47.price", "items.toml: laser_sight.bonus"):
        assert assumed in fields, assumed
    for given in ("rules.toml: fight.modifier_cap", "rules.toml: fight.max_explosives",  # Z-21, Z-18 [G]
                  "rules.toml: market.sell_fraction", "characters.toml: verzila.max_hp",
                  "characters.toml: doktor.heal_bonus", "items.toml: jetpack.steps"):
        assert given not in fields, given


def test_dropping_assumed_removes_the_field_from_assumed_fields(tmp_path):
    directory = edited_content(tmp_path, "characters.toml", 'money_bonus = 1000       # Z-04 [A] spent like money; '
                        'not for a replacement stalker\nassumed = ["money_bonus"]',
                        "money_bonus = 1000")
    fields = load_content(directory).assumed_fields()
    assert "characters.toml: mazhor.money_bonus" not in fields
    assert "characters.toml: gromoboi.damage_bonus" in fields


# --------------------------------------------------------------------------
# defaults filled in by the loader


def test_z11_deck_defaults_to_market_default_deck(default):
    deck = default.rules["market"]["default_deck"]
    assert deck == 4  # Z-11 [A]
    assert all(e["deck"] == deck for e in default.items.values())


def test_z11_deck_follows_a_changed_default_deck_unless_set(tmp_path):
    directory = edited_content(tmp_path, "rules.toml", "default_deck = 4", "default_deck = 2")
    edit_file(directory, "items.toml", "heal = 4\n", "heal = 4\ndeck = 7\n")  # stimulator
    game = load_content(directory)
    assert game.items["stimulator"]["deck"] == 7
    assert all(e["deck"] == 2 for e in game.items.values() if e.id != "stimulator")
    with pytest.raises(LoadoutError, match="deck holds 2"):
        Loadout(healing=(("medkit", 3),)).validate(game)
    Loadout(healing=(("stimulator", 7),)).validate(game)


def test_character_and_monster_defaults(default):
    assert default.characters["novice"]["heal_bonus"] == 0
    assert default.characters["novice"]["damage_bonus"] == 0
    assert default.items["bag_of_nuts"]["always"] is False
    assert default.items["torsion_scanner"]["always"] is True


# --------------------------------------------------------------------------
# broken content


def test_malformed_toml_names_file_and_line(tmp_path):
    directory = edited_content(tmp_path, "items.toml", "dice = 2\nprice = 1500", "dice = = 2\nprice = 1500")
    text = (directory / "items.toml").read_text(encoding="utf-8")
    line = _line_of(text, "dice = = 2")
    _content_error(directory, str(directory / "items.toml"), "malformed TOML", f"line {line}")


def test_malformed_toml_in_rules_names_its_line(tmp_path):
    directory = edited_content(tmp_path, "rules.toml", "[fight]", "[fight")
    line = _line_of((directory / "rules.toml").read_text(encoding="utf-8"), "[fight")
    _content_error(directory, str(directory / "rules.toml"), "malformed TOML", f"line {line}")


def test_not_utf8_is_rejected(tmp_path):
    directory = _copy_default(tmp_path)
    (directory / "monsters.toml").write_bytes(b"[boar]\nname = \"\xff\"\n")
    _content_error(directory, str(directory / "monsters.toml"), "UTF-8")


def test_unknown_field_typo_is_rejected(tmp_path):
    directory = edited_content(tmp_path, "monsters.toml", "bonus = 2\ndefence = 2", "bonus = 2\ndefense = 2")
    message = _content_error(directory, str(directory / "monsters.toml"), "bloodsucker.defense",
                             "unknown field")
    assert "defence" in message  # the fix: the known field names


def test_unknown_item_field_is_rejected(tmp_path):
    directory = edited_content(tmp_path, "items.toml", 'name = "AK-47"', 'name = "AK-47"\nammo = 30')
    _content_error(directory, str(directory / "items.toml"), "firearms.ak47.ammo", "unknown field",
                   "known fields:", "dice")


def test_missing_required_field_is_rejected(tmp_path):
    directory = edited_content(tmp_path, "items.toml", 'name = "AK-47"\ndice = 2\n', 'name = "AK-47"\n')
    _content_error(directory, str(directory / "items.toml"), "firearms.ak47.dice",
                   "missing required field", "add `dice = ...`")


def test_missing_required_monster_field_is_rejected(tmp_path):
    directory = edited_content(tmp_path, "monsters.toml", 'name = "Chimera"\nhp = 30\n', 'name = "Chimera"\n')
    _content_error(directory, str(directory / "monsters.toml"), "chimera.hp", "missing required field",
                   "add `hp = ...`")


BAD_VALUES = {
    # case: (file, old text, new text, entry.field, message fragments)
    "wrong type": ("items.toml", "dice = 3\nprice = 5000", 'dice = "three"\nprice = 5000',
                   "firearms.kvazar.dice", ("expected int", "'three'")),
    "bool is not an int": ("monsters.toml", "hp = 6\n", "hp = true\n", "blind_dog.hp", ("expected int",)),
    "wrong type of bool field": ("items.toml", "heal = 5\nin_combat = false", 'heal = 5\nin_combat = "no"',
                                 "healing.medkit.in_combat", ("expected bool",)),
    "wrong type in rules": ("rules.toml", "sell_fraction = 0.5", 'sell_fraction = "half"',
                            "market.sell_fraction", ("expected float",)),
    "negative price": ("items.toml", "dice = 2\nprice = 1500\n", "dice = 2\nprice = -1500\n",
                       "firearms.ak47.price", ("-1500", "below the minimum 0", "use a value >= 0")),
    "negative deck": ("items.toml", "heal = 4\n", "heal = 4\ndeck = -1\n", "healing.stimulator.deck",
                      ("use a value >= 0",)),
    "max hp below one": ("characters.toml", "max_hp = 35", "max_hp = 0", "verzila.max_hp", ("use a value >= 1",)),
    "bad slot value": ("items.toml", 'name = "Helmet"\nslot = "head"', 'name = "Helmet"\nslot = "hat"',
                       "armour.helmet.slot", ("'hat'", "use one of: head, body")),
    "unknown modifier firearm": ("items.toml", 'name = "Rebored calibre"\nfirearm = "ak47"',
                                 'name = "Rebored calibre"\nfirearm = "ak74"', "modifiers.rebored.firearm",
                                 ("unknown firearm 'ak74'", "use one of: berdanka, ak47, kvazar")),
}


@pytest.mark.parametrize("case", BAD_VALUES)
def test_bad_field_value_is_rejected(tmp_path, case):
    file, old, new, where, fragments = BAD_VALUES[case]
    directory = edited_content(tmp_path, file, old, new)
    _content_error(directory, str(directory / file), where, *fragments)


def test_z21_modifier_total_above_cap_is_rejected(tmp_path):
    # AK-47: rebored +1, AP rounds +2, laser +3 = +6; +4 laser makes +7 > +6 (Z-21)
    directory = edited_content(tmp_path, "items.toml", 'firearm = "ak47"\nbonus = 3', 'firearm = "ak47"\nbonus = 4')
    _content_error(directory, str(directory / "items.toml"), "firearms.ak47", "+7", "cap +6", "Z-21",
                   "bonus", "modifier_cap")


def test_z21_modifier_total_at_cap_is_accepted(tmp_path):
    directory = edited_content(tmp_path, "items.toml", 'firearm = "berdanka"\nbonus = 3',
                        'firearm = "berdanka"\nbonus = 2')
    game = load_content(directory)
    assert sum(e["bonus"] for e in game.family("modifiers") if e["firearm"] == "berdanka") == 5


def test_z21_lower_cap_in_rules_rejects_default_modifiers(tmp_path):
    directory = edited_content(tmp_path, "rules.toml", "modifier_cap = 6", "modifier_cap = 5")
    _content_error(directory, str(directory / "items.toml"), "firearms.berdanka", "above the cap +5")


def test_duplicate_id_across_families_is_rejected(tmp_path):
    directory = _copy_default(tmp_path)
    path = directory / "items.toml"
    path.write_text(path.read_text(encoding="utf-8")
                    + '\n[armour.ak47]\nslot = "head"\ndefence = 1\nprice = 10\n', encoding="utf-8")
    _content_error(directory, str(path), "armour.ak47", "already used in [firearms]", "unique")


def test_unknown_item_family_is_rejected(tmp_path):
    directory = edited_content(tmp_path, "items.toml", "[firearms.kvazar]", "[weapons.kvazar]")
    _content_error(directory, str(directory / "items.toml"), "[weapons]", "unknown item family",
                   "known:", "firearms")


def test_unknown_rules_section_is_rejected(tmp_path):
    directory = _copy_default(tmp_path)
    path = directory / "rules.toml"
    path.write_text(path.read_text(encoding="utf-8") + "\n[combat]\nmax_rounds = 3\n", encoding="utf-8")
    _content_error(directory, str(path), "[combat]", "unknown section", "known:", "fight")


def test_bad_assumed_list_is_rejected(tmp_path):
    directory = edited_content(tmp_path, "monsters.toml", 'name = "Boar"\nhp = 14\ndice = 2\nbonus = 0\ndefence = 1\n'
                        'assumed = ["hp", "dice", "bonus", "defence"]',
                        'name = "Boar"\nhp = 14\ndice = 2\nbonus = 0\ndefence = 1\nassumed = ["hp", "armor"]')
    _content_error(directory, str(directory / "monsters.toml"), "boar.assumed", "'armor'")


@pytest.mark.parametrize("name", ["rules.toml", "characters.toml", "items.toml", "monsters.toml"])
def test_missing_file_is_rejected(tmp_path, name):
    directory = _copy_default(tmp_path)
    (directory / name).unlink()
    _content_error(directory, str(directory / name), "missing", "zonesim content init")


def test_missing_content_folder_is_rejected(tmp_path):
    _content_error(tmp_path / "nowhere", str(tmp_path / "nowhere"), "not found", "zonesim content init")


@pytest.mark.parametrize("section", ["stalker", "fight", "skill", "market"])
def test_missing_rules_section_is_rejected(tmp_path, section):
    directory = _copy_default(tmp_path)
    path = directory / "rules.toml"
    text = path.read_text(encoding="utf-8")
    # drop the section header and its body up to the next section
    text = re.sub(rf"\[{section}\]\n(?:(?!\[).*\n)*", "", text)
    assert f"[{section}]" not in text
    path.write_text(text, encoding="utf-8")
    _content_error(directory, str(path), f"[{section}]", "missing section", "copy it from the default")


def test_missing_rules_field_is_rejected(tmp_path):
    directory = edited_content(tmp_path, "rules.toml", "max_explosives = 10      # Z-18 [G] explosives carried per "
                        "stalker\n", "")
    _content_error(directory, str(directory / "rules.toml"), "fight.max_explosives", "missing required field")


def test_no_character_is_rejected(tmp_path):
    directory = _copy_default(tmp_path)
    (directory / "characters.toml").write_text("# none\n", encoding="utf-8")
    _content_error(directory, str(directory / "characters.toml"), "no character", "add at least one")


def test_entry_that_is_not_a_table_is_rejected(tmp_path):
    directory = _copy_default(tmp_path)
    path = directory / "monsters.toml"
    path.write_text("rat = 3\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    _content_error(directory, str(path), "rat", "expected a table")


def test_item_family_that_is_not_a_table_is_rejected(tmp_path):
    directory = _copy_default(tmp_path)
    path = directory / "items.toml"
    text = path.read_text(encoding="utf-8").split("[escape.smoke_bomb]")[0]
    path.write_text("escape = 5\n" + text, encoding="utf-8")
    _content_error(directory, str(path), "escape")


# --------------------------------------------------------------------------
# loadouts


def test_loadout_error_is_a_content_error():
    assert issubclass(LoadoutError, ContentError)


def test_full_legal_loadout_validates(default):
    loadout = Loadout(character="verzila", weapon="ak47", mods=("rebored", "ap_rounds", "laser_sight"),
                      head="sphere_helmet", body="exoskeleton",
                      healing=(("stimulator", 4), ("medkit", 4), ("combat_stimulator", 4)),
                      explosives=(("limonka", 4), ("molotov", 4), ("ppv", 2)),
                      escape_item="camo_cloak", reputation=3, hp=35)
    assert loadout.validate(default) is loadout
    assert loadout.cards()["stimulator"] == 4
    assert Loadout().validate(default).character == "novice"


def test_z21_modifier_on_the_wrong_firearm(default):
    with pytest.raises(LoadoutError) as info:
        Loadout(weapon="berdanka", mods=("rebored",)).validate(default)
    message = str(info.value)
    assert "--mods" in message and "rebored" in message and "ak47" in message and "berdanka" in message
    assert "--weapon ak47" in message  # the fix


def test_z21_modifier_without_a_firearm(default):
    with pytest.raises(LoadoutError, match=r"--mods: 'laser_sight' fits ak47, not no firearm"):
        Loadout(mods=("laser_sight",)).validate(default)


def test_z21_same_modifier_twice(default):
    with pytest.raises(LoadoutError, match="--mods: a modifier is listed twice"):
        Loadout(weapon="ak47", mods=("rebored", "rebored")).validate(default)


@pytest.mark.parametrize("option, kwargs, slot", [
    ("--head", {"head": "vest"}, "body"),
    ("--body", {"body": "sphere_helmet"}, "head"),
])
def test_z24_armour_in_the_wrong_slot(default, option, kwargs, slot):
    item = next(iter(kwargs.values()))
    with pytest.raises(LoadoutError) as info:
        Loadout(**kwargs).validate(default)
    message = str(info.value)
    assert message.startswith(f"{option}: '{item}' is {slot} armour")
    assert f"use --{slot} {item}" in message


def test_z18_more_than_ten_explosives(default):
    with pytest.raises(LoadoutError) as info:
        Loadout(explosives=(("limonka", 4), ("molotov", 4), ("ppv", 3))).validate(default)
    message = str(info.value)
    assert "--explosives" in message and "11" in message and "at most 10" in message and "Z-18" in message


def test_z18_ten_explosives_are_allowed(default):
    Loadout(explosives=(("limonka", 4), ("molotov", 4), ("ppv", 2))).validate(default)


def test_z18_cap_comes_from_rules(tmp_path):
    directory = edited_content(tmp_path, "rules.toml", "max_explosives = 10", "max_explosives = 2")
    with pytest.raises(LoadoutError, match="at most 2 per stalker"):
        Loadout(explosives=(("limonka", 1), ("molotov", 2))).validate(load_content(directory))


def test_z11_more_cards_than_the_deck_holds(default):
    with pytest.raises(LoadoutError) as info:
        Loadout(healing=(("stimulator", 5),)).validate(default)
    message = str(info.value)
    assert "stimulator" in message and "5" in message and "deck holds 4" in message and "Z-11" in message
    assert "carry at most 4" in message


def test_z11_deck_applies_to_explosives_too(default):
    with pytest.raises(LoadoutError, match=r"limonka: 5 cards wanted but its deck holds 4 \(Z-11\)"):
        Loadout(explosives=(("limonka", 5),)).validate(default)


def test_z11_whole_deck_is_allowed(default):
    Loadout(healing=(("stimulator", 4), ("combat_stimulator", 4))).validate(default)


@pytest.mark.parametrize("kwargs, fragment", [
    ({"character": "stalker"}, "--character: unknown id 'stalker'"),
    ({"weapon": "ak74"}, "--weapon: 'ak74' is not one of the firearms"),
    ({"weapon": "limonka"}, "--weapon: 'limonka' is not one of the firearms"),
    ({"weapon": "ak47", "mods": ("silencer",)}, "--mods: 'silencer' is not one of the modifiers"),
    ({"head": "cap"}, "--head: 'cap' is not one of the armour"),
    ({"body": "stimulator"}, "--body: 'stimulator' is not one of the armour"),
    ({"healing": (("aspirin", 1),)}, "--stims/--medkits: 'aspirin' is not one of the healing"),
    ({"healing": (("limonka", 1),)}, "--stims/--medkits: 'limonka' is not one of the healing"),
    ({"explosives": (("nuke", 1),)}, "--explosives: 'nuke' is not one of the explosives"),
    ({"escape_item": "teleport"}, "--escape-item: 'teleport' is not one of the escape"),
])
def test_unknown_ids_are_rejected(default, kwargs, fragment):
    with pytest.raises(LoadoutError) as info:
        Loadout(**kwargs).validate(default)
    message = str(info.value)
    assert fragment in message
    assert "one of" in message  # lists the choices


def test_unknown_monster_is_rejected(default):
    with pytest.raises(LoadoutError, match="--monster: unknown id 'dragon'; use one of: blind_dog"):
        check_monsters(default, ["boar", "dragon"])
    with pytest.raises(LoadoutError, match="at least one monster"):
        check_monsters(default, [])
    assert check_monsters(default, ["boar", "boar"]) == ("boar", "boar")


@pytest.mark.parametrize("kwargs, fragment", [
    ({"healing": (("stimulator", -1),)}, "--stims/--medkits: stimulator:-1 is negative"),
    ({"explosives": (("limonka", -2),)}, "--explosives: limonka:-2 is negative"),
])
def test_negative_counts_are_rejected(default, kwargs, fragment):
    with pytest.raises(LoadoutError) as info:
        Loadout(**kwargs).validate(default)
    assert fragment in str(info.value)
    assert "give a count >= 0" in str(info.value)


def test_negative_reputation_is_rejected(default):
    with pytest.raises(LoadoutError, match="--reputation: -1 is negative"):
        Loadout(reputation=-1).validate(default)


@pytest.mark.parametrize("character, hp", [("novice", 0), ("novice", -3), ("novice", 26), ("verzila", 36)])
def test_hp_outside_one_to_max_is_rejected(default, character, hp):
    max_hp = default.characters[character]["max_hp"]
    with pytest.raises(LoadoutError) as info:
        Loadout(character=character, hp=hp).validate(default)
    assert f"--hp: {hp} is outside 1..{max_hp}" in str(info.value)
    assert character in str(info.value)


@pytest.mark.parametrize("character, hp", [("novice", 1), ("novice", 25), ("verzila", 35)])
def test_hp_inside_one_to_max_is_accepted(default, character, hp):
    Loadout(character=character, hp=hp).validate(default)
