"""The ``zonesim`` command line: parse the options, call ``sim.api``, print.

One module per command, whose signature holds its options (the shared ones as
``Annotated`` types of ``sim.cli.common``, with the app, the progress bar and
the error handling). Every bad input ends with one line on stderr and exit
code 2.
"""

from sim.cli.common import app, main
# each command module registers its commands on ``app``, in the order of --help
from sim.cli import (encounter, journey, value, validate, route, strategies, skill, stalkeriada,  # noqa: F401
                     skirmish, tune, restricted, report, loadouts, content, compare, sensitivity, balance, explore, play)

__all__ = ["app", "main"]
