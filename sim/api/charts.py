"""Intervals and charts a notebook draws from the results."""

from pathlib import Path

from sim.api.content import journey_content


def _chart_function(module: str, name: str):
    """A drawing function of the chart modules, imported without changing the caller's matplotlib
    backend (they select the file-only Agg backend; a notebook keeps its inline one)."""
    from importlib import import_module

    import matplotlib

    backend = matplotlib.get_backend()
    draw = getattr(import_module(module), name)
    matplotlib.use(backend)
    return draw


def wilson(successes: int, trials: int) -> tuple:
    """The Wilson 95% interval of a proportion ``successes / trials``.

        >>> wilson(12, 500)
    """
    from sim.analysis.stats import wilson as interval

    return interval(successes, trials)


def value_chart(result, path) -> Path:
    """Every card's value in G beside its price, with intervals, as the PNG ``path``
    (``charts/value.png`` of ``zonesim value --out``).

        >>> value_chart(value(quick=True), "value.png")
    """
    economy_chart = _chart_function("sim.report.charts", "economy_chart")
    economy_chart(result.table(), f"Value of every card in G beside its price ({result.context.mode})",
                  result.caption(), path)
    return Path(path)


def compare_chart(comparison, path, *, title=None, top=25) -> Path:
    """Each headline number's difference NEW - BASE with its paired 95% interval, as the
    PNG ``path`` (``charts/compare.png`` of ``zonesim compare --out``); ``top`` per unit.

        >>> compare_chart(compare(content_path(), "tougher", quick=True, only=["fights"]), "compare.png")
    """
    diff_chart = _chart_function("sim.compare.charts", "diff_chart")
    title = title or f"NEW - BASE: {comparison.fields_changed()} of the content changed"
    diff_chart(comparison.rows, title, comparison.provenance(), path, top=top)
    return Path(path)


def tornado_chart(result, path, *, title=None, top=30) -> Path:
    """The effect of each assumed number at its low and high value, largest swing on top,
    as the PNG ``path`` (``charts/tornado.png`` of ``zonesim sensitivity --out``).

        >>> tornado_chart(sensitivity(metric="fight_survival", quick=True), "tornado.png", top=15)
    """
    draw = _chart_function("sim.compare.charts", "tornado_chart")
    title = title or f"What {result.metric} hangs on: the assumed numbers by swing"
    draw(result.parameters, result.metric, result.base_value, title, result.provenance(), path, top=top)
    return Path(path)


def zone_map(path, *, title="", heat=None, heat_label="", show_danger=False, provenance="", content=None) -> Path:
    """The journey map of a content set as the PNG ``path``: terrain, bases and sites, the
    danger levels (``show_danger``) and a ``heat`` grid ``[row, col]`` over it.

        >>> r = journey(weapon="ak47", trials=20_000)
        >>> zone_map("deaths.png", heat=r.deaths_at / r.trials, heat_label="deaths per campaign")
    """
    draw_map = _chart_function("sim.report.hexmap", "draw_map")
    draw_map(journey_content(content).hexmap, path, title=title, heat=heat, heat_label=heat_label,
             show_danger=show_danger, provenance=provenance)
    return Path(path)
