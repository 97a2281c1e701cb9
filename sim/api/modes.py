"""The modes, one call each: fights, journeys, skirmishes, Stalkeriada games, loadout searches, routes and skill tests."""

from dataclasses import replace
from pathlib import Path

from sim.api.content import load_content

DEFAULT_PARTY = ("novice:ak47,vest,stimulator*2",)
SKIRMISH_MONSTERS = ("bloodsucker", "blind_dog")
STALKERIADA_PLAYERS = ("cautious", "greedy", "jelly", "rush")


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
              g_per_survival=None, **loadout):
    """How often does a stalker with this loadout survive a fight against ``monsters``
    (one id, or a list fought at once)? ``zonesim encounter``: ``trials`` fights (default
    1,000,000; with ``target_ci`` the cap, default 100,000,000, stopping once the 95%
    interval of ``p_survive`` is narrower), or ``exact`` (a Markov chain). ``loadout``:
    the loadout options of ``loadout()``. An ``Encounter``: a ``FightResult`` with the
    loadout, monsters, strategy and the assumed [A] values it rests on.

    ``strategy="optimal"`` with ``exact`` solves the optimal player against one
    monster (``sim.analysis.optimal``): survival alone, or with ``g_per_survival``
    a survival worth that many G against the explosives and stimulators he spends;
    each built-in strategy's survival beside his (``Encounter.optimal``).

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
    optimal = strategy == OPTIMAL
    if optimal and not exact:
        raise UsageProblem("--strategy optimal: the optimal player is solved exactly; add --exact")
    if g_per_survival is not None and not optimal:
        raise UsageProblem("--g-per-survival: the optimal player's objective; use it with --strategy optimal --exact")
    if g_per_survival is not None and not g_per_survival > 0:
        raise UsageProblem(f"--g-per-survival: {g_per_survival}; give the G one survival is worth, more than 0 "
                           "(e.g. 2000)")
    if not optimal:
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
    from sim.run.fight import exact_fight, optimal_fight, simulate_fight

    assumed = fight_assumed(game, {kit.character, *monsters, *kit.cards()})
    if optimal:
        result, best = optimal_fight(game, kit, monsters, g_weight=1 / g_per_survival if g_per_survival else 0.0)
        _started(on_start)  # the built-in strategies beside him are sampled
        fight = Encounter(**vars(result), loadout=kit, monsters=tuple(monsters), strategy=OPTIMAL, assumed=assumed,
                          optimal=_against_the_optimal(game, kit, monsters, best, g_per_survival, seed))
        record = {"name": OPTIMAL, "params": {"g_per_survival": g_per_survival}}
    else:
        strat = strategies.get(strategy)
        if exact:
            result = exact_fight(game, kit, monsters, strat)
        else:
            _started(on_start)
            result = simulate_fight(game, kit, monsters, strat, trials=n, seed=seed, chunk=chunk,
                                    target_ci=target_ci, on_progress=_reporting(on_progress), store=store)
        fight = Encounter(**vars(result), loadout=kit, monsters=tuple(monsters), strategy=strat.name, assumed=assumed)
        record = {"name": strat.name, "params": dict(zip(strat.param_names, strat.params.tolist()))}
    if out is not None:
        from sim.report.files import write_encounter

        write_encounter(Path(out), game, fight, record)
    return fight


OPTIMAL = "optimal"
GAP_FIGHTS = 200_000  # fights a built-in strategy is sampled with beside the optimal player, where not solved


def _against_the_optimal(game, kit, monsters, best, g_per_survival, seed) -> dict:
    """The optimal player's objective and choices, and each built-in fight strategy's
    survival beside his: exact where the chain solves it (fighter, runner without
    explosives), else ``GAP_FIGHTS`` sampled fights with a 95% interval."""
    import strategies
    from sim.run.fight import chain_solves, exact_fight, simulate_fight

    rows = {}
    for name, strat in strategies.built_in("fight").items():
        if chain_solves(name, kit):
            r, how = exact_fight(game, kit, monsters, strat), "exact"
        else:
            r, how = simulate_fight(game, kit, monsters, strat, trials=GAP_FIGHTS, seed=seed), \
                f"{GAP_FIGHTS:,} fights, seed {seed}"
        p = r.probabilities["p_survive"]
        rows[name] = {"p_survive": p, "ci95": list(r.ci95["p_survive"]), "gap": best.p_survive - p, "how": how}
    objective = "survival" if not g_per_survival else f"survival less the G spent at {g_per_survival:g} G a survival"
    return {"objective": objective, "g_per_survival": g_per_survival, "tries_escape": best.tries_escape,
            "g_spent": best.g_spent, "score": best.score, "states": best.states, "strategies": rows}


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
    from sim.modes import MODES
    from sim.options import check_mode_trials, check_seed, check_strategies, run_params, set_threads

    check_seed(seed)
    game = load_content(content)
    kit = Loadout.from_options(game, **loadout)
    if days < 1:
        raise UsageProblem(f"--days: {days}; give at least 1 day")
    check_mode_trials("journey", trials, days)
    check_strategies("--strategy", [strategy], "journey", extra=MODES["journey"].stand_ins())
    set_threads(threads)
    import strategies
    from sim.report.answers import Journey
    from sim.run.chunks import checkpoints
    from sim.run.distributed import cluster
    from sim.run.journey import simulate_journey
    from sim.run.player import TUNED, tuned_player

    if strategy == TUNED:  # searched for economy.toml's objective in use and journey.toml's goal
        from sim.content.journey import load_journey
        from sim.economy.context import load_context

        strat = tuned_player(game, kit, load_context(game).objective, goal=load_journey(game).settings["goal_orders"],
                             days=days, seed=seed).strategy
    else:
        strat = strategies.get(strategy, mode="journey")
    store = checkpoints(out, run_params("journey", game, loadout=kit, strategy=strat, days=days, trials=trials,
                                        seed=seed, chunk=chunk), resume)
    with cluster(scheduler, workers) as client:
        _started(on_start)
        result = simulate_journey(game, kit, strat, days=days, trials=trials, seed=seed, chunk=chunk,
                                  on_progress=_reporting(on_progress), client=client, store=store)
    campaigns = Journey(**vars(result), loadout=kit, strategy=strat.description if strategy == TUNED else strat.name)
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
    """The strategies of a Stalkeriada table (names or planners), 2 to 6, names checked;
    ``tuned`` seats need another strategy at the table to be tuned against."""
    from sim.errors import UsageProblem
    from sim.modes import MODES
    from sim.options import check_strategies
    from sim.run.player import TUNED

    names = [p if isinstance(p, str) else p.name for p in players]
    if not 2 <= len(names) <= 6:
        raise UsageProblem(f"{option}: {len(names)} given ('{','.join(names)}'); Stalkeriada seats 2 to 6 players")
    check_strategies(option, [p for p in players if isinstance(p, str)], "stalkeriada",
                     extra=MODES["stalkeriada"].stand_ins())
    if all(p == TUNED for p in players):
        raise UsageProblem(f"{option}: every seat is tuned; name at least one other strategy for him to be tuned "
                          "against, e.g. tuned,cautious,greedy")
    return list(players)


def _strong_seats(game, seats, seed, rollouts, horizon) -> list:
    """``seats`` with each ``tuned`` seat the planner tuned against the others
    (``sim.run.tuned_planner``) and the ``search`` seat the search player over the shipped
    settings (``strategies.stalkeriada.search_player``; ``rollouts``, ``horizon``: his
    budget, None: his defaults)."""
    import strategies
    from sim.modes import SEARCH
    from sim.run.player import TUNED
    from sim.run.tuned_planner import tuned_planner
    from strategies.stalkeriada import HORIZON, ROLLOUTS, SEARCH_MENU, search_player

    if SEARCH in seats:
        player = search_player(SEARCH_MENU, rollouts=rollouts or ROLLOUTS, horizon=horizon or HORIZON)
        seats = [player if p == SEARCH else p for p in seats]
    if TUNED not in seats:
        return seats
    field = [strategies.get(p, mode="stalkeriada") if isinstance(p, str) else p for p in seats if p != TUNED]
    planner = tuned_planner(game, field, seed=seed).strategy
    return [planner if p == TUNED else p for p in seats]


def _check_search(seats, rollouts, horizon):
    """The ``search`` seat's budget (each at least 1, None: his defaults) and the table he sits at."""
    from sim.errors import UsageProblem
    from sim.modes import SEARCH
    from sim.run.player import TUNED

    for option, value in (("--rollouts", rollouts), ("--horizon", horizon)):
        if value is not None and value < 1:
            raise UsageProblem(f"{option}: {value}; give at least 1 (the search player's "
                               f"{'rollouts per setting' if option == '--rollouts' else 'rounds per rollout'})")
        if value is not None and SEARCH not in seats:
            raise UsageProblem(f"{option}: no search seat at the table; add search to --players, e.g. "
                               "search,cautious,greedy")
    if SEARCH in seats and TUNED in seats:
        raise UsageProblem("--players: tuned and search at one table; the planner would be tuned on the search "
                           "player's games, each a search: seat one of them")


