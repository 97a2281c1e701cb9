"""``zonesim balance``: proposed changes that bring the headline numbers into their bands."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim import api
from sim.cli.common import ContentDir, Json, Resume, Scheduler, Threads, Workers, app, progress, seed_option, show


@app.command()
def balance(
    targets: Annotated[Path, typer.Argument(metavar="TARGETS.toml", help="The balance file: [[target]] bands on "
                                                                          "headline numbers, [[knob]] numbers the "
                                                                          "solver may change.")],
    budget: Annotated[Optional[int], typer.Option(metavar="N", help="Candidates to measure (default: the file's "
                                                                    "[search] budget).")] = None,
    knobs: Annotated[str, typer.Option(metavar="file|auto", help="file: the balance file's [[knob]] tables; auto: "
                                                                 "those and the 20 assumed numbers whose swing "
                                                                 "moves the targets most, each screened at both "
                                                                 "ends of its swing first.")] = "file",
    quick: Annotated[bool, typer.Option("--quick", help="Measure the proposals again at the quick counts of "
                                                        "report.toml, not the full ones (the search always uses "
                                                        "the quick ones).")] = False,
    seed: Annotated[Optional[int], seed_option("Seed of the search and its dice (default: the file's); the "
                                               "proposals are measured again with seed + 1.")] = None,
    as_json: Json = False,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write balance.json, diff.md, proposal-N/content and "
                                                              "the study (study.db, for --resume) here.")] = None,
    resume: Resume = False,
    threads: Threads = None,
    scheduler: Scheduler = None,
    workers: Workers = None,
    content: ContentDir = None,
):
    """Which few numbers should I change, and to what? Proposals with the evidence.

    TARGETS.toml says what the game should feel like: each [[target]] a band
    on a headline number of `zonesim compare` (fight_survival.MONSTER.TIER,
    journey_finish.TIER, journey_days.TIER, skirmish_win.STRATEGY,
    stalkeriada_win.PLAYER, stalkeriada_no_winner, stalkeriada_rounds,
    item_value_g.CARD; * matches any part) with a weight; each [[knob]] a
    number the solver may change (an assumed [A] number by file and key, or
    a card's price) with bounds and a step.

    The search (Optuna's TPE, three objectives: distance to the bands, numbers
    changed, how far they moved) first moves every knob alone to each bound,
    then proposes; every candidate meets the baseline's dice. The proposals
    are the candidates no other beats on all three that come closer than the
    content as it is, fewest changes first, each measured again on fresh
    dice with a 95% interval per target. Candidates are proposed [search]
    batch at a time; --workers or --scheduler measures a batch side by side
    on a Dask cluster, with the same proposals.

    \b
    Examples:
      zonesim balance sim/content/default/balance.toml --budget 40 --out results/balance
      zonesim balance my_targets.toml --content my_game --quick --json
      zonesim balance my_targets.toml --out results/balance --resume
      zonesim balance my_targets.toml --workers 2
      zonesim balance my_targets.toml --knobs auto --out results/balance
    """
    with progress("balance") as update:
        result = api.balance(targets, content=content, budget=budget, quick=quick, seed=seed, out=out,
                             resume=resume, threads=threads, scheduler=scheduler, workers=workers, knobs=knobs,
                             on_progress=update)
    show(as_json, result.to_json, lambda: _print(result))


def _print(result):
    from sim.balance.files import balance_markdown

    print(balance_markdown(result), end="")
    print(f"{result.elapsed_s:.0f} s")
