"""``zonesim stalkeriada`` and ``zonesim stalkeriada-matrix``: whole Stalkeriada games
between AI strategies (RULES S-01..S-24)."""

import itertools
import json
import sys
from pathlib import Path
from typing import Optional

import numpy as np
import typer

from sim.cli.common import (CONTENT_OPTION, GAMES_PER_S, JSON, RESUME, SCHEDULER, SEED, THREADS, WORKERS, UsageProblem,
                            _set_threads, _with_progress, app, check_strategies, check_trials, chunk_option,
                            load_checked, name_list, run_params)

PLAYERS = typer.Option("cautious,greedy,jelly,rush", metavar="NAME,NAME",
                       help="Strategies in seat order (2 to 6): cautious, greedy, jelly, rush, or FILE.py:NAME "
                            "(a StalkeriadaStrategy). A name may repeat.")
GAMES = typer.Option(20_000, help="Games to play (per seat order with --rotate-seats).")
OUT = typer.Option(None, "--out", help="Write manifest.json, parquet tables and PNG charts here (and a checkpoint "
                                        "per finished chunk, for --resume).")
CHUNK = chunk_option(1 << 16)


def _store(out, resume, command, game, strategies, **options):
    """The checkpoints of a run (``sim.run.chunks``), keyed by its options and each strategy's parameters."""
    from sim.run.chunks import checkpoints

    players = [[s.name, [float(x) for x in s.params]] for s in strategies]
    return checkpoints(out, run_params(command, game, players=players, **options), resume)


def _players(text):
    names = name_list(text)
    if not 2 <= len(names) <= 6:
        raise UsageProblem(f"--players: {len(names)} given ('{text}'); Stalkeriada seats 2 to 6 players")
    return names


def _assumed(sc):
    """The [A] values of stalkeriada.toml, as ``table.field`` names."""
    return ", ".join(a.split(": ", 1)[1] for a in sc.assumed)


def _provenance(result, game, sc):
    rotated = " (every seat order on the same dice)" if result.rotations > 1 else ""
    return (f"{result.games:,} games, seed {result.seed}{rotated} · round cap {result.round_cap} · "
            f"content {game.digest[:12]} · assumed [A]: {_assumed(sc)}")


@app.command()
def stalkeriada(
    players: str = PLAYERS,
    games: int = GAMES,
    seed: int = SEED,
    rotate_seats: bool = typer.Option(False, "--rotate-seats", help="Play every rotation of the seat order on the "
                                      "same dice streams, so the first-player advantage is measured, not confounded."),
    as_json: bool = JSON,
    out: Optional[Path] = OUT,
    resume: bool = RESUME,
    chunk: int = CHUNK,
    threads: Optional[int] = THREADS,
    scheduler: Optional[str] = SCHEDULER,
    workers: Optional[int] = WORKERS,
    content: Optional[Path] = CONTENT_OPTION,
):
    """Play whole Stalkeriada games between AI strategies.

    Each player loops round the City, crosses the fence, hunts loot in the tile
    Zone, sells it at the Borscht and races to buy the exit visa (the first
    visa finishes first and wins; play goes on until one is left, who loses).
    Reports win rates (finished first) per strategy and per seat, each
    strategy's mean place and share of last places, the no-winner rate (nobody
    finished by the round cap), game length, deaths by cause, shop purchases and
    the win rate with and without each item, all with 95% intervals; --out adds
    parquet tables and charts. The games run in chunks, on a Dask cluster
    with --workers or --scheduler; with --out each finished chunk is kept, and
    --resume continues a killed run with the same numbers.

    \b
    Examples:
      zonesim stalkeriada --games 20000
      zonesim stalkeriada --players cautious,rush --rotate-seats --games 50000 --json
      zonesim stalkeriada --players jelly,greedy,my_bots.py:hoarder --out results/st
    """
    from sim.content.stalkeriada import load_stalkeriada

    seats = _players(players)
    check_strategies("--players", seats, "stalkeriada")
    check_trials("--games", games * (len(seats) if rotate_seats else 1), GAMES_PER_S, "game")
    game = load_checked(content)
    sc = load_stalkeriada(game)
    _set_threads(threads)
    from sim.run.stalkeriada import get_stalkeriada_strategy, simulate_stalkeriada  # compiles the kernels

    names = [get_stalkeriada_strategy(n) for n in seats]
    total = games * (len(names) if rotate_seats else 1)
    from sim.run.distributed import cluster

    store = _store(out, resume, "stalkeriada", game, names, games=games, seed=seed, rotate_seats=rotate_seats,
                   chunk=chunk)
    with cluster(scheduler, workers) as client:
        result = _with_progress(lambda cb: simulate_stalkeriada(
            game, names, games=games, seed=seed, rotate_seats=rotate_seats, chunk=chunk, on_progress=cb,
            client=client, store=store), total, None, label="games")
    summary = result.summary()
    if out is not None:
        _write_stalkeriada(out, game, sc, result, summary)
    if as_json:
        print(json.dumps(summary))
        return
    _print_stalkeriada(result, summary, out)


