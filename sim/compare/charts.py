"""Charts of ``compare`` (differences with their paired intervals) and
``sensitivity`` (the tornado chart)."""

import numpy as np

from sim.report.charts import plt, save_chart

UNITS = {"p": "change in probability (percentage points)", "days": "change in days", "rounds": "change in rounds",
         "G": "change in G"}


def _scaled(unit, values):
    values = np.array([np.nan if v is None else v for v in values], dtype=float)
    return values * 100 if unit == "p" else values


def diff_chart(rows, title, provenance, path, top=25):
    """One panel per unit: each metric's difference NEW - BASE with its paired 95%
    interval; significant ones (interval clear of 0) in red, at most ``top`` per panel by size."""
    units = [u for u in UNITS if any(r["unit"] == u for r in rows)]
    panels = [sorted([r for r in rows if r["unit"] == u], key=lambda r: -r["size"])[:top] for u in units]
    fig, axes = plt.subplots(len(units), 1, figsize=(10, 1.2 + sum(0.26 * len(p) + 0.8 for p in panels)),
                             gridspec_kw={"height_ratios": [len(p) + 2 for p in panels]}, squeeze=False)
    for ax, unit, panel in zip(axes[:, 0], units, panels):
        y = np.arange(len(panel))[::-1]
        diff = _scaled(unit, [r["diff"] for r in panel])
        lo = _scaled(unit, [r["diff_ci95"][0] for r in panel])
        hi = _scaled(unit, [r["diff_ci95"][1] for r in panel])
        colours = ["#c62828" if r["significant"] else "#78909c" for r in panel]
        ax.hlines(y, np.where(np.isnan(lo), diff, lo), np.where(np.isnan(hi), diff, hi), colors=colours, lw=1.5)
        ax.scatter(diff, y, c=colours, zorder=3, s=18)
        ax.axvline(0, color="#333", lw=0.8)
        ax.set_yticks(y, [r["name"] for r in panel], fontsize=7)
        ax.set_xlabel(UNITS[unit] + " · NEW - BASE, paired 95% interval", fontsize=8)
    save_chart(fig, title, provenance, path, bottom=0.05)


def tornado_chart(rows, metric, base_value, title, provenance, path, top=30):
    """Each parameter's effect on the metric at its low (blue) and high (orange)
    value, with paired 95% intervals, largest swing on top."""
    rows = rows[:top]
    y = np.arange(len(rows))[::-1]
    fig, ax = plt.subplots(figsize=(10, 1.6 + 0.3 * len(rows)))
    for key, colour, shift in (("low", "#1565c0", 0.17), ("high", "#ef6c00", -0.17)):
        eff = np.array([r[f"effect_{key}"] for r in rows], dtype=float)
        lo = np.array([r[f"effect_{key}_ci95"][0] for r in rows], dtype=float)
        hi = np.array([r[f"effect_{key}_ci95"][1] for r in rows], dtype=float)
        ax.barh(y + shift, eff, height=0.34, color=colour, label=f"at the {key} value")
        ax.errorbar(eff, y + shift, xerr=[np.nan_to_num(eff - lo), np.nan_to_num(hi - eff)], fmt="none",
                    ecolor="#333", capsize=2, lw=0.8)
    ax.axvline(0, color="#333", lw=0.8)
    ax.set_yticks(y, [f"{r['file']}: {r['key']} ({r['low']} / {r['base']} / {r['high']})" for r in rows], fontsize=7)
    ax.set_xlabel(f"change in {metric} (base {base_value:.4g}) · paired 95% interval")
    ax.legend(fontsize=8, loc="lower right")
    save_chart(fig, title, provenance, path, bottom=0.06)
