"""What every ``zonesim`` command shares: the app, the shared options as
``Annotated`` types, parsing of option text into ``sim.api``'s arguments, the
progress bar and the error handling of ``main``.

Every bad input ends with one line on stderr and exit code 2; Ctrl-C ends a run
at once with ``zonesim: interrupted`` and exit code 130.
"""

import functools
import inspect
import json
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, List, Optional

import typer

from sim.errors import UsageProblem, ZonesimError
from sim.options import check_seed

app = typer.Typer(
    help="zonesim: Monte Carlo balance laboratory for dice-driven stalker board games.\n\n"
         "Start with `zonesim encounter --help`.",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
)


def seed_option(help="Seed; the same seed gives the same numbers on any thread count."):
    """The ``--seed`` option, refusing negative seeds as it is parsed."""
    return typer.Option(callback=check_seed, help=help)


def shipped(family: str, where=lambda card: True) -> str:
    """The ids of the shipped content's cards of item ``family`` (``where`` filters their tables), or its
    characters for ``"characters"``, for a help text: ``"berdanka, ak47, kvazar"``."""
    table = _shipped_file("characters.toml") if family == "characters" else _shipped_file("items.toml").get(family, {})
    return ", ".join(card for card, fields in table.items() if isinstance(fields, dict) and where(fields))


@functools.cache
def _shipped_file(name: str) -> dict:
    """A file of the shipped content, parsed once for every help text that names its entries."""
    import tomllib

    from sim.content import DEFAULT_DIR

    return tomllib.loads((DEFAULT_DIR / name).read_text(encoding="utf-8"))


def _families() -> str:
    from sim.content.schema import ITEM_FAMILIES

    return ", ".join(ITEM_FAMILIES)


# the loadout options, shared by every command that equips a stalker; the ids the help names are the
# shipped content's (a card added to items.toml shows in them, and --kit takes a card of any family)
Character = Annotated[str, typer.Option(metavar="ID", help=f"Character type ({shipped('characters')}).")]
Weapon = Annotated[Optional[str], typer.Option(metavar="ID", help=f"Active firearm id ({shipped('firearms')}); none "
                                                                  "if omitted.")]
Mods = Annotated[str, typer.Option(metavar="ID,ID", help=f"Comma-separated modifiers of that firearm "
                                                         f"({shipped('modifiers')}).")]
Head = Annotated[Optional[str], typer.Option(metavar="ID", help="Head armour id "
                                             f"({shipped('armour', lambda a: a.get('slot') == 'head')}).")]
Body = Annotated[Optional[str], typer.Option(metavar="ID", help="Body armour id "
                                             f"({shipped('armour', lambda a: a.get('slot') == 'body')}).")]
Stims = Annotated[List[str], typer.Option(metavar="ID:N", help="In-combat healing as ID:COUNT, e.g. stimulator:2 "
                                          f"({shipped('healing', lambda h: h.get('in_combat'))}; comma list or "
                                          "repeat).")]
Medkits = Annotated[List[str], typer.Option(metavar="ID:N", help="Medkits as ID:COUNT, used out of combat when HP is "
                                            f"low ({shipped('healing', lambda h: not h.get('in_combat'))}).")]
Explosives = Annotated[List[str], typer.Option(metavar="ID:N", help="Explosives as ID:COUNT, e.g. limonka:2 "
                                               f"({shipped('explosives')}; at most 10 in all).")]
EscapeItem = Annotated[Optional[str], typer.Option(metavar="ID", help=f"Escape item id ({shipped('escape')}).")]
Reputation = Annotated[Optional[int], typer.Option(help="Reputation for the escape roll (default: the starting "
                                                        "one).")]
Movement = Annotated[str, typer.Option(metavar="ID,ID", help=f"Movement items ({shipped('movement')}); the best "
                                                             "one is active (Z-25).")]
Avoidance = Annotated[str, typer.Option(metavar="ID,ID", help=f"Event-avoidance items ({shipped('avoidance')}); the "
                                                              "best one is active (Z-30).")]
OneShot = Annotated[str, typer.Option(metavar="ID,ID", help=f"One-shot movement cards ({shipped('one_shot')}), "
                                                            "used to reach a base (Z-27, Z-28).")]
Kit = Annotated[Optional[str], typer.Option(metavar="[CHARACTER:]ITEM,ITEM*N", help="The whole loadout in one "
                                            f"line, each card placed by its family ({_families()}), e.g. "
                                            "doktor:ak47,rebored,vest,stimulator*2,nvg (instead of the card options "
                                            "above).")]
Monsters = Annotated[List[str], typer.Option("--monster", "-m", metavar="ID", help="Monster id; repeat for a group "
                                                                                   "(fights and skirmishes).")]

