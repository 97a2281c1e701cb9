"""The explorer's numbers as HTML: every value with its 95% interval, its
difference from the baseline with the paired 95% interval, and a sign saying
whether the move is clear of the noise (the interval excludes 0). Each cell
carries its numbers as ``data-*`` attributes for scripts and tests."""

from __future__ import annotations

import html
import math

from sim.explore.schedule import stage_label

TRIALS = {"fights": "fights per cell", "journeys": "campaigns per tier", "skirmish": "skirmishes per strategy",
          "stalkeriada": "games (every seat order)", "values": "paired fights per kit"}


def finite(x) -> bool:
    return x is not None and isinstance(x, (int, float)) and math.isfinite(x)


def value_text(unit: str, x) -> str:
    """``61.23%``, ``12.34 days``, ``45.6 rounds``, ``1,234 G``; ``–`` when undefined."""
    if not finite(x):
        return "–"
    if unit == "p":
        return f"{100 * x:.{percent_digits(x)}f}%"
    if unit == "G":
        return f"{x:,.0f} G"
    return f"{x:,.2f} {unit}"


def percent_digits(p: float) -> int:
    """Decimals enough to tell a probability from 0 or 1 in percent (``99.998%``, not ``100.00%``)."""
    digits = 2
    while digits < 5 and 0 < p < 1 and round(100 * p, digits) in (0.0, 100.0):
        digits += 1
    return digits


def diff_text(unit: str, d) -> str:
    """A difference: ``−3.79 pp`` (percentage points), ``+0.52 days``, ``+120 G``."""
    if not finite(d):
        return "–"
    sign = "+" if d > 0 else "−" if d < 0 else ""
    a = abs(d)
    if unit == "p":
        return f"{sign}{100 * a:.2f} pp" if 100 * a >= 0.1 or a == 0 else f"{sign}{100 * a:.2g} pp"
    if unit == "G":
        return f"{sign}{a:,.0f} G"
    return f"{sign}{a:,.2f} {unit}"


def interval_text(unit: str, lo, hi, diff=False) -> str:
    """``95% CI 61.01 to 61.45%``, ``95% CI −0.76 to −0.51 pp``, or that it is not defined."""
    text = diff_text if diff else value_text
    if not (finite(lo) and finite(hi)):
        return "95% CI not defined"
    low, high = text(unit, lo), text(unit, hi)
    suffix = next(u for u in (" pp", "%", " G", f" {unit}") if high.endswith(u))
    return f"95% CI {low.removesuffix(suffix)} to {high}"


def verdict(row) -> tuple[str, str]:
    """``(css class, words)`` of a difference: unchanged, up or down clear of the noise, or within it."""
    if not finite(row.diff):
        return "undefined", "no difference defined"
    if row.same:
        return "same", "= no trial differs"
    if row.clear:
        return ("up", "▲ up, clear of the noise") if row.diff > 0 else ("down", "▼ down, clear of the noise")
    return "noise", "≈ within the noise"


def attrs(row, stage: int) -> str:
    """The ``data-*`` attributes of a number's cell."""
    def num(x):
        return repr(float(x)) if finite(x) else "nan"

    values = {"metric": row.name, "unit": row.unit, "value": num(row.value), "lo": num(row.ci[0]),
              "hi": num(row.ci[1]), "base": num(row.base), "diff": num(row.diff), "diff-lo": num(row.diff_ci[0]),
              "diff-hi": num(row.diff_ci[1]), "clear": str(row.clear).lower(), "same": str(row.same).lower(),
              "trials": str(row.trials), "stage": str(stage)}
    return " ".join(f'data-{k}="{html.escape(v)}"' for k, v in values.items())


def cell(row, stage: int) -> str:
    """One number in a table cell: the value and its interval, the difference from the
    baseline and its interval with the verdict, the baseline."""
    kind, words = verdict(row)
    interval = f'<span class="ci">{interval_text(row.unit, *row.diff_ci, diff=True)}</span>'
    change = (f'<div class="d">{words} {interval}</div>' if kind == "same" else
              f'<div class="d">{diff_text(row.unit, row.diff)} {interval}</div><div class="s">{words}</div>')
    return (f'<td class="num {kind}" {attrs(row, stage)}>'
            f'<div><span class="v">{value_text(row.unit, row.value)}</span> '
            f'<span class="ci">{interval_text(row.unit, *row.ci)}</span></div>{change}'
            f'<div class="b">baseline {value_text(row.unit, row.base)}</div></td>')


def line(row, stage: int, label: str) -> str:
    """One number as a table row: label, value and interval, baseline, difference and interval, verdict."""
    kind, words = verdict(row)
    interval = f'<span class="ci">{interval_text(row.unit, *row.diff_ci, diff=True)}</span>'
    change = interval if kind == "same" else f"{diff_text(row.unit, row.diff)}<br>{interval}"
    return (f'<tr class="line {kind}" {attrs(row, stage)}><th>{html.escape(label)}</th>'
            f'<td><span class="v">{value_text(row.unit, row.value)}</span><br>'
            f'<span class="ci">{interval_text(row.unit, *row.ci)}</span></td>'
            f'<td class="b">{value_text(row.unit, row.base)}</td><td>{change}</td>'
            f'<td class="s">{words}</td></tr>')


def caption(view, stale: bool) -> str:
    """The group's title, its stage and its trials (and a word when an edit is being measured)."""
    state = ' <span class="stale">· measuring the new draft…</span>' if stale else ""
    return (f'<div class="caption"><b>{html.escape(view.title)}</b>{state}<br>'
            f'<span class="meta">{stage_label(view.stage)} · {view.trials:,} {TRIALS.get(view.name, "trials")}'
            f' · on the same dice as the baseline</span></div>')


