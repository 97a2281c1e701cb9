"""The toy mode's record: what it reads, what runs it, who plays it and its headline
numbers. ``register(TOY)`` (``sim.modes``) adds it to every command that reads the registry."""

import time
import tomllib
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from sim.analysis.stats import wilson
from sim.run.headline import Group, Part, batch_size, checked_chunks
from sim.content.load import ContentError
from sim.errors import ZonesimError
from sim.modes import Family, Mode
from sim.run.chunks import plan, run_chunks

HERE = Path(__file__).parent
RULES = ("sides", "bust_face", "turns", "goal")
CHUNK = 1 << 12


def load_toy(content) -> dict:
    """``toy.toml`` of the content folder, else the one beside this module: its rules and trial counts, checked."""
    path = Path(content.directory) / "toy.toml"
    path = path if path.is_file() else HERE / "toy.toml"
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{path}: malformed TOML: {exc}") from None
    game = raw.get("game", {})
    for key in RULES:
        if not (isinstance(game.get(key), int) and game[key] >= 1):
            raise ContentError(f"{path}: game.{key}: expected a whole number >= 1, got {game.get(key)!r}")
    if game["bust_face"] > game["sides"]:
        raise ContentError(f"{path}: game.bust_face: {game['bust_face']} is not a face of a {game['sides']}-sided die")
    counts = raw.get("trials", {}).get("headline")
    if not (isinstance(counts, list) and len(counts) == 2 and all(isinstance(n, int) and n >= 1 for n in counts)):
        raise ContentError(f"{path}: trials.headline: expected [full, quick], two whole numbers >= 1, got {counts!r}")
    return {"game": {k: game[k] for k in RULES}, "trials": tuple(counts)}


@dataclass(frozen=True)
class ToyWork:
    """One chunk of games: ``{tally: [wins, banked, rolls], elapsed_s}``."""

    game: dict
    strategy: object
    seed: int

    def __call__(self, chunk):
        from tests.modes.toy import kernel

        tally = np.zeros(kernel.TALLY_SIZE, np.int64)
        start = time.perf_counter()
        g = self.game
        kernel.play_games(self.seed, chunk.start, chunk.n, g["sides"], g["bust_face"], g["turns"], g["goal"],
                          self.strategy.stop_at, tally)
        return {"tally": tally, "elapsed_s": np.float64(time.perf_counter() - start)}


def simulate_toy(content, strategy, *, trials, seed, chunk=1 << 16, store=None) -> dict:
    """``trials`` games played by ``strategy``: P(win) with its 95% interval, the mean points banked and dice
    rolled."""
    if trials < 1:
        raise ZonesimError(f"--trials: {trials}; give at least 1")
    total = run_chunks(ToyWork(load_toy(content)["game"], strategy, seed), plan(trials, chunk), store=store)[0]
    wins, banked, rolls = (int(x) for x in total["tally"])
    return {"p_win": wins / trials, "mean_banked": banked / trials, "mean_rolls": rolls / trials,
            "ci95": {"p_win": wilson(wins, trials)}}


def toy_tally(work, first, count, check):
    return [int(checked_chunks(work, first, count, CHUNK, check)["tally"][0])]


class ToyGames(Group):
    """P(win) of each built-in strategy."""

    name, title = "toy", "Toy: P(win) by strategy"
    prefixes = ("toy_win",)

    def __init__(self, content, plan, fine=False):
        import strategies

        toy = load_toy(content)
        n = batch_size(toy["trials"][plan.study.quick])
        super().__init__({name: Part(partial(toy_tally, ToyWork(toy["game"], strategy, plan.seed)), n)
                          for name, strategy in strategies.built_in("toy").items()}, n)

    def read(self, stage):
        return self.proportions(stage, "toy_win.")

    @classmethod
    def names(cls, content, plan):
        import strategies

        return [f"toy_win.{name}" for name in strategies.names("toy")]


TOY = Mode(
    name="toy", description="push-your-luck dice, the smallest mode (tests/modes/toy/toy.toml)",
    content_files=("toy.toml",), loader="tests.modes.toy.mode:load_toy",
    simulate="tests.modes.toy.mode:simulate_toy", work="tests.modes.toy.mode:ToyWork",
    kernels=("tests.modes.toy.kernel:play_games",), measures=("p_win", "mean_banked", "mean_rolls"),
    reference="tests.modes.toy.reference:run_games", speed=10_000_000, trial="game",
    family=Family("tests.modes.toy.strategy:ToyStrategy", {
        "careful": "tests.modes.toy.strategy:CAREFUL", "bold": "tests.modes.toy.strategy:BOLD"}),
    default_strategy="careful", headline="tests.modes.toy.mode:ToyGames")
