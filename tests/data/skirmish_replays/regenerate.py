"""Rewrite the golden skirmish replays: ``python tests/data/skirmish_replays/regenerate.py``.

Each ``*.txt`` here starts with the line ``# zonesim ARGS``; the rest is what
that command prints. Regenerate after a deliberate rule or strategy change,
then read the diff: it shows every changed roll, move and outcome.
"""

import shlex
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def command(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# zonesim "), f"{path}: the first line must be '# zonesim ARGS'"
    return shlex.split(first.removeprefix("# zonesim "))


def replay(args):
    proc = subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True, text=True, check=True)
    return proc.stdout


if __name__ == "__main__":
    for path in sorted(HERE.glob("*.txt")):
        args = command(path)
        path.write_text(f"# zonesim {shlex.join(args)}\n" + replay(args), encoding="utf-8")
        print(f"rewrote {path.name}")
