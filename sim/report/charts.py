"""Charts a designer can show a colleague: labelled, with intervals and provenance."""

import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

OUTCOME_COLOURS = {"p_win": "#2e7d32", "p_draw": "#f9a825", "p_escape": "#1565c0",
                   "p_death": "#c62828", "p_survive": "#455a64"}


def _footer(fig, text):
    """Provenance line(s) under the figure: trials, seed, assumptions."""
    fig.text(0.01, 0.01, "\n".join(textwrap.wrap(text, 210)), fontsize=7, color="#555", va="bottom")


def fight_chart(result, title: str, provenance: str, path):
    """Outcome probabilities with 95% intervals, and histograms of HP left and rounds."""
    fig, (ax_p, ax_hp, ax_r) = plt.subplots(1, 3, figsize=(15, 4.8), gridspec_kw={"width_ratios": [1.1, 1, 1]})
    names = ["p_survive", "p_win", "p_draw", "p_escape", "p_death"]
    values = np.array([result.probabilities[n] for n in names])
    lo = np.clip(values - np.array([result.ci95[n][0] for n in names]), 0, None)
    hi = np.clip(np.array([result.ci95[n][1] for n in names]) - values, 0, None)
    bars = ax_p.bar([n[2:] for n in names], values, yerr=[lo, hi], capsize=4,
                    color=[OUTCOME_COLOURS[n] for n in names])
    for bar, v in zip(bars, values):
        ax_p.annotate(f"{v:.1%}", (bar.get_x() + bar.get_width() / 2, v), ha="center", va="bottom",
                      xytext=(0, 3), textcoords="offset points", fontsize=8)
    ax_p.set_ylim(0, 1.1)
    ax_p.set_ylabel("probability (95% interval)")
    ax_p.set_title("Outcome")
    if result.trials:
        hp = result.hp_hist[1:] / result.trials
        ax_hp.bar(np.arange(1, hp.size + 1), hp, color=OUTCOME_COLOURS["p_survive"])
        ax_hp.set_title(f"HP left when alive (mean {result.mean_hp_left:.1f})")
        ax_hp.set_xlabel("HP left")
        ax_hp.set_ylabel("share of fights")
        rounds = result.rounds_hist / result.trials
        ax_r.bar(np.arange(rounds.size), rounds, color="#6d4c41")
        ax_r.set_xlim(-0.7, max(np.flatnonzero(rounds).max(initial=0), 5) + 0.7)
        ax_r.set_title(f"Rounds fought (mean {result.mean_rounds:.2f})")
        ax_r.set_xlabel("rounds (0 = escaped)")
    else:
        for ax in (ax_hp, ax_r):
            ax.axis("off")
        ax_hp.text(0.5, 0.5, f"exact solution\nmean rounds {result.mean_rounds:.3f}\n"
                   f"mean HP left {result.mean_hp_left:.3f}", ha="center", va="center", fontsize=11)
    fig.suptitle(title, fontsize=12)
    _footer(fig, provenance)
    fig.tight_layout(rect=(0, 0.1, 1, 0.95))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def journey_curves_chart(by_day, title: str, provenance: str, path, goal_orders: int):
    """P(the goal reached), P(an order completed) and P(no stalker died) by day, with 95% bands
    (``sim.run.journey.outcome_labels``)."""
    from sim.run.journey import outcome_labels

    fig, ax = plt.subplots(figsize=(9, 5))
    days = by_day["day"].to_numpy()
    colours = {"p_complete": "#2e7d32", "p_first_order": "#1565c0", "p_no_death": "#c62828"}
    for name, label in outcome_labels(goal_orders).items():
        colour = colours[name]
        ax.plot(days, by_day[name].to_numpy(), label=label, color=colour, lw=2)
        ax.fill_between(days, by_day[name + "_lo"].to_numpy(), by_day[name + "_hi"].to_numpy(), color=colour,
                        alpha=0.2, lw=0)
    ax.set_xlim(days.min() - 0.5, days.max() + 0.5)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("day")
    ax.set_ylabel("probability (95% band)")
    ax.grid(alpha=0.3)
    ax.legend(loc="center right")
    fig.suptitle(title, fontsize=11)
    _footer(fig, provenance)
    fig.tight_layout(rect=(0, 0.07, 1, 0.95))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def save_chart(fig, title, provenance, path, bottom=0.08):
    """``fig`` with its title and provenance footer, saved as the PNG ``path`` and closed."""
    fig.suptitle(title, fontsize=12)
    _footer(fig, provenance)
    fig.tight_layout(rect=(0, bottom, 1, 0.95))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _rate_bars(ax, labels, rates, lows, highs, colour):
    """Bars of rates with 95% interval whiskers and their values written on top."""
    rates, lows, highs = (np.asarray(a, dtype=float) for a in (rates, lows, highs))
    bars = ax.bar(labels, rates, yerr=[np.clip(rates - lows, 0, None), np.clip(highs - rates, 0, None)],
                  capsize=4, color=colour)
    for bar, v in zip(bars, rates):
        ax.annotate(f"{v:.1%}", (bar.get_x() + bar.get_width() / 2, v), ha="center", va="bottom",
                    xytext=(0, 3), textcoords="offset points", fontsize=8)
    ax.set_ylim(0, max(0.05, float(np.nanmax(highs)) * 1.2))
    ax.set_ylabel("share of games (95% interval)")


