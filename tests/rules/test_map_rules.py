"""Tests of hex maps (``sim.content.maps``): terrain.toml, the default Zone map, validation.

Rules: Z-25 (jetpack budget for the base-link check), Z-26 (Epicentre),
Z-34 (base budget), Z-35 / Z-36 (terrain costs), Z-39 (danger), Z-40 (bases),
Z-43 (the default map), "Content ids" (terrain ids).

Every validation test writes one broken file into ``tmp_path`` and checks that
``ContentError`` is raised with one line naming the file and the place.
"""

from __future__ import annotations

import re
import shutil
from collections import deque
from pathlib import Path

import numpy as np
import pytest

from sim.content import DEFAULT_DIR, ContentError, load_content
from sim.content.maps import (
    BASE_BUDGET, JETPACK_STEPS, HexMap, default_map_path, load_map, load_terrain,
)
from tests.conftest import RULES_MD


@pytest.fixture(scope="module")
def zone() -> HexMap:
    return load_map(default_map_path())


def _map_file(tmp_path: Path, terrain: str, extra: str = "", danger: str | None = None) -> Path:
    """A map file with the given terrain rows (``;`` separates rows) and extra TOML."""
    rows = "\n".join(terrain.split(";"))
    text = f'[map]\nname = "test"\nterrain = """\n{rows}\n"""\n'
    if danger is not None:
        text += 'danger = """\n' + "\n".join(danger.split(";")) + '\n"""\n'
    path = tmp_path / "broken.toml"
    path.write_text(text + extra, encoding="utf-8")
    return path


def _point(kind: str, point_id: str, col: int, row: int, site_kind: str = "artefact") -> str:
    text = f'\n[[{kind}]]\nid = "{point_id}"\nat = [{col}, {row}]\n'
    return text + (f'kind = "{site_kind}"\n' if kind == "sites" else "")


def _map_error(path: Path, *fragments: str, terrain=None) -> str:
    """Load ``path``; expect a one-line ContentError naming the file and every fragment."""
    with pytest.raises(ContentError) as info:
        load_map(path, terrain)
    message = str(info.value)
    assert "\n" not in message, f"message is not one line: {message!r}"
    for fragment in (str(path), *fragments):
        assert fragment in message, f"{fragment!r} not in {message!r}"
    return message


# --------------------------------------------------------------------------
# terrain.toml


def test_content_ids_terrain_present():
    """Every terrain id of the rule catalogue's "Content ids" exists in the shipped terrain.toml."""
    section = RULES_MD.read_text(encoding="utf-8").split("## Content ids", 1)[1]
    line = next(x for x in section.splitlines() if x.startswith("- terrain:"))
    ids = re.findall(r"`(\w+)`", line)
    assert ids and set(ids) <= set(load_terrain())


def test_z35_z26_terrain_costs_and_assumed():
    """Costs 1-6 by Z-35, the Epicentre 5 [A] (Z-26); only the Epicentre is flagged and assumed."""
    terrain = load_terrain()
    assert {t: (e["letter"], e["cost"]) for t, e in terrain.items()} == {
        "road": ("R", 1), "field": ("F", 2), "forest": ("W", 3), "swamp": ("S", 4),
        "mountains": ("M", 5), "impassable": ("X", 6), "epicentre": ("E", 5),
    }
    assert [t for t, e in terrain.items() if e["epicentre"]] == ["epicentre"]
    assert {t: sorted(e.assumed) for t, e in terrain.items() if e.assumed} == {"epicentre": ["cost"]}


def test_budget_constants_match_content():
    """The base-link check uses the content's base budget (Z-34) and jetpack (Z-25)."""
    content = load_content()
    assert BASE_BUDGET == content.rules["stalker"]["step_budget"]
    assert JETPACK_STEPS == max(e["steps"] for e in content.family("movement"))


