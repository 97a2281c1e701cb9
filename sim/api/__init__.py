"""The Python API: one call per question, each returning results with their 95%
intervals. The keyword arguments are the command line's options (a repeated
option is a list: ``monsters=["snork", "boar"]``; counts are dicts:
``stims={"stimulator": 2}``), and a bad one is refused with the same one-line
``ZonesimError`` before any kernel compiles.

    >>> from sim.api import encounter, value
    >>> r = encounter("bloodsucker", weapon="ak47", body="vest", stims={"stimulator": 2}, trials=100_000)
    >>> r.probabilities["p_survive"], r.ci95["p_survive"]
    >>> v = value(quick=True)               # every card in G over economy.toml's campaigns
    >>> v.table()                           # overall: value, interval, reservation price, verdict

A run that writes files takes ``out`` (a folder: parquet tables, charts,
``manifest.json``) and ``resume``; long runs take ``on_progress(done, total,
note)``, and the ones that compile kernels ``on_start()``, called once the
inputs are checked. Imports are deferred: ``import sim.api`` compiles nothing.

The calls live by concern: ``sim.api.content`` (content, loadouts, strategies),
``sim.api.modes`` (one call per mode), ``sim.api.economy`` (card values,
tuning, the Stalkeriada pace), ``sim.api.changes`` (compare, sensitivity,
balance), ``sim.api.study`` (the report, the explorer), ``sim.api.charts`` and
``sim.api.play`` (``run``: any registered mode by name); all of them are here.
"""

from sim.api.content import (
    load_content, content_path, copy_content, set_content_value, validate, loadout, strategy, planner,
    list_strategies, journey_content, terrain)
from sim.api.modes import (
    encounter, journey, skirmish, skirmish_replay, stalkeriada, stalkeriada_matrix, loadouts, route, skill)
from sim.api.economy import context, value, economy_check, tune, pace, restricted
from sim.api.changes import compare, sensitivity, balance
from sim.api.charts import wilson, value_chart, compare_chart, tornado_chart, zone_map
from sim.api.study import report, explorer
from sim.api.play import run

__all__ = [
    "load_content", "content_path", "copy_content", "set_content_value", "validate", "loadout", "strategy",
    "planner", "list_strategies", "journey_content", "terrain",
    "encounter", "journey", "skirmish", "skirmish_replay", "stalkeriada", "stalkeriada_matrix", "loadouts",
    "route", "skill",
    "context", "value", "economy_check", "tune", "pace", "restricted",
    "compare", "sensitivity", "balance",
    "wilson", "value_chart", "compare_chart", "tornado_chart", "zone_map",
    "report", "explorer", "run",
]
