"""``zonesim tune``: every card at the price its value earns; or the Stalkeriada pace."""

import sys
from pathlib import Path
from typing import List, Optional

import typer

from sim.cli.common import (CONTENT_OPTION, GROUP, JSON, RESUME, SCHEDULER, THREADS, UsageProblem, WORKERS,
                            _set_threads, app, check_valued_strategies, load_checked, loadout_options, progress,
                            seed_option)
from sim.cli.economy import build_context, dump, economy_settings, is_scenario, item_list, store_for, tier_line
from sim.cli.value import SCENARIO_LOADOUT


@app.command()
@loadout_options(*SCENARIO_LOADOUT)
def tune(
    monster: List[str] = GROUP,
    objective: str = typer.Option("equal-value", help="equal-value: every card at the price its value in G earns; "
                                                      "target-finish=P (--mode stalkeriada): the exit visa's or the "
                                                      "loot's prices (--move) at which a share P of games has a "
                                                      "winner."),
    move: str = typer.Option("visa", help="target-finish: move the exit visa's price (visa) or the loot sale "
                                          "prices (loot) by one factor."),
    mode: Optional[str] = typer.Option(None, help="A scenario instead of economy.toml's campaign: fight, skirmish, "
                                                  "journey or stalkeriada (its shop prices), as in `zonesim value`."),
    strategy: List[str] = typer.Option([], metavar="NAME", help="The strategy family (repeat), as in `zonesim "
                                                                "value`."),
    budget: List[int] = typer.Option([], metavar="G", help="A budget tier (repeat; default: economy.toml's)."),
    days: int = typer.Option(30, help="Days of a campaign in --mode journey."),
    opponents: str = typer.Option("greedy,jelly,rush", metavar="NAME,NAME", help="The other players at the table "
                                                                               "in --mode stalkeriada."),
    trials: Optional[int] = typer.Option(None, help="Valuation trials per kit in a scenario (as `zonesim value`); "
                                                    "target-finish: games per seat order and step (default 2,000)."),
    selection: Optional[int] = typer.Option(None, help="Trials per kit the shopper compares in a scenario."),
    rounds: int = typer.Option(20, help="At most this many price moves."),
    damping: float = typer.Option(1.0, help="Each move takes a price this fraction of the way to its value."),
    quick: bool = typer.Option(False, "--quick", help="economy.toml's quick valuation counts throughout (without "
                                                      "it, prices settle on them first and are checked at the "
                                                      "full ones)."),
    items: str = typer.Option("", metavar="ID,ID", help="Tune only these cards (default: all)."),
    seed: Optional[int] = seed_option("Seed (default: economy.toml's).", default=None),
    as_json: bool = JSON,
    out: Optional[Path] = typer.Option(None, "--out", help="Write tune.parquet, tune_rounds.parquet, "
                                                           "charts/tune.png, manifest.json and content/: a copy of "
                                                           "the content with the tuned prices; and checkpoints of "
                                                           "every measured kit for --resume."),
    resume: bool = RESUME,
    threads: Optional[int] = THREADS,
    scheduler: Optional[str] = SCHEDULER,
    workers: Optional[int] = WORKERS,
    content: Optional[Path] = CONTENT_OPTION,
    **loadout,
):
    """Tune prices: every card at the price its value in G earns.

    Each round values every card (as `zonesim value` does, the kits bought at
    the current prices) and moves each price --damping of the way to its
    value, rounded to economy.toml's price step. It stops when the kits stay
    the same and every price lies inside its value interval, or after
    --rounds. A card of no use anywhere keeps its price. Without --quick,
    prices settle on the quick counts first, then are checked (and, if need
    be, moved) at the full ones. The tuned content is a copy to diff.

    \b
    Examples:
      zonesim tune --out results/tuned
      zonesim tune --quick --items glonass,zone_map,jetpack --json
      zonesim tune -m bloodsucker --budget 2500 --out results/tune-bloodsucker
      zonesim tune --mode stalkeriada --strategy cautious
      zonesim tune --mode stalkeriada --objective target-finish=0.5 --move loot --trials 2000
    """
    game = load_checked(content)
    if out is not None and (out / "content").exists():
        raise UsageProblem(f"--out: {out / 'content'} already exists (a finished tuning); give a new folder")
    if not 0 < damping <= 1:
        raise UsageProblem(f"--damping: {damping}; give a fraction in (0, 1]")
    if rounds < 1:
        raise UsageProblem(f"--rounds: {rounds}; give at least 1")
    if objective.startswith("target-finish"):
        return _tune_pace(game, mode, monster, loadout, strategy, opponents, objective, move, trials or 2000, seed,
                          resume, as_json, out)
    if objective != "equal-value":
        raise UsageProblem(f"--objective: '{objective}'; use equal-value, or target-finish=P in --mode stalkeriada")
    wanted = item_list(game, items, mode)
    options = dict(quick=quick, seed=seed, view=None, mode=mode, monster=monster, strategy=strategy,
                   opponents=opponents, days=days, budget=budget, trials=trials, selection=selection)
    make = build_context(game, **options, loadout=loadout)
    coarse = (None if quick or is_scenario(mode, monster, strategy, loadout, budget) else
              build_context(game, **{**options, "quick": True}, loadout=loadout))
    _set_threads(threads)
    store = store_for("tune", game, out, resume, items=wanted, loadout=loadout, rounds=rounds, damping=damping,
                      **options)
    from sim.economy.tune import tune_prices
    from sim.run.distributed import cluster

    with cluster(scheduler, workers) as client:
        ctx = make(client, store)
        rough = coarse(client, store) if coarse is not None else None
        with progress("tuning prices") as advance:
            result = tune_prices(ctx, rounds=rounds, damping=damping, items=wanted, coarse=rough,
                                 on_progress=advance)
    if store is not None:
        store.flush()
    summary = result.to_json()
    if out is not None:
        _write(out, game, ctx, result, summary)
    if as_json:
        dump(summary)
        return
    _print(result, ctx, out)


