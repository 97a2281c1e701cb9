"""``zonesim compare``: what moved between two content sets, on the same dice."""

import json
import sys
import time
from pathlib import Path
from typing import Optional

import typer

from sim.cli.common import (JSON, RESUME, SCHEDULER, THREADS, WORKERS, UsageProblem, _check_seed, _set_threads, app,
                            run_params)
from sim.run.results import json_safe


def _seed_or_none(seed):
    """--seed: None (the content's) or a whole number >= 0."""
    return seed if seed is None else _check_seed(seed)


@app.command()
def compare(
    base: Path = typer.Argument(..., metavar="BASE", help="Content folder (or report folder) before the change."),
    new: Path = typer.Argument(..., metavar="NEW", help="Content folder (or report folder) after the change."),
    quick: bool = typer.Option(False, "--quick", help="The quick trial counts of report.toml and economy.toml."),
    seed: Optional[int] = typer.Option(None, callback=_seed_or_none, help="Seed for both sides (default: "
                                       "report.toml's); both always meet the same dice."),
    only: str = typer.Option("", metavar="GROUP,GROUP", help="Only these groups of headline numbers: fights, "
                             "journeys, skirmish, stalkeriada, economy (default: all)."),
    as_json: bool = JSON,
    out: Optional[Path] = typer.Option(None, "--out", help="Write compare.parquet, content_diff.parquet, "
                                                            "charts/compare.png and manifest.json here (and each "
                                                            "side's finished groups, for --resume)."),
    resume: bool = RESUME,
    threads: Optional[int] = THREADS,
    scheduler: Optional[str] = SCHEDULER,
    workers: Optional[int] = WORKERS,
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
    from sim.compare.diff import content_diff, resolve_content
    from sim.compare.metrics import make_plan, measure, paired
    from sim.content import load_content
    from sim.run.chunks import checkpoints
    from sim.run.distributed import cluster

    base_dir, new_dir = resolve_content(base, "BASE"), resolve_content(new, "NEW")
    base_content, new_content = load_content(base_dir), load_content(new_dir)
    if out is not None and out.exists() and not out.is_dir():
        raise UsageProblem(f"--out: {out} is a file; give a folder")
    groups = tuple(g for g in only.split(",") if g) or None
    plan = make_plan(base_content, quick=quick, seed=seed, **({"groups": groups} if groups else {}))
    store = checkpoints(out, run_params("compare", new_content, base_hash=base_content.digest, quick=quick,
                                        seed=plan.seed, groups=list(plan.groups)), resume)
    _set_threads(threads)
    start = time.perf_counter()
    diff = content_diff(base_dir, new_dir)
    with cluster(scheduler, workers) as client:
        rows = paired(measure(base_content, plan, client, store, "base"), measure(new_content, plan, client, store,
                                                                                   "new"))
    elapsed = time.perf_counter() - start
    result = {"content_diff": diff, "metrics": [_public(r) for r in rows]}
    if out is not None:
        _write(out, result, rows, plan, base_dir, new_dir, elapsed, quick)
    if as_json:
        print(json.dumps(json_safe(result)))
    else:
        _print(diff, rows, plan, elapsed)


def _public(row):
    """A metric row of the JSON contract (README)."""
    return {k: row[k] for k in ("name", "unit", "base", "new", "diff", "diff_ci95", "significant")}




def _fields(n):
    return f"{n} field{'s' * (n != 1)}"


def _fmt(value, unit):
    if value is None or value != value:
        return "-"
    return f"{value:.4f}" if unit == "p" else f"{value:,.2f}"


def _print(diff, rows, plan, elapsed):
    print(f"Content diff ({_fields(len(diff))}):")
    for d in diff:
        print(f"  {d['file']}  {d['key']}: {d['base']!r} -> {d['new']!r}")
    if not diff:
        print("  (none: the same content)")
    moved = [r for r in rows if r["significant"]]
    for title, part in ((f"Moved significantly ({len(moved)}), largest first:", moved),
                        (f"The rest ({len(rows) - len(moved)}):", [r for r in rows if not r["significant"]])):
        print(f"\n{title}")
        if part:
            print(f"  {'metric':42} {'base':>12} {'new':>12} {'diff':>12}  95% interval")
        for r in part:
            lo, hi = r["diff_ci95"]
            print(f"  {r['name']:42} {_fmt(r['base'], r['unit']):>12} {_fmt(r['new'], r['unit']):>12} "
                  f"{_fmt(r['diff'], r['unit']):>12}  [{_fmt(lo, r['unit'])}, {_fmt(hi, r['unit'])}]")
    print(f"\n{', '.join(plan.groups)} on seed {plan.seed}, 20 paired batches; {elapsed:.0f} s")


def _write(out, result, rows, plan, base_dir, new_dir, elapsed, quick):
    import polars as pl

    from sim.compare.charts import diff_chart
    from sim.run.results import atomic_write, manifest, write_json, write_parquet

    table = pl.DataFrame([{"name": r["name"], "unit": r["unit"], "base": r["base"], "new": r["new"], "diff": r["diff"],
                           "ci_low": r["diff_ci95"][0], "ci_high": r["diff_ci95"][1],
                           "significant": r["significant"], "size": r["size"]} for r in rows],
                         schema_overrides={k: pl.Float64 for k in ("base", "new", "diff", "ci_low", "ci_high")})
    write_parquet(out / "compare.parquet", table)
    diff = pl.DataFrame([{k: d[k] if k in ("file", "key") else repr(d[k]) for k in d} for d in result["content_diff"]],
                        schema={"file": pl.String, "key": pl.String, "base": pl.String, "new": pl.String})
    write_parquet(out / "content_diff.parquet", diff)
    provenance = (f"BASE {base_dir} vs NEW {new_dir} · {', '.join(plan.groups)}; seed {plan.seed}, "
                  f"{'quick' if quick else 'full'} trial counts of BASE's report.toml / economy.toml, 20 paired "
                  "batches on common dice")
    atomic_write(out / "charts" / "compare.png", lambda p: diff_chart(
        rows, f"NEW - BASE: {_fields(len(result['content_diff']))} of the content changed", provenance, p))
    write_json(out / "manifest.json", manifest(["zonesim", *sys.argv[1:]], base=str(base_dir), new=str(new_dir),
                                               seed=plan.seed, quick=quick, groups=list(plan.groups),
                                               elapsed_s=elapsed))
