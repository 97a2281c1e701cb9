"""Two content sets compared on common dice: the plan, every headline number of
its groups (``sim.compare.headline``, at the full count or a stage of it) and
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

from sim.analysis.stats import t975
from sim.compare.headline import (BATCHES, LAST, SKIRMISH_STRATEGIES, CompareError, Fights, Journeys, Measured,
                                  Skirmishes, Stalkeriada, measured)
from sim.content import Content

GROUPS = ("fights", "journeys", "skirmish", "stalkeriada", "economy")


@dataclass(frozen=True)
class Plan:
    """What both sides measure: the study of ``report.toml`` and the valuation
    context of ``economy.toml`` (both read from BASE), the seed and the groups."""

    study: object
    ctx: object
    seed: int
    groups: tuple
    monsters: tuple


def make_plan(base: Content, *, quick=False, seed=None, groups=GROUPS) -> Plan:
    """The plan of a comparison: BASE's study and context, ``seed`` (default: theirs) for every group."""
    from sim.economy.context import load_context
    from sim.report.study import load_study

    unknown = [g for g in groups if g not in GROUPS]
    if unknown or not groups:
        raise CompareError(f"--only: '{','.join(unknown)}' is not a group; use some of: {', '.join(GROUPS)}")
    study = load_study(base, quick)
    ctx = load_context(base, quick=quick) if "economy" in groups else None
    seed = study.settings["seed"] if seed is None else seed
    if ctx is not None:
        ctx = replace(ctx, seed=seed)
    return Plan(study, ctx, seed, tuple(g for g in GROUPS if g in groups), tuple(base.monsters))


def fight_metrics(content: Content, plan: Plan, stage: int = LAST) -> list[Measured]:
    """P(survive) of every tier against every monster alone (Z-15..Z-38)."""
    return measured(Fights(content, plan), stage)


def journey_metrics(content: Content, plan: Plan, stage: int = LAST) -> list[Measured]:
    """Per tier, cautious: the chance to reach the campaign's goal (Z-41) and the mean day
    it is reached (by those who reach it)."""
    return measured(Journeys(content, plan), stage)


def skirmish_metrics(content: Content, plan: Plan, stage: int = LAST) -> list[Measured]:
    """P(win) of the value tier against the skirmish monsters, per strategy (A-, M- rules)."""
    return measured(Skirmishes(content, plan), stage)


def stalkeriada_metrics(content: Content, plan: Plan, stage: int = LAST) -> list[Measured]:
    """The full table of the shipped strategies, every seat order: win rates (S-05),
    the share of games without a winner and the mean game length in rounds."""
    return measured(Stalkeriada(content, plan), stage)


def economy_metrics(content: Content, plan: Plan, stage: int = LAST) -> list[Measured]:
    """Every card's whole-game value in G (``sim.economy.value``), with its bootstrap replicas
    (cards not valued, with no replicas, are left out); measured whole at any stage."""
    from sim.economy.context import declared
    from sim.economy.value import value_cards

    result = value_cards(declared(content, plan.ctx))
    return [Measured(f"item_value_g.{row['item']}", "G", float(row["value_g"]),
                     replicas=result.value_replicas[row["item"]]) for row in result.items
            if row["item"] in result.value_replicas]


MEASURES = {"fights": fight_metrics, "journeys": journey_metrics, "skirmish": skirmish_metrics,
            "stalkeriada": stalkeriada_metrics, "economy": economy_metrics}


def metric_names(content: Content, plan: Plan) -> list[str]:
    """The names of the headline numbers ``measure`` gives for ``plan``, without measuring them."""
    from sim.run.stalkeriada import DEFAULT_PLAYERS

    tiers = list(plan.study.tiers)
    names = {"fights": [f"fight_survival.{m}.{t}" for m in plan.monsters for t in tiers],
             "journeys": [f"journey_{k}.{t}" for t in tiers for k in ("finish", "days")],
             "skirmish": [f"skirmish_win.{s}" for s in SKIRMISH_STRATEGIES],
             "stalkeriada": [f"stalkeriada_win.{p}" for p in DEFAULT_PLAYERS]
             + ["stalkeriada_no_winner", "stalkeriada_rounds"],
             "economy": [f"item_value_g.{i}" for i in sorted(content.items)]}
    return [n for g in plan.groups for n in names[g]]


def measure_group(part, plan: Plan, stage: int = LAST) -> list[Measured]:
    """One task: ``part`` is ``(content, group)``."""
    content, group = part
    return MEASURES[group](content, plan, stage)


def measure(content: Content, plan: Plan, client=None, store=None, side="content", stage=LAST) -> list[Measured]:
    """Every headline number of ``plan.groups`` on ``content`` (on the cluster when ``client`` is given),
    at ``stage`` of their counts (``sim.compare.headline``; default the full count). With a checkpoint
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
    d = new.batches - base.batches
    d = d[np.isfinite(d)]
    if d.size < 2 or math.isnan(diff):
        return diff, math.nan, math.nan
    half = t975(d.size - 1) * float(d.std(ddof=1)) / math.sqrt(d.size)
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
