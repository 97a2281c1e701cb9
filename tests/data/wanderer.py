"""A user's journey strategy file: --strategy tests/data/wanderer.py:WANDERER."""

from strategies.journey import JourneyStrategy

WANDERER = JourneyStrategy("wanderer", "avoids danger at any cost, fights like the coward",
                           fight="tests/data/coward.py:COWARD", danger_weight=20, recover_loot=False)
