"""The outcome the economy asks a runner for: "how well does this kit do on
these dice?", per paired batch of trials.

Two disjoint sets of trials: the shopper and the strategy choice look at the
selection trials (numbered from ``SELECTION_FIRST``), the values are measured on
the valuation trials (``0 ..``), so no choice is fitted to the noise it is then
measured on. Every kit meets the same trials of the same seed (common random
numbers), so differences between kits are paired batch by batch."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field

import numpy as np

from sim.content import Content
from sim.content.loadout import Loadout

SELECTION_FIRST = 1 << 40
SELECTION_BATCHES = 5


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


def spare_days(done_hist, days) -> int:
    """Days to spare summed over campaigns: ``days + 1 - d`` for a campaign that
    finished every order on day ``d``, 0 for one that did not (Z-41)."""
    return int(done_hist[1:days + 1] @ np.arange(days, 0, -1))


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
class _Outcome:
    """"How well does this kit do on these dice?" per batch of trials, cached per
    kit and trial set and, with a ``store`` (a ``KitStore``), saved and read
    back on a resumed run. A subclass gives ``_key`` (what its runs depend on)
    and ``_sums`` (the outcome summed per batch)."""

    cache: dict = field(default_factory=dict)
    runs: int = 0
    store: object = None

    def batches(self, loadout: Loadout, first: int, trials: int, n_batches: int) -> Batches:
        """The outcome in ``n_batches`` batches of trials ``first .. first + trials - 1``."""
        key = (loadout, first, trials, n_batches)
        if key not in self.cache:
            size = trials // n_batches
            name = hashlib.sha256(repr((self._key, *key)).encode()).hexdigest()[:32]
            sums = self.store.get(name) if self.store is not None else None
            if sums is None:
                sums = np.asarray(self._sums(loadout, first, size, n_batches), np.float64)
                self.runs += n_batches
                if self.store is not None:
                    self.store.put(name, sums)
            self.cache[key] = Batches(sums, size)
        return self.cache[key]

    def selection(self, loadout: Loadout, trials: int) -> Batches:
        return self.batches(loadout, SELECTION_FIRST, trials, SELECTION_BATCHES)

    def valuation(self, loadout: Loadout, trials: int, n_batches: int) -> Batches:
        return self.batches(loadout, 0, trials, n_batches)


@dataclass
class JourneyOutcome(_Outcome):
    """Days to spare (``days + 1`` less the day every order is done, 0 if never)
    of a kit under one journey strategy, on the campaign of the content's
    journey (Z-39 event tables, Z-41 orders): the mean days to finish is
    ``days + 1`` less it. With a Dask ``client`` a kit's batches run as its
    tasks (the same sums)."""

    content: Content
    strategy_name: str
    days: int
    seed: int
    client: object = None

    def __post_init__(self):
        from sim.run.journey import get_journey_strategy  # compiles the kernels: after the input checks

        self.strategy = get_journey_strategy(self.strategy_name)
        prices = {i: e["price"] for i, e in sorted(self.content.items.items())}
        self._key = json.dumps([self.content.digest, prices, self.strategy_name, self.days, self.seed])

    def _sums(self, loadout, first, size, n_batches):
        return [spare_days(r.done_hist, self.days) for r in self._runs(loadout, first, size, n_batches)]

    def _runs(self, loadout, first, size, n_batches):
        """The ``JourneyResult`` of each batch of ``size`` trials from ``first`` (one
        chunk each, here or as tasks of the Dask client; the kit's inputs built once)."""
        from sim.run.chunks import Chunk, run_chunks
        from sim.run.journey import JourneyWork, journey_result  # compiles the kernels

        work = JourneyWork(self.content, loadout, self.strategy, self.days, self.seed)
        totals = run_chunks(work, [Chunk(b, first + b * size, size) for b in range(n_batches)], client=self.client)
        for b in range(n_batches):
            yield journey_result(self.content, work.inputs(), totals[b], seed=self.seed, trials=size, days=self.days)

    def hex_entries(self, loadout: Loadout, trials: int, n_batches: int) -> np.ndarray:
        """Hex entries per campaign, by hex, on the valuation trials (Z-39: each draws an event)."""
        size = trials // n_batches
        return sum(r.traffic for r in self._runs(loadout, 0, size, n_batches)) / (size * n_batches)


GROUP_STRIDE = 1 << 32  # the trials of one monster group: ``first + g * GROUP_STRIDE ..``


@dataclass
class EncounterOutcome(_Outcome):
    """The chance to survive one monster encounter drawn from ``mix`` (a
    ``MonsterMix``): per group the survival of a kit's trials, measured by
    ``measure`` (a fight measure of ``sim.run.value``: ``measure(kit)(trials,
    seed, first)`` gives per-trial survival), weighted by the group's share.
    Each group meets its own trials, every kit the same ones."""

    content: Content
    measure_for: object     # monsters -> measure
    mix: object
    seed: int
    label: str

    def __post_init__(self):
        prices = {i: e["price"] for i, e in sorted(self.content.items.items())}
        self._key = json.dumps([self.content.digest, prices, self.label, self.mix.describe(), self.seed])
        self.measures = [self.measure_for(group) for group in self.mix.groups]

    def _sums(self, loadout, first, size, n_batches):
        sums = np.zeros(n_batches)
        for g, (measure, share) in enumerate(zip(self.measures, self.mix.shares)):
            survived = measure(loadout)(size * n_batches, self.seed, first + g * GROUP_STRIDE)
            sums += share * survived.reshape(n_batches, size).sum(axis=1)
        return sums
