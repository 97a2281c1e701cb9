"""How to pass strategies into numba kernels: measured, not guessed.

    python bench/strategy_passing.py

Two ways, each in fresh processes with an empty numba cache and again with the
cache filled by the first process:

- ``FunctionType``: the shipped kernel ``sim.kernels.fight.run_fights``, compiled
  once with decisions typed ``numba.types.FunctionType(DECISION)``;
- ``dispatcher``: the same fight loop with decisions passed as plain jitted
  functions, so numba specialises (and may inline) them, per strategy.

For each it prints the first-call time (compile or cache load) for fighter and
then for runner in the same process, and the encounters per second.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
sys.path.insert(0, {root!r})
t0 = time.perf_counter()
import numpy as np
from numba import njit, prange
import strategies
from sim.content import load_content
from sim.content.loadout import Loadout
from sim.kernels import fight as K
from sim.run.fight import fight_template

@njit(parallel=True, cache=True)
def run_dispatcher(seed, n_trials, template, params, asks, escape, target, weapon, heal, rescue, counts):
    n_blocks = (n_trials + K.BLOCK - 1) // K.BLOCK
    c_b = np.zeros((n_blocks, counts.size), np.int64)
    u_b = np.zeros((n_blocks, 16), np.int64)
    seed_mixed = K.mix(np.uint64(seed))
    for b in prange(n_blocks):
        view = template.copy()
        rng = np.zeros(K.RNG_SIZE, np.uint64)
        for trial in range(b * K.BLOCK, min(n_trials, (b + 1) * K.BLOCK)):
            K._reset(view, template)
            base = K.trial_base(seed_mixed, trial)
            rng[K.TRIAL_BASE] = base
            rng[K.ESCAPE_KEYED] = 0
            K.start_stream(rng, K.STALKER, base, K.STALKER)
            K.start_stream(rng, K.MONSTER, base, K.MONSTER)
            c_b[b, K.fight_once(view, params, asks, rng, escape, target, weapon, heal, rescue, u_b[b])] += 1
    counts += c_b.sum(axis=0)

content = load_content()
template, labels = fight_template(content, Loadout(weapon="ak47", body="vest", healing=(("stimulator", 2),)),
                                  ["bloodsucker"])
imported = time.perf_counter() - t0
out = {{"import_s": imported}}
n = 10_000_000
for name in ("fighter", "runner"):
    s = strategies.get(name)
    counts = np.zeros(4, np.int64)
    t = time.perf_counter()
    if {mode!r} == "FunctionType":
        z = lambda a: np.zeros(a, np.int64)
        K.run_fights(1, 0, 1000, template, s.param_vector(), s.asks(), *s.decisions(), counts, z(31), z(26), z(len(labels)))
        first = time.perf_counter() - t
        t = time.perf_counter()
        K.run_fights(1, 0, n, template, s.param_vector(), s.asks(), *s.decisions(), counts, z(31), z(26), z(len(labels)))
    else:
        run_dispatcher(1, 1000, template, s.param_vector(), s.asks(), *s.decisions(), counts)
        first = time.perf_counter() - t
        t = time.perf_counter()
        run_dispatcher(1, n, template, s.param_vector(), s.asks(), *s.decisions(), counts)
    out[name + "_first_call_s"] = first
    out[name + "_encounters_per_s"] = n / (time.perf_counter() - t)
print(json.dumps(out))
"""


def child(mode, cache_dir):
    """Run one measuring process (a script file, so numba can cache its kernel)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    script = Path(cache_dir) / f"measure_{mode}.py"
    script.write_text(CHILD.format(root=str(ROOT), mode=mode))
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"{mode} measurement failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    rows = []
    for mode in ("FunctionType", "dispatcher"):
        with tempfile.TemporaryDirectory() as cache:
            for state in ("empty cache", "warm cache"):
                rows.append((mode, state, child(mode, cache)))
    print(f"{'passing':13s} {'cache':12s} {'import':>7s} {'fighter 1st':>12s} {'runner 1st':>11s} "
          f"{'fighter enc/s':>14s} {'runner enc/s':>13s}")
    for mode, state, r in rows:
        print(f"{mode:13s} {state:12s} {r['import_s']:6.1f}s {r['fighter_first_call_s']:11.2f}s "
              f"{r['runner_first_call_s']:10.2f}s {r['fighter_encounters_per_s']:14,.0f} "
              f"{r['runner_encounters_per_s']:13,.0f}")


if __name__ == "__main__":
    main()
