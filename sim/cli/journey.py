"""``zonesim journey``: campaigns across the Zone on the content's orders."""

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from sim.cli.common import (CONTENT_OPTION, JOURNEY_DAYS_PER_S, JSON, LOADOUT_OPTIONS, RESUME, SCHEDULER, SEED, THREADS,
                            WORKERS, UsageProblem, _fmt_p, _loadout, _scenario_title, _set_threads, _with_progress, app,
                            check_strategies, check_trials, chunk_option, load_checked, loadout_options, run_params)


@app.command()
@loadout_options(*LOADOUT_OPTIONS)
def journey(
    strategy: str = typer.Option("greedy", metavar="NAME", help="Journey strategy: cautious, greedy, or FILE.py:NAME "
                                                                "(a JourneyStrategy)."),
    days: int = typer.Option(30, help="Days in the campaign (one turn = one day)."),
    trials: int = typer.Option(200_000, help="Campaigns to simulate."),
    seed: int = SEED,
    as_json: bool = JSON,
    out: Optional[Path] = typer.Option(None, "--out", help="Write manifest.json, parquet tables and PNG charts here "
                                                           "(and a checkpoint per finished chunk, for --resume)."),
    resume: bool = RESUME,
    chunk: int = chunk_option(1 << 16),
    threads: Optional[int] = THREADS,
    scheduler: Optional[str] = SCHEDULER,
    workers: Optional[int] = WORKERS,
    content: Optional[Path] = CONTENT_OPTION,
    **loadout,
):
    """Send a stalker across the Zone on the content's orders, for DAYS days.

    Each day he walks his steps toward the current order's destination (or his
    lost loot); every hex entered draws an event by its danger (monsters, traps,
    skill tests, finds). Reports the chance to finish every order and the first
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
    game = load_checked(content)
    loadout = _loadout(game, **loadout)
    if days < 1:
        raise UsageProblem(f"--days: {days}; give at least 1 day")
    check_trials("--trials", trials, JOURNEY_DAYS_PER_S / days, "campaign")
    check_strategies("--strategy", [strategy], "journey")
    _set_threads(threads)
    from sim.run.chunks import checkpoints
    from sim.run.distributed import cluster
    from sim.run.journey import get_journey_strategy, simulate_journey  # compiles the kernels

    strat = get_journey_strategy(strategy)
    store = checkpoints(out, run_params("journey", game, loadout=loadout, strategy=strat, days=days, trials=trials,
                                        seed=seed, chunk=chunk), resume)
    with cluster(scheduler, workers) as client:
        result = _with_progress(lambda cb: simulate_journey(
            game, loadout, strat, days=days, trials=trials, seed=seed, chunk=chunk, on_progress=cb, client=client,
            store=store), trials, None, label="journeys")
    summary = result.summary()
    if out is not None:
        _write_journey(out, game, loadout, strat, result, summary)
    if as_json:
        print(json.dumps(summary))
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"{_scenario_title(loadout, ['the Zone'], strat.name)} · {days} days", highlight=False)
    table = Table()
    for col in ("outcome", "probability", "95% interval"):
        table.add_column(col, justify="right" if col != "outcome" else "left")
    for name, label in (("p_complete", "all orders done"), ("p_first_order", "first order done"),
                        ("p_no_death", "never died")):
        lo, hi = result.ci95[name]
        table.add_row(label, _fmt_p(result.probabilities[name]), f"[{_fmt_p(lo)}, {_fmt_p(hi)}]")
    console.print(table)
    mean_days = summary["mean_days_to_complete"]
    console.print(f"days to finish (when finished) {mean_days:.2f}" if mean_days else "no campaign finished")
    console.print(f"money at the end {summary['mean_money']:,.0f} G "
                  f"[{summary['money_ci95'][0]:,.0f}, {summary['money_ci95'][1]:,.0f}] · deaths "
                  f"{summary['mean_deaths']:.3f} · kills {summary['mean_kills']:.2f} per campaign")
    console.print(f"final level {summary['mean_level']:.2f} (K-04) · missions past level 12 "
                  f"{summary['mean_missions']:.3f}")
    console.print(f"{trials:,} campaigns · seed {seed} · {result.elapsed_s:.2f} s · "
                  f"{summary['hex_steps_per_s']:,.0f} hex-steps/s")
    if out:
        console.print(f"written to {out}/")


def _write_journey(out, game, loadout, strat, result, summary):
    """manifest.json, journey.parquet, journey_days.parquet, journey_hexes.parquet and three charts."""
    import polars as pl

    from sim.content.journey import load_journey
    from sim.report.charts import journey_curves_chart
    from sim.report.hexmap import draw_map
    from sim.run.results import atomic_write, manifest, write_json, write_parquet

    hexmap = load_journey(game).hexmap
    rows = [{"metric": k, "value": v, "ci_lo": result.ci95[k][0], "ci_hi": result.ci95[k][1]}
            for k, v in result.probabilities.items()]
    rows += [{"metric": k, "value": float(summary[k]) if summary[k] is not None else None, "ci_lo": None,
              "ci_hi": None} for k in ("mean_days_to_complete", "mean_orders_done", "mean_deaths", "mean_kills")]
    rows.append({"metric": "mean_money", "value": summary["mean_money"], "ci_lo": summary["money_ci95"][0],
                 "ci_hi": summary["money_ci95"][1]})
    write_parquet(out / "journey.parquet", pl.DataFrame(rows, schema={
        "metric": pl.Utf8, "value": pl.Float64, "ci_lo": pl.Float64, "ci_hi": pl.Float64}).with_columns(
        pl.lit(strat.name).alias("strategy"), pl.lit(result.trials).alias("trials"), pl.lit(result.seed).alias("seed"),
        pl.lit(result.days).alias("days")))
    by_day = result.by_day()
    write_parquet(out / "journey_days.parquet", by_day)
    cols, rows_ = [c for r in range(hexmap.height) for c in range(hexmap.width)], \
        [r for r in range(hexmap.height) for _ in range(hexmap.width)]
    write_parquet(out / "journey_hexes.parquet", pl.DataFrame({
        "col": cols, "row": rows_, "terrain": [hexmap.terrain_ids[t] for t in hexmap.terrain.ravel()],
        "danger": hexmap.danger.ravel().astype(int), "visits": result.traffic.ravel(),
        "deaths": result.deaths_at.ravel()}))
    provenance = (f"{result.trials:,} campaigns of {result.days} days, seed {result.seed} · strategy {strat.name} · "
                  f"content {game.digest[:12]} · event tables, monster groups and orders are assumed [A] (journey.toml)")
    title = _scenario_title(loadout, [hexmap.name], strat.name)
    charts = out / "charts"
    atomic_write(charts / "journey_curves.png", lambda p: journey_curves_chart(by_day, title, provenance, p))
    atomic_write(charts / "journey_deaths.png", lambda p: draw_map(
        hexmap, p, title=f"Where stalkers die · {title}", provenance=provenance,
        heat=result.deaths_at * 1000.0 / result.trials, heat_label="deaths per 1,000 campaigns"))
    atomic_write(charts / "journey_traffic.png", lambda p: draw_map(
        hexmap, p, title=f"Where stalkers walk · {title}", provenance=provenance,
        heat=result.traffic / result.trials, heat_label="visits per campaign"))
    write_json(out / "manifest.json", manifest(
        ["zonesim", *sys.argv[1:]], seed=result.seed, trials=result.trials, days=result.days,
        content_dir=str(game.directory), content_hash=game.digest,
        strategy={"name": strat.name, "fight": strat.fight, "danger_weight": strat.danger_weight,
                  "recover_loot": strat.recover_loot},
        elapsed_s=result.elapsed_s, summary=summary,
        files=["manifest.json", "journey.parquet", "journey_days.parquet", "journey_hexes.parquet",
               "charts/journey_curves.png", "charts/journey_deaths.png", "charts/journey_traffic.png"],
    ))
