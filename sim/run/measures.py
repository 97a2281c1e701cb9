"""The measures ``item_values`` and ``tune_prices`` value items with, by mode and strategy name."""

from __future__ import annotations

import strategies
from sim.content.load import Content
from sim.content.loadout import Loadout
from sim.content.skirmish import load_arena, load_skirmish
from sim.errors import ZonesimError
from sim.run.search import strongest_strategy
from sim.run.skirmish import get_skirmish_strategy, skirmish_measure
from sim.run.value import fight_measure


def value_measures(game: Content, mode, names, monsters, base: Loadout | None = None, trials=100_000, seed=1):
    """``{strategy name: measure}`` for ``mode`` (fight or skirmish); in fights the
    name ``strongest`` is the best strategy a parameter search finds for ``base``."""
    if mode == "fight":
        def pick(name):
            if name != "strongest":
                return strategies.get(name)
            return strongest_strategy(game, base, monsters, trials=min(trials, 100_000), seed=seed)[0]

        return {s.name: fight_measure(game, monsters, s) for s in map(pick, names or ["fighter"])}
    if mode == "skirmish":
        sk = load_skirmish(game)
        arena = load_arena(sk)
        return {s.name: skirmish_measure(game, sk, monsters, arena, s)
                for s in map(get_skirmish_strategy, names or ["hold"])}
    raise ZonesimError(f"--mode: '{mode}'; use fight, skirmish, journey or stalkeriada")
