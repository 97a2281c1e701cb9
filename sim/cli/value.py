"""``zonesim value``: what each card is worth, in G."""

from pathlib import Path
from typing import Annotated, List, Optional

import typer

from sim import api
from sim.cli.common import (ContentDir, Json, Monsters, Resume, Scheduler, Threads, Workers, app, built_in,
                            card_options, progress, seed_option, show)
from sim.cli.economy import (OPPONENTS, Days, Objective, Opponents, Weights, print_objectives, print_shapley,
                             print_values, weights_option)
from sim.errors import UsageProblem
from sim.options import name_list

Mode = Annotated[Optional[str], typer.Option(help="A scenario instead of economy.toml's campaign: fight (the default "
                                                  "with --monster) or skirmish against --monster; journey campaigns "
                                                  "of --days days; stalkeriada: a planner's win rate at a table with "
                                                  "--opponents, its shop items the cards.")]


@app.command()
@card_options()
def value(
    monster: Monsters = [],
        loadout: dict = None,
    mode: Mode = None,
    strategy: Annotated[List[str], typer.Option(metavar="NAME", help="The strategy family (repeat); each tier plays "
                                                "the strongest of them. Fights: "
                                                f"{built_in('fight')} (default the first), or strongest (every "
                                                "built-in and a grid of tactician settings); skirmishes: "
                                                f"{built_in('skirmish')} (default the first); journeys: "
                                                f"{built_in('journey')}, or tuned (searched per kit and objective: sim.run.player; some "
                                                "seconds a kit); stalkeriada: each planner is a tier "
                                                "(default cautious); or FILE.py:NAME.")] = [],
    budget: Annotated[List[int], typer.Option(metavar="G", help="A budget tier the shopper buys a kit for (repeat; "
                                              "default: economy.toml's budgets). A loadout given instead is valued "
                                              "as it is.")] = [],
    days: Days = 30,
    objective: Objective = None,
    opponents: Opponents = OPPONENTS,
    trials: Annotated[Optional[int], typer.Option(help="Valuation trials per kit in a scenario (default: fight "
                                                       "200,000; skirmish and journey 20,000; stalkeriada 2,000 "
                                                       "games per seat order).")] = None,
    selection: Annotated[Optional[int], typer.Option(help="Trials per kit the shopper compares in a scenario, on "
                                                          "other dice (default: a tenth of --trials).")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="economy.toml's quick valuation counts (the shopper's are "
                                                        "the same, so the kits are too).")] = False,
    items: Annotated[str, typer.Option(metavar="ID,ID", help="Only these cards (default: all; the kits' cards are "
                                                             "measured anyway, for the rate).")] = "",
    view: Annotated[Optional[str], typer.Option(metavar="VIEW", help="economy.toml's sub-view: fights, the chance to "
                                                "survive one monster encounter of the mix each tier's campaigns meet "
                                                "(Z-39 tables), fought out; default: the campaign itself.")] = None,
    synergy: Annotated[bool, typer.Option("--synergy", help="With a given loadout in a fight or skirmish: also "
                                          "measure pairs that interact (the firearm's modifiers two by two, Doktor "
                                          "with each stimulator, each escape item with two more reputation): the "
                                          "pair's effect less its parts'.")] = False,
    by_objective: Annotated[bool, typer.Option("--by-objective", help="On campaigns: also every card's value "
                                               "under each objective of economy.toml (speed, safety, wealth, "
                                               "reputation), on the same kits and campaigns.")] = False,
    shapley: Annotated[bool, typer.Option("--shapley", help="Also share each budget tier's whole kit effect (the "
                                          "kit against no kit) among its cards by Shapley value, exact over every "
                                          "sub-kit on the same dice: what each card does with and without its "
                                          "kit-mates, summing to the whole.")] = False,
    weights: Weights = "",
    pair: Annotated[List[str], typer.Option(metavar="A,B", help="A pair to measure for --synergy (item ids, "
                                            "character=ID or reputation=N); repeat.")] = [],
    seed: Annotated[Optional[int], seed_option("Seed (default: economy.toml's); the same seed gives the same "
                                               "numbers on any thread count or cluster.")] = None,
    check: Annotated[bool, typer.Option("--check", help="Also run the economy's sanity checks on the values: twins "
                                        "worth the same, a card that does strictly more never valued clearly "
                                        "below, verdicts read from the intervals, and a second run at the next "
                                        "seed agreeing within the intervals; one line per problem, exit 1 if "
                                        "any.")] = False,
    as_json: Json = False,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write manifest.json, value.parquet (overall), "
                                                              "value_tiers.parquet, charts/value.png, and "
                                                              "checkpoints of every measured kit for "
                                                              "--resume.")] = None,
    resume: Resume = False,
    threads: Threads = None,
    scheduler: Scheduler = None,
    workers: Workers = None,
    content: ContentDir = None,
):
    """What is each card worth, in G?

    A card's value is what it does, in G at one exchange rate per tier. At
    each budget tier a shopper buys a reference kit on selection trials (and
    again on other dice, to show whether the choice is stable); a card's
    effect is its paired change in the outcome on the valuation trials: in
    its slot against the kit with no card of its kind, or, a consumable, one
    copy at the margin the kit faces (the n-th held copy against n-1). The
    tier's rate is the kit's cards' effects over their prices, every copy
    counted, and a value is effect over rate, with a 95% interval that
    carries the rate's noise and both kit choices. Beside it: the upgrade
    value (over the card the kit holds), the reservation price (the most the
    buyer would pay at today's prices of the others) and a verdict read from
    the intervals: under-priced, fair, over-priced, worth nothing here (its
    effect interval at or below 0), no use here (its effect interval holds
    0, or its value lies under half a price step), not valued (with the
    reason). Twins (alike but for name, price and deck count) are measured
    once and read at each one's price.

    With no scenario options the context is economy.toml's: journey
    campaigns, its budget tiers and strategy family (or --view fights).

    \b
    Examples:
      zonesim value --quick
      zonesim value --quick --check --content my-content
      zonesim value --quick --objective wealth
      zonesim value --quick --by-objective
      zonesim value --items glonass,jetpack --json
      zonesim value --view fights --quick
      zonesim value -m bloodsucker --budget 1500 --budget 3000
      zonesim value -m bloodsucker --weapon ak47 --body vest --stims stimulator:1 --synergy
      zonesim value -m chimera --strategy strongest --json
      zonesim value --mode skirmish -m bloodsucker --strategy hold --strategy kite
      zonesim value --mode journey --weapon ak47 --body vest --strategy greedy
      zonesim value --mode stalkeriada --strategy cautious --strategy jelly
    """
    options = dict(items=name_list(items), monsters=monster, mode=mode, strategies=strategy, budgets=budget,
                   days=days, opponents=name_list(opponents), trials=trials, selection=selection, quick=quick,
                   view=view, objective=objective, weights=weights_option(weights), threads=threads, scheduler=scheduler, workers=workers,
                   content=content, **loadout)
    with progress("valuing cards") as update:
        result = api.value(synergy=synergy, pairs=_pairs(pair), seed=seed, by_objective=by_objective,
                           shapley=shapley, out=out, resume=resume, on_progress=update, **options)
    if not check:
        show(as_json, result.to_json, lambda: _print(result))
        return
    with progress("valuing again at the next seed") as update:
        again = api.value(seed=result.context.seed + 1, on_progress=update, **options)
    problems = api.economy_check(result, again)
    show(as_json, lambda: {**result.to_json(), "check": {"problems": problems, "seeds": [result.context.seed,
                                                                                         again.context.seed]}},
         lambda: _print_check(result, problems, again.context.seed))
    if problems:
        raise typer.Exit(1)


