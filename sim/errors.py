"""The errors the command line turns into a single stderr line and exit code 2."""


class ZonesimError(ValueError):
    """Bad input (content, loadout, strategy, option); the message is one line naming the fix."""


class UsageProblem(ZonesimError):
    """An option's value that cannot be used; the message names the option."""
