"""The one hex geometry (``sim.hexgrid``) of the journey map, the skirmish arena
and the Stalkeriada Zone: odd-r offsets, two direction orders, distances."""

from collections import deque

import numpy as np
import pytest

from sim.hexgrid import COUNTER_CLOCKWISE, MAP_ORDER, distance_table, neighbour_table, neighbours

GRIDS = [(1, 1), (1, 5), (4, 1), (5, 4), (6, 7)]


@pytest.mark.parametrize("rows,cols", GRIDS)
def test_z43_m01_s13_both_orders_list_the_same_six_neighbours(rows, cols):
    by_map, by_turn = neighbour_table(rows, cols, MAP_ORDER), neighbour_table(rows, cols, COUNTER_CLOCKWISE)
    for cell in range(rows * cols):
        assert set(by_map[cell]) == set(by_turn[cell])
        row, col = divmod(cell, cols)
        assert [r * cols + c for r, c in neighbours(row, col, rows, cols)] == [n for n in by_map[cell] if n >= 0]


@pytest.mark.parametrize("rows,cols", GRIDS)
def test_m01_s13_opposite_directions_meet(rows, cols):
    table = neighbour_table(rows, cols, COUNTER_CLOCKWISE)
    for cell in range(rows * cols):
        for d in range(6):
            n = table[cell, d]
            if n >= 0:
                assert table[n, (d + 3) % 6] == cell


@pytest.mark.parametrize("rows,cols", GRIDS)
def test_m01_distance_counts_steps(rows, cols):
    """The cube distance equals the fewest steps between two cells on the grid."""
    table, dist = neighbour_table(rows, cols), distance_table(rows, cols)
    for start in range(rows * cols):
        steps = np.full(rows * cols, -1)
        steps[start] = 0
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            for n in table[cell]:
                if n >= 0 and steps[n] < 0:
                    steps[n] = steps[cell] + 1
                    queue.append(n)
        assert np.array_equal(dist[start], steps)
