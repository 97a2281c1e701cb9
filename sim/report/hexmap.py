"""The hex-map chart: terrain, danger, bases and sites, an optional heat overlay and route.

Hexes are pointy-top in the "odd-r" offset layout of ``sim.hexgrid``: odd
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
from matplotlib.colors import ListedColormap, to_rgb  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from sim import hexgrid  # noqa: E402
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
HEAT_CMAP = ListedColormap(plt.get_cmap("YlOrRd")(np.linspace(0.22, 1.0, 256)), name="heat")
HEAT_ALPHA = 0.85          # the heat hex is inset, so the terrain shows as a rim and through it
HEAT_INSET = 0.78
ROUTE_COLOUR = "#1046c9"
BASE_STYLE = dict(marker="s", markersize=11, markerfacecolor="black", markeredgecolor="white", markeredgewidth=1.6)
SITE_STYLES = {
    "artefact": dict(marker="*", markersize=15, markerfacecolor="#ffd400", markeredgecolor="black",
                     markeredgewidth=0.9),
    "anomaly": dict(marker="X", markersize=10, markerfacecolor="#ff5bd1", markeredgecolor="black",
                    markeredgewidth=0.9),
}
SITE_DEFAULT_STYLE = dict(marker="D", markersize=8, markerfacecolor="white", markeredgecolor="black")
ROUTE_START = dict(marker="o", markersize=21, markerfacecolor="none", markeredgecolor=ROUTE_COLOUR,
                   markeredgewidth=3.2)
ROUTE_END = dict(marker="h", markersize=23, markerfacecolor="none", markeredgecolor=ROUTE_COLOUR,
                 markeredgewidth=3.2)

FIG_WIDTH = 11.0           # inches; the height follows the map's shape, at most MAX_HEIGHT
MAX_HEIGHT = 8.5
LEGEND_WIDTH = 2.3         # inches right of the map for the legend
TITLE_SPACE, MARGIN, COLORBAR_SPACE = 0.5, 0.2, 0.75
MIN_WIDTH, MIN_HEIGHT = 7.0, 4.0
LEGEND_ROW = 0.215         # inches per legend entry at fontsize 8, labelspacing 0.7
MAX_INCH_PER_UNIT = 0.3    # a hex is at most about 0.5 inch across

# Pointy-top hexagon corners around (0, 0), circumradius 1.
_CORNERS = np.array([(np.cos(a), np.sin(a)) for a in np.radians(np.arange(30, 390, 60))])


def hex_centre(col, row):
    """The drawing ``(x, y)`` of hex ``(col, row)``: odd rows shifted half a hex right, y down the rows.

    ``x = sqrt(3) * (col + 0.5 * (row odd))``, ``y = -1.5 * row`` (so row 0 is at the top).
    """
    return HEX_WIDTH * hexgrid.across(row, col), -ROW_STEP * row


def terrain_colour(terrain_id, index=0):
    """The fill colour of a terrain id (a fallback from a fixed palette for ids not in ``TERRAIN_COLOURS``)."""
    return TERRAIN_COLOURS.get(terrain_id, FALLBACK_COLOURS[index % len(FALLBACK_COLOURS)])


def _luminance(rgb):
    """Relative luminance (sRGB weights, no gamma: good enough to pick black or white text)."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return 0.299 * r + 0.587 * g + 0.114 * b


def _check_heat(hexmap, heat):
    """``heat`` as a float array, which must be one value per hex [row, col]."""
    heat = np.asarray(heat, dtype=float)
    if heat.shape != (hexmap.height, hexmap.width):
        raise ZonesimError(f"heat grid is {heat.shape}, the map is {(hexmap.height, hexmap.width)} [row, col]; "
                           f"give one value per hex")
    return heat


def _label(ax, xy, text, *, bold):
    """A label half a row above a marker, on a light box: legible on every terrain colour.

    Half a row up is the band between two rows of hex centres, so the label never
    covers a danger digit (those sit on the centres).
    """
    x, y = xy
    ax.text(x, y + ROW_STEP / 2, text, ha="center", va="center", zorder=10,
            fontsize=8.5 if bold else 7, fontweight="bold" if bold else "normal",
            bbox=dict(boxstyle="round,pad=0.18", facecolor="white", edgecolor="#333" if bold else "#888",
                      linewidth=0.6 if bold else 0.4, alpha=0.9))


