"""The ``zonesim`` command line: parse, call run/analysis/report, print.

Every bad input ends with one line on stderr and exit code 2.
"""

import inspect
import json
import shutil
import sys
from pathlib import Path
from typing import List, Optional

import typer

from sim.content import DEFAULT_DIR, load_content
from sim.content.loadout import Loadout, check_monsters
from sim.errors import ZonesimError

app = typer.Typer(
    help="zonesim: Monte Carlo balance laboratory for dice-driven stalker board games.\n\n"
         "Start with `zonesim encounter --help`.",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
)
content_app = typer.Typer(help="Inspect and copy content sets (TOML files of items, monsters, rules).",
                          no_args_is_help=True)
app.add_typer(content_app, name="content")

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
SEED = typer.Option(1, help="Seed; the same seed gives the same numbers on any thread count.")
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


class UsageProblem(ZonesimError):
    """A command-line value that cannot be used."""


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
    weapon = "+".join([loadout.weapon or "no firearm", *loadout.mods])
    armour = "/".join(a for a in (loadout.head, loadout.body) if a) or "no armour"
    kit = ", ".join(f"{n} {i}" for i, n in (*loadout.healing, *loadout.explosives) if n)
    parts = [loadout.character, weapon, armour] + ([kit] if kit else [])
    if loadout.escape_item:
        parts.append(loadout.escape_item)
    return f"{' · '.join(parts)}  vs  {' + '.join(monsters)}  ({strategy_name})"


def _assumptions(content, loadout: Loadout, monsters) -> list:
    """The [A] content values this fight rests on."""
    used = {loadout.character, *monsters, *loadout.cards()}
    return [a for a in content.assumed_fields()
            if a.startswith(("rules.toml: fight.", "rules.toml: stalker.base_hp"))
            or a.split(": ", 1)[1].split(".")[0] in used]


@app.command()
@loadout_options("character", "weapon", "mods", "head", "body", "stims", "medkits", "explosives", "escape_item",
                 "reputation")
def encounter(
    monster: List[str] = typer.Option(..., "--monster", "-m", metavar="ID", help="Monster id; repeat for a group fought at once."),
    hp: Optional[int] = typer.Option(None, help="HP at the start of the fight (default: full)."),
    strategy: str = typer.Option("fighter", metavar="NAME", help="fighter, runner, tactician, or FILE.py:NAME."),
    trials: Optional[int] = typer.Option(None, help="Fights to simulate [default 1,000,000]; with --target-ci, "
                                                    "the cap [default 100,000,000]."),
    seed: int = SEED,
    exact: bool = typer.Option(False, "--exact", help="Solve exactly (Markov chain): fighter/runner, one monster, "
                                                      "no explosives."),
    as_json: bool = JSON,
    out: Optional[Path] = typer.Option(None, "--out", help="Write manifest.json, parquet tables and a PNG chart here."),
    target_ci: Optional[float] = typer.Option(None, help="Add trials until the 95% interval of p_survive is "
                                                         "narrower than this."),
    threads: Optional[int] = THREADS,
    chunk: int = typer.Option(1 << 20, help="Trials per chunk between progress updates; results do not depend on it."),
    content: Optional[Path] = CONTENT_OPTION,
    **loadout,
):
    """How often does a stalker with this loadout survive that fight?

    Fights the monsters (all at once) with the loadout under a strategy and
    reports win, draw, escape, death and survival with 95% intervals.

    \b
    Examples:
      zonesim encounter --monster bloodsucker --weapon ak47 --body vest --stims stimulator:2
      zonesim encounter -m bloodsucker -m snork --weapon ak47 --mods rebored,laser_sight \\
          --head helmet --body vest --stims stimulator:2 --explosives limonka:2 --json
      zonesim encounter -m chimera --weapon ak47 --reputation 5 --escape-item camo_cloak \\
          --strategy runner --exact
    """
    import strategies
    from sim.run.fight import exact_fight, simulate_fight

    game = load_content(content)
    loadout = _loadout(game, hp=hp, **loadout)
    strat = strategies.get(strategy)
    check_monsters(game, monster)
    if target_ci is not None and not 0 < target_ci < 1:
        raise UsageProblem(f"--target-ci: {target_ci}; give an interval width between 0 and 1, e.g. 0.002")
    if chunk < 1:
        raise UsageProblem(f"--chunk: {chunk}; give at least 1")
    _set_threads(threads)
    if exact:
        result = exact_fight(game, loadout, monster, strat)
    else:
        n = trials if trials is not None else (100_000_000 if target_ci else 1_000_000)
        if n < 1:
            raise UsageProblem(f"--trials: {n}; give at least 1 trial")
        result = _with_progress(lambda cb: simulate_fight(
            game, loadout, monster, strat, trials=n, seed=seed, chunk=chunk, target_ci=target_ci, on_progress=cb,
        ), n, target_ci, quiet=as_json)
    title = _scenario_title(loadout, monster, strat.name)
    assumed = _assumptions(game, loadout, monster)
    summary = {**result.summary(), "assumed": assumed}
    if out is not None:
        _write_encounter(out, game, loadout, monster, strat, result, summary, title)
    if as_json:
        print(json.dumps(summary))
    else:
        _print_table(title, result, assumed, out)


