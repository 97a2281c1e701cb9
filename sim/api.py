"""The Python API: one call per question, each returning results with their 95%
intervals. The keyword arguments are the command line's options (a repeated
option is a list: ``monsters=["snork", "boar"]``; counts are dicts:
``stims={"stimulator": 2}``), and a bad one is refused with the same one-line
``ZonesimError`` before any kernel compiles.

    >>> from sim.api import encounter, value
    >>> r = encounter("bloodsucker", weapon="ak47", body="vest", stims={"stimulator": 2}, trials=100_000)
    >>> r.probabilities["p_survive"], r.ci95["p_survive"]
    >>> v = value(quick=True)               # every card in G over economy.toml's campaigns
    >>> v.table()                           # overall: value, interval, reservation price, verdict

A run that writes files takes ``out`` (a folder: parquet tables, charts,
``manifest.json``) and ``resume``; long runs take ``on_progress(done, total,
note)``, and the ones that compile kernels ``on_start()``, called once the
inputs are checked. Imports are deferred: ``import sim.api`` compiles nothing.
"""

from pathlib import Path

from sim.modes import MODES

DEFAULT_PARTY = ("novice:ak47,vest,stimulator*2",)
SKIRMISH_MONSTERS = ("bloodsucker", "blind_dog")
STALKERIADA_PLAYERS = ("cautious", "greedy", "jelly", "rush")

__all__ = [
    "load_content", "content_path", "copy_content", "set_content_value", "validate", "loadout", "strategy",
    "planner", "list_strategies", "journey_content", "terrain",
    "encounter", "journey", "skirmish", "skirmish_replay", "stalkeriada", "stalkeriada_matrix", "loadouts",
    "route", "skill",
    "context", "value", "tune", "pace",
    "compare", "sensitivity", "balance",
    "wilson", "value_chart", "compare_chart", "tornado_chart", "zone_map",
]


# --- content, loadouts, strategies -------------------------------------------------------

def load_content(content=None):
    """The content set in folder ``content`` (default: the shipped one), every file of it checked.

        >>> game = load_content()
        >>> list(game.monsters)[:3], game.digest[:12]
    """
    from sim.checks import checked_content

    return checked_content(content)


def content_path() -> Path:
    """The folder of the shipped default content (``zonesim content path``).

        >>> sorted(p.name for p in content_path().glob("*.toml"))[:3]
    """
    from sim.content import DEFAULT_DIR

    return DEFAULT_DIR


def copy_content(folder) -> Path:
    """A copy of the shipped default content in the new folder ``folder``, to edit
    (``zonesim content init``).

        >>> mine = copy_content("my_content")
    """
    import shutil

    from sim.errors import UsageProblem

    folder = Path(folder)
    if folder.exists() and any(folder.iterdir()):
        raise UsageProblem(f"{folder}: exists and is not empty; choose a new folder")
    shutil.copytree(content_path(), folder, dirs_exist_ok=True)
    return folder


def set_content_value(folder, file: str, key: str, value) -> Path:
    """Set ``key`` (dotted: ``bloodsucker.hp``, ``shop.exit_visa``) of ``file`` in the
    content folder ``folder`` to ``value``, its comments and layout kept.

        >>> set_content_value(copy_content("tougher"), "monsters.toml", "bloodsucker.hp", 26)
    """
    from sim.content.edit import set_value

    path = Path(folder) / file
    path.write_text(set_value(path.read_text(encoding="utf-8"), key, value), encoding="utf-8")
    return path


def validate(content=None) -> dict:
    """Check every file of a content set; its summary (``zonesim validate --json``), or a
    one-line ``ZonesimError`` naming the first problem.

        >>> validate("my_content")["assumed"]
    """
    from sim.content.maps import load_map, load_terrain
    from sim.content.skirmish import SKIRMISH_FILE, load_arena, load_skirmish
    from sim.content.stalkeriada import STALKERIADA_FILE, load_stalkeriada

    game = load_content(content)
    folder = Path(game.directory)
    maps = []
    if (folder / "terrain.toml").is_file():
        kinds = load_terrain(folder)
        maps = [load_map(p, kinds) for p in sorted((folder / "maps").glob("*.toml"))]
    assumed = len(game.assumed_fields())
    zone = arena = None
    if (folder / STALKERIADA_FILE).is_file():
        sc = load_stalkeriada(game)
        assumed += len(sc.assumed)
        zone = [sc.settings["zone"]["rows"], sc.settings["zone"]["cols"]]
    if (folder / SKIRMISH_FILE).is_file():
        sk = load_skirmish(game)
        field = load_arena(sk)
        assumed += len(sk.assumed)
        arena = [field.rows, field.cols]
    return {"directory": str(game.directory), "characters": len(game.characters), "monsters": len(game.monsters),
            "items": len(game.items), "maps": len(maps), "stalkeriada_zone": zone, "skirmish_arena": arena,
            "assumed": assumed, "content_hash": game.digest}


def loadout(*, content=None, **options):
    """A checked ``Loadout`` from the loadout options: ``character``, ``weapon``, ``mods``,
    ``head``, ``body``, ``stims`` and ``medkits`` (in-combat and other healing items),
    ``explosives``, ``escape_item``, ``reputation``, ``hp``, ``movement``, ``avoidance``,
    ``one_shot``, ``location`` (counts as ``{"stimulator": 2}``).

        >>> kit = loadout(weapon="ak47", mods=["rebored"], body="vest", stims={"stimulator": 2})
        >>> kit.by_slot(), kit.cost(load_content())
    """
    from sim.content.loadout import Loadout

    return Loadout.from_options(load_content(content), **options)


def strategy(spec: str, mode: str = "fight"):
    """A built-in strategy of ``mode`` (fight, journey, skirmish, stalkeriada) by name,
    or ``FILE.py:NAME`` from your own file.

        >>> strategy("cautious", mode="journey").description
    """
    import strategies

    return strategies.get(spec, mode=mode)


