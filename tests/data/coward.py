"""A user's strategy file, loaded with --strategy tests/data/coward.py:COWARD."""

import dataclasses

from sim.kernels.fight import HP, MAX_HP
from strategies import decision
from strategies.basic import FIGHTER


@decision
def flee_when_hurt_badly(view, params):
    """Try to escape whenever HP is below params[0] x max HP."""
    return 1 if view[HP] < params[0] * view[MAX_HP] else 0


COWARD = dataclasses.replace(FIGHTER, name="coward", description="always tries to escape",
                             escape=decision(lambda view, params: 1))
CAREFUL = dataclasses.replace(FIGHTER, name="careful", description="escapes when hurt",
                              escape=flee_when_hurt_badly, params=[0.5], param_names=("hp_fraction",))
