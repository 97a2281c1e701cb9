"""Every notebook runs top to bottom (so the tutorials never rot)."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[2] / "notebooks").glob("*.ipynb"))
QUICK = {"fight_survival"}
"""Notebooks that run in a few seconds; the others (10-35 s each) run with ``-m slow``."""


@pytest.mark.parametrize("path", [p if p.stem in QUICK else pytest.param(p, marks=pytest.mark.slow) for p in NOTEBOOKS],
                         ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path):
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors
