"""``zonesim skirmish``: tactical fights on a hex arena with action points,
facing and move points (RULES A-01..A-07, M-01..M-08)."""

from pathlib import Path
from typing import Annotated, List, Optional

import typer

from sim import api
from sim.api.modes import DEFAULT_PARTY, SKIRMISH_MONSTERS
from sim.cli.common import (Chunk, ContentDir, Json, Resume, Scheduler, Seed, Threads, Workers, announce_compile, app,
                            built_in, progress, show)


@app.command()
def skirmish(
    party: Annotated[List[str], typer.Option("--party", metavar="CHAR:ITEM,ITEM*N",
                                             help="One stalker: a character, then his items (one firearm, its "
                                                  "modifiers, head and body armour, stimulators, one explosive kind "
                                                  "for mines), e.g. doktor:berdanka,rifling,helmet,stimulator*2,"
                                                  "limonka*2. Repeat for a party.")] = list(DEFAULT_PARTY),
    monster: Annotated[List[str], typer.Option("--monster", help="A monster id; repeat for several.")] = (
        list(SKIRMISH_MONSTERS)),
    strategy: Annotated[str, typer.Option(help=f"The party's strategy: {built_in('skirmish')}, or "
                                               "FILE.py:NAME (a SkirmishStrategy).")] = "hold",
    arena: Annotated[Optional[Path], typer.Option(help="A map file whose [map] terrain is the arena (letters as in "
                                                       "[letters] of skirmish.toml); default the built-in "
                                                       "arena.")] = None,
    arena_size: Annotated[Optional[int], typer.Option(help="An all-flat N x N arena instead.")] = None,
    distance: Annotated[Optional[int], typer.Option(help="Hexes between the party and the monsters at the start "
                                                         "(default [arena] distance).")] = None,
    trials: Annotated[int, typer.Option(help="Skirmishes to simulate.")] = 100_000,
    seed: Seed = 1,
    replay: Annotated[Optional[int], typer.Option(metavar="K", help="Print skirmish number K turn by turn "
                                                                    "(positions, facings, AP, rolls) instead of the "
                                                                    "statistics.")] = None,
    as_json: Json = False,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write manifest.json, parquet tables and charts "
                                                              "(outcomes and AP; survival vs distance and terrain), "
                                                              "and a checkpoint per finished chunk, for "
                                                              "--resume.")] = None,
    resume: Resume = False,
    chunk: Chunk = 1 << 16,
    threads: Threads = None,
    scheduler: Scheduler = None,
    workers: Workers = None,
    content: ContentDir = None,
):
    """Tactical skirmishes: a party of stalkers against monsters on a hex arena.

    Every fighter acts in a fixed sequence with action points (move 1 AP x
    terrain, shot 4, aimed 5, reload 2, equip 4, use 3, stand up 4, mine 6,
    first aid 10), picks a manoeuvre with move points, pays for facing
    (forward 1, sideways or back 2, turning 1 a side) and may evade past an
    enemy on a DX contest. Reports survival, win, rounds, AP by action,
    damage dealt and taken, with 95% intervals. The skirmishes run in
    chunks, on a Dask cluster with --workers or --scheduler; with --out each
    finished chunk is kept, and --resume continues a killed run.

    \b
    Examples:
      zonesim skirmish --trials 200000
      zonesim skirmish --party novice:ak47,vest --party doktor:berdanka --monster snork --strategy kite
      zonesim skirmish --arena-size 15 --distance 12 --replay 3
      zonesim skirmish --strategy rush --out results/skirmish
    """
    setup = dict(party=party, monsters=monster, strategy=strategy, arena=arena, arena_size=arena_size,
                 distance=distance, seed=seed, content=content)
    if replay is not None:
        print(api.skirmish_replay(replay, **setup))
        return
    with progress("skirmishes") as update:
        result = api.skirmish(**setup, trials=trials, chunk=chunk, threads=threads, scheduler=scheduler,
                              workers=workers, out=out, resume=resume, on_start=announce_compile,
                              on_progress=update)
    show(as_json, result.summary, lambda: _print_skirmish(result, out))


def _print_skirmish(result, out):
    """The outcome and mean tables of the skirmishes, AP by action and speed."""
    from rich.console import Console
    from rich.table import Table

    from sim.report.files import skirmish_title

    console = Console()
    console.print(skirmish_title(result), highlight=False)
    table = Table()
    for col in ("measure", "value", "95% interval"):
        table.add_column(col, justify="left" if col == "measure" else "right")
    for row in result.proportions().iter_rows(named=True):
        table.add_row(row["measure"], f"{row['value']:.4f}", f"[{row['ci_low']:.4f}, {row['ci_high']:.4f}]")
    for row in result.means().iter_rows(named=True):
        if row["measure"].startswith("ap_"):
            continue
        table.add_row(f"mean {row['measure']}", f"{row['mean']:.3f}", f"[{row['ci_low']:.3f}, {row['ci_high']:.3f}]")
    console.print(table)
    ap = result.ap_spending()
    console.print("AP per skirmish: " + ", ".join(f"{r['kind']} {r['mean']:.2f} ({r['share']:.0%})"
                                                  for r in ap.iter_rows(named=True) if r["mean"] > 0))
    console.print(f"{result.trials:,} skirmishes · seed {result.seed} · {result.elapsed_s:.2f} s · "
                  f"{result.summary()['skirmishes_per_s']:,.0f} skirmishes/s")
    if out:
        console.print(f"written to {out}/")
