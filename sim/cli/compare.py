"""``zonesim compare``: what moved between two content sets, on the same dice."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim import api
from sim.cli.common import Json, Resume, Scheduler, Threads, Workers, app, seed_option, show
from sim.compare.diff import diff_lines
from sim.options import name_list


@app.command()
def compare(
    base: Annotated[Path, typer.Argument(metavar="BASE", help="Content folder (or report folder) before the "
                                                              "change.")],
    new: Annotated[Path, typer.Argument(metavar="NEW", help="Content folder (or report folder) after the change.")],
    quick: Annotated[bool, typer.Option("--quick", help="The quick trial counts of report.toml and "
                                                        "economy.toml.")] = False,
    seed: Annotated[Optional[int], seed_option("Seed for both sides (default: report.toml's); both always meet the "
                                               "same dice.")] = None,
    only: Annotated[str, typer.Option(metavar="GROUP,GROUP", help="Only these groups of headline numbers: fights, "
                                      "journeys, skirmish, stalkeriada, economy (default: all).")] = "",
    as_json: Json = False,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write compare.parquet, content_diff.parquet, "
                                                              "charts/compare.png and manifest.json here (and each "
                                                              "side's finished groups, for --resume).")] = None,
    resume: Resume = False,
    threads: Threads = None,
    scheduler: Scheduler = None,
    workers: Workers = None,
):
    """I changed X: what moved, and is it real?

    Prints the content diff (file, key, old, new), then the report's headline
    numbers that moved significantly (the paired 95% interval of NEW - BASE
    excludes 0), largest first, then the rest. Both sides run the same trials
    on the same dice in 20 fixed batches, so a difference's interval is the
    paired one over batch differences (whole-game item values: a paired
    bootstrap), much narrower than comparing two separate runs; the same
    content twice gives exactly 0. The numbers: fight survival for every
    monster and tier, journey finish rate and days for every tier, skirmish
    win per strategy, Stalkeriada win rates, no-winner share and length, and
    every card's whole-game value in G. The study settings (tiers, trials,
    seed) are BASE's report.toml and economy.toml.

    Size: percentage points for probabilities, percent of BASE otherwise.

    \b
    Examples:
      zonesim content init mine && $EDITOR mine/monsters.toml
      zonesim compare "$(zonesim content path)" mine --quick
      zonesim compare results/report mine --only fights,journeys --json
      zonesim compare base/ new/ --out results/compare --workers 2
    """
    comparison = api.compare(base, new, quick=quick, seed=seed, only=name_list(only), threads=threads,
                             scheduler=scheduler, workers=workers, out=out, resume=resume)
    show(as_json, comparison.to_json, lambda: _print(comparison))


def _fmt(value, unit):
    if value is None or value != value:
        return "-"
    return f"{value:.4f}" if unit == "p" else f"{value:,.2f}"


def _print(comparison):
    """The content diff, then the headline numbers that moved, largest first, then the rest."""
    diff, rows, plan = comparison.content_diff, comparison.rows, comparison.plan
    print(f"Content diff ({comparison.fields_changed()}):")
    for line in diff_lines(diff, comparison.base, comparison.new):
        print(f"  {line}")
    if not diff:
        print("  (none: the same content)")
    moved = comparison.moved()
    for title, part in ((f"Moved significantly ({len(moved)}), largest first:", moved),
                        (f"The rest ({len(rows) - len(moved)}):", [r for r in rows if not r["significant"]])):
        print(f"\n{title}")
        if part:
            print(f"  {'metric':42} {'base':>12} {'new':>12} {'diff':>12}  95% interval")
        for r in part:
            lo, hi = r["diff_ci95"]
            print(f"  {r['name']:42} {_fmt(r['base'], r['unit']):>12} {_fmt(r['new'], r['unit']):>12} "
                  f"{_fmt(r['diff'], r['unit']):>12}  [{_fmt(lo, r['unit'])}, {_fmt(hi, r['unit'])}]")
    print(f"\n{', '.join(plan.groups)} on seed {plan.seed}, 20 paired batches; {comparison.elapsed_s:.0f} s")