@app.command()
@loadout_options(*LOADOUT_OPTIONS)
def journey(
    strategy: str = typer.Option("greedy", metavar="NAME", help="Journey strategy: cautious, greedy, or FILE.py:NAME "
                                                                "(a JourneyStrategy)."),
    days: int = typer.Option(30, help="Days in the campaign (one turn = one day)."),
    trials: int = typer.Option(200_000, help="Campaigns to simulate."),
    seed: int = SEED,
    as_json: bool = JSON,
    out: Optional[Path] = typer.Option(None, "--out", help="Write manifest.json, parquet tables and PNG charts here."),
    threads: Optional[int] = THREADS,
    content: Optional[Path] = CONTENT_OPTION,
    **loadout,
):
    """Send a stalker across the Zone on the content's orders, for DAYS days.

    Each day he walks his steps toward the current order's destination (or his
    lost loot); every hex entered draws an event by its danger (monsters, traps,
    skill tests, finds). Reports the chance to finish every order and the first
    one, to never die, days to finish, money, deaths and items used, with 95%
    intervals; --out adds curves by day and maps of where stalkers die.

    \b
    Examples:
      zonesim journey --weapon ak47 --body vest --stims stimulator:2 --medkits medkit:2
      zonesim journey --weapon ak47 --movement zone_map --strategy cautious --days 20 --json
    """
    from sim.run.journey import get_journey_strategy, simulate_journey

    game = load_content(content)
    loadout = _loadout(game, **loadout)
    strat = get_journey_strategy(strategy)
    if trials < 1:
        raise UsageProblem(f"--trials: {trials}; give at least 1 trial")
    if days < 1:
        raise UsageProblem(f"--days: {days}; give at least 1 day")
    _set_threads(threads)
    result = _with_progress(lambda cb: simulate_journey(game, loadout, strat, days=days, trials=trials, seed=seed,
                                                        on_progress=cb), trials, None, quiet=as_json, label="journeys")
    summary = result.summary()
    if out is not None:
        _write_journey(out, game, loadout, strat, result, summary)
    if as_json:
        print(json.dumps(summary))
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"{_scenario_title(loadout, ['the Zone'], strat.name)} · {days} days", highlight=False)
    table = Table()
    for col in ("outcome", "probability", "95% interval"):
        table.add_column(col, justify="right" if col != "outcome" else "left")
    for name, label in (("p_complete", "all orders done"), ("p_first_order", "first order done"),
                        ("p_no_death", "never died")):
        lo, hi = result.ci95[name]
        table.add_row(label, _fmt_p(result.probabilities[name]), f"[{_fmt_p(lo)}, {_fmt_p(hi)}]")
    console.print(table)
    mean_days = summary["mean_days_to_complete"]
    console.print(f"days to finish (when finished) {mean_days:.2f}" if mean_days else "no campaign finished")
    console.print(f"money at the end {summary['mean_money']:,.0f} G "
                  f"[{summary['money_ci95'][0]:,.0f}, {summary['money_ci95'][1]:,.0f}] · deaths "
                  f"{summary['mean_deaths']:.3f} · kills {summary['mean_kills']:.2f} per campaign")
    console.print(f"final level {summary['mean_level']:.2f} (K-04) · missions past level 12 "
                  f"{summary['mean_missions']:.3f}")
    console.print(f"{trials:,} campaigns · seed {seed} · {result.elapsed_s:.2f} s · "
                  f"{summary['hex_steps_per_s']:,.0f} hex-steps/s")
    if out:
        console.print(f"written to {out}/")


@app.command()
@loadout_options("character", "weapon", "mods", "head", "body", "stims", "medkits", "explosives", "escape_item",
                 "reputation")
