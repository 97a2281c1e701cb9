"""``zonesim route``: the fewest days between two hexes of a map."""

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from sim import api
from sim.cli.common import ContentDir, app


@app.command()
def route(
    start: Annotated[str, typer.Option("--from", metavar="C,R|ID", help="Start hex as COL,ROW, or a base or site "
                                                                        "id.")],
    goal: Annotated[str, typer.Option("--to", metavar="C,R|ID", help="Goal hex as COL,ROW, or a base or site id.")],
    map_file: Annotated[Optional[Path], typer.Option("--map", help="Map file (default: the shipped Zone "
                                                                   "map).")] = None,
    item: Annotated[Optional[str], typer.Option(metavar="ID", help="Movement item (zone_map, glonass, "
                                                                   "jetpack).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print {\"days\", \"steps\", \"path\"} as JSON.")] = False,
    content: ContentDir = None,
):
    """Fewest days from one hex to another (Z-25, Z-26, Z-34..Z-36), exactly.

    A day has 6 steps plus the movement item's; each hex costs its terrain;
    a move that does not fit the steps left waits for the next day; Epicentre
    hexes are paid from the base 6 steps only.

    \b
    Examples:
      zonesim route --from cordon --to bar
      zonesim route --from 4,14 --to 16,2 --item jetpack --json
    """
    found = api.route(start, goal, map_file=map_file, item=item, content=content)
    if as_json:
        print(json.dumps({"days": found.days, "steps": found.steps, "path": [list(p) for p in found.path]}))
    else:
        print(f"{found.days} day{'s' if found.days != 1 else ''}, {found.steps} steps: "
              + " -> ".join(f"{c},{r}" for c, r in found.path))
