"""The declared valuation context of a content set (``economy.toml``): what an
item's worth in G is measured on. A content folder without the file uses the
shipped default's."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from sim.content.load import DEFAULT_DIR, Content, ContentError

ECONOMY_FILE = "economy.toml"
MODES = ("journey",)
VIEWS = ("fights",)  # the sub-views of [views.*]: the campaigns' monster mix fought out


@dataclass(frozen=True)
class SubView:
    """A sub-view (``[views.NAME]``): the tiers and shopper of the context, but the
    outcome is the chance to survive one monster encounter of the campaigns' mix,
    fought by ``strategy``; trial counts are per monster group and kit."""

    name: str
    strategy: str
    valuation_trials: int
    selection_trials: int


@dataclass(frozen=True)
class EconomyContext:
    """Where and how item values are measured (one line of ``economy.toml`` each)."""

    mode: str
    days: int
    character: str
    budgets: tuple
    strategies: tuple
    max_count: int
    seed: int
    valuation_trials: int
    selection_trials: int
    batches: int
    bootstrap: int
    price_step: int
    source: str
    views: tuple = ()

    def view(self, name: str) -> SubView:
        """The sub-view ``name`` of ``[views]``, or a one-line error naming the file."""
        for v in self.views:
            if v.name == name:
                return v
        raise ContentError(f"{self.source}: [views.{name}]: missing; copy it from the default {ECONOMY_FILE}")

    def describe(self) -> dict:
        """The context as printed and written with every value table."""
        return {"mode": self.mode, "outcome": f"days to spare finishing every order in {self.days} days",
                "days": self.days, "character": self.character, "budgets": list(self.budgets),
                "strategies": list(self.strategies), "trials": self.valuation_trials,
                "selection_trials": self.selection_trials, "batches": self.batches, "seed": self.seed,
                "source": self.source}


def _field(path, table, section, key, kind, low=None):
    where = f"{path}: {section}.{key}"
    if key not in table:
        raise ContentError(f"{where}: missing; copy it from the default {ECONOMY_FILE}")
    value = table[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ContentError(f"{where}: expected a whole number, got {value!r}")
    if kind is str and not isinstance(value, str):
        raise ContentError(f"{where}: expected a string, got {value!r}")
    if low is not None and value < low:
        raise ContentError(f"{where}: {value} is below {low}; use a value >= {low}")
    return value


def _pair(path, table, key, quick, low, section="trials"):
    """``[full, quick]`` trial counts; the one asked for."""
    value = table.get(key)
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                  for v in value)):
        raise ContentError(f"{path}: {section}.{key}: expected [full, quick] whole numbers, got {value!r}")
    if min(value) < low:
        raise ContentError(f"{path}: {section}.{key}: {value} has a count below {low}; use counts >= {low}")
    return value[1] if quick else value[0]


def _batched(path, table, key, quick, batches, section="trials"):
    """``_pair`` of valuation counts, at least two per batch and rounded down to whole batches."""
    value = _pair(path, table, key, quick, batches * 2, section)
    return value - value % batches


def load_context(content: Content, *, quick=False) -> EconomyContext:
    """Read and check ``economy.toml`` of ``content`` (or the default's), one-line errors naming file and field."""
    path = Path(content.directory) / ECONOMY_FILE
    if not path.is_file():
        path = DEFAULT_DIR / ECONOMY_FILE
    try:
        raw = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{path}: not valid TOML ({exc}); fix the syntax") from None
    for section in ("context", "trials", "prices"):
        if not isinstance(raw.get(section), dict):
            raise ContentError(f"{path}: [{section}]: missing section; copy it from the default {ECONOMY_FILE}")
    ctx, trials, prices = raw["context"], raw["trials"], raw["prices"]
    mode = _field(path, ctx, "context", "mode", str)
    if mode not in MODES:
        raise ContentError(f"{path}: context.mode: '{mode}' is not supported; use one of: {', '.join(MODES)}")
    character = _field(path, ctx, "context", "character", str)
    if character not in content.characters:
        raise ContentError(f"{path}: context.character: unknown character '{character}'; "
                           f"use one of: {', '.join(content.characters)}")
    budgets = ctx.get("budgets")
    if not (isinstance(budgets, list) and budgets and all(isinstance(b, int) and not isinstance(b, bool) and b > 0
                                                           for b in budgets)):
        raise ContentError(f"{path}: context.budgets: expected a list of positive whole G, got {budgets!r}")
    names = ctx.get("strategies")
    if not (isinstance(names, list) and names and all(isinstance(n, str) for n in names)):
        raise ContentError(f"{path}: context.strategies: expected a list of journey strategy names, got {names!r}")
    batches = _field(path, trials, "trials", "batches", int, 2)
    views = raw.get("views", {})
    if not isinstance(views, dict) or any(name not in VIEWS or not isinstance(t, dict) for name, t in views.items()):
        raise ContentError(f"{path}: [views]: expected tables named {' or '.join(f'views.{v}' for v in VIEWS)}")
    return EconomyContext(
        mode=mode, days=_field(path, ctx, "context", "days", int, 1), character=character,
        budgets=tuple(sorted(set(budgets))), strategies=tuple(names),
        max_count=_field(path, ctx, "context", "max_count", int, 1), seed=_field(path, trials, "trials", "seed", int, 0),
        valuation_trials=_batched(path, trials, "valuation", quick, batches),
        selection_trials=_pair(path, trials, "selection", quick, 2),
        batches=batches, bootstrap=_field(path, trials, "trials", "bootstrap", int, 20),
        price_step=_field(path, prices, "prices", "step", int, 1), source=str(path),
        views=tuple(_sub_view(path, name, table, quick, batches) for name, table in views.items()))


def _sub_view(path, name, table, quick, batches) -> SubView:
    section = f"views.{name}"
    return SubView(name, _field(path, table, section, "strategy", str),
                   _batched(path, table, "valuation", quick, batches, section),
                   _pair(path, table, "selection", quick, 2, section))
