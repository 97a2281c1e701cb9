"""mkdocs hooks: pages written from the project at every build, so they cannot drift.

- ``docs/reference/cli.md`` holds the marker ``<!-- cli-reference -->``; each build
  replaces it with every command's help, usage and options as ``zonesim --help``
  shows them. Importing ``sim.cli`` compiles no kernel.
- A page's ``<!-- run: COMMAND -->`` is replaced by the command and what it prints,
  run at build time in one scratch folder per build (``zonesim`` is this checkout;
  ``run-quiet:`` shows the command alone); ``<!-- show: FILE -->`` puts a Markdown file
  the commands wrote there into the page, its headings as bold lines;
  ``<!-- edit: FILE | [TABLE] | OLD | NEW -->`` makes that edit there and shows it;
  ``<!-- write: FILE -->`` before a fenced block writes the block's text to FILE there.
- The notebooks (``notebooks/*.ipynb``, saved with their outputs by
  ``scripts/notebooks.py``) become the gallery's pages (``notebooks/NAME/``,
  rendered by mkdocs-jupyter), each with the first figure as its thumbnail
  (``gallery/NAME.png``); the example screenshots of ``results/example`` are
  served as ``images/NAME.png``.
"""

import base64
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
MARKER = "<!-- cli-reference -->"
STEP = re.compile(r"<!-- run(?P<quiet>-quiet)?: (?P<command>.+?) -->|<!-- edit: (?P<file>.+?) \| (?P<table>\[.+?\]) \| "
                  r"(?P<old>.+?) \| (?P<new>.+?) -->|<!-- write: (?P<path>\S+) -->\n+(?P<block>(?s:```\w*\n(?P<body>.*?)```))"
                  r"|<!-- show: (?P<show>\S+) -->")
"""A page's build-time steps, done in the order they appear."""
GALLERY = ("fight_survival", "item_values", "zone_danger", "stalkeriada_strategies", "designer_workflow",
           "balance")
"""The notebooks shown in the gallery, in order (the explorer's needs a live kernel)."""
IMAGES = ("explore.png", "report_first_screen.png")
_scratch = {}


@event_priority(100)  # before mkdocs-jupyter's, which turns the notebooks into pages
def on_files(files, config):
    """The gallery's notebooks and thumbnails, and the example screenshots, as site files."""
    for name in GALLERY:
        path = ROOT / "notebooks" / f"{name}.ipynb"
        files.append(File(f"notebooks/{name}.ipynb", str(ROOT), config["site_dir"], config["use_directory_urls"]))
        files.append(File.generated(config, f"gallery/{name}.png", content=thumbnail(path)))
    for name in IMAGES:
        files.append(File.generated(config, f"images/{name}", abs_src_path=str(ROOT / "results" / "example" / name)))
    return files


def thumbnail(notebook: Path) -> bytes:
    """The first PNG figure among a notebook's saved outputs."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    for cell in cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {}).get("image/png")
            if data:
                return base64.b64decode("".join(data))
    raise ValueError(f"{notebook.name} has no saved figure: run python scripts/notebooks.py")


def on_page_markdown(markdown, page, config, files):
    """Fill the CLI reference page; run a page's commands and edits."""
    if MARKER in markdown:
        markdown = markdown.replace(MARKER, cli_reference())
    return STEP.sub(step, markdown)


def step(m) -> str:
    """One build-time step of a page (module doc)."""
    if m["command"]:
        return run(m["command"], quiet=bool(m["quiet"]))
    if m["show"]:
        return show(m["show"])
    if m["path"]:
        write(m["path"], m["body"])
        return m["block"]
    return edit(m["file"], m["table"], m["old"], m["new"])


def write(path: str, text: str):
    """Write ``text`` (a fenced block of the page) to ``path`` in the scratch folder."""
    target = scratch() / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


def on_post_build(config):
    """The scratch folder goes with the build."""
    if "dir" in _scratch:
        shutil.rmtree(_scratch.pop("dir"), ignore_errors=True)


def scratch() -> Path:
    """The build's scratch folder, where the tutorial's commands run."""
    if "dir" not in _scratch:
        _scratch["dir"] = Path(tempfile.mkdtemp(prefix="zonesim-docs-"))
    return _scratch["dir"]


