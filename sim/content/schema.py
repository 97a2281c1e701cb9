"""The content schema: every file, table and field a content set may hold.

A field is ``(kind, required, low)``: ``kind`` is ``int``, ``float``, ``bool``,
``str``, ``("ref", family)`` for an id of another family, or a tuple of allowed
strings; ``low`` is the smallest allowed number (``None`` for any).
"""

INT0 = ("int", False, 0)
NAME = ("str", False, None)
PRICE = ("int", True, 0)
DECK = ("int", False, 0)

RULES = {
    "stalker": {
        "base_hp": ("int", True, 1), "start_money": ("int", True, 0),
        "start_reputation": ("int", True, 0), "step_budget": ("int", True, 1),
        "replacement_money": ("int", True, 0), "avoid_on": ("int", True, 1),
    },
    "fight": {
        "max_rounds": ("int", True, 1), "escape_auto_max": ("int", True, 0),
        "modifier_cap": ("int", True, 0), "max_explosives": ("int", True, 0),
    },
    "skill": {"extra_one_fails": ("bool", True, None)},
    "market": {
        "default_deck": ("int", True, 0), "sell_fraction": ("float", True, 0.0),
        "trophy_price_per_hp": ("int", True, 0),
    },
}

CHARACTER = {
    "name": NAME, "max_hp": ("int", False, 1), "heal_bonus": INT0,
    "money_bonus": INT0, "damage_bonus": INT0,
}

MONSTER = {
    "name": NAME, "hp": ("int", True, 1), "dice": ("int", True, 0),
    "bonus": ("int", True, None), "defence": ("int", True, 0), "trophy_price": INT0,
}

ITEM_FAMILIES = {
    "firearms": {"dice": ("int", True, 1)},
    "modifiers": {"firearm": (("ref", "firearms"), True, None), "bonus": ("int", True, 0)},
    "explosives": {"dice": ("int", True, 1)},
    "armour": {"slot": (("head", "body"), True, None), "defence": ("int", True, 0)},
    "healing": {"heal": ("int", True, 1), "in_combat": ("bool", True, None)},
    "movement": {"steps": ("int", True, 0)},
    "one_shot": {"effect": (("to_military_base", "to_any_base"), True, None)},
    "location": {"steps": ("int", True, 0)},
    "avoidance": {"avoid_on": ("int", True, 1), "always": ("bool", False, None)},
    "escape": {"reputation": ("int", True, None)},
}
for _fields in ITEM_FAMILIES.values():
    _fields.update({"name": NAME, "price": PRICE, "deck": DECK})

DECLARED = "families"
"""The items.toml table declaring item families the schema does not know:
``[families.NAME]`` with ``holds`` (how a stalker carries its cards, ``HOLDS``)
and ``fields`` (``{field = "int"}``, kinds of ``DECLARED_KINDS``)."""
HOLDS = {"one": "one active card of the family at a time; another takes its place",
         "counted": "any number of each card, up to its deck"}
DECLARED_KINDS = {"int": ("int", True, 0), "bool": ("bool", True, None), "str": ("str", True, None)}

FILES = ("rules.toml", "characters.toml", "items.toml", "monsters.toml")
