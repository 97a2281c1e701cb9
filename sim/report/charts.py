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


def journey_curves_chart(by_day, title: str, provenance: str, path):
    """P(all orders done), P(first order done) and P(no death yet) by day, with 95% bands."""
    fig, ax = plt.subplots(figsize=(9, 5))
    days = by_day["day"].to_numpy()
    for name, label, colour in (("p_complete", "all orders done", "#2e7d32"),
                                ("p_first_order", "first order done", "#1565c0"),
                                ("p_no_death", "no death yet", "#c62828")):
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