def stalkeriada_wins_chart(wins, seats, title, provenance, path):
    """Win rate per strategy (and no winner) and per seat, with 95% intervals."""
    fig, (ax_w, ax_s) = plt.subplots(1, 2, figsize=(13, 4.8), gridspec_kw={"width_ratios": [1.2, 1]})
    colours = ["#2e7d32"] * (wins.height - 1) + ["#9e9e9e"]
    _rate_bars(ax_w, wins["strategy"].to_list(), wins["win_rate"], wins["ci_low"], wins["ci_high"], colours)
    ax_w.set_title("Who wins")
    _rate_bars(ax_s, [f"seat {s}" for s in seats["seat"]], seats["win_rate"], seats["ci_low"], seats["ci_high"],
               "#1565c0")
    ax_s.set_title("Win rate by seat (seat 1 moves first)")
    save_chart(fig, title, provenance, path)


def stalkeriada_games_chart(lengths, money, deaths, title, provenance, path):
    """Game length histogram, mean money by round per strategy, deaths per game by cause."""
    fig, (ax_l, ax_m, ax_d) = plt.subplots(1, 3, figsize=(16, 4.8))
    rounds, games = lengths["rounds"].to_numpy(), lengths["games"].to_numpy()
    width = max(1, int(np.ceil((rounds.max() + 1) / 60)))
    hist = np.bincount(rounds // width, weights=games)
    ax_l.bar(np.arange(hist.size) * width, hist / games.sum(), width=width, align="edge", color="#6d4c41")
    ax_l.set_xlabel(f"rounds ({width} per bar; the last bar holds games stopped at the cap)")
    ax_l.set_ylabel("share of games")
    ax_l.set_title("Game length")
    for name in money["strategy"].unique(maintain_order=True):
        part = money.filter(money["strategy"] == name)
        ax_m.plot(part["round"].to_numpy(), part["mean_money"].to_numpy(), label=name, lw=1.6)
    ax_m.set_xlabel("round")
    ax_m.set_ylabel("mean money, G (games still running)")
    ax_m.set_title("Money over time")
    ax_m.grid(alpha=0.3)
    ax_m.legend()
    names = deaths["strategy"].unique(maintain_order=True).to_list()
    causes = deaths["cause"].unique(maintain_order=True).to_list()
    x = np.arange(len(names))
    for i, cause in enumerate(causes):
        part = deaths.filter(deaths["cause"] == cause)
        v = part["per_game"].to_numpy()
        ax_d.bar(x + (i - 1) * 0.27, v, width=0.27, label=cause,
                 yerr=[v - part["ci_low"].to_numpy(), part["ci_high"].to_numpy() - v], capsize=3)
    ax_d.set_xticks(x, names)
    ax_d.set_ylabel("deaths per game (95% interval)")
    ax_d.set_title("How stalkers die")
    ax_d.legend()
    save_chart(fig, title, provenance, path)


HEAT = "cividis"
"""The heat maps' colours: safe for colour-blind readers, dark to light in one ramp."""


def ink_on(rgba) -> str:
    """Black or white text, whichever reads on a cell of colour ``rgba``."""
    red, green, blue = rgba[:3]
    return "black" if 0.299 * red + 0.587 * green + 0.114 * blue > 0.5 else "white"


def matrix_chart(matrix, names, low, high, title, provenance, path):
    """Win-rate matrix: row strategy's win rate in games with the column strategy, with its 95% interval."""
    n = len(names)
    fig, ax = plt.subplots(figsize=(2.2 + 1.5 * n, 1.4 + 1.2 * n))
    top = max(0.5, float(np.nanmax(matrix)))
    cmap = plt.get_cmap(HEAT)
    image = ax.imshow(matrix, cmap=cmap, vmin=0, vmax=top)
    for i in range(n):
        for j in range(n):
            if not np.isnan(matrix[i, j]):
                ax.text(j, i, f"{matrix[i, j]:.1%}\n[{low[i, j]:.1%}, {high[i, j]:.1%}]", ha="center",
                        va="center", fontsize=8, color=ink_on(cmap(matrix[i, j] / top)))
    ax.set_xticks(range(n), names)
    ax.set_yticks(range(n), names)
    ax.set_xlabel("against")
    ax.set_ylabel("win rate of")
    fig.colorbar(image, ax=ax, fraction=0.046, label="win rate")
    save_chart(fig, title, provenance, path, bottom=0.1)


def skirmish_chart(proportions, ap, title, provenance, path):
    """Outcome rates with 95% intervals, and where the party's AP went."""
    fig, (ax_o, ax_a) = plt.subplots(1, 2, figsize=(13, 4.8))
    colours = [OUTCOME_COLOURS.get(m, "#455a64") for m in ("p_win", "p_death", "p_draw", "p_survive")]
    _rate_bars(ax_o, [m.removeprefix("p_") for m in proportions["measure"]], proportions["value"],
               proportions["ci_low"], proportions["ci_high"], colours)
    ax_o.set_title("Outcomes (survive = every stalker alive)")
    ax_o.set_ylim(0, 1.05)
    kinds, means = ap["kind"].to_list(), np.asarray(ap["mean"], dtype=float)
    err = [np.clip(means - np.asarray(ap["ci_low"]), 0, None), np.clip(np.asarray(ap["ci_high"]) - means, 0, None)]
    ax_a.barh(kinds, means, xerr=err, capsize=3, color="#6a1b9a")
    for y, (v, share) in enumerate(zip(means, ap["share"])):
        ax_a.annotate(f"{v:.1f} ({share:.0%})", (v, y), va="center", xytext=(4, 0), textcoords="offset points",
                      fontsize=8)
    ax_a.invert_yaxis()
    ax_a.set_xlabel("AP per skirmish, whole party (95% interval)")
    ax_a.set_title("AP spending by action")
    save_chart(fig, title, provenance, path)


def skirmish_distance_chart(sweep, title, provenance, path):
    """Party survival against starting distance, one line per terrain multiplier."""
    fig, ax = plt.subplots(figsize=(9, 5))
    names = {1: "flat dry ground (1x)", 2: "rough wet ground (2x)", 3: "hummocks and mud (3x)"}
    for m, colour in zip((1, 2, 3), ("#2e7d32", "#f9a825", "#6d4c41")):
        part = sweep.filter(sweep["terrain"] == m)
        if part.height == 0:
            continue
        d = np.asarray(part["distance"])
        ax.plot(d, part["p_survive"], marker="o", color=colour, label=names[m])
        ax.fill_between(d, part["ci_low"], part["ci_high"], color=colour, alpha=0.2)
    ax.set_xlabel("starting distance between the party and the monsters (hexes)")
    ax.set_ylabel("P(every stalker survives), 95% band")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(title="every open hex of the arena")
    save_chart(fig, title, provenance, path)


def tune_chart(history, title, provenance, path):
    """Each item's price across tuning rounds (the last point: the tuned price)."""
    fig, ax = plt.subplots(figsize=(10, 5.5))
    items = sorted(set(history["item"]))
    colours = plt.cm.tab20(np.linspace(0, 1, max(1, len(items))))
    for item, colour in zip(items, colours):
        part = history.filter(history["item"] == item).sort("round")
        ax.plot(part["round"], part["price"], marker="o", ms=3, color=colour, label=item)
    ax.set_xlabel("round (the last is the tuned price)")
    ax.set_ylabel("price (G)")
    ax.set_yscale("log")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7, ncol=2, bbox_to_anchor=(1.01, 1), loc="upper left")
    save_chart(fig, title, provenance, path)


