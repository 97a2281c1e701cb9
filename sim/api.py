"""The notebook API: one call per question, returning results with intervals.

    >>> from sim.api import encounter
    >>> r = encounter("bloodsucker", weapon="ak47", body="vest", stims={"stimulator": 2}, trials=100_000)
    >>> r.probabilities["p_survive"], r.ci95["p_survive"]
"""

import strategies
from sim.content import load_content
from sim.content.loadout import Loadout
from sim.run.fight import exact_fight, simulate_fight


def encounter(monsters, *, character="novice", weapon=None, mods=(), head=None, body=None, stims=None,
              medkits=None, explosives=None, escape_item=None, reputation=None, hp=None, strategy="fighter",
              trials=1_000_000, seed=1, exact=False, target_ci=None, content=None):
    """Fight ``monsters`` (an id or a list of ids) with this loadout; the same
    options as ``zonesim encounter``. Returns a ``FightResult``."""
    monsters = [monsters] if isinstance(monsters, str) else list(monsters)
    game = load_content(content)
    loadout = Loadout(
        character=character, weapon=weapon, mods=tuple(mods), head=head, body=body,
        healing=tuple({**(stims or {}), **(medkits or {})}.items()),
        explosives=tuple((explosives or {}).items()), escape_item=escape_item, reputation=reputation, hp=hp,
    )
    strat = strategies.get(strategy)
    if exact:
        return exact_fight(game, loadout, monsters, strat)
    return simulate_fight(game, loadout, monsters, strat, trials=trials, seed=seed, target_ci=target_ci)
