"""``zonesim journey``: campaigns across the Zone on the content's orders."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim import api
from sim.cli.common import (Chunk, ContentDir, Json, Resume, Scheduler, Seed, Threads, Workers, announce_compile, app,
                            built_in, card_options, outcome_row, outcome_table, progress, show)


@app.command()
@card_options()
def journey(
    strategy: Annotated[str, typer.Option(metavar="NAME", help=f"Journey strategy: {built_in('journey')}, tuned "
                                                               "(searched for this kit and economy.toml's objective, "
                                                               "sim.run.player), or FILE.py:NAME (a JourneyStrategy).")
                        ] = "greedy",
        loadout: dict = None,
    days: Annotated[int, typer.Option(help="Days in the campaign (one turn = one day).")] = 30,
    trials: Annotated[int, typer.Option(help="Campaigns to simulate.")] = 200_000,
    seed: Seed = 1,
    as_json: Json = False,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write manifest.json, parquet tables and PNG charts "
                                                              "here (and a checkpoint per finished chunk, for "
                                                              "--resume).")] = None,
    resume: Resume = False,
    chunk: Chunk = 1 << 16,
    threads: Threads = None,
    scheduler: Scheduler = None,
    workers: Workers = None,
    content: ContentDir = None,
):
    """Send a stalker across the Zone on the content's orders, for DAYS days.

    Each day he walks his steps toward the current order's destination (or his
    lost loot); every hex entered draws an event by its danger (monsters, traps,
    skill tests, finds). Reports the chance to reach the campaign's goal and the first
    one, to never die, days to finish, money, deaths and items used, with 95%
    intervals; --out adds curves by day and maps of where stalkers die.
    The campaigns run in chunks, on a Dask cluster with --workers or
    --scheduler; with --out each finished chunk is kept, and --resume
    continues a killed run with the same numbers.

    \b
    Examples:
      zonesim journey --weapon ak47 --body vest --stims stimulator:2 --medkits medkit:2
      zonesim journey --weapon ak47 --movement zone_map --strategy cautious --days 20 --json
      zonesim journey --weapon ak47 --trials 3000000 --workers 2 --out results/journey
      zonesim journey --weapon ak47 --trials 3000000 --workers 2 --out results/journey --resume
    """
    with progress("journeys") as update:
        campaigns = api.journey(strategy=strategy, days=days, trials=trials, seed=seed, chunk=chunk, threads=threads,
                                scheduler=scheduler, workers=workers, out=out, resume=resume, content=content,
                                on_start=announce_compile, on_progress=update, **loadout)
    show(as_json, campaigns.summary, lambda: _print_journey(campaigns, out))


def _print_journey(campaigns, out):
    """The outcome table of the campaigns, then days, money, deaths, levels and speed."""
    from rich.console import Console

    from sim.run.journey import outcome_labels

    summary = campaigns.summary()
    console = Console()
    console.print(f"{campaigns.title()} · {campaigns.days} days", highlight=False)
    console.print(outcome_table(outcome_row(label, campaigns.probabilities[name], campaigns.ci95[name])
                                for name, label in outcome_labels(campaigns.goal_orders).items()))
    mean_days = summary["mean_days_to_complete"]
    console.print(f"days to finish (when finished) {mean_days:.2f}" if mean_days else "no campaign finished")
    console.print(f"money at the end {summary['mean_money']:,.0f} G "
                  f"[{summary['money_ci95'][0]:,.0f}, {summary['money_ci95'][1]:,.0f}] · deaths "
                  f"{summary['mean_deaths']:.3f} · kills {summary['mean_kills']:.2f} per campaign")
    console.print(f"final level {summary['mean_level']:.2f} (K-04) · missions gained by passing level 12 "
                  f"{summary['mean_missions']:.3f}")
    console.print(f"{campaigns.trials:,} campaigns · seed {campaigns.seed} · {campaigns.elapsed_s:.2f} s · "
                  f"{summary['hex_steps_per_s']:,.0f} hex-steps/s")
    if out:
        console.print(f"written to {out}/")
