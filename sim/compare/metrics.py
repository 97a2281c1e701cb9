"""Two content sets compared on common dice: the plan, every headline number of
its groups (``sim.run.headline``, at the full count or a stage of it) and
their paired differences.

A difference's 95% interval is the Student t interval over the per-batch
differences (batch means), so identical content gives exactly 0 with [0, 0].
Whole-game item values (``sim.economy.value``) come with bootstrap replicas
over their batches, drawn with the same resample on both sides: their
difference's interval is the percentile interval of the paired replicas."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from sim.analysis.stats import batch_half_width
from sim.run.headline import BATCHES, LAST, CompareError, Measured, Plan, measured
from sim.content import Content
from sim.modes import headline_groups

ECONOMY = "economy"
"""The group of whole-game item values (``sim.economy.value``), besides each mode's headline group."""


def group_names() -> tuple:
    """Every group ``--only`` takes: each mode's headline group (``sim.modes``), then the economy's."""
    return (*(g.name for g in headline_groups()), ECONOMY)


def make_plan(base: Content, *, quick=False, seed=None, groups=None) -> Plan:
    """The plan of a comparison: BASE's study and context, ``seed`` (default: theirs) for ``groups``
    (default: every group)."""
    from sim.economy.context import load_context
    from sim.report.study import load_study

    known = group_names()
    groups = known if groups is None else groups
    unknown = [g for g in groups if g not in known]
    if unknown or not groups:
        raise CompareError(f"--only: '{','.join(unknown)}' is not a group; use some of: {', '.join(known)}")
    study = load_study(base, quick)
    ctx = load_context(base, quick=quick) if ECONOMY in groups else None
    seed = study.settings["seed"] if seed is None else seed
    if ctx is not None:
        ctx = replace(ctx, seed=seed)
    return Plan(study, ctx, seed, tuple(g for g in known if g in groups), tuple(base.monsters))


def prefix_groups() -> dict:
    """``{metric prefix: its group}``: the prefixes each mode's headline group declares (``sim.modes``;
    a mode registered later joins), and the economy's item values."""
    return {**{prefix: g.name for g in headline_groups() for prefix in g.prefixes}, "item_value_g": ECONOMY}


def headline_group(name: str):
    """The headline group class called ``name``."""
    return next(g for g in headline_groups() if g.name == name)


def economy_metrics(content: Content, plan: Plan) -> list[Measured]:
    """Every card's whole-game value in G (``sim.economy.value``), with its bootstrap replicas
    (cards not valued, with no replicas, are left out); measured whole at any stage."""
    from sim.economy.context import declared
    from sim.economy.value import value_cards

    result = value_cards(declared(content, plan.ctx))
    return [Measured(f"item_value_g.{row['item']}", "G", float(row["value_g"]),
                     replicas=result.value_replicas[row["item"]]) for row in result.items
            if row["item"] in result.value_replicas]


def group_metrics(content: Content, plan: Plan, group: str, stage: int = LAST) -> list[Measured]:
    """The headline numbers of ``group`` on ``content``, grown to ``stage`` (``sim.run.headline``)."""
    if group == ECONOMY:
        return economy_metrics(content, plan)
    return measured(headline_group(group)(content, plan), stage)


def metric_names(content: Content, plan: Plan) -> list[str]:
    """The names of the headline numbers ``measure`` gives for ``plan``, without measuring them."""
    return [n for g in plan.groups
            for n in ([f"item_value_g.{i}" for i in sorted(content.items)] if g == ECONOMY
                      else headline_group(g).names(content, plan))]


def measure_group(part, plan: Plan, stage: int = LAST) -> list[Measured]:
    """One task: ``part`` is ``(content, group)``."""
    content, group = part
    return group_metrics(content, plan, group, stage)


def measure(content: Content, plan: Plan, client=None, store=None, side="content", stage=LAST) -> list[Measured]:
    """Every headline number of ``plan.groups`` on ``content`` (on the cluster when ``client`` is given),
    at ``stage`` of their counts (``sim.run.headline``; default the full count). With a checkpoint
    ``store`` (``sim.run.chunks.Checkpoints``) each group's numbers are kept under ``side`` when they are
    done, and a resumed run reads them back instead of measuring them again."""
    from sim.run.distributed import iter_batches

    kept = {g: store.load_object(f"{side}-{g}.pickle") for g in plan.groups} if store is not None else {}
    todo = [g for g in plan.groups if kept.get(g) is None]
    for group, part in zip(todo, iter_batches(client, measure_group, [(content, g) for g in todo], plan, stage)):
        kept[group] = part
        if store is not None:
            store.save_object(f"{side}-{group}.pickle", part)
    return [m for g in plan.groups for m in kept[g]]


def paired_interval(base: Measured, new: Measured) -> tuple[float, float, float]:
    """``new - base`` with its paired 95% interval (module doc); nan where undefined."""
    diff = new.value - base.value if math.isfinite(new.value) and math.isfinite(base.value) else math.nan
    if base.replicas is not None and new.replicas is not None:
        with np.errstate(invalid="ignore"):
            d = new.replicas - base.replicas
        if not np.all(np.isfinite(d)):
            return diff, math.nan, math.nan
        lo, hi = np.percentile(d, [2.5, 97.5])
        return diff, float(min(lo, diff)), float(max(hi, diff))
    half = math.nan if math.isnan(diff) else batch_half_width(new.batches - base.batches)
    return diff, diff - half, diff + half


def size_of(unit, base, diff) -> float:
    """How big a change is, comparable across units: percentage points of a
    probability, else percent of the base value."""
    if math.isnan(diff):
        return 0.0
    if unit == "p":
        return abs(diff) * 100
    return abs(diff) / abs(base) * 100 if base else abs(diff) * 100


def paired(base: list[Measured], new: list[Measured]) -> list[dict]:
    """One row per metric on either side: ``name, unit, base, new, diff, diff_ci95,
    significant`` (the interval excludes 0), ``size``; significant ones first, by size."""
    b, n = {m.name: m for m in base}, {m.name: m for m in new}
    rows = []
    for name in [*b, *(k for k in n if k not in b)]:
        mb, mn = b.get(name), n.get(name)
        if mb is None or mn is None:
            one = mb or mn
            rows.append({"name": name, "unit": one.unit, "base": mb and mb.value, "new": mn and mn.value,
                         "diff": None, "diff_ci95": [None, None], "significant": False, "size": 0.0})
            continue
        diff, lo, hi = paired_interval(mb, mn)
        rows.append({"name": name, "unit": mb.unit, "base": mb.value, "new": mn.value, "diff": diff,
                     "diff_ci95": [lo, hi], "significant": bool(lo > 0 or hi < 0),
                     "size": size_of(mb.unit, mb.value, diff)})
    return sorted(rows, key=lambda r: (not r["significant"], -r["size"] if r["significant"] else 0))


@dataclass(frozen=True)
class ContentComparison:
    """What moved between content sets ``base`` and ``new`` on the same dice: the content
    diff (``sim.compare.diff``) and one row per headline number (``paired``), as ``plan`` ran them."""

    base: object
    new: object
    content_diff: list
    rows: list
    plan: Plan
    quick: bool
    elapsed_s: float

    def moved(self) -> list:
        """The rows whose paired 95% interval excludes 0, largest first."""
        return [r for r in self.rows if r["significant"]]

    def fields_changed(self) -> str:
        """``3 fields`` of the content changed."""
        n = len(self.content_diff)
        return f"{n} field{'s' * (n != 1)}"

    def provenance(self) -> str:
        return (f"BASE {self.base} vs NEW {self.new} · {', '.join(self.plan.groups)}; seed {self.plan.seed}, "
                f"{'quick' if self.quick else 'full'} trial counts of BASE's report.toml / economy.toml, "
                f"{BATCHES} paired batches on common dice")

    def to_json(self) -> dict:
        """The JSON of ``zonesim compare --json`` (docs: JSON contracts)."""
        from sim.run.results import json_safe

        public = ("name", "unit", "base", "new", "diff", "diff_ci95", "significant")
        return json_safe({"content_diff": self.content_diff,
                          "metrics": [{k: r[k] for k in public} for r in self.rows]})
