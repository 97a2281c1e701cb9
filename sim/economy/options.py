"""What ``value`` and ``tune`` are asked, checked before any kernel compiles: the
cards, the context (economy.toml's, one of its views, or a scenario's) and the
kit outcomes kept for a resumed run."""

from dataclasses import replace

import strategies
from sim.content.loadout import Loadout, check_monsters
from sim.errors import UsageProblem
from sim.modes import MODES
from sim.options import check_mode_trials, check_strategies, run_params

DEFAULT_OPPONENTS = ("greedy", "jelly", "rush")
"""The other players at the table of a Stalkeriada scenario."""


def given_loadout(loadout: dict) -> bool:
    """Whether any loadout option was given (the character counts when not the default novice)."""
    return any(v for k, v in loadout.items() if k != "character") or loadout.get("character", "novice") != "novice"


def is_scenario(mode, monsters, strategies, loadout: dict, budgets) -> bool:
    """Whether any scenario option was given: a mode, monsters, strategies, budgets or a loadout."""
    return bool(mode or monsters or strategies or budgets or given_loadout(loadout))


def on_campaigns(mode, view, monsters, strategies, loadout: dict, budgets) -> bool:
    """Whether these options value cards on journey campaigns: economy.toml's own context
    (no scenario option, no view) or a ``--mode journey`` scenario."""
    return view is None and (mode == "journey" or not is_scenario(mode, monsters, strategies, loadout, budgets))


def item_list(game, items, mode=None, option="--items"):
    """``items`` as a list of known card ids (None: every card); a Stalkeriada scenario's cards are its shop
    items; ``option`` names the option in the error."""
    from sim.economy.kits import SHOP_ITEMS

    known = [i for i, _ in SHOP_ITEMS] if mode in MODES and MODES[mode].table else list(game.items)
    unknown = [i for i in items if i not in known]
    if unknown:
        raise UsageProblem(f"{option}: unknown card '{unknown[0]}'; use one of: {', '.join(known)}")
    return list(items) or None


def economy_settings(game, quick, seed, objective=None):
    """economy.toml's settings at the full or ``quick`` counts, with ``seed`` (None: the file's) and
    ``objective`` (None: the one economy.toml uses)."""
    from sim.economy.context import load_context

    settings = load_context(game, quick=quick, objective=objective)
    return settings if seed is None else replace(settings, seed=seed)


def check_valued_strategies(strategies, mode: str, opponents) -> list:
    """The strategy options of a scenario: ``--strategy`` names (fights also take
    ``strongest``, campaigns ``tuned``) and, at a Stalkeriada table, 1 to 5 ``--opponents`` (2 to 6 seats);
    the opponents' names."""
    stand_ins = () if MODES[mode].table else MODES[mode].stand_ins()  # the tuned planner: zonesim stalkeriada only
    check_strategies("--strategy", strategies, mode, extra=stand_ins)
    if not MODES[mode].table:
        return []
    if not 1 <= len(opponents) <= 5:
        raise UsageProblem(f"--opponents: {len(opponents)} given; Stalkeriada seats 2 to 6 players")
    check_strategies("--opponents", opponents, mode)
    return list(opponents)


