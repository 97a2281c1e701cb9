"""What every ``zonesim`` command shares: the app, the common options, parsing
of loadouts, the checks run before any kernel compiles, the progress bar and
the error handling of ``main``.

Every bad input ends with one line on stderr and exit code 2; Ctrl-C ends a run
at once with ``zonesim: interrupted`` and exit code 130.
"""

import dataclasses
import inspect
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import List, Optional

import typer

from sim.content.loadout import Loadout
from sim.errors import ZonesimError

app = typer.Typer(
    help="zonesim: Monte Carlo balance laboratory for dice-driven stalker board games.\n\n"
         "Start with `zonesim encounter --help`.",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
)


class UsageProblem(ZonesimError):
    """A command-line value that cannot be used."""


def _check_seed(seed: int) -> int:
    """--seed takes a whole number >= 0."""
    if seed < 0:
        raise UsageProblem(f"--seed: {seed}; give a whole number >= 0")
    return seed


def seed_option(help="Seed; the same seed gives the same numbers on any thread count.", default=1):
    """The --seed option (default 1; None: the content's own), refusing negative seeds."""
    return typer.Option(default, callback=lambda seed: seed if seed is None else _check_seed(seed), help=help)


CONTENT_OPTION = typer.Option(None, "--content", help="Content folder to use instead of the shipped default.")
# the loadout options, shared by every command that equips a stalker
CHARACTER = typer.Option("novice", metavar="ID", help="Character type (novice, verzila, doktor, mazhor, gromoboi).")
WEAPON = typer.Option(None, metavar="ID", help="Active firearm id (berdanka, ak47, kvazar); none if omitted.")
MODS = typer.Option("", metavar="ID,ID", help="Comma-separated modifiers of that firearm, e.g. rebored,laser_sight.")
HEAD = typer.Option(None, metavar="ID", help="Head armour id (helmet, sphere_helmet).")
BODY = typer.Option(None, metavar="ID", help="Body armour id (leather_jacket, vest, exoskeleton).")
STIMS = typer.Option([], metavar="ID:N", help="Stimulators as ID:COUNT, e.g. stimulator:2 (comma list or repeat).")
MEDKITS = typer.Option([], metavar="ID:N", help="Medkits as ID:COUNT, used out of combat when HP is low.")
EXPLOSIVES = typer.Option([], metavar="ID:N", help="Explosives as ID:COUNT, e.g. limonka:2 (at most 10 in all).")
ESCAPE_ITEM = typer.Option(None, metavar="ID", help="Escape item id (smoke_bomb, camo_cloak, stealth_generator).")
REPUTATION = typer.Option(None, help="Reputation for the escape roll (default: the starting one).")
THREADS = typer.Option(None, help="Threads to use (default: all cores); results do not depend on it.")
SCHEDULER = typer.Option(None, metavar="ADDRESS", help="Run the sweep on this Dask scheduler (e.g. "
                                                       "tcp://10.0.0.5:8786); the numbers are the same as here.")
WORKERS = typer.Option(None, help="Run the sweep on a local Dask cluster of N worker processes.")
RESUME = typer.Option(False, "--resume", help="Continue the killed run whose --out folder is given: its finished "
                                              "chunks are kept and only the rest run; the numbers are the same as "
                                              "an uninterrupted run.")


def chunk_option(default):
    """The --chunk option: trials per chunk (a checkpoint with --out, a task with --workers)."""
    return typer.Option(default, min=1, help="Trials per chunk: a checkpoint with --out and a task on a cluster; "
                                             "the numbers do not depend on it.")
SEED = seed_option()
JSON = typer.Option(False, "--json", help="Print one JSON object instead of a table.")
MOVEMENT = typer.Option("", metavar="ID,ID", help="Movement items (zone_map, glonass, jetpack); the best one is "
                                                  "active (Z-25).")
AVOIDANCE = typer.Option("", metavar="ID,ID", help="Event-avoidance items (bag_of_nuts, dosimeter, torsion_scanner); "
                                                   "the best one is active (Z-30).")
LOADOUT_OPTIONS = {
    "character": (str, CHARACTER), "weapon": (Optional[str], WEAPON), "mods": (str, MODS),
    "head": (Optional[str], HEAD), "body": (Optional[str], BODY), "stims": (List[str], STIMS),
    "medkits": (List[str], MEDKITS), "explosives": (List[str], EXPLOSIVES),
    "escape_item": (Optional[str], ESCAPE_ITEM), "reputation": (Optional[int], REPUTATION),
    "movement": (str, MOVEMENT), "avoidance": (str, AVOIDANCE),
    "one_shot": (str, typer.Option("", metavar="ID,ID", help="One-shot movement cards (helicopter_call, space_gate), "
                                                           "used to reach a base (Z-27, Z-28).")),
}


# the loadout of a fight (no Zone-movement or avoidance items)
FIGHT_LOADOUT = ("character", "weapon", "mods", "head", "body", "stims", "medkits", "explosives", "escape_item",
                 "reputation")
