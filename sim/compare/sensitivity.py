"""Which assumed [A] numbers do the headline results hang on?

Every number a content table lists in its ``assumed = [...]`` (prices aside:
``zonesim tune`` sets those) is swung to a low and a high value, one at a
time, in a copy of the content; the chosen headline metric is measured on the
same dice (common random numbers) as the unchanged content, in the same
``BATCHES`` batches, so each effect comes with a paired 95% interval.

The range of a number is declared beside it, ``ranges = { hp = [15, 30] }``
in its table, else: one step either way for whole numbers (a die, a point,
a round), kept at or above the schema's minimum (0 where the file has no
schema), ±25% for other numbers, and false / true for a flag.

The metric is one of ``METRICS`` (a summary over a mode's headline numbers) or
any single headline number ``zonesim compare`` measures (``skirmish_win.hold``,
a registered mode's own), from its mode's group (``sim.run.headline``)."""

from __future__ import annotations

import math
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.run.headline import BATCHES, Measured, batch_size
from sim.compare.metrics import ECONOMY, Plan, group_metrics, headline_group, paired_interval, prefix_groups
from sim.content import load_content, schema
from sim.content.edit import copy_content_with, set_value
from sim.content.load import ContentError
from sim.errors import ZonesimError

METRICS = {
    "journey_finish": "the chance to reach the campaign's goal (Z-41), journey tier of report.toml (cautious)",
    "fight_survival": "the mean of the fight survival matrix (every monster x every tier)",
}
"""The summary metrics; any other is one headline number of a mode's group."""
NOT_SWUNG = ("price",)  # prices are tune's business
SPREAD = 0.25


class SensitivityError(ZonesimError):
    """An unknown metric or file, or a value that cannot be swung."""


@dataclass(frozen=True)
class Parameter:
    """One assumed number: where it is (file, dotted key), its value and its swing."""

    file: str
    key: str
    base: object
    low: object
    high: object


def headline_of(metric: str) -> str | None:
    """The name of the mode's headline group whose numbers include ``metric`` (by its prefix), or None."""
    group = prefix_groups().get(metric.split(".")[0])
    return None if group == ECONOMY else group


def check_metric(name: str, content, plan: Plan) -> str:
    """``--metric``: a summary metric or a headline number of ``content`` under ``plan``."""
    if name in METRICS:
        return name
    group = headline_of(name)
    names = headline_group(group).names(content, plan) if group else []
    if name in names:
        return name
    known = f"the headline numbers of {group}: {', '.join(names)}" if group else \
        "a headline number of `zonesim compare`, e.g. journey_finish.standard, skirmish_win.hold"
    raise SensitivityError(f"--metric: unknown metric '{name}'; use {', '.join(METRICS)} or {known}")


def schema_minimum(file, table_path, field):
    """The schema's lowest allowed value of a field of the core files (None: no bound known)."""
    parts = table_path.split(".")
    spec = {"rules.toml": lambda: schema.RULES[parts[0]],
            "monsters.toml": lambda: schema.MONSTER,
            "characters.toml": lambda: schema.CHARACTER,
            "items.toml": lambda: schema.ITEM_FAMILIES[parts[0]]}.get(file)
    try:
        return spec()[field][2] if spec else None
    except (KeyError, IndexError):
        return None


def default_range(value, minimum):
    """``(low, high)`` of a number with no declared range (module doc)."""
    if isinstance(value, bool):
        return (False, True)
    if isinstance(value, int):
        floor = minimum if minimum is not None else (0 if value >= 0 else None)
        return (value - 1 if floor is None else max(floor, value - 1), value + 1)
    low, high = value * (1 - SPREAD), value * (1 + SPREAD)
    return (max(low, minimum) if minimum is not None else low, high)


def _tables(raw, prefix=""):
    """Every table of a parsed file with its dotted path (``monster_groups[2]`` for arrays of tables)."""
    yield prefix, raw
    for key, value in raw.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            yield from _tables(value, path)
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for i, v in enumerate(value):
                yield from _tables(v, f"{path}[{i}]")


def assumed_parameters(folder: Path, files=None) -> list[Parameter]:
    """Every assumed number of the content folder (of ``files`` only, if given), in file order."""
    folder = Path(folder)
    names = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.toml"))
    if files:
        unknown = [f for f in files if f not in names]
        if unknown:
            raise SensitivityError(f"--files: {', '.join(unknown)} not in {folder}; use some of: {', '.join(names)}")
        names = [n for n in names if n in files]
    out = []
    for name in names:
        raw = tomllib.loads((folder / name).read_text(encoding="utf-8"))
        for path, table in _tables(raw):
            assumed, ranges = table.get("assumed"), table.get("ranges", {})
            if not isinstance(assumed, list):
                continue
            for field in assumed:
                value = table.get(field)
                if field in NOT_SWUNG or isinstance(value, (str, list, dict)) or value is None:
                    continue
                low, high = ranges.get(field) or default_range(value, schema_minimum(name, path, field))
                out.append(Parameter(name, f"{path}.{field}" if path else field, value, low, high))
    return out


