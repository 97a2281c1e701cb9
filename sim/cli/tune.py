"""``zonesim tune``: move item prices toward the prices their value earns."""

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import List, Optional

import typer

from sim.cli.common import (CONTENT_OPTION, FIGHT_LOADOUT, GROUP, JSON, RESUME, SCHEDULER, SEED, THREADS, UsageProblem,
                            WORKERS, _loadout, _set_threads, _with_progress, app, check_valued_strategies, load_checked,
                            loadout_options, progress, run_params)
from sim.cli.economy import _scenario_loadout, economy_tune
from sim.content.loadout import check_monsters


@app.command()
@loadout_options(*FIGHT_LOADOUT)
def tune(
    monster: List[str] = GROUP,
    objective: str = typer.Option("equal-value", help="equal-value: every item worth the same survival (win "
                                                      "rate) per G; target-survival=P: the same relative prices "
                                                      "at the level where the buyer survives with probability P; "
                                                      "target-winrate=W (--mode stalkeriada): the shop's level "
                                                      "where the strategy wins with probability W; "
                                                      "target-finish=P (--mode stalkeriada): the visa or loot "
                                                      "prices (--move) at which a share P of games has a "
                                                      "winner."),
    move: str = typer.Option("visa", help="target-finish: move the exit visa's price (visa) or the loot sale "
                                          "prices (loot) by one factor."),
    budget: int = typer.Option(2000, help="G the buyer may spend in all (the reference loadout included) on the "
                                          "items with the most value per G."),
    mode: Optional[str] = typer.Option(None, help="fight (the default with --monster) or skirmish: item prices "
                                                  "(items.toml) by survival; stalkeriada: the shop prices "
                                                  "(stalkeriada.toml) by a planner's win rate."),
    opponents: str = typer.Option("greedy,jelly,rush", metavar="NAME,NAME", help="The other players at the "
                                                                               "table in --mode stalkeriada."),
    strategy: Optional[str] = typer.Option(None, help="The strategy values are measured under (fight: fighter; "
                                                      "skirmish: hold)."),
    rounds: Optional[int] = typer.Option(None, help="At most this many measure-and-move rounds (default: 20 for "
                                                    "whole-game prices, 12 in a scenario)."),
    damping: Optional[float] = typer.Option(None, help="Each round moves a price this fraction of the way to its "
                                                       "fair price (default 0.5)."),
    quick: bool = typer.Option(False, "--quick", help="Whole-game prices: economy.toml's quick trial counts."),
    items: str = typer.Option("", metavar="ID,ID", help="Whole-game prices: tune only these cards (default: all)."),
    trials: int = typer.Option(40_000, help="Paired trials per item and round."),
    seed: int = SEED,
    as_json: bool = JSON,
    out: Optional[Path] = typer.Option(None, "--out", help="Write tune.parquet, prices.parquet, a chart of the "
                                                           "prices across rounds, manifest.json, and content/: a "
                                                           "copy of the content with the tuned prices; and "
                                                           "checkpoints for --resume (whole-game prices: each valued "
                                                           "kit; a scenario: each round's value sums)."),
    resume: bool = RESUME,
    threads: Optional[int] = THREADS,
    scheduler: Optional[str] = SCHEDULER,
    workers: Optional[int] = WORKERS,
    content: Optional[Path] = CONTENT_OPTION,
    **loadout,
):
    """Tune item prices: measure values, move prices toward fair prices, repeat.

    With no scenario options: every card's price moves toward its whole-game
    stand-alone value in G over the content's economy.toml (equal value per
    G), rounded to its price step, until every price lies in its value
    interval: first on the quick trial counts, then on the full ones.

    With a scenario (--monster, a loadout, --strategy or --mode): each round values every item against the buyer's loadout on common dice,
    converts value to G at the market's exchange rate (a least-squares fit
    through the origin), and moves each price part of the way (--damping),
    keeping the total of the moved prices. The buyer then re-shops with
    --budget at the new prices, by value per G. Stops when every price lies
    inside its fair-price interval, or after --rounds. Items that change
    nothing in this mode (an escape item for a fighter) keep their price.

    \b
    Examples:
      zonesim tune --out results/tuned
      zonesim tune -m bloodsucker --weapon ak47 --budget 2500
      zonesim tune -m snork -m blind_dog --weapon berdanka --objective target-survival=0.8 --out results/tune
      zonesim tune --mode skirmish -m bloodsucker --weapon ak47 --trials 20000 --json
      zonesim tune --mode stalkeriada --strategy cautious --objective target-winrate=0.2 --trials 2000
      zonesim tune --mode stalkeriada --objective target-finish=0.5 --move loot --trials 2000
    """
    game = load_checked(content)
    if damping is not None and not 0 < damping <= 1:
        raise UsageProblem(f"--damping: {damping}; give a fraction in (0, 1]")
    if rounds is not None and rounds < 1:
        raise UsageProblem(f"--rounds: {rounds}; give at least 1")
    if out is not None and (out / "content").exists():
        raise UsageProblem(f"--out: {out / 'content'} already exists (a finished tuning); give a new folder")
    if mode is None and not monster and not strategy and objective == "equal-value" and not _scenario_loadout(loadout):
        from sim.run.distributed import cluster

        with cluster(scheduler, workers) as client:
            return economy_tune(game, quick=quick, seed=seed, rounds=rounds or 20, damping=damping or 0.5,
                                as_json=as_json, out=out, resume=resume, items=items, client=client)
    if quick or items:
        raise UsageProblem("--quick and --items: for whole-game prices; drop the scenario options "
                           "(--monster, the loadout, --strategy, --mode, --objective) or these")
    mode, rounds, damping = mode or "fight", rounds or 12, damping or 0.5
    if mode not in ("fight", "skirmish", "stalkeriada"):
        raise UsageProblem(f"--mode: '{mode}'; use fight, skirmish or stalkeriada")
    shop = mode == "stalkeriada"
    if trials < 2:
        raise UsageProblem(f"--trials: {trials}; give at least 2")
    if budget < 0:
        raise UsageProblem(f"--budget: {budget}; give 0 or more G")
    if not shop:
        base = _loadout(game, **loadout)
        check_monsters(game, monster)
    rival_names = check_valued_strategies([strategy] if strategy else [], mode, opponents)
    _set_threads(threads)
    if shop and objective.startswith("target-finish"):
        if resume:
            raise UsageProblem("--resume: not for --objective target-finish (ten short bisection steps); run it "
                               "again without --resume")
        return _tune_pace(game, [strategy or "cautious", *rival_names], objective, move, trials, seed,
                          as_json, out)
    from sim.run.chunks import checkpoints

    store = checkpoints(out, run_params("tune", game, mode=mode, loadout=None if shop else base, monster=monster,
                                        strategy=strategy, opponents=rival_names if shop else None,
                                        objective=objective, budget=budget, rounds=rounds, damping=damping,
                                        trials=trials, seed=seed), resume)
    from sim.run.distributed import cluster  # these compile the kernels
    from sim.run.measures import value_measures
    from sim.run.tune import parse_objective, parse_shop_objective, tune_prices, tune_shop

    (parse_shop_objective if shop else parse_objective)(objective)
    if shop:
        from sim.run.stalkeriada import get_stalkeriada_strategy

        name = strategy or "cautious"
        player = get_stalkeriada_strategy(name)
        rivals = [get_stalkeriada_strategy(n) for n in rival_names]
        with cluster(scheduler, workers) as client:
            result = _with_progress(lambda cb: tune_shop(game, player, rivals, objective=objective, rounds=rounds,
                                                         damping=damping, games=trials, seed=seed,
                                                         on_round=cb and (lambda r, n: cb(r, n, None)),
                                                         client=client, store=store),
                                    rounds, None, label="tuning rounds")
    else:
        name, measure = next(iter(value_measures(game, mode, [strategy] if strategy else [], monster, base, trials,
                                                  seed).items()))

        def measure_for(current):  # the same fight or skirmish at the round's prices
            return replace(measure, content=current)

        with cluster(scheduler, workers) as client:
            result = _with_progress(lambda cb: tune_prices(game, base, measure_for, budget=budget,
                                                           objective=objective, rounds=rounds, damping=damping,
                                                           trials=trials, seed=seed,
                                                           on_round=cb and (lambda r, n: cb(r, n, None)),
                                                           client=client, store=store),
                                    rounds, None, label="tuning rounds")
    table = result.table()
    summary = {"objective": objective, "mode": mode, "strategy": name, "budget": budget, "seed": seed,
               "trials": trials, "rounds": result.rounds, "converged": result.converged,
               "price_level": result.level, ("win_rate" if shop else "buyer_survival"): result.survival,
               "buyer": None if shop else {k: v for k, v in vars(result.buyer).items() if v not in (None, ())},
               "prices": table.to_dicts()}
    if out is not None:
        _write_tune(out, game, result, table, summary)
    if as_json:
        print(json.dumps(summary))
        return
    _print_tune(result, table, summary, out)