def value(
    monster: List[str] = typer.Option([], "--monster", "-m", metavar="ID", help="Monster id; repeat for a group "
                                                                             "(fights and skirmishes)."),
    strategy: List[str] = typer.Option([], metavar="NAME", help="Fights: fighter (default), runner, tactician, or "
                                       "strongest (the best of those and a grid of tactician settings for this "
                                       "loadout and monster, found on common dice); skirmishes: hold (default), "
                                       "kite, rush; or FILE.py:NAME. Repeat to value the items under each."),
    mode: str = typer.Option("fight", help="fight: survival in the dice fight (Z-15..Z-38); skirmish: survival in "
                                           "the tactical skirmish on the built-in hex arena (A-, M- rules); "
                                           "journey: the chance to finish every order in --days days on the "
                                           "default map (strategies greedy, cautious); stalkeriada: a planner "
                                           "strategy's win rate with and without each shop item (OZK, pliers, its "
                                           "nuts) against --opponents, --trials games per seat order."),
    days: int = typer.Option(30, help="Days of a campaign in --mode journey."),
    opponents: str = typer.Option("greedy,jelly,rush", metavar="NAME,NAME", help="The other players at the "
                                                                               "table in --mode stalkeriada."),
    synergy: bool = typer.Option(False, "--synergy", help="Also measure pairs that interact (the firearm's "
                                                         "modifiers two by two, Doktor with each stimulator, each "
                                                         "escape item with two more reputation): the pair's value "
                                                         "minus the sum of its parts."),
    pair: List[str] = typer.Option([], metavar="A,B", help="A pair to measure for --synergy (item ids, "
                                                          "character=ID or reputation=N); repeat. Default: the "
                                                          "interacting pairs."),
    trials: int = typer.Option(200_000, help="Fights per loadout (every loadout fights the same trials); with "
                                             "--target-ci, the cap."),
    target_ci: Optional[float] = typer.Option(None, help="Add trials until every value's 95% interval is narrower "
                                                         "than this."),
    seed: int = SEED,
    as_json: bool = JSON,
    out: Optional[Path] = typer.Option(None, "--out", help="Write manifest.json and value.parquet here."),
    threads: Optional[int] = THREADS,
    scheduler: Optional[str] = SCHEDULER,
    workers: Optional[int] = WORKERS,
    content: Optional[Path] = CONTENT_OPTION,
    **loadout,
):
    """What is each item worth in this fight, in survival and in G?

    Every item is added to (or swapped into) the given loadout and fights the
    same trials on the same dice, so the change in survival has a tight paired
    interval. The market's exchange rate (survival per G, a least-squares fit
    over the priced items) turns each change into a fair price with its
    interval, flagged over- or under-priced when the interval excludes the price.

    \b
    Examples:
      zonesim value --monster bloodsucker --weapon ak47 --body vest --stims stimulator:1
      zonesim value -m chimera --weapon ak47 --strategy fighter --strategy runner --target-ci 0.01 --json
      zonesim value --mode skirmish -m bloodsucker --weapon ak47 --strategy hold --strategy kite
      zonesim value --mode journey --weapon ak47 --body vest --strategy greedy --trials 100000
    """
    import polars as pl

    from sim.run.distributed import cluster
    from sim.run.value import item_values

    game = load_content(content)
    base = _loadout(game, **loadout)
    if mode in ("fight", "skirmish"):
        check_monsters(game, monster)
    elif synergy or pair or target_ci is not None:
        raise UsageProblem("--synergy, --pair and --target-ci: measured in --mode fight or skirmish")
    if target_ci is not None and not 0 < target_ci < 1:
        raise UsageProblem(f"--target-ci: {target_ci}; give an interval width between 0 and 1, e.g. 0.01")
    if mode != "fight" and (scheduler or workers):
        raise UsageProblem("--scheduler/--workers: item values run on a cluster in --mode fight")
    _set_threads(threads)
    if mode == "journey":
        from sim.run.journey import get_journey_strategy
        from sim.run.value import journey_values

        results = {s.name: journey_values(game, base, s, days=days, trials=trials, seed=seed)
                   for s in map(get_journey_strategy, strategy or ["greedy"])}
    elif mode == "stalkeriada":
        from sim.run.stalkeriada import get_stalkeriada_strategy
        from sim.run.value import stalkeriada_values

        rivals = [get_stalkeriada_strategy(n.strip()) for n in opponents.split(",") if n.strip()]
        if not 1 <= len(rivals) <= 5:
            raise UsageProblem(f"--opponents: {len(rivals)} given; Stalkeriada seats 2 to 6 players")
        results = {s.name: stalkeriada_values(game, s, rivals, games=trials, seed=seed)
                   for s in map(get_stalkeriada_strategy, strategy or ["cautious"])}
    else:
        measures = _value_measures(game, mode, strategy, monster, base, trials, seed)
        with cluster(scheduler, workers) as client:
            results = {name: item_values(game, base, measure, trials=trials, seed=seed, target_ci=target_ci,
                                         client=client) for name, measure in measures.items()}
    table = pl.concat([r.table.with_columns(pl.lit(name).alias("strategy")) for name, r in results.items()])
    pairs = None
    if synergy or pair:
        from sim.run.value import synergies, synergy_pairs

        wanted = [tuple(p.split(",", 1)) for p in pair] if pair else synergy_pairs(game, base)
        if any(len(p) != 2 for p in wanted):
            raise UsageProblem("--pair: give two changes as A,B, e.g. --pair rebored,laser_sight")
        pairs = pl.concat([synergies(game, base, measure, wanted, trials=min(trials, 200_000), seed=seed)
                           .with_columns(pl.lit(name).alias("strategy")) for name, measure in measures.items()])
    summary = {"seed": seed, "mode": mode, "monsters": list(monster),
               "strategies": [{"strategy": name, "trials": r.trials, "base_p_survive": r.base_survival,
                               "survival_per_g": r.rate, "elapsed_s": r.elapsed_s} for name, r in results.items()],
               "items": table.to_dicts(), **({"synergy": pairs.to_dicts()} if pairs is not None else {})}
    if out is not None:
        from sim.run.results import manifest, write_json, write_parquet

        write_parquet(out / "value.parquet", table)
        if pairs is not None:
            write_parquet(out / "synergy.parquet", pairs)
        write_json(out / "manifest.json", manifest(
            ["zonesim", *sys.argv[1:]], content_dir=str(game.directory), content_hash=game.digest,
            files=["manifest.json", "value.parquet", *(["synergy.parquet"] if pairs is not None else [])],
            **{k: v for k, v in summary.items() if k != "items"}))
    if as_json:
        print(json.dumps(summary))
        return
    for name, result in results.items():
        _print_values(base, monster or [{"journey": "the Zone"}.get(mode, "Stalkeriada")], name, result, seed, mode)
    if pairs is not None:
        from rich.console import Console

        console = Console()
        for r in pairs.iter_rows(named=True):
            kind = "complements" if r["ci_low"] > 0 else "substitutes" if r["ci_high"] < 0 else "independent"
            console.print(f"{r['strategy']}: {r['a']} + {r['b']}: together {r['value_both']:+.4f}, alone "
                          f"{r['value_a']:+.4f} and {r['value_b']:+.4f}; synergy {r['synergy']:+.4f} "
                          f"[{r['ci_low']:+.4f}, {r['ci_high']:+.4f}] ({kind})", highlight=False)


