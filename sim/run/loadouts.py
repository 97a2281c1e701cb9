"""Every loadout a budget buys, each fought on the same dice: survival per loadout,
the Pareto front of cost against survival and the best loadout per budget step.

Enumeration (``enumerate_loadouts``): at most one firearm (or none) with any
subset of its own modifiers (Z-20, Z-21), at most one head and one body armour
item (Z-24), a count 0..``max_count`` of every stimulator and explosive (never
above the card's deck, Z-11, nor above the explosives cap in all, Z-18) and at
most one escape item (Z-32), every combination costing at most the budget
(Z-42 prices). Families that do nothing in a dice fight are never enumerated:
movement, one-shot, location and avoidance items (Z-25..Z-30), and medkits,
which heal only outside combat (Z-31) and so nothing at the full health a
fight starts with. Each loadout is checked by ``Loadout.validate``.

Evaluation (``evaluate_loadouts``): every loadout fights trials ``0 .. trials - 1``
of one seed against every group of a monster mix (``fight_outcomes`` through
``sim.run.fight.survived``), so all loadouts meet the same dice (common random
numbers) and their differences are paired. Survival is the weight-averaged
survival over the groups. Its 95% interval is the weight average of the
groups' Wilson intervals (bound by bound): exactly Wilson for one group and,
since the standard deviation of a weighted sum is at most the weighted sum of
the standard deviations, conservative however the groups' results correlate
(they share dice). Counts are integer sums over chunks of trials, so any chunk
size and any thread count give the same numbers, and memory stays flat.

Runtime, measured on 2 cores shared with other work (kernels loaded from the
disk cache; ``elapsed_s`` of ``--json``, wall time of the whole command in
brackets), with ``time zonesim loadouts --budget B ... --json``:

- ``--budget 1500 --monster bloodsucker``: 3,596 loadouts (all six families)
  x 20,000 fights = 72 M fights in 2.8 s (4.0 s); ``--strategy tactician``
  8.1 s (9.2 s); ``--mix`` of three groups (snork x2; boar + blind_dog;
  bloodsucker) 8.8 s (10.0 s); ``--trials 50000`` 5.9 s (7.0 s), and 9.7 s
  with ``--threads 1``.
- ``--budget 2000 --monster chimera``: 11,992 loadouts, 240 M fights, 13 s (14 s).
- ``--budget 2500 --monster bloodsucker``: 29,138 loadouts, 583 M fights, 25 s
  (27 s); with the three-group mix, 1.75 G fights, 154 s while another job
  held a core.

Enumerating is instant next to fighting (29,138 loadouts in 0.25 s). A busy
core slows the many short parallel kernel calls sharply: 1,922 loadouts x
20,000 fights took 15 s instead of 2.5 s while another parallel simulation
ran, and 4.2 s beside a busy loop on one core, where ``--threads 1`` took 2.3 s.
"""

from __future__ import annotations

import itertools
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from sim.analysis.stats import wilson
from sim.content import Content, ContentError
from sim.content.loadout import Loadout, LoadoutError
from sim.content.schema import ITEM_FAMILIES
from sim.run.distributed import batches, iter_batches
from sim.run.fight import FightMeasure

FIGHT_FAMILIES = ("firearms", "modifiers", "armour", "healing", "explosives", "escape")
"""The item families that can change a dice fight, in enumeration order."""
JOURNEY_FAMILIES = FIGHT_FAMILIES + ("movement", "location", "avoidance")
"""Journeys add Zone-movement (Z-25), location-movement (Z-29) and event-avoidance (Z-30) items, and medkits."""


# --- enumeration


@dataclass(frozen=True)
class _Option:
    """One choice for one slot of a loadout: its cost, explosives and Loadout fields."""

    cost: int
    explosives: int
    fields: tuple = ()


def check_families(families, journey=False) -> tuple:
    """The families to enumerate, each a known family that acts in a dice fight
    (or, for ``journey``, on a journey)."""
    usable = JOURNEY_FAMILIES if journey else FIGHT_FAMILIES
    out = tuple(dict.fromkeys(families))
    for family in out:
        if family not in ITEM_FAMILIES:
            raise LoadoutError(f"--families: unknown family '{family}'; use some of: {', '.join(usable)}")
        if family not in usable:
            where = "on these journeys" if journey else "in a dice fight (Z-25..Z-30)"
            raise LoadoutError(f"--families: '{family}' items do nothing {where}; use some of: {', '.join(usable)}")
    if not out:
        raise LoadoutError(f"--families: none given; use some of: {', '.join(usable)}")
    if "modifiers" in out and "firearms" not in out:
        raise LoadoutError("--families: modifiers fit a firearm (Z-21); add firearms or drop modifiers")
    return out


