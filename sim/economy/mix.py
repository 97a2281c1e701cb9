"""The monsters the campaigns meet (Z-39), for the fights sub-view of the economy.

Entering a hex of danger level L draws an event kind by the weights of
``[events]`` at L and, for a monster event, a group among the
``[[monster_groups]]`` whose danger band holds L, by their weights (no group
eligible: nothing happens). So the encounters with group g per campaign are

    sum over hexes h of  entries(h) * P(monster | L_h) * P(g | monster, L_h),

with the hex entries counted by the journey kernel on the campaigns of a kit
(``JourneyResult.traffic``). The mix is derived from the tables, never
weighted by hand."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.content.journey import JourneyContent
from sim.content.load import ContentError


@dataclass(frozen=True)
class MonsterMix:
    """Monster groups with the encounters per campaign with each."""

    groups: tuple           # tuples of monster ids, in journey.toml order
    per_campaign: tuple     # expected encounters with each group per campaign

    @property
    def shares(self) -> np.ndarray:
        """Each group's share of the encounters (summing to 1)."""
        rates = np.asarray(self.per_campaign, float)
        return rates / rates.sum()

    def labels(self) -> list:
        """Each group in a few words: ``snork x2``."""
        return [" + ".join(f"{m} x{g.count(m)}" if g.count(m) > 1 else m for m in dict.fromkeys(g))
                for g in self.groups]

    def describe(self) -> list:
        """``[{"monsters", "per_campaign", "share"}]``, as written with the values."""
        return [{"monsters": list(g), "per_campaign": float(r), "share": float(s)}
                for g, r, s in zip(self.groups, self.per_campaign, self.shares)]


def encounter_rates(journey: JourneyContent, entries: np.ndarray) -> MonsterMix:
    """The mix met on campaigns whose hex entries per campaign are ``entries``
    (the map's shape or flat, row by row), groups never met left out (Z-39)."""
    danger = journey.hexmap.danger.ravel().astype(int)
    entries = np.asarray(entries, float).ravel()
    kinds = np.array([journey.events[k] for k in journey.events], float)  # kinds x danger levels
    totals = kinds.sum(axis=0)
    p_monster = np.divide(kinds[list(journey.events).index("monster")], totals, out=np.zeros_like(totals),
                          where=totals > 0)
    groups = journey.monster_groups
    levels = np.arange(kinds.shape[1])
    eligible = np.array([[g["min_danger"] <= lv <= g["max_danger"] for lv in levels] for g in groups], float)
    weights = eligible * np.array([g["weight"] for g in groups], float)[:, None]  # groups x levels
    band = weights.sum(axis=0)
    p_group = np.divide(weights, band, out=np.zeros_like(weights), where=band > 0)
    monster_entries = np.bincount(danger, weights=entries, minlength=levels.size) * p_monster  # per level
    rates = p_group @ monster_entries
    met = [i for i, r in enumerate(rates) if r > 0]
    if not met:
        raise ContentError(f"{journey.path}: the valuation campaigns meet no monster, so the fights "
                           "sub-view has nothing to weight; give [[monster_groups]] on the dangers they enter")
    return MonsterMix(tuple(tuple(groups[i]["monsters"]) for i in met), tuple(float(rates[i]) for i in met))
