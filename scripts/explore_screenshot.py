"""The live explorer as a designer sees it after an edit, in headless Chromium.

    python scripts/explore_screenshot.py [results/example/explore.png]

Starts ``zonesim explore --no-browser`` on a free port, raises the
bloodsucker's HP from 20 to 26 in the form, waits until every number has
refined to its second stage and saves the page. Needs Debian's chromium
(``apt-get install chromium``; ``$CHROMIUM`` points elsewhere), playwright
(the test extras) and Panel (the explore extra). The browser test drives the
page with the same helpers.
"""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1440, "height": 1000}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(*args, timeout=120.0):
    """``zonesim explore --no-browser --port P ARGS`` as a child process, and the URL it prints."""
    proc = subprocess.Popen([sys.executable, "-m", "sim", "explore", "--no-browser", "--port", str(free_port()),
                             *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    deadline = time.monotonic() + timeout
    for line in proc.stdout:
        found = re.search(r"http://\S+", line)
        if found:
            return proc, found.group(0)
        if time.monotonic() > deadline:
            break
    proc.kill()
    raise RuntimeError(f"zonesim explore printed no URL: {proc.stderr.read()}")


def stop(proc) -> float:
    """Ctrl-C the server; the seconds it took to end."""
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)
    return time.monotonic() - started


def chromium(playwright):
    executable = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if executable is None:
        raise SystemExit("explore_screenshot: no chromium on PATH; apt-get install chromium, or set $CHROMIUM")
    return playwright.chromium.launch(executable_path=executable, args=FLAGS)


def field(page, file, key):
    """The input of a field of the form (its file's tab opened)."""
    page.click(f'button[data-file="{file}"]')
    return page.locator(f'input[data-key="{file}:{key}"]')


def apply(page, file, key, text):
    """Type ``text`` into a field and press Enter."""
    box = field(page, file, key)
    box.fill(text)
    box.press("Enter")


def number(page, metric) -> dict:
    """A headline number's ``data-*`` values, with the generation of its group."""
    cell = page.locator(f'[data-metric="{metric}"]')
    values = cell.evaluate("e => Object.fromEntries(e.getAttributeNames().filter(n => n.startsWith('data-'))"
                           ".map(n => [n.slice(5), e.getAttribute(n)]))")
    group = cell.locator("xpath=ancestor::div[@data-group]")
    values["generation"] = int(group.get_attribute("data-generation"))
    return {k: v if k in ("metric", "unit", "clear", "same") else float(v) for k, v in values.items()}


def wait_for_number(page, metric, generation, stage=0, timeout_ms=60_000):
    """Wait until ``metric`` shows the draft of ``generation`` at ``stage`` or later."""
    page.wait_for_function(
        """([metric, generation, stage]) => {
             const host = (root) => {
               for (const el of root.querySelectorAll('*')) {
                 if (el.dataset && el.dataset.metric === metric) return el
                 if (el.shadowRoot) { const found = host(el.shadowRoot); if (found) return found }
               }
               return null
             }
             const cell = host(document)
             if (!cell) return false
             const group = cell.closest('[data-group]')
             return +group.dataset.generation === generation && +cell.dataset.stage >= stage
           }""", arg=[metric, generation, stage], timeout=timeout_ms, polling=50)


def main(argv):
    from playwright.sync_api import sync_playwright

    shot = Path(argv[0]) if argv else ROOT / "results" / "example" / "explore.png"
    proc, url = start()
    try:
        with sync_playwright() as p:
            browser = chromium(p)
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(url)
            wait_for_number(page, "fight_survival.bloodsucker.standard", 0, timeout_ms=600_000)
            apply(page, "monsters.toml", "bloodsucker.hp", "26")
            wait_for_number(page, "card_value_g.ak47", 1, stage=1, timeout_ms=300_000)
            field(page, "monsters.toml", "bloodsucker.hp").evaluate(
                "e => { const pane = e.closest('.pane'); pane.scrollTop = e.offsetTop - pane.offsetTop - 120 }")
            page.screenshot(path=str(shot))
            browser.close()
    finally:
        stop(proc)
    print(f"explore_screenshot: {shot}")


if __name__ == "__main__":
    main(sys.argv[1:])