def _available(items):
    """Items with at least one card in their deck (Z-11)."""
    return [item for item in items if item["deck"] >= 1]


def _weapon_options(content: Content, with_mods: bool):
    """No firearm, or one firearm with any subset of its own modifiers (Z-20, Z-21)."""
    out = [_Option(0, 0)]
    for firearm in _available(content.family("firearms")):
        mods = [m for m in _available(content.family("modifiers")) if m["firearm"] == firearm.id] if with_mods else []
        for size in range(len(mods) + 1):
            for subset in itertools.combinations(mods, size):
                cost = firearm["price"] + sum(m["price"] for m in subset)
                out.append(_Option(cost, 0, (("weapon", firearm.id), ("mods", tuple(m.id for m in subset)))))
    return out


def _single_options(items, field):
    """None of ``items``, or one of them in ``field`` (Z-24 armour slots, Z-32 escape)."""
    return [_Option(0, 0)] + [_Option(item["price"], 0, ((field, item.id),)) for item in _available(items)]


def _count_options(item, field, max_count, explosive):
    """0..``max_count`` cards of ``item``, at most its deck (Z-11)."""
    top = min(max_count, item["deck"])
    return [_Option(n * item["price"], n if explosive else 0, ((field, ((item.id, n),)),) if n else ())
            for n in range(top + 1)]


def _slots(content: Content, families, max_count, journey=False):
    """The independent choices a loadout is made of, in enumeration order."""
    slots = []
    if "firearms" in families:
        slots.append(_weapon_options(content, "modifiers" in families))
    if "armour" in families:
        armour = content.family("armour")
        for slot in ("head", "body"):
            slots.append(_single_options([a for a in armour if a["slot"] == slot], slot))
    if "healing" in families:  # medkits heal only outside combat: of use on journeys, not in one fight (Z-31)
        slots += [_count_options(i, "healing", max_count, False) for i in content.family("healing")
                  if i["in_combat"] or journey]
    if "explosives" in families:
        slots += [_count_options(i, "explosives", max_count, True) for i in content.family("explosives")]
    if "escape" in families:
        slots.append(_single_options(content.family("escape"), "escape_item"))
    for family in ("movement", "location", "avoidance"):  # one active of each (Z-25, Z-29, Z-30)
        if family in families:
            slots.append([_Option(0, 0)] + [_Option(i["price"], 0, ((family, (i.id,)),))
                                            for i in _available(content.family(family))])
    return slots


def _combinations(slots, budget, cap):
    """Every choice of one option per slot within ``budget`` and ``cap`` explosives,
    the last slot's choice changing fastest."""
    def walk(i, cost, explosives, chosen):
        if i == len(slots):
            yield chosen
            return
        for option in slots[i]:
            if cost + option.cost <= budget and explosives + option.explosives <= cap:
                yield from walk(i + 1, cost + option.cost, explosives + option.explosives, chosen + (option,))

    return walk(0, 0, 0, ())


def _loadout(chosen, character, reputation) -> Loadout:
    """The ``Loadout`` of one option per slot (counted fields concatenate)."""
    fields = {"healing": (), "explosives": ()}
    for option in chosen:
        for name, value in option.fields:
            fields[name] = fields[name] + value if name in ("healing", "explosives") else value
    return Loadout(character=character, reputation=reputation, **fields)


