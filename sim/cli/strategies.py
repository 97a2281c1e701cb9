"""``zonesim strategies``: the built-in strategies and their parameters."""

import json

from sim import api
from sim.cli.common import Json, app


@app.command("strategies")
def list_strategies(as_json: Json = False):
    """List the built-in strategies with their parameters.

    Your own: write a file with a `Strategy` (see README) and pass
    --strategy FILE.py:NAME.

    \b
    Examples:
      zonesim strategies
      zonesim strategies --json
    """
    listed = api.list_strategies()
    if as_json:
        print(json.dumps(listed))
        return
    for title, kind in (("fights and journeys (--strategy)", "fight"), ("Stalkeriada (--players)", "stalkeriada")):
        print(title)
        for s in listed[kind]:
            params = ", ".join(f"{n}={v:g}" for n, v in s["params"].items()) or "no parameters"
            print(f"  {s['name']:10s} {s['description']} ({params})")
    print("skirmishes (zonesim skirmish --strategy; monsters always play beast)")
    for s in listed["skirmish"]:
        print(f"  {s['name']:10s} {s['description']}")
