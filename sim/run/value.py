"""The value of items in fights, in survival and in G.

Each item is added to a reference loadout (a firearm, armour or escape item
swapped in, one more healing item or explosive, a modifier for the carried
firearm) and both loadouts fight the same trials on the same dice (common
random numbers, ``fight_outcomes``): the value is the mean per-trial change in
survival, with the paired-difference 95% interval. The exchange rate of the
market is the least-squares slope (through the origin) of that change against
the item's price over every priced item; an item's fair price is its change
divided by the rate, and it is flagged when the interval of the fair price
excludes the content price.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from functools import partial

import numpy as np
import polars as pl

import sim.kernels.fight as K
from sim.analysis.stats import Z95, paired_batch_interval
from sim.content.load import Content
from sim.content.loadout import Loadout, LoadoutError
from sim.run.distributed import batches, map_batches
from sim.run.fight import fight_template


def _plus(pairs, item_id):
    counts = dict(pairs)
    counts[item_id] = counts.get(item_id, 0) + 1
    return tuple(counts.items())


def item_variants(content: Content, base: Loadout):
    """``[(item_id, loadout)]``: every legal one-item change of ``base``."""
    out = []

    def offer(item_id, **changes):
        try:
            out.append((item_id, replace(base, **changes).validate(content)))
        except LoadoutError:  # e.g. a deck or the explosives cap is exhausted
            pass

    for item in content.family("firearms"):
        if item.id != base.weapon:
            offer(item.id, weapon=item.id, mods=())
    for item in content.family("modifiers"):
        if item["firearm"] == base.weapon and item.id not in base.mods:
            offer(item.id, mods=base.mods + (item.id,))
    for item in content.family("armour"):
        if getattr(base, item["slot"]) != item.id:
            offer(item.id, **{item["slot"]: item.id})
    for item in content.family("healing"):
        offer(item.id, healing=_plus(base.healing, item.id))
    for item in content.family("explosives"):
        offer(item.id, explosives=_plus(base.explosives, item.id))
    for item in content.family("escape"):
        if base.escape_item != item.id:
            offer(item.id, escape_item=item.id)
    return out


HELD = " (held)"


def held_variants(content: Content, base: Loadout):
    """``[(item_id + HELD, loadout)]``: ``base`` without each card it carries (a
    firearm with its modifiers, a modifier, head or body armour, one healing
    item or explosive, the escape item). Its value is base minus without."""
    out = []

    def drop(item_id, **changes):
        try:
            out.append((item_id + HELD, replace(base, **changes).validate(content)))
        except LoadoutError:
            pass

    if base.weapon:
        drop(base.weapon, weapon=None, mods=())
    for mod in base.mods:
        drop(mod, mods=tuple(m for m in base.mods if m != mod))
    for slot in ("head", "body"):
        if getattr(base, slot):
            drop(getattr(base, slot), **{slot: None})
    for field_name in ("healing", "explosives"):
        for item_id, n in getattr(base, field_name):
            fewer = tuple((i, k - (i == item_id)) for i, k in getattr(base, field_name))
            drop(item_id, **{field_name: tuple((i, k) for i, k in fewer if k > 0)})
    if base.escape_item:
        drop(base.escape_item, escape_item=None)
    return out


def survived(template, strategy, *, trials, seed, first=0):
    """Per-trial survival (1 unless the stalker died) of trials ``first .. first + trials - 1``
    of the fight whose kernel view is ``template``."""
    out = np.empty(trials, np.int8)
    K.fight_outcomes(seed, first, trials, template, strategy.param_vector(), strategy.asks(), *strategy.decisions(),
                     out)
    return out != K.DEATH


@dataclass(frozen=True)
class FightMeasure:
    """The measure of ``item_values`` for dice fights: a loadout's per-trial
    survival against ``monsters`` under ``strategy`` (picklable, for clusters)."""

    content: Content
    monsters: tuple
    strategy: object

    def __call__(self, loadout):
        template = fight_template(self.content, loadout, self.monsters)[0]
        return lambda trials, seed, first: survived(template, self.strategy, trials=trials, seed=seed, first=first)


def fight_measure(content: Content, monsters, strategy) -> FightMeasure:
    return FightMeasure(content, tuple(monsters), strategy)


def _change_sums(run_base, runs, size, seed, first):
    """Per run: survivors, sum and sum of squares of the per-trial change against
    ``run_base`` on trials ``first .. first + size - 1``; and the base's survivors."""
    s0 = run_base(size, seed, first)
    out = np.zeros((len(runs), 3))
    for i, run in enumerate(runs):
        s1 = run(size, seed, first)
        diff = s1.astype(np.int64) - s0
        out[i] = (s1.sum(), diff.sum(), (diff * diff).sum())
    return out, int(s0.sum())


