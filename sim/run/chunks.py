"""Long runs as trial-range chunks: run them here or on a Dask cluster, checkpoint
each finished chunk, resume a killed run, and add the chunks' sums in chunk order.

A chunk is ``(part, start, n)``: trials ``start .. start + n`` of run ``part``
of a sweep (0 for a single run). Every runner draws a trial's dice from (seed,
trial number) and returns integer sums, so the chunk boundaries (fixed by the
chunk size alone, never by the worker count) and where a chunk runs change
nothing: the totals are identical on one machine, on any cluster, and after a
resume.

A chunk's work is ``work(chunk) -> {name: ndarray}``; ``work`` must pickle to
run on a cluster. With a ``Checkpoints`` store each finished chunk is written
to its own file (temp file, then rename), beside ``run.json``, the run's
parameters that ``--resume`` must match; runs made of other pieces (a
valuation's kit outcomes) save them in the same store under their own names.
"""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.errors import ZonesimError
from sim.run.results import atomic_write, write_json

CHECKPOINT_DIR = "checkpoints"


class ResumeError(ZonesimError):
    """``--resume`` of a run that is not there or was started with other parameters."""


@dataclass(frozen=True)
class Chunk:
    part: int
    start: int
    n: int

    @property
    def name(self):
        return f"chunk-{self.part:04d}-{self.start:012d}-{self.n}.npz"


def plan(total, size, part=0, first=0):
    """Trials ``first .. first + total`` of run ``part`` cut into chunks of at most ``size``."""
    if size < 1:
        raise ZonesimError(f"--chunk: {size}; give at least 1 trial per chunk")
    return [Chunk(part, first + s, min(size, total - s)) for s in range(0, total, size)]


def add(aggregates):
    """The name-by-name sum of chunk aggregates, in the order given."""
    total = {k: np.array(v, copy=True) for k, v in aggregates[0].items()}
    for agg in aggregates[1:]:
        for k, v in agg.items():
            total[k] = total[k] + v
    return total


class Checkpoints:
    """Finished chunks of one run as files in ``folder``; ``params`` (JSON) say which run."""

    def __init__(self, folder: Path, params: dict, resume: bool):
        self.folder = Path(folder)
        self.params = json.loads(json.dumps(params))
        manifest = self.folder / "run.json"
        if resume:
            if not manifest.is_file():
                raise ResumeError(f"--resume: no checkpoints in {self.folder.parent}; run without --resume first")
            saved = json.loads(manifest.read_text(encoding="utf-8"))
            changed = sorted(k for k in set(saved) | set(self.params) if saved.get(k) != self.params.get(k))
            if changed:
                raise ResumeError(f"--resume: the run in {self.folder.parent} was started with other "
                                  f"{', '.join(changed)}; give the same options or run without --resume")
            for stale in self.folder.glob(".*.tmp*"):  # a temp file of a killed run
                stale.unlink(missing_ok=True)
            return
        if self.folder.is_dir():
            for old in self.folder.iterdir():
                if old.is_file() and old.name != "run.json":
                    old.unlink()
        write_json(manifest, self.params)

    def load(self, name: str):
        """The aggregate saved under ``name`` (a chunk's, or any finished piece of the run), or None."""
        path = self.folder / name
        if not path.is_file():
            return None
        with np.load(path) as data:
            return {k: data[k] for k in data.files}

    def save(self, name: str, aggregate):
        atomic_write(self.folder / name, lambda p: _save_npz(p, aggregate))

    def load_object(self, name: str):
        """The object pickled under ``name`` (a finished step of a report), or None."""
        path = self.folder / name
        return pickle.loads(path.read_bytes()) if path.is_file() else None

    def save_object(self, name: str, obj):
        atomic_write(self.folder / name, lambda p: p.write_bytes(pickle.dumps(obj)))


def _save_npz(path, aggregate):
    with open(path, "wb") as f:
        np.savez(f, **aggregate)


def checkpoints(out, params, resume) -> Checkpoints | None:
    """The checkpoint store of a command writing to ``out`` (None without ``--out``)."""
    if out is None:
        if resume:
            raise ResumeError("--resume: give the --out folder of the run to resume")
        return None
    return Checkpoints(Path(out) / CHECKPOINT_DIR, params, resume)


def run_chunks(work, chunks, *, client=None, store=None, on_progress=None):
    """``{part: summed aggregate}`` of ``work`` over ``chunks``: saved chunks are
    loaded, the rest run here one by one or as tasks of ``client``, each saved
    when it finishes; sums are added in chunk order."""
    results = {c: store.load(c.name) for c in chunks} if store else {c: None for c in chunks}
    todo = [c for c in chunks if results[c] is None]
    total, done = sum(c.n for c in chunks), sum(c.n for c in chunks if results[c] is not None)

    def finished(chunk, aggregate):
        nonlocal done
        results[chunk] = aggregate
        if store:
            store.save(chunk.name, aggregate)
        done += chunk.n
        if on_progress:
            on_progress(done, total, None)

    if client is None:
        for chunk in todo:
            finished(chunk, work(chunk))
    elif todo:
        from distributed import as_completed

        futures = {client.submit(work, c, pure=False): c for c in todo}
        for future in as_completed(futures):
            finished(futures[future], future.result())
    parts = {}
    for chunk in chunks:
        parts.setdefault(chunk.part, []).append(results[chunk])
    return {part: add(aggs) for part, aggs in parts.items()}