def _print_stalkeriada(result, summary, out):
    from rich.console import Console
    from rich.table import Table

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
    seats = ", ".join(f"seat {r['seat']} {r['win_rate']:.4f} [{r['ci_low']:.4f}, {r['ci_high']:.4f}]"
                      for r in result.seat_advantage().iter_rows(named=True))
    console.print(f"by seat: {seats}" + ("" if result.rotations > 1 else
                                         " (seats and strategies confounded; use --rotate-seats)"))
    length = summary["length"]
    console.print(f"game length {length['mean']:.1f} rounds [{length['ci_low']:.1f}, {length['ci_high']:.1f}] · "
                  f"median {length['median']} · 90% within {length['p90']} · cap {result.round_cap}")
    items = result.items()
    lines = []
    for r in items.iter_rows(named=True):
        if r["games_with"]:
            without = "n/a" if r["win_rate_without"] is None else f"{r['win_rate_without']:.4f}"
            lines.append(f"{r['strategy']} {r['item']} {r['bought_per_game']:.2f}/game, wins {r['win_rate_with']:.4f}"
                         f" with / {without} without")
    if lines:
        console.print("shop: " + "; ".join(lines))
    console.print(f"{result.games:,} games · seed {result.seed} · {result.elapsed_s:.2f} s · "
                  f"{summary['player_turns_per_s']:,.0f} player-turns/s")
    if out:
        console.print(f"written to {out}/")


def _write_stalkeriada(out, game, sc, result, summary):
    """manifest.json, stalkeriada_*.parquet and two charts."""
    from sim.report.charts import stalkeriada_games_chart, stalkeriada_wins_chart
    from sim.run.results import atomic_write, manifest, write_json, write_parquet

    tables = {"wins": result.win_rates(), "seats": result.seat_rates(), "seat_advantage": result.seat_advantage(),
              "lengths": result.lengths(), "players": result.per_player(), "deaths": result.deaths(),
              "items": result.items(), "money": result.money_curves(), "places": result.places()}
    for name, frame in tables.items():
        write_parquet(out / f"stalkeriada_{name}.parquet", frame)
    title = f"Stalkeriada · {' vs '.join(result.players)}"
    provenance = _provenance(result, game, sc)
    atomic_write(out / "charts" / "stalkeriada_wins.png", lambda p: stalkeriada_wins_chart(
        tables["wins"], tables["seat_advantage"], title, provenance, p))
    atomic_write(out / "charts" / "stalkeriada_games.png", lambda p: stalkeriada_games_chart(
        tables["lengths"], tables["money"], tables["deaths"], title, provenance, p))
    write_json(out / "manifest.json", manifest(
        ["zonesim", *sys.argv[1:]], seed=result.seed, games=result.games, rotate_seats=result.rotations > 1,
        content_dir=str(game.directory), content_hash=game.digest, players=list(result.players),
        elapsed_s=result.elapsed_s, summary=summary,
        files=["manifest.json", *(f"stalkeriada_{n}.parquet" for n in tables), "charts/stalkeriada_wins.png",
               "charts/stalkeriada_games.png"]))


