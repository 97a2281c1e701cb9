"""The tuned journey player (``tuned``): the journey strategy searched for one
kit and one objective on the campaign's own dice, so that a number is not
about how a hand-written script plays that kit.

- **What he may choose** (``SPACE``): every choice a journey strategy makes.
  His fight strategy (runner, fighter, or the tactician with its
  ``flee_ratio`` and ``danger_rounds``: when to try the escape roll, Z-33, and
  when to throw the biggest explosive), how far his route avoids danger or
  seeks it (``danger_weight``, ``seek_danger``, Z-39), which order he takes
  next (Z-41), whether he restocks at the bases (Z-40) and whether a
  replacement goes back for the dead one's loot (Z-10).
- **How he is found**: the built-in family first, each as it is, then
  Optuna's TPE sampler (seeded from the run's seed) for the rest of
  ``candidates``. Every candidate plays the same ``trials`` campaigns of the
  tuning set (from ``TUNING_FIRST``: dice no valuation or selection trial
  uses), scored by the objective; the best mean wins. He is so never worse
  than the best built-in strategy on the tuning dice, and his numbers
  elsewhere are measured on other dice, so his luck there is not counted.
- **What it costs**: ``candidates`` x ``trials`` campaigns per kit (48 x 2,000
  by default: about two seconds on 2 cores). The result is kept on disk
  (``sim.cache_dir()/players``) per kernel source, content and prices,
  kit, objective, campaign length, seed and search size, so a kit is tuned
  once.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import warnings
from dataclasses import dataclass

import numpy as np

from sim import cache_dir
from sim.content import Content
from sim.content.loadout import Loadout

TUNED = "tuned"
TUNING_FIRST = 1 << 41  # the tuning campaigns: after the selection sets (``sim.economy.outcome``)
TRIALS = 2000
CANDIDATES = 48
FIGHTS = ("runner", "fighter", "tactician")
SPACE = {  # name: (low, high[, step]) for numbers, a tuple of choices otherwise
    "fight": FIGHTS, "flee_ratio": (0.0, 4.0), "danger_rounds": (0.0, 4.0), "danger_weight": (0, 6),
    "seek_danger": (0, 3), "order_choice": ("listed", "nearest"), "restock": (True, False),
    "recover_loot": (True, False),
}
SPACE_VERSION = 1  # bump when SPACE or the search changes: cached players are found again


@dataclass(frozen=True)
class TunedPlayer:
    """The strategy found for one kit and objective, his mean score on the tuning
    campaigns, and the best built-in strategy's there (the yardstick)."""

    strategy: object  # strategies.journey.JourneyStrategy
    score: float
    best_built_in: str
    built_in_score: float


def listing() -> dict:
    """The tuned player as ``zonesim strategies`` lists him."""
    return {"name": TUNED, "description": "searched for each kit and objective on the campaign's own dice: the "
            "built-in family, then Optuna's TPE over every choice a journey strategy makes (sim.run.player)",
            "params": {"searches": ", ".join(SPACE), "tuning_trials": TRIALS, "candidates": CANDIDATES},
            "optimises": "the campaign objective in use (economy.toml [objective] use, or --objective)"}


def player_strategy(choice: dict):
    """The ``JourneyStrategy`` of one point of ``SPACE``."""
    from strategies.journey import JourneyStrategy

    tactician = choice["fight"] == "tactician"
    fight = (f"tactician (flee_ratio {choice['flee_ratio']:.2f}, danger_rounds {choice['danger_rounds']:.2f})"
             if tactician else choice["fight"])
    words = (f"tuned: {fight}, danger_weight {choice['danger_weight']}, seek_danger {choice['seek_danger']}, "
             f"{choice['order_choice']} order, " + ("restocks" if choice["restock"] else "does not restock")
             + (", recovers loot" if choice["recover_loot"] else ", leaves loot"))
    return JourneyStrategy(
        TUNED, words, choice["fight"], int(choice["danger_weight"]),
        bool(choice["recover_loot"]), choice["order_choice"], restock=bool(choice["restock"]),
        seek_danger=int(choice["seek_danger"]),
        fight_params=(float(choice["flee_ratio"]), float(choice["danger_rounds"])) if tactician else ())


