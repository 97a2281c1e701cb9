"""The economy: what every card is worth in G in a context, prices tuned to values, the Stalkeriada pace."""

from pathlib import Path

from sim.api.content import load_content
from sim.modes import MODES


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
          by_objective=False, shapley=False, weights=None, threads=None, scheduler=None, workers=None, out=None,
          resume=False, content=None, on_progress=None, **loadout):
    """What each card (or only ``items``) is worth in G, per tier and overall, in the
    context ``context()`` gives for the same options (``zonesim value``). With a given
    loadout in a fight or skirmish, ``synergy`` (or ``pairs`` of changes) also measures
    pairs that interact; on campaigns, ``objective`` names what they are played for
    (economy.toml's ``[objectives]``) and ``by_objective`` adds every card's value
    under each of them; ``shapley`` adds each budget tier's kit shared among its cards by
    Shapley value (``sim.economy.shapley``); ``weights``: ``{budget in G or tier label: weight}``
    of the tiers in the overall value (default economy.toml's ``[prices] weights``, else alike).
    An ``EconomyResult``: ``table()``,
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
    make = _weighted(_context_maker(game, **options, loadout=loadout), weights)
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


def restricted(ban, *, mode=None, monsters=(), strategies=(), budgets=(), days=30, opponents=None, trials=None,
               selection=None, quick=False, seed=None, objective=None, threads=None, content=None, on_progress=None,
               **loadout):
    """What the game loses when the player may not buy the cards ``ban`` (``zonesim restricted``,
    ``sim.economy.restricted``): at each budget tier of economy.toml's campaigns (or ``mode``
    journey's, with the other options of ``value``) the kit bought from every card against the
    kit bought without them, each played by its strongest strategy, on the same campaigns; at a
    Stalkeriada table (``mode="stalkeriada"``) each planner with the shop item struck from his
    list against the same planner allowed it. In one fight (``mode="fight"``, one of
    ``monsters``, a loadout given by the loadout options of ``loadout()``) the optimal player
    with the loadout against the optimal player without the banned cards, or without the
    escape (``"escape"``), exact. A ``RestrictedResult``: ``tiers``, ``to_json()``.

        >>> r = restricted(["glonass"], quick=True)
        >>> [(t.label, t.loss_g, t.value_g["glonass"]) for t in r.tiers]
        >>> restricted(["escape"], mode="fight", monsters=["chimera"], weapon="ak47").tiers[0].loss
    """
    from sim.content.loadout import Loadout
    from sim.economy.restricted import ban_problem, fight_ban_problem, fight_restricted, restricted_play
    from sim.errors import UsageProblem
    from sim.options import set_threads

    if mode not in (None, "journey", "stalkeriada", "fight"):
        raise UsageProblem(f"--mode: {mode}; restricted play is measured on campaigns (economy.toml's, or --mode "
                           "journey), at a Stalkeriada table (--mode stalkeriada) and in one fight (--mode fight)")
    game = load_content(content)
    kit = Loadout.from_options(game, **loadout)
    if mode == "fight":
        if len(monsters) != 1:
            raise UsageProblem("--monster: give one monster; the optimal player is solved against one")
        problem = fight_ban_problem(kit, list(ban))
        if problem:
            raise UsageProblem(problem)
        return fight_restricted(game, kit, list(monsters), list(dict.fromkeys(ban)))
    if monsters or kit != Loadout():
        raise UsageProblem("--monster and the loadout options: for --mode fight; a campaign's or a table's buyer "
                           "shops for his own kit")
    ctx = _context_maker(game, quick=quick, seed=seed, view=None, mode=mode, monsters=(), strategies=strategies,
                         opponents=opponents, days=days, budgets=budgets, trials=trials, selection=selection,
                         objective=objective, loadout={})(None, None)
    problem = ban_problem(ctx, list(ban))
    if problem:
        raise UsageProblem(problem)
    set_threads(threads)
    return restricted_play(ctx, ban, on_progress)


def economy_check(result, again=None) -> list:
    """The economy's sanity checks (``sim.economy.sanity``) on a ``value`` result, and against
    ``again`` (the same valuation at another seed) if given: one line per broken property.

        >>> v, w = value(quick=True), value(quick=True, seed=2)
        >>> economy_check(v, w)   # [] when twins, dominance, verdicts and seeds all hold
    """
    from sim.economy.sanity import problems, seed_problems

    ctx = result.context
    found = problems(ctx.content, result.items, ctx.price_step)
    return found + ([] if again is None else seed_problems(result.items, again.items))


def _check_new_content(out):
    from sim.errors import UsageProblem

    if out is not None and (Path(out) / "content").exists():
        raise UsageProblem(f"--out: {Path(out) / 'content'} already exists (a finished tuning); give a new folder")


def _weighted(make, weights):
    """``make`` giving contexts with the tier ``weights`` (None: as they are), checked now."""
    if weights is None:
        return make
    make(None, None).weighted(weights, "--weights")
    return lambda client, store: make(client, store).weighted(weights, "--weights")


def tune(*, items=(), monsters=(), mode=None, strategies=(), budgets=(), days=30, opponents=None, trials=None,
         selection=None, rounds=12, damping=1.0, lock=(), weights=None, quick=False, seed=None, objective=None,
         threads=None, scheduler=None, workers=None, out=None, resume=False, content=None, on_progress=None,
         **loadout):
    """Every card's price moved toward its value in G (``zonesim tune``), in the context
    ``context()`` gives for the same options: at most ``rounds`` moves, each ``damping``
    of the way; without ``quick`` the prices settle on the quick counts first. ``lock``:
    cards held at their prices, beside economy.toml's ``[prices] locked``; ``weights``:
    ``{budget in G or tier label: weight}`` of the one price over the tiers (default economy.toml's
    ``[prices] weights``, else alike). ``out``
    also gets a copy of the content at the tuned prices. A ``TuneResult``.

        >>> t = tune(mode="fight", monsters=["bloodsucker"], budgets=[2500], trials=20_000, rounds=2)
        >>> t.prices, t.table(), t.changes()
    """
    from sim.economy.options import economy_settings, is_scenario, item_list, kit_store
    from sim.errors import UsageProblem
    from sim.options import set_threads

    game = load_content(content)
    _check_new_content(out)
    if not 0 < damping <= 1:
        raise UsageProblem(f"--damping: {damping}; give a fraction in (0, 1]")
    if rounds < 1:
        raise UsageProblem(f"--rounds: {rounds}; give at least 1")
    wanted = item_list(game, items, mode)
    item_list(game, lock, mode, "--lock")
    options = dict(quick=quick, seed=seed, view=None, mode=mode, monsters=monsters, strategies=strategies,
                   opponents=opponents, days=days, budgets=budgets, trials=trials, selection=selection,
                   objective=objective)
    make = _weighted(_context_maker(game, **options, loadout=loadout), weights)
    coarse = (None if quick or is_scenario(mode, monsters, strategies, loadout, budgets) else
              _weighted(_context_maker(game, **{**options, "quick": True}, loadout=loadout), weights))
    set_threads(threads)
    store = kit_store("tune", game, out, resume, items=wanted, loadout=loadout, rounds=rounds, damping=damping,
                      **options)
    from sim.economy.tune import tune_prices
    from sim.run.distributed import cluster

    with cluster(scheduler, workers) as client:
        ctx = make(client, store)
        rough = coarse(client, store) if coarse is not None else None
        priced = set(ctx.cards())  # economy.toml's locks of the cards this context prices, and --lock's
        locked = (*(c for c in economy_settings(game, quick, None).locked if c in priced), *lock)
        result = tune_prices(ctx, rounds=rounds, damping=damping, items=wanted, coarse=rough, locked=locked,
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
    from sim.run.stalkeriada import table_strategies

    check_seed(seed)
    game = load_content(content)
    _check_new_content(out)
    check_pace_scenario(mode, monsters, loadout)
    check_fraction("--objective", target, "target-finish=P with 0 < P < 1 (the share of games with a winner), "
                   "e.g. target-finish=0.5")
    if trials < 1:
        raise UsageProblem(f"--trials: {trials}; give at least 1 game")
    names = pace_players(strategies, tuple(DEFAULT_OPPONENTS if opponents is None else opponents))
    players = table_strategies(names)
    seed = economy_settings(game, False, seed).seed
    result = tune_pace(game, players, target=target, move=move, games=trials, seed=seed,
                       on_step=on_progress and (lambda k, n: on_progress(k, n, f"step {k}")))
    result = replace(result, players=tuple(names))
    if out is not None:
        from sim.report.files import write_pace

        write_pace(Path(out), game, result)
    return result