def planner(name: str, *, like: str = "cautious", **params):
    """A Stalkeriada planner called ``name``: the built-in ``like`` with ``params`` changed.

        >>> stay_longer = planner("cautious_home_4", home_at=4)
        >>> stalkeriada([stay_longer, "greedy"], games=500)
    """
    from strategies.stalkeriada import planner_strategy

    base = strategy(like, mode="stalkeriada")
    return planner_strategy(name, base.description, **{**dict(zip(base.param_names, base.params)), **params})


def list_strategies() -> dict:
    """The built-in strategies with their parameters, by kind (``zonesim strategies --json``).

        >>> [s["name"] for s in list_strategies()["fight"]]
    """
    import strategies
    from strategies.skirmish import BEAST

    tuned = {kind: [{"name": s.name, "description": s.description,
                     "params": dict(zip(s.param_names, map(float, s.params)))}
                    for s in strategies.built_in(kind).values()] for kind in ("fight", "stalkeriada")}
    skirmish = [{"name": s.name, "description": s.description}
                for s in (*strategies.built_in("skirmish").values(), BEAST)]
    return {**tuned, "skirmish": skirmish}


def journey_content(content=None):
    """The journey tables of a content set (journey.toml and its map): ``hexmap``,
    ``orders``, ``events`` (weights per danger level), ``monster_groups``, ``settings``.

        >>> tables = journey_content()
        >>> tables.hexmap.name, [o["destination"] for o in tables.orders]
    """
    from sim.content.journey import load_journey

    return load_journey(load_content(content))


def terrain(content=None) -> dict:
    """The terrain kinds of a content set's maps (terrain.toml): name, letter, cost, epicentre.

        >>> {tid: t["cost"] for tid, t in terrain().items()}
    """
    from sim.content.maps import load_terrain

    return load_terrain(Path(load_content(content).directory))


# --- the modes ------------------------------------------------------------------------------

def _reporting(on_progress, total=None, note=""):
    """``on_progress(done, total, note)`` as the runs of ``sim.run`` call back:
    ``(done, total or None, CI width or None)``; ``total`` when they do not know it."""
    if on_progress is None:
        return None
    return lambda done, of, width: on_progress(done, of if total is None else total,
                                               f"CI width {width:.5f}" if width else note)


def _started(on_start):
    if on_start is not None:
        on_start()


def encounter(monsters, *, hp=None, strategy="fighter", trials=None, seed=1, exact=False, target_ci=None,
              chunk=1 << 20, threads=None, out=None, resume=False, content=None, on_start=None, on_progress=None,
              **loadout):
    """How often does a stalker with this loadout survive a fight against ``monsters``
    (one id, or a list fought at once)? ``zonesim encounter``: ``trials`` fights (default
    1,000,000; with ``target_ci`` the cap, default 100,000,000, stopping once the 95%
    interval of ``p_survive`` is narrower), or ``exact`` (a Markov chain). ``loadout``:
    the loadout options of ``loadout()``. An ``Encounter``: a ``FightResult`` with the
    loadout, monsters, strategy and the assumed [A] values it rests on.

        >>> r = encounter("bloodsucker", weapon="ak47", body="vest", stims={"stimulator": 2}, trials=100_000)
        >>> r.probabilities["p_survive"], r.ci95["p_survive"], r.to_frame()
    """
    from sim.content.loadout import Loadout, check_monsters
    from sim.errors import UsageProblem
    from sim.options import (check_fraction, check_mode_trials, check_seed, check_strategies, run_params,
                             set_threads)

    monsters = [monsters] if isinstance(monsters, str) else list(monsters)
    check_seed(seed)
    game = load_content(content)
    kit = Loadout.from_options(game, hp=hp, **loadout)
    check_monsters(game, monsters)
    check_fraction("--target-ci", target_ci, "an interval width between 0 and 1, e.g. 0.002")
    if chunk < 1:
        raise UsageProblem(f"--chunk: {chunk}; give at least 1")
    n = trials if trials is not None else (100_000_000 if target_ci else 1_000_000)
    if not exact:
        check_mode_trials("fight", n)
    check_strategies("--strategy", [strategy], "fight")
    if exact and resume:
        raise UsageProblem("--resume: for sampled fights; --exact solves at once")
    set_threads(threads)
    from sim.run.chunks import checkpoints

    store = None if exact else checkpoints(out, run_params("encounter", game, loadout=kit, monster=monsters,
                                                           strategy=strategy, trials=n, seed=seed, chunk=chunk,
                                                           target_ci=target_ci), resume)
    import strategies
    from sim.report.answers import Encounter, fight_assumed
    from sim.run.fight import exact_fight, simulate_fight

    strat = strategies.get(strategy)
    if exact:
        result = exact_fight(game, kit, monsters, strat)
    else:
        _started(on_start)
        result = simulate_fight(game, kit, monsters, strat, trials=n, seed=seed, chunk=chunk, target_ci=target_ci,
                                on_progress=_reporting(on_progress), store=store)
    fight = Encounter(**vars(result), loadout=kit, monsters=tuple(monsters), strategy=strat.name,
                      assumed=fight_assumed(game, {kit.character, *monsters, *kit.cards()}))
    if out is not None:
        from sim.report.files import write_encounter

        write_encounter(Path(out), game, fight, strat)
    return fight


