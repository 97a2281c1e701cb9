"""zonesim: a Monte Carlo balance laboratory for dice-driven, hex-map stalker board games.

Importing ``sim`` points numba's on-disk cache at a folder keyed by a digest of
every kernel and strategy source file, so a change to a helper inlined from
another module can never be served from a stale cache. Inside that folder a
kernel is filed by its path within the project and stamped by its content, so
every checkout of the same source (a fresh clone, a reinstall) shares one
compiled cache.
"""

import hashlib
import os
import sys
import warnings
from pathlib import Path

__version__ = "0.1.0"

_ROOT = Path(__file__).resolve().parent


def kernel_source_digest(roots=(_ROOT / "kernels", _ROOT.parent / "strategies")) -> str:
    """sha256 (16 hex digits) of the numba source files under ``roots``."""
    h = hashlib.sha256()
    for root in roots:
        for path in sorted(Path(root).glob("*.py")):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    """zonesim's cache folder: ``$ZONESIM_CACHE_DIR``, default ``~/.cache/zonesim`` (compiled
    kernels, tuned players)."""
    return Path(os.environ.get("ZONESIM_CACHE_DIR", Path.home() / ".cache" / "zonesim"))


def _point_numba_cache():
    """Use ``cache_dir()`` / numba-<digest>."""
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    cache = str(cache_dir() / f"numba-{kernel_source_digest()}")
    os.environ["NUMBA_CACHE_DIR"] = cache
    if "numba" in sys.modules:  # numba read its config already
        sys.modules["numba"].config.CACHE_DIR = cache


def file_kernels_by_project_path():
    """Put ``_ProjectPathLocator`` first among numba's cache locators (once; called
    by ``sim.kernels`` before any kernel is defined, so ``import sim`` stays light)."""
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # named _CacheImpl before numba 0.68
    if impl._locator_classes[0].__name__ == "_ProjectPathLocator":
        return

    class _ProjectPathLocator(caching.UserProvidedCacheLocator):
        """A project file's cache under its project-relative folder, stamped by its content."""

        def __init__(self, py_func, py_file):
            super().__init__(py_func, py_file)
            folder = Path(py_file).resolve().parent.relative_to(_ROOT.parent)
            self._cache_path = os.path.join(caching.config.CACHE_DIR, "_".join(folder.parts))

        def get_source_stamp(self):
            return hashlib.sha256(Path(self._py_file).read_bytes()).hexdigest()

        @classmethod
        def from_function(cls, py_func, py_file):
            """Only the package's own kernels and strategies (the digest's files): a
            user's strategy file keeps numba's own locator, by its absolute path."""
            path = Path(py_file).resolve()
            if not any(path.is_relative_to(root) for root in (_ROOT, _ROOT.parent / "strategies")):
                return None
            return super().from_function(py_func, py_file)

    impl._locator_classes = [_ProjectPathLocator, *impl._locator_classes]


_point_numba_cache()
# decisions are passed to the kernels as first-class functions (measured and chosen: README)
warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
