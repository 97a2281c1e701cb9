"""The game's five modes, one ``Mode`` record each: ``MODES[name]``.

A record says what a mode reads (content files and their loader), what runs it
(its run function, the chunk work of ``sim.run.chunks`` and the kernel entry
points), who plays it (its strategy family, which the ``strategies`` package serves),
what it reports (the names of its measures, and its headline numbers: the group
that ``zonesim compare``, the explorer and the report measure), how the rules
are read a second time (the plain-Python function of ``sim.reference``), how
fast it runs (the speed the command line checks trial counts against) and the
options of its command, if it has one.

Code is named as ``"module:attribute"`` and imported on use, so reading the
table (names, speeds, options, built-in strategy names) compiles no kernel.
A mode defined elsewhere (a test's toy game) joins with ``register``; an installed
package declares its modes as entry points of the group ``zonesim.modes`` (each a
``Mode``), registered when this module is first imported.
"""

from dataclasses import dataclass
from importlib import import_module

BASE_FILES = ("rules.toml", "characters.toml", "items.toml", "monsters.toml")
"""The content files every mode's stalkers, items and monsters come from (``sim.content.schema.FILES``)."""
SEARCH = "search"
"""The seat name of a mode's search player (``Mode.search``)."""


def resolve(target: str):
    """The object a ``"module:attribute"`` name points at."""
    module, _, attribute = target.partition(":")
    return getattr(import_module(module), attribute)


@dataclass(frozen=True)
class Family:
    """The strategies of a mode: their type and the built-in ones, by name
    (``"module:ATTRIBUTE"``, in listing order)."""

    kind: str
    built_in: dict


@dataclass(frozen=True)
class Mode:
    """One mode of the game and everything the package knows about running it."""

    name: str
    description: str
    content_files: tuple
    """The files of a content folder the mode reads."""
    loader: str
    """``"module:function"``: ``Content ->`` the mode's own tables, checked; empty: the
    base content (``BASE_FILES``, a ``Content``) is all the mode reads."""
    simulate: str
    """``"module:function"``: the run function (trials in chunks, results with intervals); a mode without
    ``call`` has ``simulate(content, strategy, *, trials, seed, store=None) -> {measure: value}``, with
    ``"ci95": {measure: (lo, hi)}`` for the measures it gives an interval (``sim.api.run``)."""
    work: str
    """``"module:class"``: one chunk of trials, ``work(chunk) -> {name: ndarray}`` (``sim.run.chunks``)."""
    kernels: tuple
    """``"module:entry point"`` of each numba kernel the mode runs."""
    measures: tuple
    """The names of the headline numbers it reports."""
    reference: str
    """``"module:function"``: the plain-Python reading of the same rules (``sim.reference``)."""
    speed: float
    """Trials per second on 2 cores, the fastest measured (README "Performance"); a count
    that would take more than a day at it is refused."""
    trial: str
    """What one trial is called in messages (``fight``, ``campaign``, ``skirmish``, ``game``)."""
    family: Family
    """Its strategies (``strategies.get(name, mode=...)`` reads them here)."""
    command: str = ""
    """The ``zonesim`` command that runs it (empty: ``zonesim play MODE``)."""
    call: str = ""
    """``"module:function"``: the ``sim.api`` call of its command, which ``sim.api.run`` calls (empty:
    ``sim.api.run`` plays ``simulate`` itself)."""
    options: tuple = ()
    """The options of ``command`` that set up its scenario."""
    headline: str = ""
    """``"module:Class"``: its headline numbers, a ``sim.run.headline.Group`` that ``zonesim
    compare``, ``sensitivity``, ``balance``, the explorer and the report measure; empty: none
    of its own (a duel's are the fight's)."""
    report_steps: bool = False
    """The report (``sim.report.study.STEPS``) has steps written for it; otherwise it shows
    the mode's headline numbers in a section of their own."""
    trials_option: str = "--trials"
    strategy_option: str = "--strategy"
    default_strategy: str = ""
    speed_per_day: bool = False
    """The speed counts campaign days (a journey's speed falls with its length)."""
    valuation: str = ""
    """``"module:function"`` building its scenario context of ``zonesim value`` / ``tune``
    (``sim.economy.context``); empty: its items are not valued in this mode."""
    valuation_trials: int = 0
    """The default valuation trials per kit of that context."""
    monsters: bool = False
    """Its scenario names the monsters fought (``--monster``)."""
    loadout: bool = True
    """A stalker's loadout plays it (the loadout options); else the players buy from the mode's own shop."""
    strongest: bool = False
    """``strongest`` (the search over its strategies, ``sim.run.search``) may stand for a strategy."""
    tuned: str = ""
    """``"module:function"``: the listing of the player ``tuned`` (searched for the scenario:
    ``sim.run.player``, ``sim.run.tuned_planner``), who may stand for a strategy; empty: none."""
    search: str = ""
    """``"module:function"``: the listing of the player ``search`` (a search over the
    family's settings before each turn: ``strategies.stalkeriada.search_player``), who
    may take a seat; empty: none."""
    table: bool = False
    """Played at a table of seats, each with a strategy (``--opponents`` for the other seats)."""

    def trials_per_s(self, days: int = 1) -> float:
        """Trials per second; a journey's for campaigns of ``days`` days."""
        return self.speed / days if self.speed_per_day else self.speed

    def strategy_names(self) -> tuple:
        """The built-in strategies' names, without compiling them."""
        return tuple(self.family.built_in)

    def stand_ins(self) -> tuple:
        """The names that may stand for a strategy besides the built-in ones (``strongest``, ``tuned``, ``search``)."""
        return ("strongest",) * self.strongest + ("tuned",) * bool(self.tuned) + (SEARCH,) * bool(self.search)

    def load(self, content):
        """The mode's tables of ``content``, checked (one-line ``ContentError`` otherwise)."""
        return resolve(self.loader)(content) if self.loader else content

    def run(self, *args, **kwargs):
        """Its run function called with these arguments."""
        return resolve(self.simulate)(*args, **kwargs)

    def entry_points(self) -> tuple:
        """Its kernel entry points (each compiles at its first call)."""
        return tuple(resolve(k) for k in self.kernels)


