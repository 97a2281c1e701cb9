"""The tuned Stalkeriada planner (``tuned`` at a table): the planner's parameters
searched for his win rate against the other seats, every seat order played, as
TAG tunes its agents with NTBEA (here Optuna's TPE, ``sim.run.player.best_point``).

- **What he may choose** (``SPACE``): every parameter of the planner family
  (``strategies.stalkeriada.PLANNER_PARAMS``): whether to buy pliers and the
  OZK, how many nuts, the money he keeps in reserve, the loot he goes home
  with, the jelly order, the least he sells an artefact for, and whether he
  throws nuts (S-10..S-21).
- **How he is found**: the four shipped settings first, each as it is, then
  TPE up to ``CANDIDATES`` settings in all; each plays ``GAMES`` games per
  seat order against the other seats on the tuning dice (seed
  ``seed + TUNING_SEED``: games the table's own run never plays); the best win
  rate wins. His numbers at the table are measured on the table's own games.
- **What it costs**: ``CANDIDATES`` x ``GAMES`` x seats games; kept on disk
  like the tuned journey player (``sim.run.player.remembered``) per kernel
  source, content, the other seats' parameters and the search size.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.content import Content
from sim.run.player import TUNED, best_point, content_key, remembered

GAMES = 300
CANDIDATES = 32
TUNING_SEED = 1_000_003  # the tuning's games: seed + this (the table's run plays seed)
SPACE = {"pliers": (0, 1), "ozk": (0, 1), "nuts": (0, 4), "reserve": (0, 3000, 250), "home_at": (1, 5),
         "jelly": (0, 1), "sell_min": (0, 2000, 250), "throw": (0, 1)}
SPACE_VERSION = 1


@dataclass(frozen=True)
class TunedPlanner:
    """The planner found against ``field``, his win rate on the tuning games, and the best
    shipped setting's there (the yardstick)."""

    strategy: object  # strategies.stalkeriada.StalkeriadaStrategy
    win_rate: float
    best_built_in: str
    built_in_win_rate: float


def tuned_planner(content: Content, field: list, *, seed: int, games: int = GAMES, candidates: int = CANDIDATES,
                  cache: bool = True) -> TunedPlanner:
    """The planner tuned against the strategies ``field`` (the other seats, 1 to 5), module doc."""
    import strategies
    from sim.run.stalkeriada import simulate_stalkeriada
    from strategies.stalkeriada import PLANNER_PARAMS, planner_strategy

    def setting(point):
        words = ", ".join(f"{k} {point[k]}" for k in PLANNER_PARAMS)
        return planner_strategy(TUNED, f"tuned against {', '.join(s.name for s in field)}: {words}", **point)

    def score(point):
        table = simulate_stalkeriada(content, [setting(point), *field], games=games, seed=seed + TUNING_SEED,
                                     rotate_seats=True)
        return float(table.win_rates().row(0, named=True)["win_rate"])

    family = {name: dict(zip(PLANNER_PARAMS, (int(v) for v in s.params)))
              for name, s in strategies.built_in("stalkeriada").items()}
    key = ["stalkeriada", SPACE_VERSION, content_key(content), [[s.name, list(map(float, s.params))] for s in field],
           seed, games, candidates]
    found = remembered(key, lambda: best_point(score, family, SPACE, candidates, seed), cache)
    return TunedPlanner(setting(found["choice"]), found["score"], found["best_built_in"], found["built_in_score"])


def listing() -> dict:
    """The tuned planner as ``zonesim strategies`` lists him."""
    return {"name": TUNED, "description": "the planner searched against the other seats of the table, every seat "
            "order played: the four shipped settings, then Optuna's TPE over every planner parameter "
            "(sim.run.tuned_planner)", "params": {"searches": ", ".join(SPACE), "games_per_seat_order": GAMES,
                                                  "candidates": CANDIDATES},
            "optimises": "his win rate against the other seats"}
