"""``zonesim loadouts``: every loadout a budget buys, fought on the same dice;
survival per loadout, the Pareto front of cost against survival and the best
loadout per budget step (Z-11, Z-18, Z-20..Z-24, Z-32, Z-42)."""

from pathlib import Path
from typing import Annotated, List, Optional

import typer

from sim import api
from sim.cli.common import (Character, ContentDir, Json, Resume, Scheduler, Seed, Threads, Workers, announce_compile,
                            app, built_in, fmt_p, progress, show)
from sim.errors import UsageProblem
from sim.options import name_list

FIGHT_FAMILIES = "firearms,modifiers,armour,healing,explosives,escape"


@app.command()
def loadouts(
    budget: Annotated[int, typer.Option(help="G to spend: every loadout costing at most this is fought (Z-42 "
                                             "prices).")],
    character: Character = "novice",
    monster: Annotated[List[str], typer.Option("--monster", "-m", metavar="ID",
                                               help="Monster id; repeat for a group fought at once.")] = [],
    mix: Annotated[Optional[Path], typer.Option("--mix", metavar="FILE.toml",
                                                help='Monster groups instead of --monster: [[group]] tables of '
                                                     'monsters = ["snork", "boar"] and weight = 2 (default '
                                                     '1).')] = None,
    strategy: Annotated[str, typer.Option(metavar="NAME",
                                          help=f"{built_in('fight')}, or FILE.py:NAME.")] = "fighter",
    trials: Annotated[int, typer.Option(help="Fights per loadout and monster group (the same trials for every "
                                             "loadout).")] = 20_000,
    seed: Seed = 1,
    max_count: Annotated[int, typer.Option(help="Most cards of each stimulator and explosive to try (also capped by "
                                                "its deck, Z-11, and 10 explosives in all, Z-18).")] = 2,
    families: Annotated[str, typer.Option(metavar="NAME,NAME", help="Item families to combine; fewer families, "
                                          "fewer loadouts. Medkits never count: a fight starts at full health "
                                          "(Z-31).")] = FIGHT_FAMILIES,
    journey: Annotated[Optional[int], typer.Option(metavar="DAYS", help="Instead of fights: send every loadout on "
                                                   "the same campaigns of DAYS days on the default map and rank by "
                                                   "the chance to reach the campaign's goal (--strategy greedy or "
                                                   "cautious; medkits, Zone-movement and avoidance items join the "
                                                   "families).")] = None,
    reputation: Annotated[Optional[int], typer.Option(help="Reputation for the escape roll (default: the starting "
                                                           "one); escape items matter only to a strategy that "
                                                           "rolls.")] = None,
    step: Annotated[int, typer.Option(help="Budget step in G of the best-per-step table.")] = 250,
    top: Annotated[int, typer.Option(metavar="N", help="Rows printed of the best and Pareto tables (every budget "
                                                       "step is printed).")] = 15,
    max_loadouts: Annotated[int, typer.Option(help="Refuse to fight more loadouts than this.")] = 50_000,
    as_json: Json = False,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write manifest.json, parquet tables and a PNG chart "
                                                              "here (and a checkpoint per finished batch of "
                                                              "loadouts, for --resume).")] = None,
    resume: Resume = False,
    threads: Threads = None,
    scheduler: Scheduler = None,
    workers: Workers = None,
    content: ContentDir = None,
):
    """Which loadout should a stalker buy with BUDGET G?

    Enumerates every legal loadout within the budget (one firearm or none with
    any of its modifiers, one head and one body armour, 0..--max-count of each
    stimulator and explosive, one escape item), fights each against the
    monsters on the same dice (common random numbers) and reports survival
    with 95% intervals, the Pareto front (no cheaper loadout survives as
    often) and the best loadout for each budget step.

    The count grows fast: with every family 1,500 G buys 3,596 loadouts,
    2,000 G 11,992 and 2,500 G 29,138 (about 3, 13 and 25 s of fights at
    20,000 each on 2 cores). Narrow --families or --max-count to go higher;
    escape items change nothing for the fighter, who never rolls to escape.

    \b
    Examples:
      zonesim loadouts --budget 2000 --monster bloodsucker
      zonesim loadouts --budget 6000 -m chimera --families firearms,modifiers,armour,healing --step 500
      zonesim loadouts --budget 3000 --mix mix.toml --families firearms,modifiers,armour,healing,explosives --json
      zonesim loadouts --budget 2500 -m snork -m flesh --strategy runner --reputation 5 --out results/loadouts
    \b
    A mix file (survival is the weighted mean over its groups):
      [[group]]
      monsters = ["snork", "boar"]
      weight = 2
      [[group]]
      monsters = ["bloodsucker"]
    """
    if top < 1:
        raise UsageProblem(f"--top: {top}; give at least 1 row")
    with progress("campaigns" if journey is not None else "fights") as update:
        search = api.loadouts(budget, character=character, monsters=monster, mix=mix, strategy=strategy,
                              trials=trials, seed=seed, max_count=max_count,
                              families=None if families == FIGHT_FAMILIES else name_list(families), journey=journey,
                              reputation=reputation, step=step, max_loadouts=max_loadouts, threads=threads,
                              scheduler=scheduler, workers=workers, out=out, resume=resume, content=content,
                              on_start=announce_compile, on_progress=update)
    show(as_json, search.summary, lambda: _print(search, top, out))


