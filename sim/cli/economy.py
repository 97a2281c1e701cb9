"""What ``zonesim value`` and ``zonesim tune`` share: their scenario options, and
what they print (each tier's kit and rate, the card tables with their intervals)."""

from typing import Annotated, Optional

import typer

from sim.cli.common import wide_console
from sim.economy.objective import g_amount
from sim.economy.options import DEFAULT_OPPONENTS

Days = Annotated[int, typer.Option(help="Days of a campaign in --mode journey.")]
Objective = Annotated[Optional[str], typer.Option(metavar="NAME", help="What campaigns are played for: one of "
                                                  "economy.toml's [objectives] (built in: speed, days to spare "
                                                  "reaching the goal; safety, deaths avoided; wealth, G held at the "
                                                  "end; reputation at the end). Default: economy.toml's "
                                                  "[objective] use.")]
Opponents = Annotated[str, typer.Option(metavar="NAME,NAME", help="The other players at the table in --mode "
                                                                  "stalkeriada.")]
OPPONENTS = ",".join(DEFAULT_OPPONENTS)
Weights = Annotated[str, typer.Option(metavar="TIER=W,...", help="How much each tier counts in the overall value "
                                                                 "(a budget in G or a tier label; tiers not named: "
                                                                 "1; default economy.toml's [prices] weights), e.g. "
                                                                 "1000=2,5000=0.5.")]


def weights_option(text: str):
    """``--weights`` as ``{tier: weight}``, or None when not given."""
    from sim.options import weight_map

    return weight_map("--weights", text) if text else None


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
        sides = tier.other_strategies()
        if sides:
            console.print(f"played by another strategy of the family (the strongest for that kit): {sides}",
                          highlight=False)
    rate = result.rate
    console.print("", highlight=False)
    from sim.economy.value import rate_text

    console.print(f"Overall, the mean effect over {', '.join(rate['tiers']) or 'no tier'} at one rate: "
                  f"{rate_text('overall', rate['rate'], rate['unit'], rate['reason'])}", highlight=False)
    console.print(_table(result.items, result.rate["unit"], overall=True), highlight=False)
    console.print(f"{result.runs:,} kernel batches · {result.elapsed_s:.0f} s · value: effect over the rate; plausible "
                  "plays: lowest–highest value under each kit choice and strategy the shopper could as well have "
                  "picked (overall: one tier's play changed at a time); upgrade: over the card of its kind the kit "
                  "holds; reservation: the most the buyer would pay at today's prices of the others", highlight=False)


def print_objectives(result):
    """Every card's value in G under each objective, the cards by their value under the one in use."""
    from rich.table import Table

    objectives = result.by_objective["objectives"]
    table = Table(title="Value in G under each objective (95% CI; the same kits and campaigns, each objective at "
                        "its own rate per tier)")
    table.add_column("card")
    table.add_column("price G", justify="right")
    for o in objectives:
        rate = "no rate" if o["g_per_unit"] is None else f"1 = {g_amount(o['g_per_unit'])} G"
        table.add_column(f"{o['name']}\n{o['unit']}\n{rate}", justify="right")
    first = result.context.objective.name
    for r in sorted(result.by_objective["rows"], key=lambda r: (-(r[f"{first}_g"] or 0), r["item"])):
        table.add_row(r["item"], f"{r['price']:,}", *(f"{_num(r[o['name'] + '_g'], ',.0f')} "
                                                      f"{_ci(r[o['name'] + '_g_ci95'], ',.0f')}" for o in objectives))
    wide_console().print(table, highlight=False)


