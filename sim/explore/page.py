"""The explorer's page (Panel): the content as forms grouped by file, the
headline numbers against the baseline as tables, a chart of the numbers that
moved clear of the noise, and Undo, Reset and Save as.

The page only shows what ``sim.explore.engine.Explorer`` measures: a field's
Enter (or leaving it) hands its text to ``Explorer.set``, and once a browser
shows the page a periodic callback pushes each new snapshot of the numbers to
it as the measuring process sends them."""

from __future__ import annotations

import html
from pathlib import Path

import panel as pn

from sim.explore.measure import group_names
from sim.explore.render import changes_html, finite, group_html, label, placeholder
from sim.explore.schedule import FRACTIONS, stage_label
from sim.run.results import portable_dir

REFRESH_MS = 200
UNIT_AXES = {"p": "change in percentage points", "days": "change in days", "rounds": "change in rounds",
             "G": "change in G"}
TOP = 10
"""The largest moves drawn per unit."""
SHORT_TITLES = {"journeys": "Journeys: finish rate and days", "stalkeriada": "Stalkeriada: win rates",
                "values": "Card values in G (one fight)"}


def group_titles() -> dict:
    """Each group's box title, in the order a stage runs them (``sim.explore.measure.group_names``)."""
    from sim.modes import headline_groups

    titles = {g.name: g.title for g in headline_groups()}
    return {name: SHORT_TITLES.get(name, titles.get(name, name)) for name in group_names()}
CSS = """
:host { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2933; }
table { border-collapse: collapse; font-size: 12px; width: 100%; }
th { text-align: left; font-weight: 600; color: #52606d; padding: 3px 6px; }
thead th { background: #f0f4f8; font-size: 11px; }
tbody th { white-space: nowrap; }
td { padding: 3px 6px; border-top: 1px solid #e4e7eb; vertical-align: top; }
.grid td.num { min-width: 150px; }
.v { font-size: 14px; font-weight: 600; }
.ci, .b, .meta { color: #7b8794; font-size: 11px; }
.list td { white-space: nowrap; } .list td.s { white-space: normal; min-width: 80px; }
.list td.b { font-size: 12px; }
.s { font-size: 11px; }
.down { background: #fdf0e6; } .down .s { color: #d55e00; font-weight: 600; }
.up { background: #e8f2fa; } .up .s { color: #0072b2; font-weight: 600; }
details.unchanged summary { color: #7b8794; font-size: 11px; cursor: pointer; padding: 3px 6px; }
.noise .s, .same .s, .same .d { color: #9aa5b1; }
.scroll { max-height: 420px; overflow-y: auto; }
.group { margin: 4px 0 14px 0; }
.group.is-stale table { opacity: 0.45; }
.waiting .meta, .stale, .note { color: #b7791f; }
.caption { margin-bottom: 4px; font-size: 13px; }
.note { font-size: 12px; }
.changes td { padding: 2px 6px; font-size: 12px; font-family: ui-monospace, monospace; border: none; }
.status { font-size: 13px; padding: 6px 0; }
.status .state { font-weight: 600; }
.header { color: white; display: flex; gap: 18px; align-items: baseline; }
.header b { font-size: 18px; } .header .base { color: #bcccdc; font-size: 12px; }
.section { font-size: 12px; font-weight: 600; color: #334e68; margin-top: 8px; border-bottom: 1px solid #e4e7eb; }
.saved { color: #0072b2; font-size: 12px; } .saved.bad { color: #d55e00; }
"""


def html_pane(text="", **kwargs):
    return pn.pane.HTML(text, stylesheets=[CSS], **kwargs)


def field_id(file: str, key: str) -> str:
    """A field's id in the form: ``monsters.toml:bloodsucker.hp``."""
    return f"{file}:{key}"


def hint(field) -> str:
    """The words under a field's name: a price, or the swing ``zonesim sensitivity`` gives the number."""
    if field.name == "price":
        return "price in G [A]"
    return f"[A] sensitivity swing {field.low} to {field.high}"


