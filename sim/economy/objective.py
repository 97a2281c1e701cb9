"""What a campaign is played for: an objective is a weighted sum of a
campaign's outcomes, named in ``economy.toml`` (``[objectives]``, the one in
use under ``[objective] use``). The rulebook gives no victory condition, so
every objective is an assumption [A]; ``zonesim value --objective`` picks
another and the report shows the built-in ones side by side.

The outcomes of one campaign (``sim.run.journey.campaign_outcomes``, Z-09,
Z-12, Z-41):

- ``spare_days``: days to spare reaching the campaign's goal (journey.toml
  ``goal_orders`` order cards held at once): ``days + 1`` less the goal's day,
  0 if it is never reached; ``spare_days_K``: the same for K cards held;
- ``orders``: orders completed, by the stalker and his replacements;
- ``reputation``: the reputation of the stalker in play at the end;
- ``wealth``: his money, trophies, artefacts and the resale value (Z-12) of
  every card and item he holds at the end, in G;
- ``deaths`` and ``kills``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from sim.content.load import ContentError

OUTCOMES = {
    "spare_days": "days to spare reaching the goal",
    "orders": "orders completed",
    "reputation": "reputation at the end",
    "wealth": "G of wealth at the end",
    "deaths": "deaths",
    "kills": "monsters killed",
}
BUILT_IN = ("speed", "safety", "wealth", "reputation")  # the report's columns
_SPARE_K = re.compile(r"spare_days_([1-9][0-9]*)")


@dataclass(frozen=True)
class Objective:
    """A campaign's score: ``sum(weight * outcome)`` over ``weights`` (``((outcome, weight), ...)``)."""

    name: str
    weights: tuple

    @property
    def unit(self) -> str:
        """The score's unit: the outcome's words for one outcome of weight +1 or -1, else score points."""
        if len(self.weights) == 1 and abs(self.weights[0][1]) == 1:
            outcome, weight = self.weights[0]
            words = _words(outcome)
            return words if weight > 0 else f"{words} avoided"
        return f"{self.name} points"

    def describe(self) -> str:
        """The objective in words: ``speed (days to spare reaching the goal)``."""
        terms = " + ".join(f"{w:g} x {_words(o)}" if w != 1 else _words(o) for o, w in self.weights)
        return f"{self.name} ({terms})"

    def vector(self, width: int, goal: int) -> np.ndarray:
        """The weights over the ``width`` columns of ``basis`` (a deck of ``width - 5``
        cards), ``spare_days`` read as ``spare_days_{goal}``."""
        out = np.zeros(width)
        for outcome, weight in self.weights:
            match = _SPARE_K.fullmatch(outcome)
            held = int(match.group(1)) if match else goal if outcome == "spare_days" else None
            out[len(LINEAR) + held - 1 if held else LINEAR.index(outcome)] += weight
        return out

    def score(self, outcomes: np.ndarray, days: int, goal: int) -> np.ndarray:
        """Each campaign's score from its ``campaign_outcomes`` row, for ``days``
        days and a goal of ``goal`` order cards."""
        table = basis(outcomes, days)
        return table @ self.vector(table.shape[1], goal)


LINEAR = ("orders", "reputation", "wealth", "deaths", "kills")  # then spare_days_1 .. spare_days_N


def basis(outcomes: np.ndarray, days: int) -> np.ndarray:
    """Every objective's terms per campaign (one column each: ``LINEAR``, then days to
    spare holding 1 .. N order cards) from ``campaign_outcomes`` rows: an
    objective's score is this table times its ``vector``."""
    from sim.kernels import journey as J  # loads numba: only once campaigns are scored

    columns = [J.OUT_ORDERS, J.OUT_REPUTATION, J.OUT_WEALTH, J.OUT_DEATHS, J.OUT_KILLS]
    reach = outcomes[:, J.OUT_REACH0:]
    spare = np.where(reach > 0, days + 1 - reach, 0)
    return np.hstack([outcomes[:, columns], spare]).astype(np.float64)


def g_amount(g: float) -> str:
    """An amount of G for a rate: whole G, or two decimals under 10 G (1 G of wealth is worth 0.25 G)."""
    return f"{g:,.0f}" if abs(g) >= 10 else f"{g:.2f}"


def _words(outcome: str) -> str:
    match = _SPARE_K.fullmatch(outcome)
    return f"days to spare holding {match.group(1)} orders" if match else OUTCOMES[outcome]


def check_deck(path, objectives, n_orders: int) -> None:
    """Every ``spare_days_K`` of ``objectives`` names a count the deck of ``n_orders`` cards can reach."""
    for objective in objectives:
        for outcome, _ in objective.weights:
            match = _SPARE_K.fullmatch(outcome)
            if match and int(match.group(1)) > n_orders:
                raise ContentError(f"{path}: objectives.{objective.name}.{outcome}: the deck holds {n_orders} "
                                   f"order cards; use K = 1..{n_orders}")


def read_objectives(path, raw: dict, choice: str | None) -> tuple:
    """``[objectives]`` of economy.toml as ``Objective``s, and the one in use
    (``choice``, else ``[objective] use``); one-line errors naming file and field."""
    table = raw.get("objectives")
    if not isinstance(table, dict) or not table:
        raise ContentError(f"{path}: [objectives]: missing; copy it from the default economy.toml")
    objectives = {name: Objective(name, _weights(path, name, terms)) for name, terms in table.items()}
    use = raw.get("objective", {}).get("use") if isinstance(raw.get("objective"), dict) else None
    where = "--objective" if choice is not None else f"{path}: objective.use"
    name = choice if choice is not None else use
    if name not in objectives:
        raise ContentError(f"{where}: unknown objective {name!r}; use one of: {', '.join(objectives)} "
                           f"(or add it to [objectives] of {path})")
    return tuple(objectives.values()), objectives[name]


def _weights(path, name, terms) -> tuple:
    where = f"{path}: objectives.{name}"
    if not isinstance(terms, dict) or not terms:
        raise ContentError(f"{where}: expected a table of outcome = weight, e.g. {{ spare_days = 1 }}; outcomes: "
                           f"{', '.join(OUTCOMES)}, spare_days_K")
    for outcome, weight in terms.items():
        match = _SPARE_K.fullmatch(outcome)
        if outcome not in OUTCOMES and not match:
            raise ContentError(f"{where}.{outcome}: names no outcome; use one of: {', '.join(OUTCOMES)}, "
                               f"spare_days_K (K order cards held)")
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or weight == 0:
            raise ContentError(f"{where}.{outcome}: expected a non-zero number (the weight), got {weight!r}")
    return tuple((o, float(w)) for o, w in terms.items())
