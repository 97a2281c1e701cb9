"""``zonesim strategies``: the built-in strategies and their parameters."""

import json

from sim.cli.common import JSON, app


@app.command("strategies")
def list_strategies(as_json: bool = JSON):
    """List the built-in strategies with their parameters.

    Your own: write a file with a `Strategy` (see README) and pass
    --strategy FILE.py:NAME.

    \b
    Examples:
      zonesim strategies
      zonesim strategies --json
    """
    import strategies
    from strategies.skirmish import BEAST
    from strategies.skirmish import BUILT_IN as SKIRMISH
    from strategies.stalkeriada import BUILT_IN as STALKERIADA

    tuned = {"fight": strategies.BUILT_IN.values(), "stalkeriada": STALKERIADA.values()}
    skirmish = (*SKIRMISH.values(), BEAST)
    if as_json:
        print(json.dumps({
            **{kind: [{"name": s.name, "description": s.description,
                       "params": dict(zip(s.param_names, map(float, s.params)))} for s in built_in]
               for kind, built_in in tuned.items()},
            "skirmish": [{"name": s.name, "description": s.description} for s in skirmish]}))
        return
    for title, built_in in zip(("fights and journeys (--strategy)", "Stalkeriada (--players)"), tuned.values()):
        print(title)
        for s in built_in:
            params = ", ".join(f"{n}={v:g}" for n, v in zip(s.param_names, s.params)) or "no parameters"
            print(f"  {s.name:10s} {s.description} ({params})")
    print("skirmishes (zonesim skirmish --strategy; monsters always play beast)")
    for s in skirmish:
        print(f"  {s.name:10s} {s.description}")