def _print(result):
    """The value tables, each objective's values and each pair's synergy if asked for."""
    print_values(result)
    if result.by_objective is not None:
        print_objectives(result)
    if result.shapley is not None:
        print_shapley(result)
    if result.synergy is not None:
        _print_synergy(result.synergy)


def _print_check(result, problems, other_seed):
    """The value tables, then one line per broken property and a count."""
    _print(result)
    print(f"economy check (seeds {result.context.seed} and {other_seed}):")
    for line in problems:
        print(f"  {line}")
    print(f"economy check: {len(problems)} problem{'' if len(problems) == 1 else 's'}")


def _pairs(texts) -> list:
    """``--pair A,B`` as ``(A, B)``."""
    found = [tuple(text.split(",", 1)) for text in texts]
    if any(len(p) != 2 for p in found):
        raise UsageProblem("--pair: give two changes as A,B, e.g. --pair rebored,laser_sight")
    return found


def _print_synergy(frame):
    """Each pair: its effect together and alone, and the synergy with its interval."""
    from rich.console import Console

    console = Console()
    for r in frame.iter_rows(named=True):
        kind = ("complements" if r["log_odds_ci_low"] > 0 else "substitutes" if r["log_odds_ci_high"] < 0
                else "independent")
        console.print(f"{r['a']} + {r['b']}: together {r['value_both']:+.4f}, alone {r['value_a']:+.4f} and "
                      f"{r['value_b']:+.4f}; synergy in log-odds {r['synergy_log_odds']:+.3f} "
                      f"[{r['log_odds_ci_low']:+.3f}, {r['log_odds_ci_high']:+.3f}] ({kind}; {r['synergy']:+.4f} in "
                      "probability)", highlight=False)
