"""Hex geometry of every board: the journey map, the skirmish arena and the Stalkeriada Zone.

Every board is a grid in the "odd-r" offset layout: cell ``(row, col)`` has the
index ``row * cols + col``, row 0 is at the top and odd rows sit half a hex to
the right. A direction is a step ``(drow, dcol)`` that depends on the row's
parity (``STEPS``).

The boards list the six directions in two orders, and the order is part of
the numbers (kernels and strategies index directions, routes break ties by it):

- ``COUNTER_CLOCKWISE`` (E, NE, NW, W, SW, SE: direction ``d + 3`` is the
  opposite of ``d``): the skirmish arena (M-01, M-02; docs/rules/skirmish-resolution.md,
  "The arena") and the Stalkeriada Zone (S-13, S-20; docs/rules/stalkeriada-resolution.md,
  the Zone's directions 0..5).
- ``MAP_ORDER`` (E, W, NW, NE, SW, SE): the journey map (Z-43); the route
  tables take the first neighbour in this order on ties (Z-35, Z-39;
  docs/rules/journey-resolution.md, "Route tables").
"""

import numpy as np

STEPS = {  # direction: (drow, dcol) on an even row, on an odd row
    "E": ((0, 1), (0, 1)),
    "NE": ((-1, 0), (-1, 1)),
    "NW": ((-1, -1), (-1, 0)),
    "W": ((0, -1), (0, -1)),
    "SW": ((1, -1), (1, 0)),
    "SE": ((1, 0), (1, 1)),
}
COUNTER_CLOCKWISE = ("E", "NE", "NW", "W", "SW", "SE")
"""The arena's and the Stalkeriada Zone's directions 0..5 (M-01, S-13)."""
MAP_ORDER = ("E", "W", "NW", "NE", "SW", "SE")
"""The journey map's neighbour order (Z-43; route ties, Z-35)."""


def step(row: int, col: int, direction: str) -> tuple:
    """The ``(row, col)`` one step in ``direction`` from ``(row, col)`` (on the grid or not)."""
    drow, dcol = STEPS[direction][row % 2]
    return row + drow, col + dcol


def neighbours(row: int, col: int, rows: int, cols: int, order=MAP_ORDER) -> list:
    """The ``(row, col)`` of the on-grid neighbours of ``(row, col)``, in ``order``."""
    found = (step(row, col, d) for d in order)
    return [(r, c) for r, c in found if 0 <= r < rows and 0 <= c < cols]


def neighbour_table(rows: int, cols: int, order=COUNTER_CLOCKWISE) -> np.ndarray:
    """int64 ``[cell, direction]``: the index of the neighbour in each direction of ``order``, -1 off the grid."""
    table = np.full((rows * cols, len(order)), -1, np.int64)
    for row in range(rows):
        for col in range(cols):
            for d, direction in enumerate(order):
                r, c = step(row, col, direction)
                if 0 <= r < rows and 0 <= c < cols:
                    table[row * cols + col, d] = r * cols + c
    return table


def across(row, col):
    """How far across the grid a cell's centre lies, in hex widths: odd rows sit half a hex right
    (numbers or arrays)."""
    return col + 0.5 * (row % 2)


def cube(row, col):
    """Cube coordinates ``(x, y, z)`` (``x + y + z = 0``) of offset cells (numbers or arrays)."""
    x = col - (row - (row & 1)) // 2
    return x, row, -x - row


def distance_table(rows: int, cols: int) -> np.ndarray:
    """int64 ``[cell, cell]``: the number of steps between every two cells."""
    row, col = np.divmod(np.arange(rows * cols), cols)
    xyz = np.stack(cube(row, col), axis=1)
    return np.abs(xyz[:, None, :] - xyz[None, :, :]).max(axis=2)


def cube_round(p: np.ndarray) -> np.ndarray:
    """Fractional cube coordinates (rows of x, y, z) rounded to the nearest cell."""
    r = np.rint(p)
    d = np.abs(r - p)
    fix_x = (d[:, 0] > d[:, 1]) & (d[:, 0] > d[:, 2])
    fix_y = ~fix_x & (d[:, 1] > d[:, 2])
    fix_z = ~fix_x & ~fix_y
    r[fix_x, 0] = -r[fix_x, 1] - r[fix_x, 2]
    r[fix_y, 1] = -r[fix_y, 0] - r[fix_y, 2]
    r[fix_z, 2] = -r[fix_z, 0] - r[fix_z, 1]
    return r.astype(np.int64)


def cube_to_index(c: np.ndarray, rows: int, cols: int):
    """Cell indices of cube coordinates (rows of x, y, z) and whether each is on the grid."""
    row = c[:, 1]
    col = c[:, 0] + (row - (row & 1)) // 2
    return row * cols + col, (row >= 0) & (row < rows) & (col >= 0) & (col < cols)
