"""``zonesim play``: any registered mode by name (``sim.api.run``), or the list of modes."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim import api
from sim.cli.common import ContentDir, Json, Resume, Threads, announce_compile, app, seed_option, show


@app.command()
def play(
    mode: Annotated[Optional[str], typer.Argument(metavar="MODE", help="A registered mode; omit it to list them.")]
    = None,
    strategy: Annotated[Optional[str], typer.Option(help="A built-in strategy of the mode or FILE.py:NAME "
                                                         "(default: the mode's).")] = None,
    trials: Annotated[int, typer.Option(help="Trials (games) to play.")] = 100_000,
    seed: Annotated[int, seed_option()] = 1,
    threads: Threads = None,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write manifest.json and MODE.parquet (a row per "
                                                              "measure) here, with checkpoints for --resume.")] = None,
    resume: Resume = False,
    as_json: Json = False,
    content: ContentDir = None,
):
    """Play any registered mode on its strategy, trials and seed.

    A mode joins the registry by `sim.modes.register` or, from an installed
    package, by an entry point of the group `zonesim.modes`; it needs no
    command of its own. The built-in modes keep theirs (encounter, journey,
    skirmish, stalkeriada), which take their scenario options; `zonesim play
    journey` names the command to use. Without MODE, lists every registered
    mode.

    \b
    Examples:
      zonesim play
      zonesim play toy --strategy bold --trials 200000 --json
      (toy: the test suite's mode, once a package registers it)
    """
    from sim.modes import MODES

    if mode is None:
        width = max(map(len, MODES))
        for record in MODES.values():
            runs = f"zonesim {record.command}" if record.command else f"zonesim play {record.name}"
            print(f"{record.name:{width}s}  {runs:20s}  {record.description}")
        return
    record = MODES.get(mode)
    if record is not None and record.command:
        from sim.errors import UsageProblem

        raise UsageProblem(f"MODE: {mode} is played by `zonesim {record.command}`, with its scenario options "
                           f"(see `zonesim {record.command} --help`)")
    played = api.run(mode, strategy=strategy, trials=trials, seed=seed, threads=threads, out=out, resume=resume,
                     content=content, on_start=announce_compile)
    show(as_json, played.summary, lambda: _print(played))


def _print(played):
    """The context line, then one line per measure with its 95% interval where the mode gives one."""
    print(f"{played.mode} · strategy {played.strategy} · {played.trials:,} trials · seed {played.seed} · content "
          f"{played.content} ({played.content_hash[:12]})")
    width = max(map(len, played.measures))
    for name, value in played.measures.items():
        interval = played.ci95.get(name)
        shown = f"  [{interval[0]:.4f}, {interval[1]:.4f}]" if interval else ""
        print(f"  {name:{width}s}  {value:.4f}{shown}")
