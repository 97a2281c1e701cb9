"""The options every run shares, checked before any kernel compiles: the seed,
a trial count against the mode's speed, strategy names, threads and name
lists; and what a resumed run must share with the run it continues. A refusal is one ``UsageProblem`` naming the option and
the fix."""

import dataclasses
from pathlib import Path
from typing import Optional

from sim.errors import UsageProblem

def check_seed(seed: Optional[int]) -> Optional[int]:
    """``--seed``: None (the content's own) or a whole number >= 0."""
    if seed is not None and seed < 0:
        raise UsageProblem(f"--seed: {seed}; give a whole number >= 0")
    return seed


def check_trials(option: str, trials: int, per_s: float, unit="trial") -> int:
    """Refuse ``trials`` that would take more than a day at ``per_s`` (the fastest
    speed measured for the mode); a whole number >= 1 otherwise."""
    if trials < 1:
        raise UsageProblem(f"{option}: {trials}; give at least 1 {unit}")
    days, units = trials / per_s / 86_400, unit + ("es" if unit.endswith("sh") else "s")
    if days > 1:
        raise UsageProblem(f"{option}: {trials:,} {units} would take about {days:,.0f} days at ~{per_s:,.0f} "
                          f"{units}/s; use fewer {units}")
    return trials


def check_mode_trials(mode: str, trials: int, days: int = 1, option: str = "") -> int:
    """``check_trials`` at the speed of ``mode`` (``sim.modes.MODES``), in its trial's name."""
    from sim.modes import MODES

    m = MODES[mode]
    return check_trials(option or m.trials_option, trials, m.trials_per_s(days), m.trial)


def check_strategies(option: str, specs, kind: str, extra=()):
    """Each of ``specs`` is a built-in ``kind`` strategy (or one of ``extra``) or
    ``FILE.py:NAME`` with the file present: a bad name is refused in one line
    before any kernel compiles (the file's contents are checked when it loads)."""
    from sim.modes import MODES

    names = (*MODES[kind].strategy_names(), *extra)
    for spec in specs:
        if spec in names:
            continue
        if ":" not in spec:
            raise UsageProblem(f"{option}: unknown strategy '{spec}'; built in: {', '.join(names)}; "
                              "or give FILE.py:NAME")
        path = Path(spec.rsplit(":", 1)[0])
        if not path.is_file():
            raise UsageProblem(f"{option}: strategy file '{path}' not found (from {spec})")


def check_fraction(option: str, value: Optional[float], example: str) -> Optional[float]:
    """A width or share strictly between 0 and 1 (None passes)."""
    if value is not None and not 0 < value < 1:
        raise UsageProblem(f"{option}: {value}; give {example}")
    return value


def check_out_folder(out: Optional[Path]) -> Optional[Path]:
    """``--out`` names a folder (new or existing), not a file."""
    if out is not None and out.exists() and not out.is_dir():
        raise UsageProblem(f"--out: {out} is a file; give a folder")
    return out


def name_list(text: str) -> list:
    """Comma-separated names (``"a, b,,c"``), blanks dropped."""
    return [n.strip() for n in text.split(",") if n.strip()]


def weight_map(option: str, text: str) -> dict:
    """``"1000=1,5000=2"`` -> ``{"1000": 1.0, "5000": 2.0}`` (tier = weight pairs), or one ``UsageProblem``."""
    out = {}
    for pair in name_list(text):
        key, sep, value = pair.partition("=")
        try:
            out[key.strip()] = float(value)
        except ValueError:
            sep = ""
        if not sep or not key.strip():
            raise UsageProblem(f"{option}: '{pair}'; give TIER=WEIGHT pairs, e.g. 1000=1,5000=2 (a budget in G "
                               "or a tier label)")
    return out


def set_threads(threads: Optional[int]):
    """Apply ``--threads`` (None: all cores); results do not depend on it."""
    if threads is None:
        return
    import numba

    top = numba.config.NUMBA_NUM_THREADS
    if not 1 <= threads <= top:
        raise UsageProblem(f"--threads: {threads}; this machine allows 1..{top}")
    numba.set_num_threads(threads)


def run_params(command, game, **options) -> dict:
    """What a resumed run must share with the killed one: the command, the
    content's digest and every option that changes the numbers (dataclasses as dicts)."""
    plain = {k: dataclasses.asdict(v) if dataclasses.is_dataclass(v) else v for k, v in options.items()}
    return {"command": command, "content_hash": game.digest, **plain}
