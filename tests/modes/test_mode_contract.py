"""The contract every mode of ``sim.modes.MODES`` keeps, checked mode by mode:

- its record resolves: content loader, run function, chunk work, kernel entry
  points, reference and built-in strategies are there, and the options it
  names are options of its command;
- determinism: one seed gives the same numbers on 1 and 2 threads and for two
  chunk sizes;
- resume: a run stopped at a chunk boundary and resumed from its checkpoints
  equals the run done at once, and runs only the chunks not saved;
- kernel equals reference: the numba kernel and the plain-Python reading of
  the rules agree on the same random streams (``tests.crosscheck.agree``);
- bad input: an unknown strategy and zero trials are refused with one line
  (a ``ZonesimError``).

A new mode gets its small scenario in ``CASES``; the checks are the same for all.
The toy mode of ``tests/modes/toy/`` (five files) is registered for these tests
and keeps the same contract.
"""

from dataclasses import dataclass
from typing import Callable

import numba
import numpy as np
import pytest

import strategies
from sim.content import DEFAULT_DIR
from sim.content.loadout import Loadout
from sim.content.skirmish import load_arena, load_skirmish, make_setup, parse_member
from sim.errors import ZonesimError
from sim.modes import MODES, register, resolve
from sim.reference import fight as fight_ref
from sim.reference import journey as journey_ref
from sim.reference.loadout import loadout_from_dict
from sim.run.chunks import Checkpoints, plan, run_chunks
from sim.run.fight import FightWork, fight_template
from sim.run.journey import JourneyWork
from sim.run.skirmish import SkirmishWork, skirmish_template
from sim.run.stalkeriada import DEFAULT_PLAYERS, StalkeriadaWork
from sim.run.chunks import Chunk
from tests.conftest import zonesim_json
from tests.crosscheck.agree import fights_agree, games_agree, journeys_agree, skirmishes_agree
from tests.modes.toy import mode as toy
from tests.modes.toy import reference as toy_reference

FIGHT_KIT = {"weapon": "ak47", "body": "vest", "healing": {"stimulator": 2}, "explosives": {"limonka": 1}}
DUEL_KIT = {"weapon": "berdanka", "reputation": 3, "escape_item": "smoke_bomb", "healing": {"stimulator": 1}}
JOURNEY_KIT = {"weapon": "ak47", "healing": {"stimulator": 2, "medkit": 1}, "movement": ["zone_map"]}
JOURNEY_STRATEGY = {"fight": "runner", "danger_weight": 2, "recover_loot": True, "order_choice": "nearest"}
PARTY = ("novice:ak47,vest,stimulator*2", "doktor:berdanka,limonka*2")
SKIRMISH_MONSTERS = ("bloodsucker", "blind_dog")
SEED = 29


@dataclass(frozen=True)
class Case:
    """A small scenario of one mode, in the terms of its record's functions."""

    work: Callable          # (content) -> work(chunk), the mode's chunk work
    trials: int
    chunks: tuple           # two chunk sizes
    agree: Callable         # (content) -> None: kernel and reference agree, or AssertionError
    zero_trials: Callable   # (content) -> the run function called with no trials


def _skirmish_setup(content):
    sk = load_skirmish(content)
    return make_setup(content, sk, [parse_member(content, p) for p in PARTY], list(SKIRMISH_MONSTERS),
                      load_arena(sk), "kite", 4)


def _toys_agree(content):
    """The toy's kernel sums equal its reference's, game by game summed, for each strategy."""
    game = toy.load_toy(content)["game"]
    for name in ("careful", "bold"):
        strategy = strategies.get(name, mode="toy")
        games = toy_reference.run_games(game, strategy.stop_at, SEED, 200, first=50)
        expected = [sum(g["won"] for g in games), sum(g["banked"] for g in games), sum(g["rolls"] for g in games)]
        assert list(toy.ToyWork(game, strategy, SEED)(Chunk(0, 50, 200))["tally"]) == expected, name