def journey(*, strategy="greedy", days=30, trials=200_000, seed=1, chunk=1 << 16, threads=None, scheduler=None,
            workers=None, out=None, resume=False, content=None, on_start=None, on_progress=None, **loadout):
    """Campaigns of ``days`` days across the Zone on the content's orders (``zonesim journey``):
    the chance to reach the campaign's goal and the first one, never to die, days to finish,
    money, deaths and items used, with 95% intervals. ``loadout``: the loadout options of
    ``loadout()``. A ``Journey``: a ``JourneyResult`` with the loadout and strategy.

        >>> r = journey(weapon="ak47", body="vest", medkits={"medkit": 2}, trials=50_000)
        >>> r.probabilities["p_complete"], r.by_day(), r.summary()["money_ci95"]
    """
    from sim.content.loadout import Loadout
    from sim.errors import UsageProblem
    from sim.options import check_mode_trials, check_seed, check_strategies, run_params, set_threads

    check_seed(seed)
    game = load_content(content)
    kit = Loadout.from_options(game, **loadout)
    if days < 1:
        raise UsageProblem(f"--days: {days}; give at least 1 day")
    check_mode_trials("journey", trials, days)
    check_strategies("--strategy", [strategy], "journey")
    set_threads(threads)
    import strategies
    from sim.report.answers import Journey
    from sim.run.chunks import checkpoints
    from sim.run.distributed import cluster
    from sim.run.journey import simulate_journey

    strat = strategies.get(strategy, mode="journey")
    store = checkpoints(out, run_params("journey", game, loadout=kit, strategy=strat, days=days, trials=trials,
                                        seed=seed, chunk=chunk), resume)
    with cluster(scheduler, workers) as client:
        _started(on_start)
        result = simulate_journey(game, kit, strat, days=days, trials=trials, seed=seed, chunk=chunk,
                                  on_progress=_reporting(on_progress), client=client, store=store)
    campaigns = Journey(**vars(result), loadout=kit, strategy=strat.name)
    if out is not None:
        from sim.report.files import write_journey

        write_journey(Path(out), game, campaigns, strat)
    return campaigns


def _skirmish_setup(game, party, monsters, strategy, arena, arena_size, distance):
    """``(skirmish tables, arena, strategy, make(arena, distance) -> setup)`` of a skirmish's options."""
    from sim.content.skirmish import load_arena, load_skirmish, make_setup, parse_member
    from sim.options import check_strategies

    sk = load_skirmish(game)
    members = [parse_member(game, spec) for spec in party]
    field = load_arena(sk, arena, arena_size)
    check_strategies("--strategy", [strategy], "skirmish")
    import strategies

    strat = strategies.get(strategy, mode="skirmish")
    return sk, field, strat, lambda a, d=distance: make_setup(game, sk, members, list(monsters), a, strat.name, d)


def _check_skirmish(seed, arena, arena_size):
    from sim.errors import UsageProblem
    from sim.options import check_seed

    check_seed(seed)
    if arena is not None and arena_size is not None:
        raise UsageProblem("--arena and --arena-size: give one of them")


def skirmish(*, party=DEFAULT_PARTY, monsters=SKIRMISH_MONSTERS, strategy="hold", arena=None, arena_size=None,
             distance=None, trials=100_000, seed=1, chunk=1 << 16, threads=None, scheduler=None, workers=None,
             out=None, resume=False, content=None, on_start=None, on_progress=None):
    """Tactical skirmishes of a party (``CHAR:ITEM,ITEM*N`` per stalker) against ``monsters``
    on a hex arena (``zonesim skirmish``): survival, win, rounds, AP by action, damage,
    with 95% intervals. ``out`` adds a sweep of the starting distance and terrain.

        >>> r = skirmish(party=["doktor:berdanka,rifling,helmet"], monsters=["snork"], strategy="kite")
        >>> r.proportions(), r.ap_spending()
    """
    from sim.options import check_mode_trials, run_params, set_threads

    check_mode_trials("skirmish", trials)
    _check_skirmish(seed, arena, arena_size)
    game = load_content(content)
    sk, field, strat, make = _skirmish_setup(game, party, monsters, strategy, arena, arena_size, distance)
    setup = make(field)
    set_threads(threads)
    import hashlib

    from sim.run.chunks import checkpoints
    from sim.run.distributed import cluster
    from sim.run.skirmish import simulate_skirmish, skirmish_template, terrain_sweep

    scenario = hashlib.sha256(skirmish_template(setup).tobytes()).hexdigest()
    store = checkpoints(out, run_params("skirmish", game, scenario=scenario, strategy=strategy, trials=trials,
                                        seed=seed, chunk=chunk), resume)
    with cluster(scheduler, workers) as client:
        _started(on_start)
        result = simulate_skirmish(setup, strat, trials=trials, seed=seed, chunk=chunk,
                                   on_progress=_reporting(on_progress), client=client, store=store)
        if out is not None:
            from sim.report.files import write_skirmish

            start = setup.fighters[0]["pos"] % field.cols
            distances = list(range(2, field.cols - start, 2))[:7]
            sweep_trials = min(trials, 20_000)
            sweep = terrain_sweep(make, strat, field, distances, trials=sweep_trials, seed=seed, client=client,
                                  on_progress=_reporting(on_progress, 3 * len(distances) * sweep_trials,
                                                         "distance sweep"))
            arena_name = str(arena) if arena else (f"flat {arena_size}x{arena_size}" if arena_size else "built-in")
            write_skirmish(Path(out), game, sk, result, sweep, sweep_trials, arena_name)
    return result


def skirmish_replay(number: int, *, party=DEFAULT_PARTY, monsters=SKIRMISH_MONSTERS, strategy="hold", arena=None,
                    arena_size=None, distance=None, seed=1, content=None) -> str:
    """Skirmish ``number`` of a run turn by turn (positions, facings, AP, rolls), then its
    record (``zonesim skirmish --replay``).

        >>> print(skirmish_replay(3, arena_size=15, distance=12))
    """
    from sim.errors import UsageProblem

    _check_skirmish(seed, arena, arena_size)
    if number < 0:
        raise UsageProblem(f"--replay: {number}; give a skirmish number >= 0")
    game = load_content(content)
    _, field, strat, make = _skirmish_setup(game, party, monsters, strategy, arena, arena_size, distance)
    from sim.run.skirmish import replay_text

    return replay_text(make(field), strat, seed=seed, trial=number)


def _seats(option, players) -> list:
    """The strategies of a Stalkeriada table (names or planners), 2 to 6, names checked."""
    from sim.errors import UsageProblem
    from sim.options import check_strategies

    names = [p if isinstance(p, str) else p.name for p in players]
    if not 2 <= len(names) <= 6:
        raise UsageProblem(f"{option}: {len(names)} given ('{','.join(names)}'); Stalkeriada seats 2 to 6 players")
    check_strategies(option, [p for p in players if isinstance(p, str)], "stalkeriada")
    return list(players)


