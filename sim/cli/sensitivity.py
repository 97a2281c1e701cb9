"""``zonesim sensitivity``: which assumed [A] numbers a headline metric hangs on."""

import json
import sys
import time
from pathlib import Path
from typing import Optional

import typer

from sim.cli.compare import _seed_or_none
from sim.cli.common import (CONTENT_OPTION, JSON, RESUME, THREADS, UsageProblem, _set_threads, app, progress,
                            run_params)


@app.command()
def sensitivity(
    metric: str = typer.Option("journey_finish", "--metric", metavar="NAME",
                               help="journey_finish (the chance to finish every order, journey tier of report.toml), "
                                    "fight_survival (the mean of the survival matrix, every monster x tier) or "
                                    "stalkeriada_no_winner (the share of games nobody wins)."),
    files: str = typer.Option("", metavar="FILE,FILE", help="Only the assumed numbers of these content files, e.g. "
                                                            "monsters.toml,rules.toml (default: every file)."),
    quick: bool = typer.Option(False, "--quick", help="The quick trial counts of report.toml."),
    seed: Optional[int] = typer.Option(None, callback=_seed_or_none, help="Seed (default: report.toml's); every "
                                       "swing meets the same dice."),
    as_json: bool = JSON,
    out: Optional[Path] = typer.Option(None, "--out", help="Write sensitivity.parquet, charts/tornado.png and "
                                                            "manifest.json here (and each measured swing, for "
                                                            "--resume)."),
    resume: bool = RESUME,
    threads: Optional[int] = THREADS,
    content: Optional[Path] = CONTENT_OPTION,
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
    from sim.compare.diff import resolve_content
    from sim.compare.metrics import make_plan
    from sim.compare.sensitivity import assumed_parameters, check_metric, hangs_on, sensitivity as run
    from sim.content import DEFAULT_DIR, load_content

    check_metric(metric)
    folder = resolve_content(content, "--content") if content is not None else DEFAULT_DIR
    game = load_content(folder)
    plan = make_plan(game, quick=quick, seed=seed, groups=("fights",))
    params = assumed_parameters(folder, [f for f in files.split(",") if f] or None)
    if out is not None and out.exists() and not out.is_dir():
        raise UsageProblem(f"--out: {out} is a file; give a folder")
    from sim.run.chunks import checkpoints

    store = checkpoints(out, run_params("sensitivity", game, metric=metric, files=files, quick=quick, seed=plan.seed),
                        resume)
    _set_threads(threads)
    start = time.perf_counter()
    with progress(f"sensitivity of {metric}") as update:
        base, rows = run(folder, plan, metric, params, on_progress=update, store=store)
    elapsed = time.perf_counter() - start
    result = {"metric": metric, "base_value": base.value, "seed": plan.seed, "parameters": rows}
    if out is not None:
        _write(out, result, plan, folder, elapsed, quick)
    if as_json:
        from sim.run.results import json_safe

        print(json.dumps(json_safe(result)))
        return
    _print(result, hangs_on(rows), elapsed)


def _ci(ci):
    return "-" if ci[0] is None else f"[{ci[0]:+.4f}, {ci[1]:+.4f}]"


def _fx(v):
    return "-" if v is None else f"{v:+.4f}"


def _print(result, hang, elapsed):
    print(f"{result['metric']} = {result['base_value']:.4f} on the content; effect of each assumed number at its "
          "low and high value (paired 95% intervals), largest swing first:")
    print(f"  {'file':16} {'key':40} {'low/base/high':>20}  {'at low':>8} {'interval':>20}  {'at high':>8} interval")
    for r in result["parameters"]:
        span = f"{r['low']}/{r['base']}/{r['high']}"
        print(f"  {r['file']:16} {r['key']:40} {span:>20}  {_fx(r['effect_low']):>8} {_ci(r['effect_low_ci95']):>20}"
              f"  {_fx(r['effect_high']):>8} {_ci(r['effect_high_ci95'])}" + (" (refused)" if "refused" in r else ""))
    names = ", ".join(f"{r['file']}: {r['key']}" for r in hang) or "none of them at these trial counts"
    print(f"\n{result['metric']} hangs on {len(hang)} of {len(result['parameters'])} assumed numbers: {names}.")
    print(f"seed {result['seed']}, 20 paired batches; {elapsed:.0f} s")


def _write(out, result, plan, folder, elapsed, quick):
    import polars as pl

    from sim.compare.charts import tornado_chart
    from sim.run.results import atomic_write, manifest, write_json, write_parquet

    rows = result["parameters"]
    f = lambda v: None if v is None else float(v)  # noqa: E731
    table = pl.DataFrame([{"file": r["file"], "key": r["key"], "base": f(r["base"]), "low": f(r["low"]),
                           "high": f(r["high"]), "effect_low": f(r["effect_low"]),
                           "effect_low_ci_low": f(r["effect_low_ci95"][0]),
                           "effect_low_ci_high": f(r["effect_low_ci95"][1]), "effect_high": f(r["effect_high"]),
                           "effect_high_ci_low": f(r["effect_high_ci95"][0]),
                           "effect_high_ci_high": f(r["effect_high_ci95"][1])} for r in rows],
                         schema_overrides={"base": pl.Float64, "low": pl.Float64, "high": pl.Float64})
    write_parquet(out / "sensitivity.parquet", table)
    provenance = (f"content {folder} · {len(rows)} assumed numbers, each swung alone; seed {plan.seed}, "
                  f"{'quick' if quick else 'full'} trial counts of report.toml in 20 paired batches on common dice")
    atomic_write(out / "charts" / "tornado.png", lambda p: tornado_chart(
        rows, result["metric"], result["base_value"], f"What {result['metric']} hangs on: the assumed numbers "
        "by swing", provenance, p))
    write_json(out / "manifest.json", manifest(["zonesim", *sys.argv[1:]], content_dir=str(folder), seed=plan.seed,
                                               quick=quick, metric=result["metric"], elapsed_s=elapsed))
