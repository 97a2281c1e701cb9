"""Stalkeriada pace: the exit-visa or loot prices at which a chosen share of games finish.

Under S-05 a game ends for a player when he buys the exit visa (S-04); a game
in which nobody does by the round cap has no winner. How often that happens is
set by what a visa costs against what loot sells for (S-06). ``tune_pace``
finds, by bisection on common dice, one factor ``f`` on those prices so that
the share of games with a winner meets a target P:

- ``move="visa"``: the visa costs ``f`` times its price;
- ``move="loot"``: each loot price (the borscht table) is divided by ``f``.

Either way a larger ``f`` makes finishing harder, so the share with a winner
falls as ``f`` rises. Prices are rounded to whole G; every game of every step
is played on the same dice (the same seed and game numbers)."""

from __future__ import annotations

import math
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sim.content import Content, load_content
from sim.content.edit import copy_content_with, set_value
from sim.content.load import ContentError
from sim.content.loadout import LoadoutError
from sim.content.stalkeriada import STALKERIADA_FILE, load_stalkeriada

MOVES = ("visa", "loot")
STEPS = 10
RANGE = (1 / 8, 8.0)


@dataclass
class PaceTune:
    """The factor found, the prices it gives, and the finish share at each bisection step."""

    move: str
    target: float
    factor: float
    prices: dict  # shop.exit_visa and borscht.prices at the factor
    start: dict
    finished: float  # share of games with a winner at the factor
    steps: list  # [{"factor", "finished"}] in bisection order
    games: int
    seed: int

    def to_json(self) -> dict:
        return {"objective": f"target-finish={self.target}", "move": self.move, "factor": self.factor,
                "finished": self.finished, "old_prices": self.start, "new_prices": self.prices,
                "steps": self.steps, "games": self.games, "seed": self.seed}


def parse_pace_objective(text: str):
    """``target-finish=P`` with 0 < P < 1 -> P."""
    key, _, value = text.partition("=")
    try:
        share = float(value)
    except ValueError:
        share = math.nan
    if key != "target-finish" or not 0 < share < 1:
        raise LoadoutError(f"--objective: '{text}'; use target-finish=P with 0 < P < 1 (the share of games with "
                           "a winner), e.g. target-finish=0.5")
    return share


def paced_prices(start: dict, move: str, factor: float) -> dict:
    """``start`` (``exit_visa``, ``loot``) with the visa times ``factor`` or each loot price over it."""
    if move == "visa":
        return {"exit_visa": max(1, round(start["exit_visa"] * factor)), "loot": list(start["loot"])}
    return {"exit_visa": start["exit_visa"], "loot": [max(1, round(p / factor)) for p in start["loot"]]}


def write_paced(source: Path, target: Path, prices: dict) -> Path:
    """A copy of the content folder at ``target`` (whole or not at all) with
    ``stalkeriada.toml``'s visa and loot prices replaced, comments and layout kept."""
    text = (source / STALKERIADA_FILE).read_text(encoding="utf-8")
    try:
        text = set_value(set_value(text, "shop.exit_visa", prices["exit_visa"]), "borscht.prices", prices["loot"])
    except ContentError as exc:
        raise LoadoutError(f"{source / STALKERIADA_FILE}: {exc}") from None
    return copy_content_with(source, target, STALKERIADA_FILE, text)


def tune_pace(content: Content, players, *, target: float, move="visa", games=2000, seed=1,
              on_step=None) -> PaceTune:
    """The factor on the visa or loot prices at which a share ``target`` of games
    between ``players`` (seats rotated) has a winner (module doc)."""
    from sim.run.stalkeriada import simulate_stalkeriada

    if move not in MOVES:
        raise LoadoutError(f"--move: '{move}'; use one of {', '.join(MOVES)}")
    sc = load_stalkeriada(content)
    start = {"exit_visa": int(sc.settings["shop"]["exit_visa"]), "loot": [int(p) for p in sc.prices]}
    work, steps = Path(tempfile.mkdtemp(prefix="zonesim-pace-")), []
    lo, hi = RANGE
    try:
        for k in range(STEPS):
            factor = math.sqrt(lo * hi)
            prices = paced_prices(start, move, factor)
            at = load_content(write_paced(Path(content.directory), work / f"step{k}", prices))
            result = simulate_stalkeriada(at, players, games=games, seed=seed, rotate_seats=True)
            finished = 1 - float(result.win_rates()["win_rate"][-1])
            steps.append({"factor": factor, "finished": finished, **prices})
            if on_step:
                on_step(k + 1, STEPS)
            lo, hi = (factor, hi) if finished > target else (lo, factor)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    best = min(steps, key=lambda s: (abs(s["finished"] - target), s["factor"]))
    return PaceTune(move, target, best["factor"], paced_prices(start, move, best["factor"]), start, best["finished"],
                    [{"factor": s["factor"], "finished": s["finished"]} for s in steps], games, seed)