def _layout(hexmap, heat_bar, footer_lines, legend_entries):
    """Figure size, the map / colorbar rectangles (figure fractions) and the legend's anchor.

    A 20 x 16 map fills an 11-inch-wide figure; the height follows the map's
    shape (at most ``MAX_HEIGHT``, at least the legend's), and small maps keep
    hexes at most ``MAX_INCH_PER_UNIT`` so markers and digits stay in proportion.
    The colorbar, if any, sits just under the map.
    """
    xspan = HEX_WIDTH * (hexmap.width + 0.5) + 0.6
    yspan = ROW_STEP * (hexmap.height - 1) + 2.6
    bar = COLORBAR_SPACE if heat_bar else 0.0
    footer = 0.15 + 0.12 * footer_lines
    scale = min((FIG_WIDTH - 2 * MARGIN - LEGEND_WIDTH) / xspan, MAX_INCH_PER_UNIT,
                (MAX_HEIGHT - TITLE_SPACE - bar - footer) / yspan)
    map_w, map_h = xspan * scale, yspan * scale
    legend_h = 0.35 + LEGEND_ROW * legend_entries
    width = max(2 * MARGIN + map_w + LEGEND_WIDTH, MIN_WIDTH)
    height = max(TITLE_SPACE + map_h + bar + footer, TITLE_SPACE + legend_h + footer, MIN_HEIGHT)
    left = MARGIN + (width - 2 * MARGIN - LEGEND_WIDTH - map_w) / 2
    bottom = height - TITLE_SPACE - map_h
    map_rect = (left / width, bottom / height, map_w / width, map_h / height)
    bar_rect = ((left + 0.15 * map_w) / width, (bottom - 0.33) / height, 0.7 * map_w / width, 0.14 / height)
    legend_at = ((left + map_w + 0.15) / width, bottom / height + map_rect[3])
    return (width, height), map_rect, bar_rect, legend_at, (xspan, yspan)


def _legend_handles(hexmap, route, show_danger):
    """Terrain with step costs, point kinds, the route and the danger digits, as legend entries."""
    handles = [Patch(facecolor=terrain_colour(t, i), edgecolor="#5a5a5a", linewidth=0.5,
                     label=f"{t} ({_cost(hexmap, i)})") for i, t in enumerate(hexmap.terrain_ids)]
    if hexmap.bases:
        handles.append(Line2D([], [], linestyle="none", label="base", **BASE_STYLE))
    for kind in sorted({s.kind for s in hexmap.sites}):
        handles.append(Line2D([], [], linestyle="none", label=f"{kind} site",
                              **_smaller(SITE_STYLES.get(kind, SITE_DEFAULT_STYLE), 0.8)))
    if route is not None and len(route) > 0:
        moves = len(route) - 1
        handles += [Line2D([], [], color=ROUTE_COLOUR, linewidth=3.6,
                           label=f"route ({moves} move{'' if moves == 1 else 's'})"),
                    Line2D([], [], linestyle="none", label="route start", **_smaller(ROUTE_START, 0.5)),
                    Line2D([], [], linestyle="none", label="route end", **_smaller(ROUTE_END, 0.5))]
    if show_danger:
        handles.append(Line2D([], [], linestyle="none", marker="$5$", markersize=6, color="#222",
                              label="danger level 1-9 (Z-39)"))
    return handles