def _tune_pace(game, names, objective, move, games, seed, as_json, out):
    """``--objective target-finish=P``: the visa or loot prices at which a share P of games has a winner."""
    from sim.economy.pace import parse_pace_objective, tune_pace, write_paced
    from sim.run.results import manifest, write_json
    from sim.run.stalkeriada import get_stalkeriada_strategy

    target = parse_pace_objective(objective)
    players = [get_stalkeriada_strategy(n.strip()) for n in names if n.strip()]
    if not 2 <= len(players) <= 6:
        raise UsageProblem(f"--opponents: {len(players) - 1} given; Stalkeriada seats 2 to 6 players")
    with progress("bisecting the price factor") as update:
        result = tune_pace(game, players, target=target, move=move, games=games, seed=seed,
                           on_step=lambda k, n: update(k, n, f"step {k}"))
    summary = {"players": [p.strip() for p in names if p.strip()], **result.to_json()}
    if out is not None:
        write_paced(Path(game.directory), out / "content", result.prices)
        write_json(out / "manifest.json", manifest(["zonesim", *sys.argv[1:]], content_dir=str(game.directory),
                                                   content_hash=game.digest, files=["manifest.json", "content/"],
                                                   **summary))
    if as_json:
        print(json.dumps(summary))
        return
    print(f"Stalkeriada pace · target-finish={target} · {', '.join(summary['players'])} (seats rotated) · "
          f"{games:,} games per step, seed {seed}")
    scale = result.factor if move == "visa" else 1 / result.factor
    print(f"{'exit visa' if move == 'visa' else 'loot prices'} x{scale:.3f}: exit visa "
          f"{result.start['exit_visa']:,} -> {result.prices['exit_visa']:,} G, loot {result.start['loot']} -> "
          f"{result.prices['loot']} G")
    print(f"games with a winner: {result.finished:.3f} (target {target})"
          + (f" · tuned content in {out}/content" if out else ""))


