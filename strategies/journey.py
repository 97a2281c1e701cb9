"""Journey strategies: how a stalker travels the Zone (docs/rules/journey-resolution.md).

A journey strategy names a fight strategy (built in or ``FILE.py:NAME``) and
sets the choices of the campaign (``fight_params`` replaces that fight strategy's
parameters): how far the route avoids danger
(``danger_weight``, Z-39) or seeks a level of it (``seek_danger``), whether a replacement goes back for the dead one's
loot (``recover_loot``, Z-10), which order comes next (``order_choice``, Z-41)
and whether he tops his kit up at the bases (``restock``, Z-40).
"""

from dataclasses import dataclass

from strategies import StrategyError

ORDER_CHOICES = ("listed", "nearest")


@dataclass(frozen=True)
class JourneyStrategy:
    """How a stalker travels: his fight strategy, how much he avoids danger on
    the way (``danger_weight``: extra steps he would walk to avoid one danger
    level, counted from ``seek_danger``), and whether a replacement goes back
    for the dead one's loot."""

    name: str
    description: str
    fight: str
    danger_weight: int
    recover_loot: bool
    order_choice: str = "listed"
    """Z-41: "listed" takes orders in journey.toml order; "nearest" the closest one not yet done."""
    restock: bool = True
    """Z-40: True tops the starting kit up at every base he passes (a spent consumable is bought
    again); False buys only to refit a replacement after a death (Z-09), until his kit is whole."""
    seek_danger: int = 0
    """Z-39: the danger level his route walks toward (``danger_weight`` steps per
    level away from it): 0 walks around danger; higher, a trophy hunter's hunting ground."""
    fight_params: tuple = ()
    """The fight strategy's parameters in its ``param_names`` order (empty: its own)."""

    def __post_init__(self):
        if self.danger_weight < 0 or self.seek_danger < 0:
            raise StrategyError(f"journey strategy {self.name}: danger_weight and seek_danger must be 0 or more")
        if any(p < 0 for p in self.fight_params):
            raise StrategyError(f"journey strategy {self.name}: fight_params must be 0 or more")
        if self.order_choice not in ORDER_CHOICES:
            raise StrategyError(f"journey strategy {self.name}: order_choice '{self.order_choice}'; "
                                f"use one of: {', '.join(ORDER_CHOICES)}")


CAUTIOUS = JourneyStrategy("cautious", "walks around danger (3 steps per danger level), flees lost fights, "
                           "recovers loot, takes the nearest order", "runner", 3, True, "nearest")
GREEDY = JourneyStrategy("greedy", "takes the fewest steps, fights everything, recovers loot", "fighter", 0, True)
TACTICIAN = JourneyStrategy("tactician", "takes the fewest steps, fights what his kit can beat and tries to escape a "
                            "fight the damage race says he loses (Z-33), recovers loot, takes the nearest order",
                            "tactician", 0, True, "nearest")
FRUGAL = JourneyStrategy("frugal", "as cautious, but buys his kit once: a spent consumable is not bought again; "
                         "a replacement buys the kit anew (Z-09, Z-40)", "runner", 3, True, "nearest", restock=False)
HUNTER = JourneyStrategy("hunter", "a trophy hunter: walks toward danger level 3 (a step more per level away "
                         "from it), fights what his kit can beat for its trophies (Z-42) and tries to escape a fight "
                         "the damage race says he loses (Z-33), recovers loot, takes the nearest order",
                         "tactician", 1, True, "nearest", seek_danger=3)
EVADER = JourneyStrategy("evader", "takes the fewest steps and tries to escape every fight (Z-33); when the roll "
                         "fails he fights as the tactician (most dangerous first, explosives to finish or in "
                         "danger); recovers loot, takes the nearest order: the tactician with flee_ratio 0",
                         "tactician", 0, True, "nearest", fight_params=(0.0, 2.0))
