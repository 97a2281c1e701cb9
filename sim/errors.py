"""The one error type the command line turns into a single stderr line and exit code 2."""


class ZonesimError(ValueError):
    """Bad input (content, loadout, strategy, option); the message is one line naming the fix."""