def draw_map(hexmap, path, *, title, provenance="", heat=None, heat_label="", route=None, show_danger=False):
    """Draw ``hexmap`` to ``path`` (PNG by its suffix): terrain, bases, sites, optional heat, route, danger.

    ``heat`` is a float array [row, col] drawn as an inset, semi-transparent hex per
    cell (zero and NaN cells left clear) with a colorbar labelled ``heat_label``;
    ``route`` is a sequence of ``(col, row)`` hexes, drawn through their centres;
    ``show_danger`` writes each non-zero danger digit in its hex. Writes only ``path``.
    """
    values = _check_heat(hexmap, heat).ravel() if heat is not None else None
    hot = (np.isfinite(values) & (values != 0)) if values is not None else None
    footer_text = "\n".join(textwrap.wrap(provenance, 210))
    handles = _legend_handles(hexmap, route, show_danger)
    size, map_rect, bar_rect, legend_at, (xspan, yspan) = _layout(
        hexmap, hot is not None and hot.any(), footer_text.count("\n") + 1 if footer_text else 0, len(handles))

    rows, cols = np.mgrid[0:hexmap.height, 0:hexmap.width]
    rows, cols = rows.ravel(), cols.ravel()
    centres = np.column_stack([HEX_WIDTH * hexgrid.across(rows, cols), -ROW_STEP * rows])
    palette = np.array([to_rgb(terrain_colour(t, i)) for i, t in enumerate(hexmap.terrain_ids)])
    fill = palette[np.asarray(hexmap.terrain).ravel()]

    fig = plt.figure(figsize=size)
    ax = fig.add_axes(map_rect)
    ax.add_collection(PolyCollection(centres[:, None, :] + _CORNERS[None], facecolors=fill,
                                     edgecolors="#5a5a5a", linewidths=0.35, zorder=1))
    shown = fill.copy()   # the colour under the danger digits, to pick their ink

    if hot is not None and hot.any():
        lo, hi = min(float(values[hot].min()), 0.0), float(values[hot].max())
        hi = hi if hi > lo else lo + 1.0
        cells = PolyCollection(centres[hot][:, None, :] + HEAT_INSET * _CORNERS[None], cmap=HEAT_CMAP,
                               edgecolors="none", alpha=HEAT_ALPHA, zorder=2)
        cells.set_array(values[hot])
        cells.set_clim(lo, hi)
        ax.add_collection(cells)
        shown[hot] = HEAT_ALPHA * cells.cmap(cells.norm(values[hot]))[:, :3] + (1 - HEAT_ALPHA) * fill[hot]
        bar = fig.colorbar(cells, cax=fig.add_axes(bar_rect), orientation="horizontal")
        bar.set_label(heat_label, fontsize=9)
        bar.ax.tick_params(labelsize=8)
    elif hot is not None:
        ax.text(0.0, -0.01, f"{heat_label or 'heat'}: zero everywhere", transform=ax.transAxes,
                fontsize=8, va="top", color="#333")

    marked = {p.at for p in hexmap.bases + hexmap.sites}
    if show_danger:
        danger = np.asarray(hexmap.danger).ravel()
        dark = _luminance(shown) < 0.5
        for i in np.flatnonzero(danger):
            x, y = centres[i]
            if (cols[i], rows[i]) in marked:
                x += 0.64          # beside the marker, still inside the hex
            ax.text(x, y, str(danger[i]), ha="center", va="center", fontsize=6.5, zorder=4,
                    color="white" if dark[i] else "#222")

    if route is not None and len(route) > 0:
        xy = np.array([hex_centre(int(c), int(r)) for c, r in route], dtype=float)
        halo = [patheffects.Stroke(linewidth=6.5, foreground="white", alpha=0.85), patheffects.Normal()]
        ax.plot(xy[:, 0], xy[:, 1], color=ROUTE_COLOUR, linewidth=3.6, solid_capstyle="round",
                solid_joinstyle="round", zorder=5, path_effects=halo)
        # rings around the end hexes, drawn over any base or site marker there
        ax.plot(*xy[0], linestyle="none", zorder=9, path_effects=halo, **ROUTE_START)
        ax.plot(*xy[-1], linestyle="none", zorder=9, path_effects=halo, **ROUTE_END)

    for base in hexmap.bases:
        ax.plot(*hex_centre(*base.at), linestyle="none", zorder=7, **BASE_STYLE)
        _label(ax, hex_centre(*base.at), base.id, bold=True)
    for site in hexmap.sites:
        ax.plot(*hex_centre(*site.at), linestyle="none", zorder=7, **SITE_STYLES.get(site.kind, SITE_DEFAULT_STYLE))
        _label(ax, hex_centre(*site.at), site.id, bold=False)

    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=legend_at, fontsize=8,
               title="terrain (step cost)", title_fontsize=8.5, alignment="left", frameon=False,
               borderaxespad=0.0, handlelength=1.8, labelspacing=0.7)

    x0, y0 = -HEX_WIDTH / 2 - 0.3, -ROW_STEP * (hexmap.height - 1) - 1.3
    ax.set_xlim(x0, x0 + xspan)
    ax.set_ylim(y0, y0 + yspan)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_title(title, fontsize=12)
    if footer_text:
        fig.text(0.01, 0.08 / size[1], footer_text, fontsize=7, color="#555", va="bottom")
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _smaller(style, factor):
    """A marker style scaled for the legend."""
    return {**style, "markersize": style["markersize"] * factor}


def _cost(hexmap, index):
    """The step cost of terrain ``index`` as drawn ("5", "1-2" if it varies, "-" if unused)."""
    costs = np.unique(np.asarray(hexmap.cost)[np.asarray(hexmap.terrain) == index])
    if costs.size == 0:
        return "unused"
    text = str(costs[0]) if costs.size == 1 else f"{costs.min()}-{costs.max()}"
    return f"{text} step" + ("" if text == "1" else "s")