def _planners(players) -> list:
    import strategies

    return [strategies.get(p, mode="stalkeriada") if isinstance(p, str) else p for p in players]


def _planner_store(out, resume, command, game, planners, **options):
    """The checkpoints of a Stalkeriada run, keyed by its options and each planner's parameters."""
    from sim.options import run_params
    from sim.run.chunks import checkpoints

    players = [[s.name, [float(x) for x in s.params]] for s in planners]
    return checkpoints(out, run_params(command, game, players=players, **options), resume)


def stalkeriada(players=STALKERIADA_PLAYERS, *, games=20_000, seed=1, rotate_seats=False, chunk=1 << 16,
                threads=None, scheduler=None, workers=None, out=None, resume=False, content=None, on_start=None,
                on_progress=None):
    """Whole Stalkeriada games between ``players`` in seat order (names, ``FILE.py:NAME``
    or ``planner(...)`` objects; ``zonesim stalkeriada``): win rates per strategy and
    seat, places, game length, deaths, purchases, with 95% intervals. ``rotate_seats``
    plays every seat order on the same dice.

        >>> r = stalkeriada(["cautious", "rush"], games=2_000, rotate_seats=True)
        >>> r.win_rates(), r.length_summary()
    """
    from sim.options import check_mode_trials, check_seed, set_threads

    check_seed(seed)
    seats = _seats("--players", players)
    check_mode_trials("stalkeriada", games * (len(seats) if rotate_seats else 1))
    game = load_content(content)
    set_threads(threads)
    from sim.run.distributed import cluster
    from sim.run.stalkeriada import simulate_stalkeriada

    planners = _planners(seats)
    store = _planner_store(out, resume, "stalkeriada", game, planners, games=games, seed=seed,
                           rotate_seats=rotate_seats, chunk=chunk)
    with cluster(scheduler, workers) as client:
        _started(on_start)
        result = simulate_stalkeriada(game, planners, games=games, seed=seed, rotate_seats=rotate_seats, chunk=chunk,
                                      on_progress=_reporting(on_progress), client=client, store=store)
    if out is not None:
        from sim.content.stalkeriada import load_stalkeriada
        from sim.report.files import write_stalkeriada

        write_stalkeriada(Path(out), game, load_stalkeriada(game), result)
    return result


def stalkeriada_matrix(players=STALKERIADA_PLAYERS, *, set_size=2, games=5_000, seed=1, chunk=1 << 16, threads=None,
                       scheduler=None, workers=None, out=None, resume=False, content=None, on_start=None,
                       on_progress=None):
    """Round robin (``zonesim stalkeriada-matrix``): every set of ``set_size`` of the
    strategies ``players`` plays ``games`` games per seat order; cell (i, j) is i's win
    rate in the games that had j at the table, with its 95% interval.

        >>> m = stalkeriada_matrix(["cautious", "greedy", "rush"], games=500)
        >>> m.table, m.rate
    """
    from sim.errors import UsageProblem
    from sim.options import check_mode_trials, check_seed, set_threads

    check_seed(seed)
    names = list(dict.fromkeys(_seats("--players", players)))
    if not 2 <= set_size <= min(6, len(names)):
        raise UsageProblem(f"--set-size: {set_size}; use 2 to {min(6, len(names))} for {len(names)} strategies")
    check_mode_trials("stalkeriada", games)
    game = load_content(content)
    set_threads(threads)
    from math import comb

    from sim.report.answers import StalkeriadaMatrix
    from sim.run.distributed import cluster
    from sim.run.stalkeriada import round_robin

    store = _planner_store(out, resume, "stalkeriada-matrix", game, _planners(names), set_size=set_size, games=games,
                           seed=seed, chunk=chunk)
    with cluster(scheduler, workers) as client:
        _started(on_start)
        rr = round_robin(game, names, set_size, games=games, seed=seed, chunk=chunk, client=client, store=store,
                         on_progress=_reporting(on_progress, comb(len(names), set_size) * games * set_size))
    matrix = StalkeriadaMatrix(**vars(rr), names=tuple(names), set_size=set_size, games=games, seed=seed)
    if out is not None:
        from sim.content.stalkeriada import load_stalkeriada
        from sim.report.files import write_matrix

        write_matrix(Path(out), game, load_stalkeriada(game), matrix)
    return matrix