def enumerate_loadouts(content: Content, *, budget, character="novice", max_count=2, families=FIGHT_FAMILIES,
                       reputation=None, limit=None, journey=False) -> list[Loadout]:
    """Every legal loadout of ``families`` costing at most ``budget`` G (Z-11, Z-18,
    Z-20..Z-24, Z-32, Z-42), each validated, in a fixed order: firearm (none
    first, then content order, modifier subsets by size), head, body, each
    stimulator's count, each explosive's count, escape item. More than ``limit``
    loadouts (if given) is an error naming the ways to narrow the search. For
    a ``journey`` medkits, Zone-movement and avoidance items may be bought too."""
    if budget <= 0:
        raise LoadoutError(f"--budget: {budget}; give a positive amount of G, e.g. --budget 3000")
    if max_count < 0:
        raise LoadoutError(f"--max-count: {max_count}; give 0 or more cards per stimulator or explosive")
    families = check_families(families, journey)
    Loadout(character=character, reputation=reputation).validate(content)
    cap = content.rules["fight"]["max_explosives"]
    slots = _slots(content, families, max_count, journey)
    out = []
    for chosen in _combinations(slots, budget, cap):
        if limit is not None and len(out) == limit:
            raise LoadoutError(f"--budget: more than {limit:,} loadouts cost at most {budget:,} G; narrow "
                               f"--families or --max-count, lower --budget, or raise --max-loadouts")
        out.append(_loadout(chosen, character, reputation).validate(content))
    if len(out) == 1:
        cheapest = min((o.cost for slot in slots for o in slot if o.fields), default=None)
        fix = f"raise --budget to {cheapest:,} G or more" if cheapest is not None else "choose other --families"
        raise LoadoutError(f"--budget: {budget:,} G buys nothing of {', '.join(families)}; {fix}")
    return out


def describe(loadout: Loadout) -> str:
    """A one-line readable loadout: ``ak47+rebored · helmet/vest · 2 stimulator · camo_cloak``."""
    parts = ["+".join([loadout.weapon, *loadout.mods]) if loadout.weapon else "no firearm"]
    armour = "/".join(a for a in (loadout.head, loadout.body) if a)
    kit = ", ".join(f"{n} {i}" for i, n in (*loadout.healing, *loadout.explosives))
    parts += [p for p in (armour, kit, loadout.escape_item, *loadout.movement, *loadout.avoidance) if p]
    return " · ".join(parts)


# --- the monster mix


@dataclass(frozen=True)
class MixGroup:
    """Monsters fought at once (Z-37, Z-38) and the group's weight in the mix."""

    monsters: tuple
    weight: float = 1.0


def monster_mix(content: Content, monsters) -> tuple[MixGroup, ...]:
    """One group of all ``monsters`` (repeated ``--monster``), weight 1."""
    if not monsters:
        raise LoadoutError("--monster/--mix: give monsters, e.g. --monster bloodsucker, or --mix FILE.toml")
    for m in monsters:
        if m not in content.monsters:
            raise LoadoutError(f"--monster: unknown id '{m}'; use one of: {', '.join(content.monsters)}")
    return (MixGroup(tuple(monsters)),)


def load_mix(content: Content, path) -> tuple[MixGroup, ...]:
    """The groups of a mix file: ``[[group]]`` tables with ``monsters = ["snork", "boar"]``
    and an optional positive ``weight`` (default 1); every problem is one line
    naming the file and the field."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ContentError(f"{path}: mix file not found; give a TOML file of [[group]] tables") from None
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{path}: malformed TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ContentError(f"{path}: not UTF-8 text: {exc}") from None
    extra = sorted(set(raw) - {"group"})
    if extra:
        raise ContentError(f"{path}: {extra[0]}: unknown key; a mix holds only [[group]] tables")
    groups = raw.get("group")
    if not isinstance(groups, list) or not groups:
        raise ContentError(f'{path}: no [[group]]; add e.g. [[group]] monsters = ["snork"] weight = 1')
    return tuple(_mix_group(content, f"{path}: [[group]] {i}", table) for i, table in enumerate(groups, 1))


def _mix_group(content: Content, where, table) -> MixGroup:
    """One validated ``[[group]]`` table."""
    if not isinstance(table, dict):
        raise ContentError(f"{where}: expected a table, got {type(table).__name__}")
    extra = sorted(set(table) - {"monsters", "weight"})
    if extra:
        raise ContentError(f"{where}.{extra[0]}: unknown field; known fields: monsters, weight")
    monsters = table.get("monsters")
    if not isinstance(monsters, list) or not monsters or not all(isinstance(m, str) for m in monsters):
        raise ContentError(f'{where}.monsters: expected a non-empty list of monster ids, e.g. ["snork", "boar"]')
    unknown = next((m for m in monsters if m not in content.monsters), None)
    if unknown is not None:
        raise ContentError(f"{where}.monsters: unknown monster '{unknown}'; use one of: {', '.join(content.monsters)}")
    weight = table.get("weight", 1)
    if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not weight > 0:
        raise ContentError(f"{where}.weight: {weight!r} is not a positive number; write e.g. weight = 2")
    return MixGroup(tuple(monsters), float(weight))


# --- evaluation on common random numbers


def mix_survival(survivors, trials, weights):
    """Survival ``(p, low, high)`` per loadout from survivors per loadout and group:
    the weighted mean of the groups' rates and of their Wilson bounds."""
    w = np.asarray(weights, float) / np.sum(weights)
    bounds = np.array([[wilson(int(s), trials) for s in row] for row in survivors]).reshape(len(survivors), -1, 2)
    return survivors / trials @ w, bounds[:, :, 0] @ w, bounds[:, :, 1] @ w


