"""Fight scenarios: loadout + monsters + strategy -> kernel runs -> ``FightResult``."""

import math
import time
from dataclasses import dataclass, field

import numpy as np

from sim.analysis.exact import solve_fight
from sim.analysis.optimal import Carried, solve_optimal
from sim.analysis.stats import wilson
from sim.content import Content
from sim.content.loadout import Loadout, LoadoutError, check_monsters
from sim.kernels import fight as K
from sim.run.chunks import Chunk

PROBABILITIES = ("p_survive", "p_win", "p_draw", "p_escape", "p_death")


def fight_template(content: Content, loadout: Loadout, monsters) -> tuple[np.ndarray, list]:
    """The kernel's starting view for this fight, and the labels of its ``used``
    counters (healing ids, then explosive ids, in content order)."""
    loadout.validate(content)
    monsters = check_monsters(content, monsters)
    character, stalker = content.characters[loadout.character], loadout.stalker(content)  # Z-01
    healing, explosives = content.family("healing"), content.family("explosives")
    fight_rules = content.rules["fight"]
    view = np.zeros(K.view_size(len(healing), len(explosives), len(monsters)), np.int64)
    view[K.MAX_HP], view[K.HP] = stalker.max_hp, stalker.hp  # Z-02
    view[K.DEFENCE] = sum(content.items[a]["defence"] for a in (loadout.head, loadout.body) if a)  # Z-23, Z-24
    # Z-06: character bonuses are permanent: Verzila's HP, Gromoboi's damage and
    # Doktor's healing apply in every fight (Mazhor's money plays no part in one)
    damage_bonus = character["damage_bonus"]  # Z-05, Z-19
    if loadout.weapon:  # Z-20, Z-22: the active firearm and its modifiers; stowed ones play no part
        view[K.FIREARM_DICE] = content.items[loadout.weapon]["dice"]  # Z-15, Z-16
        mods = sum(content.items[m]["bonus"] for m in loadout.mods)
        view[K.FIREARM_BONUS] = min(fight_rules["modifier_cap"], mods) + damage_bonus  # Z-21
    view[K.EXPLOSIVE_BONUS] = damage_bonus
    view[K.HEAL_BONUS] = character["heal_bonus"]  # Z-03
    reduction = content.items[loadout.escape_item]["reputation"] if loadout.escape_item else 0
    view[K.REPUTATION] = max(0, stalker.reputation + reduction)  # Z-07, Z-32
    view[K.ESCAPE_AUTO_MAX] = fight_rules["escape_auto_max"]
    view[K.MAX_ROUNDS] = fight_rules["max_rounds"]
    K.layout(view, len(healing), len(explosives), len(monsters))
    view[K.N_ALIVE] = len(monsters)
    carried = loadout.cards()
    for i, item in enumerate(healing):
        o = view[K.HEAL0] + K.HEAL_SLOTS * i
        view[view[K.HEAL_N0] + i] = carried.get(item.id, 0)
        view[o + K.H_HEAL] = item["heal"] + character["heal_bonus"]
        view[o + K.H_IN_COMBAT] = int(item["in_combat"])
    for e, item in enumerate(explosives):
        view[view[K.EXPL_N0] + e] = carried.get(item.id, 0)
        view[view[K.EXPL0] + K.EXPL_SLOTS * e + K.E_DICE] = item["dice"]
    K.recount(view)
    for m, monster_id in enumerate(monsters):
        monster = content.monsters[monster_id]  # Z-37
        o = view[K.MON0] + K.MON_SLOTS * m
        view[view[K.MON_HP0] + m] = view[o + K.M_MAX_HP] = monster["hp"]
        view[o + K.M_DICE], view[o + K.M_BONUS] = monster["dice"], monster["bonus"]
        view[o + K.M_DEFENCE] = monster["defence"]
    return view, [e.id for e in healing] + [e.id for e in explosives]


def survived(template, strategy, *, trials, seed, first=0) -> np.ndarray:
    """Per-trial survival (True unless the stalker died) of trials ``first .. first + trials - 1``
    of the fight whose kernel view is ``template`` (common random numbers for any loadout)."""
    out = np.empty(trials, np.int8)
    K.fight_outcomes(seed, first, trials, template, strategy.param_vector(), strategy.asks(), *strategy.decisions(),
                     out)
    return out != K.DEATH


