"""An item family the schema does not know, declared in a copy of items.toml
(``[families.NAME]``), works everywhere without code of its own: ``--kit``
carries its cards, the loadout holds them as declared, the economy values
them ("no use here" until a kernel gives them an effect), the explorer shows
their prices and ``zonesim validate`` checks them. Bad declarations get one line."""

import shutil

import pytest

from sim.content import DEFAULT_DIR, ContentError, load_content
from sim.content.loadout import Loadout, LoadoutError, kind, takes_a_slot
from tests.conftest import zonesim, zonesim_json

DECLARED = """
[families.detector]
holds = "one"
fields = { range = "int" }

[families.ration]
holds = "counted"

[detector.echo]
name = "Echo detector"
price = 300
range = 2

[detector.bear]
name = "Bear detector"
price = 500
range = 3

[ration.tushonka]
name = "Tushonka"
price = 40
deck = 6
"""


def with_items(tmp_path, extra, name="declared"):
    folder = tmp_path / name
    shutil.copytree(DEFAULT_DIR, folder)
    with open(folder / "items.toml", "a", encoding="utf-8") as f:
        f.write(extra)
    return folder


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return with_items(tmp_path_factory.mktemp("family"), DECLARED)


@pytest.fixture(scope="module")
def game(folder):
    return load_content(folder)


def test_the_declared_families_load_with_their_fields_and_validate(folder, game):
    assert dict(game.holds) == {"detector": "one", "ration": "counted"}
    assert game.items["bear"].family == "detector" and game.items["bear"]["range"] == 3
    assert game.items["tushonka"]["deck"] == 6 and game.items["echo"]["deck"] == load_content().rules["market"][
        "default_deck"]
    proc = zonesim("validate", folder)
    assert proc.returncode == 0 and "41 items" in proc.stdout, proc.stderr


def test_a_kit_carries_declared_cards_as_their_family_holds_them(game):
    kit = Loadout.from_options(game, kit="ak47,vest,echo,tushonka*2")
    assert kit.cards() == {"ak47": 1, "vest": 1, "echo": 1, "tushonka": 2}
    assert kit.cost(game) == sum(game.items[i]["price"] * n for i, n in kit.cards().items())
    assert sorted(kit.card_list()) == sorted(["ak47", "vest", "echo", "tushonka", "tushonka"])
    swapped = kit.with_card(game, "bear")
    assert swapped.cards()["bear"] == 1 and "echo" not in swapped.cards()  # holds = "one": bear takes echo's place
    assert kit.with_card(game, "tushonka").cards()["tushonka"] == 3  # holds = "counted"
    assert kit.without({"tushonka"}).cards() == {"ak47": 1, "vest": 1, "echo": 1}
    offered = [c.cards() for c in kit.changes(game, max_count=3)]
    assert {**kit.cards(), "tushonka": 3} in offered
    assert any(c.get("bear") == 1 and "echo" not in c for c in offered)
    assert takes_a_slot(game, "detector") and not takes_a_slot(game, "ration")
    assert kind(game, "echo") == {"echo", "bear"} and kind(game, "tushonka") == {"tushonka"}


@pytest.mark.parametrize("spec, says", [
    ("ak47,echo,bear", "take the same slot"),
    ("ak47,tushonka*7", "cannot join"),
])
def test_a_kit_beyond_what_the_family_holds_is_refused(game, spec, says):
    with pytest.raises(LoadoutError, match=says):
        Loadout.from_options(game, kit=spec)
    proc = zonesim("encounter", "--content", game.directory, "--kit", spec, "-m", "snork", "--trials", 100)
    assert proc.returncode == 2 and says in proc.stderr and proc.stderr.count("\n") == 1


def test_cards_without_an_effect_change_no_fight(folder):
    """A declared card has no rule in any kernel yet: the same dice give the same fights."""
    runs = [zonesim_json("encounter", "--content", folder, "--kit", kit, "-m", "snork", "--trials", 3000)
            for kit in ("ak47,vest", "ak47,vest,bear,tushonka*3")]
    for key in ("p_survive", "p_win", "p_death", "ci95", "mean_rounds", "mean_hp_left"):
        assert runs[0][key] == runs[1][key], key
    assert 0 < runs[0]["p_win"] < 1


def test_the_economy_values_and_the_explorer_shows_every_declared_card(game):
    from sim.economy.context import load_context, scenario
    from sim.economy.value import value_cards
    from sim.explore.fields import content_fields

    kit = Loadout.from_options(game, kit="ak47,vest,stimulator,echo,tushonka")
    rows = {row["item"]: row for row in value_cards(scenario(game, load_context(game), mode="fight",
                                                             monsters=["snork"], loadout=kit, trials=400,
                                                             seed=5)).items}
    for card in ("echo", "bear", "tushonka"):
        assert rows[card]["price"] == game.items[card]["price"]
        assert rows[card]["verdict"] == "no use here" and rows[card]["value_g"] == 0.0, rows[card]
    assert rows["ak47"]["value_g"] > 0
    shown = {(f.file, f.key) for f in content_fields(game.directory)}
    assert {("items.toml", "detector.echo.price"), ("items.toml", "ration.tushonka.price")} <= shown


@pytest.mark.parametrize("extra, says", [
    ('\n[families.detector]\nholds = "two"\n', "families.detector.holds: 'two'; use one of"),
    ('\n[families.detector]\nholds = "one"\nfields = { range = "float" }\n', "families.detector.fields"),
    ('\n[families.armour]\nholds = "one"\n', "'armour' is a built-in item family"),
    ('\n[families.detector]\nholds = "one"\nfields = { price = "int" }\n', "'price' is a field every card has"),
    ('\n[detector.echo]\nprice = 300\n', "[detector]: unknown item family"),
    ('\n[families.detector]\nholds = "one"\nfields = { range = "int" }\n[detector.echo]\nprice = 300\n',
     "detector.echo.range: missing required field"),
])
def test_a_bad_declaration_gets_one_line_naming_the_file_and_the_fix(tmp_path, extra, says):
    folder = with_items(tmp_path, extra)
    with pytest.raises(ContentError) as error:
        load_content(folder)
    assert says in str(error.value) and "items.toml" in str(error.value) and "\n" not in str(error.value)
    proc = zonesim("validate", folder)
    assert proc.returncode == 2 and says in proc.stderr
