"""The documentation site builds with ``mkdocs build --strict`` (no broken link,
no page left out of the navigation, no docstring the API page cannot read), and
its generated pages hold what they are generated from: every command of the
typer app on the CLI reference, ``sim.api.encounter`` on the API page, the
tutorial's commands with what they print, the gallery's notebooks with their
figures. In a real browser every image of the tutorial and the gallery loads."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GALLERY = ("fight_survival", "item_values", "zone_danger", "stalkeriada_strategies", "designer_workflow",
           "balance")


def build_site(folder: Path, execute: bool) -> Path:
    """``mkdocs build --strict`` into ``folder``; ``execute``: run the gallery's notebooks as it builds
    (else they show their saved outputs)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "ZONESIM_DOCS_EXECUTE": str(execute).lower()}
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
                          cwd=ROOT, capture_output=True, text=True, timeout=900, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return folder


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build_site(tmp_path_factory.mktemp("docs") / "site", execute=False)


@pytest.mark.slow
def test_the_site_build_runs_every_notebook(tmp_path):
    """The site as published: each gallery notebook run as the site builds (a failing cell fails the
    build), its page holding the figures of that run."""
    site = build_site(tmp_path / "site", execute=True)
    for name in GALLERY:
        page = (site / "notebooks" / name / "index.html").read_text(encoding="utf-8")
        assert "<img" in page and "Traceback" not in page, name


