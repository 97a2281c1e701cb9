"""The compiled-kernel cache is shared by every checkout of the same source."""

import sys
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


def test_a_user_strategy_file_keeps_numbas_own_cache_locator():
    """A strategy file outside ``sim/`` and ``strategies/`` (here one under
    tests/) is filed by its absolute path, as numba does: its compiled code
    names a module made from that path, so another checkout cannot load it."""
    import strategies

    strategies.get(str(Path(__file__).parents[1] / "data" / "coward.py") + ":COWARD")
    coward = next(m for name, m in sys.modules.items()
                  if name.startswith("zonesim_user_strategy_") and hasattr(m, "flee_when_hurt_badly"))
    locator = coward.flee_when_hurt_badly._cache._impl.locator
    assert type(locator).__name__ == "UserProvidedCacheLocator"
    assert Path(locator.get_cache_path()).parent == Path(numba.config.CACHE_DIR)