@app.command("stalkeriada-matrix")
def stalkeriada_matrix(
    players: str = PLAYERS,
    set_size: int = typer.Option(2, help="Players per game: every set of this many strategies plays."),
    games: int = typer.Option(5_000, help="Games per set and seat rotation."),
    seed: int = SEED,
    as_json: bool = JSON,
    out: Optional[Path] = OUT,
    resume: bool = RESUME,
    chunk: int = CHUNK,
    threads: Optional[int] = THREADS,
    scheduler: Optional[str] = SCHEDULER,
    workers: Optional[int] = WORKERS,
    content: Optional[Path] = CONTENT_OPTION,
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
    from sim.content.stalkeriada import load_stalkeriada

    names = list(dict.fromkeys(_players(players)))
    check_strategies("--players", names, "stalkeriada")
    if not 2 <= set_size <= min(6, len(names)):
        raise UsageProblem(f"--set-size: {set_size}; use 2 to {min(6, len(names))} for {len(names)} strategies")
    check_trials("--games", games, GAMES_PER_S, "game")
    game = load_checked(content)
    sc = load_stalkeriada(game)
    _set_threads(threads)
    from sim.run.stalkeriada import get_stalkeriada_strategy, round_robin  # compiles the kernels

    strategies = [get_stalkeriada_strategy(name) for name in names]  # unknown names fail before any game
    sets = list(itertools.combinations(names, set_size))
    from sim.run.distributed import cluster

    store = _store(out, resume, "stalkeriada-matrix", game, strategies, set_size=set_size, games=games, seed=seed,
                   chunk=chunk)
    with cluster(scheduler, workers) as client:
        rr = _with_progress(lambda cb: round_robin(game, names, set_size, games=games, seed=seed, chunk=chunk,
                                                   on_progress=cb, client=client, store=store),
                            len(sets) * games * set_size, None, label="games")
    if out is not None:
        from sim.report.charts import matrix_chart
        from sim.run.results import atomic_write, manifest, write_json, write_parquet

        write_parquet(out / "stalkeriada_matrix.parquet", rr.table)
        provenance = (f"{games:,} games per set and seat order, seed {seed} · sets of {set_size} · "
                      f"content {game.digest[:12]} · assumed [A]: {_assumed(sc)}")
        atomic_write(out / "charts" / "stalkeriada_matrix.png", lambda p: matrix_chart(
            rr.rate, names, rr.low, rr.high, f"Stalkeriada round robin · sets of {set_size}", provenance, p))
        write_json(out / "manifest.json", manifest(
            ["zonesim", *sys.argv[1:]], seed=seed, games_per_set=games, set_size=set_size, players=names,
            content_dir=str(game.directory), content_hash=game.digest, elapsed_s=rr.elapsed_s,
            files=["manifest.json", "stalkeriada_matrix.parquet", "charts/stalkeriada_matrix.png"]))
    if as_json:
        print(json.dumps({"players": names, "set_size": set_size, "games_per_set": games, "seed": seed,
                          "matrix": rr.table.to_dicts()}))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"win rate of (row) in games with (column) · sets of {set_size}")
    table.add_column("")
    for name in names:
        table.add_column(name, justify="right")
    for i, name in enumerate(names):
        table.add_row(name, *("" if np.isnan(rr.rate[i, j]) else
                              f"{rr.rate[i, j]:.3f} [{rr.low[i, j]:.3f}, {rr.high[i, j]:.3f}]"
                              for j in range(len(names))))
    console = Console()
    console.print(table)
    console.print(f"{len(sets)} sets x {set_size} seat orders x {games:,} games · seed {seed} · {rr.elapsed_s:.1f} s")
    if out:
        console.print(f"written to {out}/")
