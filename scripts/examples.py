"""Regenerate every example under results/example from the shipped content, in one go.

    python scripts/examples.py

Runs, from the project's folder, the commands results/example/README.md lists
(an encounter, a Stalkeriada table, a quick report) and the two screenshots
(the report's first screen, the explorer after an edit), so every example comes
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
COMMANDS = (
    [sys.executable, "-m", "sim", "encounter", "--monster", "bloodsucker", "--weapon", "ak47", "--body", "vest",
     "--stims", "stimulator:2", "--out", str(EXAMPLE)],
    [sys.executable, "-m", "sim", "stalkeriada", "--games", "25000", "--rotate-seats", "--seed", "1", "--out",
     str(EXAMPLE / "stalkeriada"), "--json"],
    [sys.executable, "-m", "sim", "report", "--quick", "--out", str(EXAMPLE / "report")],
    [sys.executable, "scripts/report_screenshot.py"],
    [sys.executable, "scripts/explore_screenshot.py"],
)
"""Every example, in order (the report's screenshot reads the report)."""


def main():
    for folder in ("stalkeriada", "report"):  # a stale file of an older version never survives
        shutil.rmtree(ROOT / EXAMPLE / folder, ignore_errors=True)
    for command in COMMANDS:
        print("$", " ".join(command), flush=True)
        subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
