"""The hex-map chart: terrain, danger, bases and sites, an optional heat overlay and route.

Hexes are pointy-top in the "odd-r" offset layout of ``sim.content.maps``: odd
rows sit half a hex to the right, row 0 is drawn at the top (north up). A hex
has circumradius 1, so neighbouring centres are ``sqrt(3)`` apart.
"""

from __future__ import annotations

import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib import patheffects  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from sim.errors import ZonesimError  # noqa: E402

SQRT3 = np.sqrt(3.0)
HEX_WIDTH = SQRT3          # centre-to-centre along a row
ROW_STEP = 1.5             # centre-to-centre between rows

# Terrain fills a designer reads at a glance; unknown ids take FALLBACK_COLOURS in order.
TERRAIN_COLOURS = {
    "road": "#d8ccb0", "field": "#cde6a8", "forest": "#2f6b35", "swamp": "#3f8f9c",
    "mountains": "#8b6446", "impassable": "#1c1c1c", "epicentre": "#a020f0",
}
FALLBACK_COLOURS = ("#e0a96d", "#7fa7d6", "#c58fb8", "#9e9e9e", "#b5b35c", "#6fb7a0")
HEAT_CMAP = "YlOrRd"
HEAT_ALPHA = 0.8           # the heat hex is inset, so the terrain shows as a rim and through it
HEAT_INSET = 0.78
ROUTE_COLOUR = "#1046c9"
BASE_STYLE = dict(marker="s", markersize=11, markerfacecolor="black", markeredgecolor="white", markeredgewidth=1.6)
SITE_STYLES = {
    "artefact": dict(marker="*", markersize=17, markerfacecolor="#ffd400", markeredgecolor="black",
                     markeredgewidth=0.9),
    "anomaly": dict(marker="X", markersize=11, markerfacecolor="#ff5bd1", markeredgecolor="black",
                    markeredgewidth=0.9),
}
SITE_DEFAULT_STYLE = dict(marker="D", markersize=8, markerfacecolor="white", markeredgecolor="black")

# Pointy-top hexagon corners around (0, 0), circumradius 1.
_CORNERS = np.array([(np.cos(a), np.sin(a)) for a in np.radians(np.arange(30, 390, 60))])


def hex_centre(col, row):
    """The drawing ``(x, y)`` of hex ``(col, row)``: odd rows shifted half a hex right, y down the rows.

    ``x = sqrt(3) * (col + 0.5 * (row odd))``, ``y = -1.5 * row`` (so row 0 is at the top).
    """
    return HEX_WIDTH * (col + 0.5 * (row % 2)), -ROW_STEP * row


def _footer(fig, text):
    """Provenance line(s) under the figure, as in ``sim.report.charts``."""
    fig.text(0.01, 0.01, "\n".join(textwrap.wrap(text, 210)), fontsize=7, color="#555", va="bottom")


def terrain_colour(terrain_id, index=0):
    """The fill colour of a terrain id (a fallback from a fixed palette for ids not in ``TERRAIN_COLOURS``)."""
    return TERRAIN_COLOURS.get(terrain_id, FALLBACK_COLOURS[index % len(FALLBACK_COLOURS)])


