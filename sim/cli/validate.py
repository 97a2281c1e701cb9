"""``zonesim validate``: check a content set and summarise it."""

import json
from pathlib import Path
from typing import Optional

import typer

from sim.cli.common import JSON, app, load_checked


@app.command()
def validate(
    directory: Optional[Path] = typer.Argument(None, help="Content folder (default: the shipped one)."),
    as_json: bool = JSON,
):
    """Check a content set: prints a summary, or the first problem (exit 2).

    \b
    Examples:
      zonesim validate my_content/
      zonesim validate my_content/ --json
    """
    from sim.content.maps import load_map, load_terrain
    from sim.content.skirmish import SKIRMISH_FILE, load_arena, load_skirmish
    from sim.content.stalkeriada import STALKERIADA_FILE, load_stalkeriada

    game = load_checked(directory)
    maps = []
    if (game.directory / "terrain.toml").is_file():
        terrain = load_terrain(game.directory)
        maps = [load_map(p, terrain) for p in sorted((game.directory / "maps").glob("*.toml"))]
    assumed = len(game.assumed_fields())
    zone = arena = None
    if (game.directory / STALKERIADA_FILE).is_file():
        sc = load_stalkeriada(game)
        assumed += len(sc.assumed)
        zone = [sc.settings["zone"]["rows"], sc.settings["zone"]["cols"]]
    if (game.directory / SKIRMISH_FILE).is_file():
        sk = load_skirmish(game)
        field = load_arena(sk)
        assumed += len(sk.assumed)
        arena = [field.rows, field.cols]
    if as_json:
        print(json.dumps({"directory": str(game.directory), "characters": len(game.characters),
                          "monsters": len(game.monsters), "items": len(game.items), "maps": len(maps),
                          "stalkeriada_zone": zone, "skirmish_arena": arena, "assumed": assumed,
                          "content_hash": game.digest}))
        return
    extras = (f", Stalkeriada {zone[0]}x{zone[1]} Zone" if zone else "") + \
        (f", skirmish arena {arena[0]}x{arena[1]}" if arena else "")
    print(f"{game.directory}: ok · {len(game.characters)} characters, {len(game.monsters)} monsters, "
          f"{len(game.items)} items, {len(maps)} maps{extras} · {assumed} assumed [A] values · "
          f"hash {game.digest[:12]}")
