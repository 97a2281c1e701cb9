"""AI strategies: the named strategies of each mode's family (``sim.modes``).

``get("fighter")`` returns a built-in fight strategy, ``get("cautious",
mode="journey")`` a journey's; ``get("path/to/file.py:NAME", mode=...)`` loads
the strategy called NAME from a user's file, with no edit to ``sim``.
``names(mode)`` lists the built-in ones without compiling them; ``built_in(mode)``
compiles them (or loads them from numba's disk cache).
"""

import hashlib
import importlib.util
import sys
from pathlib import Path

from sim.errors import ZonesimError
from sim.modes import MODES, resolve

LAZY = {"Strategy": "strategies.base:Strategy", "decision": "strategies.base:decision"}
"""Names read from their modules on first use, so listing strategies or checking a
name compiles no kernel (``strategies.base`` imports the fight kernel's types)."""


def __getattr__(name):
    if name in LAZY:
        return resolve(LAZY[name])
    raise AttributeError(f"module 'strategies' has no attribute '{name}'")


class StrategyError(ZonesimError):
    """A strategy name or file that cannot be used."""


def _family(mode: str):
    """The strategy family of ``mode``'s record (``sim.modes``)."""
    if mode not in MODES:
        raise StrategyError(f"no strategies for mode '{mode}'; modes: {', '.join(MODES)}")
    return MODES[mode].family


def names(mode: str = "fight") -> tuple:
    """The built-in strategies' names of ``mode``, in listing order (compiles nothing)."""
    return tuple(_family(mode).built_in)


def built_in(mode: str = "fight") -> dict:
    """``{name: strategy}`` of the built-in strategies of ``mode``."""
    return {name: resolve(target) for name, target in _family(mode).built_in.items()}


def get(spec: str, mode: str = "fight"):
    """A built-in strategy of ``mode`` by name, or ``FILE.py:NAME`` from a user's file."""
    family = _family(mode)
    if spec in family.built_in:
        return resolve(family.built_in[spec])
    if ":" not in spec:
        raise StrategyError(
            f"unknown strategy '{spec}'; built in: {', '.join(family.built_in)}; or give FILE.py:NAME"
        )
    return _from_file(spec, resolve(family.kind))


def _from_file(spec: str, kind: type):
    """The object of type ``kind`` named NAME in the user's file of ``FILE.py:NAME``."""
    path_text, name = spec.rsplit(":", 1)
    path = Path(path_text)
    if not path.is_file():
        raise StrategyError(f"strategy file '{path}' not found (from --strategy {spec})")
    # a stable name: numba's disk cache re-imports the module by it in later runs
    module_name = "zonesim_user_strategy_" + hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:16]
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_name] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:  # a user's file may fail in any way: report it in one line
        raise StrategyError(f"{path}: cannot load strategy file: {type(exc).__name__}: {exc}") from exc
    strategy = getattr(module, name, None)
    if not isinstance(strategy, kind):
        found = [k for k, v in vars(module).items() if isinstance(v, kind)]
        raise StrategyError(f"{path}: no {kind.__name__} named '{name}' (found: {', '.join(found) or 'none'})")
    return strategy


__all__ = ["Strategy", "StrategyError", "built_in", "decision", "get", "names"]
