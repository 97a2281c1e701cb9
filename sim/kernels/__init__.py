"""numba kernels: pure functions of arrays and scalars (rng, dice, fights)."""

from sim import file_kernels_by_project_path

file_kernels_by_project_path()
