"""zonesim: a Monte Carlo balance laboratory for dice-driven, hex-map stalker board games.

Importing ``sim`` points numba's on-disk cache at a folder keyed by a digest of
every kernel and strategy source file, so a change to a helper inlined from
another module can never be served from a stale cache.
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


def _point_numba_cache():
    """Use ``$ZONESIM_CACHE_DIR`` (default ``~/.cache/zonesim``) / numba-<digest>."""
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    base = Path(os.environ.get("ZONESIM_CACHE_DIR", Path.home() / ".cache" / "zonesim"))
    cache = str(base / f"numba-{kernel_source_digest()}")
    os.environ["NUMBA_CACHE_DIR"] = cache
    if "numba" in sys.modules:  # numba read its config already
        sys.modules["numba"].config.CACHE_DIR = cache


_point_numba_cache()
# decisions are passed to the kernels as first-class functions (measured and chosen: README)
warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
