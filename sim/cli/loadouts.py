"""``zonesim loadouts``: every loadout a budget buys, fought on the same dice;
survival per loadout, the Pareto front of cost against survival and the best
loadout per budget step (Z-11, Z-18, Z-20..Z-24, Z-32, Z-42)."""

import hashlib
import json
import sys
from pathlib import Path
from typing import List, Optional

import typer

from sim.cli.common import (CHARACTER, CONTENT_OPTION, JSON, RESUME, SCHEDULER, SEED, THREADS, UsageProblem, WORKERS,
                            _fight_assumed, _fmt_p, _group_assumed, _set_threads, _with_progress, app, check_strategies,
                            load_checked, run_params)


FAMILIES_DEFAULT = "firearms,modifiers,armour,healing,explosives,escape"

@app.command()
def loadouts(
    budget: int = typer.Option(..., help="G to spend: every loadout costing at most this is fought (Z-42 prices)."),
    character: str = CHARACTER,
    monster: List[str] = typer.Option([], "--monster", "-m", metavar="ID",
                                      help="Monster id; repeat for a group fought at once."),
    mix: Optional[Path] = typer.Option(None, "--mix", metavar="FILE.toml",
                                       help='Monster groups instead of --monster: [[group]] tables of '
                                            'monsters = ["snork", "boar"] and weight = 2 (default 1).'),
    strategy: str = typer.Option("fighter", metavar="NAME", help="fighter, runner, tactician, or FILE.py:NAME."),
    trials: int = typer.Option(20_000, help="Fights per loadout and monster group (the same trials for every "
                                            "loadout)."),
    seed: int = SEED,
    max_count: int = typer.Option(2, help="Most cards of each stimulator and explosive to try (also capped by "
                                          "its deck, Z-11, and 10 explosives in all, Z-18)."),
    families: str = typer.Option(FAMILIES_DEFAULT, metavar="NAME,NAME",
                                 help="Item families to combine; fewer families, fewer loadouts. Medkits never "
                                      "count: a fight starts at full health (Z-31)."),
    journey: Optional[int] = typer.Option(None, metavar="DAYS", help="Instead of fights: send every loadout on "
                                                                    "the same campaigns of DAYS days on the default "
                                                                    "map and rank by the chance to finish every "
                                                                    "order (--strategy greedy or cautious; medkits, "
                                                                    "Zone-movement and avoidance items join the "
                                                                    "families)."),
    reputation: Optional[int] = typer.Option(None, help="Reputation for the escape roll (default: the starting "
                                                        "one); escape items matter only to a strategy that rolls."),
    step: int = typer.Option(250, help="Budget step in G of the best-per-step table."),
    top: int = typer.Option(15, metavar="N", help="Rows printed of the best and Pareto tables (every budget step "
                                                  "is printed)."),
    max_loadouts: int = typer.Option(50_000, help="Refuse to fight more loadouts than this."),
    as_json: bool = JSON,
    out: Optional[Path] = typer.Option(None, "--out", help="Write manifest.json, parquet tables and a PNG chart "
                                                           "here (and a checkpoint per finished batch of loadouts, "
                                                           "for --resume)."),
    resume: bool = RESUME,
    threads: Optional[int] = THREADS,
    scheduler: Optional[str] = SCHEDULER,
    workers: Optional[int] = WORKERS,
    content: Optional[Path] = CONTENT_OPTION,
):
    """Which loadout should a stalker buy with BUDGET G?

    Enumerates every legal loadout within the budget (one firearm or none with
    any of its modifiers, one head and one body armour, 0..--max-count of each
    stimulator and explosive, one escape item), fights each against the
    monsters on the same dice (common random numbers) and reports survival
    with 95% intervals, the Pareto front (no cheaper loadout survives as
    often) and the best loadout for each budget step.

    The count grows fast: with every family 1,500 G buys 3,596 loadouts,
    2,000 G 11,992 and 2,500 G 29,138 (about 3, 13 and 25 s of fights at
    20,000 each on 2 cores). Narrow --families or --max-count to go higher;
    escape items change nothing for the fighter, who never rolls to escape.

    \b
    Examples:
      zonesim loadouts --budget 2000 --monster bloodsucker
      zonesim loadouts --budget 6000 -m chimera --families firearms,modifiers,armour,healing --step 500
      zonesim loadouts --budget 3000 --mix mix.toml --families firearms,modifiers,armour,healing,explosives --json
      zonesim loadouts --budget 2500 -m snork -m flesh --strategy runner --reputation 5 --out results/loadouts
    \b
    A mix file (survival is the weighted mean over its groups):
      [[group]]
      monsters = ["snork", "boar"]
      weight = 2
      [[group]]
      monsters = ["bloodsucker"]
    """
    game = load_checked(content)
    if journey is not None and (monster or mix is not None):
        raise UsageProblem("--journey: the campaign brings its own monsters; drop --monster/--mix")
    if journey is not None and journey < 1:
        raise UsageProblem(f"--journey: {journey}; give at least 1 day")
    if mix is not None and monster:
        raise UsageProblem("--monster and --mix: give one of them")
    if trials < 1:
        raise UsageProblem(f"--trials: {trials}; give at least 1 trial per loadout")
    if journey is not None:
        check_strategies("--strategy", ["greedy" if strategy == "fighter" else strategy], "journey")
    else:
        check_strategies("--strategy", [strategy], "fight")
    if top < 1:
        raise UsageProblem(f"--top: {top}; give at least 1 row")
    if max_loadouts < 1:
        raise UsageProblem(f"--max-loadouts: {max_loadouts}; give at least 1")
    import strategies  # these compile the kernels
    from sim.run.distributed import cluster
    from sim.run.loadouts import (JOURNEY_FAMILIES, MixGroup, best_per_step, enumerate_loadouts,
                                  evaluate_journey_loadouts, evaluate_loadouts, load_mix, monster_mix, step_budgets)

    if journey is not None:
        from sim.run.journey import get_journey_strategy

        strat = get_journey_strategy("greedy" if strategy == "fighter" else strategy)
        if families == FAMILIES_DEFAULT:
            families = ",".join(JOURNEY_FAMILIES)
        groups = (MixGroup((f"{journey}-day journey",), 1.0),)
    else:
        groups = load_mix(game, mix) if mix is not None else monster_mix(game, monster)
        strat = strategies.get(strategy)
    step_budgets(step, budget)
    names = tuple(f.strip() for f in families.split(",") if f.strip())
    found = enumerate_loadouts(game, budget=budget, character=character, max_count=max_count, families=names,
                               reputation=reputation, limit=max_loadouts, journey=journey is not None)
    _set_threads(threads)
    from sim.run.chunks import checkpoints

    store = checkpoints(out, run_params("loadouts", game, loadouts=hashlib.sha256(repr(found).encode()).hexdigest(),
                                        groups=[[list(g.monsters), g.weight] for g in groups], strategy=strategy,
                                        trials=trials, seed=seed, journey=journey), resume)
    total = len(found) * len(groups) * trials
    with cluster(scheduler, workers) as client:
        if journey is not None:
            result = _with_progress(lambda cb: evaluate_journey_loadouts(
                game, found, strat, days=journey, trials=trials, seed=seed, on_progress=cb, client=client,
                store=store), total,
                None, label="campaigns")
        else:
            result = _with_progress(lambda cb: evaluate_loadouts(game, found, groups, strat, trials=trials,
                                                                 seed=seed, on_progress=cb, client=client,
                                                                 store=store),
                                    total, None)
    table = result.table()
    steps = best_per_step(table, step, budget)
    assumed = _fight_assumed(game, {character, *(m for g in groups for m in g.monsters),
                                    *(i for lo in found for i in lo.cards())})
    summary = _summary(result, table, steps, budget=budget, character=character, families=names,
                       max_count=max_count, reputation=reputation, assumed=assumed)
    if out is not None:
        _write(out, game, result, table, steps, summary)
    if as_json:
        print(json.dumps(summary))
        return
    _print(result, table, steps, summary, top, strat, out)


