"""Skill tests (K-01..K-03): closed form vs enumeration vs the numba kernel."""

import itertools
from fractions import Fraction

import pytest

from sim.analysis.skill import skill_pass_probability
from sim.run.skill import simulate_skill
from tests.conftest import proportion_tolerance


def enumerate_pass(bonus, target, extra_one_fails, depth=7):
    """Exact P(pass) by walking every die sequence up to ``depth`` chained 6s
    (the remainder, 6**-depth, is bounded and asserted below)."""
    total = Fraction(0)

    def walk(score, prob, level, failed):
        nonlocal total
        for d in range(1, 7):
            p = prob / 6
            s = score + d
            f = failed or (d == 1 and (level == 0 or extra_one_fails))  # K-02 first die; K-03 [A] extra die
            if d == 6 and level < depth:
                walk(s, p, level + 1, f)  # K-03: a 6 rolls again and adds
            elif not f and s + bonus >= target:
                total += p

    walk(0, Fraction(1), 0, False)
    return float(total)


@pytest.mark.parametrize("extra_one_fails", [False, True])
@pytest.mark.parametrize("bonus,target", [(0, 2), (0, 6), (0, 7), (2, 8), (1, 12), (3, 15), (-2, 4), (0, 20), (5, 3)])
def test_k01_k03_closed_form_matches_enumeration(bonus, target, extra_one_fails):
    exact = skill_pass_probability(bonus, target, extra_one_fails)
    assert exact == pytest.approx(enumerate_pass(bonus, target, extra_one_fails), abs=6.0**-7)


def test_k02_a_one_fails_whatever_the_score():
    """Even with +20 the first die's 1 fails: the best chance is 5/6."""
    assert skill_pass_probability(20, 1) == pytest.approx(5 / 6)


def test_k03_sixes_chain():
    """Target 13 with no bonus needs 6 then 6 then >= 1: (1/6)^2."""
    assert skill_pass_probability(0, 13) == pytest.approx(1 / 36)
    assert skill_pass_probability(0, 13, extra_one_fails=True) == pytest.approx(1 / 36 * 0.8)


@pytest.mark.parametrize("attribute,modifiers,target,extra", [(2, 0, 8, False), (0, 1, 9, True), (3, -1, 6, False)])
def test_k01_kernel_matches_closed_form(attribute, modifiers, target, extra):
    """500,000 simulated tests within 4 standard errors of the exact chance."""
    n = 500_000
    p = skill_pass_probability(attribute + modifiers, target, extra)
    passed = simulate_skill(attribute, modifiers, target, extra, n, seed=3)
    assert abs(passed / n - p) <= proportion_tolerance(p, n)


def test_numba_cache_folder_follows_kernel_sources(tmp_path):
    """A changed kernel or strategy file moves numba's cache to a new folder, so a
    helper inlined from another module is never served stale."""
    from sim import kernel_source_digest

    (tmp_path / "k").mkdir()
    (tmp_path / "k" / "a.py").write_text("x = 1\n")
    before = kernel_source_digest((tmp_path / "k",))
    (tmp_path / "k" / "a.py").write_text("x = 2\n")
    assert kernel_source_digest((tmp_path / "k",)) != before
    assert len(list(itertools.islice(iter(before), 16))) == 16
