"""``zonesim report``: the whole default balance study as report.md and report.html."""

import shutil
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.cli.common import ContentDir, Scheduler, Threads, Workers, announce, announce_compile, app
from sim.checks import checked_content
from sim.options import check_out_folder, run_params, set_threads


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

    from sim.compare.baseline import report_against
    from sim.report.study import STEP_KERNELS, STEPS, first_look, load_study, run_study, write_report
    from sim.run.chunks import checkpoints
    from sim.run.distributed import cluster
    from sim.run.results import manifest, write_json
    from sim.run.warmup import Warmup

    game = checked_content(content)
    load_study(game, quick)  # a bad report.toml fails before any work
    base = _baseline(baseline)
    check_out_folder(out)
    set_threads(threads)
    store = checkpoints(out, run_params("report", game, quick=quick, baseline=base and base.digest), resume)
    start = time.perf_counter()
    console = Console(stderr=True)
    announce_compile()

    def step(k, n, label):
        bar.update(task, completed=k, step=label)
        announce(f"report step {k + 1}/{n}: {label} ({time.perf_counter() - start:.0f} s)" if k < n else
                 f"report steps done ({time.perf_counter() - start:.0f} s); writing the report")

    with Progress(TextColumn("report"), BarColumn(), TextColumn("{task.fields[step]}"), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as bar, \
            cluster(scheduler, workers) as client, Warmup(dict.fromkeys(STEP_KERNELS.values())) as warmup:
        if warmup.groups:
            announce(f"compiling the kernels of {', '.join(warmup.groups)} in a second process meanwhile")
        task = bar.add_task("report", total=len(STEPS), step="")
        sections, study = run_study(game, out, quick=quick, client=client, on_step=step, store=store,
                                    warmup=warmup)
    if base is not None:
        sections = report_against(sections, game, base, quick=quick, journey_tier=study.settings["journey_tier"],
                                  store=store)
    _save_content(game.directory, out / "content")
    elapsed = time.perf_counter() - start
    header = {"title": "zonesim balance report" + (" (quick draft)" if quick else ""),
              "intro": (f"Content: {_content_label(game)} (hash {game.digest[:12]}; a copy is in `content/`), "
                        f"seed {study.settings['seed']}, {'quick' if quick else 'full'} trial counts of report.toml "
                        "(run times are in `manifest.json`). Numbers come with 95% intervals; figures name the "
                        "assumed [A] values they rest on (`zonesim validate` lists them all).")}
    look, findings = first_look(sections, study, game.display_names())
    md, html = write_report(out, [look, *sections], header)
    write_json(out / "findings.json", [f.to_json() for f in findings])
    write_json(out / "manifest.json", manifest(
        ["zonesim", *sys.argv[1:]], content_dir=str(game.directory), content_hash=game.digest, quick=quick,
        seed=study.settings["seed"], trials=study.trials, elapsed_s=elapsed,
        steps={s.title: round(s.elapsed_s, 2) for s in sections}))
    shutil.rmtree(store.folder)  # the report is whole: its steps need no keeping
    print(f"{md} and {html} written in {elapsed:.0f} s")


def _baseline(baseline):
    """The baseline's content (checked before any work), or None."""
    if baseline is None:
        return None
    from sim.compare.diff import resolve_content
    from sim.content import load_content

    return load_content(resolve_content(baseline, "--baseline"))


def _save_content(source: Path, target: Path):
    """A copy of the content folder beside the report (a later report's --baseline)."""
    if Path(source).resolve() == target.resolve():
        return
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("*.partial"))


def _content_label(game):
    """The content folder for people: "the shipped default", or its folder name (no machine path)."""
    from sim.content import DEFAULT_DIR

    return "the shipped default" if Path(game.directory).resolve() == DEFAULT_DIR.resolve() else \
        f"`{Path(game.directory).name}`"