def _mix_text(groups):
    """``snork + boar (x2); bloodsucker`` from the summary's groups (weights shown when they differ)."""
    weighted = len({g["weight"] for g in groups}) > 1
    return "; ".join(" + ".join(g["monsters"]) + (f" (x{g['weight']:g})" if weighted else "") for g in groups)


def _summary(result, table, steps, **scenario):
    """The JSON contract of ``zonesim loadouts --json``."""
    fights = table.height * len(result.groups) * result.trials
    return {
        **scenario, "strategy": result.strategy, "trials": result.trials, "seed": result.seed,
        "groups": [{"monsters": list(g.monsters), "weight": g.weight} for g in result.groups],
        "n_loadouts": table.height, "n_pareto": int(table["pareto"].sum()), "fights": fights,
        "elapsed_s": result.elapsed_s, "fights_per_s": fights / result.elapsed_s if result.elapsed_s > 0 else None,
        "interval": "weighted mean of the groups' Wilson 95% bounds",
        "front": table.filter(table["pareto"]).sort("cost").to_dicts(),
        "best_per_step": steps.to_dicts(),
        "loadouts": table.to_dicts(),
    }


def _title(summary):
    return (f"Loadouts within {summary['budget']:,} G · {summary['character']} vs {_mix_text(summary['groups'])} "
            f"({summary['strategy']})")


