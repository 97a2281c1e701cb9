"""The first screen of a report as a designer sees it, in headless Chromium.

    python scripts/report_screenshot.py [results/example/report/report.html] [results/example/report_first_screen.png]

Needs Debian's chromium (``apt-get install chromium``; ``$CHROMIUM`` points
elsewhere) and the playwright package of the test extras.
"""

import os
import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main(argv):
    page_path = Path(argv[0]) if argv else ROOT / "results" / "example" / "report" / "report.html"
    shot = Path(argv[1]) if len(argv) > 1 else ROOT / "results" / "example" / "report_first_screen.png"
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if chromium is None:
        raise SystemExit("report_screenshot: no chromium on PATH; apt-get install chromium, or set $CHROMIUM")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(page_path.resolve().as_uri())
        page.screenshot(path=str(shot))
        browser.close()
    print(f"report_screenshot: {shot}")


if __name__ == "__main__":
    main(sys.argv[1:])
