"""numba kernels: pure functions of arrays and scalars (rng, dice, fights)."""

import functools
import threading

import numpy as np
from numba import njit, types
from numba.np.numpy_support import as_dtype

from sim import file_kernels_by_project_path

file_kernels_by_project_path()


class EntryPoint:
    """A kernel that Python calls, compiled for one signature (or loaded from the
    cache) at its first call rather than at import: a run compiles only the
    kernels it uses, and a child process can compile the later ones ahead
    (``sim.run.warmup``). Calls match the signature as an eager ``@njit`` does
    (a strategy's dispatcher converts to its first-class function type) and go
    straight to the compiled function once ``fits`` has checked them: with one
    signature there is nothing for the dispatcher to resolve, and resolving a
    tuple of strategy functions costs more than a short batch of campaigns."""

    def __init__(self, py_func, signature, options):
        functools.update_wrapper(self, py_func)
        self.py_func, self.signature, self.options = py_func, signature, options
        self._dispatcher = self._compiled = self._argtypes = None
        self._lock = threading.Lock()

    def compile(self):
        """The dispatcher, compiled (or loaded from numba's cache) now."""
        with self._lock:
            if self._dispatcher is None:
                dispatcher = njit(self.signature, cache=True, **self.options)(self.py_func)
                self._argtypes = dispatcher.signatures[0]
                self._compiled = dispatcher.overloads[self._argtypes].entry_point
                self._dispatcher = dispatcher
        return self._dispatcher

    def __call__(self, *args):
        if self._compiled is None:
            self.compile()
        if len(args) != len(self._argtypes):
            raise TypeError(f"{self.__name__}: {len(args)} arguments for {len(self._argtypes)}")
        for n, (value, expected) in enumerate(zip(args, self._argtypes)):
            if not fits(value, expected):
                raise TypeError(f"{self.__name__}: argument {n} is not {expected}")
        return self._compiled(*args)


def fits(value, expected) -> bool:
    """Whether ``value`` passes as numba type ``expected`` without a conversion the
    compiled function would not make (an array of its dtype, dimensions, layout and
    writability; a whole number or real; a tuple of such); a function type is the
    compiled function's to check."""
    if isinstance(expected, types.Array):
        return (isinstance(value, np.ndarray) and value.ndim == expected.ndim
                and value.dtype == as_dtype(expected.dtype) and (value.flags.writeable or expected.readonly)
                and (expected.layout != "C" or value.flags.c_contiguous))
    if isinstance(expected, types.BaseTuple):
        return (isinstance(value, tuple) and len(value) == len(expected)
                and all(fits(v, e) for v, e in zip(value, expected)))
    if isinstance(expected, types.Integer):
        return isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if isinstance(expected, types.Float):
        return isinstance(value, (int, float, np.integer, np.floating))
    return True


def entry_point(signature, **options):
    """``@njit(signature, cache=True, **options)``, compiled at the first call (``EntryPoint``)."""
    return lambda py_func: EntryPoint(py_func, signature, options)
