"""``zonesim tune``: every card at the price its value earns; or the Stalkeriada pace."""

from pathlib import Path
from typing import Annotated, List, Optional

import typer

from sim import api
from sim.cli.common import (ContentDir, Json, Monsters, Resume, Scheduler, Threads, Workers, app, card_options,
                            progress, seed_option, show, wide_console)
from sim.cli.economy import OPPONENTS, Days, Opponents, Weights, tier_line, weights_option
from sim.errors import UsageProblem
from sim.options import name_list


@app.command()
@card_options()
def tune(
    monster: Monsters = [],
        loadout: dict = None,
    objective: Annotated[str, typer.Option(help="equal-value: every card at the price its value in G earns; "
                                                "target-finish=P (--mode stalkeriada): the exit visa's or the "
                                                "loot's prices (--move) at which a share P of games has a "
                                                "winner.")] = "equal-value",
    move: Annotated[str, typer.Option(help="target-finish: move the exit visa's price (visa) or the loot sale "
                                           "prices (loot) by one factor.")] = "visa",
    mode: Annotated[Optional[str], typer.Option(help="A scenario instead of economy.toml's campaign: fight, "
                                                     "skirmish, journey or stalkeriada (its shop prices), as in "
                                                     "`zonesim value`.")] = None,
    strategy: Annotated[List[str], typer.Option(metavar="NAME", help="The strategy family (repeat), as in `zonesim "
                                                                     "value`.")] = [],
    budget: Annotated[List[int], typer.Option(metavar="G", help="A budget tier (repeat; default: economy.toml's)."
                                              )] = [],
    days: Days = 30,
    opponents: Opponents = OPPONENTS,
    trials: Annotated[Optional[int], typer.Option(help="Valuation trials per kit in a scenario (as `zonesim value`); "
                                                       "target-finish: games per seat order and step (default "
                                                       "2,000).")] = None,
    selection: Annotated[Optional[int], typer.Option(help="Trials per kit the shopper compares in a "
                                                          "scenario.")] = None,
    rounds: Annotated[int, typer.Option(help="At most this many price moves.")] = 12,
    damping: Annotated[float, typer.Option(help="The first move takes a price this fraction of the way to its "
                                                "value; move k takes 2/(k+2) of that.")] = 1.0,
    lock: Annotated[str, typer.Option(metavar="ID,ID", help="Cards held at their prices (beside economy.toml's "
                                                            "[prices] locked); they still count in the rate.")] = "",
    weights: Weights = "",
    quick: Annotated[bool, typer.Option("--quick", help="economy.toml's quick valuation counts throughout (without "
                                                        "it, prices settle on them first and are checked at the "
                                                        "full ones).")] = False,
    items: Annotated[str, typer.Option(metavar="ID,ID", help="Tune only these cards (default: all).")] = "",
    seed: Annotated[Optional[int], seed_option("Seed (default: economy.toml's).")] = None,
    as_json: Json = False,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write tune.parquet, tune_rounds.parquet, "
                                                              "charts/tune.png, diff.md, manifest.json and content/: "
                                                              "a copy of the content with the tuned prices; and "
                                                              "checkpoints of every measured kit for "
                                                              "--resume.")] = None,
    resume: Resume = False,
    threads: Threads = None,
    scheduler: Scheduler = None,
    workers: Workers = None,
    content: ContentDir = None,
):
    """Tune prices: every card at the price its value in G earns.

    Round 0 buys the tiers' kits at the content's prices and keeps each
    tier's rate (outcome per G): the numeraire, so a tuned price is in the
    G the content's budgets and rewards are in. Each round values every card
    at those rates; while a price lies outside its value interval, every
    price moves part of the way to its value (the mean over the tiers,
    weighted alike or by --weights), rounded to economy.toml's price step.
    After each move the shopper buys again: a kit he clearly prefers to every
    held kit is held too, and a card's tier value is the most any held kit
    values it at (its keenest buyer). It stops when every moving price lies
    inside its value interval and no buyer clearly prefers another kit, or
    after --rounds. A card of no use, whose effect interval includes 0, or
    locked (--lock, [prices] locked) keeps its price. Without --quick,
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
    scenario = dict(monsters=monster, mode=mode, strategies=strategy, opponents=name_list(opponents), seed=seed,
                    out=out, content=content, **loadout)
    if objective.startswith("target-finish"):
        if resume:
            raise UsageProblem("--resume: not for --objective target-finish (ten short bisection steps); run it "
                               "again without --resume")
        from sim.economy.tune import parse_pace_objective

        target = parse_pace_objective(objective)
        with progress("bisecting the price factor") as update:
            paced = api.pace(target, move=move, trials=trials or 2000, on_progress=update, **scenario)
        show(as_json, paced.to_json, lambda: _print_pace(paced, out))
        return
    if objective != "equal-value":
        raise UsageProblem(f"--objective: '{objective}'; use equal-value, or target-finish=P in --mode stalkeriada")
    with progress("tuning prices") as update:
        result = api.tune(items=name_list(items), budgets=budget, days=days, trials=trials, selection=selection,
                          rounds=rounds, damping=damping, lock=name_list(lock),
                          weights=weights_option(weights), quick=quick, threads=threads,
                          scheduler=scheduler, workers=workers, resume=resume, on_progress=update, **scenario)
    show(as_json, result.to_json, lambda: _print(result, out))


def _print(result, out):
    """Each tier's kit at the tuned prices, then every price moved with its value interval and its
    tiers' values, then the cards left at their prices and why."""
    from sim.economy.tune import fit_notes, held_reason, tier_fit

    console = wide_console()
    console.print(f"Price tuning · {result.values.caption()}", highlight=False)
    moves = len(result.history) - 1
    console.print(f"{moves} price move{'' if moves == 1 else 's'}; {result.state()} · step {result.context.price_step} G · "
                  f"{result.elapsed_s:.0f} s", highlight=False)
    console.print(f"  one price over the tiers, weighted {result.weights_text()}", highlight=False)
    console.print(f"  numeraire: {result.numeraire()}", highlight=False)
    for tier in result.values.tiers:
        console.print("  " + tier_line(tier, held=True), highlight=False)
        check = result.kit_check[tier.label]
        for kit in check["challengers"]:
            console.print(f"    also held (a kit the shopper clearly preferred at a round's prices): {kit}",
                          highlight=False)
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
        tiers = ", ".join(f"{t['tier']} {t['value_g']:,.0f}" for t in rows[item]["tiers"] if t["value_g"] is not None)
        notes = fit_notes(tier_fit(rows[item], result.prices[item], result.context.price_step))
        console.print(f"  {line} (value at the new prices {low:,.0f}-{high:,.0f} G; by tier {tiers})"
                      + "".join(f"; {n}" for n in notes), highlight=False)
    if not result.changes():
        console.print("  no price moved", highlight=False)
    held = {r["item"]: why for r in result.values.items if (why := held_reason(r, result.locked))}
    if held:
        console.print("  left at their prices: " + "; ".join(f"{i} ({why})" for i, why in held.items()),
                      highlight=False)
    if out:
        console.print(f"written to {out}/ (the tuned content in {out}/content, its economy.toml recording the "
                      "numeraire; the price list in diff.md)", highlight=False)


def _print_pace(result, out):
    """The factor found, the prices it gives and the share of games with a winner."""
    print(f"Stalkeriada pace · target-finish={result.target} · {', '.join(result.players)} (seats rotated) · "
          f"{result.games:,} games per step, seed {result.seed}")
    visa = result.move == "visa"
    scale = result.factor if visa else 1 / result.factor
    print(f"{'exit visa' if visa else 'loot prices'} x{scale:.3f}: exit visa {result.start['exit_visa']:,} -> "
          f"{result.prices['exit_visa']:,} G, loot {result.start['loot']} -> {result.prices['loot']} G")
    print(f"games with a winner: {result.finished:.3f} (target {result.target})"
          + (f" · tuned content in {out}/content" if out else ""))
