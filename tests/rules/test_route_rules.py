"""Tests of the exact fewest-days route (``sim.analysis.route``).

Rules: Z-25 (movement items +1/+2/+3 steps, jetpack 9 in all), Z-26
(Epicentre hexes cost 5 and only base steps pay for them), Z-34 (a day's step
budget, leftover steps lost), Z-35 (terrain costs; a move that does not fit
waits), Z-36 (road hexes cost 1, along or onto the road).

Hand-checked cases on tiny maps, then a brute force: on 200 small random maps
every simple path is walked under the day rules, literally, and the best
(days, steps) must equal ``fastest_route``'s; ``days_table`` must agree with
``fastest_route`` from every hex.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.analysis.route import Route, days_table, fastest_route
from sim.content.maps import default_map_path, load_map
from sim.errors import ZonesimError

COST = {"R": 1, "F": 2, "W": 3, "S": 4, "M": 5, "X": 6, "E": 5}  # Z-35, Z-26 [A]


def _map(tmp_path, rows: str, name: str = "m"):
    """A map from terrain rows separated by ``;`` (odd rows sit half a hex right)."""
    path = tmp_path / f"{name}.toml"
    path.write_text('[map]\nterrain = """\n' + "\n".join(rows.split(";")) + '\n"""\n', encoding="utf-8")
    return load_map(path)


def _line(tmp_path, letters: str, **kwargs):
    """The route along a one-row map from its first hex to its last."""
    hexmap = _map(tmp_path, " ".join(letters))
    return fastest_route(hexmap, (0, 0), (len(letters) - 1, 0), **kwargs)


def _enter(state, letter, base, extra):
    """The (day, spent today, steps) after entering a hex of ``letter``, or None, by the rules as written.

    Z-34: a move costing more than the steps left happens the next day, the rest
    is lost; Z-35: a move costing more than a whole day never happens; Z-26: an
    Epicentre hex fits only within the base budget.
    """
    day, spent, steps = state
    cost, budget = COST[letter], base if letter == "E" else base + extra
    if cost > budget:
        return None
    if spent + cost > budget:
        day, spent = day + 1, 0
    return day, spent + cost, steps + cost


def _walk(letters, base, extra):
    """Walk hexes of these letters (the start's excluded) from day 1: (days, steps) or None."""
    state = (1, 0, 0)
    for letter in letters:
        state = state and _enter(state, letter, base, extra)
    return state and state[::2]


# --------------------------------------------------------------------------
# hand-checked cases


def test_z35_costs_by_terrain(tmp_path):
    """Entering each terrain costs its Z-35 steps (Epicentre 5, Z-26); a big budget keeps it one day."""
    for letter, cost in COST.items():
        route = _line(tmp_path, "R" + letter, base_budget=6)
        assert (route.days, route.steps) == (1, cost), letter
    assert _line(tmp_path, "RFWSMXE", base_budget=30) == Route(1, 25, tuple((c, 0) for c in range(7)))


def test_z36_road_costs_one_onto_and_along(tmp_path):
    """Stepping onto a road from a field costs 1, along it 1; leaving it costs the field's 2 [A]."""
    assert _line(tmp_path, "FRRF").steps == 1 + 1 + 2
    assert _line(tmp_path, "RRRRRR") == Route(1, 5, tuple((c, 0) for c in range(6)))


def test_z34_leftover_steps_are_lost(tmp_path):
    """Three swamps (4 each) take three days: the 2 steps left each day are lost, not carried."""
    assert _line(tmp_path, "RSSS") == Route(3, 12, tuple((c, 0) for c in range(4)))
    assert _line(tmp_path, "RFWW").days == 2  # 2 + 3 today, the second forest tomorrow


def test_z34_fewest_days_before_fewest_steps(tmp_path):
    """Fewest days first: 10 steps in 2 days beat 9 steps in 3.

    Map (odd row half a hex right)::

        F M W
         F M F

    From (0, 0) to (2, 1): M 5 | W 3 + F 2 is 2 days, 10 steps; the cheapest,
    F 2 | M 5 | F 2, is 9 steps but 3 days.
    """
    hexmap = _map(tmp_path, "F M W;F M F")
    assert fastest_route(hexmap, (0, 0), (2, 1)) == Route(2, 10, ((0, 0), (1, 0), (2, 0), (2, 1)))


def test_z34_fewest_steps_among_fewest_days(tmp_path):
    """Both ways take one day; the road below (3 steps) beats the forest above (4)."""
    hexmap = _map(tmp_path, "R W R;R R R")
    assert fastest_route(hexmap, (0, 0), (2, 0)) == Route(1, 3, ((0, 0), (0, 1), (1, 1), (2, 0)))


def test_z26_later_arrival_can_end_cheaper(tmp_path):
    """Pareto labels: reaching a hex a day later with fewer steps can win (jetpack, 9 steps).

    Map::

        R R R R
         E E E E
        R R F R
         R R F R

    From (0, 0) to (3, 3). Via (0, 1) E, (1, 2), (2, 2), (3, 2) the stalker is at
    (3, 2) on day 1 with 9 steps spent; via (1, 0), (2, 0) the Epicentre hex
    (2, 1) waits for day 2 (2 + 5 > 6, Z-26), so (3, 2) is reached on day 2 with
    6 spent and 8 in all. Both reach (3, 3) on day 2: 10 steps against 9.
    """
    hexmap = _map(tmp_path, "R R R R;E E E E;R R F R;R R F R")
    assert fastest_route(hexmap, (0, 0), (3, 3), extra_steps=3) == Route(
        2, 9, ((0, 0), (1, 0), (2, 0), (2, 1), (3, 2), (3, 3)))


def test_z25_jetpack_gives_nine_steps(tmp_path):
    """Nine road hexes: one day with a jetpack (+3), two with a GLONASS (+2) or nothing."""
    assert _line(tmp_path, "R" * 10, extra_steps=3) == Route(1, 9, tuple((c, 0) for c in range(10)))
    assert _line(tmp_path, "R" * 10, extra_steps=2).days == 2
    assert _line(tmp_path, "R" * 10).days == 2


def test_z25_zone_map_and_glonass(tmp_path):
    """Seven road hexes fit a day with a Zone map (+1); eight with a GLONASS (+2)."""
    assert _line(tmp_path, "R" * 8, extra_steps=1).days == 1
    assert _line(tmp_path, "R" * 8).days == 2
    assert _line(tmp_path, "R" * 9, extra_steps=2).days == 1
    assert _line(tmp_path, "R" * 9, extra_steps=1).days == 2


@pytest.mark.parametrize("extra", [0, 3, 20])
def test_z26_two_epicentre_hexes_never_in_one_day(tmp_path, extra):
    """5 + 5 exceeds the base budget 6 whatever the equipment: the second hex waits."""
    assert _line(tmp_path, "REE", extra_steps=extra) == Route(2, 10, ((0, 0), (1, 0), (2, 0)))


def test_z26_equipment_never_pays_for_epicentre(tmp_path):
    """With a jetpack, 2 road steps + 5 = 7 fits 9 but not the base 6: the Epicentre hex waits."""
    assert _line(tmp_path, "RRRE", extra_steps=3).days == 2
    assert _line(tmp_path, "RRE", extra_steps=3).days == 1  # 1 + 5 = 6 fits the base budget


def test_z26_equipment_pays_after_epicentre(tmp_path):
    """After an Epicentre hex (5), the jetpack's steps still pay for ordinary hexes: 5 + 4 = 9."""
    assert _line(tmp_path, "RERRRR", extra_steps=3) == Route(1, 9, tuple((c, 0) for c in range(6)))
    assert _line(tmp_path, "RERRRR").days == 2


def test_z35_move_longer_than_a_day_is_impossible(tmp_path):
    """A hex costing more than a whole day is never entered (Epicentre: more than the base, Z-26)."""
    assert _line(tmp_path, "RXR", base_budget=5) is None
    assert _line(tmp_path, "RXR", base_budget=5, extra_steps=1).days == 2
    assert _line(tmp_path, "RER", base_budget=4, extra_steps=10) is None
    hexmap = _map(tmp_path, "R X R")
    assert days_table(hexmap, (2, 0), base_budget=5).tolist() == [[-1, 1, 0]]  # leaving X is cheap


def test_z35_impassable_costs_a_whole_day(tmp_path):
    """Impassable mountains (6) can only be entered with a fresh base day."""
    assert _line(tmp_path, "RRX") == Route(2, 7, ((0, 0), (1, 0), (2, 0)))


def test_start_is_goal(tmp_path):
    hexmap = _map(tmp_path, "R F")
    assert fastest_route(hexmap, (1, 0), (1, 0)) == Route(0, 0, ((1, 0),))
    assert days_table(hexmap, (1, 0)).tolist() == [[1, 0]]


@pytest.mark.parametrize("call", [
    lambda m: fastest_route(m, (0, 0), (5, 0)),
    lambda m: fastest_route(m, (-1, 0), (1, 0)),
    lambda m: days_table(m, (0, 3)),
    lambda m: fastest_route(m, (0, 0), (1, 0), extra_steps=-1),
    lambda m: days_table(m, (0, 0), base_budget=0),
])
def test_bad_arguments_one_line(tmp_path, call):
    with pytest.raises(ZonesimError) as info:
        call(_map(tmp_path, "R F"))
    assert "\n" not in str(info.value)


# --------------------------------------------------------------------------
# the default map


@pytest.fixture(scope="module")
def zone():
    return load_map(default_map_path())


@pytest.mark.parametrize("extra", [0, 3])
def test_days_table_matches_fastest_route_on_default_map(zone, extra):
    """From every hex to the Bar, the table's days equal the route's."""
    table = days_table(zone, zone.point("bar"), extra_steps=extra)
    for row in range(zone.height):
        for col in range(zone.width):
            route = fastest_route(zone, (col, row), zone.point("bar"), extra_steps=extra)
            assert table[row, col] == (route.days if route else -1)


def test_z25_default_map_bases_and_equipment(zone):
    """Every base reaches every other; more steps a day never costs a day (Z-25)."""
    for a in zone.bases:
        for b in zone.bases:
            days = [fastest_route(zone, a.at, b.at, extra_steps=extra).days for extra in range(4)]
            assert days == sorted(days, reverse=True)


# --------------------------------------------------------------------------
# brute force on small random maps


def _best_by_brute_force(hexmap, letters, start, goal, base, extra):
    """Best (days, steps) over every simple path from ``start`` to ``goal``, each walked hex by hex.

    A path is dropped at its first move that can never happen (``_enter`` gives None).
    """
    best = None
    path = {start}
    neighbours = {(col, row): hexmap.neighbours(col, row)
                  for row in range(hexmap.height) for col in range(hexmap.width)}

    def extend(at, state):
        nonlocal best
        if at == goal:
            best = min(best or state[::2], state[::2])
            return
        for col, row in neighbours[at]:
            after = (col, row) not in path and _enter(state, letters[row][col], base, extra)
            if after:
                path.add((col, row))
                extend((col, row), after)
                path.remove((col, row))

    extend(start, (1, 0, 0))
    return best


def _random_maps(count, seed=20240611):
    """``count`` random (letters, start, goal, base, extra) cases of 3x4 to 5x4 hexes.

    5 x 5 maps hold up to 2.5 million simple paths between corners: too many to walk.
    """
    rng = np.random.default_rng(seed)
    alphabet = list(COST)
    weights = np.array([3, 3, 2, 2, 2, 1, 2], float)
    sizes = [(3, 4), (4, 3), (4, 4), (4, 4), (4, 4), (4, 4), (5, 4), (4, 5)]
    for _ in range(count):
        width, height = sizes[rng.integers(len(sizes))]
        letters = [list(rng.choice(alphabet, size=width, p=weights / weights.sum())) for _ in range(height)]
        start = (int(rng.integers(width)), int(rng.integers(height)))
        goal = (int(rng.integers(width)), int(rng.integers(height)))
        yield letters, start, goal, int(rng.choice([4, 5, 6, 6, 6])), int(rng.integers(0, 4))


def test_z34_z35_z26_fastest_route_matches_brute_force(tmp_path):
    """200 random maps: the route is a real path whose literal walk gives its (days, steps), the best of all."""
    outcomes = {"none": 0, "multi_day": 0}
    for i, (letters, start, goal, base, extra) in enumerate(_random_maps(200)):
        hexmap = _map(tmp_path, ";".join(" ".join(row) for row in letters), name=f"r{i}")
        route = fastest_route(hexmap, start, goal, extra_steps=extra, base_budget=base)
        best = _best_by_brute_force(hexmap, letters, start, goal, base, extra)
        if start == goal:
            assert route == Route(0, 0, (start,))
            continue
        assert (route and (route.days, route.steps)) == (best or None), (letters, start, goal, base, extra)
        outcomes["none"] += route is None
        if route:
            outcomes["multi_day"] += route.days > 1
            assert route.path[0] == start and route.path[-1] == goal and len(set(route.path)) == len(route.path)
            assert all(b in hexmap.neighbours(*a) for a, b in zip(route.path, route.path[1:]))
            assert _walk([letters[r][c] for c, r in route.path[1:]], base, extra) == best
        table = days_table(hexmap, goal, extra_steps=extra, base_budget=base)
        for row in range(hexmap.height):
            for col in range(hexmap.width):
                other = fastest_route(hexmap, (col, row), goal, extra_steps=extra, base_budget=base)
                assert table[row, col] == (other.days if other else -1)
    assert outcomes["none"] >= 5 and outcomes["multi_day"] >= 50, outcomes
