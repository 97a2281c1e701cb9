"""The ``zonesim`` command line: parse, call run/analysis/report, print.

One module per command; ``sim.cli.common`` holds the app, the shared options
and the error handling. Every bad input ends with one line on stderr and exit
code 2.
"""

from sim.cli.common import app, main
# each command module registers its commands on ``app``, in the order of --help
from sim.cli import (encounter, journey, value, validate, route, strategies, skill, stalkeriada,  # noqa: F401
                     skirmish, tune, report, loadouts, content, compare, sensitivity)

__all__ = ["app", "main"]