def _value_sums(loadouts, measure, base, size, seed, first):
    """``_change_sums`` of ``loadouts`` against ``base`` (a task of a sweep)."""
    return _change_sums(measure(base), [measure(lo) for lo in loadouts], size, seed, first)


@dataclass
class ValueResult:
    """Item values against one reference loadout (``table``: one row per item)."""

    table: pl.DataFrame
    base_survival: float
    rate: float
    trials: int
    seed: int
    elapsed_s: float

    def summary(self):
        return {"trials": self.trials, "seed": self.seed, "base_p_survive": self.base_survival,
                "survival_per_g": self.rate, "elapsed_s": self.elapsed_s, "items": self.table.to_dicts()}


def item_values(content: Content, base: Loadout, measure, *, trials, seed, target_ci=None,
                chunk=1 << 17, client=None, batch=4, store=None, tag="") -> ValueResult:
    """The value of every one-item change of ``base``: ``measure(loadout)`` gives
    a function ``(trials, seed, first) -> per-trial survival`` on common random
    numbers (``fight_measure``, ``sim.run.skirmish.skirmish_measure``) or raises
    ``LoadoutError`` for a loadout the mode cannot field (such changes are left
    out). With ``target_ci``, chunks of trials run until every value's 95%
    interval is narrower than it (``trials`` is then the cap). With a Dask
    ``client`` (and a picklable measure such as ``FightMeasure``) the items go
    out in batches of ``batch`` per chunk; the sums are the same. With a
    checkpoint ``store`` each chunk's sums are saved (named by ``tag`` and the
    chunk) and a resumed run reads them back."""
    if trials < 2:
        raise LoadoutError(f"--trials: {trials}; give at least 2 trials")
    start = time.perf_counter()
    run_base = measure(base)
    variants, runs = [], []
    for item_id, loadout in item_variants(content, base) + held_variants(content, base):
        try:
            runs.append(measure(loadout))
        except LoadoutError:  # e.g. a third healing kind in a skirmish
            continue
        variants.append((item_id, loadout))
    n, survivors0 = 0, 0
    sums = np.zeros((len(variants), 3))  # per item: survivors, sum and sum of squares of the differences
    while n < trials:
        size = min(chunk, trials - n)
        name = f"values-{tag}-{n}-{size}.npz"
        saved = store.load(name) if store is not None else None
        if saved is not None:
            chunk_sums, alive = saved["sums"], int(saved["alive"])
        elif client is None:
            chunk_sums, alive = _change_sums(run_base, runs, size, seed, n)
        else:
            parts = map_batches(client, _value_sums, batches([lo for _, lo in variants], batch), measure, base,
                                size, seed, n)
            chunk_sums = np.concatenate([p[0] for p in parts]) if parts else np.zeros((0, 3))
            alive = parts[0][1] if parts else int(run_base(size, seed, n).sum())
        if saved is None and store is not None:
            store.save(name, {"sums": chunk_sums, "alive": np.array(alive)})
        sums += chunk_sums
        survivors0 += alive
        n += size
        if target_ci is not None and n >= 2 and _widest(sums, n) < target_ci:
            break
    p0 = survivors0 / n
    rows = []
    for (label, loadout), (alive, total, total_sq) in zip(variants, sums):
        mean, p1 = total / n, alive / n
        paired_se = math.sqrt(max(0.0, (total_sq - n * mean * mean) / (n - 1)) / n)
        unpaired_se = math.sqrt((p0 * (1 - p0) + p1 * (1 - p1)) / n)
        item_id = label.removesuffix(HELD)
        sign = -1 if label.endswith(HELD) else 1  # held: the value of keeping it, base minus without
        mean, cost = sign * mean, sign * (loadout.cost(content) - base.cost(content))
        rows.append({"item": label, "family": content.items[item_id].family, "price": content.items[item_id]["price"],
                     "cost_change": cost, "p_survive": p1, "value": mean, "ci_low": mean - Z95 * paired_se,
                     "ci_high": mean + Z95 * paired_se, "paired_se": paired_se, "unpaired_se": unpaired_se})
    table, rate = priced_table(rows)
    return ValueResult(table, p0, rate, n, seed, time.perf_counter() - start)


