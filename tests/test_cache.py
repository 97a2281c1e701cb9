"""The compiled-kernel cache is shared by every checkout of the same source."""

from pathlib import Path

import numba

import sim
from sim.kernels import rng

def test_kernels_are_cached_by_project_path_and_content():
    rng.trial_base(1, 2)
    locator = rng.trial_base._cache._impl.locator
    assert Path(locator.get_cache_path()) == Path(numba.config.CACHE_DIR) / "sim_kernels"
    assert Path(numba.config.CACHE_DIR).name == f"numba-{sim.kernel_source_digest()}"
    stamp = locator.get_source_stamp()
    assert stamp == locator.get_source_stamp() and isinstance(stamp, str) and len(stamp) == 64