# the options of every run
Seed = Annotated[int, seed_option()]
def built_in(mode: str) -> str:
    """The built-in strategies of ``mode`` for a help text, from the registry (``strategies.names``):
    ``"cautious, greedy, tactician"``. Importing the registry compiles nothing."""
    import strategies

    return ", ".join(strategies.names(mode))


Json = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")]
Threads = Annotated[Optional[int], typer.Option(help="Threads to use (default: all cores); results do not depend on "
                                                     "it.")]
Scheduler = Annotated[Optional[str], typer.Option(metavar="ADDRESS", help="Run the sweep on this Dask scheduler "
                                                                          "(e.g. tcp://10.0.0.5:8786); the numbers "
                                                                          "are the same as here.")]
Workers = Annotated[Optional[int], typer.Option(help="Run the sweep on a local Dask cluster of N worker processes.")]
Resume = Annotated[bool, typer.Option("--resume", help="Continue the killed run whose --out folder is given: its "
                                                       "finished chunks are kept and only the rest run; the numbers "
                                                       "are the same as an uninterrupted run.")]
Chunk = Annotated[int, typer.Option(min=1, help="Trials per chunk: a checkpoint with --out and a task on a cluster; "
                                                "the numbers do not depend on it.")]
ContentDir = Annotated[Optional[Path], typer.Option("--content", help="Content folder to use instead of the shipped "
                                                                      "default.")]


def ids(text: str) -> tuple:
    """``"a,b"`` as ``("a", "b")``."""
    return tuple(i for i in text.split(",") if i)


def counts(option: str, values: List[str]) -> dict:
    """Repeated or comma-separated ``ID:COUNT`` values as ``{id: count}`` (``ID`` alone means 1)."""
    out = {}
    for value in values:
        for part in filter(None, (p.strip() for p in value.split(","))):
            item_id, _, count = part.partition(":")
            try:
                n = int(count) if count else 1
            except ValueError:
                raise UsageProblem(f"{option}: '{part}' is not ID:COUNT; write e.g. {option} stimulator:2") from None
            out[item_id] = out.get(item_id, 0) + n
    return out


CARDS = {"character": (Character, "novice"), "weapon": (Weapon, None), "mods": (Mods, ""), "head": (Head, None),
         "body": (Body, None), "stims": (Stims, []), "medkits": (Medkits, []), "explosives": (Explosives, []),
         "escape_item": (EscapeItem, None), "reputation": (Reputation, None), "movement": (Movement, ""),
         "avoidance": (Avoidance, ""), "one_shot": (OneShot, ""), "kit": (Kit, None)}
"""The card options, in the order of a command's help: each option's type and default."""
ZONE_CARDS = ("movement", "avoidance", "one_shot")
"""The card options of the Zone (Z-25..Z-30), for the commands that cross it."""


def card_options(zone: bool = True):
    """Give a command the card options (``CARDS``; without ``ZONE_CARDS`` unless ``zone``): they take
    the place of its ``loadout`` parameter in its signature (and its help), and reach it as one dict,
    the loadout arguments of ``sim.api`` (``loadout_args``). A card option is added here once."""
    names = [name for name in CARDS if zone or name not in ZONE_CARDS]

    def wrap(command):
        signature = inspect.signature(command)
        params = list(signature.parameters.values())
        at = [p.name for p in params].index("loadout")
        cards = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=CARDS[name][1],
                                   annotation=CARDS[name][0]) for name in names]

        @functools.wraps(command)
        def with_cards(**options):
            return command(loadout=loadout_args(**{name: options.pop(name) for name in names}), **options)

        with_cards.__signature__ = signature.replace(parameters=params[:at] + cards + params[at + 1:])
        with_cards.__annotations__ = {**{k: v for k, v in command.__annotations__.items() if k != "loadout"},
                                      **{name: CARDS[name][0] for name in names}}
        return with_cards

    return wrap


def loadout_args(*, character, weapon, mods, head, body, stims, medkits, explosives, escape_item, reputation,
                 movement="", avoidance="", one_shot="", kit=None) -> dict:
    """The loadout options as ``sim.api`` takes them (``Loadout.from_options``)."""
    return dict(kit=kit, character=character, weapon=weapon, mods=ids(mods), head=head, body=body,
                stims=counts("--stims", stims), medkits=counts("--medkits", medkits),
                explosives=counts("--explosives", explosives), escape_item=escape_item, reputation=reputation,
                movement=ids(movement), avoidance=ids(avoidance), one_shot=ids(one_shot))