def loadouts_chart(table, steps, title, provenance, path):
    """Survival against cost of every loadout with its 95% interval, the Pareto
    front as a staircase, and the best loadout per budget step starred, numbered
    and named in a side panel."""
    fig, (ax, ax_key) = plt.subplots(1, 2, figsize=(15, 6.5), gridspec_kw={"width_ratios": [2.3, 1]})
    cost, p = table["cost"].to_numpy(), table["survival"].to_numpy()
    ax.vlines(cost, table["ci_low"].to_numpy(), table["ci_high"].to_numpy(), color="#90a4ae", lw=0.6, alpha=0.5)
    ax.scatter(cost, p, s=6, color="#78909c", alpha=0.6, label=f"every loadout ({table.height:,}), 95% interval")
    front = table.filter(table["pareto"]).sort("cost")
    ax.step(front["cost"].to_numpy(), front["survival"].to_numpy(), where="post", color="#c62828", lw=1.4)
    ax.scatter(front["cost"].to_numpy(), front["survival"].to_numpy(), s=18, color="#c62828", zorder=3,
               label=f"Pareto front ({front.height}): nothing cheaper survives as often")
    best = {}  # loadout index -> (its step rows), in budget order
    for row in steps.iter_rows(named=True):
        best.setdefault(row["index"], []).append(row)
    rows = [(r[0], r[0]["budget"], r[-1]["budget"]) for r in best.values()]
    ax.scatter([r["cost"] for r, _, _ in rows], [r["survival"] for r, _, _ in rows], s=150, marker="*",
               color="#f9a825", edgecolor="black", lw=0.6, zorder=4, label="best within a budget step (see right)")
    key = []
    for k, (row, low, high) in enumerate(rows, 1):
        ax.annotate(str(k), (row["cost"], row["survival"]), xytext=(-4, 7), textcoords="offset points", fontsize=8,
                    fontweight="bold")
        budgets = f"{low:,} G" if low == high else f"{low:,}..{high:,} G"
        lead = f"{k}. budget {budgets}: costs {row['cost']:,} G, survives {row['survival']:.2%}: "
        key.append(textwrap.fill(lead + row["description"], 60, subsequent_indent="   "))
    ax_key.axis("off")
    ax_key.text(0, 1, "\n".join(key), va="top", fontsize=7.5, family="monospace", transform=ax_key.transAxes)
    ax.set_ylim(max(0.0, float(table["ci_low"].min()) - 0.03), 1.02)
    ax.set_xlabel("loadout cost, G")
    ax.set_ylabel("P(survive) against the mix (95% interval)")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    save_chart(fig, title, provenance, path, bottom=0.13)


