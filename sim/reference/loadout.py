"""The reference's loadout dicts as the simulator's ``Loadout``."""

from sim.content.loadout import Loadout


def loadout_from_dict(d: dict) -> Loadout:
    """The reference's loadout dict as a ``Loadout``."""
    return Loadout(
        character=d.get("character", "novice"), weapon=d.get("weapon"), mods=tuple(d.get("mods", ())),
        head=d.get("head"), body=d.get("body"), healing=tuple(d.get("healing", {}).items()),
        explosives=tuple(d.get("explosives", {}).items()), escape_item=d.get("escape_item"),
        reputation=d.get("reputation"), hp=d.get("hp"), movement=tuple(d.get("movement", ())),
        avoidance=tuple(d.get("avoidance", ())), one_shot=tuple(d.get("one_shot", ())),
        backpack=tuple(d.get("backpack", ())), location=tuple(d.get("location", ())),
    )
