"""``zonesim strategies``: the built-in strategies and their parameters."""

import json

from sim import api
from sim.cli.common import Json, app


@app.command("strategies")
def list_strategies(as_json: Json = False):
    """List every mode's built-in strategies with their parameters.

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
    for kind, strategies in listed.items():
        print(TITLES.get(kind, f"{kind} (--strategy)"))
        for s in strategies:
            params = ", ".join(f"{n}={v:g}" if isinstance(v, float) else f"{n}={v}" for n, v in s["params"].items())
            print(f"  {s['name']:10s} {s['description']}" + (f" ({params})" if params else "")
                  + ("" if s["optimises"].startswith("nothing") else f"; optimises {s['optimises']}"))
    print("Each but tuned and search is a hand-written rule with fixed parameters: it optimises nothing itself. "
          "`--strategy strongest` "
          "(fights) plays the best of them for each kit, the economy plays each kit with the strongest of its "
          "family, and `zonesim encounter --strategy optimal --exact` solves the best play the rules allow "
          "against one monster, beside each of them; `zonesim restricted --ban CARD|escape` measures what the "
          "player loses without a card or the escape (docs: guide/strategies.md, guide/economy.md).")


TITLES = {"fight": "fights and duels (zonesim encounter --strategy; value --mode fight)",
          "journey": "journeys and campaigns (zonesim journey --strategy; economy.toml's strategies)",
          "skirmish": "skirmishes (zonesim skirmish --strategy; monsters always play beast)",
          "stalkeriada": "Stalkeriada (zonesim stalkeriada --players)"}
