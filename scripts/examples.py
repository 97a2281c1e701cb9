"""Regenerate every example under results/example from the shipped content, in one go.

    python scripts/examples.py

Runs, from the project's folder, the commands results/example/README.md lists
(an encounter, a Stalkeriada table, a quick report, a quick valuation's JSON) and
the two screenshots (the report's first screen, the explorer after an edit), so every example comes
from one content version: their manifests share one ``content_hash`` and name
the content ``default``. Takes about 5 minutes on 2 cores; the screenshots need
Debian's chromium (``apt-get install chromium``).
"""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = Path("results") / "example"
PY = [sys.executable, "-m", "sim"]
COMMANDS = (
    (PY + ["encounter", "--monster", "bloodsucker", "--weapon", "ak47", "--body", "vest", "--stims", "stimulator:2",
           "--out", str(EXAMPLE)], None),
    (PY + ["stalkeriada", "--games", "25000", "--rotate-seats", "--seed", "1", "--out", str(EXAMPLE / "stalkeriada"),
           "--json"], None),
    (PY + ["report", "--quick", "--out", str(EXAMPLE / "report")], None),
    (PY + ["value", "--quick", "--json"], EXAMPLE / "value.json"),
    ([sys.executable, "scripts/report_screenshot.py"], None),
    ([sys.executable, "scripts/explore_screenshot.py"], None),
)
"""Every example, in order (the report's screenshot reads the report): the command, and the
file its printed JSON is kept in (None: it writes its own files)."""


def main():
    for folder in ("stalkeriada", "report"):  # a stale file of an older version never survives
        shutil.rmtree(ROOT / EXAMPLE / folder, ignore_errors=True)
    for command, kept in COMMANDS:
        print("$", " ".join(command), flush=True)
        run = subprocess.run(command, cwd=ROOT, check=True, text=True,
                             stdout=subprocess.PIPE if kept else subprocess.DEVNULL)
        if kept:
            (ROOT / kept).write_text(run.stdout, encoding="utf-8")


if __name__ == "__main__":
    main()
