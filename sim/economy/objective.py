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

    def score(self, outcomes: np.ndarray, days: int, goal: int) -> np.ndarray:
        """Each campaign's score from its ``campaign_outcomes`` row, for ``days``
        days and a goal of ``goal`` order cards."""
        total = np.zeros(outcomes.shape[0])
        for outcome, weight in self.weights:
            total += weight * _outcome(outcomes, outcome, days, goal)
        return total


def _words(outcome: str) -> str:
    match = _SPARE_K.fullmatch(outcome)
    return f"days to spare holding {match.group(1)} orders" if match else OUTCOMES[outcome]


def _outcome(outcomes, outcome, days, goal):
    """One outcome per campaign (``spare_days``: for ``goal`` cards; ``spare_days_K``: for K)."""
    from sim.kernels import journey as J  # loads numba: only once campaigns are scored

    columns = {"orders": J.OUT_ORDERS, "reputation": J.OUT_REPUTATION, "wealth": J.OUT_WEALTH,
               "deaths": J.OUT_DEATHS, "kills": J.OUT_KILLS}
    if outcome in columns:
        return outcomes[:, columns[outcome]]
    match = _SPARE_K.fullmatch(outcome)
    held = int(match.group(1)) if match else goal
    day = outcomes[:, J.OUT_REACH0 + held - 1] if held <= outcomes.shape[1] - J.OUT_REACH0 else 0
    return np.where(day > 0, days + 1 - day, 0)


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
