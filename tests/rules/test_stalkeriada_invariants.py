"""Stalkeriada invariants over random games, strategies and seat counts
(hypothesis): loot chips are conserved between the box, the cells, the
backpacks and out of play once sold (S-02, S-06, S-14, S-21); no two stalkers share a cell (S-13); money only
moves by the rules' amounts (S-04..S-09, S-19, S-23)."""

import numpy as np
from hypothesis import given, settings, strategies as st

import sim.kernels.stalkeriada as K
from strategies.stalkeriada import StalkeriadaStrategy, planner
from tests.conftest import stalkeriada_content
from tests.rules.stalkeriada_table import Table

RARE = {  # a small, eventful Zone: every rule comes up within a few rounds
    "zone": {"rows": 4, "cols": 5}, "fence": {"cells": 5},
    "tiles": {"loot": 4, "zuda": 2, "mosquito_bald": 1, "fire_fluff": 1, "devils_cabbage": 1, "trap": 1,
              "swamp_2": 1, "swamp_3": 1, "jelly_basement": 1, "grass": 0, "corridor": 1, "golden_ball": 2,
              "pointer": 1, "jumping_pointer": 1, "stop": 1, "flip": 1},
    "jelly": {"order_on": 3}, "borscht": {"partner_on": 4}, "shop": {"exit_visa": 12000},
}
PLANNERS = st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 3), st.sampled_from([0, 300, 2000]),
                     st.integers(1, 5), st.integers(0, 1), st.sampled_from([500, 1000, 2000]), st.integers(0, 1))


def _check(t, before, rec_before):
    """Invariants after one turn; ``before`` / ``rec_before``: seats and records before it."""
    g, cells, chips = t.g, t.g[K.H_CELLS], t.g[K.H_CHIPS]
    places = g[g[K.H_O_CHIP_PLACE]:g[K.H_O_CHIP_PLACE] + chips]
    lying = g[g[K.H_O_LYING]:g[K.H_O_LYING] + cells]
    occ = g[g[K.H_O_OCC]:g[K.H_O_OCC] + cells]
    # chips: every chip in exactly one place, and the counts agree with it
    assert np.array_equal(np.bincount(places[places >= 0], minlength=cells), lying)
    on_cells = 0
    for s in range(t.n):
        assert t.get(s, "chips") == (places == K.backpack(s)).sum()
        assert 0 <= K.load(g, t.o(s)) <= g[K.H_BACKPACK]
        if t.get(s, "where") == K.CELL:
            on_cells += 1
            assert occ[t.get(s, "at")] == s + 1
    assert ((places >= K.BOX).sum() + (places == K.GONE).sum()
            + sum((places == K.backpack(s)).sum() for s in range(t.n)) == chips)
    assert (occ > 0).sum() == on_cells  # one stalker per cell, every occupied cell has its stalker
    # money: every G gained or lost is one of the rules' amounts
    cfg = t.sc.settings
    for s in range(t.n):
        delta = t.get(s, "money") - before[s]["money"]
        d = {f: int(t.rec[getattr(K, f"R_{f.upper()}"), s] - rec_before[getattr(K, f"R_{f.upper()}"), s])
             for f in ("chips_sold", "partners", "jelly_delivered", "golden_bonus", "bought_ozk", "bought_pliers",
                       "bought_nut", "bought_visa", "deaths_mosquito", "deaths_trap", "deaths_jelly")}
        died = d["deaths_mosquito"] + d["deaths_trap"] + d["deaths_jelly"] > 0
        returned = before[s]["partner"] and not t.get(s, "partner") and t.get(s, "shared")
        halving = abs(before[s]["money"]) - abs(before[s]["money"]) // 2 if died else 0
        gain = (d["chips_sold"] * max(t.sc.prices) + d["partners"] * cfg["borscht"]["partner_deposit"]
                + d["jelly_delivered"] * cfg["jelly"]["reward"] + d["golden_bonus"] * cfg["zone"]["golden_ball_bonus"]
                + (cfg["borscht"]["partner_bonus"] if returned else 0) + (halving if before[s]["money"] < 0 else 0))
        loss = (d["bought_ozk"] * cfg["shop"]["ozk"] + d["bought_pliers"] * cfg["shop"]["pliers"]
                + d["bought_nut"] * cfg["shop"]["nut"] + d["bought_visa"] * cfg["shop"]["exit_visa"]
                + cfg["butcher"]["fee"] + (halving if before[s]["money"] > 0 else 0))
        assert -loss <= delta <= gain, f"seat {s}: {delta:+} G not explained ({d}, died {died})"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2 ** 31), n=st.integers(2, 6), params=st.lists(PLANNERS, min_size=6, max_size=6))
def test_s02_s13_s14_invariants_hold_every_turn(tmp_path_factory, seed, n, params):
    content = _content(tmp_path_factory)
    t = Table(content, players=("cautious",) * n, seed=seed)
    t.fns = tuple(StalkeriadaStrategy("p", "", planner, p).decide for p in params)
    t.params = np.array(params, dtype=np.float64)
    for rnd in range(1, 81):
        t.g[K.H_ROUND] = rnd
        for s in range(n):
            before = [{"money": t.get(k, "money"), "partner": t.get(k, "partner")} for k in range(n)]
            rec_before = t.rec.copy()
            t.turn(s)
            _check(t, before, rec_before)
            if t.g[K.H_WINNER] >= 0:
                return


_CACHE = {}


def _content(factory):
    if "rare" not in _CACHE:
        _CACHE["rare"] = stalkeriada_content(factory.mktemp("rare"), RARE)
    return _CACHE["rare"]
