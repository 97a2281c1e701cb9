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


@dataclass
class JourneyOutcome:
    """Days to spare (``days + 1`` less the day every order is done, 0 if never)
    of a kit under one journey strategy, on the campaign of the content's
    journey (Z-39 event tables, Z-41 orders): the mean days to finish is
    ``days + 1`` less it. Results are cached per kit and trial set; with a Dask
    ``client`` a kit's batches run as its tasks (the same sums); with a
    ``store`` (a ``KitStore``) each kit's batch sums are saved and read back on
    a resumed run."""

    content: Content
    strategy_name: str
    days: int
    seed: int
    cache: dict = field(default_factory=dict)
    runs: int = 0
    client: object = None
    store: object = None

    def __post_init__(self):
        from sim.run.journey import get_journey_strategy  # compiles the kernels: after the input checks

        self.strategy = get_journey_strategy(self.strategy_name)
        prices = {i: e["price"] for i, e in sorted(self.content.items.items())}
        self._run_key = json.dumps([self.content.digest, prices, self.strategy_name, self.days, self.seed])

    def batches(self, loadout: Loadout, first: int, trials: int, n_batches: int) -> Batches:
        """Successes in ``n_batches`` batches of trials ``first .. first + trials - 1``."""
        key = (loadout, first, trials, n_batches)
        if key not in self.cache:
            size = trials // n_batches
            name = hashlib.sha256(repr((self._run_key, *key)).encode()).hexdigest()[:32]
            sums = self.store.get(name) if self.store is not None else None
            if sums is None:
                sums = np.array([spare_days(r.done_hist, self.days)
                                 for r in self._runs(loadout, first, size, n_batches)], np.float64)
                self.runs += n_batches
                if self.store is not None:
                    self.store.put(name, sums)
            self.cache[key] = Batches(sums, size)
        return self.cache[key]

    def _runs(self, loadout, first, size, n_batches):
        """The ``JourneyResult`` of each batch of ``size`` trials from ``first`` (one
        chunk each, here or as tasks of the Dask client; the kit's inputs built once)."""
        from sim.run.chunks import Chunk, run_chunks
        from sim.run.journey import JourneyWork, journey_result  # compiles the kernels

        work = JourneyWork(self.content, loadout, self.strategy, self.days, self.seed)
        totals = run_chunks(work, [Chunk(b, first + b * size, size) for b in range(n_batches)], client=self.client)
        for b in range(n_batches):
            yield journey_result(self.content, work.inputs(), totals[b], seed=self.seed, trials=size, days=self.days)

    def selection(self, loadout: Loadout, trials: int) -> Batches:
        return self.batches(loadout, SELECTION_FIRST, trials, SELECTION_BATCHES)

    def valuation(self, loadout: Loadout, trials: int, n_batches: int) -> Batches:
        return self.batches(loadout, 0, trials, n_batches)
