"""The files ``compare`` and ``sensitivity`` write into their ``--out`` folders:
tidy parquet tables, the difference and tornado charts, and ``manifest.json``."""

from pathlib import Path

import polars as pl

from sim.compare.charts import diff_chart, tornado_chart
from sim.run.results import atomic_write, command_line, manifest, write_json, write_parquet


def write_comparison(out: Path, comparison):
    """compare.parquet, content_diff.parquet, charts/compare.png and manifest.json."""
    rows, plan = comparison.rows, comparison.plan
    table = pl.DataFrame([{"name": r["name"], "unit": r["unit"], "base": r["base"], "new": r["new"], "diff": r["diff"],
                           "ci_low": r["diff_ci95"][0], "ci_high": r["diff_ci95"][1],
                           "significant": r["significant"], "size": r["size"]} for r in rows],
                         schema_overrides={k: pl.Float64 for k in ("base", "new", "diff", "ci_low", "ci_high")})
    write_parquet(out / "compare.parquet", table)
    diff = pl.DataFrame([{k: d[k] if k in ("file", "key") else repr(d[k]) for k in d}
                         for d in comparison.content_diff],
                        schema={"file": pl.String, "key": pl.String, "base": pl.String, "new": pl.String})
    write_parquet(out / "content_diff.parquet", diff)
    atomic_write(out / "charts" / "compare.png", lambda p: diff_chart(
        rows, f"NEW - BASE: {comparison.fields_changed()} of the content changed", comparison.provenance(), p))
    write_json(out / "manifest.json", manifest(
        command_line(), base=str(comparison.base), new=str(comparison.new), seed=plan.seed, quick=comparison.quick,
        groups=list(plan.groups), elapsed_s=comparison.elapsed_s))


def write_sensitivity(out: Path, sensitivity):
    """sensitivity.parquet, charts/tornado.png and manifest.json."""
    rows = sensitivity.parameters
    f = lambda v: None if v is None else float(v)  # noqa: E731
    table = pl.DataFrame([{"file": r["file"], "key": r["key"], "base": f(r["base"]), "low": f(r["low"]),
                           "high": f(r["high"]), "effect_low": f(r["effect_low"]),
                           "effect_low_ci_low": f(r["effect_low_ci95"][0]),
                           "effect_low_ci_high": f(r["effect_low_ci95"][1]), "effect_high": f(r["effect_high"]),
                           "effect_high_ci_low": f(r["effect_high_ci95"][0]),
                           "effect_high_ci_high": f(r["effect_high_ci95"][1])} for r in rows],
                         schema_overrides={"base": pl.Float64, "low": pl.Float64, "high": pl.Float64})
    write_parquet(out / "sensitivity.parquet", table)
    atomic_write(out / "charts" / "tornado.png", lambda p: tornado_chart(
        rows, sensitivity.metric, sensitivity.base_value, f"What {sensitivity.metric} hangs on: the assumed numbers "
        "by swing", sensitivity.provenance(), p))
    write_json(out / "manifest.json", manifest(
        command_line(), content_dir=str(sensitivity.folder), seed=sensitivity.seed, quick=sensitivity.quick,
        metric=sensitivity.metric, elapsed_s=sensitivity.elapsed_s))
