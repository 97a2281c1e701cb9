"""What to look at first: the report's findings, ranked, from the numbers its
steps already measured (no new simulation).

Each step hands its section the findings its numbers show (``Finding``); the
thresholds are ``[findings]`` of ``report.toml``. A finding is one sentence
with its number, its 95% interval and its context, and a link to the section
with the evidence. Its ``size`` says how far past its threshold it lies, as a
factor (a card priced 5 times its value against a threshold of 2: 2.5; a
monster that kills 80% of a tier against a threshold of 50%: 1.6); findings
rank by it within their kind, and the kinds take turns (``rank``)."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

FINDINGS_KEYS = {"price_factor": (float, 1.0), "kill_share": (float, 0.0), "finish_below": (float, 0.0),
                 "no_winner_above": (float, 0.0), "seat_gap": (float, 0.0), "never_wins_below": (float, 0.0)}
"""``[findings]`` of report.toml: each threshold and the least it may be."""


@dataclass(frozen=True)
class Finding:
    """One finding: ``kind`` (over_priced, under_priced, worth_nothing, no_use,
    deadly_monster, journey_finish, no_winner, seat_bias, matchup, dominant), what it is about, the number and its 95%
    interval, the context it was measured in, the section with the evidence,
    the sentence the report prints, and its ``size`` (past its threshold, as a factor)."""

    kind: str
    subject: str
    metric: str
    value: float
    ci95: tuple
    context: str
    section: str
    sentence: str
    size: float

    def to_json(self) -> dict:
        out = asdict(self)
        out["ci95"] = [None if v is None or (isinstance(v, float) and math.isnan(v)) else v for v in self.ci95]
        return out


def _g(v):
    return f"{v:,.0f} G"


def _pct(v):
    return f"{100 * v:.0f}%"


def suggested_price(value: float, step: int) -> int:
    """The price a card's value suggests: its value to the nearest ``step`` G, and one step at least
    (economy.toml ``[prices] step``; ``zonesim tune`` settles the whole list together)."""
    return max(step, step * round(value / step))


def price_findings(items, factor, context, section, elsewhere=None, names=None, step=25) -> list:
    """Cards whose price lies outside their value interval by more than ``factor``,
    either way, each with the price its value suggests (``suggested_price``); the cards
    worth under 1 G (the whole interval) in one finding. ``elsewhere``: ``{card: sentence}``
    said after a card's finding (what it is worth under the other objectives); ``names``:
    the cards' display names by id."""
    name = (names or {}).get
    out, nothing = [], []
    for row in items:
        if row["value_g"] is None or row["verdict"] not in ("over-priced", "under-priced"):
            continue
        low, high = row["value_g_ci95"]
        price = row["price"]
        if high < 1.0:
            nothing.append(row)
            continue
        over, under = price / high, low / price
        if over > factor:
            kind, size, how = "over_priced", over, f"over {over:,.1f}×"
        elif under > factor:
            kind, size, how = "under_priced", under, f"under {1 / under:.2f}×"
        else:
            continue
        out.append(Finding(kind, row["item"], "value_g", row["value_g"], (low, high), context, section,
                           f"**{name(row['item'], row['item'])}** is priced at {_g(price)}, {how} its value of "
                           f"{_g(row['value_g'])} [{_g(low)}, {_g(high)}]: suggested price "
                           f"**{_g(suggested_price(row['value_g'], step))}**."
                           + (f" {elsewhere[row['item']]}" if elsewhere and row["item"] in elsewhere else ""),
                           size / factor))
    if nothing:
        nothing.sort(key=lambda r: -r["price"])
        listed = ", ".join(f"{name(r['item'], r['item'])} ({_g(r['price'])})" for r in nothing)
        out.append(Finding("worth_nothing", ", ".join(r["item"] for r in nothing), "value_g", 0.0,
                           (0.0, max(r["value_g_ci95"][1] for r in nothing)), context, section,
                           f"{len(nothing)} card{'s' * (len(nothing) > 1)} worth under 1 G here, yet priced: "
                           f"**{listed}**.", nothing[0]["price"] / factor))
    return out


def no_use_finding(cards_by_context: dict, section: str, names=None) -> list:
    """Cards of no use in every context the report values them in."""
    contexts = list(cards_by_context)
    if not contexts:
        return []
    idle = set.intersection(*(set(v) for v in cards_by_context.values()))
    return [Finding("no_use", card, "verdict", 0.0, (0.0, 0.0), "every context: " + "; ".join(contexts), section,
                    f"**{(names or {}).get(card, card)}** changes nothing in any context the report values "
                    "cards in.", 1.0) for card in sorted(idle)]


def monster_findings(rows, kill_share, context, section, names=None) -> list:
    """Monsters that kill more than ``kill_share`` of a tier's stalkers (``rows``: monster, tier,
    p_survive, ci_low, ci_high; ``names``: display names by id); the monsters of one tier whose
    shares read alike are one finding."""
    name = (names or {}).get
    alike = {}
    for r in rows:
        death, low, high = 1 - r["p_survive"], 1 - r["ci_high"], 1 - r["ci_low"]
        if death > kill_share:
            alike.setdefault((r["tier"], _pct(death), _pct(low), _pct(high)), []).append((r["monster"], death, low,
                                                                                         high))
    out = []
    for (tier, *_), group in alike.items():
        monsters = [m for m, *_ in group]
        death, low, high = max(d for _, d, *_ in group), min(lo for *_, lo, _ in group), max(h for *_, h in group)
        who = _listed([f"**{name(m, m)}**" for m in monsters])
        verb = "kills" if len(monsters) == 1 else "each kill"
        out.append(Finding("deadly_monster", f"{', '.join(monsters)} vs {tier}", "p_death", death, (low, high),
                           context, section, f"A {who} {verb} {_pct(death)} [{_pct(low)}, {_pct(high)}] of "
                           f"**{tier}** stalkers in a fight to the end.", death / kill_share))
    return out


