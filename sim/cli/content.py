"""``zonesim content``: inspect and copy content sets."""

from pathlib import Path
from typing import Annotated

import typer

from sim import api
from sim.cli.common import app

content_app = typer.Typer(help="Inspect and copy content sets (TOML files of items, monsters, rules).",
                          no_args_is_help=True)
app.add_typer(content_app, name="content")


@content_app.command("init")
def content_init(directory: Annotated[Path, typer.Argument(help="New folder to create with the default content.")]):
    """Copy the shipped default content into DIRECTORY to edit it.

    \b
    Example:
      zonesim content init my_content && zonesim validate my_content
      zonesim encounter -m snork --weapon berdanka --content my_content
    """
    api.copy_content(directory)
    print(f"{directory}: default content copied; edit the TOML files, then `zonesim validate {directory}`")


@content_app.command("path")
def content_path():
    """Print the folder of the shipped default content.

    \b
    Example:
      ls "$(zonesim content path)"
    """
    print(api.content_path())
