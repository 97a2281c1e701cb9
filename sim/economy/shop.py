"""The shopper: the reference kit a stalker with a budget buys, chosen once
per tier and then frozen for the whole valuation.

He grows his kit one card at a time (``Loadout.changes``: a purchase or a slot
swap, within the rules). At each step he compares every affordable change on
his selection trials and takes the one with the most gain per G among those
whose gain is clear of the noise: more than ``clear_gain_z`` standard errors
of the paired batch differences, a bar that rises with the number of changes
compared, so that at a step where no change truly gains, noise buys one with a
chance of at most ``FALSE_BUY`` whatever the number of candidates (a
Bonferroni bound; at least ``CLEAR_GAIN_Z``). A change that costs nothing
extra and gains is taken first. The changes are raced: all are screened on
the first ``SCREEN_BATCHES`` batches, and only those that could still be the
pick (``racing``) run the rest of the set. He stops when no affordable change gains clearly, so the
budget is spent while an affordable card has an effect his selection trials
can see.

The strongest strategy of the family is found with the kit: he shops under
the first strategy, every strategy then plays that kit, and if another does
better he shops again under it, until the strategy stays. He then shops again
under that strategy on further independent selection sets (``SELECTION_SETS`` in
all) and, for a valuation, on bootstrap resamples of the first set
(``SELECTION_RESAMPLES``). The tier's kits are the first set's and the other
kit bought most often on the other sets and resamples: the choice the noise
of the selection trials most often makes instead. They agree or the tier
reports the cards they differ in, and its values carry both kits
(``sim.economy.value``), so that their intervals cover the kit another seed
buys."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from sim.content import Content
from sim.content.loadout import Loadout
from sim.economy.outcome import SELECTION_BATCHES, SELECTION_FIRST, SELECTION_SETS, SELECTION_STRIDE, Batches

SELECTION_RESAMPLES = 6  # bootstrap resamples of the first selection set the shopper also buys on (bagging)

CLEAR_GAIN_Z = 2.0
FALSE_BUY = 0.05
SCREEN_BATCHES = 6  # the first batches of a selection set, on which the strategies for a kit are screened
SCREEN_LOSS_Z = 3.0  # a strategy goes on to the whole set unless it trails the best by this many standard errors
RACE_Z = 3.0  # a change goes on to the whole set unless its screen puts it this many standard errors out of the pick


def clear_gain_z(candidates: int) -> float:
    """Standard errors a gain must clear when ``candidates`` changes are compared at once (module doc)."""
    return max(CLEAR_GAIN_Z, NormalDist().inv_cdf(1 - FALSE_BUY / max(1, candidates)))


def paired_gain(new, old):
    """Mean gain of ``new`` over ``old`` and its standard error from the paired batches."""
    diff = new.rates() - old.rates()
    se = float(diff.std(ddof=1)) / math.sqrt(diff.size) if diff.size > 1 else 0.0
    return float(diff.mean()), se


def _rank(gain: float, extra: int) -> tuple:
    """The shopper's order of a change's gain: free changes first, then gain per G."""
    return (1, gain) if extra <= 0 else (0, gain / extra)


def racing(extras: list, heads: list, current: Batches) -> list:
    """Which changes (their extra cost and screened ``Batches``, or an error) could
    still be the pick: a gain that can be positive, and a rank at ``RACE_Z``
    standard errors above its screen not below the best rank at ``RACE_Z`` under."""
    screen = Batches(current.sums[:SCREEN_BATCHES], current.size)
    gains = [(-math.inf, 0.0) if isinstance(head, Exception) else paired_gain(head, screen) for head in heads]
    low = [g - RACE_Z * se for g, se in gains]
    high = [g + RACE_Z * se for g, se in gains]
    floor = max((_rank(lo, extra) for lo, extra in zip(low, extras) if lo > 0), default=None)
    return [hi > 0 and (floor is None or _rank(hi, extra) >= floor) for hi, extra in zip(high, extras)]


def grow(content: Content, outcome, start: Loadout, budget: int, *, trials: int, which: int = 0,
         max_count: int = 2, max_cards: int | None = None, resample=None, banned=frozenset()) -> Loadout:
    """The kit bought from ``start`` with ``budget`` G (module doc), judged on
    ``trials`` campaigns (or fights) of selection set ``which`` of ``outcome``;
    ``max_cards``: the asset limit (K-05), no kit the stalker would have to discard from;
    ``resample``: the set's batches a bootstrap resample draws (indices), judged on instead;
    ``banned``: cards he may not buy (restricted play, ``sim.economy.restricted``)."""
    kit, first = start, SELECTION_FIRST + which * SELECTION_STRIDE
    current = outcome.selection(kit, trials, which)
    if isinstance(current, Exception):  # a kit the mode cannot field (a skirmish without a firearm) scores 0
        current = Batches(np.zeros(SELECTION_BATCHES), trials // SELECTION_BATCHES)
    current = drawn(current, resample)
    while True:
        cost = kit.cost(content)
        changes = [c for c in kit.changes(content, max_count) if c.cost(content) <= budget
                   and (max_cards is None or sum(c.cards().values()) <= max_cards) and not banned & c.cards().keys()]
        extras = [c.cost(content) - cost for c in changes]
        heads = outcome.head(changes, first, trials, SELECTION_BATCHES, SCREEN_BATCHES)
        raced = [(c, e) for c, e, keep in zip(changes, extras, racing(extras, heads, current)) if keep]
        found = outcome.many([c for c, _ in raced], first, trials, SELECTION_BATCHES)
        bar = clear_gain_z(len(changes))
        best, best_key = None, None
        for (changed, extra), batches in zip(raced, found):
            if isinstance(batches, Exception):  # a kit the mode cannot field
                continue
            batches = drawn(batches, resample)
            gain, se = paired_gain(batches, current)
            if gain <= 0 or gain <= bar * se:
                continue
            key = (*_rank(gain, extra), -extra)
            if best_key is None or key > best_key:
                best, best_key, best_batches = changed, key, batches
        if best is None:
            return kit
        kit, current = best, best_batches


def drawn(batches: Batches, resample) -> Batches:
    """``batches`` as a bootstrap resample draws them (``resample``: batch indices; None: as they are)."""
    return batches if resample is None else Batches(batches.sums[resample], batches.size)


PLAUSIBLE_Z = 2.0  # a strategy the kit's selection outcome does not put this many standard errors behind


def plausible_strategies(outcomes: dict, kit, strategy: str, trials: int) -> list:
    """``strategy`` and every other of the family not clearly worse with ``kit`` on
    the first selection set (its loss within ``PLAUSIBLE_Z`` standard errors): the
    play the shopper could as well have picked."""
    chosen = outcomes[strategy].selection(kit, trials)
    out = [strategy]
    for name, outcome in outcomes.items():
        other = outcome.selection(kit, trials)
        if name == strategy or isinstance(chosen, Exception) or isinstance(other, Exception):
            continue
        loss, se = paired_gain(chosen, other)
        if loss <= PLAUSIBLE_Z * se:
            out.append(name)
    return out


def contenders(heads: dict) -> list:
    """The strategies (``{name: screened Batches or error}``) not clearly behind the
    best on the screen: within ``SCREEN_LOSS_Z`` standard errors of its mean."""
    best = max(heads, key=lambda s: (mean_outcome(heads[s]), s))
    if isinstance(heads[best], Exception):
        return list(heads)
    keep = []
    for name, head in heads.items():
        if isinstance(head, Exception):
            continue
        loss, se = paired_gain(heads[best], head)
        if loss <= SCREEN_LOSS_Z * se:
            keep.append(name)
    return keep


@dataclass(frozen=True)
class KitChoice:
    """A tier's reference kit: the strategy and kit bought on the first selection
    set, the other kit kept (``bagged``: the one bought most often instead), and
    each strategy's outcome with the kit (``pinned``: the kit was given, not bought)."""

    strategy: str
    kit: object
    other_kits: tuple
    outcomes: dict
    selection_trials: int
    pinned: bool = False

    @property
    def second_kit(self):
        """The second kit kept (the kit itself where there is none)."""
        return self.other_kits[0] if self.other_kits else self.kit

    @property
    def kits(self) -> list:
        """Every distinct kit bought, the first set's first."""
        return list(dict.fromkeys((self.kit, *self.other_kits)))

    @property
    def agree(self) -> bool:
        return len(self.kits) == 1

    def differ(self) -> list:
        """The cards some choice holds more or fewer of than another."""
        held = [k.cards() for k in self.kits]
        return sorted(i for i in set().union(*held) if len({h.get(i, 0) for h in held}) > 1)