def context_maker(game, *, quick=False, seed=None, view=None, mode=None, monsters=(), strategies=(),
                  opponents=DEFAULT_OPPONENTS, days=30, budgets=(), trials=None, selection=None, loadout=None,
                  objective=None):
    """``make(client, store)``: the context of ``value`` / ``tune`` (economy.toml's, or its
    ``view``, with no scenario options, else the scenario's: ``sim.economy.context.scenario``),
    after every option is checked. ``loadout``: the loadout options, as ``Loadout.from_options`` takes them;
    ``objective``: what campaigns are played for (one of economy.toml's ``[objectives]``)."""
    from sim.economy.context import VIEWS, declared, scenario

    loadout = loadout or {}
    settings = economy_settings(game, quick, seed, objective)
    if objective is not None and not on_campaigns(mode, view, monsters, strategies, loadout, budgets):
        raise UsageProblem("--objective: for campaigns (economy.toml's context or --mode journey); drop --view or "
                          "--mode, or --objective")
    if not is_scenario(mode, monsters, strategies, loadout, budgets):
        if view is not None:
            if view not in VIEWS:
                raise UsageProblem(f"--view: '{view}'; use one of: {', '.join(VIEWS)} (or leave it out for the "
                                  "campaign)")
            check_strategies(f"{settings.source}: views.{view}.strategy", [settings.view(view).strategy], "fight")
        return lambda client, store: declared(game, settings, view=view, client=client, store=store)
    if quick or view:
        raise UsageProblem("--quick and --view: for economy.toml's context; drop the scenario options (--monster, "
                          "the loadout, --strategy, --mode, --budget) or these")
    mode = mode or "fight"
    valued = [name for name, m in MODES.items() if m.valuation]
    if mode not in valued:
        raise UsageProblem(f"--mode: '{mode}'; use {', '.join(valued[:-1])} or {valued[-1]}")
    if MODES[mode].monsters:
        check_monsters(game, monsters)
    if days < 1:
        raise UsageProblem(f"--days: {days}; give at least 1 day")
    if any(b < 1 for b in budgets):
        raise UsageProblem(f"--budget: {min(budgets)}; give a budget of at least 1 G")
    if trials is not None:
        check_mode_trials(mode, trials, days, option="--trials")
    from sim.economy.outcome import SELECTION_BATCHES

    if selection is not None and selection < 2 * SELECTION_BATCHES:
        raise UsageProblem(f"--selection: {selection}; give at least {2 * SELECTION_BATCHES} ({SELECTION_BATCHES} "
                          "paired batches of 2)")
    rivals = check_valued_strategies(strategies, mode, opponents)
    kit = scenario_loadout(game, loadout, mode)

    def make(client, store):
        players, others = table_players(mode, strategies, rivals)
        return scenario(game, settings, mode=mode, monsters=monsters, loadout=kit, strategies=players,
                        opponents=others, days=days, budgets=tuple(budgets), trials=trials, selection=selection,
                        seed=settings.seed, client=client, store=store)
    return make


def scenario_loadout(game, loadout: dict, mode):
    """The loadout options as a checked kit (None when none was given)."""
    if not given_loadout(loadout):
        return None
    if not MODES[mode].loadout:
        raise UsageProblem(f"the loadout options: not for --mode {mode} (a planner's kit is its shop items)")
    return Loadout.from_options(game, **loadout)


def table_players(mode, names, rivals):
    """The strategy family (at a Stalkeriada table: the planners, default cautious) and the opponents."""
    table = MODES[mode]
    if not table.table:
        return tuple(names), ()
    return (tuple(strategies.get(n, mode=mode) for n in names or [table.default_strategy]),
            tuple(strategies.get(n, mode=mode) for n in rivals))


def kit_store(command, game, out, resume, **options):
    """The kit outcomes of a run writing to ``out``, kept for ``--resume`` (None without ``--out``)."""
    from sim.economy.outcome import KitStore
    from sim.run.chunks import checkpoints

    store = checkpoints(out, run_params(command, game, **options), resume)
    return None if store is None else KitStore(store)


def check_pace_scenario(mode, monsters, loadout: dict):
    """``--objective target-finish`` is a Stalkeriada objective: no other mode, monsters or loadout."""
    if (mode or "stalkeriada") != "stalkeriada" or monsters or given_loadout(loadout):
        raise UsageProblem("--objective target-finish: a Stalkeriada objective; give --mode stalkeriada and no "
                          "--monster or loadout")


def pace_players(strategies, opponents) -> list:
    """The planners' names of ``--objective target-finish`` in seat order: the strategies
    (default cautious), then the opponents; 2 to 6 seats."""
    rivals = check_valued_strategies(strategies, "stalkeriada", opponents)
    names = [*(strategies or ["cautious"]), *rivals]
    if not 2 <= len(names) <= 6:
        raise UsageProblem(f"--opponents: {len(names) - 1} given; Stalkeriada seats 2 to 6 players")
    return names
