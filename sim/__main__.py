"""``python -m sim`` runs the ``zonesim`` command line."""

import sys

from sim.cli import main

if __name__ == "__main__":  # not in the worker processes a local Dask cluster spawns
    sys.exit(main())