def mean_outcome(batches) -> float:
    """The mean outcome; 0 for a kit the mode cannot field."""
    return 0.0 if isinstance(batches, Exception) else batches.mean


def strongest(outcomes: dict, kit, trials: int) -> tuple:
    """``(strategy, {strategy: mean outcome})`` of the family playing ``kit`` on the first selection set."""
    means = {s: mean_outcome(o.selection(kit, trials)) for s, o in outcomes.items()}
    return max(means, key=lambda s: (means[s], s)), means


def choose_kit(content: Content, outcomes: dict, start: Loadout, budget: int, *, trials: int,
               max_count: int = 2, max_cards: int | None = None, resamples: int = 0,
               banned=frozenset()) -> KitChoice:
    """The tier's reference kit and strategy (module doc); ``outcomes`` by strategy name;
    ``max_cards``: the asset limit (K-05); ``resamples``: bootstrap resamples of the first
    selection set bought on too, the other kit kept the one bought most often (``bagged``);
    ``banned``: cards the shopper may not buy."""
    shop = dict(trials=trials, max_count=max_count, max_cards=max_cards, banned=frozenset(banned))
    kits, strategy = {}, next(iter(outcomes))
    while strategy not in kits:
        kits[strategy] = grow(content, outcomes[strategy], start, budget, **shop)
        strategy = strongest(outcomes, kits[strategy], trials)[0]
    strategy = max(kits, key=lambda s: (mean_outcome(outcomes[s].selection(kits[s], trials)), s))
    bought = [kits[strategy]] + [grow(content, outcomes[strategy], start, budget, which=which, **shop)
                                 for which in range(1, SELECTION_SETS)]
    rng = np.random.default_rng(budget)
    bought += [grow(content, outcomes[strategy], start, budget,
                    resample=rng.integers(0, SELECTION_BATCHES, SELECTION_BATCHES), **shop) for _ in range(resamples)]
    kit, *others = bagged(bought, SELECTION_SETS)
    return KitChoice(strategy, kit, tuple(others), strongest(outcomes, kit, trials)[1], trials)


def bagged(bought: list, keep: int) -> list:
    """The first kit of ``bought`` (one kit per selection set or resample, in order: the first
    set's first) and the ``keep`` - 1 others bought most often, the first bought first among
    equals; a kit is its cards, whatever the order they were bought in. The first set's kit
    stays the tier's reference (its rate is the numeraire tuning keeps); the others are the
    choices the noise of the selection trials most often makes instead."""
    def cards(kit):
        return tuple(sorted(kit.cards().items()))

    first, counts = {}, {}
    for kit in bought[1:]:
        if cards(kit) != cards(bought[0]):
            first.setdefault(cards(kit), kit)
            counts[cards(kit)] = counts.get(cards(kit), 0) + 1
    ranked = sorted(first, key=lambda key: -counts[key])  # stable: the first bought first among equals
    return [bought[0]] + [first[key] for key in ranked[:keep - 1]]


def pinned_kit(outcomes: dict, kit, trials: int) -> KitChoice:
    """A given kit, with the strongest strategy of the family for it."""
    strategy, means = strongest(outcomes, kit, trials)
    return KitChoice(strategy, kit, (), means, trials, pinned=True)
