"""numba kernels: pure functions of arrays and scalars (rng, dice, fights)."""
