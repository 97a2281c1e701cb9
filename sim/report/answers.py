"""What a run answers together with what it was asked: the result with its 95%
intervals and the scenario it ran (the loadout, the strategy, the assumed [A]
content values it rests on), for titles, JSON summaries and ``--out`` files."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from sim.content.loadout import Loadout
from sim.run.fight import FightResult
from sim.run.journey import JourneyResult
from sim.run.stalkeriada import RoundRobin


def fight_assumed(content, used) -> list:
    """The [A] content values a fight rests on: the fight rules, base HP and the entries ``used``."""
    return [a for a in content.assumed_fields()
            if a.startswith(("rules.toml: fight.", "rules.toml: stalker.base_hp"))
            or a.split(": ", 1)[1].split(".")[0] in used]


@dataclass
class Encounter(FightResult):
    """A ``FightResult`` with the fight it answers: the loadout, the monsters fought at
    once, the strategy's name and the assumed [A] content values it rests on."""

    loadout: Loadout = field(default_factory=Loadout)
    monsters: tuple = ()
    strategy: str = ""
    assumed: list = field(default_factory=list)
    optimal: dict = field(default_factory=dict)
    """For ``--strategy optimal``: his objective, escape try and G spent, and each built-in
    strategy's survival with its gap to his (``sim.api.modes.encounter``)."""

    def title(self) -> str:
        """``novice: ak47+rebored · vest · 2 stimulator  vs  snork  (fighter)``."""
        return f"{self.loadout.by_slot(character=True)}  vs  {' + '.join(self.monsters)}  ({self.strategy})"

    def summary(self) -> dict:
        """The JSON contract of ``zonesim encounter --json``."""
        return {**super().summary(), "assumed": self.assumed, **({"optimal": self.optimal} if self.optimal else {})}


@dataclass
class Journey(JourneyResult):
    """A ``JourneyResult`` with the stalker's loadout and the strategy's name."""

    loadout: Loadout = field(default_factory=Loadout)
    strategy: str = ""

    def title(self, place="the Zone") -> str:
        """``novice: ak47 · vest  vs  the Zone  (greedy)``."""
        return f"{self.loadout.by_slot(character=True)}  vs  {place}  ({self.strategy})"


@dataclass
class StalkeriadaMatrix(RoundRobin):
    """A ``RoundRobin`` with its strategies, set size, games per set and seat order, and seed."""

    names: tuple = ()
    set_size: int = 2
    games: int = 0
    seed: int = 1

    def sets(self) -> int:
        """How many sets of ``set_size`` strategies played."""
        from math import comb

        return comb(len(self.names), self.set_size)

    def summary(self) -> dict:
        """The JSON contract of ``zonesim stalkeriada-matrix --json``."""
        return {"players": list(self.names), "set_size": self.set_size, "games_per_set": self.games,
                "seed": self.seed, "matrix": self.table.to_dicts()}

    def cell(self, i, j) -> str:
        """Cell (row ``i``, column ``j``): the win rate with its interval, blank on the diagonal."""
        if np.isnan(self.rate[i, j]):
            return ""
        return f"{self.rate[i, j]:.3f} [{self.low[i, j]:.3f}, {self.high[i, j]:.3f}]"


@dataclass(frozen=True)
class LoadoutSearch:
    """Every loadout a budget buys, fought on the same dice (``result``, a
    ``sim.run.loadouts.LoadoutsResult``): one row per loadout (``table``), the best
    loadout per budget step (``steps``) and what was asked."""

    result: object
    table: pl.DataFrame
    steps: pl.DataFrame
    strategy: object
    budget: int
    character: str
    families: tuple
    max_count: int
    reputation: int | None
    assumed: list

    @property
    def journey(self) -> bool:
        """Whether the loadouts went on campaigns (ranked by the chance to reach the campaign's goal)."""
        return self.result.groups[0].monsters[0].endswith("journey")

    def mix_text(self) -> str:
        """``snork + boar (x2); bloodsucker`` (weights shown when they differ)."""
        groups = self.result.groups
        weighted = len({g.weight for g in groups}) > 1
        return "; ".join(" + ".join(g.monsters) + (f" (x{g.weight:g})" if weighted else "") for g in groups)

    def title(self) -> str:
        return (f"Loadouts within {self.budget:,} G · {self.character} vs {self.mix_text()} "
                f"({self.result.strategy})")

    def front(self) -> pl.DataFrame:
        """The Pareto front, cheapest first: no cheaper loadout survives as often."""
        return self.table.filter(pl.col("pareto")).sort("cost")

    def fights(self) -> int:
        """Fights (or campaigns) run: loadouts x groups x trials."""
        return self.table.height * len(self.result.groups) * self.result.trials

    def fights_per_s(self) -> float | None:
        elapsed = self.result.elapsed_s
        return self.fights() / elapsed if elapsed > 0 else None

    def summary(self) -> dict:
        """The JSON contract of ``zonesim loadouts --json``."""
        result = self.result
        return {
            "budget": self.budget, "character": self.character, "families": self.families,
            "max_count": self.max_count, "reputation": self.reputation, "assumed": self.assumed,
            "strategy": result.strategy, "trials": result.trials, "seed": result.seed,
            "groups": [{"monsters": list(g.monsters), "weight": g.weight} for g in result.groups],
            "n_loadouts": self.table.height, "n_pareto": int(self.table["pareto"].sum()), "fights": self.fights(),
            "elapsed_s": result.elapsed_s, "fights_per_s": self.fights_per_s(),
            "interval": "weighted mean of the groups' Wilson 95% bounds",
            "front": self.front().to_dicts(),
            "best_per_step": self.steps.to_dicts(),
            "loadouts": self.table.to_dicts(),
        }