def _value_measures(game, mode, names, monsters, base=None, trials=100_000, seed=1):
    """``{strategy name: measure}`` of ``item_values`` for the mode; in fights the
    name ``strongest`` is the best strategy a parameter search finds for ``base``."""
    if mode == "fight":
        import strategies
        from sim.run.value import fight_measure

        def pick(name):
            if name != "strongest":
                return strategies.get(name)
            from sim.run.search import strongest_strategy

            return strongest_strategy(game, base, monsters, trials=min(trials, 100_000), seed=seed)[0]

        return {s.name: fight_measure(game, monsters, s) for s in map(pick, names or ["fighter"])}
    if mode == "skirmish":
        from sim.content.skirmish import load_arena, load_skirmish
        from sim.run.skirmish import get_skirmish_strategy, skirmish_measure

        sk = load_skirmish(game)
        arena = load_arena(sk)
        return {s.name: skirmish_measure(game, sk, monsters, arena, s)
                for s in map(get_skirmish_strategy, names or ["hold"])}
    raise UsageProblem(f"--mode: '{mode}'; use fight, skirmish, journey or stalkeriada")


def _print_values(base, monster, name, result, seed, mode="fight"):
    from rich.console import Console
    from rich.table import Table

    console = Console()
    measure = {"journey": "p_complete", "stalkeriada": "win_rate"}.get(mode, "p_survive")
    console.print(f"{_scenario_title(base, monster, name)} · {measure} {result.base_survival:.4f}", highlight=False)
    table = Table()
    change = {"journey": "completion change", "stalkeriada": "win-rate change"}.get(mode, "survival change")
    for col in ("item", "extra G", change, "95% interval", "fair price G", "95% interval", "verdict"):
        table.add_column(col, justify="left" if col in ("item", "verdict") else "right")
    for r in result.table.iter_rows(named=True):
        fair = "" if r["cost_change"] <= 0 or r["fair_price"] != r["fair_price"] else \
            (f"{r['fair_price']:,.0f}", f"[{r['fair_low']:,.0f}, {r['fair_high']:,.0f}]")
        table.add_row(r["item"], f"{r['cost_change']:+,}", f"{r['value']:+.4f}",
                      f"[{r['ci_low']:+.4f}, {r['ci_high']:+.4f}]", *(fair or ("", "")), r["verdict"])
    console.print(table)
    runs = {"journey": "campaigns (20 paired batches)", "skirmish": "paired skirmishes",
            "stalkeriada": "games per seat order (20 paired batches)"}.get(mode, "paired fights")
    console.print(f"exchange rate {result.rate * 1000:.4f} {measure.removeprefix('p_')} per 1,000 G (fit through "
                  f"the origin over the priced items) · {result.trials:,} {runs} per item · seed {seed} · "
                  f"{result.elapsed_s:.1f} s")


