"""``zonesim report --baseline DIR``: the report opens with the content diff
against the baseline, and each headline table gains a "vs baseline" column:
the paired difference (this content less the baseline, on the same dice) with
its 95% interval (``sim.compare.metrics``)."""

from __future__ import annotations

import polars as pl

from sim.report.study import Section

COLUMN = "vs baseline"


def _cell(row) -> str | None:
    """``+0.0123 [+0.0101, +0.0145]`` (``*`` when the interval excludes 0)."""
    if row is None or row["diff"] is None or row["diff"] != row["diff"]:
        return None
    lo, hi = row["diff_ci95"]
    digits = 4 if row["unit"] == "p" else 2
    interval = "" if lo is None or lo != lo else f" [{lo:+.{digits}f}, {hi:+.{digits}f}]"
    return f"{row['diff']:+.{digits}f}{interval}{' *' if row['significant'] else ''}"


def _names(frame: pl.DataFrame, caption: str, journey_tier: str):
    """The metric of each row of a headline table, or None for other tables."""
    cols = set(frame.columns)
    if caption.startswith("Every card") and "item" in cols:
        return [f"item_value_g.{i}" for i in frame["item"]]
    if {"measure", "value"} <= cols:
        return [f"journey_finish.{journey_tier}" if m == "p_complete" else None for m in frame["measure"]]
    if {"strategy", "p_survive", "mean_rounds"} <= cols:
        return [f"skirmish_win.{s}" for s in frame["strategy"]]
    if {"strategy", "mean_place", "win_rate"} <= cols:
        return [f"stalkeriada_win.{s}" for s in frame["strategy"]]
    return None


def with_baseline(sections, rows, diff, baseline, journey_tier) -> list:
    """``sections`` with the diff section first, a "vs baseline" column on the
    headline tables and the fight survival matrix against the baseline."""
    by_name = {r["name"]: r for r in rows}
    for section in sections:
        for k, block in enumerate(section.blocks):
            if block[0] != "table":
                continue
            names = _names(block[1], block[2], journey_tier)
            if names is not None:
                column = [_cell(by_name.get(n)) if n else None for n in names]
                section.blocks[k] = ("table", block[1].with_columns(pl.Series(COLUMN, column, pl.String)), block[2])
        if section.title.startswith("Fights") and any(n.startswith("fight_survival.") for n in by_name):
            matrix = [{"monster": n.split(".")[1], "tier": n.split(".")[2], "p_survive": r["new"],
                       "baseline": r["base"], COLUMN: _cell(r)} for n, r in by_name.items()
                      if n.startswith("fight_survival.")]
            section.table(pl.DataFrame(matrix), "P(survive) against the baseline, every monster and tier "
                                                "(paired on the same dice; * : the interval excludes 0)")
    head = Section("Changes from the baseline")
    moved = [r for r in rows if r["significant"]]
    head.text(f"Baseline content: {baseline}. {len(diff)} content field{'s differ' if len(diff) != 1 else ' differs'}; "
              f"{len(moved)} of {len(rows)} headline numbers moved significantly (their paired 95% interval, this "
              "content less the baseline on the same dice, excludes 0). The column \"vs baseline\" of each headline "
              "table gives that difference and interval (in the skirmish table: of P(win)); * marks the "
              "significant ones.")
    if diff:
        head.table(pl.DataFrame([{k: str(d[k]) for k in ("file", "key", "base", "new")} for d in diff]),
                   "The content diff (file, key, baseline, this content)")
    if moved:
        head.table(pl.DataFrame([{"metric": r["name"], "baseline": r["base"], "now": r["new"], COLUMN: _cell(r)}
                                 for r in moved]), "Headline numbers that moved, largest first")
    return [head, *sections]


def report_against(sections, game, base, *, quick, journey_tier, store=None) -> list:
    """``sections`` of a report on ``game`` measured against the ``base`` content: every
    headline number of both, paired on the same dice (``sim.compare.metrics``), then
    ``with_baseline``. With a checkpoint ``store`` each side's finished group is kept (--resume)."""
    from sim.compare.diff import content_diff
    from sim.compare.metrics import make_plan, measure, paired

    plan = make_plan(game, quick=quick)
    rows = paired(measure(base, plan, store=store, side="baseline"), measure(game, plan, store=store, side="new"))
    return with_baseline(sections, rows, content_diff(base.directory, game.directory), base.directory, journey_tier)
