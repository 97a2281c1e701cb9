"""The one question the economy asks a runner: "how well does this kit do on
these dice?", as the outcome summed per paired batch of trials.

Every kit meets the same trials of the same seed (common random numbers), so
differences between kits pair batch by batch. Three disjoint sets of trials:
the values are measured on the valuation trials (``0 ..``); the shopper, the
strategy pick and free disposal look at the first selection set (from
``SELECTION_FIRST``); a second, independent selection set lets the shopper
choose again, to report how often the choice of kit would change. No choice
is fitted to the noise it is then measured on."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np

from sim.content import Content
from sim.content.loadout import LoadoutError

SELECTION_FIRST = 1 << 40
SELECTION_STRIDE = 1 << 38  # the second selection set starts this many trials after the first
SELECTION_BATCHES = 20
SELECTION_SETS = 2  # independent selection sets the shopper buys a tier's kit on (the kit choice's spread)
GROUP_STRIDE = 1 << 32  # the trials of one monster group: ``first + g * GROUP_STRIDE ..``


@dataclass(frozen=True)
class Batches:
    """The outcome summed per batch of ``size`` trials."""

    sums: np.ndarray
    size: int

    @property
    def mean(self) -> float:
        return float(self.sums.sum()) / (self.size * self.sums.size)

    def rates(self) -> np.ndarray:
        """The outcome's mean per batch."""
        return self.sums / self.size


class KitStore:
    """Kit outcomes (batch sums by name) kept in a checkpoint store
    (``sim.run.chunks.Checkpoints``): new ones are saved together every
    ``every_s`` seconds, one file each time, so a killed run loses at most that
    much work; every saved one is read back on a resume."""

    def __init__(self, store, every_s=5.0):
        self.store, self.every_s = store, every_s
        self.saved, self.pending, self.last = {}, {}, time.monotonic()
        pieces = sorted(store.folder.glob("kits-*.npz"))
        for path in pieces:
            self.saved.update(store.load(path.name))
        self.pieces = len(pieces)

    def get(self, name):
        return self.saved.get(name)

    def put(self, name, sums):
        self.saved[name] = self.pending[name] = sums
        if time.monotonic() - self.last >= self.every_s:
            self.flush()

    def flush(self):
        """Save the outcomes not saved yet."""
        if self.pending:
            self.store.save(f"kits-{self.pieces:05d}.npz", self.pending)
            self.pieces += 1
        self.pending, self.last = {}, time.monotonic()


