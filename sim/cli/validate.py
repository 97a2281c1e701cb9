"""``zonesim validate``: check a content set and summarise it."""

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from sim import api
from sim.cli.common import Json, app
from sim.run.results import portable_dir


@app.command()
def validate(
    directory: Annotated[Optional[Path], typer.Argument(help="Content folder (default: the shipped one).")] = None,
    as_json: Json = False,
):
    """Check a content set: prints a summary, or the first problem (exit 2).

    \b
    Examples:
      zonesim validate my_content/
      zonesim validate my_content/ --json
    """
    summary = api.validate(directory)
    if as_json:
        print(json.dumps(summary))
        return
    zone, arena = summary["stalkeriada_zone"], summary["skirmish_arena"]
    extras = (f", Stalkeriada {zone[0]}x{zone[1]} Zone" if zone else "") + \
        (f", skirmish arena {arena[0]}x{arena[1]}" if arena else "")
    maps = f"{summary['maps']} map{'s' * (summary['maps'] != 1)}"
    print(f"{portable_dir(summary['directory'])}: ok · {summary['characters']} characters, {summary['monsters']} "
          f"monsters, {summary['items']} items, {maps}{extras} · {summary['assumed']} assumed [A] values · "
          f"hash {summary['content_hash'][:12]}")
