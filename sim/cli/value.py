"""``zonesim value``: what each card is worth, in G."""

from pathlib import Path
from typing import List, Optional

import typer

from sim.cli.common import (CONTENT_OPTION, GROUP, JSON, RESUME, SCHEDULER, THREADS, UsageProblem, WORKERS,
                            _loadout, _set_threads, app, load_checked, loadout_options, progress, seed_option)
from sim.cli.economy import (build_context, dump, is_scenario, item_list, print_values, store_for, write_values)

SCENARIO_LOADOUT = ("character", "weapon", "mods", "head", "body", "stims", "medkits", "explosives", "escape_item",
                    "reputation", "movement", "avoidance", "one_shot")


@app.command()
@loadout_options(*SCENARIO_LOADOUT)
def value(
    monster: List[str] = GROUP,
    mode: Optional[str] = typer.Option(None, help="A scenario instead of economy.toml's campaign: fight (the "
                                                  "default with --monster) or skirmish against --monster; journey "
                                                  "campaigns of --days days; stalkeriada: a planner's win rate at a "
                                                  "table with --opponents, its shop items the cards."),
    strategy: List[str] = typer.Option([], metavar="NAME", help="The strategy family (repeat); each tier plays the "
                                       "strongest of them. Fights: fighter (default), runner, tactician, or "
                                       "strongest (every built-in and a grid of tactician settings); skirmishes: "
                                       "hold (default), kite, rush; journeys: cautious, greedy; stalkeriada: each "
                                       "planner is a tier (default cautious); or FILE.py:NAME."),
    budget: List[int] = typer.Option([], metavar="G", help="A budget tier the shopper buys a kit for (repeat; "
                                     "default: economy.toml's budgets). A loadout given instead is valued as it is."),
    days: int = typer.Option(30, help="Days of a campaign in --mode journey."),
    opponents: str = typer.Option("greedy,jelly,rush", metavar="NAME,NAME", help="The other players at the table "
                                                                               "in --mode stalkeriada."),
    trials: Optional[int] = typer.Option(None, help="Valuation trials per kit in a scenario (default: fight "
                                                    "200,000; skirmish and journey 20,000; stalkeriada 2,000 games "
                                                    "per seat order)."),
    selection: Optional[int] = typer.Option(None, help="Trials per kit the shopper compares in a scenario, on other "
                                                       "dice (default: a tenth of --trials)."),
    quick: bool = typer.Option(False, "--quick", help="economy.toml's quick valuation counts (the shopper's are the "
                                                      "same, so the kits are too)."),
    items: str = typer.Option("", metavar="ID,ID", help="Only these cards (default: all; the kits' cards are "
                                                        "measured anyway, for the rate)."),
    view: Optional[str] = typer.Option(None, metavar="VIEW", help="economy.toml's sub-view: fights, the chance to "
                                       "survive one monster encounter of the mix each tier's campaigns meet "
                                       "(Z-39 tables), fought out; default: the campaign itself."),
    synergy: bool = typer.Option(False, "--synergy", help="With a given loadout in a fight or skirmish: also "
                                                         "measure pairs that interact (the firearm's modifiers two "
                                                         "by two, Doktor with each stimulator, each escape item with "
                                                         "two more reputation): the pair's effect less its parts'."),
    pair: List[str] = typer.Option([], metavar="A,B", help="A pair to measure for --synergy (item ids, "
                                                          "character=ID or reputation=N); repeat."),
    seed: Optional[int] = seed_option("Seed (default: economy.toml's); the same seed gives the same numbers on any "
                                      "thread count or cluster.", default=None),
    as_json: bool = JSON,
    out: Optional[Path] = typer.Option(None, "--out", help="Write manifest.json, value.parquet (overall), "
                                                           "value_tiers.parquet, charts/value.png, and checkpoints "
                                                           "of every measured kit for --resume."),
    resume: bool = RESUME,
    threads: Optional[int] = THREADS,
    scheduler: Optional[str] = SCHEDULER,
    workers: Optional[int] = WORKERS,
    content: Optional[Path] = CONTENT_OPTION,
    **loadout,
):
    """What is each card worth, in G?

    A card's value is what it does, in G at one exchange rate per tier. At
    each budget tier a shopper buys a reference kit on selection trials (and
    again on other dice, to show whether the choice is stable); a card's
    effect is its paired change in the outcome on the valuation trials: in
    its slot against the kit with no card of its kind, or added to the kit.
    The tier's rate is the kit's cards' effects over their prices, and a
    value is effect over rate, with a 95% interval that carries the rate's
    noise and both kit choices. Beside it: the upgrade value (over the card
    the kit holds), the reservation price (the most the buyer would pay at
    today's prices of the others) and a verdict: under-priced, fair,
    over-priced, worth nothing here (left at home), no use here (changes
    nothing), not valued (with the reason).

    With no scenario options the context is economy.toml's: journey
    campaigns, its budget tiers and strategy family (or --view fights).

    \b
    Examples:
      zonesim value --quick
      zonesim value --items glonass,jetpack --json
      zonesim value --view fights --quick
      zonesim value -m bloodsucker --budget 1500 --budget 3000
      zonesim value -m bloodsucker --weapon ak47 --body vest --stims stimulator:1 --synergy
      zonesim value -m chimera --strategy strongest --json
      zonesim value --mode skirmish -m bloodsucker --strategy hold --strategy kite
      zonesim value --mode journey --weapon ak47 --body vest --strategy greedy
      zonesim value --mode stalkeriada --strategy cautious --strategy jelly
    """
    game = load_checked(content)
    if (synergy or pair) and not _fight_loadout(mode, loadout):
        raise UsageProblem("--synergy and --pair: give a loadout (e.g. --weapon ak47) in --mode fight or skirmish")
    wanted = item_list(game, items, mode)
    options = dict(quick=quick, seed=seed, view=view, mode=mode, monster=monster, strategy=strategy,
                   opponents=opponents, days=days, budget=budget, trials=trials, selection=selection)
    make = build_context(game, **options, loadout=loadout)
    _set_threads(threads)
    store = store_for("value", game, out, resume, items=wanted, loadout=loadout, **options)
    from sim.run.distributed import cluster
    from sim.economy.value import value_cards

    with cluster(scheduler, workers) as client:
        ctx = make(client, store)
        with progress("valuing cards") as advance:
            result = value_cards(ctx, items=wanted, on_progress=advance)
    if store is not None:
        store.flush()
    pairs = _synergy(game, ctx, loadout, pair) if (synergy or pair) else None
    summary = result.to_json()
    if pairs is not None:
        summary["synergy"] = pairs.to_dicts()
    if out is not None:
        write_values(out, game, result)
        if pairs is not None:
            from sim.run.results import write_parquet

            write_parquet(out / "synergy.parquet", pairs)
    if as_json:
        dump(summary)
        return
    print_values(result)
    if pairs is not None:
        _print_synergy(pairs)