def _luminance(rgb):
    """Relative luminance (sRGB weights, no gamma: good enough to pick black or white text)."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return 0.299 * r + 0.587 * g + 0.114 * b


def _check_heat(hexmap, heat):
    heat = np.asarray(heat, dtype=float)
    if heat.shape != (hexmap.height, hexmap.width):
        raise ZonesimError(f"heat grid is {heat.shape}, the map is {(hexmap.height, hexmap.width)} [row, col]; "
                           f"give one value per hex")
    return heat


def _label(ax, xy, text, *, bold, offset):
    """A label beside a marker on a light box, legible on every terrain colour."""
    ax.annotate(text, xy, xytext=offset, textcoords="offset points", ha="left", va="center",
                fontsize=8.5 if bold else 7, fontweight="bold" if bold else "normal", zorder=8,
                bbox=dict(boxstyle="round,pad=0.18", facecolor="white", edgecolor="#444" if bold else "none",
                          linewidth=0.6, alpha=0.88))


def draw_map(hexmap, path, *, title, provenance="", heat=None, heat_label="", route=None, show_danger=False):
    """Draw ``hexmap`` to ``path`` (PNG by its suffix): terrain, bases, sites, optional heat, route, danger.

    ``heat`` is a float array [row, col] drawn as an inset, semi-transparent hex per
    cell (zero and NaN cells left clear) with a colorbar labelled ``heat_label``;
    ``route`` is a sequence of ``(col, row)`` hexes; ``show_danger`` writes each
    non-zero danger digit in its hex. Writes only ``path``.
    """
    rows, cols = np.mgrid[0:hexmap.height, 0:hexmap.width]
    rows, cols = rows.ravel(), cols.ravel()
    cx = HEX_WIDTH * (cols + 0.5 * (rows % 2))
    cy = -ROW_STEP * rows
    centres = np.column_stack([cx, cy])
    palette = np.array([to_rgb(terrain_colour(t, i)) for i, t in enumerate(hexmap.terrain_ids)])
    fill = palette[np.asarray(hexmap.terrain).ravel()]

    fig, ax = plt.subplots(figsize=(11, 8.5))
    ax.add_collection(PolyCollection(centres[:, None, :] + _CORNERS[None], facecolors=fill,
                                     edgecolors="#5a5a5a", linewidths=0.35, zorder=1))
    shown = fill.copy()   # the colour under the danger digits, to pick their ink

    if heat is not None:
        values = _check_heat(hexmap, heat).ravel()
        hot = np.isfinite(values) & (values != 0)
        if hot.any():
            lo, hi = float(values[hot].min()), float(values[hot].max())
            lo = min(lo, 0.0) if lo >= 0 else lo
            hi = hi if hi > lo else lo + 1.0
            cells = PolyCollection(centres[hot][:, None, :] + HEAT_INSET * _CORNERS[None], cmap=HEAT_CMAP,
                                   edgecolors="none", alpha=HEAT_ALPHA, zorder=2)
            cells.set_array(values[hot])
            cells.set_clim(lo, hi)
            ax.add_collection(cells)
            rgba = cells.cmap(cells.norm(values[hot]))[:, :3]
            shown[hot] = HEAT_ALPHA * rgba + (1 - HEAT_ALPHA) * fill[hot]
            bar = fig.colorbar(cells, ax=ax, shrink=0.72, pad=0.01, fraction=0.035)
            bar.set_label(heat_label)
            bar.solids.set_alpha(HEAT_ALPHA)

    marked = {p.at for p in hexmap.bases + hexmap.sites}
    if show_danger:
        danger = np.asarray(hexmap.danger).ravel()
        dark = _luminance(shown) < 0.5
        for i in np.flatnonzero(danger):
            x, y = centres[i]
            if (cols[i], rows[i]) in marked:
                y -= 0.62          # under the marker, still inside the hex
            ax.text(x, y, str(danger[i]), ha="center", va="center", fontsize=6.5, zorder=4,
                    color="white" if dark[i] else "#222")

    handles = []
    if route is not None and len(route) > 0:
        xy = np.array([hex_centre(int(c), int(r)) for c, r in route], dtype=float)
        halo = [patheffects.Stroke(linewidth=6.5, foreground="white", alpha=0.85), patheffects.Normal()]
        ax.plot(xy[:, 0], xy[:, 1], color=ROUTE_COLOUR, linewidth=3.6, solid_capstyle="round",
                solid_joinstyle="round", zorder=5, path_effects=halo)
        ax.plot(*xy[0], marker="o", markersize=11, markerfacecolor="white", markeredgecolor=ROUTE_COLOUR,
                markeredgewidth=3, zorder=6)
        ax.plot(*xy[-1], marker="o", markersize=11, markerfacecolor=ROUTE_COLOUR, markeredgecolor="white",
                markeredgewidth=2, zorder=6)
        handles += [Line2D([], [], color=ROUTE_COLOUR, linewidth=3.6, label=f"route ({len(route) - 1} moves)"),
                    Line2D([], [], linestyle="none", marker="o", markersize=8, markerfacecolor="white",
                           markeredgecolor=ROUTE_COLOUR, markeredgewidth=2.5, label="route start"),
                    Line2D([], [], linestyle="none", marker="o", markersize=8, markerfacecolor=ROUTE_COLOUR,
                           markeredgecolor="white", markeredgewidth=1.5, label="route end")]

    for base in hexmap.bases:
        xy = hex_centre(*base.at)
        ax.plot(*xy, linestyle="none", zorder=7, **BASE_STYLE)
        _label(ax, xy, base.id, bold=True, offset=(9, 7))
    for site in hexmap.sites:
        xy = hex_centre(*site.at)
        ax.plot(*xy, linestyle="none", zorder=7, **SITE_STYLES.get(site.kind, SITE_DEFAULT_STYLE))
        _label(ax, xy, site.id, bold=False, offset=(8, 6))

    terrain = [Patch(facecolor=terrain_colour(t, i), edgecolor="#5a5a5a", linewidth=0.5,
                     label=f"{t} ({_cost(hexmap, i)})") for i, t in enumerate(hexmap.terrain_ids)]
    points = [Line2D([], [], linestyle="none", label="base", **BASE_STYLE)]
    for kind in sorted({s.kind for s in hexmap.sites}):
        style = dict(SITE_STYLES.get(kind, SITE_DEFAULT_STYLE))
        style["markersize"] *= 0.8
        points.append(Line2D([], [], linestyle="none", label=kind, **style))
    legend = ax.legend(handles=terrain + points + handles, loc="upper left", bbox_to_anchor=(1.005, 1.0),
                       fontsize=8, title="terrain (step cost)", title_fontsize=8.5, frameon=False,
                       borderaxespad=0.0, handlelength=1.8)
    legend._legend_box.align = "left"
    if show_danger:
        ax.text(1.01, 0.0, "digits: danger\nlevel 1-9 (Z-39)", transform=ax.transAxes, fontsize=7.5,
                va="bottom", color="#333")

    ax.set_xlim(-HEX_WIDTH / 2 - 0.3, HEX_WIDTH * hexmap.width + 0.3)
    ax.set_ylim(-ROW_STEP * (hexmap.height - 1) - 1.3, 1.3)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_title(title, fontsize=12)
    _footer(fig, provenance)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _cost(hexmap, index):
    """The step cost of terrain ``index`` as drawn ("5", "1-2" if it varies, "-" if unused)."""
    costs = np.unique(np.asarray(hexmap.cost)[np.asarray(hexmap.terrain) == index])
    if costs.size == 0:
        return "unused"
    text = str(costs[0]) if costs.size == 1 else f"{costs.min()}-{costs.max()}"
    return f"{text} step" + ("" if text == "1" else "s")
