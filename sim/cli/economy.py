"""What ``zonesim value`` and ``zonesim tune`` share: the context from the
options (economy.toml's, or a scenario's), the checks run before any kernel
compiles, the tables printed and the files written."""

import json
import sys
from dataclasses import replace
from pathlib import Path

from sim.cli.common import (FIGHTS_PER_S, GAMES_PER_S, JOURNEY_DAYS_PER_S, SKIRMISHES_PER_S, UsageProblem, _loadout,
                            check_strategies, check_trials, check_valued_strategies, name_list, run_params)

MODE_SPEEDS = {"fight": FIGHTS_PER_S, "skirmish": SKIRMISHES_PER_S, "journey": JOURNEY_DAYS_PER_S,
               "stalkeriada": GAMES_PER_S}
"""The fastest trials per second of each mode on 2 cores (journeys: campaign days): a count that would take
over a day is refused."""


def is_scenario(mode, monster, strategy, loadout, budget) -> bool:
    """Whether any scenario option was given (the character counts when not the default novice)."""
    given = any(v for k, v in loadout.items() if k != "character") or loadout.get("character", "novice") != "novice"
    return bool(mode or monster or strategy or budget or given)


def item_list(game, items: str, mode=None):
    """``--items A,B`` as a list of known card ids (None: every card)."""
    from sim.economy.kits import SHOP_ITEMS

    wanted = name_list(items)
    known = [i for i, _ in SHOP_ITEMS] if mode == "stalkeriada" else list(game.items)
    unknown = [i for i in wanted if i not in known]
    if unknown:
        raise UsageProblem(f"--items: unknown card '{unknown[0]}'; use one of: {', '.join(known)}")
    return wanted or None


def economy_settings(game, quick, seed):
    """economy.toml's settings at the full or ``quick`` counts, with ``seed`` (None: the file's)."""
    from sim.economy.context import load_context

    settings = load_context(game, quick=quick)
    return settings if seed is None else replace(settings, seed=seed)


def build_context(game, *, quick, seed, view, mode, monster, strategy, opponents, days, budget, trials, selection,
                  loadout):
    """``make(client, store)``, the context of ``value`` / ``tune`` (economy.toml's, or
    its ``view``, with no scenario options, else the scenario's:
    ``sim.economy.context.scenario``), after every option is checked."""
    from sim.economy.context import VIEWS, declared, scenario

    settings = economy_settings(game, quick, seed)
    if not is_scenario(mode, monster, strategy, loadout, budget):
        if view is not None:
            if view not in VIEWS:
                raise UsageProblem(f"--view: '{view}'; use one of: {', '.join(VIEWS)} (or leave it out for the "
                                   "campaign)")
            check_strategies(f"{settings.source}: views.{view}.strategy", [settings.view(view).strategy], "fight")
        return lambda client, store: declared(game, settings, view=view, client=client, store=store)
    if quick or view:
        raise UsageProblem("--quick and --view: for economy.toml's context; drop the scenario options (--monster, "
                           "the loadout, --strategy, --mode, --budget) or these")
    mode = mode or "fight"
    if mode not in MODE_SPEEDS:
        raise UsageProblem(f"--mode: '{mode}'; use fight, skirmish, journey or stalkeriada")
    if mode in ("fight", "skirmish"):
        from sim.content.loadout import check_monsters

        check_monsters(game, monster)
    if days < 1:
        raise UsageProblem(f"--days: {days}; give at least 1 day")
    if any(b < 1 for b in budget):
        raise UsageProblem(f"--budget: {min(budget)}; give a budget of at least 1 G")
    if trials is not None:
        check_trials("--trials", trials, MODE_SPEEDS[mode] / (days if mode == "journey" else 1))
    from sim.economy.outcome import SELECTION_BATCHES

    if selection is not None and selection < 2 * SELECTION_BATCHES:
        raise UsageProblem(f"--selection: {selection}; give at least {2 * SELECTION_BATCHES} ({SELECTION_BATCHES} "
                           "paired batches of 2)")
    rivals = check_valued_strategies(strategy, mode, opponents)
    given = _given_loadout(game, loadout, mode)

    def make(client, store):
        players, others = _players(mode, strategy, rivals)
        return scenario(game, settings, mode=mode, monsters=monster, loadout=given, strategies=players,
                        opponents=others, days=days, budgets=tuple(budget), trials=trials, selection=selection,
                        seed=settings.seed, client=client, store=store)
    return make


def _given_loadout(game, loadout, mode):
    """The loadout options as a kit (None when none was given)."""
    given = any(v for k, v in loadout.items() if k != "character") or loadout.get("character", "novice") != "novice"
    if not given:
        return None
    if mode == "stalkeriada":
        raise UsageProblem("the loadout options: not for --mode stalkeriada (a planner's kit is its shop items)")
    return _loadout(game, **loadout)


def _players(mode, names, rivals):
    """The strategy family (Stalkeriada: planner objects) and the opponents."""
    if mode != "stalkeriada":
        return tuple(names), ()
    from sim.run.stalkeriada import get_stalkeriada_strategy

    return (tuple(get_stalkeriada_strategy(n) for n in names or ["cautious"]),
            tuple(get_stalkeriada_strategy(n) for n in rivals))