def loadouts(budget, *, character="novice", monsters=(), mix=None, strategy="fighter", trials=20_000, seed=1,
             max_count=2, families=None, journey=None, reputation=None, step=250, max_loadouts=50_000, threads=None,
             scheduler=None, workers=None, out=None, resume=False, content=None, on_start=None, on_progress=None):
    """Every legal loadout ``budget`` G buys, fought against ``monsters`` (or the groups
    of a ``mix`` file) on the same dice (``zonesim loadouts``); with ``journey`` (days)
    sent on the same campaigns instead (strategy greedy or cautious). ``families``:
    the item families combined (default every one that acts). A ``LoadoutSearch``:
    survival per loadout with 95% intervals, the Pareto front and the best per ``step`` G.

        >>> s = loadouts(2000, monsters=["bloodsucker"], families=["firearms", "armour", "healing"])
        >>> s.front(), s.steps
    """
    import hashlib

    from sim.errors import UsageProblem
    from sim.options import check_seed, check_strategies, run_params, set_threads

    check_seed(seed)
    game = load_content(content)
    if journey is not None and (monsters or mix is not None):
        raise UsageProblem("--journey: the campaign brings its own monsters; drop --monster/--mix")
    if journey is not None and journey < 1:
        raise UsageProblem(f"--journey: {journey}; give at least 1 day")
    if mix is not None and monsters:
        raise UsageProblem("--monster and --mix: give one of them")
    if trials < 1:
        raise UsageProblem(f"--trials: {trials}; give at least 1 trial per loadout")
    mode, strategy = ("journey", "greedy" if strategy == "fighter" else strategy) if journey else ("fight", strategy)
    check_strategies("--strategy", [strategy], mode)
    if max_loadouts < 1:
        raise UsageProblem(f"--max-loadouts: {max_loadouts}; give at least 1")
    import strategies
    from sim.report.answers import LoadoutSearch, fight_assumed
    from sim.run.chunks import checkpoints
    from sim.run.distributed import cluster
    from sim.run.loadouts import (FIGHT_FAMILIES, JOURNEY_FAMILIES, MixGroup, best_per_step, enumerate_loadouts,
                                  evaluate_journey_loadouts, evaluate_loadouts, load_mix, monster_mix, step_budgets)

    strat = strategies.get(strategy, mode=mode)
    if journey is not None:
        groups = (MixGroup((f"{journey}-day journey",), 1.0),)
    else:
        groups = load_mix(game, mix) if mix is not None else monster_mix(game, monsters)
    step_budgets(step, budget)
    families = tuple(families or (JOURNEY_FAMILIES if journey is not None else FIGHT_FAMILIES))
    found = enumerate_loadouts(game, budget=budget, character=character, max_count=max_count, families=families,
                               reputation=reputation, limit=max_loadouts, journey=journey is not None)
    set_threads(threads)
    store = checkpoints(out, run_params("loadouts", game, loadouts=hashlib.sha256(repr(found).encode()).hexdigest(),
                                        groups=[[list(g.monsters), g.weight] for g in groups], strategy=strategy,
                                        trials=trials, seed=seed, journey=journey), resume)
    progress = _reporting(on_progress)
    with cluster(scheduler, workers) as client:
        _started(on_start)
        if journey is not None:
            result = evaluate_journey_loadouts(game, found, strat, days=journey, trials=trials, seed=seed,
                                               on_progress=progress, client=client, store=store)
        else:
            result = evaluate_loadouts(game, found, groups, strat, trials=trials, seed=seed, on_progress=progress,
                                       client=client, store=store)
    table = result.table()
    used = {character, *(m for g in groups for m in g.monsters), *(i for lo in found for i in lo.cards())}
    search = LoadoutSearch(result, table, best_per_step(table, step, budget), strat, budget, character, families,
                           max_count, reputation, fight_assumed(game, used))
    if out is not None:
        from sim.report.files import write_loadouts

        write_loadouts(Path(out), game, search)
    return search


def route(start, goal, *, map_file=None, item=None, content=None):
    """The fewest days (then steps) from hex ``start`` to ``goal``, exactly (``zonesim route``):
    each a ``(col, row)``, ``"C,R"`` or a base or site id; ``item`` a movement item.
    The route's ``days``, ``steps`` and ``path``.

        >>> r = route("cordon", "bar", item="jetpack")
        >>> r.days, r.path
    """
    from sim.analysis.route import fastest_route
    from sim.content import load_content as load
    from sim.content.maps import default_map_path, load_map, load_terrain
    from sim.errors import UsageProblem

    game = load(content)
    hexmap = load_map(map_file or (game.directory / "maps" / "zone.toml" if content else default_map_path()),
                      load_terrain(game.directory))
    extra = 0
    if item is not None:
        entry = game.items.get(item)
        if entry is None or entry.family != "movement":
            choices = ", ".join(e.id for e in game.family("movement"))
            fix = (f"use one of: {choices}" if choices
                   else f"{game.directory} has none; drop --item or add one to items.toml")
            raise UsageProblem(f"--item: '{item}' is not a movement item; {fix}")
        extra = entry["steps"]
    a, b = _hex("--from", start, hexmap), _hex("--to", goal, hexmap)
    found = fastest_route(hexmap, a, b, extra_steps=extra, base_budget=game.rules["stalker"]["step_budget"])
    if found is None:
        raise UsageProblem(f"--to: {b} cannot be reached from {a} on {hexmap.path}; pick another hex or map")
    return found


def _hex(option, where, hexmap):
    """``(col, row)``, ``"C,R"`` or the id of a base or site on ``hexmap``."""
    from sim.errors import UsageProblem, ZonesimError

    if not isinstance(where, str):
        return tuple(where)
    col, comma, row = where.partition(",")
    if comma:
        try:
            return int(col), int(row)
        except ValueError:
            raise UsageProblem(f"{option}: '{where}' is not COL,ROW; write e.g. {option} 4,14") from None
    try:
        return hexmap.point(where)
    except (KeyError, ValueError, ZonesimError):
        names = ", ".join(p.id for p in (*hexmap.bases, *hexmap.sites))
        raise UsageProblem(f"{option}: '{where}' is neither COL,ROW nor a base or site of {hexmap.path} "
                          f"({names})") from None


def skill(attribute: int, target: int, *, modifiers=0, trials=1_000_000, seed=1, content=None) -> dict:
    """The chance to pass a skill test (1 d6 + attribute + modifiers >= target; a 1 fails,
    a 6 rolls again and adds), exact and simulated with its 95% interval (``zonesim skill``).

        >>> skill(2, 8)["exact"], skill(2, 8)["ci95"]
    """
    from sim.analysis.skill import skill_pass_probability
    from sim.analysis.stats import wilson as interval
    from sim.errors import UsageProblem
    from sim.options import check_seed

    check_seed(seed)
    if trials < 1:
        raise UsageProblem(f"--trials: {trials}; give at least 1 trial")
    extra_one_fails = load_content(content).rules["skill"]["extra_one_fails"]
    from sim.run.skill import simulate_skill

    p = skill_pass_probability(attribute + modifiers, target, extra_one_fails)
    passed = simulate_skill(attribute, modifiers, target, extra_one_fails, trials, seed)
    return {"attribute": attribute, "modifiers": modifiers, "target": target, "exact": p,
            "simulated": passed / trials, "ci95": list(interval(passed, trials)), "passed": passed,
            "trials": trials, "seed": seed}


# --- the economy ----------------------------------------------------------------------------

