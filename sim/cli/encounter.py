"""``zonesim encounter``: one fight of a loadout against monsters (Z-15..Z-38)."""

from pathlib import Path
from typing import Annotated, List, Optional

import typer

from sim import api
from sim.cli.common import (ContentDir, Json, Resume, Seed, Threads, announce_compile, app, built_in, card_options,
                            outcome_row, outcome_table, progress, show)


@app.command()
@card_options(zone=False)
def encounter(
    monster: Annotated[List[str], typer.Option("--monster", "-m", metavar="ID", help="Monster id; repeat for a group "
                                                                                     "fought at once.")],
        loadout: dict = None,
    hp: Annotated[Optional[int], typer.Option(help="HP at the start of the fight (default: full).")] = None,
    strategy: Annotated[str, typer.Option(metavar="NAME",
                                          help=f"{built_in('fight')}, or FILE.py:NAME; or optimal (with --exact): "
                                               "the best play the rules allow, beside every built-in "
                                               "strategy.")] = "fighter",
    trials: Annotated[Optional[int], typer.Option(help="Fights to simulate [default 1,000,000]; with --target-ci, "
                                                       "the cap [default 100,000,000].")] = None,
    seed: Seed = 1,
    exact: Annotated[bool, typer.Option("--exact", help="Solve exactly, one monster: fighter/runner without "
                                                        "explosives (Markov chain), or the optimal player.")] = False,
    g_per_survival: Annotated[Optional[float], typer.Option(
        "--g-per-survival", metavar="G", help="The optimal player's objective: a survival is worth G, and an "
                                              "explosive or stimulator is spent only where it buys more "
                                              "[default: survival alone].")] = None,
    as_json: Json = False,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write manifest.json, parquet tables and a PNG chart "
                                                              "here (and a checkpoint per finished chunk, for "
                                                              "--resume).")] = None,
    resume: Resume = False,
    target_ci: Annotated[Optional[float], typer.Option(help="Add trials until the 95% interval of p_survive is "
                                                            "narrower than this.")] = None,
    threads: Threads = None,
    chunk: Annotated[int, typer.Option(help="Trials per chunk between progress updates; results do not depend on "
                                            "it.")] = 1 << 20,
    content: ContentDir = None,
):
    """How often does a stalker with this loadout survive that fight?

    Fights the monsters (all at once) with the loadout under a strategy and
    reports win, draw, escape, death and survival with 95% intervals.

    \b
    Examples:
      zonesim encounter --monster bloodsucker --weapon ak47 --body vest --stims stimulator:2
      zonesim encounter -m bloodsucker -m snork --weapon ak47 --mods rebored,laser_sight \\
          --head helmet --body vest --stims stimulator:2 --explosives limonka:2 --json
      zonesim encounter -m chimera --weapon ak47 --reputation 5 --escape-item camo_cloak \\
          --strategy runner --exact
      zonesim encounter -m bloodsucker --weapon ak47 --body vest --stims stimulator:2 \\
          --explosives limonka:2 --reputation 5 --strategy optimal --exact
    """
    label = "fights" if target_ci is None else f"fights (until CI < {target_ci})"
    with progress(label) as update:
        fight = api.encounter(monster, hp=hp, strategy=strategy, trials=trials, seed=seed, exact=exact,
                              g_per_survival=g_per_survival, target_ci=target_ci, chunk=chunk, threads=threads,
                              out=out, resume=resume, content=content, on_start=announce_compile,
                              on_progress=update, **loadout)
    show(as_json, fight.summary, lambda: _print_table(fight, out))


def _print_table(fight, out):
    """The outcome table of one encounter and its provenance lines."""
    from rich.console import Console

    console = Console()
    console.print(fight.title(), highlight=False)
    console.print(outcome_table(outcome_row(name[2:], fight.probabilities[name], fight.ci95[name])
                                for name in ("p_survive", "p_win", "p_draw", "p_escape", "p_death")))
    hp_left = "n/a" if fight.mean_hp_left != fight.mean_hp_left else f"{fight.mean_hp_left:.2f}"
    if fight.mean_rounds == fight.mean_rounds:  # not solved for the optimal player
        console.print(f"mean rounds {fight.mean_rounds:.3f} · mean HP left (survivors) {hp_left}")
    if fight.trials:
        console.print(f"{fight.trials:,} fights · seed {fight.seed} · {fight.elapsed_s:.2f} s · "
                      f"{fight.encounters_per_s:,.0f} fights/s")
        used = ", ".join(f"{k} {v:.3f}" for k, v in fight.items_used.items())
        if used:
            console.print(f"items used per fight: {used}")
    elif fight.optimal:
        _print_optimal(console, fight.optimal)
    else:
        console.print("exact (absorbing Markov chain)")
    if fight.assumed:
        console.print(f"[dim]rests on {len(fight.assumed)} assumed [A] values (see --json 'assumed')[/dim]")
    if out:
        console.print(f"written to {out}/")


def _print_optimal(console, optimal):
    """The optimal player's objective and choices, and the built-in strategies beside him."""
    from rich.table import Table

    escape = "tries the escape roll" if optimal["tries_escape"] else "does not try the escape roll"
    console.print(f"exact optimal play (backward induction, {optimal['states']:,} states): objective "
                  f"{optimal['objective']}; he {escape}; spends {optimal['g_spent']:,.1f} G of explosives and "
                  "stimulators a fight")
    table = Table("strategy", "survive", "95% CI", "optimal's lead", "how")
    for name, row in optimal["strategies"].items():
        lo, hi = row["ci95"]
        table.add_row(name, f"{row['p_survive']:.4f}", f"[{lo:.4f}, {hi:.4f}]", f"{row['gap']:+.4f}", row["how"])
    console.print(table)
