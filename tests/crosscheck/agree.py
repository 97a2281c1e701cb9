"""The numba kernels and the plain-Python references on the same random streams,
mode by mode: each helper runs both engines and asserts every number equal
(the cross-check tests and the mode contract, tests/modes, use them).

Besides the built-in skirmish strategies, ``chaos`` answers a pseudo-random
action computed from the state (round, AP, position, facing, HP), the same in
both engines, so every action kind, its illegal cases and the rare rules come up.
"""

import numpy as np
from numba import njit

import sim.kernels.skirmish as K
import sim.kernels.stalkeriada as KS
import sim.reference.skirmish as R
import strategies as registry
from sim.content.stalkeriada import load_stalkeriada
from sim.kernels.journey import DEATH_CAP
from sim.reference import fight as fight_ref
from sim.reference import journey as journey_ref
from sim.reference.loadout import loadout_from_dict
from sim.reference.stalkeriada import load_settings, run_games
from sim.run.journey import simulate_journey
from sim.run.skirmish import skirmish_template
from sim.run.stalkeriada import game_records
from strategies.journey import JourneyStrategy
from strategies.skirmish import BEAST, SkirmishStrategy
from tests.conftest import kernel_aggregates


def fights_agree(content, ref_content, loadout: dict, monsters, strategy: str, seed, n, trial_start=0):
    """``n`` fights from trial ``trial_start`` in both engines: outcome counts, rounds and HP
    histograms and items used equal; the kernel's sums (``kernel_aggregates``)."""
    kernel = kernel_aggregates(content, loadout, monsters, registry.get(strategy), seed, n,
                               trial_start=trial_start)
    reference = fight_ref.run_fights(ref_content, loadout, monsters, strategy, seed, n, trial_start=trial_start)
    for key in ("counts", "rounds_hist", "hp_hist", "used"):
        assert kernel[key] == reference[key], key
    return kernel


