"""A content folder checked whole before any kernel compiles: every file through
its loader (maps, every mode's files through its ``Mode.loader``, the skirmish's
arena, economy and report), so bad content is refused in seconds, whatever the
run needs of it. It knows every loader, so it sits above them all, below the
commands."""

from pathlib import Path

_checked = set()  # digests of the content sets checked whole in this process


def checked_content(directory=None):
    """The content set in ``directory`` (default: the shipped one), checked whole
    once per state of its files (module doc)."""
    from sim.content import load_content

    game = load_content(directory)
    if game.digest in _checked:
        return game
    check_whole(game)
    _checked.add(game.digest)
    return game


def check_whole(game):
    """Every file of ``game``'s folder through its loader: maps, each mode's own files
    through its ``Mode.loader`` (``sim.modes``; the skirmish's arena too), economy and report."""
    from sim.content.maps import load_map, load_terrain
    from sim.content.skirmish import load_arena
    from sim.economy.context import ECONOMY_FILE, load_context
    from sim.modes import BASE_FILES, MODES
    from sim.report.study import REPORT_FILE, load_study

    folder = Path(game.directory)
    if (folder / "terrain.toml").is_file():
        terrain = load_terrain(folder)
        for path in sorted((folder / "maps").glob("*.toml")):
            load_map(path, terrain)
    tables = {mode.name: mode.load(game) for mode in MODES.values()
              if mode.loader and any((folder / name).is_file() for name in mode.content_files
                                     if name not in BASE_FILES and "*" not in name)}
    if "skirmish" in tables:
        load_arena(tables["skirmish"])
    checks = {ECONOMY_FILE: load_context, REPORT_FILE: lambda g: load_study(g, quick=False)}
    for name, check in checks.items():
        if (folder / name).is_file():
            check(game)
