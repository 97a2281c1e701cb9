"""The README is a landing page whose every figure is rendered, not typed: it
stays under 200 lines, holds no dated narrative (that is CHANGELOG.md), shows
the set-up commands that ``.ci/run`` runs, and every figures block in it (and in
the docs pages that share the figures) equals its render from
``docs/dev/bench-results.json`` by ``scripts/readme_figures.py``."""

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
INSTALL = "python -m pip install -e . && zonesim report"
TEST = "python -m pip install -e '.[test]' && python -m pytest"


def _figures():
    spec = importlib.util.spec_from_file_location("readme_figures", ROOT / "scripts" / "readme_figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


figures = _figures()


def test_readme_is_under_200_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 200, f"README.md has {len(lines)} lines; move detail into docs/"


def test_readme_has_no_dated_narrative():
    dates = re.findall(r"\b20\d\d-\d\d-\d\d\b", README.read_text(encoding="utf-8"))
    assert not dates, f"README.md mentions {dates}; history goes to CHANGELOG.md"


def test_readme_shows_the_set_up_commands_and_ci_runs_the_test_command():
    text = README.read_text(encoding="utf-8")
    assert f"```\n{INSTALL}\n```" in text
    assert f"```\n{TEST}\n```" in text
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == TEST, ".ci/run must end with exactly the README's test command"


def test_readme_shows_the_speed_figures():
    assert {"report-time", "speed"} <= set(figures.blocks(README.read_text(encoding="utf-8")))


def test_every_renderer_is_shown_somewhere():
    shown = {name for page in figures.PAGES for name in figures.blocks((ROOT / page).read_text(encoding="utf-8"))}
    assert shown == set(figures.RENDER)


@pytest.mark.parametrize("page", figures.PAGES)
def test_figures_blocks_equal_their_render(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    assert figures.blocks(text), f"{page} holds no figures block"
    assert text == figures.rendered(text, figures.load()), \
        f"{page}: a figures block differs from docs/dev/bench-results.json; run `python scripts/readme_figures.py`"


def test_a_changed_figure_is_caught():
    results = figures.load()
    results["kernels"][0]["kernel"] *= 2
    text = README.read_text(encoding="utf-8")
    assert figures.rendered(text, results) != text
