"""Every notebook runs top to bottom (so the tutorials never rot), and imports
nothing of ``sim`` but its Python API, ``sim.api`` (the explorer's notebook
also ``sim.explore``)."""

import ast
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[2] / "notebooks").glob("*.ipynb"))
QUICK = {"fight_survival", "explore"}
"""Notebooks that run in a few seconds; the others (10-35 s each) run with ``-m slow``."""
ALLOWED = {"explore": ("sim.api", "sim.explore")}
"""The ``sim`` modules a notebook may import, beyond ``sim.api``."""


def sim_imports(source: str) -> list:
    """The ``sim`` modules a code cell imports (``from sim import api`` is ``sim.api``); IPython magics skipped."""
    code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
    found = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "sim"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sim":
            found += [f"sim.{a.name}" for a in node.names] if node.module == "sim" else [node.module]
    return found


def test_sim_imports_are_read():
    cell = "%matplotlib inline\nimport sim.run.fight\nfrom sim import api, content\nfrom sim.api import value\n"
    assert sim_imports(cell) == ["sim.run.fight", "sim.api", "sim.content", "sim.api"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_imports_only_the_api(path):
    allowed = ALLOWED.get(path.stem, ("sim.api",))
    nb = nbformat.read(path, as_version=4)
    imported = [m for c in nb.cells if c.cell_type == "code" for m in sim_imports(c.source)]
    assert imported, f"{path.name} imports nothing of sim.api"
    assert [m for m in imported if not any(m == a or m.startswith(a + ".") for a in allowed)] == []


@pytest.mark.parametrize("path", [p if p.stem in QUICK else pytest.param(p, marks=pytest.mark.slow) for p in NOTEBOOKS],
                         ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path):
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors
