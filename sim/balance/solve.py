"""The balance solver: proposals of a few changed numbers that bring the
headline numbers into their bands, with the evidence.

- **Measure.** A candidate (a value per knob) is a content copy with those
  numbers set, measured by `zonesim compare`'s groups (``sim.run.headline``)
  on the same dice as the baseline, at the search counts, which rise as the
  search narrows: its first third at 5% of them, the next at 25%, the last
  third whole (``SEARCH_STAGES``; each stage the first trials of every batch,
  as the explorer's stages). Putting needless changes back and the baseline
  it is judged against use the whole counts.
- **Search.** Three objectives, all minimised: the weighted distance of the
  targets to their bands (in band widths), the number of knobs changed, and
  how far they moved (in their ranges' widths), so that small edits win.
  First every knob alone to each bound, then Optuna's TPE sampler
  (multi-objective), reseeded per candidate from (seed, candidate number).
  Candidates are proposed ``batch`` at a time and told together once all are
  measured (side by side on a Dask cluster, one after the other here): the
  proposals depend on the batch size, never on where the candidates ran, and
  a resumed study proposes what an unbroken one would. The study lives in
  ``study.db`` (SQLite, Optuna's own storage): Ctrl-C keeps it and
  ``--resume`` continues it.
- **Proposals.** The candidates no other beats on all three objectives (the
  Pareto set) that come closer to the bands than the baseline, each with the
  changes it does not need put back (``simplify``); the fewest targets
  missed first, then the fewest changed numbers. Each is measured again at
  the full counts on fresh dice (seed + 1), every target with its 95%
  interval and met or not.
"""

from __future__ import annotations

import tempfile
import time
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path

from sim.analysis.stats import batch_half_width
from sim.balance.spec import BalanceSpec, groups_of, with_values
from sim.run.headline import LAST
from sim.compare.metrics import measure, paired_interval
from sim.content.load import ContentError

PROPOSALS = 5  # at most this many proposals are measured again and written
SIMPLIFIED = 12  # at most this many of the Pareto set have their needless changes put back
FRESH_DICE = 1  # the proposals are measured again with the seed plus this: dice the search never saw
SEARCH_STAGES = (1, 2, LAST)  # the search's counts rise through these stages (``sim.run.headline.FRACTIONS``)


@dataclass(frozen=True)
class Candidate:
    """One measured candidate: the knob values it changed, its targets' values and the objectives."""

    number: int  # 1, 2, .. in the order measured
    changes: dict  # knob label -> value (only the knobs moved)
    values: dict  # target metric -> value
    distance: float
    moved: float


def objectives(spec_targets, knobs, values: dict, metrics: dict) -> tuple:
    """``(distance, changed, moved)`` of a candidate (module doc)."""
    distance = sum(t.weight * t.distance(metrics[t.metric]) for t in spec_targets)
    changed = [k for k in knobs if values[k.label] != k.base]
    return distance, len(changed), sum(k.move(values[k.label]) for k in changed)


def plan_for(plan, targets):
    """``plan`` narrowed to what ``targets`` read: their groups, and the monsters they name."""
    groups = groups_of(targets)
    monsters = tuple(dict.fromkeys(t.metric.split(".")[1] for t in targets if t.metric.startswith("fight_survival.")))
    return replace(plan, groups=tuple(g for g in plan.groups if g in groups) or groups,
                   monsters=monsters or plan.monsters)


