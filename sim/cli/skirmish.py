"""``zonesim skirmish``: tactical fights on a hex arena with action points,
facing and move points (RULES A-01..A-07, M-01..M-08)."""

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer

from sim.cli.common import (CONTENT_OPTION, JSON, RESUME, SCHEDULER, SEED, SKIRMISHES_PER_S, THREADS, WORKERS,
                            UsageProblem, _set_threads, _with_progress, app, check_strategies, check_trials,
                            chunk_option, load_checked, run_params)

DEFAULT_PARTY = "novice:ak47,vest,stimulator*2"


def _provenance(result, game, sk, arena_name):
    assumed = ", ".join(a.split(": ", 1)[1] for a in sk.assumed if "monsters." not in a and "characters." not in a)
    return (f"{result.trials:,} skirmishes, seed {result.seed} · strategy {result.strategy} · arena {arena_name} · "
            f"content {game.digest[:12]} · assumed [A] (skirmish.toml): {assumed}, and the monsters' and "
            "characters' tactical numbers")


@app.command()
def skirmish(
    party: List[str] = typer.Option([DEFAULT_PARTY], "--party", metavar="CHAR:ITEM,ITEM*N",
                                    help="One stalker: a character, then his items (one firearm, its modifiers, "
                                         "head and body armour, stimulators, one explosive kind for mines), "
                                         "e.g. doktor:berdanka,rifling,helmet,stimulator*2,limonka*2. "
                                         "Repeat for a party."),
    monster: List[str] = typer.Option(["bloodsucker", "blind_dog"], "--monster",
                                      help="A monster id; repeat for several."),
    strategy: str = typer.Option("hold", help="The party's strategy: hold, kite, rush, or FILE.py:NAME "
                                              "(a SkirmishStrategy)."),
    arena: Optional[Path] = typer.Option(None, help="A map file whose [map] terrain is the arena (letters as in "
                                                    "[letters] of skirmish.toml); default the built-in arena."),
    arena_size: Optional[int] = typer.Option(None, help="An all-flat N x N arena instead."),
    distance: Optional[int] = typer.Option(None, help="Hexes between the party and the monsters at the start "
                                                      "(default [arena] distance)."),
    trials: int = typer.Option(100_000, help="Skirmishes to simulate."),
    seed: int = SEED,
    replay: Optional[int] = typer.Option(None, metavar="K", help="Print skirmish number K turn by turn (positions, "
                                                                  "facings, AP, rolls) instead of the statistics."),
    as_json: bool = JSON,
    out: Optional[Path] = typer.Option(None, "--out", help="Write manifest.json, parquet tables and charts "
                                                           "(outcomes and AP; survival vs distance and terrain), "
                                                           "and a checkpoint per finished chunk, for --resume."),
    resume: bool = RESUME,
    chunk: int = chunk_option(1 << 16),
    threads: Optional[int] = THREADS,
    scheduler: Optional[str] = SCHEDULER,
    workers: Optional[int] = WORKERS,
    content: Optional[Path] = CONTENT_OPTION,
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
    from sim.content.skirmish import load_arena, load_skirmish, make_setup, parse_member

    check_trials("--trials", trials, SKIRMISHES_PER_S, "skirmish")
    if arena is not None and arena_size is not None:
        raise UsageProblem("--arena and --arena-size: give one of them")
    if replay is not None and replay < 0:
        raise UsageProblem(f"--replay: {replay}; give a skirmish number >= 0")
    game = load_checked(content)
    sk = load_skirmish(game)
    members = [parse_member(game, spec) for spec in party]
    field = load_arena(sk, arena, arena_size)
    check_strategies("--strategy", [strategy], "skirmish")
    from sim.run.skirmish import get_skirmish_strategy, replay_text, simulate_skirmish  # compiles the kernels

    strat = get_skirmish_strategy(strategy)

    def make(a, d):
        return make_setup(game, sk, members, list(monster), a, strat.name, d)

    setup = make(field, distance)
    _set_threads(threads)
    if replay is not None:
        print(replay_text(setup, strat, seed=seed, trial=replay))
        return
    import hashlib

    from sim.run.chunks import checkpoints
    from sim.run.distributed import cluster
    from sim.run.skirmish import skirmish_template

    scenario = hashlib.sha256(skirmish_template(setup).tobytes()).hexdigest()
    store = checkpoints(out, run_params("skirmish", game, scenario=scenario, strategy=strategy, trials=trials,
                                        seed=seed, chunk=chunk), resume)
    arena_name = str(arena) if arena else (f"flat {arena_size}x{arena_size}" if arena_size else "built-in")
    with cluster(scheduler, workers) as client:
        result = _with_progress(lambda cb: simulate_skirmish(setup, strat, trials=trials, seed=seed, chunk=chunk,
                                                             on_progress=cb, client=client, store=store),
                                trials, None, label="skirmishes")
        summary = result.summary()
        if out is not None:
            _write_skirmish(out, game, sk, setup, make, field, strat, result, summary, arena_name, client)
    if as_json:
        print(json.dumps(summary))
        return
    _print_skirmish(result, summary, out)


def _print_skirmish(result, summary, out):
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"Skirmish · {' + '.join(result.names)} · {result.strategy}", highlight=False)
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
                  f"{summary['skirmishes_per_s']:,.0f} skirmishes/s")
    if out:
        console.print(f"written to {out}/")


def _write_skirmish(out, game, sk, setup, make, field, strat, result, summary, arena_name, client):
    """manifest.json, skirmish_*.parquet and two charts."""
    from sim.report.charts import skirmish_chart, skirmish_distance_chart
    from sim.run.results import atomic_write, manifest, write_json, write_parquet
    from sim.run.skirmish import terrain_sweep

    start = setup.fighters[0]["pos"] % field.cols
    distances = list(range(2, field.cols - start, 2))[:7]
    sweep_trials = min(result.trials, 20_000)
    sweep = _with_progress(lambda cb: terrain_sweep(make, strat, field, distances, trials=sweep_trials,
                                                    seed=result.seed, on_progress=cb, client=client),
                           3 * len(distances) * sweep_trials, None, label="distance sweep")
    tables = {"outcomes": result.proportions(), "means": result.means(), "ap": result.ap_spending(),
              "rounds": result.rounds(), "sweep": sweep}
    for name, frame in tables.items():
        write_parquet(out / f"skirmish_{name}.parquet", frame)
    title = f"Skirmish · {' + '.join(result.names)} · {result.strategy}"
    provenance = _provenance(result, game, sk, arena_name)
    atomic_write(out / "charts" / "skirmish.png", lambda p: skirmish_chart(
        tables["outcomes"], tables["ap"], title, provenance, p))
    sweep_note = provenance.replace(f"{result.trials:,} skirmishes", f"{sweep_trials:,} skirmishes per point")
    atomic_write(out / "charts" / "skirmish_distance.png", lambda p: skirmish_distance_chart(
        sweep, f"{title} · survival vs starting distance and terrain", sweep_note, p))
    write_json(out / "manifest.json", manifest(
        ["zonesim", *sys.argv[1:]], seed=result.seed, trials=result.trials, strategy=strat.name,
        fighters=list(result.names), arena=arena_name, content_dir=str(game.directory),
        content_hash=game.digest, elapsed_s=result.elapsed_s, summary=summary,
        files=["manifest.json", *(f"skirmish_{n}.parquet" for n in tables), "charts/skirmish.png",
               "charts/skirmish_distance.png"]))
