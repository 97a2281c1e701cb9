"""The whole study and the live explorer: ``zonesim report`` and ``zonesim explore``."""

import shutil
import sys
import time
from pathlib import Path


def report(out="results/report", *, quick=False, baseline=None, resume=False, threads=None, scheduler=None,
           workers=None, content=None, on_start=None, on_step=None, on_warmup=None):
    """Run the balance study of ``report.toml`` (``sim.report.study``) and write ``report.md``,
    ``report.html``, ``findings.json``, ``manifest.json``, the charts and the parquet tables in
    ``out`` (``zonesim report``); with ``baseline`` (a content or report folder) each headline
    table gains its paired change from it. ``on_step(k, n, label)`` is called as each step
    starts; ``on_warmup(groups)`` when later steps' kernels compile in a second process.
    Returns the paths of ``report.md`` and ``report.html`` and the seconds it took.

        >>> md, html, seconds = report("results/draft", quick=True)
    """
    from sim.checks import checked_content
    from sim.compare.baseline import report_against
    from sim.options import check_out_folder, run_params, set_threads
    from sim.report.study import STEP_KERNELS, first_look, load_study, run_study, write_report
    from sim.run.chunks import checkpoints
    from sim.run.distributed import cluster
    from sim.run.results import manifest, write_json
    from sim.run.warmup import Warmup

    out = Path(out)
    game = checked_content(content)
    load_study(game, quick)  # a bad report.toml fails before any work
    base = _baseline(baseline)
    check_out_folder(out)
    set_threads(threads)
    store = checkpoints(out, run_params("report", game, quick=quick, baseline=base and base.digest), resume)
    start = time.perf_counter()
    if on_start:
        on_start()
    with cluster(scheduler, workers) as client, Warmup(dict.fromkeys(STEP_KERNELS.values())) as warmup:
        if warmup.groups and on_warmup:
            on_warmup(warmup.groups)
        sections, study = run_study(game, out, quick=quick, client=client, on_step=on_step, store=store,
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
    names = game.display_names()
    look, findings = first_look(sections, study, names)
    md, html = write_report(out, [look, *sections], header, names)
    write_json(out / "findings.json", [f.to_json() for f in findings])
    write_json(out / "manifest.json", manifest(
        ["zonesim", *sys.argv[1:]], content_dir=str(game.directory), content_hash=game.digest, quick=quick,
        seed=study.settings["seed"], trials=study.trials, elapsed_s=elapsed,
        steps={s.title: round(s.elapsed_s, 2) for s in sections}))
    shutil.rmtree(store.folder)  # the report is whole: its steps need no keeping
    return md, html, elapsed


def explorer(content=None, *, draft=None, threads=None):
    """The live explorer of ``content`` (``zonesim explore``), opened on ``draft`` if given (a saved
    draft or a balance proposal); ``.start()`` starts its measuring, ``sim.explore.page.serve`` shows it.

        >>> ex = explorer(draft="results/balance/proposal-1")
    """
    from sim.explore import Explorer
    from sim.options import set_threads

    set_threads(threads)
    ex = Explorer(content, threads=threads)
    if draft is not None:
        ex.open_draft(draft)
    return ex


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