# the monsters of a fight or skirmish in the commands that value items
GROUP = typer.Option([], "--monster", "-m", metavar="ID", help="Monster id; repeat for a group (fights and "
                                                               "skirmishes).")


def run_params(command, game, **options) -> dict:
    """What a resumed run must share with the killed one: the command, the
    content's digest and every option that changes the numbers (dataclasses as dicts)."""
    plain = {k: dataclasses.asdict(v) if dataclasses.is_dataclass(v) else v for k, v in options.items()}
    return {"command": command, "content_hash": game.digest, **plain}


def loadout_options(*names):
    """Give a command the shared loadout options ``names``; it receives them in ``**loadout``."""
    def add(command):
        signature = inspect.signature(command)
        keyword = inspect.Parameter.KEYWORD_ONLY
        shared = [inspect.Parameter(n, keyword, default=LOADOUT_OPTIONS[n][1], annotation=LOADOUT_OPTIONS[n][0])
                  for n in names]
        own = [p.replace(kind=keyword) for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
        command.__signature__ = signature.replace(parameters=own[:1] + shared + own[1:])
        return command

    return add


def _counts(option: str, values: List[str]) -> tuple:
    """Parse repeated/comma-separated ``ID:COUNT`` values (``ID`` alone means 1)."""
    out = {}
    for value in values:
        for part in filter(None, (p.strip() for p in value.split(","))):
            item_id, _, count = part.partition(":")
            try:
                n = int(count) if count else 1
            except ValueError:
                raise UsageProblem(f"{option}: '{part}' is not ID:COUNT; write e.g. {option} stimulator:2") from None
            out[item_id] = out.get(item_id, 0) + n
    return tuple(out.items())


def _check_healing_kind(content, option, pairs, in_combat):
    """--stims takes in-combat healing items, --medkits the others (Z-31)."""
    for item_id, _ in pairs:
        item = content.items.get(item_id)
        if item is not None and item.family == "healing" and item["in_combat"] != in_combat:
            other = "--stims" if item["in_combat"] else "--medkits"
            raise UsageProblem(f"{option}: '{item_id}' is {'a stimulator' if item['in_combat'] else 'a medkit'}; "
                               f"give it with {other}")


def _loadout(game, *, stims, medkits, explosives, mods, movement="", avoidance="", one_shot="", **fields) -> Loadout:
    """A validated ``Loadout`` from the shared command-line options."""
    _check_healing_kind(game, "--stims", _counts("--stims", stims), True)
    _check_healing_kind(game, "--medkits", _counts("--medkits", medkits), False)
    ids = lambda text: tuple(i for i in text.split(",") if i)  # noqa: E731
    loadout = Loadout(mods=ids(mods), healing=_counts("--stims", stims) + _counts("--medkits", medkits),
                      explosives=_counts("--explosives", explosives), movement=ids(movement),
                      avoidance=ids(avoidance), one_shot=ids(one_shot), **fields)
    return loadout.validate(game)


def load_checked(directory: Optional[Path]):
    """Load a content set and check all of it (maps, journey, skirmish, Stalkeriada,
    economy and report files) before any kernel compiles: bad content is refused
    in seconds, whatever the command needs of it."""
    from sim.content import load_content
    from sim.content.journey import JOURNEY_FILE, load_journey
    from sim.content.maps import load_map, load_terrain
    from sim.content.skirmish import SKIRMISH_FILE, load_arena, load_skirmish
    from sim.content.stalkeriada import STALKERIADA_FILE, load_stalkeriada
    from sim.economy.context import ECONOMY_FILE, load_context
    from sim.report.study import REPORT_FILE, load_study

    game = load_content(directory)
    folder = Path(game.directory)
    if (folder / "terrain.toml").is_file():
        terrain = load_terrain(folder)
        for path in sorted((folder / "maps").glob("*.toml")):
            load_map(path, terrain)
    checks = {JOURNEY_FILE: load_journey, STALKERIADA_FILE: load_stalkeriada,
              SKIRMISH_FILE: lambda g: load_arena(load_skirmish(g)), ECONOMY_FILE: load_context,
              REPORT_FILE: lambda g: load_study(g, quick=False)}
    for name, check in checks.items():
        if (folder / name).is_file():
            check(game)
    return game


# the built-in strategies of each kind, by name: checked before the modules that hold them
# compile their kernels on import (tests/cli/test_cli_fight_and_journey.py keeps them equal to those modules' tables)
STRATEGY_NAMES = {
    "fight": ("fighter", "runner", "tactician"),
    "journey": ("cautious", "greedy"),
    "skirmish": ("hold", "kite", "rush"),
    "stalkeriada": ("cautious", "greedy", "jelly", "rush"),
}


def check_strategies(option: str, specs, kind: str, extra=()):
    """Each of ``specs`` is a built-in ``kind`` strategy (or one of ``extra``) or
    ``FILE.py:NAME`` with the file present: a bad name is refused in one line
    before any kernel compiles (the file's contents are checked when it loads)."""
    names = (*STRATEGY_NAMES[kind], *extra)
    for spec in specs:
        if spec in names:
            continue
        if ":" not in spec:
            raise UsageProblem(f"{option}: unknown strategy '{spec}'; built in: {', '.join(names)}; "
                               "or give FILE.py:NAME")
        path = Path(spec.rsplit(":", 1)[0])
        if not path.is_file():
            raise UsageProblem(f"{option}: strategy file '{path}' not found (from {spec})")


def name_list(text: str) -> list:
    """Comma-separated names (``"a, b,,c"``), blanks dropped."""
    return [n.strip() for n in text.split(",") if n.strip()]


def check_valued_strategies(strategies, mode: str, opponents: str) -> list:
    """The strategy options of ``value`` and ``tune`` checked before any kernel
    compiles: ``--strategy`` names (fights also take ``strongest``) and, for
    Stalkeriada, 1 to 5 ``--opponents`` (2 to 6 seats); the opponents' names."""
    check_strategies("--strategy", strategies, mode, extra=("strongest",) if mode == "fight" else ())
    if mode != "stalkeriada":
        return []
    rivals = name_list(opponents)
    if not 1 <= len(rivals) <= 5:
        raise UsageProblem(f"--opponents: {len(rivals)} given; Stalkeriada seats 2 to 6 players")
    check_strategies("--opponents", rivals, mode)
    return rivals


# the fastest speeds measured on 2 cores (README "Performance"): a count refused at these would take longer anywhere
FIGHTS_PER_S = 60_000_000
JOURNEY_DAYS_PER_S = 9_000_000    # journeys/s x days (278,195 thirty-day campaigns/s)
SKIRMISHES_PER_S = 200_000
GAMES_PER_S = 4_000


def check_trials(option: str, trials: int, per_s: float, unit="trial"):
    """Refuse ``trials`` that would take more than a day at ``per_s`` (the fastest
    speed measured for the mode); a whole number >= 1 otherwise."""
    if trials < 1:
        raise UsageProblem(f"{option}: {trials}; give at least 1 {unit}")
    days, units = trials / per_s / 86_400, unit + ("es" if unit.endswith("sh") else "s")
    if days > 1:
        raise UsageProblem(f"{option}: {trials:,} {units} would take about {days:,.0f} days at ~{per_s:,.0f} "
                           f"{units}/s; use fewer {units}")
    return trials


def _set_threads(threads: Optional[int]):
    """Apply --threads (results do not depend on it)."""
    if threads is None:
        return
    import numba

    top = numba.config.NUMBA_NUM_THREADS
    if not 1 <= threads <= top:
        raise UsageProblem(f"--threads: {threads}; this machine allows 1..{top}")
    numba.set_num_threads(threads)


def _scenario_title(loadout: Loadout, monsters, strategy_name) -> str:
    """``novice · ak47+rebored · vest · 2 stimulator  vs  snork  (fighter)``."""
    weapon = "+".join([loadout.weapon or "no firearm", *loadout.mods])
    armour = "/".join(a for a in (loadout.head, loadout.body) if a) or "no armour"
    kit = ", ".join(f"{n} {i}" for i, n in (*loadout.healing, *loadout.explosives) if n)
    parts = [loadout.character, weapon, armour] + ([kit] if kit else [])
    if loadout.escape_item:
        parts.append(loadout.escape_item)
    return f"{' · '.join(parts)}  vs  {' + '.join(monsters)}  ({strategy_name})"


def _fight_assumed(content, used) -> list:
    """The [A] content values a fight rests on: the fight rules, base HP and the entries ``used``."""
    return [a for a in content.assumed_fields()
            if a.startswith(("rules.toml: fight.", "rules.toml: stalker.base_hp"))
            or a.split(": ", 1)[1].split(".")[0] in used]


def _with_progress(run, total, target_ci, label="fights"):
    """Run with a progress bar on stderr when it is a terminal, else plain lines: whether the
    kernels compile, then the count done at most every 10 s."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    label = label if target_ci is None else f"{label} (until CI < {target_ci})"
    if not console.is_terminal:
        announce_compile()
        with progress(label) as line:
            return run(lambda done, total, width: line(done, total, f"CI width {width:.5f}" if width else ""))
    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[width]}"),
                  TimeRemainingColumn(), console=console, transient=True) as bar:
        task = bar.add_task(label, total=total, width="")

        def update(done, _total, width):
            bar.update(task, completed=done, width=f"CI width {width:.5f}" if width is not None else "")

        return run(update)


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


def _fmt_p(p: float) -> str:
    """A probability with enough digits to tell it from 0 or 1."""
    return f"{p:.6f}" if 0 < p < 1e-3 or 0.999 < p < 1 else f"{p:.4f}"


def _group_assumed(assumed) -> str:
    """``['items.toml: ak47.dice', ...]`` as ``'ak47 (dice, price); ...'``."""
    groups = {}
    for a in assumed:
        entry, _, field = a.split(": ", 1)[1].rpartition(".")
        groups.setdefault(entry, []).append(field)
    return "; ".join(f"{e} ({', '.join(f)})" for e, f in groups.items())


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
