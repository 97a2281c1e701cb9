"""``zonesim value``: what each item is worth, in survival and in G."""

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer

from sim.cli.common import (CONTENT_OPTION, FIGHT_LOADOUT, FIGHTS_PER_S, GAMES_PER_S, GROUP, JOURNEY_DAYS_PER_S, JSON,
                            RESUME, SCHEDULER, SEED, SKIRMISHES_PER_S, THREADS, UsageProblem, WORKERS, _loadout,
                            _scenario_title, _set_threads, app, check_trials, check_valued_strategies, load_checked,
                            loadout_options, run_params)
from sim.cli.economy import _scenario_loadout, economy_values
from sim.content.loadout import check_monsters


@app.command()
@loadout_options(*FIGHT_LOADOUT)
def value(
    monster: List[str] = GROUP,
    strategy: List[str] = typer.Option([], metavar="NAME", help="Fights: fighter (default), runner, tactician, or "
                                       "strongest (the best of those and a grid of tactician settings for this "
                                       "loadout and monster, found on common dice); skirmishes: hold (default), "
                                       "kite, rush; or FILE.py:NAME. Repeat to value the items under each."),
    mode: Optional[str] = typer.Option(None, help="fight (the default with --monster): survival in the dice fight "
                                           "(Z-15..Z-38); skirmish: survival in "
                                           "the tactical skirmish on the built-in hex arena (A-, M- rules); "
                                           "journey: the chance to finish every order in --days days on the "
                                           "default map (strategies greedy, cautious); stalkeriada: a planner "
                                           "strategy's win rate with and without each shop item (OZK, pliers, its "
                                           "nuts) against --opponents, --trials games per seat order."),
    days: int = typer.Option(30, help="Days of a campaign in --mode journey."),
    quick: bool = typer.Option(False, "--quick", help="Whole-game values: economy.toml's quick trial counts."),
    items: str = typer.Option("", metavar="ID,ID", help="Whole-game values: only these cards (default: all)."),
    view: Optional[str] = typer.Option(None, metavar="VIEW", help="Whole-game values in a sub-view of economy.toml: "
                                       "fights: the chance to survive one monster encounter of the "
                                       "mix each tier's campaigns meet (Z-39 tables), fought out; default: the "
                                       "campaign itself."),
    opponents: str = typer.Option("greedy,jelly,rush", metavar="NAME,NAME", help="The other players at the "
                                                                               "table in --mode stalkeriada."),
    synergy: bool = typer.Option(False, "--synergy", help="Also measure pairs that interact (the firearm's "
                                                         "modifiers two by two, Doktor with each stimulator, each "
                                                         "escape item with two more reputation): the pair's value "
                                                         "minus the sum of its parts."),
    pair: List[str] = typer.Option([], metavar="A,B", help="A pair to measure for --synergy (item ids, "
                                                          "character=ID or reputation=N); repeat. Default: the "
                                                          "interacting pairs."),
    trials: int = typer.Option(200_000, help="Fights per loadout (every loadout fights the same trials); with "
                                             "--target-ci, the cap."),
    target_ci: Optional[float] = typer.Option(None, help="Add trials until every value's 95% interval is narrower "
                                                         "than this."),
    seed: int = SEED,
    as_json: bool = JSON,
    out: Optional[Path] = typer.Option(None, "--out", help="Write manifest.json and value.parquet here, and "
                                                           "checkpoints of the finished pieces (a chunk of fights, an "
                                                           "item's batches; whole-game values: each valued kit) for "
                                                           "--resume."),
    resume: bool = RESUME,
    threads: Optional[int] = THREADS,
    scheduler: Optional[str] = SCHEDULER,
    workers: Optional[int] = WORKERS,
    content: Optional[Path] = CONTENT_OPTION,
    **loadout,
):
    """What is each card worth, in G?

    With no scenario options: every card over the whole-game context of the
    content's economy.toml (journey campaigns, budget tiers, the strongest
    strategy): the extra G a stalker who cannot have the card needs to do as
    well as one handed it free, with its 95% interval and a verdict.

    With a scenario (--monster, a loadout, --strategy or --mode): every item is
    added to (or swapped into) the given loadout and fights the
    same trials on the same dice, so the change in survival has a tight paired
    interval. The market's exchange rate (survival per G, a least-squares fit
    over the priced items) turns each change into a fair price with its
    interval, flagged over- or under-priced when the interval excludes the price.

    \b
    With --view fights: the same, but on the chance to
    survive one monster encounter, the monsters weighted by how often each
    tier's campaigns meet them: what a card is worth in fights alone.

    \b
    Examples:
      zonesim value --quick
      zonesim value --items glonass,jetpack --json
      zonesim value --view fights --quick
      zonesim value --monster bloodsucker --weapon ak47 --body vest --stims stimulator:1
      zonesim value -m chimera --weapon ak47 --strategy fighter --strategy runner --target-ci 0.01 --json
      zonesim value --mode skirmish -m bloodsucker --weapon ak47 --strategy hold --strategy kite
      zonesim value --mode journey --weapon ak47 --body vest --strategy greedy --trials 100000
    """
    game = load_checked(content)
    if mode is None and not monster and not strategy and not synergy and not pair and not _scenario_loadout(loadout):
        from sim.run.distributed import cluster

        with cluster(scheduler, workers) as client:
            return economy_values(game, quick=quick, seed=seed, as_json=as_json, out=out, resume=resume, items=items,
                                  view=view, client=client)
    if quick or items or view:
        raise UsageProblem("--quick, --items and --view: for whole-game values; drop the scenario options "
                           "(--monster, the loadout, --strategy, --mode) or these")
    mode = mode or "fight"
    base = _loadout(game, **loadout)
    if mode in ("fight", "skirmish"):
        check_monsters(game, monster)
    elif synergy or pair or target_ci is not None:
        raise UsageProblem("--synergy, --pair and --target-ci: measured in --mode fight or skirmish")
    if target_ci is not None and not 0 < target_ci < 1:
        raise UsageProblem(f"--target-ci: {target_ci}; give an interval width between 0 and 1, e.g. 0.01")
    if days < 1:
        raise UsageProblem(f"--days: {days}; give at least 1 day")
    per_s = {"fight": FIGHTS_PER_S, "skirmish": SKIRMISHES_PER_S, "journey": JOURNEY_DAYS_PER_S / days,
             "stalkeriada": GAMES_PER_S}
    if mode not in per_s:
        raise UsageProblem(f"--mode: '{mode}'; use fight, skirmish, journey or stalkeriada")
    check_trials("--trials", trials, per_s[mode])
    rival_names = check_valued_strategies(strategy, mode, opponents)
    _set_threads(threads)
    from sim.run.chunks import checkpoints

    store = checkpoints(out, run_params("value", game, mode=mode, loadout=base, strategy=strategy, monster=monster,
                                        opponents=rival_names, days=days, trials=trials, target_ci=target_ci,
                                        seed=seed), resume)
    import polars as pl

    from sim.run.distributed import cluster  # these compile the kernels

    with cluster(scheduler, workers) as client:
        results, measures = _mode_values(game, mode, base, strategy, monster, rival_names, days=days, trials=trials,
                                         seed=seed, target_ci=target_ci, client=client, store=store)
    table = pl.concat([r.table.with_columns(pl.lit(name).alias("strategy")) for name, r in results.items()])
    pairs = None
    if synergy or pair:
        from sim.run.value import synergies, synergy_pairs

        wanted = [tuple(p.split(",", 1)) for p in pair] if pair else synergy_pairs(game, base)
        if any(len(p) != 2 for p in wanted):
            raise UsageProblem("--pair: give two changes as A,B, e.g. --pair rebored,laser_sight")
        pairs = pl.concat([synergies(game, base, measure, wanted, trials=min(trials, 200_000), seed=seed)
                           .with_columns(pl.lit(name).alias("strategy")) for name, measure in measures.items()])
    summary = {"seed": seed, "mode": mode, "monsters": list(monster),
               "strategies": [{"strategy": name, "trials": r.trials, "base_p_survive": r.base_survival,
                               "survival_per_g": r.rate, "elapsed_s": r.elapsed_s} for name, r in results.items()],
               "items": table.to_dicts(), **({"synergy": pairs.to_dicts()} if pairs is not None else {})}
    if out is not None:
        from sim.run.results import manifest, write_json, write_parquet

        write_parquet(out / "value.parquet", table)
        if pairs is not None:
            write_parquet(out / "synergy.parquet", pairs)
        write_json(out / "manifest.json", manifest(
            ["zonesim", *sys.argv[1:]], content_dir=str(game.directory), content_hash=game.digest,
            files=["manifest.json", "value.parquet", *(["synergy.parquet"] if pairs is not None else [])],
            **{k: v for k, v in summary.items() if k != "items"}))
    if as_json:
        print(json.dumps(summary))
        return
    for name, result in results.items():
        _print_values(base, monster or [{"journey": "the Zone"}.get(mode, "Stalkeriada")], name, result, seed, mode)
    if pairs is not None:
        from rich.console import Console

        console = Console()
        for r in pairs.iter_rows(named=True):
            kind = ("complements" if r["log_odds_ci_low"] > 0 else "substitutes" if r["log_odds_ci_high"] < 0
                    else "independent")
            console.print(f"{r['strategy']}: {r['a']} + {r['b']}: together {r['value_both']:+.4f}, alone "
                          f"{r['value_a']:+.4f} and {r['value_b']:+.4f}; synergy in log-odds "
                          f"{r['synergy_log_odds']:+.3f} [{r['log_odds_ci_low']:+.3f}, {r['log_odds_ci_high']:+.3f}] "
                          f"({kind}; {r['synergy']:+.4f} in probability)", highlight=False)


