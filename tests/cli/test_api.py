"""``sim.api`` is the checked public surface: ``__all__`` lists every public
function, each has a docstring with an example, importing it compiles nothing,
and a bad argument is the command line's one-line error."""

import inspect
import subprocess
import sys

import pytest

import sim.api as api
from sim.errors import ZonesimError


def public_functions() -> set:
    """Every public function of the modules of ``sim.api`` (``sim.api.content``, ``.modes``, ...)."""
    import importlib
    import pkgutil

    modules = [importlib.import_module(f"sim.api.{m.name}") for m in pkgutil.iter_modules(api.__path__)]
    return {name for module in modules for name, f in vars(module).items()
            if inspect.isfunction(f) and f.__module__ == module.__name__ and not name.startswith("_")}


def test_all_lists_every_public_function():
    assert set(api.__all__) == public_functions()
    assert len(api.__all__) == len(set(api.__all__))


@pytest.mark.parametrize("name", api.__all__)
def test_every_public_function_has_a_docstring_with_an_example(name):
    doc = inspect.getdoc(getattr(api, name))
    assert doc and ">>>" in doc, f"sim.api.{name} needs a short docstring with an example"


def test_importing_the_api_compiles_nothing():
    code = ("import sys, sim.api; print(sorted(m for m in sys.modules if m.startswith(('strategies.', "
            "'sim.kernels', 'sim.run', 'sim.report', 'matplotlib'))))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "[]", proc.stdout + proc.stderr


@pytest.mark.parametrize("call, message", [
    (lambda: api.encounter("snork", seed=-1), "--seed: -1; give a whole number >= 0"),
    (lambda: api.encounter("snork", stims={"medkit": 1}), "--stims: 'medkit' is a medkit; give it with --medkits"),
    (lambda: api.journey(days=0), "--days: 0; give at least 1 day"),
    (lambda: api.stalkeriada(["cautious"]), "Stalkeriada seats 2 to 6 players"),
    (lambda: api.value(synergy=True), "--synergy and --pair: give a loadout"),
    (lambda: api.loadout(weapon="nosuch"), "--weapon: 'nosuch'"),
])
def test_bad_arguments_are_the_command_lines_errors(call, message):
    with pytest.raises(ZonesimError, match=message):
        call()

