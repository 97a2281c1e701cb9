"""The notebook API: one call per question, returning results with intervals.

    >>> from sim.api import encounter, value
    >>> r = encounter("bloodsucker", weapon="ak47", body="vest", stims={"stimulator": 2}, trials=100_000)
    >>> r.probabilities["p_survive"], r.ci95["p_survive"]
    >>> v = value(quick=True)               # every card in G over economy.toml's campaigns
    >>> v.table()                           # overall: value, interval, reservation price, verdict
"""

import strategies
from sim.content import load_content
from sim.content.loadout import Loadout
from sim.run.fight import exact_fight, simulate_fight


def loadout(*, character="novice", weapon=None, mods=(), head=None, body=None, stims=None, medkits=None,
            explosives=None, escape_item=None, reputation=None, hp=None, movement=(), avoidance=(), one_shot=(),
            location=(), content=None) -> Loadout:
    """A checked ``Loadout`` (counts as ``{"stimulator": 2}``), as the loadout options of the CLI give it."""
    kit = Loadout(character=character, weapon=weapon, mods=tuple(mods), head=head, body=body,
                  healing=tuple({**(stims or {}), **(medkits or {})}.items()),
                  explosives=tuple((explosives or {}).items()), escape_item=escape_item, reputation=reputation,
                  hp=hp, movement=tuple(movement), avoidance=tuple(avoidance), one_shot=tuple(one_shot),
                  location=tuple(location))
    return kit.validate(load_content(content))


def encounter(monsters, *, character="novice", weapon=None, mods=(), head=None, body=None, stims=None,
              medkits=None, explosives=None, escape_item=None, reputation=None, hp=None, strategy="fighter",
              trials=1_000_000, seed=1, exact=False, target_ci=None, content=None):
    """Fight ``monsters`` (an id or a list of ids) with this loadout; the same
    options as ``zonesim encounter``. Returns a ``FightResult``."""
    monsters = [monsters] if isinstance(monsters, str) else list(monsters)
    game = load_content(content)
    kit = loadout(character=character, weapon=weapon, mods=mods, head=head, body=body, stims=stims,
                  medkits=medkits, explosives=explosives, escape_item=escape_item, reputation=reputation, hp=hp,
                  content=content)
    strat = strategies.get(strategy)
    if exact:
        return exact_fight(game, kit, monsters, strat)
    return simulate_fight(game, kit, monsters, strat, trials=trials, seed=seed, target_ci=target_ci)


def context(*, content=None, quick=False, view=None, mode=None, monsters=(), loadout=None, strategies=(),
            opponents=(), budgets=(), days=30, trials=None, selection=None, seed=None):
    """The valuation context of ``zonesim value`` / ``tune``: economy.toml's (or its
    ``view``, "fights") when no scenario is given, else the scenario's (``mode``
    fight, skirmish, journey or stalkeriada; ``monsters``; a given ``loadout`` or
    ``budgets``; the strategy family; ``opponents`` by name at a Stalkeriada table)."""
    from dataclasses import replace

    from sim.economy.context import declared, load_context, scenario

    game = load_content(content)
    settings = load_context(game, quick=quick)
    settings = settings if seed is None else replace(settings, seed=seed)
    if mode is None and not monsters and loadout is None and not strategies and not budgets:
        return declared(game, settings, view=view)
    mode = mode or "fight"
    if mode == "stalkeriada":
        from sim.run.stalkeriada import get_stalkeriada_strategy

        strategies = tuple(get_stalkeriada_strategy(n) for n in strategies or ["cautious"])
        opponents = tuple(get_stalkeriada_strategy(n) for n in opponents or ["greedy", "jelly", "rush"])
    return scenario(game, settings, mode=mode, monsters=monsters, loadout=loadout, strategies=tuple(strategies),
                    opponents=opponents, days=days, budgets=tuple(budgets), trials=trials, selection=selection,
                    seed=settings.seed)


def value(*, items=None, **options):
    """What every card (or only ``items``) is worth in G, per tier and overall,
    in the context ``context(**options)`` gives: an ``EconomyResult`` with
    ``table()``, ``tier_table()``, ``tiers`` and ``to_json()``."""
    from sim.economy.value import value_cards

    return value_cards(context(**options), items=items)


def tune(*, items=None, rounds=20, damping=1.0, **options):
    """Every card's price moved to its value in G, in the context ``context(**options)``
    gives (``zonesim tune``): a ``TuneResult`` with ``prices``, ``table()`` and ``values``."""
    from sim.economy.tune import tune_prices

    return tune_prices(context(**options), rounds=rounds, damping=damping, items=items)
