"""Running tactical skirmishes: compile a ``SkirmishSetup`` into the kernel's
array, run the kernel in chunks and turn its sums into tables with 95% intervals;
replay one skirmish action by action."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace

import numpy as np
import polars as pl

import sim.kernels.skirmish as K
from sim import hexgrid
from sim.analysis.stats import mean_interval, wilson
from sim.content.loadout import LoadoutError
from sim.content.skirmish import SkirmishSetup
from sim.run.chunks import plan, run_chunks
from strategies.skirmish import BEAST, SkirmishStrategy

FIGHTER_FIELDS = {  # kernel field <- setup key
    K.F_SIDE: "side", K.F_MAX_HP: "max_hp", K.F_HP: "max_hp", K.F_POS: "pos", K.F_FACING: "facing",
    K.F_AGILITY: "agility", K.F_DX: "dx", K.F_MOVE: "move", K.F_SEQUENCE: "sequence", K.F_SKILL: "skill",
    K.F_DEFENCE: "defence", K.F_DICE: "dice", K.F_BONUS: "bonus", K.F_RANGE: "range", K.F_ATTACK_AP: "attack_ap",
    K.F_AIMED_AP: "aimed_ap", K.F_MAG: "mag_size", K.F_MAG_SIZE: "mag_size", K.F_SPARE: "spare",
    K.F_FIREARM: "firearm", K.F_EXPL_N: "expl_count", K.F_EXPL_DICE: "expl_dice", K.F_EXPL_BONUS: "expl_bonus",
    K.F_MEDIC_SKILL: "medic_skill", K.F_MEDIC_USES: "medic_uses", K.F_TRAPS: "traps",
    K.F_INSUB: "insubstantial",
}


def skirmish_template(setup: SkirmishSetup) -> np.ndarray:
    """The kernel array ``g`` of a skirmish before its first round."""
    arena, fighters = setup.arena, setup.fighters
    n, nf = len(arena.mult), len(fighters)
    offsets, size = K.layout(n, nf)
    g = np.zeros(size, np.int64)
    g[K.H_O_NBR:K.H_O_SCRATCH + 1] = offsets
    g[K.H_N], g[K.H_COLS], g[K.H_F] = n, arena.cols, nf
    g[K.H_PARTY] = sum(1 for f in fighters if f["side"] == 0)
    g[K.H_OUTCOME] = K.NO
    for slot, name in K.RULE_FIELDS.items():
        g[slot] = setup.rules[name]
    g[g[K.H_O_NBR]:g[K.H_O_NBR] + 6 * n] = arena.nbr.ravel()
    g[g[K.H_O_MULT]:g[K.H_O_MULT] + n] = arena.mult
    g[g[K.H_O_DIST]:g[K.H_O_DIST] + n * n] = arena.dist.ravel()
    g[g[K.H_O_LOS]:g[K.H_O_LOS] + n * n] = arena.los.ravel()
    g[g[K.H_O_OWNER]:g[K.H_O_OWNER] + n] = K.NO
    for i, f in enumerate(fighters):
        o = g[K.H_O_FIGHTER] + K.FIGHTER_SIZE * i
        for slot, key in FIGHTER_FIELDS.items():
            g[o + slot] = int(f[key])
        (g[o + K.F_HEAL_N], g[o + K.F_HEAL_V]), (g[o + K.F_HEAL_N_B], g[o + K.F_HEAL_V_B]) = f["heal"]
        g[o + K.F_ALIVE] = 1
        g[o + K.F_HAND] = K.FIREARM
        g[o + K.F_AID_TARGET] = K.NO
        g[o + K.F_LAST_MAN] = K.M_NONE
        g[o + K.F_STRATEGY] = f["side"]
    return g


def decision_functions(strategy: SkirmishStrategy):
    """The kernel's two decision functions: the party's ``strategy`` and the monsters' ``beast``."""
    return (strategy.decide, BEAST.decide)


def skirmish_records(setup: SkirmishSetup, strategy: SkirmishStrategy, *, seed, trials, first=0, replay=None,
                     log_rows=4096):
    """Per-skirmish records (``trials`` x ``K.RECORD_FIELDS``) and, for the
    skirmish number ``replay``, its log of answers (rows ``K.L_*``)."""
    records = np.zeros((trials, K.N_RECORD), np.int64)
    log = np.zeros((log_rows, K.LOG_FIELDS), np.int64)
    K.skirmish_records(seed, first, trials, skirmish_template(setup), decision_functions(strategy), records, log,
                       -1 if replay is None else replay)
    rows = int(np.count_nonzero(log[:, K.L_ROUND]))
    return records, log[:rows]