CASES = {
    "fight": Case(
        work=lambda content: FightWork(fight_template(content, loadout_from_dict(FIGHT_KIT), ["snork", "flesh"])[0],
                                       strategies.get("tactician", mode="fight"), SEED),
        trials=4000, chunks=(1000, 700),
        agree=lambda content: fights_agree(content, fight_ref.load_content(DEFAULT_DIR), FIGHT_KIT,
                                           ["snork", "flesh"], "fighter", SEED, 400),
        zero_trials=lambda content: MODES["fight"].run(content, Loadout(weapon="ak47"), ["snork"],
                                                       strategies.get("fighter", mode="fight"), trials=0, seed=SEED)),
    "duel": Case(
        work=lambda content: FightWork(fight_template(content, loadout_from_dict(DUEL_KIT), ["chimera"])[0],
                                       strategies.get("runner", mode="duel"), SEED),
        trials=4000, chunks=(1000, 700),
        agree=lambda content: fights_agree(content, fight_ref.load_content(DEFAULT_DIR), DUEL_KIT, ["chimera"],
                                           "runner", SEED, 400),
        zero_trials=lambda content: MODES["duel"].run(content, Loadout(weapon="ak47"), ["snork"],
                                                      strategies.get("fighter", mode="duel"), trials=0, seed=SEED)),
    "journey": Case(
        work=lambda content: JourneyWork(content, loadout_from_dict(JOURNEY_KIT),
                                         strategies.get("cautious", mode="journey"), 12, SEED),
        trials=240, chunks=(80, 60),
        agree=lambda content: journeys_agree(content, journey_ref.load_journey_content(DEFAULT_DIR), JOURNEY_KIT,
                                             JOURNEY_STRATEGY, 12, SEED, 40),
        zero_trials=lambda content: MODES["journey"].run(content, Loadout(weapon="ak47"),
                                                         strategies.get("greedy", mode="journey"), days=5, trials=0,
                                                         seed=SEED)),
    "skirmish": Case(
        work=lambda content: SkirmishWork(skirmish_template(_skirmish_setup(content)),
                                          strategies.get("kite", mode="skirmish"), SEED),
        trials=300, chunks=(100, 70),
        agree=lambda content: skirmishes_agree(_skirmish_setup(content), "kite", SEED, 30),
        zero_trials=lambda content: MODES["skirmish"].run(_skirmish_setup(content),
                                                          strategies.get("hold", mode="skirmish"), trials=0,
                                                          seed=SEED)),
    "stalkeriada": Case(
        work=lambda content: StalkeriadaWork(content, (tuple(strategies.get(p, mode="stalkeriada")
                                                             for p in DEFAULT_PLAYERS),), SEED, False),
        trials=60, chunks=(20, 15),
        agree=lambda content: games_agree(content, DEFAULT_PLAYERS, 12, SEED),
        zero_trials=lambda content: MODES["stalkeriada"].run(content, DEFAULT_PLAYERS, games=0, seed=SEED)),
    "toy": Case(
        work=lambda content: toy.ToyWork(toy.load_toy(content)["game"], strategies.get("bold", mode="toy"), SEED),
        trials=4000, chunks=(1000, 700), agree=_toys_agree,
        zero_trials=lambda content: MODES["toy"].run(content, strategies.get("careful", mode="toy"), trials=0,
                                                     seed=SEED)),
}
NAMES = (*MODES, toy.TOY.name)
"""Every built-in mode and the toy."""


@pytest.fixture(autouse=True, scope="module")
def toy_registered():
    """The toy mode in ``MODES`` while these tests run."""
    register(toy.TOY)
    yield
    MODES.pop(toy.TOY.name)


def _numbers(total):
    """A run's sums without its timing."""
    return {name: value for name, value in total.items() if name != "elapsed_s"}


def _run(work, trials, chunk, **options):
    return _numbers(run_chunks(work, plan(trials, chunk), **options)[0])


def _same(a, b):
    assert a.keys() == b.keys()
    for name in a:
        assert np.array_equal(a[name], b[name]), name


@pytest.fixture
def threads():
    """``numba.set_num_threads``, restored to its value after the test."""
    before = numba.get_num_threads()
    yield numba.set_num_threads
    numba.set_num_threads(before)