def priced_table(rows):
    """The value rows with the market's exchange rate (least squares through the
    origin of value against extra cost over the priced changes), fair prices and
    verdicts ("no use here" for a change that alters no trial); ``(table, rate)``."""
    table = pl.DataFrame(rows)
    priced = table.filter(pl.col("cost_change") > 0)
    cost, value = priced["cost_change"].to_numpy().astype(float), priced["value"].to_numpy()
    rate = float(cost @ value / (cost @ cost)) if cost.size and cost @ value > 0 else math.nan
    table = table.with_columns(
        (pl.col("value") / rate).alias("fair_price"), (pl.col("ci_low") / rate).alias("fair_low"),
        (pl.col("ci_high") / rate).alias("fair_high"),
    ).with_columns(
        pl.when((pl.col("value") == 0) & (pl.col("paired_se") == 0)).then(pl.lit("no use here"))
        .when(pl.col("cost_change") <= 0).then(pl.lit("n/a (no extra cost)"))
        .when(pl.lit(not rate > 0)).then(pl.lit("n/a (no exchange rate)"))
        .when(pl.col("fair_high") < pl.col("cost_change")).then(pl.lit("over-priced"))
        .when(pl.col("fair_low") > pl.col("cost_change")).then(pl.lit("under-priced"))
        .otherwise(pl.lit("fair")).alias("verdict"),
    ).sort("value", descending=True)
    return table, rate


def _widest(sums, n):
    """The widest 95% interval among the items' paired differences."""
    mean = sums[:, 1] / n
    var = np.maximum(0.0, (sums[:, 2] - n * mean * mean) / (n - 1))
    return float(2 * Z95 * np.sqrt(var / n).max(initial=0.0))


def _apply(content: Content, loadout: Loadout, change: str) -> Loadout:
    """``loadout`` with one change: an item id (as in ``item_variants``),
    ``character=ID`` or ``reputation=N``; ``LoadoutError`` if it cannot be made."""
    if change.startswith("character="):
        return replace(loadout, character=change.split("=", 1)[1]).validate(content)
    if change.startswith("reputation="):
        try:
            return replace(loadout, reputation=int(change.split("=", 1)[1])).validate(content)
        except ValueError:
            raise LoadoutError(f"--pair: '{change}'; write reputation=N with a whole N") from None
    for item_id, changed in item_variants(content, loadout):
        if item_id == change:
            return changed
    raise LoadoutError(f"--synergy: '{change}' cannot be added to {loadout.weapon or 'the loadout'} "
                       "(unknown, not for this firearm, or out of cards)")


def synergy_pairs(content: Content, base: Loadout):
    """The pairs that interact: every two modifiers of the firearm (Z-21), Doktor's
    healing bonus (Z-03) with each in-combat healing item, and each escape item
    with two more reputation (Z-32, Z-33: the item lowers the reputation the
    escape roll must beat)."""
    mods = [e.id for e in content.family("modifiers") if e["firearm"] == base.weapon and e.id not in base.mods]
    pairs = [(a, b) for k, a in enumerate(mods) for b in mods[k + 1:]]
    if base.character != "doktor" and "doktor" in content.characters:
        pairs += [(e.id, "character=doktor") for e in content.family("healing") if e["in_combat"]]
    reputation = content.rules["stalker"]["start_reputation"] if base.reputation is None else base.reputation
    pairs += [(e.id, f"reputation={reputation + 2}") for e in content.family("escape") if e.id != base.escape_item]
    return pairs