def frame(view, body: str, stale: bool) -> str:
    """A group's box: its caption, why it has no numbers (if so) and its table."""
    note = f'<p class="note">{html.escape(view.note)}</p>' if view.note else ""
    return (f'<div class="group{" is-stale" if stale else ""}" data-group="{view.name}" '
            f'data-generation="{view.generation}" data-stage="{view.stage}">{caption(view, stale)}{note}{body}</div>')


def moved_first(keys, rows_of_key) -> tuple[list, list]:
    """``(shown, folded)``: the keys with a number that moved, those with a move clear of
    the noise first; and, when anything moved, the keys whose every number is unchanged
    (no trial differs), folded away. When nothing moved, every key is shown."""
    def moved(k):
        return any(not r.same for r in rows_of_key(k))

    if not any(moved(k) for k in keys):
        return list(keys), []
    shown = sorted((k for k in keys if moved(k)), key=lambda k: not any(r.clear for r in rows_of_key(k)))
    return shown, [k for k in keys if not moved(k)]


def folded(n: int, table: str) -> str:
    """``table`` (the unchanged rows) under a line that says how many there are."""
    if not n:
        return ""
    return (f'<details class="unchanged"><summary>{n} unchanged row{"s" * (n > 1)} '
            f'(= no trial differs)</summary>{table}</details>')


def matrix(view, rows_of, cols_of, corner="", stale=False) -> str:
    """A group whose numbers form a grid: ``rows_of`` and ``cols_of`` give each name's row and column.
    Rows that moved come first; unchanged rows fold (``moved_first``)."""
    rows, cols, cells = [], [], {}
    for r in view.rows:
        a, b = rows_of(r.name), cols_of(r.name)
        rows += [a] if a not in rows else []
        cols += [b] if b not in cols else []
        cells[(a, b)] = r
    shown, rest = moved_first(rows, lambda a: [cells[(a, b)] for b in cols if (a, b) in cells])
    head = ("<thead><tr><th>" + html.escape(corner) + "</th>"
            + "".join(f"<th>{html.escape(c)}</th>" for c in cols) + "</tr></thead>")

    def table(keys):
        body = "".join(f"<tr><th>{html.escape(a)}</th>"
                       + "".join(cell(cells[(a, b)], view.stage) if (a, b) in cells else "<td></td>" for b in cols)
                       + "</tr>" for a in keys)
        return f'<table class="grid">{head}<tbody>{body}</tbody></table>'

    return frame(view, table(shown) + folded(len(rest), table(rest)), stale)


def listing(view, label_of, what: str, stale=False) -> str:
    """A group as one line per number: ``label_of`` names it. Lines that moved come
    first; unchanged lines fold (``moved_first``)."""
    head = (f"<thead><tr><th></th><th>{html.escape(what)} · 95% CI</th><th>baseline</th>"
            "<th>difference · 95% CI</th><th></th></tr></thead>")
    shown, rest = moved_first(list(view.rows), lambda r: [r])

    def table(rows):
        body = "".join(line(r, view.stage, label_of(r.name)) for r in rows)
        return f'<div class="scroll"><table class="list">{head}<tbody>{body}</tbody></table></div>'

    return frame(view, table(shown) + folded(len(rest), table(rest)), stale)


LABELS = {"fight_survival": "fight", "journey_finish": "journey finish", "journey_days": "journey days",
          "skirmish_win": "skirmish win", "stalkeriada_win": "Stalkeriada win", "card_value_g": "value of",
          "stalkeriada_no_winner": "Stalkeriada: no winner", "stalkeriada_rounds": "Stalkeriada: length"}


def label(name: str) -> str:
    """A metric's name in words: ``fight · bloodsucker · standard``."""
    head, *rest = name.split(".")
    return " · ".join([LABELS.get(head, head), *rest])


def part(name: str, k: int) -> str:
    """The ``k``-th dotted part of a metric name."""
    return name.split(".")[k]


def stalkeriada_label(name: str) -> str:
    """A Stalkeriada number's label: the strategy, "no winner" or "length (rounds)"."""
    if name == "stalkeriada_no_winner":
        return "no winner"
    return "length (rounds)" if name == "stalkeriada_rounds" else part(name, 1)


def group_html(view, stale=False) -> str:
    """A group's numbers as a table laid out for it."""
    if view.name == "fights":
        return matrix(view, lambda n: part(n, 1), lambda n: part(n, 2), "monster \\ tier", stale)
    if view.name == "journeys":
        return matrix(view, lambda n: part(n, 1), lambda n: "reaches the goal" if n.startswith("journey_finish")
                      else "days to finish (finishers)", "tier", stale)
    if view.name == "skirmish":
        return matrix(view, lambda n: part(n, 1), lambda n: "P(win) of the value tier", "strategy", stale)
    if view.name == "stalkeriada":
        return matrix(view, stalkeriada_label, lambda n: "share of games won · mean length", "", stale)
    return listing(view, lambda n: part(n, 1), "value", stale)


def placeholder(title: str) -> str:
    """A group's box before its first numbers."""
    return f'<div class="group waiting"><div class="caption"><b>{html.escape(title)}</b><br>' \
           f'<span class="meta">waiting for the first batch…</span></div></div>'


def changes_html(diff: list) -> str:
    """The draft's content diff (file, key, baseline, draft), as ``zonesim compare`` prints it."""
    if not diff:
        return '<p class="meta">No change: the draft is the baseline.</p>'
    rows = "".join(f"<tr><td>{html.escape(d['file'])}</td><td>{html.escape(d['key'])}</td>"
                   f"<td>{html.escape(repr(d['base']))}</td><td>→ {html.escape(repr(d['new']))}</td></tr>"
                   for d in diff)
    return f'<table class="changes"><tbody>{rows}</tbody></table>'
