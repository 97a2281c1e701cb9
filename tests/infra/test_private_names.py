"""No module of ``sim``, ``strategies``, ``bench`` or ``scripts`` uses another
module's underscore names: a helper two modules share has a public name in the
module that owns it. Read with ``ast``: ``from X import _name``, and ``X._name``
after ``import X`` (or ``from package import X``), for X a module of these
packages. The numba kernel modules ``sim.kernels.*`` are left out: their
underscore functions are compiled helpers a benchmark may call."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("sim", "strategies", "bench", "scripts")
EXEMPT = "sim.kernels"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def checked(module: str) -> bool:
    """A module of the project whose underscore names are its own."""
    return module.split(".")[0] in PACKAGES and module != EXEMPT and not module.startswith(EXEMPT + ".")


def source(name: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The module a ``from ... import`` reads from, relative imports resolved."""
    if not node.level:
        return node.module or ""
    package = name if is_package else name.rpartition(".")[0]
    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
    return ".".join(filter(None, (base, node.module)))


def crossings(name: str, text: str, is_package=False) -> list:
    """``(line, "module._name")`` for every underscore name of another module that ``text`` uses."""
    tree = ast.parse(text)
    found, aliases = [], {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            origin = source(name, is_package, node)
            for alias in node.names:
                if private(alias.name) and checked(origin) and origin != name:
                    found.append((node.lineno, f"{origin}.{alias.name}"))
                if f"{origin}.{alias.name}" in MODULES or checked(f"{origin}.{alias.name}"):
                    aliases[alias.asname or alias.name] = f"{origin}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                aliases[bound] = alias.name if alias.asname else alias.name.split(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            chain, value = [], node.value
            while isinstance(value, ast.Attribute):
                chain.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id in aliases:
                module = ".".join([aliases[value.id], *reversed(chain)])
                if checked(module) and module != name:
                    found.append((node.lineno, f"{module}.{node.attr}"))
    return found


def test_the_detector_sees_both_forms():
    text = ("from sim.run.chunks import _plan, plan\nfrom sim.kernels.rng import _high_product\n"
            "from sim.reference import fight as ref\nimport sim.run.results\nimport numpy as np\n"
            "ref._prepare_stalker(1)\nsim.run.results._umask()\nnp._private\nref.public()\n")
    assert crossings("bench.example", text) == [(1, "sim.run.chunks._plan"),
                                                (6, "sim.reference.fight._prepare_stalker"),
                                                (7, "sim.run.results._umask")]


def test_relative_imports_are_resolved():
    assert crossings("sim.content.skirmish", "from .maps import _rows\n") == [(1, "sim.content.maps._rows")]
    assert crossings("sim.content", "from .load import _read\n", is_package=True) == [(1, "sim.content.load._read")]


def test_no_module_uses_another_modules_underscore_names():
    offenders = [f"{path.relative_to(ROOT)}:{line}: {used}" for name, path in MODULES.items()
                 for line, used in crossings(name, path.read_text(encoding="utf-8"), path.name == "__init__.py")]
    assert not offenders, "underscore names used across modules (give them a public name where they live):\n" + \
        "\n".join(offenders)