def synergies(content: Content, base: Loadout, measure, pairs, *, trials, seed) -> pl.DataFrame:
    """For each pair of changes (a, b), on common dice:

    - ``synergy``: the value of both together minus the sum of their values
      alone, in survival probability (s_ab - s_a - s_b + s_0 per trial), with its
      95% interval. It saturates: near certain survival every pair looks like
      substitutes, because nothing can add more than what is left to 1.
    - ``synergy_log_odds``: the same interaction on the log-odds of survival,
      a scale that does not saturate (logit p_ab - logit p_a - logit p_b +
      logit p_0), with the Student t interval over ``BATCHES`` paired batches.
      exp of it is the factor by which the pair multiplies the odds of
      surviving beyond what each does alone: above 0 complements, below 0
      substitutes."""
    if trials < 2:
        raise LoadoutError(f"--trials: {trials}; give at least 2 trials")
    s0 = measure(base)(trials, seed, 0).astype(np.int64)
    rows = []
    for a, b in pairs:
        la, lb = _apply(content, base, a), _apply(content, base, b)
        lab = _apply(content, la, b)
        sa, sb, sab = (measure(lo)(trials, seed, 0).astype(np.int64) for lo in (la, lb, lab))
        per_trial = sab - sa - sb + s0
        mean = float(per_trial.mean())
        se = float(per_trial.std(ddof=1)) / math.sqrt(trials)
        logit = [_batch_log_odds(s, min(BATCHES, trials)) for s in (sab, sa, sb, s0)]
        lo_mean, lo_low, lo_high = paired_batch_interval((logit[0] - logit[2]) - (logit[1] - logit[3]),
                                                         np.zeros(len(logit[0])))
        rows.append({"a": a, "b": b, "value_a": float((sa - s0).mean()), "value_b": float((sb - s0).mean()),
                     "value_both": float((sab - s0).mean()), "synergy": mean, "ci_low": mean - Z95 * se,
                     "ci_high": mean + Z95 * se, "synergy_log_odds": lo_mean, "log_odds_ci_low": lo_low,
                     "log_odds_ci_high": lo_high})
    return pl.DataFrame(rows)


def _batch_log_odds(survived, batches):
    """Log-odds of survival in each of ``batches`` consecutive batches of trials,
    with half a trial added to each side so a batch with no death (or no
    survivor) stays finite."""
    return np.array([math.log((part.sum() + 0.5) / (len(part) - part.sum() + 0.5))
                     for part in np.array_split(survived, batches)])


BATCHES = 20
T_BATCHES = 2.093  # Student t, 0.975 quantile, BATCHES - 1 degrees of freedom


def journey_variants(content: Content, base: Loadout):
    """``item_variants`` plus the journey-only items: a Zone-movement item, a
    location-movement item, an event-avoidance item or a one-shot card added (Z-25..Z-30)."""
    out = list(item_variants(content, base))
    for family, field_name in (("movement", "movement"), ("location", "location"), ("avoidance", "avoidance"),
                               ("one_shot", "one_shot")):
        for item in content.family(family):
            held = getattr(base, field_name)
            if item.id not in held:
                try:
                    out.append((item.id, replace(base, **{field_name: held + (item.id,)}).validate(content)))
                except LoadoutError:
                    pass
    return out


def batch_values(content: Content, base: Loadout, variants, count, *, trials, seed, outcome="p_outcome",
                 client=None, store=None, tag=""):
    """Item values from aggregate-only runs: ``count(loadout, first, n)`` is the
    number of successes in trials ``first .. first + n - 1`` (the same streams
    for every loadout). The trials are cut into ``BATCHES`` batches; the value is
    the mean change and its 95% interval comes from the spread of the per-batch
    changes (batch means, Student t), so the pairing still narrows it. With a
    Dask ``client`` the batches run as its tasks (``count`` must pickle); the
    counts are the same. With a checkpoint ``store`` each loadout's counts are
    saved and a resumed run reads them back."""
    size = trials // BATCHES
    if size < 2:
        raise LoadoutError(f"--trials: {trials}; give at least {2 * BATCHES} for {BATCHES} paired batches")
    start = time.perf_counter()
    c0 = _batch_counts(partial(count, base), size, client, store, f"{tag}-base")
    rows = [{"item": item_id, "family": content.items[item_id].family, "price": content.items[item_id]["price"],
             "cost_change": loadout.cost(content) - base.cost(content),
             **_batch_row(c0, _batch_counts(partial(count, loadout), size, client, store, f"{tag}-{item_id}"), size,
                          outcome)}
            for item_id, loadout in variants]
    table, rate = priced_table(rows)
    return ValueResult(table, c0.sum() / (size * BATCHES), rate, size * BATCHES, seed, time.perf_counter() - start)