def _mode_values(game, mode, base, strategy, monster, rival_names, *, days, trials, seed, target_ci, client,
                 store=None):
    """``({strategy: ValueResult}, {strategy: measure})`` of ``zonesim value`` in ``mode``
    (the measures of fight and skirmish modes, for --synergy), on the Dask ``client`` if given,
    each finished piece kept in (and on a resume read from) the checkpoint ``store`` if given."""
    from sim.run.measures import value_measures
    from sim.run.value import item_values

    if mode == "journey":
        from sim.run.journey import get_journey_strategy
        from sim.run.value import journey_values

        return {s.name: journey_values(game, base, s, days=days, trials=trials, seed=seed, client=client,
                                       store=store)
                for s in map(get_journey_strategy, strategy or ["greedy"])}, {}
    if mode == "stalkeriada":
        from sim.run.stalkeriada import get_stalkeriada_strategy
        from sim.run.value import stalkeriada_values

        rivals = [get_stalkeriada_strategy(n) for n in rival_names]
        return {s.name: stalkeriada_values(game, s, rivals, games=trials, seed=seed, client=client, store=store)
                for s in map(get_stalkeriada_strategy, strategy or ["cautious"])}, {}
    measures = value_measures(game, mode, strategy, monster, base, trials, seed)
    return {name: item_values(game, base, measure, trials=trials, seed=seed, target_ci=target_ci, client=client,
                              store=store, tag=str(k))
            for k, (name, measure) in enumerate(measures.items())}, measures