def built_in_point(strategy) -> dict:
    """A built-in journey strategy as a point of ``SPACE``."""
    flee, danger = (strategy.fight_params or (1.0, 2.0)) if strategy.fight == "tactician" else (1.0, 2.0)
    return {"fight": strategy.fight, "flee_ratio": float(flee), "danger_rounds": float(danger),
            "danger_weight": strategy.danger_weight, "seek_danger": strategy.seek_danger,
            "order_choice": strategy.order_choice, "restock": strategy.restock,
            "recover_loot": strategy.recover_loot}


def tuned_player(content: Content, loadout: Loadout, objective, *, goal: int, days: int, seed: int,
                 trials: int = TRIALS, candidates: int = CANDIDATES, cache: bool = True) -> TunedPlayer:
    """The tuned player of ``loadout`` under ``objective`` (module doc), from the disk cache when known."""
    import strategies
    from sim.run.journey import campaign_outcomes

    def score(choice):
        out = campaign_outcomes(content, loadout, player_strategy(choice), days=days, seed=seed,
                                first=TUNING_FIRST, n=trials)
        return float(objective.score(out, days, goal).mean())

    def search():
        family = {name: built_in_point(s) for name, s in strategies.built_in("journey").items()}
        return best_point(score, family, SPACE, candidates, seed)

    key = ["journey", SPACE_VERSION, content_key(content), loadout.describe(), loadout.character,
           [list(w) for w in objective.weights], goal, days, seed, trials, candidates]
    found = remembered(key, search, cache)
    return TunedPlayer(player_strategy(found["choice"]), found["score"], found["best_built_in"],
                       found["built_in_score"])


def best_point(score, family: dict, space: dict, candidates: int, seed: int) -> dict:
    """The point of ``space`` with the best ``score``: the built-in ``family`` (``{name: point}``)
    first, then Optuna's TPE sampler seeded with ``seed`` up to ``candidates`` points in all;
    with the best built-in point's name and score (the yardstick)."""
    with warnings.catch_warnings():  # optuna's progress bar module warns in a notebook without ipywidgets
        warnings.simplefilter("ignore")
        import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)

    scores = {name: score(point) for name, point in family.items()}
    best_built_in = max(scores, key=lambda n: (scores[n], n))
    distributions = _distributions(space)
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed, multivariate=True))
    for name, point in family.items():
        study.add_trial(optuna.trial.create_trial(params=point, distributions=distributions, value=scores[name]))
    for _ in range(max(0, candidates - len(family))):
        trial = study.ask(distributions)
        study.tell(trial, score(trial.params))
    best = max(study.trials, key=lambda t: (t.value, -t.number))
    return {"choice": {k: _plain(best.params[k]) for k in space}, "score": float(best.value),
            "best_built_in": best_built_in, "built_in_score": scores[best_built_in]}


def remembered(key: list, compute, cache: bool = True) -> dict:
    """``compute()`` (a JSON-able dict), kept on disk under ``sim.cache_dir()/players`` by
    ``key`` (with the kernels' source digest: other kernels play otherwise) and read back,
    once per process: a kit's player is asked for at each of its runs."""
    if not cache:
        return compute()
    digest = hashlib.sha256(json.dumps([_kernels(), *key]).encode()).hexdigest()[:32]
    path = cache_dir() / "players" / f"{digest}.json"
    if path in _READ:
        return _READ[path]
    if path.is_file():
        _READ[path] = json.loads(path.read_text(encoding="utf-8"))
        return _READ[path]
    found = compute()
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(f".{os.getpid()}.part")
    part.write_text(json.dumps(found), encoding="utf-8")
    part.replace(path)
    _READ[path] = found
    return found


_READ = {}  # what ``remembered`` read or wrote in this process, by file


def content_key(content: Content) -> list:
    """What a search depends on in the content: its files and the prices in play."""
    return [content.digest, content.prices()]


def _distributions(space: dict) -> dict:
    from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution

    out = {}
    for name, domain in space.items():
        if all(isinstance(v, float) for v in domain):
            out[name] = FloatDistribution(*domain)
        elif all(isinstance(v, int) and not isinstance(v, bool) for v in domain):
            out[name] = IntDistribution(*domain[:2], step=domain[2] if len(domain) > 2 else 1)
        else:
            out[name] = CategoricalDistribution(domain)
    return out


@functools.cache
def _kernels() -> str:
    """The kernels' and strategies' source digest: a player found on other kernels is found again."""
    from sim import kernel_source_digest

    return kernel_source_digest()


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value