FIGHT_STRATEGIES = Family("strategies.base:Strategy", {
    "fighter": "strategies.basic:FIGHTER", "runner": "strategies.basic:RUNNER",
    "tactician": "strategies.tactician:TACTICIAN"})
"""A fight's strategies, and a duel's (a duel is a fight)."""

FIGHT_OPTIONS = ("--monster", "--hp", "--strategy", "--trials", "--target-ci", "--exact", "--character", "--weapon",
                 "--mods", "--head", "--body", "--stims", "--medkits", "--explosives", "--escape-item",
                 "--reputation")

MODES = {mode.name: mode for mode in (
    Mode(
        name="fight", description="one stalker against a group of monsters, fought at once "
                                  "(docs/rules/fight-resolution.md)",
        content_files=BASE_FILES, loader="",
        simulate="sim.run.fight:simulate_fight", work="sim.run.fight:FightWork",
        kernels=("sim.kernels.fight:fight_trials",),
        measures=("p_survive", "p_win", "p_draw", "p_escape", "p_death", "mean_rounds", "mean_hp_left"),
        reference="sim.reference.fight:run_fights", speed=60_000_000, trial="fight", command="encounter",
        call="sim.api.modes:encounter",
        options=FIGHT_OPTIONS, family=FIGHT_STRATEGIES, default_strategy="fighter",
        valuation="sim.economy.context:fight_scenario", valuation_trials=200_000, monsters=True,
        strongest=True, headline="sim.run.headline:Fights", report_steps=True),
    Mode(
        name="duel", description="a fight against one monster: the kernel's duel rounds, and the exact solver",
        content_files=BASE_FILES, loader="",
        simulate="sim.run.fight:simulate_fight", work="sim.run.fight:FightWork",
        kernels=("sim.kernels.fight:fight_trials",),
        measures=("p_survive", "p_win", "p_draw", "p_escape", "p_death", "mean_rounds", "mean_hp_left"),
        reference="sim.reference.fight:run_fights", speed=60_000_000, trial="fight", command="encounter",
        call="sim.api.modes:encounter",
        options=FIGHT_OPTIONS, family=FIGHT_STRATEGIES, default_strategy="fighter", monsters=True,
        report_steps=True),
    Mode(
        name="journey", description="campaign days on the hex map: walking, events, fights, orders "
                               "(docs/rules/journey-resolution.md)",
        content_files=(*BASE_FILES, "journey.toml", "terrain.toml", "maps/*.toml"),
        loader="sim.content.journey:load_journey",
        simulate="sim.run.journey:simulate_journey", work="sim.run.journey:JourneyWork",
        kernels=("sim.kernels.journey:run_journeys", "sim.kernels.journey:campaign_outcomes"),
        measures=("p_complete", "p_first_order", "p_no_death", "mean_days_to_complete", "mean_money",
                  "mean_deaths"),
        reference="sim.reference.journey:run_journeys", speed=9_000_000, speed_per_day=True, trial="campaign",
        command="journey", call="sim.api.modes:journey",
        options=("--strategy", "--days", "--trials", "--character", "--weapon", "--mods", "--head", "--body",
                 "--stims", "--medkits", "--explosives", "--escape-item", "--reputation", "--movement",
                 "--avoidance", "--one-shot"),
        family=Family("strategies.journey:JourneyStrategy", {
            "cautious": "strategies.journey:CAUTIOUS", "greedy": "strategies.journey:GREEDY",
            "tactician": "strategies.journey:TACTICIAN", "frugal": "strategies.journey:FRUGAL",
            "hunter": "strategies.journey:HUNTER", "evader": "strategies.journey:EVADER"}),
        default_strategy="greedy", tuned="sim.run.player:listing", valuation="sim.economy.context:journey_scenario",
        valuation_trials=20_000, headline="sim.run.headline:Journeys", report_steps=True),
    Mode(
        name="skirmish", description="a party against monsters on a hex arena, with action points "
                                "(docs/rules/skirmish-resolution.md)",
        content_files=(*BASE_FILES, "skirmish.toml"), loader="sim.content.skirmish:load_skirmish",
        simulate="sim.run.skirmish:simulate_skirmish", work="sim.run.skirmish:SkirmishWork",
        kernels=("sim.kernels.skirmish:run_skirmishes", "sim.kernels.skirmish:skirmish_records",
                 "sim.kernels.skirmish:skirmish_survival"),
        measures=("p_win", "p_loss", "p_draw", "p_survive"),
        reference="sim.reference.skirmish:run", speed=200_000, trial="skirmish", command="skirmish",
        call="sim.api.modes:skirmish",
        options=("--party", "--monster", "--strategy", "--arena", "--arena-size", "--distance", "--trials",
                 "--replay"),
        family=Family("strategies.skirmish:SkirmishStrategy", {
            "hold": "strategies.skirmish:HOLD", "kite": "strategies.skirmish:KITE",
            "rush": "strategies.skirmish:RUSH"}),
        default_strategy="hold", valuation="sim.economy.context:skirmish_scenario", valuation_trials=20_000,
        monsters=True, headline="sim.run.headline:Skirmishes", report_steps=True),
    Mode(
        name="stalkeriada", description="the board game for 2-6 seats: City, fence, tile Zone, exit visa "
                                   "(docs/rules/stalkeriada-resolution.md)",
        content_files=("stalkeriada.toml",), loader="sim.content.stalkeriada:load_stalkeriada",
        simulate="sim.run.stalkeriada:simulate_stalkeriada", work="sim.run.stalkeriada:StalkeriadaWork",
        kernels=("sim.kernels.stalkeriada:run_games", "sim.kernels.stalkeriada:game_records"),
        measures=("win_rate", "mean_place", "p_last", "length"),
        reference="sim.reference.stalkeriada:run_games", speed=4_000, trial="game", command="stalkeriada",
        call="sim.api.modes:stalkeriada",
        options=("--players", "--games", "--rotate-seats"), trials_option="--games", strategy_option="--players",
        family=Family("strategies.stalkeriada:StalkeriadaStrategy", {
            "cautious": "strategies.stalkeriada:CAUTIOUS", "greedy": "strategies.stalkeriada:GREEDY",
            "jelly": "strategies.stalkeriada:JELLY", "rush": "strategies.stalkeriada:RUSH"}),
        default_strategy="cautious", valuation="sim.economy.context:table_scenario", valuation_trials=2_000,
        tuned="sim.run.tuned_planner:listing", search="strategies.stalkeriada:search_listing", loadout=False,
        table=True, headline="sim.run.headline:Stalkeriada", report_steps=True),
)}
"""Every mode by name."""