def _print_values(base, monster, name, result, seed, mode="fight"):
    """The value table of one strategy and its exchange-rate line."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    measure = {"journey": "p_complete", "stalkeriada": "win_rate"}.get(mode, "p_survive")
    console.print(f"{_scenario_title(base, monster, name)} · {measure} {result.base_survival:.4f}", highlight=False)
    table = Table()
    change = {"journey": "completion change", "stalkeriada": "win-rate change"}.get(mode, "survival change")
    for col in ("item", "extra G", change, "95% interval", "fair price G", "95% interval", "verdict"):
        table.add_column(col, justify="left" if col in ("item", "verdict") else "right")
    for r in result.table.iter_rows(named=True):
        fair = "" if r["cost_change"] <= 0 or r["fair_price"] != r["fair_price"] else \
            (f"{r['fair_price']:,.0f}", f"[{r['fair_low']:,.0f}, {r['fair_high']:,.0f}]")
        table.add_row(r["item"], f"{r['cost_change']:+,}", f"{r['value']:+.4f}",
                      f"[{r['ci_low']:+.4f}, {r['ci_high']:+.4f}]", *(fair or ("", "")), r["verdict"])
    console.print(table)
    runs = {"journey": "campaigns (20 paired batches)", "skirmish": "paired skirmishes",
            "stalkeriada": "games per seat order (20 paired batches)"}.get(mode, "paired fights")
    console.print(f"exchange rate {result.rate * 1000:.4f} {measure.removeprefix('p_')} per 1,000 G (fit through "
                  f"the origin over the priced items) · {result.trials:,} {runs} per item · seed {seed} · "
                  f"{result.elapsed_s:.1f} s")