def _print(search, top, out):
    """The best loadouts, the Pareto front and the best per budget step, then the run's counts."""
    from rich.console import Console
    from rich.table import Table

    result, table, steps = search.result, search.table, search.steps
    measure, runs = ("completion", "campaigns") if search.journey else ("survival", "fights")
    console = Console()
    console.print(f"{search.title()}\n{table.height:,} loadouts enumerated ({', '.join(search.families)}"
                  f"; up to {search.max_count} of each stimulator and explosive), "
                  f"{int(table['pareto'].sum())} on the Pareto front", highlight=False)

    def show(title, frame, lead=None, rows=top):
        """Up to ``rows`` rows of ``frame``; ``lead`` = (header, row -> text) adds a first column."""
        grid = Table(title=title, title_justify="left")
        for col in ([lead[0]] if lead else []) + ["cost G", measure, "95% interval", "loadout"]:
            grid.add_column(col, justify="left" if col == "loadout" else "right")
        for row in frame.head(rows).iter_rows(named=True):
            grid.add_row(*([lead[1](row)] if lead else []), f"{row['cost']:,}", fmt_p(row["survival"]),
                         f"[{fmt_p(row['ci_low'])}, {fmt_p(row['ci_high'])}]", row["description"])
        console.print(grid)
        if frame.height > rows:
            console.print(f"[dim]... {frame.height - rows:,} more rows (--top, --json or --out)[/dim]")

    show("Best first (* = on the Pareto front)",
         table.sort(["survival", "cost", "index"], descending=[True, False, False]),
         ("front", lambda row: "*" if row["pareto"] else ""))
    show("Pareto front: nothing cheaper survives as often", search.front())
    show("Best loadout within each budget step", steps, ("budget G", lambda row: f"<= {row['budget']:,}"),
         steps.height)
    console.print(f"{search.fights():,} {runs} ({result.trials:,} per loadout and group, the same dice for "
                  f"every loadout) · seed {result.seed} · {result.elapsed_s:.1f} s · "
                  f"{search.fights_per_s() or 0:,.0f} {runs}/s", highlight=False)
    console.print("[dim]intervals: the weighted mean of each group's Wilson 95% bounds[/dim]")
    if "escape" in search.families and getattr(getattr(search.strategy, "escape", None), "never_tries", False):
        console.print(f"[dim]{search.strategy.name} never rolls to escape, so escape items change nothing here; "
                      "--families without escape fights a quarter as many loadouts[/dim]")
    if search.assumed:
        console.print(f"[dim]rests on {len(search.assumed)} assumed [A] values (see --json 'assumed')[/dim]")
    if out:
        console.print(f"written to {out}/")