def _print(result, table, steps, summary, top, strat, out):
    import polars as pl
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"{_title(summary)}\n{summary['n_loadouts']:,} loadouts enumerated ({', '.join(summary['families'])}"
                  f"; up to {summary['max_count']} of each stimulator and explosive), "
                  f"{summary['n_pareto']} on the Pareto front", highlight=False)

    def show(title, frame, lead=None, rows=top):
        """Up to ``rows`` rows of ``frame``; ``lead`` = (header, row -> text) adds a first column."""
        grid = Table(title=title, title_justify="left")
        measure = "completion" if result.groups[0].monsters[0].endswith("journey") else "survival"
        for col in ([lead[0]] if lead else []) + ["cost G", measure, "95% interval", "loadout"]:
            grid.add_column(col, justify="left" if col == "loadout" else "right")
        for row in frame.head(rows).iter_rows(named=True):
            grid.add_row(*([lead[1](row)] if lead else []), f"{row['cost']:,}", _fmt_p(row["survival"]),
                         f"[{_fmt_p(row['ci_low'])}, {_fmt_p(row['ci_high'])}]", row["description"])
        console.print(grid)
        if frame.height > rows:
            console.print(f"[dim]... {frame.height - rows:,} more rows (--top, --json or --out)[/dim]")

    show("Best first (* = on the Pareto front)",
         table.sort(["survival", "cost", "index"], descending=[True, False, False]),
         ("front", lambda row: "*" if row["pareto"] else ""))
    show("Pareto front: nothing cheaper survives as often", table.filter(pl.col("pareto")).sort("cost"))
    show("Best loadout within each budget step", steps, ("budget G", lambda row: f"<= {row['budget']:,}"),
         steps.height)
    runs = "campaigns" if result.groups[0].monsters[0].endswith("journey") else "fights"
    console.print(f"{summary['fights']:,} {runs} ({result.trials:,} per loadout and group, the same dice for "
                  f"every loadout) · seed {result.seed} · {result.elapsed_s:.1f} s · "
                  f"{summary['fights_per_s'] or 0:,.0f} {runs}/s", highlight=False)
    console.print("[dim]intervals: the weighted mean of each group's Wilson 95% bounds[/dim]")
    if "escape" in summary["families"] and getattr(getattr(strat, "escape", None), "never_tries", False):
        console.print(f"[dim]{strat.name} never rolls to escape, so escape items change nothing here; "
                      "--families without escape fights a quarter as many loadouts[/dim]")
    if summary["assumed"]:
        console.print(f"[dim]rests on {len(summary['assumed'])} assumed [A] values (see --json 'assumed')[/dim]")
    if out:
        console.print(f"written to {out}/")


def _write(out, game, result, table, steps, summary):
    """manifest.json, loadouts.parquet, loadouts_steps.parquet, loadouts_groups.parquet, charts/loadouts.png."""
    from sim.report.charts import loadouts_chart
    from sim.run.results import atomic_write, manifest, write_json, write_parquet

    files = {"loadouts.parquet": table, "loadouts_steps.parquet": steps,
             "loadouts_groups.parquet": result.by_group()}
    for name, frame in files.items():
        write_parquet(out / name, frame)
    provenance = (f"{table.height:,} loadouts x {result.trials:,} fights per monster group on the same dice, seed "
                  f"{result.seed} · strategy {result.strategy} · intervals: weighted mean of the groups' Wilson "
                  f"bounds · content {game.digest[:12]} · rests on assumed [A] values of: "
                  + (_group_assumed(summary["assumed"]) or "none"))
    atomic_write(out / "charts" / "loadouts.png", lambda p: loadouts_chart(table, steps, _title(summary),
                                                                           provenance, p))
    write_json(out / "manifest.json", manifest(
        ["zonesim", *sys.argv[1:]], seed=result.seed, trials=result.trials, content_dir=str(game.directory),
        content_hash=game.digest, strategy=result.strategy, elapsed_s=result.elapsed_s,
        summary={k: v for k, v in summary.items() if k != "loadouts"},
        files=["manifest.json", *files, "charts/loadouts.png"]))
