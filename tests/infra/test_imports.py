"""The import graph of ``sim``, ``strategies`` and ``bench``: no cycles, no
import up the declared layers, and ``bench`` runs without the test suite.

Imports are read with ``ast`` (top-level and inside functions alike), so an
import deferred into a function still counts as an edge.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("sim", "strategies", "bench")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def imported(name: str, path: Path) -> set:
    """Every module ``name`` imports by name (``from a import b`` is ``a.b`` when that is a module, else ``a``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            source = ".".join(filter(None, (base, node.module)))
            found.update(f"{source}.{a.name}" if f"{source}.{a.name}" in MODULES else source for a in node.names)
    return found


def edges(name: str, path: Path) -> set:
    """The project modules ``name`` imports, with the packages an import runs first (``import a.b.c`` runs
    ``a`` and ``a.b``) except ``name``'s own, which Python has run before ``name``."""
    explicit = imported(name, path)
    parents = {m.rsplit(".", k)[0] for m in explicit for k in range(1, m.count(".") + 1)}
    own = {name.rsplit(".", k)[0] for k in range(name.count(".") + 1)}
    return {m for m in explicit | (parents - own) if m in MODULES} - {name}


def find_cycle(graph: dict):
    """One cycle of ``graph`` as a list of nodes (first = last), or None."""
    state = {}  # node -> "open" while on the path, "done" after

    def visit(node, path):
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt, path)):
                return cycle
        path.pop()
        state[node] = "done"
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start, [])):
            return cycle
    return None


# The layers of the project, bottom first: a module imports only from its own
# layer or those below it (docs/dev/architecture.md draws them).
LAYERS = (
    ("sim", "sim.errors", "sim.hexgrid"),  # the numba cache set-up, errors, hex geometry
    ("sim.content",),  # the content files and their loaders
    ("sim.kernels", "sim.reference"),  # the rules: numba kernels and their plain-Python references
    ("sim.modes",),  # the registry of game modes (names only: nothing imported until used)
    ("strategies",),  # the AI players, each mode's family
    ("sim.analysis",),  # statistics and exact answers
    ("sim.run",),  # runners: chunks, checkpoints, seeds, results
    ("sim.options",),  # the checks every command's options share
    ("sim.economy",),  # card values and prices
    ("sim.report",),  # the study, its charts and output files
    ("sim.compare",),  # paired differences, sensitivity
    ("sim.balance",),  # the solver
    ("sim.checks",),  # a content folder checked whole (every loader above)
    ("sim.explore",),  # the live explorer
    ("sim.api",),  # one call per command
    ("sim.cli", "sim.__main__"),  # the command line
)


def layer_of(module: str):
    """The index in ``LAYERS`` of ``module``'s deepest declared package, or None."""
    best, index = -1, None
    for i, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and name.count(".") > best:
                best, index = name.count("."), i
    return index


def upward_imports(graph: dict) -> list:
    """``(importer, imported)`` for every edge of ``graph`` that goes up the layers."""
    return sorted((a, b) for a, targets in graph.items() for b in targets
                  if layer_of(a) is not None and layer_of(b) is not None and layer_of(b) > layer_of(a))


def test_every_project_module_has_a_layer():
    unplaced = sorted(n for n in MODULES if n.split(".")[0] != "bench" and layer_of(n) is None)
    assert not unplaced, f"add these to LAYERS: {unplaced}"


def test_no_import_goes_up_the_layers():
    up = upward_imports({n: edges(n, p) for n, p in MODULES.items() if n.split(".")[0] != "bench"})
    assert not up, "imports up the layers: " + "; ".join(f"{a} -> {b}" for a, b in up)


def test_an_upward_import_is_caught():
    assert upward_imports({"sim.options": {"sim.report.study"}, "sim.report.study": {"sim.options"}}) == [
        ("sim.options", "sim.report.study")]


def test_the_graph_is_read():
    graph = {n: edges(n, p) for n, p in MODULES.items()}
    assert "sim.cli.common" in graph["sim.cli.encounter"]
    assert "sim.options" in graph["sim.cli.common"]


def test_find_cycle_reports_the_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycles():
    cycle = find_cycle({n: edges(n, p) for n, p in MODULES.items()})
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_bench_does_not_import_the_tests():
    offenders = {n: found for n, p in MODULES.items() if n.split(".")[0] == "bench"
                 and (found := sorted(m for m in imported(n, p) if m.split(".")[0] == "tests"))}
    assert not offenders, f"bench imports the tests: {offenders}"