def tier_line(tier, held=False) -> str:
    """``1,000 G · cautious buys ... (900 G, 100 G unspent) · 22.85 days to spare · 1 day to spare = 232 G``;
    ``held``: the kit tuning holds (bought at the content's prices)."""
    d = tier.describe()
    spent = f"{d['kit_cost']:,} G" + ("" if d["unspent"] is None else f", {d['unspent']:,} G unspent"
                                      if d["unspent"] >= 0 else f", {-d['unspent']:,} G over the budget")
    agreement = d["agreement"]
    second = ("the kit bought at the content's prices, held" if held else "the kit is given" if agreement["pinned"] else
              "a second choice on other dice buys the same kit" if agreement["agree"] else
              f"a second choice on other dice differs in {', '.join(agreement['differ'])} (intervals span both)")
    fmt = ".2f" if tier.unit == "days to spare" else ".4f"
    outcome = "cannot be fielded here" if d["outcome"] is None else f"{d['outcome']:{fmt}} {tier.unit}"
    plays = f" · as plausible: {others}" if (others := tier.other_plays()) else ""
    return (f"{tier.label} · {d['strategy']} {'plays' if agreement['pinned'] else 'buys'} {d['kit']} ({spent}) · "
            f"{outcome} · {tier.rate_text().split(': ', 1)[1]} · {second}{plays}")


def print_shapley(result):
    """Each budget tier's kit shared among its cards by Shapley value, beside each card's
    one-removed effect and value."""
    from rich.table import Table

    frame = result.shapley
    for tier in result.tiers:
        rows = [r for r in frame.to_dicts() if r["tier"] == tier.label]
        if rows and rows[0]["reason"] is not None:
            wide_console().print(f"{tier.label}: no Shapley shares ({rows[0]['reason']})", highlight=False)
            continue
        table = Table(title=f"{tier.label} · {tier.choice.strategy} · {tier.choice.kit.describe()}: the kit's "
                            f"whole effect shared among its cards (Shapley, every sub-kit on the same dice)")
        for col in ("card", "price G", f"share ({tier.unit}), 95% CI", "share in G a card, 95% CI",
                    "one-removed effect", "value G a card"):
            table.add_column(col, justify="left" if col == "card" else "right")
        for r in sorted(rows, key=lambda r: -(r["share"] or 0)):
            table.add_row(r["item"] + (f" x{r['count']}" if r["count"] > 1 else ""), f"{r['price']:,}",
                          f"{r['share']:+.3f} {_ci(r['share_ci95'], '+.3f')}",
                          f"{_num(r['share_g'], ',.0f')} {_ci(r['share_g_ci95'], ',.0f')}",
                          _num(r["removal_effect"], "+.3f"), _num(r["value_g"], ",.0f"))
        wide_console().print(table, highlight=False)


def _table(rows, unit, overall=False):
    from rich.table import Table

    from sim.economy.value import PROBABILITIES

    table = Table()
    digits = "+.4f" if unit in PROBABILITIES else "+.3f"
    for col in ("card", "price G", f"effect ({unit}), 95% CI", "value G, 95% CI", "plausible plays G", "upgrade G",
                "reservation G", "verdict"):
        table.add_column(col, justify="left" if col in ("card", "verdict") else "right")
    shown = [r for r in rows if overall or r["verdict"] != "no use here"]
    for r in sorted(shown, key=lambda r: (-(r["value_g"] or 0), r["item"])):
        marker = "*" if r.get("in_kit") else ""
        table.add_row(r["item"] + marker, f"{r['price']:,}",
                      f"{_num(r['effect'], digits)} {_ci(r['effect_ci95'], digits)}",
                      f"{_num(r['value_g'], ',.0f')} {_ci(r['value_g_ci95'], ',.0f')}", _spread(r.get("value_g_spread")),
                      _num(r["upgrade_g"], ",.0f"),
                      _num(r["reservation_g"], ",.0f"), r["verdict"] + (f" ({r['reason']})" if r["reason"] else ""))
    return table


def _spread(pair):
    """``lo–hi`` of a value over the plausible plays, blank where there is one value."""
    if not pair or pair[0] is None or round(pair[0]) == round(pair[1]):
        return ""
    return f"{pair[0]:,.0f}–{pair[1]:,.0f}"


def _num(v, fmt):
    return "" if v is None else format(v, fmt)


def _ci(pair, fmt):
    return "" if pair[0] is None else f"[{format(pair[0], fmt)}, {format(pair[1], fmt)}]"
