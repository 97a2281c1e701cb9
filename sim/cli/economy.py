"""Whole-game card values and price tuning over the content's economy.toml:
what ``zonesim value`` and ``zonesim tune`` do with no scenario options."""

import json
import sys
from dataclasses import replace
from pathlib import Path

from sim.cli.common import UsageProblem, name_list, progress
from sim.economy.value import describe_kit


def _scenario_loadout(loadout: dict) -> bool:
    """Whether any loadout option was given (the character counts when not the default novice)."""
    return any(v for k, v in loadout.items() if k != "character") or loadout.get("character", "novice") != "novice"


def _item_list(game, items: str):
    """``--items A,B`` as a set of known card ids (None: every card)."""
    wanted = set(name_list(items))
    unknown = sorted(wanted - set(game.items))
    if unknown:
        raise UsageProblem(f"--items: unknown card '{unknown[0]}'; use ids of items.toml, e.g. glonass,jetpack")
    return wanted or None


def _context(game, quick, seed):
    from sim.economy.context import load_context

    return replace(load_context(game, quick=quick), seed=seed)


def _store(command, game, out, resume, ctx, **options):
    """The checkpoints of a whole-game run writing to ``out`` (``sim.run.chunks``): one per valued kit."""
    from sim.cli.common import run_params
    from sim.run.chunks import checkpoints

    return checkpoints(out, run_params(command, game, context=ctx.describe(), **options), resume)


def _check_view(ctx, view):
    """``--view`` (None: the campaign itself): a sub-view of economy.toml, its strategy
    checked before any kernel compiles."""
    from sim.cli.common import check_strategies
    from sim.economy.context import VIEWS

    if view is None:
        return
    if view not in VIEWS:
        raise UsageProblem(f"--view: '{view}'; use one of: {', '.join(VIEWS)} (or leave it out for the campaign)")
    check_strategies(f"{ctx.source}: views.{view}.strategy", [ctx.view(view).strategy], "fight")


def economy_values(game, *, quick, seed, as_json, out, resume, items, view=None, client=None):
    """``zonesim value`` with no scenario options: every card over the declared context (economy.toml),
    or its sub-view ``view``."""
    from sim.economy.value import item_economy

    ctx, wanted = _context(game, quick, seed), _item_list(game, items)
    _check_view(ctx, view)
    store = _store("value", game, out, resume, ctx, items=sorted(wanted or []), view=view)
    with progress("valuing cards") as advance:
        result = item_economy(game, ctx, view=view, items=wanted, on_progress=advance, client=client, store=store)
    summary = result.to_json()
    if out is not None:
        from sim.run.results import manifest, write_json, write_parquet

        write_parquet(out / "economy.parquet", result.table())
        write_parquet(out / "economy_tiers.parquet", result.tier_table())
        write_json(out / "manifest.json", manifest(
            ["zonesim", *sys.argv[1:]], content_dir=str(game.directory), content_hash=game.digest,
            files=["manifest.json", "economy.parquet", "economy_tiers.parquet"], context=summary["context"]))
    if as_json:
        print(json.dumps(summary))
        return
    _print_economy(result)


def _print_economy(result):
    from rich.console import Console
    from rich.table import Table

    from sim.report.study import economy_caption

    console = Console()
    console.print(f"Item values in G · {economy_caption(result)}", highlight=False)
    unit = "days" if result.view is None else "survival"
    for tier in result.tiers:
        outcome = (f"{tier.base_rate:.2f} days to spare" if result.view is None else
                   f"{tier.base_rate:.4f} survival; campaigns meet " + ", ".join(
                       f"{g} {s:.0%}" for g, s in zip(tier.mix.labels(), tier.mix.shares)))
        console.print(f"  {tier.budget:,} G: {tier.strategy} buys {describe_kit(tier.base_kit)} ({outcome})",
                      highlight=False)
    table = Table()
    for col in ("item", "price G", "value G", "95% interval", "upgrade G", f"effect ({unit})", "95% interval",
                "verdict"):
        table.add_column(col, justify="left" if col in ("item", "verdict") else "right")
    for r in sorted(result.items, key=lambda r: -r["value_g"]):
        low, high = r["value_g_ci95"]
        table.add_row(r["item"], f"{r['price']:,}", _g(r["value_g"]), f"[{_g(low)}, {_g(high)}]",
                      "" if r["upgrade_g"] is None else _g(r["upgrade_g"]),
                      f"{r['effect']:+.3f}", f"[{r['effect_ci95'][0]:+.3f}, {r['effect_ci95'][1]:+.3f}]",
                      r["verdict"])
    console.print(table)
    console.print(f"value: the extra G a stalker who can have neither the card nor another of its kind needs to "
                  f"do as well as one handed it free; upgrade: the same against one who may buy the kind's other "
                  f"cards (means over the tiers) · {result.runs:,} kernel runs · {result.elapsed_s:.0f} s",
                  highlight=False)


def _g(v):
    return "unbounded" if v == float("inf") else f"{v:,.0f}"


def economy_tune(game, *, quick, seed, rounds, damping, as_json, out, resume, items, client=None):
    """``zonesim tune`` with no scenario options: equal value per G over the declared context."""
    from sim.economy.tune import tune_economy

    ctx, wanted = _context(game, quick, seed), _item_list(game, items)
    coarse = None if quick else _context(game, True, seed)
    store = _store("tune", game, out, resume, ctx, items=sorted(wanted or []), rounds=rounds, damping=damping)
    with progress("tuning prices") as advance:
        result = tune_economy(game, ctx, rounds=rounds, damping=damping, items=wanted, coarse=coarse,
                              on_progress=advance, client=client, store=store)
    summary = result.to_json()
    if out is not None:
        from sim.report.charts import tune_chart
        from sim.report.study import economy_caption
        from sim.run.results import atomic_write, manifest, write_json, write_parquet
        from sim.run.tune import write_tuned_content

        write_parquet(out / "tune.parquet", result.table())
        write_parquet(out / "tune_rounds.parquet", result.history_frame())
        atomic_write(out / "charts" / "tune.png", lambda p: tune_chart(
            result.history_frame(), "Card prices across tuning rounds (toward their value in G)",
            economy_caption(result.values), p))
        write_tuned_content(Path(game.directory), out / "content", result.prices)
        write_json(out / "manifest.json", manifest(
            ["zonesim", *sys.argv[1:]], content_dir=str(game.directory), content_hash=game.digest,
            files=["manifest.json", "tune.parquet", "tune_rounds.parquet", "charts/tune.png", "content/"],
            **{k: v for k, v in summary.items() if k != "prices"}))
    if as_json:
        print(json.dumps(summary))
        return
    from rich.console import Console

    console = Console()
    state = "converged" if result.converged else "did not converge (some prices still outside their value band)"
    console.print(f"{len(result.history) - 1} rounds; {state} · step {ctx.price_step} G · {result.elapsed_s:.0f} s",
                  highlight=False)
    for r in summary["prices"]:
        if r["new_price"] != r["old_price"]:
            low, high = r["fair_price_ci95"]
            console.print(f"  {r['item']}: {r['old_price']:,} -> {r['new_price']:,} G (value {_g(low or 0)}-"
                          f"{_g(high if high is not None else float('inf'))} G)", highlight=False)
