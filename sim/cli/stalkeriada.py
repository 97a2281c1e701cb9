"""``zonesim stalkeriada`` and ``zonesim stalkeriada-matrix``: whole Stalkeriada games
between AI strategies (RULES S-01..S-24)."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim import api
from sim.api.modes import STALKERIADA_PLAYERS
from sim.cli.common import (Chunk, ContentDir, Json, Resume, Scheduler, Seed, Threads, Workers, announce_compile, app,
                            built_in, progress, show)
from sim.options import name_list

Players = Annotated[str, typer.Option(metavar="NAME,NAME", help="Strategies in seat order (2 to 6): "
                                                               f"{built_in('stalkeriada')}, or FILE.py:NAME (a "
                                                               "StalkeriadaStrategy). A name may repeat. zonesim "
                                                               "stalkeriada also seats tuned: the planner searched "
                                                               "against the other seats (sim.run.tuned_planner); "
                                                               "and search: a search over the shipped settings "
                                                               "before each turn, by rollouts.")]
Out = Annotated[Optional[Path], typer.Option("--out", help="Write manifest.json, parquet tables and PNG charts here "
                                                           "(and a checkpoint per finished chunk, for --resume).")]
PLAYERS = ",".join(STALKERIADA_PLAYERS)


@app.command()
def stalkeriada(
    players: Players = PLAYERS,
    games: Annotated[int, typer.Option(help="Games to play (per seat order with --rotate-seats).")] = 20_000,
    seed: Seed = 1,
    rotate_seats: Annotated[bool, typer.Option("--rotate-seats", help="Play every rotation of the seat order on the "
                                               "same dice streams, so the first-player advantage is measured, not "
                                               "confounded.")] = False,
    as_json: Json = False,
    out: Out = None,
    resume: Resume = False,
    chunk: Chunk = 1 << 16,
    threads: Threads = None,
    scheduler: Scheduler = None,
    workers: Workers = None,
    content: ContentDir = None,
    rollouts: Annotated[Optional[int], typer.Option(
        help="The search seat's rollouts per setting before each of his turns (default 8); his time grows with "
             "it (docs: guide/strategies.md, the search player).")] = None,
    horizon: Annotated[Optional[int], typer.Option(
        help="The search seat's rounds per rollout (default 10).")] = None,
):
    """Play whole Stalkeriada games between AI strategies.

    Each player loops round the City, crosses the fence, hunts loot in the tile
    Zone, sells it at the Borscht and races to buy the exit visa (the first
    visa finishes first and wins; play goes on until one is left, who loses).
    Reports win rates (finished first) per strategy and per seat, each
    strategy's mean place and share of last places, the no-winner rate (nobody
    finished by the round cap), game length, deaths by cause and shop purchases,
    all with 95% intervals (what an item is worth: `zonesim value --mode
    stalkeriada`, paired games with and without it); --out adds
    parquet tables and charts. The games run in chunks, on a Dask cluster
    with --workers or --scheduler; with --out each finished chunk is kept, and
    --resume continues a killed run with the same numbers.

    \b
    Examples:
      zonesim stalkeriada --games 20000
      zonesim stalkeriada --players cautious,rush --rotate-seats --games 50000 --json
      zonesim stalkeriada --players jelly,greedy,my_bots.py:hoarder --out results/st
      zonesim stalkeriada --players tuned,cautious,greedy,jelly,rush --rotate-seats
      zonesim stalkeriada --players search,cautious,greedy,jelly,rush --rotate-seats --games 100
    """
    with progress("games") as update:
        result = api.stalkeriada(name_list(players), games=games, seed=seed, rotate_seats=rotate_seats, chunk=chunk,
                                 threads=threads, scheduler=scheduler, workers=workers, out=out, resume=resume,
                                 content=content, on_start=announce_compile, on_progress=update, rollouts=rollouts,
                                 horizon=horizon)
    show(as_json, result.summary, lambda: _print_stalkeriada(result, out))


def _print_stalkeriada(result, out):
    """Win rates, places, money and deaths per strategy, then seats, game length, the shop and speed."""
    from rich.console import Console
    from rich.table import Table

    summary = result.summary()
    console = Console()
    console.print(f"Stalkeriada · {' vs '.join(result.players)}", highlight=False)
    table = Table()
    for col in ("strategy", "win rate", "95% interval", "mean place", "last", "money at end", "deaths/game",
                "arrests/game"):
        table.add_column(col, justify="left" if col == "strategy" else "right")
    players = result.per_player()
    for row, p in zip(result.win_rates().iter_rows(named=True), players.iter_rows(named=True)):
        deaths = p["deaths_mosquito"] + p["deaths_trap"] + p["deaths_jelly"]
        table.add_row(row["strategy"], f"{row['win_rate']:.4f}", f"[{row['ci_low']:.4f}, {row['ci_high']:.4f}]",
                      f"{p['mean_place']:.2f}", f"{p['p_last']:.3f}", f"{p['money']:,.0f} G", f"{deaths:.2f}",
                      f"{p['arrests']:.2f}")
    no_winner = result.win_rates().row(-1, named=True)
    table.add_row("(no winner)", f"{no_winner['win_rate']:.4f}",
                  f"[{no_winner['ci_low']:.4f}, {no_winner['ci_high']:.4f}]", "", "", "", "", "")
    console.print(table)
    for player in (result.tuned, result.search):
        if player:
            console.print(player, highlight=False)
    seats = ", ".join(f"seat {r['seat']} {r['win_rate']:.4f} [{r['ci_low']:.4f}, {r['ci_high']:.4f}]"
                      for r in result.seat_advantage().iter_rows(named=True))
    console.print(f"by seat: {seats}" + ("" if result.rotations > 1 else
                                         " (seats and strategies confounded; use --rotate-seats)"))
    length = summary["length"]
    console.print(f"game length {length['mean']:.1f} rounds [{length['ci_low']:.1f}, {length['ci_high']:.1f}] · "
                  f"median {length['median']} · 90% within {length['p90']} · cap {result.round_cap}")
    bought = {}
    for r in result.items().iter_rows(named=True):
        if r["games_with"]:
            bought.setdefault(r["strategy"], []).append(f"{r['item']} {r['bought_per_game']:.2f}")
    if bought:
        console.print("shop, bought per game: " + "; ".join(f"{s} {', '.join(i)}" for s, i in bought.items()),
                      highlight=False)
        console.print("  what an item does for a strategy: zonesim value --mode stalkeriada --strategy NAME (the "
                      "same games played with and without it, on the same dice); games where it was bought are "
                      "not comparable with games where it was not", highlight=False)
    console.print(f"{result.games:,} games · seed {result.seed} · {result.elapsed_s:.2f} s · "
                  f"{summary['player_turns_per_s']:,.0f} player-turns/s")
    if out:
        console.print(f"written to {out}/")


@app.command("stalkeriada-matrix")
def stalkeriada_matrix(
    players: Players = PLAYERS,
    set_size: Annotated[int, typer.Option(help="Players per game: every set of this many strategies plays.")] = 2,
    games: Annotated[int, typer.Option(help="Games per set and seat rotation.")] = 5_000,
    seed: Seed = 1,
    as_json: Json = False,
    out: Out = None,
    resume: Resume = False,
    chunk: Chunk = 1 << 16,
    threads: Threads = None,
    scheduler: Scheduler = None,
    workers: Workers = None,
    content: ContentDir = None,
):
    """Round robin: every set of SET_SIZE strategies plays, every seat order rotated.

    Cell (row, column) of the matrix is the row strategy's win rate over all
    games that had the column strategy at the table, with its 95% interval.
    Runs on a Dask cluster with --workers or --scheduler; --out keeps each
    finished chunk, and --resume continues a killed run.

    \b
    Examples:
      zonesim stalkeriada-matrix --games 5000
      zonesim stalkeriada-matrix --players cautious,greedy,jelly,rush --set-size 3 --out results/rr
    """
    with progress("games") as update:
        matrix = api.stalkeriada_matrix(name_list(players), set_size=set_size, games=games, seed=seed, chunk=chunk,
                                        threads=threads, scheduler=scheduler, workers=workers, out=out, resume=resume,
                                        content=content, on_start=announce_compile, on_progress=update)
    show(as_json, matrix.summary, lambda: _print_matrix(matrix, set_size, games, seed, out))


def _print_matrix(matrix, set_size, games, seed, out):
    """Each strategy's win rate against each other, then the sets, seat orders, games and seed."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"win rate of (row) in games with (column) · sets of {set_size}")
    table.add_column("")
    for name in matrix.names:
        table.add_column(name, justify="right")
    for i, name in enumerate(matrix.names):
        table.add_row(name, *(matrix.cell(i, j) for j in range(len(matrix.names))))
    console = Console()
    console.print(table)
    console.print(f"{matrix.sets()} sets x {set_size} seat orders x {games:,} games · seed {seed} · "
                  f"{matrix.elapsed_s:.1f} s")
    if out:
        console.print(f"written to {out}/")