@pytest.mark.parametrize("old, new, fragments", [
    ('letter = "F"', 'letter = "R"', ["field.letter", "'R'", "road"]),
    ('letter = "W"', 'letter = "ww"', ["forest.letter", "capital letter"]),
    ("cost = 4 ", "cost = 0 ", ["swamp.cost", "minimum 1"]),
    ('letter = "M"', "letter = ", ["malformed TOML", "line"]),
])
def test_terrain_errors(tmp_path, old, new, fragments):
    """A broken terrain.toml gives one line naming the file, the entry and the field."""
    folder = tmp_path / "content"
    shutil.copytree(DEFAULT_DIR, folder)
    path = folder / "terrain.toml"
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ContentError) as info:
        load_terrain(folder)
    message = str(info.value)
    assert "\n" not in message
    for fragment in (str(path), *fragments):
        assert fragment in message, f"{fragment!r} not in {message!r}"


def test_custom_terrain_letters(tmp_path):
    """A designer's terrain.toml adds a letter that maps may then use."""
    folder = tmp_path / "content"
    shutil.copytree(DEFAULT_DIR, folder)
    with open(folder / "terrain.toml", "a", encoding="utf-8") as f:
        f.write('\n[lake]\nletter = "L"\ncost = 4\n')
    terrain = load_terrain(folder)
    hexmap = load_map(_map_file(tmp_path, "R L"), terrain)
    assert hexmap.terrain_ids[-1] == "lake" and hexmap.cost.tolist() == [[1, 4]]


# --------------------------------------------------------------------------
# the default Zone map (Z-43)


def test_z43_default_map_size_and_terrain(zone):
    """About 20 x 16 hexes; every terrain letter present."""
    assert (zone.width, zone.height) == (20, 16)
    assert zone.name == "The Zone"
    assert set(np.unique(zone.terrain)) == set(range(len(zone.terrain_ids)))


def test_z40_z43_bases_and_sites(zone):
    """Three bases, cordon south of bar south of military_base; artefact sites and anomaly fields."""
    assert [b.id for b in zone.bases] == ["cordon", "bar", "military_base"]
    rows = [zone.point(b)[1] for b in ("cordon", "bar", "military_base")]
    assert rows == sorted(rows, reverse=True)
    kinds = [s.kind for s in zone.sites]
    assert kinds.count("artefact") >= 3 and kinds.count("anomaly") >= 1


def test_z43_roads_link_the_bases(zone):
    """Road hexes alone connect the Cordon to the Bar and the military base."""
    road = zone.terrain_ids.index("road")
    seen, queue = {zone.point("cordon")}, deque([zone.point("cordon")])
    while queue:
        for c, r in zone.neighbours(*queue.popleft()):
            if (c, r) not in seen and zone.terrain[r, c] == road:
                seen.add((c, r))
                queue.append((c, r))
    assert {zone.point("bar"), zone.point("military_base")} <= seen


def _hex_distances(hexmap: HexMap, start, allowed=None) -> dict:
    """Hex-count distances from ``start`` (breadth first), through ``allowed`` hexes if given."""
    distance, queue = {start: 0}, deque([start])
    while queue:
        at = queue.popleft()
        for n in hexmap.neighbours(*at):
            if n not in distance and (allowed is None or n in allowed):
                distance[n] = distance[at] + 1
                queue.append(n)
    return distance


def test_z26_z43_epicentre_cluster_far_from_cordon(zone):
    """The Epicentre is one cluster of cost-5 hexes at least 10 hexes from the Cordon."""
    cells = {(int(c), int(r)) for r, c in zip(*np.nonzero(zone.epicentre))}
    assert len(cells) >= 5 and all(zone.cost[r, c] == 5 for c, r in cells)
    assert set(_hex_distances(zone, min(cells), cells)) == cells
    distance = _hex_distances(zone, zone.point("cordon"))
    assert min(distance[c] for c in cells) >= 10