def _write(out, game, ctx, result, summary):
    """tune.parquet, tune_rounds.parquet, the price chart, the tuned content and manifest.json."""
    from sim.report.charts import tune_chart
    from sim.run.results import atomic_write, manifest, write_json, write_parquet

    history = result.history_frame()
    write_parquet(out / "tune.parquet", result.table())
    write_parquet(out / "tune_rounds.parquet", history)
    atomic_write(out / "charts" / "tune.png", lambda p: tune_chart(
        history, "Card prices across tuning rounds (toward their value in G)",
        result.values.caption(), p))
    ctx.write_prices(out / "content", result.prices, result.kits)
    write_json(out / "manifest.json", manifest(
        ["zonesim", *sys.argv[1:]], content_dir=str(game.directory), content_hash=game.digest,
        files=["manifest.json", "tune.parquet", "tune_rounds.parquet", "charts/tune.png", "content/"],
        **{k: v for k, v in summary.items() if k != "prices"}))


def _print(result, ctx, out):
    from sim.cli.economy import wide_console

    console = wide_console()
    state = ("converged: every moving price lies in its value interval, the kits held" if result.converged else
             "did not converge (a price still lies outside its value interval)")
    console.print(f"Price tuning · {result.values.caption()}", highlight=False)
    console.print(f"{len(result.history) - 1} price moves; {state} · step {ctx.price_step} G · "
                  f"{result.elapsed_s:.0f} s", highlight=False)
    for tier in result.values.tiers:
        console.print("  " + tier_line(tier), highlight=False)
        check = result.kit_check[tier.label]
        if not check["affordable"]:
            console.print(f"    at the tuned prices this kit costs {check['cost']:,} G, over the {check['budget']:,} G "
                          "budget", highlight=False)
        if check.get("clearly_better"):
            console.print(f"    at the tuned prices the shopper would buy {check['would_buy']} ({check['would_cost']:,} G):"
                          f" {check['gain']:+.3f} {tier.unit} (standard error {check['gain_se']:.3f})", highlight=False)
    rows = {r["item"]: r for r in result.values.items}
    for line in result.changes():
        item = line.split(":", 1)[0]
        low, high = rows[item]["value_g_ci95"]
        console.print(f"  {line} (value at the new prices {low:,.0f}-{high:,.0f} G)", highlight=False)
    if not result.changes():
        console.print("  no price moved", highlight=False)
    if out:
        console.print(f"written to {out}/ (the tuned content in {out}/content)", highlight=False)


def _tune_pace(game, mode, monster, loadout, strategy, opponents, objective, move, games, seed, resume, as_json,
               out):
    """``--objective target-finish=P``: the visa or loot prices at which a share P of games has a winner."""
    from sim.economy.tune import parse_pace_objective, tune_pace, write_paced
    from sim.run.results import manifest, write_json

    if (mode or "stalkeriada") != "stalkeriada" or monster or is_scenario(None, None, None, loadout, None):
        raise UsageProblem("--objective target-finish: a Stalkeriada objective; give --mode stalkeriada and no "
                           "--monster or loadout")
    if resume:
        raise UsageProblem("--resume: not for --objective target-finish (ten short bisection steps); run it again "
                           "without --resume")
    target = parse_pace_objective(objective)
    if games < 1:
        raise UsageProblem(f"--trials: {games}; give at least 1 game")
    rivals = check_valued_strategies(strategy, "stalkeriada", opponents)
    names = [*(strategy or ["cautious"]), *rivals]
    if not 2 <= len(names) <= 6:
        raise UsageProblem(f"--opponents: {len(names) - 1} given; Stalkeriada seats 2 to 6 players")
    from sim.run.stalkeriada import get_stalkeriada_strategy

    players = [get_stalkeriada_strategy(n) for n in names]
    seed = economy_settings(game, False, seed).seed
    with progress("bisecting the price factor") as update:
        result = tune_pace(game, players, target=target, move=move, games=games, seed=seed,
                           on_step=lambda k, n: update(k, n, f"step {k}"))
    summary = {"players": names, **result.to_json()}
    if out is not None:
        write_paced(Path(game.directory), out / "content", result.prices)
        write_json(out / "manifest.json", manifest(["zonesim", *sys.argv[1:]], content_dir=str(game.directory),
                                                   content_hash=game.digest, files=["manifest.json", "content/"],
                                                   **summary))
    if as_json:
        dump(summary)
        return
    print(f"Stalkeriada pace · target-finish={target} · {', '.join(names)} (seats rotated) · {games:,} games per "
          f"step, seed {seed}")
    scale = result.factor if move == "visa" else 1 / result.factor
    print(f"{'exit visa' if move == 'visa' else 'loot prices'} x{scale:.3f}: exit visa "
          f"{result.start['exit_visa']:,} -> {result.prices['exit_visa']:,} G, loot {result.start['loot']} -> "
          f"{result.prices['loot']} G")
    print(f"games with a winner: {result.finished:.3f} (target {target})"
          + (f" · tuned content in {out}/content" if out else ""))