def journeys_agree(content, ref_content, loadout: dict, strategy: dict, days, seed, n):
    """``n`` campaigns in both engines: completion, survival, days, orders held and done, deaths,
    levels, money, kills, reputation, wealth, purchases, items used, traffic and deaths per hex
    all equal; the kernel's result."""
    kernel = simulate_journey(content, loadout_from_dict(loadout),
                              JourneyStrategy("crosscheck", "", strategy["fight"], strategy["danger_weight"],
                                              strategy["recover_loot"], strategy.get("order_choice", "listed"),
                                              strategy.get("restock", True), strategy.get("seek_danger", 0)),
                              days=days, trials=n, seed=seed)
    reference = journey_ref.run_journeys(ref_content, loadout, strategy, days, seed, n)
    assert int(kernel.counts[0]) == reference["counts"]["completed"]
    assert int(kernel.counts[1]) == reference["counts"]["survived"]
    done = {(d if d <= days else None): int(c) for d, c in enumerate(kernel.done_hist) if c}
    assert done == {k: v for k, v in reference["completion_day"].items() if v}
    assert {i: int(c) for i, c in enumerate(kernel.orders_hist) if c} == reference["orders_held"]  # Z-41
    assert kernel.sums[7] == sum(n * c for n, c in reference["orders_done"].items())  # Z-09: completions
    assert kernel.sums[8] == reference["reputation_sum"]
    assert kernel.sums[9] == reference["wealth_sum"]  # Z-12
    capped = {}
    for deaths, count in reference["deaths"].items():  # the kernel's last bin holds DEATH_CAP or more
        capped[min(deaths, DEATH_CAP)] = capped.get(min(deaths, DEATH_CAP), 0) + count
    assert {i: int(c) for i, c in enumerate(kernel.deaths_hist) if c} == capped
    assert kernel.sums[0] == reference["money"] and kernel.sums[1] == reference["money_sq"]
    assert kernel.sums[2] == reference["kills"]
    assert {lv: int(c) for lv, c in enumerate(kernel.level_hist) if c} == reference["levels"]  # K-04
    assert kernel.sums[3] == reference["missions"]
    assert kernel.sums[4] == reference["spent"]  # Z-11..Z-13, Z-40
    assert kernel.sums[5] == sum(d * c for d, c in reference["deaths"].items())
    assert kernel.sums[6] == sum(d * d * c for d, c in reference["deaths"].items())
    assert {k: round(v * n) for k, v in kernel.purchases.items()} == {k: v for k, v in reference["purchases"].items()
                                                                      if v}
    assert {k: round(v * n) for k, v in kernel.items_used.items()} == reference["used"]
    width = kernel.traffic.shape[1]
    traffic = {(i % width, i // width): int(c) for i, c in enumerate(kernel.traffic.ravel()) if c}
    deaths = {(i % width, i // width): int(c) for i, c in enumerate(kernel.deaths_at.ravel()) if c}
    assert traffic == reference["traffic"] and deaths == reference["deaths_at"]
    return kernel


def chaos_answer(rnd, ap, pos, facing, hp, i, n_fighters, man, pts):
    """The ``chaos`` strategy's answer code, from the state's numbers alone."""
    h = rnd * 131 + ap * 31 + pos * 7 + facing * 3 + i * 17 + hp * 5 + (man + 1) * 977 + pts * 53
    if man == K.M_NONE:
        return K.MANOEUVRE | ((h % 6) << 8)  # 5 is not a manoeuvre: illegal
    kind = h % 13
    if kind in (K.SHOOT, K.FIRST_AID, K.PICKUP):
        return kind | (((h // 13) % n_fighters) << 8) | (((h // 104) % 2) << 16)
    return kind | (((h // 13) % 8) << 8) | (((h // 104) % 7) << 16)


chaos_code = njit(cache=True)(chaos_answer)


@njit(K.DECISION, cache=True)
def chaos(g, i):
    o = K.fb(g, i)
    return chaos_code(g[K.H_ROUND], g[o + K.F_AP], g[o + K.F_POS], g[o + K.F_FACING], g[o + K.F_HP], i, g[K.H_F],
                      g[K.H_MAN], g[K.H_PTS] if g[K.H_MAN] != K.M_NONE else 0)


def reference_chaos(state, i):
    f = state.fighters[i]
    man = R.M_NONE if state.phase == R.PHASE_MANOEUVRE else f.manoeuvre
    return chaos_answer(state.round, f.ap, f.pos, f.facing, f.hp, i, len(state.fighters), man,
                        f.pts if man != R.M_NONE else 0)


CHAOS = SkirmishStrategy("chaos", "state-driven pseudo-random actions", chaos)


def kernel_run(setup, party, monsters, seed, trials):
    """Records and per-skirmish logs of the kernel, ``party``/``monsters`` strategies."""
    template = skirmish_template(setup)
    out = []
    for t in range(trials):
        records = np.zeros((1, K.N_RECORD), np.int64)
        log = np.zeros((8192, K.LOG_FIELDS), np.int64)
        K.skirmish_records(seed, t, 1, template, (party.decide, monsters.decide), records, log, t)
        rows = log[log[:, K.L_ROUND] > 0]
        out.append((records[0].tolist(), [tuple(int(x) for x in r[[K.L_ROUND, K.L_FIGHTER, K.L_CODE, K.L_OK]])
                                          for r in rows]))
    return out


def reference_run(setup, party, monsters, seed, trials):
    """Records and per-skirmish logs of the reference, in ``kernel_run``'s terms."""
    out = []
    for t in range(trials):
        sides = {i: (party if f["side"] == 0 else monsters) for i, f in enumerate(setup.fighters)}
        log = []
        rec = R.play(setup, seed, t, strategies=sides, log=log)
        fields = [rec[k] for k in ("outcome", "rounds", "alive", "all_alive", "damage_dealt", "damage_taken", "kills",
                                   "shots", "hits", "illegal")] + list(rec["ap"])
        out.append(([int(x) for x in fields], [(r, i, c, int(ok)) for r, i, c, ok in log]))
    return out


def skirmishes_agree(setup, party_name, seed, trials, monsters_name="beast"):
    """``trials`` skirmishes of ``setup`` in both engines, the party playing ``party_name``
    (a built-in or ``chaos``), the monsters ``monsters_name``: every record and every
    answer with its legality equal, in order; the kernel's (records, log) per skirmish."""
    kernel_strats = {"chaos": CHAOS, "beast": BEAST}
    ref_strats = {"chaos": reference_chaos, **R.STRATEGIES}
    party = kernel_strats.get(party_name) or registry.get(party_name, mode="skirmish")
    got = kernel_run(setup, party, kernel_strats[monsters_name], seed, trials)
    want = reference_run(setup, ref_strats[party_name], ref_strats[monsters_name], seed, trials)
    for t, ((rec_k, log_k), (rec_r, log_r)) in enumerate(zip(got, want)):
        if log_k != log_r:
            first = next(k for k, (a, b) in enumerate(zip(log_k + [None], log_r + [None])) if a != b)
            raise AssertionError(f"skirmish {t}: answer {first} differs: kernel {log_k[first:first + 3]} "
                                 f"reference {log_r[first:first + 3]}")
        assert rec_k == rec_r, f"skirmish {t}: kernel {dict(zip(K.RECORD_FIELDS, rec_k))} " \
                               f"reference {dict(zip(K.RECORD_FIELDS, rec_r))}"
    return got


def games_agree(content, players, games, seed, rotation=0, start_bonus=None):
    """``games`` Stalkeriada games of ``players`` (names; ``start_bonus``: each one's G above the
    starting money, S-10) in both engines: winner, length, turns, every record and the money by
    round equal, game for game; the kernel's results."""
    seated = [registry.get(p, mode="stalkeriada") for p in players]
    results, records, money_rounds = game_records(content, seated, seed=seed, games=games, rotation=rotation,
                                                  start_bonus=start_bonus)
    P = len(players)
    seat_params = [list(seated[(s + rotation) % P].params) for s in range(P)]
    seat_bonus = start_bonus and [start_bonus[(s + rotation) % P] for s in range(P)]
    expected = run_games(load_settings(load_stalkeriada(content).path), seat_params, seed, games,
                         start_bonus=seat_bonus)
    for i, ref in enumerate(expected):
        winner = -1 if ref["winner"] is None else ref["winner"]
        assert (results[i, 0], results[i, 1], results[i, 2]) == (winner, ref["length"], ref["turns"]), f"game {i}"
        for f, field in enumerate(KS.RECORD_FIELDS):
            assert list(records[i, f]) == list(ref[field]), f"game {i}: {field}"
        rounds = len(ref["money_by_round"])
        assert np.array_equal(money_rounds[i, :rounds], np.array(ref["money_by_round"]).reshape(rounds, P)), \
            f"game {i}: money by round"
    return results