def _write_journey(out, game, loadout, strat, result, summary):
    """manifest.json, journey.parquet, journey_days.parquet, journey_hexes.parquet and three charts."""
    import polars as pl

    from sim.content.journey import load_journey
    from sim.report.charts import journey_curves_chart
    from sim.report.hexmap import draw_map
    from sim.run.results import atomic_write, manifest, write_json, write_parquet

    hexmap = load_journey(game).hexmap
    rows = [{"metric": k, "value": v, "ci_lo": result.ci95[k][0], "ci_hi": result.ci95[k][1]}
            for k, v in result.probabilities.items()]
    rows += [{"metric": k, "value": float(summary[k]) if summary[k] is not None else None, "ci_lo": None,
              "ci_hi": None} for k in ("mean_days_to_complete", "mean_orders_done", "mean_deaths", "mean_kills")]
    rows.append({"metric": "mean_money", "value": summary["mean_money"], "ci_lo": summary["money_ci95"][0],
                 "ci_hi": summary["money_ci95"][1]})
    write_parquet(out / "journey.parquet", pl.DataFrame(rows, schema={
        "metric": pl.Utf8, "value": pl.Float64, "ci_lo": pl.Float64, "ci_hi": pl.Float64}).with_columns(
        pl.lit(strat.name).alias("strategy"), pl.lit(result.trials).alias("trials"), pl.lit(result.seed).alias("seed"),
        pl.lit(result.days).alias("days")))
    by_day = result.by_day()
    write_parquet(out / "journey_days.parquet", by_day)
    cols, rows_ = [c for r in range(hexmap.height) for c in range(hexmap.width)], \
        [r for r in range(hexmap.height) for _ in range(hexmap.width)]
    write_parquet(out / "journey_hexes.parquet", pl.DataFrame({
        "col": cols, "row": rows_, "terrain": [hexmap.terrain_ids[t] for t in hexmap.terrain.ravel()],
        "danger": hexmap.danger.ravel().astype(int), "visits": result.traffic.ravel(),
        "deaths": result.deaths_at.ravel()}))
    provenance = (f"{result.trials:,} campaigns of {result.days} days, seed {result.seed} · strategy {strat.name} · "
                  f"content {game.digest[:12]} · event tables, monster groups and orders are assumed [A] (journey.toml)")
    title = _scenario_title(loadout, [hexmap.name], strat.name)
    charts = out / "charts"
    atomic_write(charts / "journey_curves.png", lambda p: journey_curves_chart(by_day, title, provenance, p))
    atomic_write(charts / "journey_deaths.png", lambda p: draw_map(
        hexmap, p, title=f"Where stalkers die · {title}", provenance=provenance,
        heat=result.deaths_at * 1000.0 / result.trials, heat_label="deaths per 1,000 campaigns"))
    atomic_write(charts / "journey_traffic.png", lambda p: draw_map(
        hexmap, p, title=f"Where stalkers walk · {title}", provenance=provenance,
        heat=result.traffic / result.trials, heat_label="visits per campaign"))
    write_json(out / "manifest.json", manifest(
        ["zonesim", *sys.argv[1:]], seed=result.seed, trials=result.trials, days=result.days,
        content_dir=str(game.directory), content_hash=game.digest,
        strategy={"name": strat.name, "fight": strat.fight, "danger_weight": strat.danger_weight,
                  "recover_loot": strat.recover_loot},
        elapsed_s=result.elapsed_s, summary=summary,
        files=["manifest.json", "journey.parquet", "journey_days.parquet", "journey_hexes.parquet",
               "charts/journey_curves.png", "charts/journey_deaths.png", "charts/journey_traffic.png"],
    ))


