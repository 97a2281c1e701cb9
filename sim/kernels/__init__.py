"""numba kernels: pure functions of arrays and scalars (rng, dice, fights)."""

import functools
import threading

from numba import njit

from sim import file_kernels_by_project_path

file_kernels_by_project_path()


class EntryPoint:
    """A kernel that Python calls, compiled for one signature (or loaded from the
    cache) at its first call rather than at import: a run compiles only the
    kernels it uses, and a child process can compile the later ones ahead
    (``sim.run.warmup``). Calls match the signature as an eager ``@njit`` does
    (a strategy's dispatcher converts to its first-class function type)."""

    def __init__(self, py_func, signature, options):
        functools.update_wrapper(self, py_func)
        self.py_func, self.signature, self.options = py_func, signature, options
        self._dispatcher = None
        self._lock = threading.Lock()

    def compile(self):
        """The dispatcher, compiled (or loaded from numba's cache) now."""
        with self._lock:
            if self._dispatcher is None:
                self._dispatcher = njit(self.signature, cache=True, **self.options)(self.py_func)
        return self._dispatcher

    def __call__(self, *args):
        return (self._dispatcher or self.compile())(*args)


def entry_point(signature, **options):
    """``@njit(signature, cache=True, **options)``, compiled at the first call (``EntryPoint``)."""
    return lambda py_func: EntryPoint(py_func, signature, options)
