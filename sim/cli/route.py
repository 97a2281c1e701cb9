"""``zonesim route``: the fewest days between two hexes of a map."""

import json
from pathlib import Path
from typing import Optional

import typer

from sim.cli.common import CONTENT_OPTION, UsageProblem, app
from sim.content import load_content
from sim.errors import ZonesimError


def _hex(option, text, hexmap):
    """``C,R`` or the id of a base or site on ``hexmap``."""
    col, comma, row = text.partition(",")
    if comma:
        try:
            return int(col), int(row)
        except ValueError:
            raise UsageProblem(f"{option}: '{text}' is not COL,ROW; write e.g. {option} 4,14") from None
    try:
        return hexmap.point(text)
    except (KeyError, ValueError, ZonesimError):
        names = ", ".join(p.id for p in (*hexmap.bases, *hexmap.sites))
        raise UsageProblem(f"{option}: '{text}' is neither COL,ROW nor a base or site of {hexmap.path} "
                           f"({names})") from None


@app.command()
def route(
    start: str = typer.Option(..., "--from", metavar="C,R|ID", help="Start hex as COL,ROW, or a base or site id."),
    goal: str = typer.Option(..., "--to", metavar="C,R|ID", help="Goal hex as COL,ROW, or a base or site id."),
    map_file: Optional[Path] = typer.Option(None, "--map", help="Map file (default: the shipped Zone map)."),
    item: Optional[str] = typer.Option(None, metavar="ID", help="Movement item (zone_map, glonass, jetpack)."),
    as_json: bool = typer.Option(False, "--json", help="Print {\"days\", \"steps\", \"path\"} as JSON."),
    content: Optional[Path] = CONTENT_OPTION,
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
    from sim.analysis.route import fastest_route
    from sim.content.maps import default_map_path, load_map, load_terrain

    game = load_content(content)
    hexmap = load_map(map_file or (game.directory / "maps" / "zone.toml" if content else default_map_path()),
                      load_terrain(game.directory))
    extra = 0
    if item is not None:
        entry = game.items.get(item)
        if entry is None or entry.family != "movement":
            choices = ", ".join(e.id for e in game.family("movement"))
            fix = (f"use one of: {choices}" if choices
                   else f"{game.directory} has none; drop --item or add one to items.toml")
            raise UsageProblem(f"--item: '{item}' is not a movement item; {fix}")
        extra = entry["steps"]
    a, b = _hex("--from", start, hexmap), _hex("--to", goal, hexmap)
    found = fastest_route(hexmap, a, b, extra_steps=extra, base_budget=game.rules["stalker"]["step_budget"])
    if found is None:
        raise UsageProblem(f"--to: {b} cannot be reached from {a} on {hexmap.path}; pick another hex or map")
    if as_json:
        print(json.dumps({"days": found.days, "steps": found.steps, "path": [list(p) for p in found.path]}))
    else:
        print(f"{found.days} day{'s' if found.days != 1 else ''}, {found.steps} steps: "
              + " -> ".join(f"{c},{r}" for c, r in found.path))