def moved_chart(rows):
    """One panel per unit: each number that moved clear of the noise, its difference from
    the baseline and the paired 95% interval (probabilities in percentage points), largest first."""
    from bokeh.models import ColumnDataSource, Range1d, Span
    from bokeh.plotting import figure

    panels = []
    for unit, axis in UNIT_AXES.items():
        moved = sorted((r for r in rows if r.unit == unit and r.clear), key=lambda r: -abs(r.diff))[:TOP]
        if not moved:
            continue
        k = 100.0 if unit == "p" else 1.0
        names = [label(r.name) for r in moved][::-1]
        data = {"name": names, "diff": [k * r.diff for r in moved][::-1],
                "lo": [k * r.diff_ci[0] for r in moved][::-1], "hi": [k * r.diff_ci[1] for r in moved][::-1],
                "colour": ["#d55e00" if r.diff < 0 else "#0072b2" for r in moved][::-1]}
        span = max(max(abs(v) for v in data["lo"] + data["hi"]), 1e-9) * 1.15
        fig = figure(y_range=names, x_range=Range1d(-span, span), height=70 + 17 * len(names), width=470,
                     toolbar_location=None, title=f"{axis}, paired 95% interval")
        source = ColumnDataSource(data)
        fig.segment("lo", "name", "hi", "name", source=source, color="colour", line_width=3)
        fig.scatter("diff", "name", source=source, color="colour", size=8)
        fig.add_layout(Span(location=0, dimension="height", line_color="#52606d"))
        fig.xaxis.axis_label = axis
        fig.yaxis.major_label_text_font_size = "10px"
        fig.title.text_font_size = "11px"
        fig.xaxis.axis_label_text_font_size = "11px"
        panels.append(fig)
    return panels