class Evaluator:
    """The targets' headline numbers of a candidate, measured on a content copy
    (on the cluster of a Dask ``client`` when several are measured together)."""

    def __init__(self, folder: Path, spec: BalanceSpec, plan, targets, client=None):
        self.folder, self.spec, self.plan, self.targets, self.client = Path(folder), spec, plan, targets, client
        self.wanted = {t.metric for t in targets}
        self.tmp = tempfile.TemporaryDirectory(prefix="zonesim-balance-")
        self.count = 0

    def content(self, values: dict):
        """The content with the knobs at ``values`` (by label), loaded from its copy."""
        from sim.content import load_content

        changed = {k: values[k.label] for k in self.spec.knobs if values[k.label] != k.base}
        self.count += 1
        folder = with_values(self.folder, Path(self.tmp.name) / f"c{self.count}", changed) if changed else self.folder
        return load_content(folder)

    def metrics(self, values: dict, stage: int = LAST) -> dict:
        """``{metric: Measured}`` of the targets with the knobs at ``values`` (by label), at
        ``stage`` of the plan's counts (``sim.run.headline``)."""
        return target_metrics(self.content(values), self.plan, self.wanted, stage)

    def many(self, candidates: list, refused=False, stage: int = LAST) -> list:
        """``metrics`` of each of ``candidates`` at ``stage``, side by side on the cluster if there
        is one; ``refused``: None for a candidate the content's loaders refuse, instead of its error."""
        def attempt(step, values):
            try:
                return step(values)
            except ContentError:
                if not refused:
                    raise
                return None

        if self.client is None:
            return [attempt(lambda v: self.metrics(v, stage), values) for values in candidates]
        from sim.run.distributed import map_batches

        contents = [attempt(self.content, values) for values in candidates]
        found = iter(map_batches(self.client, target_metrics, [c for c in contents if c is not None], self.plan,
                                 self.wanted, stage))
        return [None if c is None else next(found) for c in contents]


def target_metrics(content, plan, wanted, stage=LAST) -> dict:
    """``{metric: Measured}`` of the headline numbers ``wanted`` of ``content`` at ``stage`` (one task on a
    cluster)."""
    return {m.name: m for m in measure(content, plan, stage=stage) if m.name in wanted}


def search_stage(done: int, budget: int) -> int:
    """The stage of the counts candidate ``done + 1`` of ``budget`` is measured at: the first
    third at ``SEARCH_STAGES[0]``, the next at the second, the last third at the full count."""
    return SEARCH_STAGES[min(len(SEARCH_STAGES) - 1, len(SEARCH_STAGES) * done // budget)]


def interval(measured) -> list:
    """The 95% Student t interval of a headline number over its batches."""
    half = batch_half_width(measured.batches)
    return [measured.value - half, measured.value + half]


def search(spec: BalanceSpec, evaluator: Evaluator, storage: str, *, resume: bool, on_progress=None) -> list:
    """The measured candidates of the study in ``storage`` (module doc), ``spec.budget`` of them."""
    with warnings.catch_warnings():  # optuna's progress bar module warns in a notebook without ipywidgets
        warnings.filterwarnings("ignore", message="IProgress not found")
        import optuna
    from optuna.distributions import IntDistribution
    from optuna.trial import TrialState

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    knobs = spec.knobs
    grids = {k.label: k.grid() for k in knobs}
    space = {k.label: IntDistribution(0, len(grids[k.label]) - 1) for k in knobs}
    study = optuna.create_study(study_name="balance", storage=storage, directions=["minimize"] * 3,
                                load_if_exists=resume)
    own = {k.label: grids[k.label].index(k.base) for k in knobs}
    probes = [{**own, k.label: grids[k.label].index(bound)} for k in knobs for bound in (k.low, k.high)
              if bound != k.base]
    targets = evaluator.targets

    def values_of(trial):
        return {label: grids[label][trial.params[label]] for label in space}

    for cut in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):  # a batch cut short: proposed again
        study.tell(cut.number, state=TrialState.FAIL)
    while (done := len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)))) < spec.budget:
        size = min(spec.batch, spec.budget - done)
        if on_progress:
            on_progress(done, spec.budget, f"candidates {done + 1}-{done + size}" if size > 1 else f"candidate {done + 1}")
        waiting = len(study.get_trials(deepcopy=False, states=(TrialState.WAITING,)))  # queued before a kill
        for n in range(done + waiting, min(done + size, len(probes))):
            study.enqueue_trial(probes[n])
        batch = []
        for n in range(done, done + size):
            study.sampler = optuna.samplers.TPESampler(seed=spec.seed * 1_000_003 + n, multivariate=True,
                                                       n_startup_trials=len(probes) + 5)
            batch.append(study.ask(space))
        stage = search_stage(done, spec.budget)
        for trial, metrics in zip(batch, evaluator.many([values_of(t) for t in batch], stage=stage)):
            point = {name: m.value for name, m in metrics.items()}
            trial.set_user_attr("values", point)
            trial.set_user_attr("stage", stage)
            study.tell(trial, list(objectives(targets, knobs, values_of(trial), point)))
    if on_progress:
        on_progress(spec.budget, spec.budget, "searched")
    out = []
    for n, t in enumerate(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)), 1):  # a cut one: no number
        values = {label: grids[label][t.params[label]] for label in space}
        changes = {k.label: values[k.label] for k in knobs if values[k.label] != k.base}
        out.append(Candidate(n, changes, t.user_attrs["values"], t.values[0], t.values[2]))
    return out


def pareto(candidates: list, baseline_distance: float) -> list:
    """The candidates no other beats on distance, changes and move together that come
    closer than the baseline, one per set of changes, in the order measured."""
    def key(c):
        return (c.distance, len(c.changes), c.moved)

    front = [c for c in candidates if c.distance < baseline_distance
             and not any(all(a <= b for a, b in zip(key(o), key(c))) and key(o) != key(c) for o in candidates)]
    unique = {tuple(sorted(c.changes.items())): c for c in sorted(front, key=lambda c: c.number, reverse=True)}
    return sorted(unique.values(), key=lambda c: c.number)


def simplify(candidate: Candidate, evaluator: "Evaluator", knobs) -> Candidate:
    """``candidate`` with every change put back that it does not need: each changed knob,
    the smallest move first, goes back to its own value when the targets come no further
    from their bands without it (on the search's dice: a knob with no effect changes no
    number at all)."""
    by_label = {k.label: k for k in knobs}
    own = {k.label: k.base for k in knobs}
    changes, point, distance = dict(candidate.changes), candidate.values, candidate.distance
    for label in sorted(candidate.changes, key=lambda lab: (by_label[lab].move(candidate.changes[lab]), lab)):
        kept = {lab: v for lab, v in changes.items() if lab != label}
        values = {**own, **kept}
        trial = {n: m.value for n, m in evaluator.metrics(values).items()}
        d = objectives(evaluator.targets, knobs, values, trial)[0]
        if d <= distance:
            changes, point, distance = kept, trial, d
    return Candidate(candidate.number, changes, point, distance,
                     sum(by_label[lab].move(v) for lab, v in changes.items()))


def ranked(candidates: list, targets) -> list:
    """One per set of changes: the fewest targets outside their bands first, then the
    fewest changes, the closest, the smallest move."""
    unique = {tuple(sorted(c.changes.items())): c for c in sorted(candidates, key=lambda c: c.number, reverse=True)}

    def unmet(c):
        return sum(not t.met(c.values[t.metric]) for t in targets)

    return sorted(unique.values(), key=lambda c: (unmet(c), len(c.changes), c.distance, c.moved, c.number))


@dataclass
class BalanceResult:
    """The baseline and the proposals, each target re-measured at the full counts on fresh dice."""

    spec: BalanceSpec
    folder: Path
    targets: list
    baseline: dict  # metric -> {"value", "ci95", "met"} (fresh dice)
    proposals: list  # {"changes": {label: [from, to]}, "targets": {metric: {...}}, "met", "distance"}
    candidates: int
    seed: int
    elapsed_s: float
    search_s: float  # of which the search (the rest: putting needless changes back, measuring again)
    quick: bool = False  # the proposals were measured again at the quick counts
    swings: dict = field(default_factory=dict)  # --knobs auto: each chosen knob's swing on the targets, by label

    def baseline_met(self) -> int:
        return sum(v["met"] for v in self.baseline.values())

    def to_json(self) -> dict:
        """The JSON of ``zonesim balance --json`` and ``balance.json`` (docs: JSON contracts)."""
        from sim.run.results import json_safe

        return json_safe({"balance": str(self.spec.path), "content": str(self.folder), "seed": self.seed,
                          "candidates": self.candidates, "quick": self.quick, "elapsed_s": self.elapsed_s,
                          "search_s": self.search_s,
                          "targets": [{"metric": t.metric, "band": [t.low, t.high], "weight": t.weight}
                                      for t in self.targets],
                          "knobs": [{"knob": k.label, "value": k.base, "bounds": [k.low, k.high], "step": k.step,
                                     "auto": k.label in self.swings, "swing": self.swings.get(k.label)}
                                    for k in self.spec.knobs],
                          "baseline": {"targets": self.baseline, "met": self.baseline_met()},
                          "proposals": self.proposals})