@dataclass
class SkirmishResult:
    """The sums of a run: outcome counts, record sums and squares, rounds histogram."""

    names: tuple
    strategy: str
    trials: int
    seed: int
    tally: np.ndarray
    elapsed_s: float

    def _sum(self, name):
        f = K.RECORD_FIELDS.index(name)
        return int(self.tally[K.T_RECORD + f]), int(self.tally[K.T_SQUARES + f])

    def proportions(self) -> pl.DataFrame:
        """Win, loss, draw and the whole party surviving, with 95% Wilson intervals."""
        n = self.trials
        counts = {"win": self.tally[K.T_OUTCOMES + K.WIN], "loss": self.tally[K.T_OUTCOMES + K.LOSS],
                  "draw": self.tally[K.T_OUTCOMES + K.DRAW], "survive": self._sum("all_alive")[0]}
        rows = []
        for name, k in counts.items():
            lo, hi = wilson(int(k), n)
            rows.append({"measure": f"p_{name}", "value": int(k) / n, "ci_low": lo, "ci_high": hi})
        return pl.DataFrame(rows)

    def means(self) -> pl.DataFrame:
        """Every recorded count's mean per skirmish, with a 95% normal interval."""
        rows = []
        for name in K.RECORD_FIELDS[1:]:
            total, sq = self._sum(name)
            lo, hi = mean_interval(total, sq, self.trials)
            rows.append({"measure": name, "mean": total / self.trials, "ci_low": lo, "ci_high": hi})
        return pl.DataFrame(rows)

    def ap_spending(self) -> pl.DataFrame:
        """The party's AP per skirmish by action kind, with its share of all AP."""
        frame = self.means().filter(pl.col("measure").str.starts_with("ap_"))
        total = frame["mean"].sum()
        return frame.with_columns(pl.col("measure").str.strip_prefix("ap_").alias("kind"),
                                  (pl.col("mean") / (total or 1)).alias("share")).select(
            "kind", "mean", "ci_low", "ci_high", "share")

    def rounds(self) -> pl.DataFrame:
        hist = self.tally[K.T_ROUNDS:K.T_ROUNDS + 64]
        return pl.DataFrame({"rounds": np.arange(64), "skirmishes": hist}).filter(pl.col("skirmishes") > 0)

    def summary(self) -> dict:
        out = {"trials": self.trials, "seed": self.seed, "strategy": self.strategy, "fighters": list(self.names)}
        for row in self.proportions().iter_rows(named=True):
            out[row["measure"]] = row["value"]
            out.setdefault("ci95", {})[row["measure"]] = [row["ci_low"], row["ci_high"]]
        for row in self.means().iter_rows(named=True):
            out[f"mean_{row['measure']}"] = row["mean"]
            out["ci95"][f"mean_{row['measure']}"] = [row["ci_low"], row["ci_high"]]
        out["elapsed_s"] = self.elapsed_s
        out["skirmishes_per_s"] = self.trials / self.elapsed_s if self.elapsed_s > 0 else math.inf
        return out


@dataclass
class SkirmishWork:
    """One chunk of skirmishes from a template (picklable, for clusters): ``{tally, elapsed_s}``."""

    template: np.ndarray
    strategy: SkirmishStrategy
    seed: int

    def __call__(self, chunk):
        tally = np.zeros(K.TALLY_SIZE, np.int64)
        start = time.perf_counter()
        K.run_skirmishes(self.seed, chunk.start, chunk.n, self.template, decision_functions(self.strategy), tally)
        return {"tally": tally, "elapsed_s": np.float64(time.perf_counter() - start)}


def simulate_skirmish(setup: SkirmishSetup, strategy: SkirmishStrategy, *, trials, seed, chunk=1 << 16,
                      on_progress=None, client=None, store=None) -> SkirmishResult:
    """``trials`` skirmishes of the setup, the party playing ``strategy``, in chunks
    (here or on a Dask ``client``; finished chunks kept in ``store``, ``sim.run.chunks``)."""
    if trials < 1:
        raise LoadoutError(f"--trials: {trials}; give at least 1")
    work = SkirmishWork(skirmish_template(setup), strategy, seed)
    total = run_chunks(work, plan(trials, chunk), client=client, store=store, on_progress=on_progress)[0]
    return SkirmishResult(setup.names, strategy.name, trials, seed, total["tally"], float(total["elapsed_s"]))


DIRECTIONS = hexgrid.COUNTER_CLOCKWISE  # M-01: the names of directions 0..5


