"""Content, loadouts and strategies: load, copy and edit a content folder, check it, build a loadout, name a strategy."""

from pathlib import Path


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


HAND_WRITTEN = "nothing: a hand-written rule with fixed parameters"


def list_strategies() -> dict:
    """Every mode's built-in strategies from the registry (``sim.modes``), by family: the
    first mode that plays it names it (``fight`` also plays duels). Each strategy with its
    description, parameters and what it optimises (``zonesim strategies --json``); the skirmish list adds the
    monsters' ``beast``, the journey and Stalkeriada lists their ``tuned`` player
    (``sim.run.player``, ``sim.run.tuned_planner``) and Stalkeriada's ``search`` player
    (``strategies.stalkeriada.search_player``), with what each optimises.

        >>> [s["name"] for s in list_strategies()["journey"]]
    """
    import strategies
    from sim.modes import MODES, resolve
    from strategies.skirmish import BEAST

    listed, seen = {}, set()
    for name, mode in MODES.items():
        if id(mode.family) in seen or not mode.family.built_in:
            continue
        seen.add(id(mode.family))
        extra = (BEAST,) if name == "skirmish" else ()
        listed[name] = [{"name": s.name, "description": s.description, "params": _strategy_params(s),
                         "optimises": HAND_WRITTEN} for s in (*strategies.built_in(name).values(), *extra)]
        listed[name] += [resolve(player)() for player in (mode.tuned, mode.search) if player]
    return listed


def _strategy_params(strategy) -> dict:
    """A strategy's parameters by name: its numeric parameter vector, or its settings
    (a dataclass's fields other than its name, description and functions)."""
    import dataclasses

    if hasattr(strategy, "param_names"):
        return dict(zip(strategy.param_names, map(float, strategy.params)))
    if not dataclasses.is_dataclass(strategy):
        return {}
    settings = {f.name: getattr(strategy, f.name) for f in dataclasses.fields(strategy)
                if f.name not in ("name", "description")}
    return {name: list(value) if isinstance(value, tuple) else value for name, value in settings.items()
            if isinstance(value, (bool, int, float, str)) or (isinstance(value, tuple) and value)}


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
