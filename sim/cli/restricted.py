"""``zonesim restricted``: what the game loses when the player may not buy a card."""

from typing import Annotated, List, Optional

import typer

from sim import api
from sim.cli.common import (ContentDir, Json, Monsters, Threads, app, built_in, card_options, progress, seed_option,
                            show, wide_console)
from sim.cli.economy import OPPONENTS, Days, Objective, Opponents
from sim.options import name_list


@app.command()
@card_options(zone=False)
def restricted(
    ban: Annotated[List[str], typer.Option(metavar="ID", help="A card the player may not buy (repeat, or ID,ID: "
                                                              "banned together); at a Stalkeriada table, one shop "
                                                              "item (pliers, ozk, nut, ...); in a fight, a card of "
                                                              "the loadout or the action escape.")] = [],
    mode: Annotated[Optional[str], typer.Option(help="journey (economy.toml's campaigns by default), "
                                                     "stalkeriada (each planner at a table with --opponents) or "
                                                     "fight (one --monster and the loadout options, the optimal "
                                                     "player, exact).")] = None,
    monster: Monsters = [],
        loadout: dict = None,
    strategy: Annotated[List[str], typer.Option(metavar="NAME", help="The strategy family (repeat), as in `zonesim "
                                                f"value`; journeys: {built_in('journey')}.")] = [],
    budget: Annotated[List[int], typer.Option(metavar="G", help="A budget tier (repeat; default: economy.toml's)."
                                              )] = [],
    days: Days = 30,
    objective: Objective = None,
    opponents: Opponents = OPPONENTS,
    trials: Annotated[Optional[int], typer.Option(help="Valuation trials per kit, as in `zonesim value`.")] = None,
    selection: Annotated[Optional[int], typer.Option(help="Trials per kit the shopper compares.")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="economy.toml's quick valuation counts.")] = False,
    seed: Annotated[Optional[int], seed_option("Seed (default: economy.toml's).")] = None,
    as_json: Json = False,
    threads: Threads = None,
    content: ContentDir = None,
):
    """What does the game lose when the player may not buy a card?

    Restricted play (Jaffe et al., AIIDE 2012). At each budget tier the
    shopper buys his kit from every card, as `zonesim value` buys it, and
    again with the banned cards struck from the shop; each kit is played by
    the strongest strategy of the family for it, on the same campaigns. The
    loss is the paired difference in the outcome (days to spare, under
    economy.toml's objective), with its 95% interval, and in G at the
    tier's rate. Beside it, the card's marginal value (what `zonesim
    value` says: the kit with and without the card, nothing bought in its
    place). A loss well under the marginal value says the buyer has a
    substitute; a loss of 0 where he does not buy the card says the game
    does not need it at these prices. At a Stalkeriada table the loss is
    the planner with the item struck from his shopping list against the
    same planner allowed it, on the same games and seats. In one fight
    (--mode fight) the player is the optimal one, solved exactly with the
    loadout and without the banned cards, or without the escape try.

    \b
    Examples:
      zonesim restricted --ban glonass --quick
      zonesim restricted --ban ak47 --json
      zonesim restricted --ban glonass,zone_map --quick
      zonesim restricted --ban pliers --mode stalkeriada --trials 2000
      zonesim restricted --ban escape --mode fight -m chimera --weapon ak47 --body vest --stims stimulator:2
    """
    banned = [card for entry in ban for card in name_list(entry)]
    with progress("restricted play") as update:
        result = api.restricted(banned, mode=mode, monsters=monster, strategies=strategy, budgets=budget, days=days,
                                opponents=name_list(opponents), trials=trials, selection=selection, quick=quick,
                                seed=seed, objective=objective, threads=threads, content=content,
                                on_progress=update, **loadout)
    show(as_json, result.to_json, lambda: _print(result))


def _print(result):
    """One line per tier: the kit with and without the ban, the loss and the marginal value."""
    console = wide_console()
    console.print(f"Restricted play · {result.caption()}", highlight=False)
    for t in result.tiers:
        marginal = ", ".join(f"{card} {'n/a' if g is None else f'{g:,.0f} G'}" for card, g in t.value_g.items())
        console.print(f"\n[bold]{t.label}[/bold] · {t.strategy}: {t.kit}", highlight=False)
        if t.banned_kit is not None:
            console.print(f"  without: {t.banned_strategy}: {t.banned_kit}", highlight=False)
        if t.loss is None:
            console.print(f"  loss: not measured ({t.reason})", highlight=False)
            continue
        exact = t.loss_ci95[0] == t.loss_ci95[1] == t.loss
        loss = f"{t.loss:+.3g} {t.unit}" + ("" if exact else f" [{t.loss_ci95[0]:+.3g}, {t.loss_ci95[1]:+.3g}]")
        in_g = "" if t.loss_g is None else f" = {t.loss_g:,.0f} G [{t.loss_g_ci95[0]:,.0f}, {t.loss_g_ci95[1]:,.0f}]"
        console.print(f"  loss: {loss}{in_g}" + (f" · marginal value: {marginal}" if marginal else ""),
                      highlight=False)
        if t.reason:
            console.print(f"  {t.reason}", highlight=False)