def _with_progress(run, total, target_ci, quiet, label="fights"):
    """Run with a progress bar on stderr (hidden for --json when not a terminal)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    if not console.is_terminal and quiet:
        return run(None)
    label = label if target_ci is None else f"{label} (until CI < {target_ci})"
    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[width]}"),
                  TimeRemainingColumn(), console=console, transient=True) as bar:
        task = bar.add_task(label, total=total, width="")

        def update(done, _total, width):
            bar.update(task, completed=done, width=f"CI width {width:.5f}" if width is not None else "")

        return run(update)


def _fmt_p(p: float) -> str:
    """A probability with enough digits to tell it from 0 or 1."""
    return f"{p:.6f}" if 0 < p < 1e-3 or 0.999 < p < 1 else f"{p:.4f}"


def _print_table(title, result, assumed, out):
    from rich.console import Console
    from rich.table import Table

    table = Table()
    for col in ("outcome", "probability", "95% interval"):
        table.add_column(col, justify="right" if col != "outcome" else "left")
    for name in ("p_survive", "p_win", "p_draw", "p_escape", "p_death"):
        lo, hi = result.ci95[name]
        table.add_row(name[2:], _fmt_p(result.probabilities[name]), f"[{_fmt_p(lo)}, {_fmt_p(hi)}]")
    console = Console()
    console.print(title, highlight=False)
    console.print(table)
    hp_left = "n/a" if result.mean_hp_left != result.mean_hp_left else f"{result.mean_hp_left:.2f}"
    console.print(f"mean rounds {result.mean_rounds:.3f} · mean HP left (survivors) {hp_left}")
    if result.trials:
        console.print(f"{result.trials:,} fights · seed {result.seed} · {result.elapsed_s:.2f} s · "
                      f"{result.encounters_per_s:,.0f} fights/s")
        used = ", ".join(f"{k} {v:.3f}" for k, v in result.items_used.items())
        if used:
            console.print(f"items used per fight: {used}")
    else:
        console.print("exact (absorbing Markov chain)")
    if assumed:
        console.print(f"[dim]rests on {len(assumed)} assumed [A] values (see --json 'assumed')[/dim]")
    if out:
        console.print(f"written to {out}/")


def _group_assumed(assumed) -> str:
    """``['items.toml: ak47.dice', ...]`` as ``'ak47 (dice, price); ...'``."""
    groups = {}
    for a in assumed:
        entry, _, field = a.split(": ", 1)[1].rpartition(".")
        groups.setdefault(entry, []).append(field)
    return "; ".join(f"{e} ({', '.join(f)})" for e, f in groups.items())


def _write_encounter(out, game, loadout, monsters, strat, result, summary, title):
    """manifest.json, encounter.parquet (tidy metrics), encounter_hist.parquet, charts/encounter.png."""
    import polars as pl

    from sim.report.charts import fight_chart
    from sim.run.results import manifest, write_json, write_parquet, atomic_write

    scenario = {
        "character": loadout.character, "weapon": loadout.weapon or "", "mods": ",".join(loadout.mods),
        "head": loadout.head or "", "body": loadout.body or "",
        "healing": ",".join(f"{i}:{n}" for i, n in loadout.healing),
        "explosives": ",".join(f"{i}:{n}" for i, n in loadout.explosives),
        "escape_item": loadout.escape_item or "", "reputation": loadout.reputation,
        "monsters": ",".join(monsters), "strategy": strat.name,
    }
    rows = [{"metric": k, "value": result.probabilities[k], "ci_lo": result.ci95[k][0], "ci_hi": result.ci95[k][1]}
            for k in result.probabilities]
    rows += [{"metric": "mean_rounds", "value": result.mean_rounds, "ci_lo": None, "ci_hi": None},
             {"metric": "mean_hp_left", "value": result.mean_hp_left, "ci_lo": None, "ci_hi": None}]
    rows += [{"metric": f"used_per_fight:{k}", "value": v, "ci_lo": None, "ci_hi": None}
             for k, v in result.items_used.items()]
    metrics = pl.DataFrame(rows, schema={"metric": pl.Utf8, "value": pl.Float64, "ci_lo": pl.Float64,
                                         "ci_hi": pl.Float64})
    metrics = metrics.with_columns(
        *(pl.lit(v).alias(k) for k, v in scenario.items()),
        pl.lit(result.trials, dtype=pl.Int64).alias("trials"),
        pl.lit(result.seed, dtype=pl.Int64).alias("seed"),
    )
    files = ["manifest.json", "encounter.parquet", "charts/encounter.png"]
    write_parquet(out / "encounter.parquet", metrics)
    if result.trials:
        hist = pl.DataFrame({
            "kind": ["hp_left"] * result.hp_hist.size + ["rounds"] * result.rounds_hist.size,
            "value": list(range(result.hp_hist.size)) + list(range(result.rounds_hist.size)),
            "count": [int(c) for c in result.hp_hist] + [int(c) for c in result.rounds_hist],
        })
        write_parquet(out / "encounter_hist.parquet", hist)
        files.append("encounter_hist.parquet")
    provenance = (f"{'exact solution' if not result.trials else f'{result.trials:,} fights, seed {result.seed}'}"
                  f" · content {game.digest[:12]} · rests on assumed [A] values of: "
                  + (_group_assumed(summary["assumed"]) or "none"))
    atomic_write(out / "charts" / "encounter.png", lambda p: fight_chart(result, title, provenance, p))
    write_json(out / "manifest.json", manifest(
        ["zonesim", *sys.argv[1:]], seed=result.seed, trials=result.trials, exact=result.trials is None,
        content_dir=str(game.directory), content_hash=game.digest,
        strategy={"name": strat.name, "params": dict(zip(strat.param_names, strat.params.tolist()))},
        scenario=scenario, elapsed_s=result.elapsed_s, summary=summary, files=files,
    ))


@app.command()
def validate(directory: Optional[Path] = typer.Argument(None, help="Content folder (default: the shipped one).")):
    """Check a content set: prints a summary, or the first problem (exit 2).

    \b
    Example:
      zonesim validate my_content/
    """
    from sim.content.maps import load_map, load_terrain

    from sim.content.skirmish import SKIRMISH_FILE, load_arena, load_skirmish
    from sim.content.stalkeriada import STALKERIADA_FILE, load_stalkeriada

    game = load_content(directory)
    maps = []
    if (game.directory / "terrain.toml").is_file():
        terrain = load_terrain(game.directory)
        maps = [load_map(p, terrain) for p in sorted((game.directory / "maps").glob("*.toml"))]
    assumed = len(game.assumed_fields())
    stalkeriada = ""
    if (game.directory / STALKERIADA_FILE).is_file():
        zone = load_stalkeriada(game)
        assumed += len(zone.assumed)
        stalkeriada = f", Stalkeriada {zone.settings['zone']['rows']}x{zone.settings['zone']['cols']} Zone"
    if (game.directory / SKIRMISH_FILE).is_file():
        sk = load_skirmish(game)
        arena = load_arena(sk)
        assumed += len(sk.assumed)
        stalkeriada += f", skirmish arena {arena.rows}x{arena.cols}"
    print(f"{game.directory}: ok · {len(game.characters)} characters, {len(game.monsters)} monsters, "
          f"{len(game.items)} items, {len(maps)} maps{stalkeriada} · {assumed} assumed [A] values · "
          f"hash {game.digest[:12]}")


def _hex(option, text, hexmap):
    """``C,R`` or the id of a base or site on ``hexmap``."""
    col, comma, row = text.partition(",")
    if comma:
        try:
            return int(col), int(row)
        except ValueError:
            raise UsageProblem(f"{option}: '{text}' is not COL,ROW; write e.g. {option} 4,14") from None
    try:
        return hexmap.point(text)
    except (KeyError, ValueError, ZonesimError):
        names = ", ".join(p.id for p in (*hexmap.bases, *hexmap.sites))
        raise UsageProblem(f"{option}: '{text}' is neither COL,ROW nor a base or site of {hexmap.path} "
                           f"({names})") from None


@app.command()
def route(
    start: str = typer.Option(..., "--from", metavar="C,R|ID", help="Start hex as COL,ROW, or a base or site id."),
    goal: str = typer.Option(..., "--to", metavar="C,R|ID", help="Goal hex as COL,ROW, or a base or site id."),
    map_file: Optional[Path] = typer.Option(None, "--map", help="Map file (default: the shipped Zone map)."),
    item: Optional[str] = typer.Option(None, metavar="ID", help="Movement item (zone_map, glonass, jetpack)."),
    as_json: bool = typer.Option(False, "--json", help="Print {\"days\", \"steps\", \"path\"} as JSON."),
    content: Optional[Path] = CONTENT_OPTION,
):
    """Fewest days from one hex to another (Z-25, Z-26, Z-34..Z-36), exactly.

    A day has 6 steps plus the movement item's; each hex costs its terrain;
    a move that does not fit the steps left waits for the next day; Epicentre
    hexes are paid from the base 6 steps only.

    \b
    Examples:
      zonesim route --from cordon --to bar
      zonesim route --from 4,14 --to 16,2 --item jetpack --json
    """
    from sim.analysis.route import fastest_route
    from sim.content.maps import default_map_path, load_map, load_terrain

    game = load_content(content)
    hexmap = load_map(map_file or (game.directory / "maps" / "zone.toml" if content else default_map_path()),
                      load_terrain(game.directory))
    extra = 0
    if item is not None:
        entry = game.items.get(item)
        if entry is None or entry.family != "movement":
            choices = ", ".join(e.id for e in game.family("movement"))
            raise UsageProblem(f"--item: '{item}' is not a movement item; use one of: {choices}")
        extra = entry["steps"]
    a, b = _hex("--from", start, hexmap), _hex("--to", goal, hexmap)
    found = fastest_route(hexmap, a, b, extra_steps=extra, base_budget=game.rules["stalker"]["step_budget"])
    if found is None:
        raise UsageProblem(f"--to: {b} cannot be reached from {a} on {hexmap.path}; pick another hex or map")
    if as_json:
        print(json.dumps({"days": found.days, "steps": found.steps, "path": [list(p) for p in found.path]}))
    else:
        print(f"{found.days} day{'s' if found.days != 1 else ''}, {found.steps} steps: "
              + " -> ".join(f"{c},{r}" for c, r in found.path))


@content_app.command("init")
def content_init(directory: Path = typer.Argument(..., help="New folder to create with the default content.")):
    """Copy the shipped default content into DIRECTORY to edit it.

    \b
    Example:
      zonesim content init my_content && zonesim validate my_content
      zonesim encounter -m snork --weapon berdanka --content my_content
    """
    if directory.exists() and any(directory.iterdir()):
        raise UsageProblem(f"{directory}: exists and is not empty; choose a new folder")
    shutil.copytree(DEFAULT_DIR, directory, dirs_exist_ok=True)
    print(f"{directory}: default content copied; edit the TOML files, then `zonesim validate {directory}`")


@content_app.command("path")
def content_path():
    """Print the folder of the shipped default content.

    \b
    Example:
      ls "$(zonesim content path)"
    """
    print(DEFAULT_DIR)


@app.command("strategies")
def list_strategies():
    """List the built-in strategies with their parameters.

    Your own: write a file with a `Strategy` (see README) and pass
    --strategy FILE.py:NAME.

    \b
    Example:
      zonesim strategies
    """
    import strategies
    from strategies.skirmish import BEAST
    from strategies.skirmish import BUILT_IN as SKIRMISH
    from strategies.stalkeriada import BUILT_IN as STALKERIADA

    for title, built_in in (("fights and journeys (--strategy)", strategies.BUILT_IN),
                            ("Stalkeriada (--players)", STALKERIADA)):
        print(title)
        for s in built_in.values():
            params = ", ".join(f"{n}={v:g}" for n, v in zip(s.param_names, s.params)) or "no parameters"
            print(f"  {s.name:10s} {s.description} ({params})")
    print("skirmishes (zonesim skirmish --strategy; monsters always play beast)")
    for s in (*SKIRMISH.values(), BEAST):
        print(f"  {s.name:10s} {s.description}")


@app.command()
def skill(
    attribute: int = typer.Option(..., help="The tested attribute's value."),
    target: int = typer.Option(..., help="The score to reach (K-01)."),
    modifiers: int = typer.Option(0, help="Sum of modifiers."),
    trials: int = typer.Option(1_000_000, help="Tests to simulate beside the exact answer."),
    seed: int = typer.Option(1, help="Seed."),
    content: Optional[Path] = CONTENT_OPTION,
):
    """Chance to pass a skill test (K-01..K-03): exact and simulated.

    1 d6 + attribute + modifiers >= target passes; a 1 fails; a 6 rolls again
    and adds.

    \b
    Example:
      zonesim skill --attribute 2 --target 8
    """
    from sim.analysis.skill import skill_pass_probability
    from sim.analysis.stats import wilson
    from sim.run.skill import simulate_skill

    if trials < 1:
        raise UsageProblem(f"--trials: {trials}; give at least 1 trial")
    extra_one_fails = load_content(content).rules["skill"]["extra_one_fails"]
    p = skill_pass_probability(attribute + modifiers, target, extra_one_fails)
    passed = simulate_skill(attribute, modifiers, target, extra_one_fails, trials, seed)
    lo, hi = wilson(passed, trials)
    print(f"exact {p:.6f} · simulated {passed / trials:.6f} [{lo:.6f}, {hi:.6f}] over {trials:,} tests")


def main(argv=None):
    """Entry point: run the app; turn every bad input into one stderr line and exit 2."""
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


def _fail(message: str):
    print(f"zonesim: error: {message}", file=sys.stderr)
    sys.exit(2)


import sim.cli_stalkeriada  # noqa: E402,F401  (registers the Stalkeriada commands)
import sim.cli_skirmish  # noqa: E402,F401  (registers the skirmish command)
import sim.cli_tune  # noqa: E402,F401  (registers the tune command)
import sim.cli_report  # noqa: E402,F401  (registers the report command)
import sim.cli_loadouts  # noqa: E402,F401  (registers the loadouts command)
