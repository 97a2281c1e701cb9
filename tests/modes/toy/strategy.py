"""The toy mode's strategies: bank the turn's pot once it reaches ``stop_at`` points."""

from dataclasses import dataclass


@dataclass(frozen=True)
class ToyStrategy:
    name: str
    stop_at: int


CAREFUL = ToyStrategy("careful", 8)
BOLD = ToyStrategy("bold", 20)
