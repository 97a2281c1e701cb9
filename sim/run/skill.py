"""Skill-test runs (K-01..K-03)."""

from sim.kernels.dice import count_skill_passes


def simulate_skill(attribute, modifiers, target, extra_one_fails, trials, seed) -> int:
    """Number of passed tests out of ``trials``."""
    return int(count_skill_passes(seed, trials, attribute, modifiers, target, extra_one_fails))
