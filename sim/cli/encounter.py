"""``zonesim encounter``: one fight of a loadout against monsters (Z-15..Z-38)."""

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer

from sim.cli.common import (CONTENT_OPTION, FIGHT_LOADOUT, FIGHTS_PER_S, JSON, RESUME, SEED, THREADS, UsageProblem,
                            _fight_assumed, _fmt_p, _group_assumed, _loadout, _scenario_title, _set_threads,
                            _with_progress, app, check_strategies, check_trials, load_checked, loadout_options,
                            run_params)
from sim.content.loadout import check_monsters


@app.command()
@loadout_options(*FIGHT_LOADOUT)
def encounter(
    monster: List[str] = typer.Option(..., "--monster", "-m", metavar="ID", help="Monster id; repeat for a group fought at once."),
    hp: Optional[int] = typer.Option(None, help="HP at the start of the fight (default: full)."),
    strategy: str = typer.Option("fighter", metavar="NAME", help="fighter, runner, tactician, or FILE.py:NAME."),
    trials: Optional[int] = typer.Option(None, help="Fights to simulate [default 1,000,000]; with --target-ci, "
                                                    "the cap [default 100,000,000]."),
    seed: int = SEED,
    exact: bool = typer.Option(False, "--exact", help="Solve exactly (Markov chain): fighter/runner, one monster, "
                                                      "no explosives."),
    as_json: bool = JSON,
    out: Optional[Path] = typer.Option(None, "--out", help="Write manifest.json, parquet tables and a PNG chart here "
                                                           "(and a checkpoint per finished chunk, for --resume)."),
    resume: bool = RESUME,
    target_ci: Optional[float] = typer.Option(None, help="Add trials until the 95% interval of p_survive is "
                                                         "narrower than this."),
    threads: Optional[int] = THREADS,
    chunk: int = typer.Option(1 << 20, help="Trials per chunk between progress updates; results do not depend on it."),
    content: Optional[Path] = CONTENT_OPTION,
    **loadout,
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
    """
    game = load_checked(content)
    loadout = _loadout(game, hp=hp, **loadout)
    check_monsters(game, monster)
    if target_ci is not None and not 0 < target_ci < 1:
        raise UsageProblem(f"--target-ci: {target_ci}; give an interval width between 0 and 1, e.g. 0.002")
    if chunk < 1:
        raise UsageProblem(f"--chunk: {chunk}; give at least 1")
    n = trials if trials is not None else (100_000_000 if target_ci else 1_000_000)
    if not exact:
        check_trials("--trials", n, FIGHTS_PER_S, "fight")
    check_strategies("--strategy", [strategy], "fight")
    if exact and resume:
        raise UsageProblem("--resume: for sampled fights; --exact solves at once")
    _set_threads(threads)
    from sim.run.chunks import checkpoints

    store = None if exact else checkpoints(out, run_params("encounter", game, loadout=loadout, monster=monster,
                                                           strategy=strategy, trials=n, seed=seed, chunk=chunk,
                                                           target_ci=target_ci), resume)
    import strategies  # compiles the kernels
    from sim.run.fight import exact_fight, simulate_fight

    strat = strategies.get(strategy)
    if exact:
        result = exact_fight(game, loadout, monster, strat)
    else:
        result = _with_progress(lambda cb: simulate_fight(
            game, loadout, monster, strat, trials=n, seed=seed, chunk=chunk, target_ci=target_ci, on_progress=cb,
            store=store), n, target_ci)
    title = _scenario_title(loadout, monster, strat.name)
    assumed = _fight_assumed(game, {loadout.character, *monster, *loadout.cards()})
    summary = {**result.summary(), "assumed": assumed}
    if out is not None:
        _write_encounter(out, game, loadout, monster, strat, result, summary, title)
    if as_json:
        print(json.dumps(summary))
    else:
        _print_table(title, result, assumed, out)


def _print_table(title, result, assumed, out):
    """The outcome table of one encounter and its provenance lines."""
    from rich.console import Console
    from rich.table import Table

    table = Table()
    for col in ("outcome", "probability", "95% interval"):
        table.add_column(col, justify="right" if col != "outcome" else "left")
    for name in ("p_survive", "p_win", "p_draw", "p_escape", "p_death"):
        lo, hi = result.ci95[name]
        table.add_row(name[2:], _fmt_p(result.probabilities[name]), f"[{_fmt_p(lo)}, {_fmt_p(hi)}]")
    console = Console()
    console.print(title, highlight=False)
    console.print(table)
    hp_left = "n/a" if result.mean_hp_left != result.mean_hp_left else f"{result.mean_hp_left:.2f}"
    console.print(f"mean rounds {result.mean_rounds:.3f} · mean HP left (survivors) {hp_left}")
    if result.trials:
        console.print(f"{result.trials:,} fights · seed {result.seed} · {result.elapsed_s:.2f} s · "
                      f"{result.encounters_per_s:,.0f} fights/s")
        used = ", ".join(f"{k} {v:.3f}" for k, v in result.items_used.items())
        if used:
            console.print(f"items used per fight: {used}")
    else:
        console.print("exact (absorbing Markov chain)")
    if assumed:
        console.print(f"[dim]rests on {len(assumed)} assumed [A] values (see --json 'assumed')[/dim]")
    if out:
        console.print(f"written to {out}/")


def _write_encounter(out, game, loadout, monsters, strat, result, summary, title):
    """manifest.json, encounter.parquet (tidy metrics), encounter_hist.parquet, charts/encounter.png."""
    import polars as pl

    from sim.report.charts import fight_chart
    from sim.run.results import manifest, write_json, write_parquet, atomic_write

    scenario = {
        "character": loadout.character, "weapon": loadout.weapon or "", "mods": ",".join(loadout.mods),
        "head": loadout.head or "", "body": loadout.body or "",
        "healing": ",".join(f"{i}:{n}" for i, n in loadout.healing),
        "explosives": ",".join(f"{i}:{n}" for i, n in loadout.explosives),
        "escape_item": loadout.escape_item or "", "reputation": loadout.reputation,
        "monsters": ",".join(monsters), "strategy": strat.name,
    }
    rows = [{"metric": k, "value": result.probabilities[k], "ci_lo": result.ci95[k][0], "ci_hi": result.ci95[k][1]}
            for k in result.probabilities]
    rows += [{"metric": "mean_rounds", "value": result.mean_rounds, "ci_lo": None, "ci_hi": None},
             {"metric": "mean_hp_left", "value": result.mean_hp_left, "ci_lo": None, "ci_hi": None}]
    rows += [{"metric": f"used_per_fight:{k}", "value": v, "ci_lo": None, "ci_hi": None}
             for k, v in result.items_used.items()]
    metrics = pl.DataFrame(rows, schema={"metric": pl.Utf8, "value": pl.Float64, "ci_lo": pl.Float64,
                                         "ci_hi": pl.Float64})
    metrics = metrics.with_columns(
        *(pl.lit(v).alias(k) for k, v in scenario.items()),
        pl.lit(result.trials, dtype=pl.Int64).alias("trials"),
        pl.lit(result.seed, dtype=pl.Int64).alias("seed"),
    )
    files = ["manifest.json", "encounter.parquet", "charts/encounter.png"]
    write_parquet(out / "encounter.parquet", metrics)
    if result.trials:
        hist = pl.DataFrame({
            "kind": ["hp_left"] * result.hp_hist.size + ["rounds"] * result.rounds_hist.size,
            "value": list(range(result.hp_hist.size)) + list(range(result.rounds_hist.size)),
            "count": [int(c) for c in result.hp_hist] + [int(c) for c in result.rounds_hist],
        })
        write_parquet(out / "encounter_hist.parquet", hist)
        files.append("encounter_hist.parquet")
    provenance = (f"{'exact solution' if not result.trials else f'{result.trials:,} fights, seed {result.seed}'}"
                  f" · content {game.digest[:12]} · rests on assumed [A] values of: "
                  + (_group_assumed(summary["assumed"]) or "none"))
    atomic_write(out / "charts" / "encounter.png", lambda p: fight_chart(result, title, provenance, p))
    write_json(out / "manifest.json", manifest(
        ["zonesim", *sys.argv[1:]], seed=result.seed, trials=result.trials, exact=result.trials is None,
        content_dir=str(game.directory), content_hash=game.digest,
        strategy={"name": strat.name, "params": dict(zip(strat.param_names, strat.params.tolist()))},
        scenario=scenario, elapsed_s=result.elapsed_s, summary=summary, files=files,
    ))