def show(path: str) -> str:
    """The Markdown file ``path`` of the scratch folder, each heading a bold line (so it
    sits inside the page's section, out of its table of contents)."""
    text = (scratch() / path).read_text(encoding="utf-8")
    return re.sub(r"^#+ (.+)$", r"**\1**", text, flags=re.M)


def run(command: str, quiet: bool = False) -> str:
    """``command`` (``zonesim`` as this checkout's ``python -m sim``) and its output (``quiet``:
    the command alone), as a console block."""
    here = f"{shlex.quote(sys.executable)} -m sim "
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "110", "NO_COLOR": "1"}
    proc = subprocess.run(command.replace("zonesim ", here), shell=True, cwd=scratch(), env=env,
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"docs: `{command}` failed ({proc.returncode}): {proc.stderr.strip()}")
    return "```console\n$ " + command + ("" if quiet else "\n" + proc.stdout.rstrip()) + "\n```"


def edit(file: str, table: str, old: str, new: str) -> str:
    """Change ``old`` to ``new`` in the first line after ``table`` of ``file`` (in the scratch
    folder); shown as the lines before and after."""
    path = scratch() / file
    text = path.read_text(encoding="utf-8")
    at = text.index(table)
    where = text.index(old, at)
    path.write_text(text[:where] + new + text[where + len(old):], encoding="utf-8")
    return f"```diff\n  # {file}\n  {table}\n- {old}\n+ {new}\n```"


def cli_reference(prog="zonesim"):
    """Markdown for every command of the app, in the order of ``zonesim --help``."""
    import typer

    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # the checkout being documented, whatever else is installed
    import sim.cli

    root = typer.main.get_command(sim.cli.app)
    ctx = root.context_class(root, info_name=prog)
    lines = [_help(root.help), ""]
    lines += _commands(root, ctx, prog, level=2)
    return "\n".join(lines).rstrip() + "\n"


def _commands(group, parent, path, level):
    out = []
    for name in group.list_commands(parent):
        command = group.get_command(parent, name)
        if command is None or command.hidden:
            continue
        ctx = command.context_class(command, info_name=name, parent=parent)
        out += [f"{'#' * level} `{path} {name}`", "", _help(command.help), ""]
        usage = " ".join(command.collect_usage_pieces(ctx))
        out += ["```text", f"{path} {name} {usage}".rstrip(), "```", ""]
        if hasattr(command, "list_commands"):
            out += _commands(command, ctx, f"{path} {name}", level + 1)
            continue
        rows = [record for param in command.get_params(ctx) if (record := param.get_help_record(ctx))]
        if rows:
            out += ["**Options and arguments**", ""]
            out += [f"- `{names}`: {_escape(text)}" if text else f"- `{names}`" for names, text in rows]
            out.append("")
    return out


def _escape(text):
    """Help text as one Markdown line: no stray emphasis or HTML from option values."""
    text = " ".join(text.split())
    text = re.sub(r"([*_<>\[\]])", r"\\\1", text)
    return text


def _help(text):
    """A click help text as Markdown: paragraphs re-flowed, ``\\b`` blocks kept as
    written (their indented lines, the examples, as a code block)."""
    if not text:
        return ""
    blocks = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        for part in paragraph.split("\b"):
            part = part.strip("\n")
            if not part.strip():
                continue
            lines = part.splitlines()
            if len(lines) > 1 and any(line.startswith("  ") for line in lines):
                blocks.append(_preformatted(lines))
            else:
                blocks.append(" ".join(line.strip() for line in lines))
    return "\n\n".join(blocks)


def _preformatted(lines):
    """A ``\\b`` block: unindented lines as text, runs of indented lines as code."""
    out, code = [], []

    def flush():
        if code:
            width = min(len(line) - len(line.lstrip()) for line in code if line.strip())
            out.extend(["", "```text", *(line[width:] for line in code), "```", ""])
            code.clear()

    for line in lines:
        if line.startswith("  "):
            code.append(line)
        else:
            flush()
            out.append(line.strip())
    flush()
    return "\n".join(out).strip("\n")
