"""``python -m sim`` runs the ``zonesim`` command line."""

from sim.cli import main

main()
