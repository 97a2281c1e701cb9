"""``zonesim skill``: the chance to pass a skill test, exact and simulated."""

import json
from typing import Annotated

import typer

from sim import api
from sim.cli.common import ContentDir, Json, app, seed_option


@app.command()
def skill(
    attribute: Annotated[int, typer.Option(help="The tested attribute's value.")],
    target: Annotated[int, typer.Option(help="The score to reach (K-01).")],
    modifiers: Annotated[int, typer.Option(help="Sum of modifiers.")] = 0,
    trials: Annotated[int, typer.Option(help="Tests to simulate beside the exact answer.")] = 1_000_000,
    seed: Annotated[int, seed_option("Seed.")] = 1,
    as_json: Json = False,
    content: ContentDir = None,
):
    """Chance to pass a skill test (K-01..K-03): exact and simulated.

    1 d6 + attribute + modifiers >= target passes; a 1 fails; a 6 rolls again
    and adds.

    \b
    Examples:
      zonesim skill --attribute 2 --target 8
      zonesim skill --attribute 2 --modifiers 1 --target 8 --json
    """
    test = api.skill(attribute, target, modifiers=modifiers, trials=trials, seed=seed, content=content)
    if as_json:
        print(json.dumps(test))
        return
    lo, hi = test["ci95"]
    print(f"exact {test['exact']:.6f} · simulated {test['simulated']:.6f} [{lo:.6f}, {hi:.6f}] over {trials:,} tests")