def pareto_flags(costs, survival) -> np.ndarray:
    """True where no other loadout costs no more and survives no less, one of
    them strictly (ties in both are all on the front)."""
    survival = np.asarray(survival, float)
    levels, level = np.unique(np.asarray(costs), return_inverse=True)
    top = np.full(levels.size, -np.inf)
    np.maximum.at(top, level, survival)  # the best survival at each cost
    cheaper = np.concatenate([[-np.inf], np.maximum.accumulate(top)[:-1]])  # ... and at any lower cost
    return (survival == top[level]) & (top[level] > cheaper[level])


def step_budgets(step, budget) -> list:
    """The budgets ``step, 2 step, ...`` below ``budget``, then ``budget`` itself."""
    if step <= 0:
        raise LoadoutError(f"--step: {step}; give a positive budget step in G, e.g. --step 250")
    return list(range(step, budget, step)) + [budget]


def best_per_step(table: pl.DataFrame, step, budget) -> pl.DataFrame:
    """For each of the ``step_budgets``, the best-surviving loadout of ``table``
    costing at most it (ties: the cheaper, then the earlier enumerated); a
    budget that buys no loadout of ``table`` has no row."""
    ranked = table.sort(["survival", "cost", "index"], descending=[True, False, False])
    best = pl.concat([ranked.filter(pl.col("cost") <= b).head(1).with_columns(pl.lit(b, pl.Int64).alias("budget"))
                      for b in step_budgets(step, budget)])
    return best.select("budget", "index", "cost", "survival", "ci_low", "ci_high", "description")


def _survivors(loadouts, content, groups, strategy, trials, seed, chunk):
    """Survivors of ``trials`` fights per loadout and group (a task of a sweep)."""
    measures = [FightMeasure(content, tuple(g.monsters), strategy) for g in groups]
    out = np.zeros((len(loadouts), len(groups)), np.int64)
    for i, loadout in enumerate(loadouts):
        for g, measure in enumerate(measures):
            run = measure(loadout)
            out[i, g] = sum(int(run(min(chunk, trials - first), seed, first).sum())
                            for first in range(0, trials, chunk))
    return out


@dataclass
class LoadoutsResult:
    """Survivors per loadout and group after ``trials`` fights each on seed ``seed``."""

    content: Content
    loadouts: list
    groups: tuple
    survivors: np.ndarray
    trials: int
    seed: int
    strategy: str
    elapsed_s: float

    def table(self) -> pl.DataFrame:
        """One row per loadout (enumeration order): cost, survival with its 95%
        interval, the Pareto flag, a description and the items."""
        costs = np.array([lo.cost(self.content) for lo in self.loadouts], np.int64)
        p, low, high = mix_survival(self.survivors, self.trials, [g.weight for g in self.groups])
        counts = lambda pairs: ",".join(f"{i}:{n}" for i, n in pairs)  # noqa: E731
        return pl.DataFrame({
            "index": np.arange(len(self.loadouts)), "cost": costs, "survival": p, "ci_low": low, "ci_high": high,
            "pareto": pareto_flags(costs, p), "description": [describe(lo) for lo in self.loadouts],
            "weapon": [lo.weapon or "" for lo in self.loadouts], "mods": [",".join(lo.mods) for lo in self.loadouts],
            "head": [lo.head or "" for lo in self.loadouts], "body": [lo.body or "" for lo in self.loadouts],
            "healing": [counts(lo.healing) for lo in self.loadouts],
            "explosives": [counts(lo.explosives) for lo in self.loadouts],
            "escape_item": [lo.escape_item or "" for lo in self.loadouts],
        })

    def by_group(self) -> pl.DataFrame:
        """One row per loadout and group: that group's survival with its Wilson interval."""
        rows = [{"index": i, "group": g + 1, "monsters": ",".join(group.monsters), "weight": group.weight,
                 "survival": int(s) / self.trials, **dict(zip(("ci_low", "ci_high"), wilson(int(s), self.trials)))}
                for i, row in enumerate(self.survivors) for g, (group, s) in enumerate(zip(self.groups, row))]
        return pl.DataFrame(rows)