def register(mode: Mode) -> Mode:
    """Add ``mode`` to ``MODES`` (a mode defined outside this table); a name taken by another mode is refused."""
    if MODES.get(mode.name, mode) != mode:
        raise ValueError(f"a mode named '{mode.name}' is registered already")
    MODES[mode.name] = mode
    return mode


def headline_groups() -> list:
    """The ``sim.run.headline.Group`` class of every mode with headline numbers of its own, in
    registry order (each imported on use; a mode registered later joins)."""
    return [resolve(mode.headline) for mode in MODES.values() if mode.headline]


PLUGIN_GROUP = "zonesim.modes"


def register_plugins() -> list:
    """Register the modes installed packages declare (entry points of ``PLUGIN_GROUP``, each a
    ``Mode``); returns their names. A plug-in that fails to load is reported in one line."""
    from importlib.metadata import entry_points

    from sim.errors import ZonesimError

    names = []
    for entry in entry_points(group=PLUGIN_GROUP):
        try:
            mode = entry.load()
        except Exception as exc:  # a plug-in may fail in any way: name it in one line
            raise ZonesimError(f"mode plug-in '{entry.name}' ({entry.value}): {type(exc).__name__}: {exc}") from exc
        if not isinstance(mode, Mode):
            raise ZonesimError(f"mode plug-in '{entry.name}' ({entry.value}) is not a sim.modes.Mode")
        names.append(register(mode).name)
    return names


register_plugins()