def _planner_store(out, resume, command, game, planners, **options):
    """The checkpoints of a Stalkeriada run, keyed by its options and each planner's parameters."""
    from sim.options import run_params
    from sim.run.chunks import checkpoints

    players = [[s.name, [float(x) for x in s.params]]
               + ([[list(m) for m in s.menu], s.rollouts, s.horizon, list(s.order_worth), s.switch_z] if s.menu else [])
               for s in planners]
    return checkpoints(out, run_params(command, game, players=players, **options), resume)


def stalkeriada(players=STALKERIADA_PLAYERS, *, games=20_000, seed=1, rotate_seats=False, chunk=1 << 16,
                threads=None, scheduler=None, workers=None, out=None, resume=False, content=None, on_start=None,
                on_progress=None, rollouts=None, horizon=None):
    """Whole Stalkeriada games between ``players`` in seat order (names, ``FILE.py:NAME``
    or ``planner(...)`` objects; ``zonesim stalkeriada``): win rates per strategy and
    seat, places, game length, deaths, purchases, with 95% intervals. ``rotate_seats``
    plays every seat order on the same dice. ``rollouts``, ``horizon``: the ``search``
    seat's budget (``strategies.stalkeriada.search_player``).

        >>> r = stalkeriada(["cautious", "rush"], games=2_000, rotate_seats=True)
        >>> r.win_rates(), r.length_summary()
    """
    from sim.options import check_mode_trials, check_seed, set_threads

    check_seed(seed)
    seats = _seats("--players", players)
    _check_search(seats, rollouts, horizon)
    check_mode_trials("stalkeriada", games * (len(seats) if rotate_seats else 1))
    game = load_content(content)
    set_threads(threads)
    from sim.run.distributed import cluster
    from sim.run.player import TUNED
    from sim.run.stalkeriada import simulate_stalkeriada, table_strategies

    planners = table_strategies(_strong_seats(game, seats, seed, rollouts, horizon))
    tuned = next((s.description for s, p in zip(planners, seats) if p == TUNED), "")
    searching = next((s.description for s in planners if s.menu), "")
    store = _planner_store(out, resume, "stalkeriada", game, planners, games=games, seed=seed,
                           rotate_seats=rotate_seats, chunk=chunk)
    with cluster(scheduler, workers) as client:
        _started(on_start)
        result = simulate_stalkeriada(game, planners, games=games, seed=seed, rotate_seats=rotate_seats, chunk=chunk,
                                      on_progress=_reporting(on_progress), client=client, store=store)
    result = replace(result, tuned=tuned, search=searching)
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
    from sim.modes import SEARCH
    from sim.run.player import TUNED

    check_seed(seed)
    names = list(dict.fromkeys(_seats("--players", players)))
    for special in (TUNED, SEARCH):
        if special in names:
            raise UsageProblem(f"--players: {special} is for one table (zonesim stalkeriada --players "
                               f"{special},...), not for a round robin; leave it out here")
    if not 2 <= set_size <= min(6, len(names)):
        raise UsageProblem(f"--set-size: {set_size}; use 2 to {min(6, len(names))} for {len(names)} strategies")
    check_mode_trials("stalkeriada", games)
    game = load_content(content)
    set_threads(threads)
    from math import comb

    from sim.report.answers import StalkeriadaMatrix
    from sim.run.distributed import cluster
    from sim.run.stalkeriada import round_robin, table_strategies

    store = _planner_store(out, resume, "stalkeriada-matrix", game, table_strategies(names), set_size=set_size,
                           games=games, seed=seed, chunk=chunk)
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
