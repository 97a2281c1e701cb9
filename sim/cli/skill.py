"""``zonesim skill``: the chance to pass a skill test, exact and simulated."""

import json
from pathlib import Path
from typing import Optional

import typer

from sim.cli.common import CONTENT_OPTION, JSON, UsageProblem, app, load_checked, seed_option


@app.command()
def skill(
    attribute: int = typer.Option(..., help="The tested attribute's value."),
    target: int = typer.Option(..., help="The score to reach (K-01)."),
    modifiers: int = typer.Option(0, help="Sum of modifiers."),
    trials: int = typer.Option(1_000_000, help="Tests to simulate beside the exact answer."),
    seed: int = seed_option("Seed."),
    as_json: bool = JSON,
    content: Optional[Path] = CONTENT_OPTION,
):
    """Chance to pass a skill test (K-01..K-03): exact and simulated.

    1 d6 + attribute + modifiers >= target passes; a 1 fails; a 6 rolls again
    and adds.

    \b
    Examples:
      zonesim skill --attribute 2 --target 8
      zonesim skill --attribute 2 --modifiers 1 --target 8 --json
    """
    from sim.analysis.skill import skill_pass_probability
    from sim.analysis.stats import wilson

    if trials < 1:
        raise UsageProblem(f"--trials: {trials}; give at least 1 trial")
    extra_one_fails = load_checked(content).rules["skill"]["extra_one_fails"]
    from sim.run.skill import simulate_skill  # compiles the kernel
    p = skill_pass_probability(attribute + modifiers, target, extra_one_fails)
    passed = simulate_skill(attribute, modifiers, target, extra_one_fails, trials, seed)
    lo, hi = wilson(passed, trials)
    if as_json:
        print(json.dumps({"attribute": attribute, "modifiers": modifiers, "target": target, "exact": p,
                          "simulated": passed / trials, "ci95": [lo, hi], "passed": passed, "trials": trials,
                          "seed": seed}))
        return
    print(f"exact {p:.6f} · simulated {passed / trials:.6f} [{lo:.6f}, {hi:.6f}] over {trials:,} tests")
