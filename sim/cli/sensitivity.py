"""``zonesim sensitivity``: which assumed [A] numbers a headline metric hangs on."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim import api
from sim.cli.common import ContentDir, Json, Resume, Threads, app, progress, seed_option, show
from sim.options import name_list


@app.command()
def sensitivity(
    metric: Annotated[str, typer.Option("--metric", metavar="NAME",
                                        help="journey_finish (the chance to reach the campaign's goal, journey tier of "
                                             "report.toml), fight_survival (the mean of the survival matrix, every "
                                             "monster x tier), or any one headline number of `zonesim compare`, "
                                             "e.g. journey_finish.elite, skirmish_win.hold, stalkeriada_no_winner "
                                             "(a registered mode's too).")] = "journey_finish",
    files: Annotated[str, typer.Option(metavar="FILE,FILE", help="Only the assumed numbers of these content files, "
                                                                 "e.g. monsters.toml,rules.toml (default: every "
                                                                 "file).")] = "",
    quick: Annotated[bool, typer.Option("--quick", help="The quick trial counts of report.toml.")] = False,
    seed: Annotated[Optional[int], seed_option("Seed (default: report.toml's); every swing meets the same "
                                               "dice.")] = None,
    as_json: Json = False,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write sensitivity.parquet, charts/tornado.png and "
                                                              "manifest.json here (and each measured swing, for "
                                                              "--resume).")] = None,
    resume: Resume = False,
    threads: Threads = None,
    content: ContentDir = None,
):
    """Which of my guesses matters? A tornado of the assumed [A] numbers.

    Every number a content table marks assumed (its `assumed = [...]`;
    prices aside, `zonesim tune` sets those) is swung to a low and a high
    value, one at a time, and the metric is measured on the same dice as the
    unchanged content, so each effect has a paired 95% interval. A range is
    declared beside the number, `ranges = { hp = [15, 30] }` in its table;
    without one it is one step either way for whole numbers (a die, a point,
    a round), ±25% for other numbers, false/true for flags. The table (and
    the chart) are sorted by the swing, high effect less low effect; the
    metric "hangs on" the numbers with an effect clear of 0.

    \b
    Examples:
      zonesim sensitivity --quick --files monsters.toml,rules.toml
      zonesim sensitivity --metric fight_survival --out results/tornado
      zonesim sensitivity --metric stalkeriada_no_winner --files stalkeriada.toml --json
    """
    with progress(f"sensitivity of {metric}") as update:
        result = api.sensitivity(metric=metric, files=name_list(files), quick=quick, seed=seed, threads=threads,
                                 out=out, resume=resume, content=content, on_progress=update)
    show(as_json, result.to_json, lambda: _print(result))


def _ci(ci):
    return "-" if ci[0] is None else f"[{ci[0]:+.4f}, {ci[1]:+.4f}]"


def _fx(v):
    return "-" if v is None else f"{v:+.4f}"


def _print(result):
    """The metric, then each assumed number's effect at its low and high value, largest swing first."""
    hang = result.hangs_on()
    print(f"{result.metric} = {result.base_value:.4f} on the content; effect of each assumed number at its "
          "low and high value (paired 95% intervals), largest swing first:")
    print(f"  {'file':16} {'key':40} {'low/base/high':>20}  {'at low':>8} {'interval':>20}  {'at high':>8} interval")
    for r in result.parameters:
        span = f"{r['low']}/{r['base']}/{r['high']}"
        print(f"  {r['file']:16} {r['key']:40} {span:>20}  {_fx(r['effect_low']):>8} {_ci(r['effect_low_ci95']):>20}"
              f"  {_fx(r['effect_high']):>8} {_ci(r['effect_high_ci95'])}" + (" (refused)" if "refused" in r else ""))
    names = ", ".join(f"{r['file']}: {r['key']}" for r in hang) or "none of them at these trial counts"
    print(f"\n{result.metric} hangs on {len(hang)} of {len(result.parameters)} assumed numbers: {names}.")
    print(f"seed {result.seed}, 20 paired batches; {result.elapsed_s:.0f} s")
