"""A balance file: what the game should feel like (targets, each a band on a
headline number) and the numbers the solver may change (knobs, each an
assumed [A] number or a price, with bounds and a step).

```toml
[search]
budget = 60                     # candidates measured
seed = 1
batch = 2                       # candidates proposed together (measured side by side on a cluster)

[[target]]
metric = "fight_survival.*.standard"   # a headline number of `zonesim compare`; * matches any part
band = [0.5, 0.95]
weight = 1.0

[[knob]]
file = "monsters.toml"
key = "bloodsucker.hp"          # an assumed [A] number (its table's `assumed` lists it)
bounds = [10, 40]
step = 2

[[knob]]
price = "ak47"                  # a card's price
bounds = [500, 3000]
step = 50
```
"""

from __future__ import annotations

import fnmatch
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from sim.compare.metrics import prefix_groups
from sim.compare.sensitivity import schema_minimum
from sim.content.edit import copy_content_with, set_value
from sim.content.load import ContentError
from sim.errors import ZonesimError


def groups_of(targets) -> tuple:
    """The `zonesim compare` groups (``sim.compare.metrics.group_names``) ``targets`` read."""
    groups = prefix_groups()
    return tuple(dict.fromkeys(groups[t.metric.split(".")[0]] for t in targets))


class BalanceError(ZonesimError):
    """A balance file that cannot be used; the message names the file, the entry and the fix."""


@dataclass(frozen=True)
class Target:
    """A band ``[low, high]`` a headline number should lie in, and its weight."""

    metric: str
    low: float
    high: float
    weight: float

    def distance(self, value: float) -> float:
        """How far ``value`` lies outside the band, in band widths (0 inside)."""
        return max(0.0, self.low - value, value - self.high) / (self.high - self.low)

    def met(self, value: float) -> bool:
        return self.low <= value <= self.high


@dataclass(frozen=True)
class Knob:
    """A number the solver may set: ``key`` of ``file``, from ``low`` to ``high`` by ``step``."""

    file: str
    key: str
    base: float
    low: float
    high: float
    step: float

    @property
    def label(self) -> str:
        return f"{self.file}:{self.key}"

    def grid(self) -> list:
        """The values it may take: ``low, low + step, ..`` up to ``high``, and its own value."""
        n = int(round((self.high - self.low) / self.step))
        values = [self.low + k * self.step for k in range(n + 1)]
        if isinstance(self.base, int) and isinstance(self.step, int) and isinstance(self.low, int):
            values = [int(v) for v in values]
        return sorted(set(values) | {self.base})

    def move(self, value) -> float:
        """How far ``value`` is from its own, in its range's widths."""
        return abs(value - self.base) / (self.high - self.low)


@dataclass(frozen=True)
class BalanceSpec:
    """The targets (metric patterns), the knobs and the search settings of a balance file."""

    path: Path
    targets: list
    knobs: list
    budget: int
    seed: int
    batch: int = 2  # candidates proposed together: the proposals depend on it, not on where they are measured

    def groups(self) -> tuple:
        """The `zonesim compare` groups its targets read."""
        return groups_of(self.targets)

    def expand(self, names) -> list:
        """Every target pattern as the targets of the headline numbers it matches (``names``)."""
        out = []
        for t in self.targets:
            matched = [n for n in names if fnmatch.fnmatchcase(n, t.metric)]
            if not matched:
                raise BalanceError(f"{self.path}: target '{t.metric}' matches no headline number; e.g. "
                                   f"{', '.join(list(names)[:4])}")
            out += [Target(n, t.low, t.high, t.weight) for n in matched]
        return out


def _number(path, where, value, what) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BalanceError(f"{path}: {where}: {what} must be a number, got {value!r}")
    return value


def _pair(path, where, value, what) -> tuple:
    if not isinstance(value, list) or len(value) != 2:
        raise BalanceError(f"{path}: {where}: {what} must be [low, high], got {value!r}")
    low, high = (_number(path, where, v, what) for v in value)
    if not low < high:
        raise BalanceError(f"{path}: {where}: {what} [{low}, {high}] is empty; give low < high")
    return low, high


def _target(path, n, entry) -> Target:
    where = f"[[target]] {n + 1}"
    metric = entry.get("metric")
    prefixes = prefix_groups()
    if not isinstance(metric, str) or metric.split(".")[0] not in prefixes:
        raise BalanceError(f"{path}: {where}: unknown metric {metric!r}; a metric starts with one of: "
                           f"{', '.join(prefixes)}")
    low, high = _pair(path, where, entry.get("band"), "band")
    weight = _number(path, where, entry.get("weight", 1.0), "weight")
    if weight <= 0:
        raise BalanceError(f"{path}: {where}: weight {weight} must be above 0")
    return Target(metric, low, high, float(weight))