def test_every_mode_has_a_case():
    assert set(CASES) == set(MODES) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_the_record_resolves(name, content):
    mode = MODES[name]
    assert mode.name == name and mode.measures and mode.speed > 0
    assert mode.load(content) is not None
    assert callable(resolve(mode.simulate)) and callable(resolve(mode.reference)) and callable(resolve(mode.work))
    assert all(hasattr(k, "compile") for k in mode.entry_points())  # kernel entry points
    assert tuple(strategies.built_in(name)) == mode.strategy_names() and mode.default_strategy in mode.strategy_names()
    if mode.command:
        assert mode.trials_option in mode.options and mode.strategy_option in mode.options
    assert isinstance(CASES[name].work(content), resolve(mode.work))
    if mode.valuation:
        assert callable(resolve(mode.valuation)) and mode.valuation_trials > 0


@pytest.mark.parametrize("name", NAMES)
def test_its_command_takes_the_options_it_names_or_zonesim_play_runs_it(name):
    """A mode with a command names options of that command and a ``sim.api`` call; any other
    mode is played by ``zonesim play NAME``, which reports each of its measures."""
    import typer

    import sim.cli

    mode = MODES[name]
    if mode.command:
        command = typer.main.get_command(sim.cli.app).commands[mode.command]
        known = {opt for param in command.params for opt in param.opts}
        assert set(mode.options) <= known and callable(resolve(mode.call))
        return
    out = zonesim_json("play", name, "--trials", "2000", "--seed", str(SEED))
    assert (out["mode"], out["strategy"], out["trials"], out["seed"]) == (name, mode.default_strategy, 2000, SEED)
    assert tuple(out["measures"]) == mode.measures


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_numbers_on_any_threads_and_chunks(name, content, threads):
    case = CASES[name]
    work = case.work(content)
    threads(1)
    one = _run(work, case.trials, case.chunks[0])
    threads(min(2, numba.config.NUMBA_NUM_THREADS))
    _same(one, _run(work, case.trials, case.chunks[0]))
    _same(one, _run(work, case.trials, case.chunks[1]))


class Interrupted(Exception):
    """The run stopped (as by a kill) before a chunk."""


@pytest.mark.parametrize("name", NAMES)
def test_resumed_run_equals_the_run_done_at_once(name, content, tmp_path):
    case = CASES[name]
    work, chunks = case.work(content), plan(case.trials, case.chunks[1])
    ran = []

    def stopping(chunk):
        if len(ran) == 2:
            raise Interrupted
        ran.append(chunk)
        return work(chunk)

    params = {"mode": name, "trials": case.trials}
    with pytest.raises(Interrupted):
        run_chunks(stopping, chunks, store=Checkpoints(tmp_path, params, resume=False))
    assert ran == chunks[:2]

    def counted(chunk):
        ran.append(chunk)
        return work(chunk)

    ran.clear()
    resumed = _numbers(run_chunks(counted, chunks, store=Checkpoints(tmp_path, params, resume=True))[0])
    assert ran == chunks[2:]  # the saved chunks are kept, not run again
    _same(resumed, _run(work, case.trials, case.chunks[1]))


@pytest.mark.parametrize("name", NAMES)
def test_kernel_equals_reference(name, content):
    CASES[name].agree(content)


@pytest.mark.parametrize("name", NAMES)
def test_unknown_strategy_is_refused_in_one_line(name):
    with pytest.raises(ZonesimError) as info:
        strategies.get("no_such_strategy", mode=name)
    message = str(info.value)
    assert "\n" not in message
    assert message == (f"unknown strategy 'no_such_strategy'; built in: {', '.join(MODES[name].strategy_names())}; "
                       "or give FILE.py:NAME")


@pytest.mark.parametrize("name", NAMES)
def test_zero_trials_are_refused_in_one_line(name, content):
    with pytest.raises(ZonesimError) as info:
        CASES[name].zero_trials(content)
    message = str(info.value)
    assert "\n" not in message and MODES[name].trials_option in message