@dataclass(frozen=True)
class FightMeasure:
    """A loadout's per-trial survival against ``monsters`` under ``strategy``:
    ``measure(loadout)(trials, seed, first)`` (picklable, for clusters)."""

    content: Content
    monsters: tuple
    strategy: object

    def __call__(self, loadout):
        template = fight_template(self.content, loadout, self.monsters)[0]
        return lambda trials, seed, first: survived(template, self.strategy, trials=trials, seed=seed, first=first)


@dataclass
class FightResult:
    """Aggregates of many fights (or the exact answer, with ``trials`` None)."""

    seed: int | None
    trials: int | None
    probabilities: dict
    ci95: dict
    mean_rounds: float
    mean_hp_left: float
    elapsed_s: float
    rounds_hist: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    hp_hist: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    items_used: dict = field(default_factory=dict)

    @property
    def encounters_per_s(self):
        if not self.trials or self.elapsed_s <= 0:
            return None
        return self.trials / self.elapsed_s

    def to_frame(self):
        """Tidy polars table: one row per probability with its 95% interval."""
        import polars as pl

        return pl.DataFrame({
            "metric": list(self.probabilities),
            "value": list(self.probabilities.values()),
            "ci_lo": [self.ci95[k][0] for k in self.probabilities],
            "ci_hi": [self.ci95[k][1] for k in self.probabilities],
        })

    def summary(self):
        """The JSON contract of ``zonesim encounter --json``."""
        return {
            **{k: self.probabilities[k] for k in PROBABILITIES},
            "ci95": {k: list(self.ci95[k]) for k in PROBABILITIES},
            "mean_rounds": self.mean_rounds,
            "mean_hp_left": None if math.isnan(self.mean_hp_left) else self.mean_hp_left,
            "trials": self.trials,
            "seed": self.seed,
            "elapsed_s": self.elapsed_s,
            "encounters_per_s": self.encounters_per_s,
            "items_used_per_fight": self.items_used,
        }


@dataclass(frozen=True)
class FightWork:
    """One chunk of fights from a kernel view ``template`` (picklable, for clusters):
    ``{counts, rounds_hist, hp_hist, used, elapsed_s}``, the sums of ``K.run_fights``."""

    template: np.ndarray
    strategy: object
    seed: int

    def __call__(self, chunk):
        t = self.template
        sums = {"counts": np.zeros(len(K.OUTCOMES), np.int64), "rounds_hist": np.zeros(t[K.MAX_ROUNDS] + 1, np.int64),
                "hp_hist": np.zeros(t[K.MAX_HP] + 1, np.int64), "used": np.zeros(t[K.N_HEAL] + t[K.N_EXPL], np.int64)}
        start = time.perf_counter()
        K.run_fights(self.seed, chunk.start, chunk.n, t, self.strategy.param_vector(), self.strategy.asks(),
                     *self.strategy.decisions(), *sums.values())
        sums["elapsed_s"] = np.array(time.perf_counter() - start)
        return sums


class FightRun:
    """Accumulates kernel chunks of one scenario; any chunking gives the same sums."""

    SUMS = ("counts", "rounds_hist", "hp_hist", "used")  # run_fights' aggregates, in its argument order

    def __init__(self, content, loadout, monsters, strategy, seed):
        self.template, self.labels = fight_template(content, loadout, monsters)
        self.strategy, self.seed = strategy, seed
        self.counts = np.zeros(len(K.OUTCOMES), np.int64)
        self.rounds_hist = np.zeros(self.template[K.MAX_ROUNDS] + 1, np.int64)
        self.hp_hist = np.zeros(self.template[K.MAX_HP] + 1, np.int64)
        self.used = np.zeros(len(self.labels), np.int64)
        self.trials = 0
        self.elapsed = 0.0

    def advance(self, n, saved=None):
        """Run the next ``n`` trials (trial indices continue from the last chunk), or
        add their ``saved`` sums; returns the chunk's sums (``SUMS`` and its seconds)."""
        part = saved
        if part is None:
            part = FightWork(self.template, self.strategy, self.seed)(Chunk(0, self.trials, n))
            self.elapsed += float(part["elapsed_s"])
        for name in self.SUMS:
            getattr(self, name)[:] += part[name]
        self.trials += n
        return part

    def survive_ci_width(self):
        lo, hi = wilson(self.trials - int(self.counts[K.DEATH]), self.trials)
        return hi - lo

    def result(self) -> FightResult:
        n = self.trials
        win, draw, esc, death = (int(c) for c in self.counts)
        successes = {"p_survive": n - death, "p_win": win, "p_draw": draw, "p_escape": esc, "p_death": death}
        survivors = n - death
        hp_values = np.arange(self.hp_hist.size)
        return FightResult(
            seed=self.seed, trials=n,
            probabilities={k: v / n for k, v in successes.items()},
            ci95={k: wilson(v, n) for k, v in successes.items()},
            mean_rounds=float(self.rounds_hist @ np.arange(self.rounds_hist.size)) / n,
            mean_hp_left=float(self.hp_hist[1:] @ hp_values[1:]) / survivors if survivors else math.nan,
            elapsed_s=self.elapsed,
            rounds_hist=self.rounds_hist.copy(), hp_hist=self.hp_hist.copy(),
            items_used={k: int(v) / n for k, v in zip(self.labels, self.used) if v},
        )