def test_z39_danger_levels(zone):
    """Danger is low by the bases and on roads, high in anomaly fields and around the Epicentre."""
    road = zone.terrain == zone.terrain_ids.index("road")
    assert np.median(zone.danger[road]) <= 1
    for base in zone.bases:
        assert zone.danger[base.at[1], base.at[0]] == 0
        assert all(zone.danger[r, c] <= 1 for c, r in zone.neighbours(*base.at))
    assert all(zone.danger[s.at[1], s.at[0]] == 9 for s in zone.sites if s.kind == "anomaly")
    assert zone.danger[zone.epicentre].min() >= 8


def test_hexmap_is_frozen(zone):
    """Grids are read-only; the dataclass is frozen."""
    with pytest.raises(ValueError):
        zone.cost[0, 0] = 9
    with pytest.raises(AttributeError):
        zone.name = "x"


# --------------------------------------------------------------------------
# odd-r layout


def test_z43_neighbours_odd_r(tmp_path):
    """Odd rows sit half a hex right: a hand-drawn 3 x 3 map."""
    hexmap = load_map(_map_file(tmp_path, "R F W;S M F;F F R"))
    assert sorted(hexmap.neighbours(1, 1)) == sorted([(2, 1), (0, 1), (1, 0), (2, 0), (1, 2), (2, 2)])
    assert sorted(hexmap.neighbours(1, 0)) == sorted([(2, 0), (0, 0), (0, 1), (1, 1)])
    assert sorted(hexmap.neighbours(1, 2)) == sorted([(2, 2), (0, 2), (0, 1), (1, 1)])
    assert sorted(hexmap.neighbours(0, 0)) == [(0, 1), (1, 0)]
    assert sorted(hexmap.neighbours(2, 1)) == [(1, 1), (2, 0), (2, 2)]
    assert sorted(hexmap.neighbours(0, 1)) == [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert hexmap.terrain_ids[hexmap.terrain[1, 0]] == "swamp" and hexmap.cost[1, 1] == 5
    assert hexmap.in_bounds(2, 2) and not hexmap.in_bounds(3, 0) and not hexmap.in_bounds(0, -1)
    assert not hexmap.danger.any() and hexmap.danger.dtype == np.int8


def test_neighbours_symmetric(zone):
    """Adjacency is symmetric everywhere on the default map."""
    for r in range(zone.height):
        for c in range(zone.width):
            assert all((c, r) in zone.neighbours(*n) for n in zone.neighbours(c, r))


def test_point_unknown_id(zone):
    with pytest.raises(ContentError, match="no base or site 'nowhere'"):
        zone.point("nowhere")


# --------------------------------------------------------------------------
# validation: one line naming the file and the place


def test_ragged_terrain_row(tmp_path):
    _map_error(_map_file(tmp_path, "R F W;F F;R R R"), "terrain row 1 has 2 hexes, row 0 has 3", "same count")


def test_unknown_letter(tmp_path):
    _map_error(_map_file(tmp_path, "R F W;F F Q"), "terrain row 1, col 2: unknown letter 'Q'",
               "use one of R, F, W, S, M, X, E")


@pytest.mark.parametrize("danger, fragment", [
    ("1 2 3", "danger has 1 rows, terrain has 2"),
    ("1 2 3;4 5", "danger row 1 has 2 values"),
    ("1 2 3;4 x 6", "danger row 1, col 1: 'x' is not a digit"),
    ("1 2 3;4 10 6", "danger row 1, col 1: '10' is not a digit"),
])
def test_bad_danger(tmp_path, danger, fragment):
    _map_error(_map_file(tmp_path, "R F W;F F R", danger=danger), fragment)


def test_danger_is_read(tmp_path):
    hexmap = load_map(_map_file(tmp_path, "R F W;F F R", danger="0 1 2;3 4 9"))
    assert hexmap.danger.tolist() == [[0, 1, 2], [3, 4, 9]]


def test_malformed_toml_names_the_line(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text('[map]\nname = "x"\nterrain = [unclosed\n', encoding="utf-8")
    _map_error(path, "malformed TOML", "line 3")


@pytest.mark.parametrize("text, fragment", [
    ('[map]\nname = "x"\n', "[map] terrain: missing"),
    ('[[bases]]\nid = "a"\nat = [0, 0]\n', "[map] terrain: missing"),
    ('[map]\nterrain = """\n\n"""\n', "[map] terrain: no rows"),
    ('[map]\nterrain = "R"\n[extra]\n', "[extra]: unknown section"),
    ('[map]\nterrain = "R"\ncolour = 1\n', "[map] colour: unknown field"),
])
def test_missing_or_unknown_map_parts(tmp_path, text, fragment):
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    _map_error(path, fragment)


def test_missing_map_file(tmp_path):
    _map_error(tmp_path / "nowhere.toml", "missing")


@pytest.mark.parametrize("extra, fragments", [
    (_point("bases", "cordon", 3, 0), ["base 'cordon' at [3, 0] is off the map", "col 0-2, row 0-1"]),
    (_point("sites", "dump", 0, -1), ["site 'dump' at [0, -1] is off the map"]),
    (_point("bases", "bar", 2, 0), ["base 'bar' at [2, 0] stands on an impassable hex"]),
    (_point("sites", "peak", 2, 0, "anomaly"), ["site 'peak' at [2, 0] stands on an impassable hex"]),
    (_point("bases", "bar", 0, 0) + _point("sites", "bar", 1, 1), ["'bar' is used by two bases or sites"]),
    (_point("sites", "dump", 0, 0, "treasure"), ["site 'dump'.kind: 'treasure' is not allowed"]),
    ('\n[[bases]]\nid = "a"\nat = [1]\n', ["base 'a'.at: expected [col, row]"]),
    ('\n[[bases]]\nat = [1, 1]\n', ["bases[0].id: missing required field"]),
    ('\n[[sites]]\nid = "a"\nat = [1, 1]\n', ["sites[0].kind: missing required field"]),
    ('\n[[bases]]\nid = "a"\nat = [1, 1]\nhp = 3\n', ["bases[0].hp: unknown field"]),
])
def test_bad_points(tmp_path, extra, fragments):
    _map_error(_map_file(tmp_path, "R F X;F F R", extra), *fragments)


def test_unreachable_bases_named(tmp_path):
    """A wall costing more than a jetpack day (Z-25) cuts the Bar off; the message names both bases."""
    folder = tmp_path / "content"
    shutil.copytree(DEFAULT_DIR, folder)
    path = folder / "terrain.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("cost = 6 ", "cost = 10 "), encoding="utf-8")
    extra = _point("bases", "cordon", 0, 0) + _point("bases", "bar", 2, 1)
    _map_error(_map_file(tmp_path, "R X F;F X R", extra), "base 'bar' cannot be reached from base 'cordon'",
               "jetpack", terrain=load_terrain(folder))


def test_epicentre_wall_cuts_bases_off_below_base_budget(tmp_path):
    """Z-26: an Epicentre hex costing more than the base budget is never entered, even with a jetpack."""
    folder = tmp_path / "content"
    shutil.copytree(DEFAULT_DIR, folder)
    path = folder / "terrain.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("cost = 5                 # Z-26",
                                                             "cost = 7                 # Z-26"), encoding="utf-8")
    extra = _point("bases", "cordon", 0, 0) + _point("bases", "bar", 2, 0)
    _map_error(_map_file(tmp_path, "R E R;F E F", extra), "base 'bar' cannot be reached from base 'cordon'",
               terrain=load_terrain(folder))
    assert load_map(_map_file(tmp_path, "R E R;F E F", extra)).bases[1].id == "bar"


def test_impassable_hexes_cost_a_whole_day(tmp_path):
    """Z-35: impassable mountains cost 6, a whole base day: bases beyond them are still linked."""
    extra = _point("bases", "cordon", 0, 0) + _point("bases", "bar", 2, 1)
    assert load_map(_map_file(tmp_path, "R X F;F X R", extra)).cost[0, 1] == 6