def context(*, monsters=(), mode=None, strategies=(), budgets=(), days=30, opponents=None, trials=None,
            selection=None, quick=False, view=None, seed=None, objective=None, content=None, **loadout):
    """The valuation context of ``value`` and ``tune``: economy.toml's campaigns (or its
    ``view``, "fights") when no scenario is given, else the scenario's (``mode`` fight,
    skirmish, journey or stalkeriada; ``monsters``; a loadout given by the loadout
    options of ``loadout()``, or ``budgets`` a shopper buys kits for; the ``strategies``
    family; the ``opponents`` at a Stalkeriada table); campaigns are played for
    ``objective`` (economy.toml's ``[objectives]``; default the one it uses).

        >>> ctx = context(mode="fight", monsters=["bloodsucker"], budgets=[1500, 3000])
        >>> ctx.caption()
    """
    return _context_maker(load_content(content), monsters=monsters, mode=mode, strategies=strategies,
                          budgets=budgets, days=days, opponents=opponents, trials=trials, selection=selection,
                          quick=quick, view=view, seed=seed, objective=objective, loadout=loadout)(None, None)


def _context_maker(game, *, opponents, **options):
    from sim.economy.options import DEFAULT_OPPONENTS, context_maker
    from sim.options import check_seed

    check_seed(options["seed"])
    return context_maker(game, opponents=tuple(DEFAULT_OPPONENTS if opponents is None else opponents), **options)


def value(*, items=(), monsters=(), mode=None, strategies=(), budgets=(), days=30, opponents=None, trials=None,
          selection=None, quick=False, view=None, synergy=False, pairs=(), seed=None, objective=None,
          by_objective=False, shapley=False, threads=None, scheduler=None, workers=None, out=None, resume=False,
          content=None, on_progress=None, **loadout):
    """What each card (or only ``items``) is worth in G, per tier and overall, in the
    context ``context()`` gives for the same options (``zonesim value``). With a given
    loadout in a fight or skirmish, ``synergy`` (or ``pairs`` of changes) also measures
    pairs that interact; on campaigns, ``objective`` names what they are played for
    (economy.toml's ``[objectives]``) and ``by_objective`` adds every card's value
    under each of them; ``shapley`` adds each budget tier's kit shared among its cards by
    Shapley value (``sim.economy.shapley``). An ``EconomyResult``: ``table()``,
    ``tier_table()``, ``objective_table()``, ``tiers``, ``synergy``, ``shapley`` and ``to_json()``.

        >>> v = value(quick=True)
        >>> v.table().select("item", "price", "value_g", "value_g_ci95", "verdict")
        >>> value(mode="fight", monsters=["bloodsucker"], weapon="ak47", trials=40_000).tiers[0].rows
    """
    from dataclasses import replace

    from sim.content.loadout import Loadout
    from sim.economy.options import given_loadout, item_list, kit_store, on_campaigns
    from sim.economy.synergy import context_synergies
    from sim.errors import UsageProblem
    from sim.options import set_threads

    game = load_content(content)
    fought = mode is None or mode in MODES and MODES[mode].monsters
    if (synergy or pairs) and not (fought and given_loadout(loadout)):
        raise UsageProblem("--synergy and --pair: give a loadout (e.g. --weapon ak47) in --mode fight or skirmish")
    if by_objective and not on_campaigns(mode, view, monsters, strategies, loadout, budgets):
        raise UsageProblem("--by-objective: for campaigns (economy.toml's context or --mode journey); drop --view, "
                          "--monster or --mode, or --by-objective")
    if shapley and mode == "stalkeriada":
        raise UsageProblem("--shapley: for loadout kits (campaigns, fights, skirmishes); drop --mode stalkeriada "
                           "or --shapley")
    wanted = item_list(game, items, mode)
    options = dict(quick=quick, seed=seed, view=view, mode=mode, monsters=monsters, strategies=strategies,
                   opponents=opponents, days=days, budgets=budgets, trials=trials, selection=selection,
                   objective=objective)
    make = _context_maker(game, **options, loadout=loadout)
    set_threads(threads)
    store = kit_store("value", game, out, resume, items=wanted, loadout=loadout, **options)
    from sim.economy.value import value_cards
    from sim.run.distributed import cluster

    with cluster(scheduler, workers) as client:
        ctx = make(client, store)
        result = value_cards(ctx, items=wanted, on_progress=on_progress)
        if shapley:
            from sim.economy.shapley import kit_shares

            result = replace(result, shapley=kit_shares(result))
    if store is not None:
        store.flush()
    if synergy or pairs:
        result = replace(result, synergy=context_synergies(game, ctx, Loadout.from_options(game, **loadout), pairs))
    if by_objective:
        from sim.economy.value import values_by_objective

        result = values_by_objective(result, on_progress)
    if out is not None:
        from sim.report.files import write_values

        write_values(Path(out), game, result)
    return result


def _check_new_content(out):
    from sim.errors import UsageProblem

    if out is not None and (Path(out) / "content").exists():
        raise UsageProblem(f"--out: {Path(out) / 'content'} already exists (a finished tuning); give a new folder")


def tune(*, items=(), monsters=(), mode=None, strategies=(), budgets=(), days=30, opponents=None, trials=None,
         selection=None, rounds=20, damping=1.0, quick=False, seed=None, objective=None, threads=None, scheduler=None,
         workers=None, out=None, resume=False, content=None, on_progress=None, **loadout):
    """Every card's price moved toward its value in G (``zonesim tune``), in the context
    ``context()`` gives for the same options: at most ``rounds`` moves, each ``damping``
    of the way; without ``quick`` the prices settle on the quick counts first. ``out``
    also gets a copy of the content at the tuned prices. A ``TuneResult``.

        >>> t = tune(mode="fight", monsters=["bloodsucker"], budgets=[2500], trials=20_000, rounds=2)
        >>> t.prices, t.table(), t.changes()
    """
    from sim.economy.options import is_scenario, item_list, kit_store
    from sim.errors import UsageProblem
    from sim.options import set_threads

    game = load_content(content)
    _check_new_content(out)
    if not 0 < damping <= 1:
        raise UsageProblem(f"--damping: {damping}; give a fraction in (0, 1]")
    if rounds < 1:
        raise UsageProblem(f"--rounds: {rounds}; give at least 1")
    wanted = item_list(game, items, mode)
    options = dict(quick=quick, seed=seed, view=None, mode=mode, monsters=monsters, strategies=strategies,
                   opponents=opponents, days=days, budgets=budgets, trials=trials, selection=selection,
                   objective=objective)
    make = _context_maker(game, **options, loadout=loadout)
    coarse = (None if quick or is_scenario(mode, monsters, strategies, loadout, budgets) else
              _context_maker(game, **{**options, "quick": True}, loadout=loadout))
    set_threads(threads)
    store = kit_store("tune", game, out, resume, items=wanted, loadout=loadout, rounds=rounds, damping=damping,
                      **options)
    from sim.economy.tune import tune_prices
    from sim.run.distributed import cluster

    with cluster(scheduler, workers) as client:
        ctx = make(client, store)
        rough = coarse(client, store) if coarse is not None else None
        result = tune_prices(ctx, rounds=rounds, damping=damping, items=wanted, coarse=rough,
                             on_progress=on_progress)
    if store is not None:
        store.flush()
    if out is not None:
        from sim.report.files import write_tune

        write_tune(Path(out), game, result)
    return result


