"""mkdocs hooks: the command-line reference, written from the typer app at every build.

``docs/reference/cli.md`` holds the marker ``<!-- cli-reference -->``; each build
replaces it with every command's help, usage and options as ``zonesim --help``
shows them, so the page cannot drift from the code. Importing ``sim.cli``
compiles no kernel.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = "<!-- cli-reference -->"


def on_page_markdown(markdown, page, config, files):
    """Fill the CLI reference page."""
    if MARKER in markdown:
        return markdown.replace(MARKER, cli_reference())
    return markdown


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
