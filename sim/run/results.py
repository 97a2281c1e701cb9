"""Writing run outputs atomically: a killed run never leaves a half-written file."""

import json
import math
import os
import platform
import sys
import tempfile
from importlib import metadata
from pathlib import Path

PACKAGES = ("numpy", "numba", "polars", "matplotlib", "typer")
_PENDING = set()  # temp files being written now; removed by ``discard_pending`` when a run is interrupted


def atomic_write(path: Path, write) -> Path:
    """Call ``write(tmp_path)`` on a temp file beside ``path``, then rename it into place."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=f".tmp{path.suffix}", dir=path.parent)
    os.close(fd)
    _PENDING.add(tmp)
    try:
        write(Path(tmp))
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the file the usual mode
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        _PENDING.discard(tmp)
    return path


def discard_pending():
    """Delete the temp files of writes still under way (an interrupted run leaves no half-written file)."""
    for tmp in list(_PENDING):
        Path(tmp).unlink(missing_ok=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def json_safe(obj):
    """``obj`` with every NaN and infinite float as None (JSON has neither): an
    unbounded or undefined number."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [json_safe(v) for v in obj]
    return obj


def write_json(path: Path, obj) -> Path:
    """Atomically write ``obj`` as pretty JSON."""
    return atomic_write(path, lambda p: p.write_text(json.dumps(obj, indent=2) + "\n", encoding="utf-8"))


def write_parquet(path: Path, frame) -> Path:
    """Atomically write a polars DataFrame as parquet."""
    return atomic_write(path, lambda p: frame.write_parquet(p))


def versions() -> dict:
    """Python, platform and key package versions, for manifests."""
    out = {"python": sys.version.split()[0], "platform": platform.platform()}
    for name in ("zonesim", *PACKAGES):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def portable_dir(path) -> str:
    """A content folder as a manifest names it, without this machine's paths:
    ``default`` for the shipped content, a path relative to the working folder
    when it lies inside it, else the path as it is."""
    from sim.content import DEFAULT_DIR

    folder = Path(path).resolve()
    if folder == DEFAULT_DIR.resolve():
        return "default"
    try:
        return str(folder.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def command_line() -> list:
    """The command that started this run, as the manifest records it."""
    return ["zonesim", *sys.argv[1:]]


def manifest(command: list, **fields) -> dict:
    """The manifest of a run: its command line, versions and the given fields
    (``content_dir`` as ``portable_dir`` names it)."""
    if fields.get("content_dir") is not None:
        fields["content_dir"] = portable_dir(fields["content_dir"])
    return {"command": " ".join(command), **fields, "versions": versions()}