def survival_heatmap(frame, monsters, tiers, title, provenance, path):
    """P(survive) of every tier (columns) against every monster (rows), in %, with the
    95% interval's half-width in points where it shows at one decimal."""
    grid = np.full((len(monsters), len(tiers)), np.nan)
    half = np.zeros_like(grid)
    for row in frame.iter_rows(named=True):
        i, j = monsters.index(row["monster"]), tiers.index(row["tier"])
        grid[i, j] = row["p_survive"]
        half[i, j] = (row["ci_high"] - row["ci_low"]) / 2
    fig, ax = plt.subplots(figsize=(2 + 1.6 * len(tiers), 1.2 + 0.6 * len(monsters)))
    cmap = plt.get_cmap(HEAT)
    image = ax.imshow(grid, cmap=cmap, vmin=0, vmax=1, aspect="auto")
    for i in range(len(monsters)):
        for j in range(len(tiers)):
            spread = f"\n±{100 * half[i, j]:.1f}" if 100 * half[i, j] >= 0.05 else ""
            ax.text(j, i, f"{100 * grid[i, j]:.1f}%{spread}", ha="center", va="center", fontsize=8,
                    color=ink_on(cmap(grid[i, j])))
    ax.set_xticks(range(len(tiers)), tiers)
    ax.set_yticks(range(len(monsters)), monsters)
    ax.set_xlabel("loadout tier")
    fig.colorbar(image, ax=ax, label="P(survive)")
    save_chart(fig, title, provenance, path, bottom=0.12)


VERDICT_COLOURS = {"under-priced": "#0072b2", "over-priced": "#d55e00", "fair": "#009e73",  # Okabe-Ito
                   "worth nothing here": "#9e9e9e", "no use here": "#cfcfcf", "not valued": "#cfcfcf"}


def economy_chart(table, title, provenance, path):
    """Each card's value in G (95% interval bar) beside its price (black tick),
    one row per card, coloured by verdict; cards of no use here are greyed."""
    names = list(table["item"])
    value = np.asarray([np.nan if v is None else v for v in table["value_g"]], dtype=float)
    low = np.asarray([np.nan if v[0] is None else v[0] for v in table["value_g_ci95"]], dtype=float)
    high = np.asarray([np.nan if v[1] is None else v[1] for v in table["value_g_ci95"]], dtype=float)
    price = np.asarray(table["price"], dtype=float)
    fig, ax = plt.subplots(figsize=(11, max(4.0, 0.28 * len(names) + 1.5)))
    y = np.arange(len(names))[::-1]
    colours = [VERDICT_COLOURS.get(v, "#1565c0") for v in table["verdict"]]
    finite_high = np.where(np.isfinite(high), high, np.nanmax(np.r_[price, value[np.isfinite(value)]]) * 1.1)
    ax.barh(y, finite_high - low, left=low, height=0.55, color=colours, alpha=0.35)
    ax.scatter(value, y, color=colours, s=18, zorder=3)
    ax.scatter(price, y, marker="|", color="black", s=160, zorder=4, label="price")
    ax.set_yticks(y, names, fontsize=8)
    ax.set_xlabel("value in G (bar: 95% interval; dot: estimate)  ·  | the card's price")
    ax.grid(axis="x", alpha=0.3)
    handles = [plt.Line2D([], [], color=c, lw=6, alpha=0.5, label=v) for v, c in VERDICT_COLOURS.items()
               if v in set(table["verdict"])]
    ax.legend(handles=handles + [plt.Line2D([], [], color="black", marker="|", ls="", ms=12, label="price")],
              fontsize=8, loc="lower right")
    save_chart(fig, title, provenance, path, bottom=0.06)