def simulate_fight(content, loadout, monsters, strategy, *, trials, seed, chunk=1 << 20,
                   target_ci=None, on_progress=None, store=None) -> FightResult:
    """Monte Carlo fights. With ``target_ci`` run chunks until the 95% interval of
    ``p_survive`` is narrower than it, with ``trials`` as the hard cap. With a
    checkpoint ``store`` each chunk's sums are kept, and a resumed run adds the
    kept ones instead of fighting them again (the same stopping point)."""
    if trials < 1:
        raise LoadoutError(f"--trials: {trials}; give at least 1 trial")
    run = FightRun(content, loadout, monsters, strategy, seed)
    while run.trials < trials:
        n = min(chunk, trials - run.trials)
        name = f"fights-{run.trials}-{n}.npz"
        saved = store.load(name) if store is not None else None
        part = run.advance(n, saved)
        if saved is None and store is not None:
            store.save(name, part)
        if on_progress:
            on_progress(run.trials, trials, run.survive_ci_width() if target_ci else None)
        if target_ci is not None and run.survive_ci_width() < target_ci:
            break
    return run.result()


def _one_monster(content, loadout, monsters, option) -> tuple[np.ndarray, list]:
    """The fight's starting view and labels; ``option`` solves one monster only."""
    view, labels = fight_template(content, loadout, monsters)
    if view[K.N_MON] != 1:
        raise LoadoutError(f"{option}: solves one monster; give a single --monster")
    return view, labels


def _heal_before(view, strategy) -> None:
    """The strategy's own pre-fight heal with medkits (Z-31: outside combat)."""
    params = strategy.param_vector()
    view[K.IN_COMBAT] = 0
    while (i := strategy.heal(view, params)) != K.NONE:
        view[view[K.HEAL_N0] + i] -= 1
        view[K.HP] = min(view[K.MAX_HP], view[K.HP] + view[view[K.HEAL0] + K.HEAL_SLOTS * i + K.H_HEAL])


def _p_escape_roll(view) -> float:
    """Z-33: the escape roll succeeds on a d6 >= the effective reputation; at or
    under ``escape_auto_max`` it always does."""
    rep = int(view[K.REPUTATION])
    return 1.0 if rep <= view[K.ESCAPE_AUTO_MAX] else min(1.0, max(0, 7 - rep) / 6)


def _fight_numbers(view) -> dict:
    """The stalker's and the one monster's numbers as the ``sim.analysis`` solvers take them."""
    m = view[K.MON0]
    return dict(hp=int(view[K.HP]), max_hp=int(view[K.MAX_HP]), defence=int(view[K.DEFENCE]),
                attack_dice=int(view[K.FIREARM_DICE]), attack_bonus=int(view[K.FIREARM_BONUS]),
                monster_hp=int(view[view[K.MON_HP0]]), monster_dice=int(view[m + K.M_DICE]),
                monster_bonus=int(view[m + K.M_BONUS]), monster_defence=int(view[m + K.M_DEFENCE]),
                max_rounds=int(view[K.MAX_ROUNDS]))