def store_for(command, game, out, resume, **options):
    """The kit outcomes of a run writing to ``out``, kept for ``--resume`` (None without ``--out``)."""
    from sim.run.chunks import checkpoints

    store = checkpoints(out, run_params(command, game, **options), resume)
    if store is None:
        return None
    from sim.economy.outcome import KitStore

    return KitStore(store)


def write_values(out: Path, game, result, stem="value"):
    """``STEM.parquet`` (overall), ``STEM_tiers.parquet``, ``charts/STEM.png`` and ``manifest.json``."""
    from sim.report.charts import economy_chart
    from sim.run.results import atomic_write, manifest, write_json, write_parquet

    summary = result.to_json()
    write_parquet(out / f"{stem}.parquet", result.table())
    write_parquet(out / f"{stem}_tiers.parquet", result.tier_table())
    atomic_write(out / "charts" / f"{stem}.png", lambda p: economy_chart(
        result.table(), f"Value of every card in G beside its price ({result.context.mode})", result.caption(), p))
    write_json(out / "manifest.json", manifest(
        ["zonesim", *sys.argv[1:]], content_dir=str(game.directory), content_hash=game.digest,
        files=["manifest.json", f"{stem}.parquet", f"{stem}_tiers.parquet", f"charts/{stem}.png"],
        context=summary["context"]))


def print_values(result):
    """Each tier's kit, rate and card table, then the overall table, with the context."""
    console = wide_console()
    console.print(f"Item values in G · {result.caption()}", highlight=False)
    for tier in result.tiers:
        console.print("", highlight=False)
        console.print(tier_line(tier), highlight=False)
        console.print(_table(tier.rows, tier.unit), highlight=False)
        idle = [r["item"] for r in tier.rows if r["verdict"] == "no use here"]
        if idle:
            console.print(f"no use here: {', '.join(idle)}", highlight=False)
    rate = result.rate
    console.print("", highlight=False)
    from sim.economy.value import rate_text

    console.print(f"Overall, the mean effect over {', '.join(rate['tiers']) or 'no tier'} at one rate: "
                  f"{rate_text('overall', rate['rate'], rate['unit'], rate['reason'])}", highlight=False)
    console.print(_table(result.items, result.rate["unit"], overall=True), highlight=False)
    console.print(f"{result.runs:,} kernel batches · {result.elapsed_s:.0f} s · value: effect over the rate; upgrade: "
                  "over the card of its kind the kit holds; reservation: the most the buyer would pay at today's "
                  "prices of the others", highlight=False)


def wide_console():
    """A rich console; 140 columns when the output is not a terminal (a file, a pipe)."""
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=140)


def tier_line(tier) -> str:
    """``1,000 G · cautious buys ... (900 G, 100 G unspent) · 22.85 days to spare · 1 day to spare = 232 G``."""
    d = tier.describe()
    spent = f"{d['kit_cost']:,} G" + ("" if d["unspent"] is None else f", {d['unspent']:,} G unspent"
                                      if d["unspent"] >= 0 else f", {-d['unspent']:,} G over the budget")
    agreement = d["agreement"]
    second = ("the kit is given" if agreement["pinned"] else
              "a second choice on other dice buys the same kit" if agreement["agree"] else
              f"a second choice on other dice differs in {', '.join(agreement['differ'])} (intervals span both)")
    fmt = ".2f" if tier.unit == "days to spare" else ".4f"
    outcome = "cannot be fielded here" if d["outcome"] is None else f"{d['outcome']:{fmt}} {tier.unit}"
    return (f"{tier.label} · {d['strategy']} {'plays' if agreement['pinned'] else 'buys'} {d['kit']} ({spent}) · "
            f"{outcome} · {tier.rate_text().split(': ', 1)[1]} · {second}")


def _table(rows, unit, overall=False):
    from rich.table import Table

    table = Table()
    digits = "+.3f" if unit == "days to spare" else "+.4f"
    for col in ("card", "price G", f"effect ({unit}), 95% CI", "value G, 95% CI", "upgrade G", "reservation G",
                "verdict"):
        table.add_column(col, justify="left" if col in ("card", "verdict") else "right")
    shown = [r for r in rows if overall or r["verdict"] != "no use here"]
    for r in sorted(shown, key=lambda r: (-(r["value_g"] or 0), r["item"])):
        marker = "*" if r.get("in_kit") else ""
        table.add_row(r["item"] + marker, f"{r['price']:,}",
                      f"{_num(r['effect'], digits)} {_ci(r['effect_ci95'], digits)}",
                      f"{_num(r['value_g'], ',.0f')} {_ci(r['value_g_ci95'], ',.0f')}", _num(r["upgrade_g"], ",.0f"),
                      _num(r["reservation_g"], ",.0f"), r["verdict"] + (f" ({r['reason']})" if r["reason"] else ""))
    return table


def _num(v, fmt):
    return "" if v is None else format(v, fmt)


def _ci(pair, fmt):
    return "" if pair[0] is None else f"[{format(pair[0], fmt)}, {format(pair[1], fmt)}]"


def dump(summary):
    print(json.dumps(summary))
