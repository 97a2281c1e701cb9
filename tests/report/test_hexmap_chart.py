"""Tests of the hex-map chart (``sim.report.hexmap``): it draws, and its hex geometry is right.

The picture itself is checked by eye; here each variant (plain, heat overlay,
route, danger digits) must write a real PNG of plausible size, and
``hex_centre`` must place the "odd-r" layout of ``sim.content.maps`` (Z-43):
odd rows half a hex to the right, row 0 at the top, all six neighbours of a
hex equally far from it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.analysis.route import fastest_route
from sim.content.maps import HexMap, default_map_path, load_map
from sim.errors import ZonesimError
from sim.report.hexmap import draw_map, hex_centre

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def zone() -> HexMap:
    return load_map(default_map_path())


def _assert_png(path, min_bytes=20_000):
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE
    assert min_bytes < len(data) < 5_000_000
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert 900 <= width <= 1300 and 400 <= height <= 1000   # about 11 inches wide at dpi 110


def test_plain_map(zone, tmp_path):
    path = tmp_path / "plain.png"
    draw_map(zone, path, title="The Zone", provenance="default map")
    _assert_png(path)
    assert [p.name for p in tmp_path.iterdir()] == ["plain.png"]   # writes only ``path``


def test_heat_overlay(zone, tmp_path):
    rng = np.random.default_rng(7)
    heat = rng.poisson(1.5, (zone.height, zone.width)).astype(float)
    draw_map(zone, tmp_path / "heat.png", title="Deaths per hex", heat=heat, heat_label="deaths per hex")
    _assert_png(tmp_path / "heat.png")
    draw_map(zone, tmp_path / "zero.png", title="No deaths", heat=np.zeros((zone.height, zone.width)))
    _assert_png(tmp_path / "zero.png")


def test_heat_of_the_wrong_shape_is_rejected(zone, tmp_path):
    with pytest.raises(ZonesimError, match="heat grid"):
        draw_map(zone, tmp_path / "bad.png", title="bad", heat=np.ones((zone.width, zone.height)))
    assert not (tmp_path / "bad.png").exists()


def test_route_and_danger(zone, tmp_path):
    route = fastest_route(zone, zone.point("cordon"), zone.point("bar"))
    assert route is not None and route.path[0] == zone.point("cordon") and route.path[-1] == zone.point("bar")
    draw_map(zone, tmp_path / "route.png", title="cordon -> bar", provenance="fastest route, no equipment",
             route=route.path)
    _assert_png(tmp_path / "route.png")
    draw_map(zone, tmp_path / "danger.png", title="danger", show_danger=True)
    _assert_png(tmp_path / "danger.png")
    draw_map(zone, tmp_path / "all.png", title="everything", provenance="p " * 300, route=route.path,
             heat=np.asarray(zone.danger, float), heat_label="danger", show_danger=True)
    _assert_png(tmp_path / "all.png")


def test_hex_centre_odd_rows_shift_half_a_hex():
    width = hex_centre(1, 0)[0] - hex_centre(0, 0)[0]
    assert width == pytest.approx(math.sqrt(3))
    for col in range(4):
        assert hex_centre(col, 1)[0] - hex_centre(col, 0)[0] == pytest.approx(width / 2)
        assert hex_centre(col, 3)[0] == pytest.approx(hex_centre(col, 1)[0])
        assert hex_centre(col, 2)[0] == pytest.approx(hex_centre(col, 0)[0])
    assert hex_centre(0, 0)[1] > hex_centre(0, 1)[1] > hex_centre(0, 2)[1]   # row 0 at the top


def test_neighbours_are_equidistant(zone):
    step = math.sqrt(3)
    for row in range(zone.height):
        for col in range(zone.width):
            x, y = hex_centre(col, row)
            neighbours = zone.neighbours(col, row)
            assert len(neighbours) == len(set(neighbours))
            for c, r in neighbours:
                nx, ny = hex_centre(c, r)
                assert abs(math.hypot(nx - x, ny - y) - step) < 1e-9
            # every other hex is farther away than a neighbour
            for c, r in [(c, r) for c in range(max(col - 2, 0), min(col + 3, zone.width))
                         for r in range(max(row - 2, 0), min(row + 3, zone.height))]:
                if (c, r) != (col, row) and (c, r) not in neighbours:
                    nx, ny = hex_centre(c, r)
                    assert math.hypot(nx - x, ny - y) > step + 1e-9
    assert len(zone.neighbours(5, 5)) == 6