def _batch_counts(count, size, client=None, store=None, name=""):
    """Successes of each of the ``BATCHES`` batches of ``size`` trials (as tasks of
    ``client`` if given), read from or saved to the checkpoint ``store`` as ``name``."""
    path = f"batches-{name}-{size}.npz"
    saved = store.load(path) if store is not None else None
    if saved is not None:
        return saved["counts"]
    counts = np.array(map_batches(client, count, [k * size for k in range(BATCHES)], size), np.float64)
    if store is not None:
        store.save(path, {"counts": counts})
    return counts


def _batch_row(c0, c1, size, outcome):
    """The paired batch-means value of ``c1`` against ``c0`` (Student t interval)."""
    n = size * BATCHES
    diff = (c1 - c0) / size
    mean, se = float(diff.mean()), float(diff.std(ddof=1)) / math.sqrt(BATCHES)
    p0, p1 = c0.sum() / n, c1.sum() / n
    return {outcome: p1, "value": mean, "ci_low": mean - T_BATCHES * se, "ci_high": mean + T_BATCHES * se,
            "paired_se": se, "unpaired_se": math.sqrt((p0 * (1 - p0) + p1 * (1 - p1)) / n)}


def journey_values(content: Content, base: Loadout, strategy, *, days, trials, seed, client=None, store=None
                   ) -> ValueResult:
    """The value of every item in campaigns of ``days`` days: the change in the
    chance to finish every order (``p_complete``), on the same campaigns."""
    from sim.run.journey import simulate_journey

    def completed(loadout, first, n):
        return int(simulate_journey(content, loadout, strategy, days=days, trials=n, seed=seed,
                                    trial_start=first).counts[0])

    return batch_values(content, base, journey_variants(content, base), completed, trials=trials, seed=seed,
                        outcome="p_complete", client=client, store=store, tag=strategy.name)


STALKERIADA_ITEMS = (("ozk", "ozk"), ("pliers", "pliers"), ("nut", "nuts"))  # shop item, planner parameter


def stalkeriada_values(content: Content, strategy, opponents, *, games, seed, client=None, store=None, tag=""
                       ) -> ValueResult:
    """The value of each Stalkeriada shop item (S-08, S-11, S-15) to a planner
    strategy: the change in its win rate when it buys the item (its nuts, for
    the nut) against when it does not, at a table with ``opponents``, every
    seat order played on the same dice; the batches run on a Dask ``client`` if given,
    and are kept in a checkpoint ``store`` under names that start with ``tag``."""
    from sim.content.stalkeriada import load_stalkeriada
    from sim.run.stalkeriada import simulate_stalkeriada
    from strategies.stalkeriada import PLANNER_PARAMS

    shop = load_stalkeriada(content).settings["shop"]
    size = games // BATCHES
    if size < 2:
        raise LoadoutError(f"--trials: {games}; give at least {2 * BATCHES} games for {BATCHES} paired batches")
    start = time.perf_counter()

    def wins(player, first, k):
        result = simulate_stalkeriada(content, [player, *opponents], games=k, seed=seed, rotate_seats=True,
                                      first_game=first)
        return int(result.win_rates()["wins"][0]) / (1 + len(opponents))

    c0 = _batch_counts(partial(wins, strategy), size, client, store, f"{tag}{strategy.name}-base")
    rows = []
    for item, param in STALKERIADA_ITEMS:
        i = PLANNER_PARAMS.index(param)
        held = strategy.params[i]
        count = held if param == "nuts" and held > 0 else (2.0 if param == "nuts" else 1.0)
        params = list(strategy.params)
        params[i] = 0.0 if held else count
        other = replace(strategy, name=f"{strategy.name} {'without' if held else 'with'} {item}", params=tuple(params))
        c1 = _batch_counts(partial(wins, other), size, client, store, f"{tag}{strategy.name}-{item}")
        row = _batch_row(c0, c1, size, "win_rate")
        if held:  # the value of having it: base minus the variant without it
            row.update(value=-row["value"], ci_low=-row["ci_high"], ci_high=-row["ci_low"], win_rate=c0.sum() / (size * BATCHES))
        rows.append({"item": item, "family": "stalkeriada shop", "price": shop[item], "count": int(count),
                     "cost_change": int(shop[item] * count), **row})
    table, rate = priced_table(rows)
    return ValueResult(table, c0.sum() / (size * BATCHES), rate, size * BATCHES, seed, time.perf_counter() - start)
