"""AI strategies: a registry of named bundles of ``@njit`` decision functions.

``get("fighter")`` returns a built-in; ``get("path/to/file.py:name")`` loads
the ``Strategy`` called ``name`` from a user's file, with no edit to ``sim``.
"""

import hashlib
import importlib.util
import sys
from pathlib import Path

from sim.errors import ZonesimError
from strategies.base import Strategy, decision
from strategies.basic import FIGHTER, RUNNER
from strategies.tactician import TACTICIAN

BUILT_IN = {s.name: s for s in (FIGHTER, RUNNER, TACTICIAN)}


class StrategyError(ZonesimError):
    """A strategy name or file that cannot be used."""


def get(spec: str) -> Strategy:
    """A built-in strategy by name, or ``FILE.py:NAME`` from a user's file."""
    return load(spec, BUILT_IN, Strategy)


def load(spec: str, built_in: dict, kind: type):
    """``built_in[spec]``, or the object of type ``kind`` named NAME in ``FILE.py:NAME``."""
    if spec in built_in:
        return built_in[spec]
    if ":" not in spec:
        raise StrategyError(
            f"unknown strategy '{spec}'; built in: {', '.join(built_in)}; or give FILE.py:NAME"
        )
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


__all__ = ["BUILT_IN", "Strategy", "StrategyError", "decision", "get", "load"]