@dataclass(kw_only=True)
class Outcome:
    """"How well does this kit do on these dice?" per batch of trials, cached per
    kit and trial set and, with a ``store`` (a ``KitStore``), saved and read
    back on a resumed run; with a Dask ``client``, kits asked for together
    (``many``) run as its tasks, with the same sums. A subclass gives ``key``
    (what its runs depend on, as text), ``unit`` (the outcome in words) and
    ``task()``: a picklable ``(kit, first, size, n_batches) -> sums`` that raises
    ``LoadoutError`` for a kit the mode cannot field."""

    cache: dict = field(default_factory=dict)
    runs: int = 0
    store: object = None
    client: object = None

    def batches(self, kit, first: int, trials: int, n_batches: int) -> Batches:
        """The outcome in ``n_batches`` batches of trials ``first .. first + trials - 1``."""
        return self.many([kit], first, trials, n_batches)[0]

    def many(self, kits, first: int, trials: int, n_batches: int) -> list:
        """``batches`` of each kit (the missing ones together, on the client if given);
        a kit the mode cannot field gives its ``LoadoutError`` in its place."""
        return [self.view(entry) for entry in self._many(kits, first, trials, n_batches)]

    def view(self, entry):
        """What ``many`` answers for a cached entry (a subclass may project it)."""
        return entry

    def head(self, kits, first: int, trials: int, n_batches: int, k: int) -> list:
        """The first ``k`` of the ``n_batches`` batches ``many`` would give each kit
        (a screen): cut from the whole when that is known, else run alone, and then
        a later ``many`` runs only the other batches. The batches are the same
        either way: each is its own trials."""
        size = trials // n_batches
        out = []
        for kit, whole in zip(kits, [self.cache.get((kit, first, size, n_batches)) for kit in kits]):
            out.append(Batches(whole.sums[:k], size) if isinstance(whole, Batches) else None)
        missing = [kit for kit, got in zip(kits, out) if got is None]
        ran = iter(self.many(missing, first, size * k, k)) if missing else iter(())
        return [self.view(got) if got is not None else next(ran) for got in out]

    def _many(self, kits, first, trials, n_batches):
        size = trials // n_batches
        keys = [(kit, first, size, n_batches) for kit in kits]
        todo, heads = [], {}
        for key in dict.fromkeys(keys):
            if key in self.cache:
                continue
            sums = self.store.get(self._name(key)) if self.store is not None else None
            if sums is not None:
                self.cache[key] = Batches(sums, size)
                continue
            known = next((m for m in range(n_batches - 1, 0, -1) if isinstance(self.cache.get((key[0], first, size, m)),
                                                                              Batches)), None)
            if known is None:
                todo.append(key)
            else:  # the first batches were screened (``head``): run the rest only
                heads[key] = self.cache[(key[0], first, size, known)]
                todo.append((key[0], first + known * size, size, n_batches - known))
        if todo:
            from sim.run.distributed import map_batches

            for key, sums in zip(todo, map_batches(self.client, _fielded, todo, self.task())):
                if isinstance(sums, LoadoutError):
                    self.cache[key] = sums
                    continue
                sums = np.asarray(sums, np.float64)
                self.runs += key[3]
                self.cache[key] = Batches(sums, size)
                if key[1] != first:  # the rest of a screened kit: the whole is the head and the rest
                    key = (key[0], first, size, n_batches)
                    sums = np.concatenate([heads[key].sums, sums])
                    self.cache[key] = Batches(sums, size)
                if self.store is not None:
                    self.store.put(self._name(key), sums)
        return [self.cache[key] for key in keys]

    def _name(self, key):
        return hashlib.sha256(repr((self.key, *key)).encode()).hexdigest()[:32]

    def selection(self, kit, trials: int, which: int = 0) -> Batches:
        """The outcome on selection set ``which`` (0 .. ``SELECTION_SETS`` - 1)."""
        return self.batches(kit, SELECTION_FIRST + which * SELECTION_STRIDE, trials, SELECTION_BATCHES)

    def valuation(self, kit, trials: int, n_batches: int) -> Batches:
        return self.batches(kit, 0, trials, n_batches)


def _fielded(key, task):
    """``task(*key)``, or the ``LoadoutError`` of a kit the mode cannot field."""
    try:
        return task(*key)
    except LoadoutError as exc:
        return exc


@dataclass
class JourneyOutcome(Outcome):
    """The objective's score (``sim.economy.objective``) of a kit under one
    journey strategy, on the campaign of the content's journey (Z-39 event
    tables, Z-41 order deck, a goal of ``goal`` cards held). The runs keep
    every objective's terms (``objective.basis``), so outcomes of one cache
    under other objectives (``for_objective``) run nothing again. Prices are
    part of the key: the stalker shops at the bases and discards the cheapest
    cards first (Z-40, K-05)."""

    content: Content
    strategy_name: str
    days: int
    seed: int
    objective: object
    goal: int

    def __post_init__(self):
        import strategies  # compiles the kernels: after the input checks
        from sim.run.player import TUNED

        self.tuned = self.strategy_name == TUNED  # the tuned player: his strategy is searched per kit and objective
        self.strategy = None if self.tuned else strategies.get(self.strategy_name, mode="journey")
        self.unit = self.objective.unit
        self.key = json.dumps([self.content.digest, self.content.prices(), self.strategy_name, self.days, self.seed]
                              + ([[list(w) for w in self.objective.weights], self.goal] if self.tuned else []))

    def task(self):
        if self.tuned:
            return partial(tuned_journey_sums, self.content, self.objective, self.goal, self.days, self.seed)
        return partial(journey_sums, self.content, self.strategy, self.days, self.seed)

    def view(self, entry):
        """The objective's score per batch, from the batch sums of every objective's terms."""
        if isinstance(entry, Batches):
            return Batches(entry.sums @ self.objective.vector(entry.sums.shape[1], self.goal), entry.size)
        return entry

    def for_objective(self, objective) -> "JourneyOutcome":
        """The same campaigns scored by ``objective``, on this one's runs (the cache and store are
        shared), except the tuned player's: he plays for the objective, so he plays again."""
        return replace(self, objective=objective, cache={} if self.tuned else self.cache)

    def strategy_for(self, loadout):
        """The journey strategy that plays ``loadout`` (the tuned player's for this kit)."""
        if not self.tuned:
            return self.strategy
        from sim.run.player import tuned_player

        return tuned_player(self.content, loadout, self.objective, goal=self.goal, days=self.days,
                            seed=self.seed).strategy

    def hex_entries(self, loadout, trials: int) -> np.ndarray:
        """Hex entries per campaign, by hex, on the valuation trials (Z-39: each draws an event)."""
        from sim.run.journey import simulate_journey

        run = simulate_journey(self.content, loadout, self.strategy_for(loadout), days=self.days, trials=trials,
                               seed=self.seed, client=self.client)
        return run.traffic / trials


