"""``zonesim explore``: the live explorer, a local page to edit the content on
and watch the headline numbers of ``zonesim compare`` move."""

import socket
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.cli.common import ContentDir, Threads, app
from sim.errors import UsageProblem


def _port(host: str, port: int) -> int:
    """``port`` if this machine can listen on it at ``host`` (0: a free one), else a one-line error."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.bind((host, port))
            return s.getsockname()[1]
    except socket.gaierror:
        raise UsageProblem(f"--host: '{host}' is not an address of this machine; give e.g. 127.0.0.1") from None
    except OSError as exc:
        raise UsageProblem(f"--port: cannot listen on {host}:{port} ({exc.strerror}); give another port, or "
                           "--port 0 for any free one") from None


@app.command()
def explore(
    content: ContentDir = None,
    draft: Annotated[Optional[Path], typer.Option(metavar="DIR", help="Open this content folder as the draft: "
                                                                     "a folder saved by \"Save as…\", a "
                                                                     "proposal of zonesim balance "
                                                                     "(OUT/proposal-N) or a report folder; "
                                                                     "its differences from --content are "
                                                                     "the edits.")] = None,
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port of the page (0: any free one).")] = 8765,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Print the page's address; open no "
                                                                  "browser.")] = False,
    host: Annotated[str, typer.Option(help="Address to listen on: this machine only by default; 0.0.0.0 shows "
                                           "the page to the network.")] = "127.0.0.1",
    threads: Threads = None,
):
    """The live explorer: edit the content in a page and watch what moves.

    Serves a local page holding the content as forms (every assumed [A]
    number and every price, by file) and the headline numbers of `zonesim
    compare` for the edited draft against the content as loaded, on common
    dice: fight survival by monster and tier, journey finish rate and days,
    skirmish and Stalkeriada win rates, and card values in one fight. Each
    number shows its 95% confidence interval, its difference from the
    baseline with the paired 95% interval, and whether that move is clear
    of the noise. The first numbers come within seconds of an edit; their
    intervals narrow in stages up to the full counts of `zonesim compare`.
    A refused value shows the loader's one-line error beside its field and
    runs nothing. "Save as…" writes the draft as a content folder; --draft
    opens one again, or a proposal of `zonesim balance`, as the draft. Ctrl-C
    stops the server.

    \b
    Examples:
      zonesim explore
      zonesim explore --content my_content --no-browser --port 8800
      zonesim explore --draft results/balance/proposal-1
    """
    from sim.api.study import explorer as open_explorer

    started = time.perf_counter()
    port = _port(host, port)
    explorer = open_explorer(content, draft=draft, threads=threads)
    try:
        from sim.explore.page import serve
    except ImportError:
        raise UsageProblem("zonesim explore needs Panel, which zonesim installs: python -m pip install -e . (or "
                           "python -m pip install panel)") from None
    print("zonesim: loading the compiled kernels in the background (seconds from the cache, a few minutes the "
          "first time they compile); the page shows numbers once they are in", file=sys.stderr, flush=True)
    explorer.on_ready = lambda: print(f"zonesim: kernels loaded, the first numbers are in after "
                                      f"{time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    explorer.start()
    serve(explorer, port=port, host=host, show=not no_browser,
          on_url=lambda url: print(f"zonesim explore: {url}  (Ctrl-C stops it)", flush=True))