def _listed(words) -> str:
    """``a``, ``a and b``, ``a, b and c``, each after the first with its "a"."""
    words = [words[0]] + [f"a {w}" for w in words[1:]]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def journey_finding(p, low, high, finish_below, tier, context, section) -> list:
    """A journey tier that reaches the campaign's goal (Z-41) less often than ``finish_below``."""
    if p >= finish_below:
        return []
    return [Finding("journey_finish", tier, "p_complete", p, (low, high), context, section,
                    f"Only {_pct(p)} [{_pct(low)}, {_pct(high)}] of **{tier}** stalkers reach the campaign's goal.",
                    finish_below / max(p, 0.01))]


def no_winner_finding(share, low, high, mean_rounds, above, context, section, cap=None) -> list:
    """Stalkeriada games without a winner when more than ``above`` of them end that way;
    a mean length at the round cap ``cap`` is said as the cap."""
    if share <= above:
        return []
    length = (f"every game runs to the round cap of {cap:,} rounds" if cap is not None and mean_rounds >= cap
              else f"games last {mean_rounds:,.0f} rounds on average")
    return [Finding("no_winner", "Stalkeriada", "p_no_winner", share, (low, high), context, section,
                    f"**{_pct(share)}** [{_pct(low)}, {_pct(high)}] of Stalkeriada games end with no winner; "
                    f"{length}.", share / above)]


def dominant_finding(share, low, high, fair, setting, context, section) -> list:
    """A planner setting that wins clearly more than a fair share of the games that end with a winner."""
    if low <= fair:
        return []
    return [Finding("dominant", "the tuned planner", "share_of_decided_games", share, (low, high), context, section,
                    f"A **dominant planner**: tuned against the shipped settings ({setting}) he wins {_pct(share)} "
                    f"[{_pct(low)}, {_pct(high)}] of the Stalkeriada games that end with a winner, against a fair "
                    f"{_pct(fair)}.", share / fair)]


def seat_findings(rows, no_winner, gap, context, section) -> list:
    """Seats whose share of wins is off the fair share (the games with a winner over the seats) by more
    than ``gap``, beyond noise (``rows``: seat, win_rate, ci_low, ci_high)."""
    fair = (1 - no_winner) / max(len(rows), 1)
    out = []
    for r in rows:
        off = r["win_rate"] - fair
        if abs(off) > gap and not r["ci_low"] <= fair <= r["ci_high"]:
            out.append(Finding("seat_bias", f"seat {r['seat']}", "win_rate", r["win_rate"], (r["ci_low"], r["ci_high"]),
                               context, section, f"Whoever sits in **seat {r['seat']}** wins {_pct(r['win_rate'])} "
                               f"[{_pct(r['ci_low'])}, {_pct(r['ci_high'])}] of the games, against a fair "
                               f"{_pct(fair)}.", abs(off) / gap))
    return out


def matchup_findings(names, rate, low, high, never_below, context, section) -> list:
    """A strategy that beats every other beyond noise, or one that wins less than ``never_below``
    against every other (``rate[i][j]``: row i's win rate against column j)."""
    out = []
    for i, name in enumerate(names):
        others = [j for j in range(len(names)) if j != i]
        if others and all(low[i][j] > 0.5 for j in others):
            worst = min(others, key=lambda j: low[i][j])
            out.append(Finding("matchup", name, "win_rate", rate[i][worst], (low[i][worst], high[i][worst]), context,
                               section, f"**{name}** beats every other strategy head to head; its closest matchup, "
                                        f"against {names[worst]}, it wins {_pct(rate[i][worst])} "
                                        f"[{_pct(low[i][worst])}, {_pct(high[i][worst])}].",
                               low[i][worst] / 0.5))
        if others and all(high[i][j] < never_below for j in others):
            best = max(others, key=lambda j: rate[i][j])
            out.append(Finding("matchup", name, "win_rate", rate[i][best], (low[i][best], high[i][best]), context,
                               section, f"**{name}** (almost) never wins: at best {_pct(rate[i][best])} "
                                        f"[{_pct(low[i][best])}, {_pct(high[i][best])}] of its games, against "
                                        f"{names[best]}.", never_below / max(high[i][best], 1e-3)))
    return out


def rank(findings) -> list:
    """The largest finding (``Finding.size``) of each kind first, the kinds in the
    order of their largest; then the second of each kind; and so on. Sizes of one
    kind compare well; across kinds a price factor of 50 is not 30 times a monster
    that kills every stalker, so no kind crowds the others out of the top."""
    by_kind = {}
    for f in sorted(findings, key=lambda f: (-f.size, f.kind, f.subject)):
        by_kind.setdefault(f.kind, []).append(f)
    return [f for depth in range(max(map(len, by_kind.values()), default=0))
            for f in (kind[depth] for kind in by_kind.values() if depth < len(kind))]