def pace(target: float, *, move="visa", strategies=(), opponents=None, trials=2_000, seed=None, mode=None,
         monsters=(), out=None, content=None, on_progress=None, **loadout):
    """The Stalkeriada visa (``move="visa"``) or loot (``"loot"``) prices at which a share
    ``target`` of games has a winner (``zonesim tune --objective target-finish=P``): the
    planners ``strategies`` (default cautious) and ``opponents`` play ``trials`` games per
    seat order and bisection step. A ``PaceTune``; ``out`` gets the paced content.

        >>> p = pace(0.5, move="loot", trials=500)
        >>> p.factor, p.prices, p.finished
    """
    from dataclasses import replace

    from sim.economy.options import DEFAULT_OPPONENTS, check_pace_scenario, economy_settings, pace_players
    from sim.economy.tune import tune_pace
    from sim.errors import UsageProblem
    from sim.options import check_fraction, check_seed

    check_seed(seed)
    game = load_content(content)
    _check_new_content(out)
    check_pace_scenario(mode, monsters, loadout)
    check_fraction("--objective", target, "target-finish=P with 0 < P < 1 (the share of games with a winner), "
                   "e.g. target-finish=0.5")
    if trials < 1:
        raise UsageProblem(f"--trials: {trials}; give at least 1 game")
    names = pace_players(strategies, tuple(DEFAULT_OPPONENTS if opponents is None else opponents))
    players = _planners(names)
    seed = economy_settings(game, False, seed).seed
    result = tune_pace(game, players, target=target, move=move, games=trials, seed=seed,
                       on_step=on_progress and (lambda k, n: on_progress(k, n, f"step {k}")))
    result = replace(result, players=tuple(names))
    if out is not None:
        from sim.report.files import write_pace

        write_pace(Path(out), game, result)
    return result


# --- what changed ---------------------------------------------------------------------------

def compare(base, new, *, quick=False, seed=None, only=(), threads=None, scheduler=None, workers=None, out=None,
            resume=False):
    """What moved between content folders (or report folders) ``base`` and ``new``, on the
    same dice (``zonesim compare``): the content diff and every headline number of the
    groups ``only`` (default all: fights, journeys, skirmish, stalkeriada, economy) with
    its paired 95% interval. A ``ContentComparison``.

        >>> c = compare(content_path(), "tougher", quick=True, only=["fights"])
        >>> c.content_diff, c.moved()
    """
    import time

    from sim.compare.diff import content_diff, resolve_content
    from sim.compare.metrics import ContentComparison, make_plan, measure, paired
    from sim.content import load_content as load
    from sim.options import check_out_folder, check_seed, run_params, set_threads
    from sim.run.chunks import checkpoints
    from sim.run.distributed import cluster

    check_seed(seed)
    base_dir, new_dir = resolve_content(base, "BASE"), resolve_content(new, "NEW")
    base_content, new_content = load(base_dir), load(new_dir)
    check_out_folder(out)
    plan = make_plan(base_content, quick=quick, seed=seed, **({"groups": tuple(only)} if only else {}))
    store = checkpoints(out, run_params("compare", new_content, base_hash=base_content.digest, quick=quick,
                                        seed=plan.seed, groups=list(plan.groups)), resume)
    set_threads(threads)
    start = time.perf_counter()
    diff = content_diff(base_dir, new_dir)
    with cluster(scheduler, workers) as client:
        rows = paired(measure(base_content, plan, client, store, "base"),
                      measure(new_content, plan, client, store, "new"))
    comparison = ContentComparison(base_dir, new_dir, diff, rows, plan, quick, time.perf_counter() - start)
    if out is not None:
        from sim.compare.files import write_comparison

        write_comparison(Path(out), comparison)
    return comparison


def sensitivity(*, metric="journey_finish", files=(), quick=False, seed=None, threads=None, out=None, resume=False,
                content=None, on_progress=None):
    """Which assumed [A] numbers of the content (of ``files`` only, if given) the metric
    hangs on (``zonesim sensitivity``): each swung to its low and high value alone, on
    the same dice, with paired 95% intervals, largest swing first. A ``Sensitivity``.

        >>> s = sensitivity(metric="fight_survival", files=["monsters.toml"], quick=True)
        >>> s.hangs_on()
    """
    import time

    from sim.compare.diff import resolve_content
    from sim.compare.metrics import make_plan
    from sim.compare.sensitivity import Sensitivity, assumed_parameters, check_metric
    from sim.compare.sensitivity import sensitivity as swing_each
    from sim.content import DEFAULT_DIR
    from sim.content import load_content as load
    from sim.options import check_out_folder, check_seed, run_params, set_threads
    from sim.run.chunks import checkpoints

    check_seed(seed)
    check_metric(metric)
    folder = resolve_content(content, "--content") if content is not None else DEFAULT_DIR
    game = load(folder)
    plan = make_plan(game, quick=quick, seed=seed, groups=("fights",))
    params = assumed_parameters(folder, list(files) or None)
    check_out_folder(out)
    store = checkpoints(out, run_params("sensitivity", game, metric=metric, files=",".join(files), quick=quick,
                                        seed=plan.seed), resume)
    set_threads(threads)
    start = time.perf_counter()
    base, rows = swing_each(folder, plan, metric, params, on_progress=on_progress, store=store)
    result = Sensitivity(metric, base.value, plan.seed, rows, folder, quick, time.perf_counter() - start)
    if out is not None:
        from sim.compare.files import write_sensitivity

        write_sensitivity(Path(out), result)
    return result