def _assumed_number(folder, path, where, file, key):
    """The value of ``key`` in ``file``: an assumed [A] number (or a price)."""
    source = Path(folder) / file
    if not source.is_file():
        raise BalanceError(f"{path}: {where}: no content file '{file}' in {folder}")
    table = tomllib.loads(source.read_text(encoding="utf-8"))
    *parents, field = key.split(".")
    for part in parents:
        table = table.get(part) if isinstance(table, dict) else None
    value = table.get(field) if isinstance(table, dict) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BalanceError(f"{path}: {where}: {file} has no number at '{key}'")
    if field != "price" and field not in table.get("assumed", []):
        raise BalanceError(f"{path}: {where}: {file} '{key}' is not an assumed [A] number (its table's `assumed` "
                           "does not list it) nor a price; only those may be tuned")
    return value


def _knob(folder, content, path, n, entry) -> Knob:
    where = f"[[knob]] {n + 1}"
    if "price" in entry:
        item = entry["price"]
        if item not in content.items:
            raise BalanceError(f"{path}: {where}: unknown card '{item}'")
        file, key = "items.toml", f"{content.items[item].family}.{item}.price"
    else:
        file, key = entry.get("file"), entry.get("key")
        if not isinstance(file, str) or not isinstance(key, str):
            raise BalanceError(f"{path}: {where}: give `file` and `key` (an assumed number) or `price` (a card)")
    base = _assumed_number(folder, path, where, file, key)
    low, high = _pair(path, where, entry.get("bounds"), "bounds")
    step = _number(path, where, entry.get("step", 1), "step")
    if step <= 0 or step > high - low:
        raise BalanceError(f"{path}: {where}: step {step} must be above 0 and within the bounds")
    table_path, _, field = key.rpartition(".")
    floor = schema_minimum(file, table_path, field)
    if floor is not None and low < floor:
        raise BalanceError(f"{path}: {where}: bounds [{low}, {high}] go below {file}'s limit {floor} for '{field}'")
    return Knob(file, key, base, low, high, step)


def load_balance(path: Path, folder: Path, content, *, budget=None, auto=False) -> BalanceSpec:
    """The balance file at ``path`` checked against the content of ``folder`` (every
    bound is loaded once, so a value the loader refuses is named here, not mid-search);
    ``auto``: knobs are chosen too (``sim.balance.auto``), so the file may name none."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BalanceError(f"{path}: no such balance file") from None
    except tomllib.TOMLDecodeError as exc:
        raise BalanceError(f"{path}: not valid TOML ({exc})") from None
    search = raw.get("search", {})
    targets = [_target(path, n, e) for n, e in enumerate(raw.get("target", []))]
    if not targets:
        raise BalanceError(f"{path}: no [[target]]; give at least one metric with a band")
    knobs = [_knob(folder, content, path, n, e) for n, e in enumerate(raw.get("knob", []))]
    if not knobs and not auto:
        raise BalanceError(f"{path}: no [[knob]]; give at least one number the solver may change, or use "
                           "--knobs auto")
    budget = search.get("budget", 60) if budget is None else budget
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise BalanceError(f"{path}: budget {budget!r}: give a whole number of candidates, at least 1")
    seed = search.get("seed", 1)
    batch = search.get("batch", 2)
    if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
        raise BalanceError(f"{path}: [search] batch {batch!r}: give a whole number of candidates proposed "
                           "together, at least 1")
    _check_bounds(folder, path, knobs)
    return BalanceSpec(path, targets, knobs, budget, seed, batch)


def _check_bounds(folder, path, knobs):
    """Load the content with each knob at each bound; a refused value is a bad bound."""
    from sim.content import load_content

    with tempfile.TemporaryDirectory(prefix="zonesim-balance-") as tmp:
        for n, knob in enumerate(knobs):
            for side, value in (("low", knob.low), ("high", knob.high)):
                try:
                    load_content(with_values(folder, Path(tmp) / f"{n}-{side}", {knob: value}))
                except ContentError as exc:
                    raise BalanceError(f"{path}: [[knob]] {n + 1} ({knob.label}): the {side} bound {value} is "
                                       f"refused by the content: {exc}") from None


def with_values(folder: Path, target: Path, values: dict) -> Path:
    """A copy of the content folder at ``target`` with each knob set (``{Knob: value}``), comments kept."""
    texts = {}
    for knob, value in values.items():
        text = texts.get(knob.file) or (Path(folder) / knob.file).read_text(encoding="utf-8")
        texts[knob.file] = set_value(text, knob.key, value)
    if not texts:
        texts = {"items.toml": (Path(folder) / "items.toml").read_text(encoding="utf-8")}
    first, *rest = texts.items()
    copy_content_with(folder, target, *first)
    for name, text in rest:
        (target / name).write_text(text, encoding="utf-8")
    return target