def swung(folder: Path, target: Path, param: Parameter, value) -> Path:
    """A copy of the content folder at ``target`` with one number changed."""
    text = (folder / param.file).read_text(encoding="utf-8")
    return copy_content_with(folder, target, param.file, set_value(text, param.key, value))


def metric_batches(content, plan: Plan, metric: str) -> Measured:
    """The metric on ``content`` as ``BATCHES`` paired batches."""
    if metric not in METRICS:
        return next(m for m in group_metrics(content, plan, headline_of(metric)) if m.name == metric)
    if metric == "fight_survival":
        batches = np.mean([m.batches for m in group_metrics(content, plan, "fights")], axis=0)
    else:
        import strategies
        from sim.run.journey import simulate_journey

        loadout, n = plan.study.tiers[plan.study.settings["journey_tier"]], batch_size(plan.study.trials["journeys"])
        strategy, days = strategies.get("cautious", mode="journey"), plan.study.settings["journey_days"]
        batches = np.array([simulate_journey(content, loadout, strategy, days=days, trials=n, seed=plan.seed,
                                             trial_start=k * n).counts[0] / n for k in range(BATCHES)])
    return Measured(metric, "p", float(batches.mean()), batches)


def _effect(base: Measured, other: Measured | None):
    if other is None:
        return None, [None, None]
    diff, lo, hi = paired_interval(base, other)
    return diff, [lo, hi]


def _kept(store, name, metric, measure):
    """``measure()``, or its batches kept under ``name`` in the checkpoint ``store`` (saved when done)."""
    saved = store.load(name) if store is not None else None
    if saved is not None:
        return Measured(metric, str(saved["unit"]), float(saved["value"]), saved["batches"])
    measured = measure()
    if store is not None:
        store.save(name, {"batches": measured.batches, "value": np.float64(measured.value),
                          "unit": np.str_(measured.unit)})
    return measured


def sensitivity(folder: Path, plan: Plan, metric: str, params, on_progress=None, store=None):
    """``(base, rows)``: the metric on the content and one row per parameter
    (README "JSON contracts"), sorted by the size of the swing, largest first.
    With a checkpoint ``store`` each measured swing is kept, and a resumed run reads it back."""
    base = _kept(store, "base.npz", metric, lambda: metric_batches(load_content(folder), plan, metric))
    rows = []
    with tempfile.TemporaryDirectory(prefix="zonesim-sensitivity-") as tmp:
        for k, p in enumerate(params):
            effects = {}
            for side, value in (("low", p.low), ("high", p.high)):
                if value == p.base:  # the same content: exactly no effect
                    effects[side] = (0.0, [0.0, 0.0])
                    continue
                try:
                    content = load_content(swung(folder, Path(tmp) / f"{k}_{side}", p, value))
                except ContentError as exc:  # a value the content refuses: no effect measured
                    effects[side] = (None, [None, None])
                    effects.setdefault("refused", str(exc))
                    continue
                effects[side] = _effect(base, _kept(store, f"swing-{k:03d}-{side}.npz", metric,
                                                    lambda: metric_batches(content, plan, metric)))
            rows.append({"file": p.file, "key": p.key, "base": p.base, "low": p.low, "high": p.high,
                         "effect_low": effects["low"][0], "effect_high": effects["high"][0],
                         "effect_low_ci95": effects["low"][1], "effect_high_ci95": effects["high"][1],
                         **({"refused": effects["refused"]} if "refused" in effects else {})})
            if on_progress:
                on_progress(k + 1, len(params), p.key)
    return base, sorted(rows, key=lambda r: -swing(r))


def swing(row) -> float:
    """The size of a parameter's swing: high effect less low effect."""
    lo, hi = row["effect_low"], row["effect_high"]
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return abs(lo or hi or 0.0)
    return abs(hi - lo)


def hangs_on(rows) -> list:
    """The parameters with an effect whose 95% interval excludes 0."""
    def clear(ci):
        return ci[0] is not None and ci[1] is not None and (ci[0] > 0 or ci[1] < 0)

    return [r for r in rows if clear(r["effect_low_ci95"]) or clear(r["effect_high_ci95"])]


@dataclass(frozen=True)
class Sensitivity:
    """The metric on the content of ``folder`` and, per assumed number, its effect at the
    low and high value with paired 95% intervals (``sensitivity``), largest swing first."""

    metric: str
    base_value: float
    seed: int
    parameters: list
    folder: Path
    quick: bool
    elapsed_s: float

    def hangs_on(self) -> list:
        """The parameters with an effect clear of 0."""
        return hangs_on(self.parameters)

    def provenance(self) -> str:
        return (f"content {self.folder} · {len(self.parameters)} assumed numbers, each swung alone; seed {self.seed}, "
                f"{'quick' if self.quick else 'full'} trial counts of report.toml in {BATCHES} paired batches on "
                "common dice")

    def to_json(self) -> dict:
        """The JSON of ``zonesim sensitivity --json`` (docs: JSON contracts)."""
        from sim.run.results import json_safe

        return json_safe({"metric": self.metric, "base_value": self.base_value, "seed": self.seed,
                          "parameters": self.parameters})