def describe(setup: SkirmishSetup, row) -> str:
    """One log row as a line a designer can read."""
    c = int(row[K.L_CODE])
    kind, a, b = c & 255, (c >> 8) & 255, (c >> 16) & 255
    names = setup.names
    cols = setup.arena.cols
    if kind == K.MANOEUVRE:
        what = f"manoeuvre {K.MANOEUVRE_NAMES[a] if a < len(K.MANOEUVRE_NAMES) else a}"
    elif kind == K.END:
        what = "end turn" + (f", face {DIRECTIONS[a]}" if a < 6 else "")
    elif kind == K.MOVE:
        what = f"move {DIRECTIONS[a] if a < 6 else a}" + (" (sideways, no turn)" if b else "")
    elif kind == K.TURN:
        what = f"turn to {DIRECTIONS[a] if a < 6 else a}"
    elif kind == K.STEP:
        what = ("step " + (DIRECTIONS[a] if a < 6 else "stay" if a == K.STAY else "kneel/stand")
                + f", face {DIRECTIONS[b] if b < 6 else b}")
    elif kind == K.SHOOT:
        target = names[a] if a < len(names) else a
        what = f"{'aimed ' if b else ''}attack {target}#{a}"
        if row[K.L_ROLL2]:
            hit = row[K.L_ROLL1] <= row[K.L_ROLL2]
            what += f": rolled {row[K.L_ROLL1]} vs {row[K.L_ROLL2]}% " + (
                f"hit for {row[K.L_ROLL3]}" if hit else "miss")
    elif kind in (K.FIRST_AID, K.PICKUP):
        what = f"{K.ACTION_NAMES[kind]} {names[a] if a < len(names) else a}#{a}"
    else:
        what = K.ACTION_NAMES[kind] if kind < len(K.ACTION_NAMES) else f"kind {kind}"
    if kind == K.MOVE and row[K.L_ROLL1]:
        what += f" (evade: {row[K.L_ROLL1]} vs {row[K.L_ROLL2]})"
    if kind in (K.LAY_MINE, K.FIRST_AID) and row[K.L_ROLL1]:
        what += f" (rolled {row[K.L_ROLL1]})"
    if kind in (K.MOVE, K.STEP) and row[K.L_ROLL3]:
        what += f" (a mine: {row[K.L_ROLL3]} damage)"
    r, col = divmod(int(row[K.L_POS]), cols)
    state = (f"AP {row[K.L_AP]:>2}  at ({r:>2},{col:>2}) facing {DIRECTIONS[row[K.L_FACING]]:<2}  "
             f"HP {row[K.L_HP]:>3}")
    flag = "" if row[K.L_OK] else "  ILLEGAL"
    who = f"{names[row[K.L_FIGHTER]]}#{row[K.L_FIGHTER]}"
    return f"r{row[K.L_ROUND]:<2} {who:<16} {state}  {what}{flag}"


def replay_text(setup: SkirmishSetup, strategy: SkirmishStrategy, *, seed, trial) -> str:
    """Skirmish number ``trial`` turn by turn, then its record."""
    records, log = skirmish_records(setup, strategy, seed=seed, trials=1, first=trial, replay=trial)
    lines = [describe(setup, row) for row in log]
    rec = dict(zip(K.RECORD_FIELDS, records[0].tolist()))
    lines.append(f"-> {K.OUTCOMES[rec['outcome']]} after {rec['rounds']} rounds; stalkers alive {rec['alive']}, "
                 f"damage dealt {rec['damage_dealt']}, taken {rec['damage_taken']}")
    return "\n".join(lines)


def terrain_sweep(make, strategy: SkirmishStrategy, arena, distances, *, trials, seed, on_progress=None, client=None):
    """P(party survives) for every starting distance with every open hex of the
    arena at multiplier 1, 2 and 3 (A-03). ``make(arena, distance)`` builds a setup;
    each point runs on the Dask ``client`` if given."""
    rows, done = [], 0
    for m in (1, 2, 3):
        plain = replace(arena, mult=np.where(arena.mult > 0, m, 0))
        for d in distances:
            result = simulate_skirmish(make(plain, d), strategy, trials=trials, seed=seed, client=client)
            p = result.proportions().row(3, named=True)
            rows.append({"terrain": m, "distance": d, "p_survive": p["value"], "ci_low": p["ci_low"],
                         "ci_high": p["ci_high"], "trials": trials})
            done += trials
            if on_progress:
                on_progress(done, None, None)
    return pl.DataFrame(rows)


@dataclass(frozen=True)
class SkirmishMeasure:
    """The measure the economy values cards in a skirmish with (``sim.economy``): a one-stalker
    party's per-trial survival against ``monsters`` (each fighter rolls from its
    own stream, so loadouts meet the same dice)."""

    content: object
    sk: object
    monsters: tuple
    arena: object
    strategy: SkirmishStrategy
    distance: int | None = None

    def __call__(self, loadout):
        from sim.content.skirmish import make_setup

        template = skirmish_template(make_setup(self.content, self.sk, [loadout], list(self.monsters), self.arena,
                                                self.strategy.name, self.distance))

        def run(trials, seed, first):
            out = np.empty(trials, np.int8)
            K.skirmish_survival(seed, first, trials, template, decision_functions(self.strategy), out)
            return out.astype(bool)
        return run


def skirmish_measure(content, sk, monsters, arena, strategy: SkirmishStrategy, distance=None) -> SkirmishMeasure:
    return SkirmishMeasure(content, sk, tuple(monsters), arena, strategy, distance)
