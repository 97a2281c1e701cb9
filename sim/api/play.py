"""Any registered mode by name: ``run(mode, ...)``, the one call behind ``zonesim play``."""

from dataclasses import dataclass, field
from pathlib import Path

from sim.api.content import load_content


@dataclass(frozen=True)
class Played:
    """The numbers of one run of a mode and their context: mode, strategy, trials, seed, content."""

    mode: str
    strategy: str
    trials: int
    seed: int
    content: str
    content_hash: str
    measures: dict
    """``{measure: value}``, in the order the mode's run function returns them."""
    ci95: dict = field(default_factory=dict)
    """``{measure: (lo, hi)}`` of the measures the run function gives an interval."""

    def summary(self) -> dict:
        """The run as one JSON object: its context, each measure and its interval (null: none given)."""
        return {"mode": self.mode, "strategy": self.strategy, "trials": self.trials, "seed": self.seed,
                "content": self.content, "content_hash": self.content_hash,
                "measures": {name: {"value": value, "ci95": list(self.ci95[name]) if name in self.ci95 else None}
                             for name, value in self.measures.items()}}

    def to_frame(self):
        """One row per measure: ``metric``, ``value``, ``ci_lo``, ``ci_hi`` (null: no interval given)."""
        import polars as pl

        from sim.report.files import INTERVAL_SCHEMA

        rows = [(name, float(value), *self.ci95.get(name, (None, None))) for name, value in self.measures.items()]
        return pl.DataFrame(rows, schema=INTERVAL_SCHEMA, orient="row")


def _mode_record(name: str):
    """The ``Mode`` of ``MODES`` named ``name``; an unknown name is refused with the registered ones."""
    from sim.errors import UsageProblem
    from sim.modes import MODES

    if name not in MODES:
        raise UsageProblem(f"MODE: unknown mode '{name}'; registered: {', '.join(MODES)}")
    return MODES[name]


def run(mode: str, *, strategy=None, trials=None, seed=1, content=None, threads=None, out=None, resume=False,
        on_start=None, **scenario):
    """Play ``mode`` (a name of ``sim.modes.MODES``, a registered or plug-in mode included).

    A mode with a command of its own is run by its call (``encounter``, ``journey``, ``skirmish``,
    ``stalkeriada``), ``scenario`` holding that call's options, ``strategy`` and ``trials`` its
    ``Mode.strategy_option`` and ``Mode.trials_option``. Any other mode is played on its run function,
    ``simulate(content, strategy, *, trials, seed, store)``, by ``strategy`` (default: the mode's),
    ``trials`` (default 100,000) games and ``seed``, with checkpoints and ``manifest.json`` under ``out``;
    it returns a ``Played``. Bad input is one ``ZonesimError`` line before anything runs.

        >>> run("journey", strategy="cautious", trials=20_000, weapon="ak47").probabilities["p_complete"]
        >>> run("toy", strategy="bold", trials=50_000).measures["p_win"]   # a mode registered by a test
    """
    record = _mode_record(mode)
    if record.call:
        options = dict(scenario, seed=seed, content=content, threads=threads, out=out, resume=resume,
                       on_start=on_start)
        for option, value in ((record.strategy_option, strategy), (record.trials_option, trials)):
            if value is not None:
                options[option.removeprefix("--").replace("-", "_")] = value
        from sim.modes import resolve

        return resolve(record.call)(**options)
    return _played(record, strategy or record.default_strategy, 100_000 if trials is None else trials, seed, content,
                   threads, out, resume, on_start, scenario)


def _played(record, strategy, trials, seed, content, threads, out, resume, on_start, scenario) -> Played:
    """``run`` of a mode without a call of its own: checked, loaded, run with checkpoints, written."""
    from sim.errors import UsageProblem
    from sim.options import check_mode_trials, check_out_folder, check_seed, check_strategies, run_params, set_threads

    if scenario:
        raise UsageProblem(f"{', '.join(sorted(scenario))}: mode '{record.name}' takes no scenario options; it "
                           "plays on --strategy, --trials and --seed")
    check_seed(seed)
    check_mode_trials(record.name, trials)
    check_strategies("--strategy", [strategy], record.name)
    check_out_folder(None if out is None else Path(out))
    game = load_content(content)
    record.load(game)
    set_threads(threads)
    import strategies
    from sim.run.chunks import checkpoints

    player = strategies.get(strategy, mode=record.name)
    store = checkpoints(out, run_params(f"play {record.name}", game, strategy=strategy, trials=trials, seed=seed),
                        resume)
    if on_start is not None:
        on_start()
    numbers = dict(record.run(game, player, trials=trials, seed=seed, store=store))
    intervals = numbers.pop("ci95", {})
    played = Played(record.name, player.name, trials, seed, str(game.directory), game.digest, numbers,
                    {name: tuple(interval) for name, interval in intervals.items()})
    if out is not None:
        _write_played(Path(out), played)
    return played


def _write_played(out: Path, played: Played):
    """``{mode}.parquet`` (a row per measure) and ``manifest.json`` (the command, context and numbers)."""
    from sim.run.results import command_line, manifest, write_json, write_parquet

    table = f"{played.mode}.parquet"
    write_parquet(out / table, played.to_frame())
    write_json(out / "manifest.json", manifest(
        command_line(), seed=played.seed, trials=played.trials, content_dir=played.content,
        content_hash=played.content_hash, summary=played.summary(), files=["manifest.json", table]))