def _stimulators(view, labels, content) -> tuple:
    """``Carried`` of every in-combat healing item held (Z-31): heal, count, price."""
    out = []
    for i in range(int(view[K.N_HEAL])):
        o, count = view[K.HEAL0] + K.HEAL_SLOTS * i, int(view[view[K.HEAL_N0] + i])
        if view[o + K.H_IN_COMBAT] and count:
            out.append(Carried(int(view[o + K.H_HEAL]), count, float(content.items[labels[i]]["price"])))
    return tuple(out)


def _explosives(view, labels, content) -> tuple:
    """``Carried`` of every explosive held (Z-17): dice, count, price."""
    n_heal, out = int(view[K.N_HEAL]), []
    for e in range(int(view[K.N_EXPL])):
        count = int(view[view[K.EXPL_N0] + e])
        if count:
            out.append(Carried(int(view[view[K.EXPL0] + K.EXPL_SLOTS * e + K.E_DICE]), count,
                               float(content.items[labels[n_heal + e]]["price"])))
    return tuple(out)


def _exact_result(solved, mean_rounds, mean_hp_left, elapsed_s) -> FightResult:
    """A ``FightResult`` of a solved fight (``ExactFight`` or ``OptimalFight``): zero-width intervals."""
    probabilities = {k: getattr(solved, k) for k in PROBABILITIES}
    return FightResult(seed=None, trials=None, probabilities=probabilities,
                       ci95={k: (v, v) for k, v in probabilities.items()},
                       mean_rounds=mean_rounds, mean_hp_left=mean_hp_left, elapsed_s=elapsed_s)


CHAINED = ("fighter", "runner")  # the strategies the absorbing chain solves (``sim.analysis.exact``)


def chain_solves(strategy_name: str, loadout) -> bool:
    """Whether ``exact_fight`` solves ``strategy_name`` with ``loadout``: fighter or runner, no explosives."""
    return strategy_name in CHAINED and not any(n for _, n in loadout.explosives)


def exact_fight(content, loadout, monsters, strategy) -> FightResult:
    """The absorbing-Markov-chain answer (``sim.analysis.exact``) for fighter or runner,
    one monster, no explosives (``chain_solves``)."""
    if strategy.name not in CHAINED:
        raise LoadoutError(f"--exact: solves the fighter and runner strategies and the optimal player, "
                           f"not '{strategy.name}'")
    view, labels = _one_monster(content, loadout, monsters, "--exact")
    if any(n for _, n in loadout.explosives):
        raise LoadoutError("--exact: solves the fighter's and runner's firearm fights; drop --explosives, "
                           "sample without --exact, or solve --strategy optimal")
    _heal_before(view, strategy)
    stims = tuple((s.amount, s.count) for s in _stimulators(view, labels, content))
    start = time.perf_counter()
    ex = solve_fight(stims=stims, p_escape_roll=_p_escape_roll(view) if strategy.name == "runner" else None,
                     **_fight_numbers(view))
    return _exact_result(ex, ex.mean_rounds, ex.mean_hp_left, time.perf_counter() - start)


def optimal_fight(content, loadout, monsters, g_weight=0.0, may_escape=True):
    """The optimal player's exact outcome against one monster (``sim.analysis.optimal``):
    medkits before the fight as the fighter uses them (Z-31), then his best escape try
    (Z-33; ``may_escape`` False: none, restricted play), weapon each round (Z-18) and
    stimulators at each death check (Z-08). A ``FightResult`` (its mean rounds and HP
    left are not solved: nan) and the ``OptimalFight``."""
    from strategies.basic import FIGHTER

    view, labels = _one_monster(content, loadout, monsters, "--strategy optimal")
    _heal_before(view, FIGHTER)
    start = time.perf_counter()
    try:
        best = solve_optimal(stims=_stimulators(view, labels, content), explosives=_explosives(view, labels, content),
                             explosive_bonus=int(view[K.EXPLOSIVE_BONUS]),
                             p_escape_roll=_p_escape_roll(view) if may_escape else None,
                             g_weight=g_weight, **_fight_numbers(view))
    except ValueError as exc:
        raise LoadoutError(f"--strategy optimal: {exc}") from exc
    return _exact_result(best, math.nan, math.nan, time.perf_counter() - start), best