def fmt_p(p: float) -> str:
    """A probability with enough digits to tell it from 0 or 1."""
    return f"{p:.6f}" if 0 < p < 1e-3 or 0.999 < p < 1 else f"{p:.4f}"


def outcome_row(name, p, ci95) -> tuple:
    """``(name, p, "[lo, hi]")``: a row of an outcome table."""
    lo, hi = ci95
    return name, fmt_p(p), f"[{fmt_p(lo)}, {fmt_p(hi)}]"


def outcome_table(rows):
    """A rich table of outcomes, each with its probability and 95% interval."""
    from rich.table import Table

    table = Table()
    for col in ("outcome", "probability", "95% interval"):
        table.add_column(col, justify="right" if col != "outcome" else "left")
    for row in rows:
        table.add_row(*row)
    return table


def wide_console():
    """A rich console; 140 columns when the output is not a terminal (a file, a pipe)."""
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=140)


def show(as_json: bool, summary, tables):
    """The command's answer on stdout: ``summary()`` as one line of JSON with --json,
    else the tables ``tables()`` prints for a reader."""
    if as_json:
        print(json.dumps(summary()))
    else:
        tables()


def announce(text):
    """One plain ``zonesim: text`` line on stderr when it is not a terminal (there a bar shows progress)."""
    if not sys.stderr.isatty():
        print(f"zonesim: {text}", file=sys.stderr, flush=True)


def announce_compile():
    """Say whether the kernels load from numba's cache (seconds) or compile now (minutes)."""
    cache = Path(os.environ.get("NUMBA_CACHE_DIR", "."))
    if cache.is_dir() and any(cache.rglob("*.nbi")):
        announce(f"loading the compiled kernels from {cache} (seconds; minutes for any not compiled yet)")
    else:
        announce(f"compiling the kernels into an empty cache {cache} as they are first used: up to about 4 "
                 "minutes in all, once")


@contextmanager
def progress(label, every_s=10.0):
    """An ``update(done, total, note)`` for a long run: a bar on stderr when it is
    a terminal, else a plain line on stderr at most every ``every_s`` seconds."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    if console.is_terminal:
        with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[note]}"),
                      TimeRemainingColumn(), console=console, transient=True) as bar:
            task = bar.add_task(label, total=None, note="")
            yield lambda done, total, note="": bar.update(task, completed=done, total=total, note=note or "")
        return
    start, last = time.perf_counter(), [-every_s]

    def line(done, total, note=""):
        now = time.perf_counter() - start
        if now - last[0] >= every_s or done == total:
            last[0] = now
            print(f"zonesim: {label} {done}/{total} {note} ({now:.0f} s)", file=sys.stderr, flush=True)

    yield line


def main(argv=None):
    """Entry point: run the command in a worker thread while this thread waits, so
    Ctrl-C is heard at once even while a kernel runs (numba calls cannot be
    interrupted; the main thread would hear the signal only when one returns)."""
    outcome = []

    def command():
        try:
            outcome.append(_run(argv))
        except BaseException as exc:  # noqa: B036 - re-raised in the main thread below
            outcome.append(exc)

    if threading.current_thread() is threading.main_thread():
        # heard even when started in the background of a script, which sets SIGINT to ignored
        signal.signal(signal.SIGINT, signal.default_int_handler)
    worker = threading.Thread(target=command, name="zonesim-command", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.1)
    except KeyboardInterrupt:
        _interrupted()
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def _run(argv):
    """Run the app; turn every bad input into one stderr line and exit 2."""
    try:
        app(args=argv, standalone_mode=False)
    except ZonesimError as exc:
        _fail(str(exc))
    except typer.TyperException as exc:  # usage errors: unknown option, bad value, ...
        ctx = getattr(exc, "ctx", None)
        hint = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
        _fail(exc.format_message().replace("\n", " ") + hint)
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        _fail("aborted")
    except OSError as exc:  # unreadable or unwritable paths
        _fail(f"{exc.filename or ''}: {exc.strerror or exc}")
    return 0


def _interrupted():
    """Ctrl-C: remove half-written output files, say so in one line and exit 130 at once
    (finished ``--out`` files were renamed into place whole and stay readable)."""
    results = sys.modules.get("sim.run.results")
    if results is not None:
        results.discard_pending()
    warmup = sys.modules.get("sim.run.warmup")
    if warmup is not None:
        warmup.stop_all()
    if sys.stderr.isatty():
        sys.stderr.write("\x1b[?25h")  # show the cursor a progress bar hid
    print("zonesim: interrupted", file=sys.stderr, flush=True)
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    os._exit(130)


def _fail(message: str):
    """Print ``message`` as the one error line on stderr; exit 2."""
    print(f"zonesim: error: {message}", file=sys.stderr)
    sys.exit(2)
