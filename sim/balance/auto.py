"""``zonesim balance --knobs auto``: the knobs chosen by their swing on the targets.

Every assumed [A] number of the content (the numbers ``zonesim sensitivity``
swings) is a candidate knob from half to twice its value (a step of a twelfth
of that range, whole for a whole number), within the loader's limits. Each is
moved alone to each of its bounds on the search's dice: its swing on the
targets is how far that moves the targets' weighted distance to their bands
(ties: how far it moves the targets themselves, in band widths), so a number
is ranked by what it can do within the bounds it would be searched in, not by
a one-step nudge. The ``AUTO_KNOBS`` with the largest swing become knobs; a
number that moves no target is never one, and a bound the loaders refuse
(modifiers past the cap) is left out of the screen and the number passed
over. Prices are left to the file's ``[[knob]]`` tables, which are kept."""

from __future__ import annotations

import math
from dataclasses import dataclass

from sim.balance.spec import BalanceError, Knob
from sim.compare.sensitivity import assumed_parameters, schema_minimum

AUTO_KNOBS = 20
STEPS = 12  # grid steps between a chosen knob's bounds


@dataclass(frozen=True)
class Screened:
    """A candidate knob and what moving it alone to either of its bounds does to the targets."""

    knob: Knob
    swing: float  # the largest change of the weighted distance to the bands
    moved: float  # the largest weighted move of the targets, in band widths
    loaded: bool  # the loaders took both bounds

    @property
    def label(self) -> str:
        return self.knob.label


def candidates(folder) -> list[Knob]:
    """Every assumed [A] number that can be a knob (a number, not a flag), at its bounds (module doc)."""
    return [wide_knob(p.file, p.key, p.base) for p in assumed_parameters(folder) if not isinstance(p.base, bool)]


def screen(evaluator, params: list[Knob], targets, on_progress=None, chunk=20) -> list[Screened]:
    """Each of ``params`` moved alone to each of its bounds (``evaluator``'s dice and plan;
    a bound the content's loaders refuse is left out), largest swing first;
    ``evaluator.spec.knobs`` must hold ``params``."""
    own = {k.label: k.base for k in params}
    base = evaluator.metrics(own)
    moves = [{**own, k.label: v} for k in params for v in (k.low, k.high)]
    moved = []
    for start in range(0, len(moves), chunk):
        if on_progress:
            on_progress(start // 2, len(params), f"screening the assumed numbers ({len(params)})")
        moved += evaluator.many(moves[start:start + chunk], refused=True)

    def distance(point):
        return sum(t.weight * t.distance(point[t.metric].value) for t in targets)

    def shift(point):
        return sum(t.weight * abs(point[t.metric].value - base[t.metric].value) / (t.high - t.low) for t in targets)

    d0 = distance(base)
    out = []
    for n, k in enumerate(params):
        ends = [p for p in moved[2 * n:2 * n + 2] if p is not None]  # an end the loaders refuse is left out
        out.append(Screened(k, max((abs(distance(p) - d0) for p in ends), default=0.0),
                            max((shift(p) for p in ends), default=0.0), len(ends) == 2))
    return sorted(out, key=lambda s: (-s.swing, -s.moved, s.label))


def wide_knob(file: str, key: str, base) -> Knob:
    """An assumed number as a knob: from half to twice its value, within the loader's limits (module doc)."""
    table, _, field = key.rpartition(".")
    floor = schema_minimum(file, table, field)
    floor = 0 if floor is None and base >= 0 else floor
    if isinstance(base, int):
        low, high = math.floor(base / 2), max(2 * base, base + 2)
        low = low if floor is None else max(floor, low)
        step = max(1, round((high - low) / STEPS))
        steps = math.ceil((high - low) / step)
    else:
        low, high = base / 2, 2 * base if base else 1.0
        low = low if floor is None else max(floor, low)
        step, steps = (high - low) / STEPS, STEPS
    return Knob(file, key, base, low, low + steps * step, step)  # the high bound on the grid


def choose(path, screened: list[Screened], taken=(), n=AUTO_KNOBS) -> list[Knob]:
    """The ``n`` knobs of ``screened`` with the largest swing (any swing at all) whose bounds
    the loaders took, not among ``taken`` (labels)."""
    chosen = [s.knob for s in screened if s.loaded and s.label not in taken and (s.swing > 0 or s.moved > 0)][:n]
    if not chosen and not taken:
        raise BalanceError(f"{path}: --knobs auto: no assumed number moves these targets on the search's dice; "
                           "name the knobs in [[knob]] tables")
    return chosen