class Page:
    """One browser session's view of an ``Explorer`` (sessions share the explorer and its draft)."""

    def __init__(self, explorer):
        from sim.explore.form import ContentForm

        self.ex = explorer
        self.version = self.draft_version = -1
        self.by_id = {field_id(f.file, f.key): f for f in explorer.fields}
        self.refreshing = None
        self.form = ContentForm(self.on_submit, self.on_shown, fields=[
            {"id": i, "file": f.file, "table": f.table, "title": explorer.table_names.get((f.file, f.table), ""),
             "name": f.name, "hint": hint(f), "base": explorer.text(f.file, f.key)} for i, f in self.by_id.items()],
            sizing_mode="stretch_width")
        self.status = html_pane(sizing_mode="stretch_width")
        self.groups = {name: html_pane(placeholder(title), sizing_mode="stretch_width")
                       for name, title in group_titles().items()}
        self.chart = pn.FlexBox(sizing_mode="stretch_width")
        self.changes = html_pane(changes_html([]), sizing_mode="stretch_width")
        self.undo = pn.widgets.Button(name="Undo", width=80, css_classes=["undo"])
        self.reset = pn.widgets.Button(name="Reset", width=80, css_classes=["reset"])
        self.target = pn.widgets.TextInput(value=str(default_target()), width=290, css_classes=["save-path"],
                                           placeholder="a new folder")
        self.save = pn.widgets.Button(name="Save as…", button_type="primary", width=90, css_classes=["save"])
        self.saved = html_pane("", sizing_mode="stretch_width")
        self.undo.on_click(self.on_undo)
        self.reset.on_click(self.on_reset)
        self.save.on_click(self.on_save)
        self.sync_draft()
        self.layout = self.build()

    def build(self):
        header = html_pane(f'<div class="header"><b>zonesim explore</b><span class="base">baseline: '
                           f'{html.escape(portable_dir(self.ex.folder))}</span></div>', sizing_mode="stretch_width",
                           styles={"background": "#243b53", "padding": "6px 14px"}, margin=0)
        forms = pn.Column(
            pn.Row(self.undo, self.reset), pn.Row(self.target, self.save), self.saved,
            html_pane('<div class="section">Changes from the baseline</div>'), self.changes,
            html_pane('<div class="section">The content: every assumed [A] number and every price. '
                      'Type a value; Enter applies it, Escape puts the draft\'s back.</div>'),
            self.form, width=470, styles={"padding": "0 8px", "border-right": "1px solid #e4e7eb"})
        *boxes, values = self.groups.values()  # card values (one fight) come last, full width
        pairs = [pn.Row(*boxes[k:k + 2], sizing_mode="stretch_width") for k in range(2, len(boxes), 2)]
        numbers = pn.Column(self.status, self.chart, *boxes[:2], *pairs, values, sizing_mode="stretch_width",
                            styles={"padding": "0 12px"})
        return pn.Column(header, pn.Row(forms, numbers, sizing_mode="stretch_width"), sizing_mode="stretch_width")

    # --- events ------------------------------------------------------------------------------

    def on_submit(self, ident: str, text: str):
        field = self.by_id[ident]
        self.ex.set(field.file, field.key, text)
        self.form.errors = {field_id(*key): message for key, message in self.ex.errors.items()}
        self.refresh()

    def on_shown(self):
        """A browser drew the page: measure, and refresh the page as the numbers come."""
        self.ex.start()
        if self.refreshing is None:
            self.refreshing = pn.state.add_periodic_callback(self.refresh, period=REFRESH_MS)
            pn.state.on_session_destroyed(lambda _: self.refreshing.stop())
        self.refresh()

    def on_undo(self, _):
        self.ex.undo()
        self.refresh()

    def on_reset(self, _):
        self.ex.reset()
        self.refresh()

    def on_save(self, _):
        from sim.errors import ZonesimError

        try:
            folder = self.ex.save_as(self.target.value.strip())
        except (ZonesimError, OSError) as exc:
            self.saved.object = f'<div class="saved bad">{html.escape(str(exc))}</div>'
            return
        self.saved.object = (f'<div class="saved" data-saved="{html.escape(str(folder))}">Saved to '
                             f'{html.escape(str(folder))}; <code>zonesim compare</code> it with the baseline.</div>')
        self.target.value = str(default_target())

    # --- showing the explorer's state -------------------------------------------------------

    def sync_draft(self):
        """The form, the changes and the buttons as the draft stands (after an edit, undo,
        reset or another session's edit)."""
        self.draft_version = self.ex.draft_version
        self.form.param.update(
            values={i: self.ex.text(f.file, f.key) for i, f in self.by_id.items()},
            edited=[field_id(*k) for k in self.ex.edits],
            errors={field_id(*k): message for k, message in self.ex.errors.items()})
        self.changes.object = changes_html(self.ex.changes())
        self.undo.disabled, self.reset.disabled = not self.ex.history, not self.ex.edits

    def refresh(self):
        """Show a new draft and new numbers, if any."""
        if self.ex.draft_version != self.draft_version:
            self.sync_draft()
        snap = self.ex.snapshot()
        if snap.version == self.version:
            return
        self.version = snap.version
        generation = self.ex.generation
        self.status.object = self.status_html(snap, generation, self.ex.cancel_latencies)
        for name, view in snap.groups.items():
            self.groups[name].object = group_html(view, stale=view.generation != generation)
        current = [r for v in snap.groups.values() if v.generation == generation for r in v.rows]
        panels = moved_chart([r for r in current if finite(r.diff)])
        moved = sum(r.clear for r in current)
        self.chart.objects = [html_pane(
            f'<div class="section">What moved: {moved} of {len(current)} numbers clear of the noise, the largest '
            f'{TOP} of each unit drawn (red: down, green: up)</div>' if moved else
            '<p class="meta">No number has moved clear of the noise: every difference\'s paired 95% interval '
            'holds 0.</p>' if current else "", sizing_mode="stretch_width"), *panels]

    @staticmethod
    def status_html(snap, generation, cancels) -> str:
        """The status line; ``data-cancel-ms``: how soon the last cut-short work stopped."""
        done = [v for v in snap.groups.values() if v.generation == generation]
        stage = min((v.stage for v in done), default=None)
        state = snap.status
        if not (snap.finished or snap.failed) and stage is not None and len(done) == len(group_names()):
            state = (f"Refining: every number at {stage_label(stage)}"
                     + ("" if stage == len(FRACTIONS) - 1 else "; the intervals narrow as the next stages come in"))
        return (f'<div class="status" data-generation="{generation}" data-version="{snap.version}" '
                f'data-finished="{str(snap.finished and snap.generation == generation).lower()}" '
                f'data-cancel-ms="{round(1000 * cancels[-1]) if cancels else ""}">'
                f'<span class="state">{html.escape(state)}</span><br>'
                '<span class="meta">Each number: the draft\'s value with its 95% confidence interval, the baseline '
                'on the same dice, and the difference with its paired 95% confidence interval; "clear of the '
                'noise" when that interval excludes 0. Intervals narrow stage by stage on a schedule fixed in '
                'advance, up to the full counts of zonesim compare.</span></div>')


def default_target() -> Path:
    """A new folder in the working folder to save the draft to: ``explored_content`` (``-2``, ... if taken)."""
    path, k = Path.cwd() / "explored_content", 1
    while path.exists():
        k += 1
        path = Path.cwd() / f"explored_content-{k}"
    return path


def view(explorer):
    """The page of ``explorer`` for one session; it starts measuring, and refreshes itself, once a browser shows it."""
    return Page(explorer).layout


def serve(explorer, *, port, host="127.0.0.1", show=True, on_url=None):
    """Serve the page of ``explorer`` at http://HOST:PORT/ until the process ends
    (every session shows the same draft); ``on_url(url)`` once it listens."""
    import webbrowser

    from tornado.ioloop import IOLoop

    loopback = host in ("127.0.0.1", "localhost", "::1")
    origins = [f"127.0.0.1:{port}", f"localhost:{port}"] if loopback else ["*"]
    server = pn.serve({"/": lambda: view(explorer)}, port=port, address=host, websocket_origin=origins,
                      show=False, start=False, title="zonesim explore", verbose=False, loop=IOLoop.current())
    server.start()
    url = f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{port}/"
    if on_url is not None:
        on_url(url)
    if show:
        webbrowser.open(url)
    server.io_loop.start()