def journey_sums(content, strategy, days, seed, loadout, first, size, n_batches):
    """Every objective's terms (``sim.economy.objective.basis``) of campaigns ``first ..``
    summed per batch, one row a batch (a picklable task)."""
    from sim.economy.objective import basis
    from sim.run.journey import campaign_outcomes

    outcomes = campaign_outcomes(content, loadout, strategy, days=days, seed=seed, first=first, n=size * n_batches)
    table = basis(outcomes, days)
    return table.reshape(n_batches, size, table.shape[1]).sum(axis=1)


def tuned_journey_sums(content, objective, goal, days, seed, loadout, first, size, n_batches):
    """``journey_sums`` played by the tuned player of ``loadout`` (``sim.run.player``; a picklable task)."""
    from sim.run.player import tuned_player

    player = tuned_player(content, loadout, objective, goal=goal, days=days, seed=seed)
    return journey_sums(content, player.strategy, days, seed, loadout, first, size, n_batches)


@dataclass
class SurvivalOutcome(Outcome):
    """The chance to survive one encounter drawn from weighted groups: per group
    the per-trial survival ``measure(kit)(trials, seed, first)`` of a fight or a
    skirmish (``sim.run.fight.FightMeasure``, ``sim.run.skirmish.SkirmishMeasure``),
    weighted by the group's share. Each group meets its own trials, every kit
    the same ones."""

    content: Content
    measures: tuple
    shares: tuple
    seed: int
    label: str
    unit = "survival"

    def __post_init__(self):
        self.key = json.dumps([self.content.digest, self.content.prices(), self.label, list(self.shares), self.seed])

    def task(self):
        return partial(survival_sums, self.measures, self.shares, self.seed)


def survival_sums(measures, shares, seed, kit, first, size, n_batches):
    """Share-weighted survival of trials ``first ..`` of each group, summed per batch (a picklable task)."""
    sums = np.zeros(n_batches)
    for g, (measure, share) in enumerate(zip(measures, shares)):
        survived = measure(kit)(size * n_batches, seed, first + g * GROUP_STRIDE)
        sums += share * survived.reshape(n_batches, size).sum(axis=1)
    return sums


@dataclass
class TableOutcome(Outcome):
    """A planner's win rate at a Stalkeriada table (S-05) against ``opponents``,
    every seat order played on the same dice; a kit is the shop items the
    planner buys (``sim.economy.kits.ShopKit``)."""

    content: Content
    strategy: object
    opponents: tuple
    seed: int
    unit = "win rate"

    def __post_init__(self):
        from sim.content.stalkeriada import load_stalkeriada

        shop = dict(load_stalkeriada(self.content).settings["shop"])
        self.key = json.dumps([self.content.digest, shop, self.strategy.name, [o.name for o in self.opponents],
                               self.seed])

    def task(self):
        return partial(table_sums, self.content, self.strategy, self.opponents, self.seed)


def table_sums(content, strategy, opponents, seed, kit, first, size, n_batches):
    """Games won by ``strategy`` holding ``kit``, per seat order, summed per batch (a picklable task)."""
    from sim.run.stalkeriada import simulate_stalkeriada

    player = kit.strategy(strategy)
    sums = np.zeros(n_batches)
    for b in range(n_batches):
        result = simulate_stalkeriada(content, [player, *opponents], games=size, seed=seed, rotate_seats=True,
                                      first_game=first + b * size, start_bonus=(kit.bonus,) + (0,) * len(opponents))
        sums[b] = int(result.win_rates()["wins"][0]) / (1 + len(opponents))
    return sums
