"""Sweeps on a Dask distributed cluster (``--scheduler ADDRESS`` or ``--workers N``).

A sweep is split into batches (loadouts, or the items of a value run) that
run as tasks on the cluster's workers; each task uses the same seed and trial
numbers it would use on one machine and returns integer sums, so the result is
bit-identical to the single-machine run. Content and built-in strategies
travel by pickle (content as its folder plus the items' fields); workers need
the same zonesim installed and the content folder at the same path.
"""

from __future__ import annotations

import logging
import warnings
from contextlib import contextmanager

from sim.errors import ZonesimError


class ClusterError(ZonesimError):
    """A scheduler that cannot be reached or a bad worker count."""


@contextmanager
def cluster(scheduler=None, workers=None):
    """A ``distributed.Client`` for ``scheduler``, or for a local cluster of
    ``workers`` processes (one thread each); ``None`` when neither is given."""
    if scheduler is None and workers is None:
        yield None
        return
    if scheduler is not None and workers is not None:
        raise ClusterError("--scheduler and --workers: give one of them")
    if workers is not None and workers < 1:
        raise ClusterError(f"--workers: {workers}; give at least 1 worker process")
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="5s")
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"--scheduler: cannot reach {scheduler}: {exc}") from None
        with client:
            yield client
        return
    # stderr keeps only zonesim's errors, not the workers' shutdown chatter or a busy dashboard port
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Port .* is already in use")
        local = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                             silence_logs=logging.CRITICAL)
    with local, Client(local) as client:
        yield client


def batches(items, size):
    """``items`` cut into lists of at most ``size``, in order."""
    return [items[k:k + size] for k in range(0, len(items), size)]


def map_batches(client, fn, parts, *args):
    """``[fn(part, *args) for part in parts]``, on the cluster when ``client`` is given."""
    return list(iter_batches(client, fn, parts, *args))


def iter_batches(client, fn, parts, *args):
    """``fn(part, *args)`` for each of ``parts`` in order, each yielded as soon as
    it and those before it are done (all submitted at once to the ``client``)."""
    if client is None:
        yield from (fn(part, *args) for part in parts)
        return
    for future in client.map(fn, parts, *[[a] * len(parts) for a in args], pure=False):
        yield future.result()