def remeasure(evaluator: Evaluator, candidates: list) -> list:
    """``{metric: {"value", "ci95", "met"}}`` of the targets at each of ``candidates`` (knob
    values, the first the content as it is), and for the others the paired change from
    the first on the same dice, ``"diff"`` with its 95% interval ``"diff_ci95"``."""
    first, *rest = evaluator.many(candidates)

    def row(metrics, t):
        m = metrics[t.metric]
        out = {"value": m.value, "ci95": interval(m), "met": t.met(m.value)}
        if metrics is not first:
            diff, lo, hi = paired_interval(first[t.metric], m)
            out |= {"diff": diff, "diff_ci95": [lo, hi]}
        return out

    return [{t.metric: row(metrics, t) for t in evaluator.targets} for metrics in (first, *rest)]


def solve(folder: Path, spec: BalanceSpec, targets: list, search_plan, full_plan, storage: str, *, resume=False,
          quick=False, on_progress=None, client=None, auto=False) -> BalanceResult:
    """Search, then measure the baseline and the best proposals again on fresh dice
    (module doc); ``targets``: the spec's, matched to headline numbers (``BalanceSpec.expand``);
    ``client``: a Dask client the candidates of a batch are measured on; ``auto``: the
    knobs of ``sim.balance.auto`` join the file's."""
    started = time.perf_counter()
    search_plan, full_plan = plan_for(search_plan, targets), plan_for(full_plan, targets)
    swings = {}  # the chosen knobs' swings on the targets (--knobs auto)
    if auto:
        from sim.balance.auto import candidates, choose, screen

        params = candidates(folder)
        screener = Evaluator(folder, replace(spec, knobs=params), search_plan, targets, client)
        screened = screen(screener, params, targets, on_progress)
        chosen = choose(spec.path, screened, {k.label for k in spec.knobs})
        swings = {s.label: s.swing for s in screened if s.label in {k.label for k in chosen}}
        spec = replace(spec, knobs=spec.knobs + chosen)
    own = {k.label: k.base for k in spec.knobs}
    searcher = Evaluator(folder, spec, search_plan, targets, client)
    baseline_point = {n: m.value for n, m in searcher.metrics(own).items()}
    baseline_distance = objectives(targets, spec.knobs, own, baseline_point)[0]
    searched = search(spec, searcher, storage, resume=resume, on_progress=on_progress)
    search_s = time.perf_counter() - started
    front = pareto(searched, baseline_distance)
    found = ranked([simplify(c, searcher, spec.knobs) for c in front[:SIMPLIFIED]], targets)
    fresh = Evaluator(folder, spec, replace(full_plan, seed=full_plan.seed + FRESH_DICE), targets, client)
    baseline, *again = remeasure(fresh, [own] + [{**own, **c.changes} for c in found[:PROPOSALS]])
    proposals = []
    for c, measured in zip(found, again):
        by_label = {k.label: k for k in spec.knobs}
        proposals.append({"candidate": c.number, "changed": len(c.changes),
                          "changes": {label: [by_label[label].base, v] for label, v in c.changes.items()},
                          "targets": measured, "met": sum(v["met"] for v in measured.values()),
                          "distance": sum(t.weight * t.distance(measured[t.metric]["value"]) for t in targets)})
    return BalanceResult(spec, Path(folder), targets, baseline, proposals, spec.budget, search_plan.seed,
                         time.perf_counter() - started, search_s, quick=quick, swings=swings)