def evaluate_loadouts(content: Content, loadouts, groups, strategy, *, trials, seed, chunk=1 << 16,
                      on_progress=None, client=None, batch=256, store=None) -> LoadoutsResult:
    """Fight every loadout against every group of the mix on trials
    ``0 .. trials - 1`` of ``seed`` (common random numbers) under ``strategy``,
    ``chunk`` trials at a time, in batches of ``batch`` loadouts (``_sweep``:
    on a Dask ``client`` if given, each kept in a checkpoint ``store`` if
    given); ``on_progress(done, total, None)`` after each batch. The counts are
    the same either way."""
    if trials < 1:
        raise LoadoutError(f"--trials: {trials}; give at least 1 trial per loadout")
    if chunk < 1:
        raise LoadoutError(f"--chunk: {chunk}; give at least 1")
    start = time.perf_counter()
    survivors = _sweep(_survivors, loadouts, (content, tuple(groups), strategy, trials, seed, chunk), len(groups),
                       batch=batch, client=client, store=store, per_loadout=len(groups) * trials,
                       on_progress=on_progress)
    return LoadoutsResult(content, list(loadouts), tuple(groups), survivors, trials, seed, strategy.name,
                          time.perf_counter() - start)


def evaluate_journey_loadouts(content: Content, loadouts, strategy, *, days, trials, seed,
                              on_progress=None, client=None, batch=8, store=None) -> LoadoutsResult:
    """Send every loadout on the same ``trials`` campaigns of ``days`` days (common
    random numbers, ``sim.run.journey.simulate_journey``); the "survival" of the
    result is the chance to reach the campaign's goal (Z-41). Batches of ``batch``
    loadouts as in ``evaluate_loadouts``; the counts are the same."""
    if trials < 1:
        raise LoadoutError(f"--trials: {trials}; give at least 1 campaign per loadout")
    start = time.perf_counter()
    done = _sweep(_completions, loadouts, (content, strategy, days, trials, seed), 1, batch=batch, client=client,
                  store=store, per_loadout=trials, on_progress=on_progress)
    return LoadoutsResult(content, list(loadouts), (MixGroup((f"{days}-day journey",), 1.0),), done, trials, seed,
                          strategy.name, time.perf_counter() - start)


def _sweep(task, loadouts, args, width, *, batch, client, store, per_loadout, on_progress):
    """``task(part, *args)`` (counts, one row per loadout of ``part``) over ``loadouts`` in
    batches of ``batch``, as tasks of ``client`` if given; each batch's counts are kept in
    (and on a resume read from) the checkpoint ``store``. The rows stacked in loadout order."""
    parts = batches(list(loadouts), batch)
    names = [f"loadouts-{k * batch}-{len(part)}.npz" for k, part in enumerate(parts)]
    rows = [store.load(name) if store is not None else None for name in names]
    rows = [None if kept is None else kept["counts"] for kept in rows]
    todo = [k for k, kept in enumerate(rows) if kept is None]
    done = sum(len(part) for part, kept in zip(parts, rows) if kept is not None)
    for k, counts in zip(todo, iter_batches(client, task, [parts[k] for k in todo], *args)):
        rows[k] = np.asarray(counts, np.int64).reshape(len(parts[k]), width)
        if store is not None:
            store.save(names[k], {"counts": rows[k]})
        done += len(parts[k])
        if on_progress:
            on_progress(done * per_loadout, len(loadouts) * per_loadout, None)
    return np.concatenate(rows) if rows else np.zeros((0, width), np.int64)


def _completions(loadouts, content, strategy, days, trials, seed):
    """Campaigns that reach the campaign's goal, per loadout (a task of a sweep)."""
    from sim.run.journey import simulate_journey

    return np.array([simulate_journey(content, lo, strategy, days=days, trials=trials, seed=seed).counts[0]
                     for lo in loadouts], np.int64)