def _fight_loadout(mode, loadout) -> bool:
    return (mode or "fight") in ("fight", "skirmish") and is_scenario(None, None, None, loadout, None)


def _synergy(game, ctx, loadout, pair):
    """The pairs' synergy with the given loadout, under the strategy its tier picked."""
    from sim.economy.synergy import synergies, synergy_pairs

    base = _loadout(game, **loadout)
    wanted = [tuple(p.split(",", 1)) for p in pair] if pair else synergy_pairs(game, base)
    if any(len(p) != 2 for p in wanted):
        raise UsageProblem("--pair: give two changes as A,B, e.g. --pair rebored,laser_sight")
    spec = ctx.tiers()[0]
    strategy = spec.choose().strategy
    measure = ctx.measure_for(strategy, ctx.groups[0])
    return synergies(game, base, measure, wanted, trials=min(ctx.trials, 200_000), seed=ctx.seed)


def _print_synergy(pairs):
    from rich.console import Console

    console = Console()
    for r in pairs.iter_rows(named=True):
        kind = ("complements" if r["log_odds_ci_low"] > 0 else "substitutes" if r["log_odds_ci_high"] < 0
                else "independent")
        console.print(f"{r['a']} + {r['b']}: together {r['value_both']:+.4f}, alone {r['value_a']:+.4f} and "
                      f"{r['value_b']:+.4f}; synergy in log-odds {r['synergy_log_odds']:+.3f} "
                      f"[{r['log_odds_ci_low']:+.3f}, {r['log_odds_ci_high']:+.3f}] ({kind}; {r['synergy']:+.4f} in "
                      "probability)", highlight=False)