def _print_tune(result, table, summary, out):
    from rich.console import Console
    from rich.table import Table

    from sim.run.tune import diff_lines

    console = Console()
    state = "converged" if result.converged else "stopped at the round cap (not converged)"
    console.print(f"Price tuning · {summary['objective']} · {summary['mode']} · {summary['strategy']} · "
                  f"{result.rounds} rounds, {state}", highlight=False)
    grid = Table()
    for col in ("item", "old G", "new G", "fair G (last round)", "95% interval"):
        grid.add_column(col, justify="left" if col == "item" else "right")
    for r in table.iter_rows(named=True):
        fair = ("", "") if r["fair_price"] is None else (
            f"{r['fair_price']:,.0f}", f"[{r['fair_low']:,.0f}, {r['fair_high']:,.0f}]")
        grid.add_row(r["item"], f"{r['old_price']:,}", f"{r['new_price']:,}", *fair)
    console.print(grid)
    if summary["buyer"] is None:
        console.print(f"{summary['strategy']} wins {result.survival:.4f} of its games at the tuned prices"
                      + (f" · price level x{result.level:.3f}" if result.level != 1 else ""), highlight=False)
    else:
        console.print(f"buyer with {summary['budget']:,} G: {summary['buyer']} · survival {result.survival:.4f}"
                      + (f" · price level x{result.level:.3f}" if result.level != 1 else ""), highlight=False)
    console.print("changes: " + ("; ".join(diff_lines(result)) or "none"))
    if out:
        console.print(f"written to {out}/ (tuned content in {out}/content)")


def _write_tune(out, game, result, table, summary):
    """tune.parquet, prices.parquet, the price chart, manifest.json and the tuned content."""
    from sim.report.charts import tune_chart
    from sim.run.results import atomic_write, manifest, write_json, write_parquet
    from sim.run.tune import price_history, write_shop_content, write_tuned_content

    history = price_history(result)
    write_parquet(out / "tune.parquet", table)
    write_parquet(out / "prices.parquet", history)
    provenance = (f"{summary['trials']:,} paired trials per item and round, seed {summary['seed']} · "
                  f"objective {summary['objective']} · {summary['mode']} ({summary['strategy']}) · budget "
                  f"{summary['budget']:,} G · content {game.digest[:12]} · prices are [A] values of items.toml")
    atomic_write(out / "charts" / "tune.png", lambda p: tune_chart(history, "Item prices across tuning rounds",
                                                                   provenance, p))
    write = write_shop_content if summary["mode"] == "stalkeriada" else write_tuned_content
    write(Path(game.directory), out / "content", result.prices)
    write_json(out / "manifest.json", manifest(
        ["zonesim", *sys.argv[1:]], content_dir=str(game.directory), content_hash=game.digest,
        files=["manifest.json", "tune.parquet", "prices.parquet", "charts/tune.png", "content/"],
        **{k: v for k, v in summary.items() if k != "prices"}))
