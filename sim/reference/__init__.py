"""Plain-Python reference implementations, slow and obvious, used by tests and benchmarks."""
