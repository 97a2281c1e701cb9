"""``zonesim report``: the whole default balance study as report.md and report.html."""

import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from sim import api
from sim.cli.common import ContentDir, Scheduler, Threads, Workers, announce, announce_compile, app


@app.command()
def report(
    out: Annotated[Path, typer.Option("--out", help="Folder for report.md, report.html, charts/ and the parquet "
                                                    "tables.")] = Path("results/report"),
    quick: Annotated[bool, typer.Option("--quick", help="Small trial counts ([trials] second values of report.toml): "
                                                        "a draft in about a minute.")] = False,
    baseline: Annotated[Optional[Path], typer.Option("--baseline", metavar="DIR", help="Content folder (or an "
                                                     "earlier report folder) to compare with: the report opens with "
                                                     "the content diff and each headline table gains a \"vs "
                                                     "baseline\" column (paired 95% interval on the same "
                                                     "dice).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue a killed report in the same --out folder: the "
                                                          "steps it finished are kept (in OUT/checkpoints until the "
                                                          "report is written) and only the rest run; the numbers "
                                                          "are the same as an uninterrupted run.")] = False,
    threads: Threads = None,
    scheduler: Scheduler = None,
    workers: Workers = None,
    content: ContentDir = None,
):
    """Run the default balance study and write a report a designer can share.

    Fights of every monster against the loadout tiers of report.toml (a
    survival heat map), the value of every item in survival and in G with fair
    prices and over/under-priced flags, tactical skirmishes (strategies, a
    distance and terrain sweep, item values), price tuning (the prices across
    rounds), journeys on the default map (where stalkers die) and a Stalkeriada
    round robin. Every figure names its trials, seed and the assumed [A] values
    it rests on. The content used is saved in content/ of --out, so a report
    folder can be the --baseline of the next one. With --workers or
    --scheduler the journeys, skirmishes, Stalkeriada games, item values,
    loadouts and tuning run on a Dask cluster; the numbers are the same.

    \b
    Examples:
      zonesim report
      zonesim report --quick --out results/draft
      zonesim report --content my_content/ --out results/my_report
      zonesim report --content my_content/ --baseline results/report --out results/my_report
    """
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    started = time.perf_counter()

    def step(k, n, label):
        bar.update(task, completed=k, total=n, step=label)
        announce(f"report step {k + 1}/{n}: {label} ({time.perf_counter() - started:.0f} s)" if k < n else
                 f"report steps done ({time.perf_counter() - started:.0f} s); writing the report")

    with Progress(TextColumn("report"), BarColumn(), TextColumn("{task.fields[step]}"), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("report", total=None, step="")  # the first step sets the count
        md, html, elapsed = api.report(
            out, quick=quick, baseline=baseline, resume=resume, threads=threads, scheduler=scheduler,
            workers=workers, content=content, on_start=announce_compile, on_step=step,
            on_warmup=lambda groups: announce(f"compiling the kernels of {', '.join(groups)} in a second "
                                              "process meanwhile"))
    print(f"{md} and {html} written in {elapsed:.0f} s")
