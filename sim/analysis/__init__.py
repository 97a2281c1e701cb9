"""Statistics, exact solvers and item value."""