def test_docs_build_strict(site):
    import typer

    import sim.cli

    cli = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    app = typer.main.get_command(sim.cli.app)
    for name, command in app.commands.items():
        assert f"zonesim {name}</code>" in cli, f"the CLI reference lacks `zonesim {name}`"
        for param in getattr(command, "params", []):
            for opt in getattr(param, "opts", []):
                if opt.startswith("--"):
                    assert opt in cli, f"the CLI reference lacks {opt} of `zonesim {name}`"

    api = (site / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    assert 'id="sim.api.encounter"' in api

    rules = (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert "Z-01" in rules and "M-08" in rules


def test_the_tutorial_shows_what_its_commands_print(site):
    """The tutorial's commands ran at build time: the bloodsucker's edit moved its survival."""
    page = (site / "guide" / "tutorial" / "index.html").read_text(encoding="utf-8")
    assert "<!-- run:" not in page and "<!-- edit:" not in page
    assert page.count("1,000,000 fights") == 2 and "0.8288" in page and "0.5123" in page
    assert "fight_survival.bloodsucker.standard" in page and "Moved significantly (1)" in page


def test_the_gallery_renders_every_notebook_with_its_figures(site):
    for name in GALLERY:
        page = (site / "notebooks" / name / "index.html").read_text(encoding="utf-8")
        assert page.count("data:image/png;base64,") >= 1, name
        assert str(ROOT) not in page and "/tmp/" not in page, f"{name} shows a machine path"
        assert (site / "gallery" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.browser
def test_every_image_of_the_tutorial_and_gallery_loads_in_a_browser(site, browser, tmp_path):
    pages = ["guide/tutorial", "gallery", *(f"notebooks/{name}" for name in GALLERY)]
    for path in pages:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto((site / path / "index.html").as_uri())
        page.wait_for_load_state("load")
        widths = page.eval_on_selector_all("img", "images => images.map(i => [i.src.slice(0, 60), i.naturalWidth])")
        assert widths and all(w > 0 for _, w in widths), (path, widths)
        shot = tmp_path / f"{path.replace('/', '_')}.png"
        page.screenshot(path=str(shot), full_page=False)
        assert shot.stat().st_size > 10_000, path
        page.close()


PAGE_PROBLEMS = """() => {
  const problems = [];
  const main = document.querySelector("article") || document.body;
  const prose = el => { const c = el.cloneNode(true); c.querySelectorAll("code").forEach(x => x.remove());
                        return c.textContent; };
  for (const p of main.querySelectorAll("p")) {
    const text = prose(p);
    if (/(^|\\n)[ \\t]*([-*]|\\d+\\.)[ \\t]+\\S/.test(text) || /(^|\\n)[ \\t]*#{1,6}[ \\t]+\\S/.test(text))
      problems.push("Markdown left as text: " + text.trim().slice(0, 80));
  }
  for (const pre of main.querySelectorAll("pre")) {
    const text = pre.textContent;
    if (/^\\s*\\|.*\\|\\s*$/m.test(text) && /^\\s*\\|?\\s*:?-{3,}:?\\s*(\\|\\s*:?-{3,}:?\\s*)+\\|?\\s*$/m.test(text))
      problems.push("a Markdown table in a code block: " + text.trim().slice(0, 80));
  }
  const words = main.innerText;
  const path = words.match(/(\\/tmp\\/|\\/root\\/|\\/home\\/\\w|\\/work\\/|\\/Users\\/\\w|[A-Z]:\\\\Users)/);
  if (path) problems.push("a machine path: " + words.slice(Math.max(0, path.index - 40), path.index + 40));
  for (const img of document.images)
    if (!img.complete || img.naturalWidth === 0) problems.push("an image that did not load: " + img.src.slice(0, 80));
  return problems;
}"""
"""What a reader would see wrong on a page: Markdown shown as text (a list or heading
in a paragraph, code left out), a console block holding a Markdown table, a path of
the machine the page was built on, an image that did not load."""


def page_problems(page) -> list:
    """``PAGE_PROBLEMS`` of the page loaded in ``page``, every image loaded first (lazy ones too)."""
    page.evaluate("Promise.all([...document.images].map(i => { i.loading = 'eager'; return i.decode()"
                  ".catch(() => null); }))")
    return page.evaluate(PAGE_PROBLEMS)


@pytest.mark.browser
def test_every_page_renders_right_in_a_browser(site, browser):
    """Every page of the built site, opened in Chromium: no Markdown left as text, no console block
    holding a Markdown table, no machine path, every image loaded."""
    pages = sorted(p for p in site.rglob("*.html") if "assets" not in p.parts)
    assert len(pages) > 30
    found = {}
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    for path in pages:
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        if problems := page_problems(page):
            found[path.relative_to(site).as_posix()] = problems
    page.close()
    assert found == {}


def test_a_planted_page_is_caught_in_a_browser(browser, tmp_path):
    """The FAQ's list with its blank line taken out, a console block of Markdown, a machine
    path and a missing image, rendered as the site renders Markdown (mkdocs.yml's extensions):
    each is found."""
    import markdown
    import yaml

    class Tagged(yaml.SafeLoader):
        pass

    Tagged.add_multi_constructor("!", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Tagged)
    extensions = [e if isinstance(e, str) else next(iter(e)) for e in config["markdown_extensions"]]
    faq = (ROOT / "docs" / "guide" / "faq.md").read_text(encoding="utf-8")
    start = faq.index("is [0, 0]. Three common reasons:")
    planted = faq[start:faq.index("## The first command", start)].replace("reasons:\n\n- ", "reasons:\n- ", 1)
    planted += ("\n```console\n$ zonesim balance t.toml\n| target | band |\n|---|---|\n| x | [0.6, 0.8] |\n```\n\n"
                "Written to /tmp/zonesim-docs-x/bal.\n\n![chart](missing.png)\n")
    html = tmp_path / "planted.html"
    html.write_text(f"<html><body><article>{markdown.markdown(planted, extensions=extensions)}</article></body></html>",
                    encoding="utf-8")
    page = browser.new_page()
    page.goto(html.as_uri())
    problems = page_problems(page)
    page.close()
    kinds = sorted({p.split(":")[0] for p in problems})
    assert kinds == ["Markdown left as text", "a Markdown table in a code block", "a machine path",
                     "an image that did not load"], problems
    assert any("The stalker never uses it" in p for p in problems), problems