def balance(targets, *, content=None, budget=None, quick=False, seed=None, out=None, resume=False, threads=None,
            scheduler=None, workers=None, knobs="file", on_progress=None):
    """Proposed changes that bring the headline numbers into the bands of the balance
    file ``targets`` (``zonesim balance``): a ``BalanceResult`` with the baseline and
    the proposals, each target measured again at the full counts on fresh dice. With
    ``scheduler`` or ``workers`` the candidates of a batch are measured side by side
    on a Dask cluster, with the same proposals. ``knobs="auto"``: the 20 assumed
    numbers with the largest swing on the targets join the file's knobs.

        >>> b = balance("balance.toml", budget=30, quick=True)
        >>> b.proposals[0]["changes"]
    """
    from sim.balance.solve import solve
    from sim.balance.spec import load_balance
    from sim.compare.diff import resolve_content
    from sim.compare.metrics import make_plan, metric_names
    from sim.content import DEFAULT_DIR
    from sim.content import load_content as load
    from sim.errors import UsageProblem
    from sim.options import check_out_folder, check_seed, run_params, set_threads
    from sim.run.chunks import checkpoints

    check_seed(seed)
    if knobs not in ("file", "auto"):
        raise UsageProblem(f"--knobs: {knobs!r}; give file (the balance file's [[knob]] tables) or auto (those "
                           "and the assumed numbers that move the targets most)")
    folder = resolve_content(content, "--content") if content is not None else DEFAULT_DIR
    game = load(folder)
    spec = load_balance(Path(targets), folder, game, budget=budget, auto=knobs == "auto")
    seed = spec.seed if seed is None else seed
    search_plan = make_plan(game, quick=True, seed=seed, groups=spec.groups())
    full_plan = search_plan if quick else make_plan(game, quick=False, seed=seed, groups=spec.groups())
    matched = spec.expand(metric_names(game, search_plan))
    check_out_folder(out)
    set_threads(threads)
    store = checkpoints(out, run_params("balance", game, balance=Path(targets).read_text(encoding="utf-8"),
                                        budget=spec.budget, quick=quick, seed=seed, knobs=knobs), resume)
    storage = None if store is None else f"sqlite:///{store.folder / 'study.db'}"
    from dataclasses import replace

    from sim.run.distributed import cluster

    with cluster(scheduler, workers) as client:
        result = solve(folder, replace(spec, seed=seed), matched, search_plan, full_plan, storage, resume=resume,
                       quick=quick, on_progress=on_progress, client=client, auto=knobs == "auto")
    if out is not None:
        from sim.balance.files import write_balance

        write_balance(Path(out), result)
    return result


# --- intervals and charts -------------------------------------------------------------------

def _chart_function(module: str, name: str):
    """A drawing function of the chart modules, imported without changing the caller's matplotlib
    backend (they select the file-only Agg backend; a notebook keeps its inline one)."""
    from importlib import import_module

    import matplotlib

    backend = matplotlib.get_backend()
    draw = getattr(import_module(module), name)
    matplotlib.use(backend)
    return draw


def wilson(successes: int, trials: int) -> tuple:
    """The Wilson 95% interval of a proportion ``successes / trials``.

        >>> wilson(12, 500)
    """
    from sim.analysis.stats import wilson as interval

    return interval(successes, trials)


def value_chart(result, path) -> Path:
    """Every card's value in G beside its price, with intervals, as the PNG ``path``
    (``charts/value.png`` of ``zonesim value --out``).

        >>> value_chart(value(quick=True), "value.png")
    """
    economy_chart = _chart_function("sim.report.charts", "economy_chart")
    economy_chart(result.table(), f"Value of every card in G beside its price ({result.context.mode})",
                  result.caption(), path)
    return Path(path)


def compare_chart(comparison, path, *, title=None, top=25) -> Path:
    """Each headline number's difference NEW - BASE with its paired 95% interval, as the
    PNG ``path`` (``charts/compare.png`` of ``zonesim compare --out``); ``top`` per unit.

        >>> compare_chart(compare(content_path(), "tougher", quick=True, only=["fights"]), "compare.png")
    """
    diff_chart = _chart_function("sim.compare.charts", "diff_chart")
    title = title or f"NEW - BASE: {comparison.fields_changed()} of the content changed"
    diff_chart(comparison.rows, title, comparison.provenance(), path, top=top)
    return Path(path)


def tornado_chart(result, path, *, title=None, top=30) -> Path:
    """The effect of each assumed number at its low and high value, largest swing on top,
    as the PNG ``path`` (``charts/tornado.png`` of ``zonesim sensitivity --out``).

        >>> tornado_chart(sensitivity(metric="fight_survival", quick=True), "tornado.png", top=15)
    """
    draw = _chart_function("sim.compare.charts", "tornado_chart")
    title = title or f"What {result.metric} hangs on: the assumed numbers by swing"
    draw(result.parameters, result.metric, result.base_value, title, result.provenance(), path, top=top)
    return Path(path)


def zone_map(path, *, title="", heat=None, heat_label="", show_danger=False, provenance="", content=None) -> Path:
    """The journey map of a content set as the PNG ``path``: terrain, bases and sites, the
    danger levels (``show_danger``) and a ``heat`` grid ``[row, col]`` over it.

        >>> r = journey(weapon="ak47", trials=20_000)
        >>> zone_map("deaths.png", heat=r.deaths_at / r.trials, heat_label="deaths per campaign")
    """
    draw_map = _chart_function("sim.report.hexmap", "draw_map")
    draw_map(journey_content(content).hexmap, path, title=title, heat=heat, heat_label=heat_label,
             show_danger=show_danger, provenance=provenance)
    return Path(path)
