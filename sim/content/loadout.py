"""A stalker's loadout, checked against a content set (Z-01, Z-07, Z-11, Z-18,
Z-20..Z-24, Z-32)."""

from dataclasses import dataclass

from sim.content.load import Content, ContentError


class LoadoutError(ContentError):
    """A loadout that cannot exist under the rules; the message is one line."""


@dataclass(frozen=True)
class Stalker:
    """A stalker as he enters play (Z-01): his character type, max HP, HP,
    reputation, money in G and step budget per turn."""

    character: str
    max_hp: int
    hp: int
    reputation: int
    money: int
    step_budget: int


@dataclass(frozen=True)
class Loadout:
    """What a stalker carries into a fight. Counts are ``((item_id, n), ...)``.

    ``reputation`` None means the content's starting reputation; ``hp`` None
    means full health. ``weapon`` is the one active firearm and ``mods`` its
    modifiers; ``backpack`` holds stowed firearms with their own modifiers,
    carried but never used in a fight (Z-20, Z-22).
    """

    character: str = "novice"
    weapon: str | None = None
    mods: tuple = ()
    head: str | None = None
    body: str | None = None
    healing: tuple = ()
    explosives: tuple = ()
    escape_item: str | None = None
    reputation: int | None = None
    hp: int | None = None
    movement: tuple = ()
    avoidance: tuple = ()
    one_shot: tuple = ()
    backpack: tuple = ()
    location: tuple = ()  # Z-29: flashlight, night-vision goggles

    def cards(self):
        """Every card carried, as ``{item_id: count}``."""
        out = {}
        singles = [self.weapon, *self.mods, self.head, self.body, self.escape_item, *self.movement, *self.avoidance,
                   *self.one_shot, *self.backpack, *self.location]
        for item_id, n in [(i, 1) for i in singles if i] + list(self.healing) + list(self.explosives):
            out[item_id] = out.get(item_id, 0) + n
        return out

    def cost(self, content: Content):
        """Total shop price in G (Z-42)."""
        return sum(content.items[i]["price"] * n for i, n in self.cards().items())

    def stalker(self, content: Content) -> Stalker:
        """The stalker this loadout starts (Z-01): max HP of his character
        (Z-02), full health unless ``hp`` is given, and the content's starting
        reputation, money (plus Mazhor's bonus, Z-04) and step budget (Z-07)."""
        character = content.characters[self.character]
        start = content.rules["stalker"]
        return Stalker(
            character=self.character, max_hp=character["max_hp"],
            hp=character["max_hp"] if self.hp is None else self.hp,
            reputation=start["start_reputation"] if self.reputation is None else self.reputation,
            money=start["start_money"] + character["money_bonus"], step_budget=start["step_budget"],
        )

    def validate(self, content: Content):
        """Raise ``LoadoutError`` naming the option and the fix if the loadout is impossible."""
        _known("--character", self.character, content.characters)
        _family(content, "--weapon", self.weapon, "firearms")
        for mod in self.mods:
            _family(content, "--mods", mod, "modifiers")
            fits = content.items[mod]["firearm"]
            if self.weapon != fits:  # Z-21: each modifier fits one firearm type
                raise LoadoutError(f"--mods: '{mod}' fits {fits}, not {self.weapon or 'no firearm'}; "
                                   f"add --weapon {fits}, move it to backpack with a stowed {fits}, or drop the modifier")
        if len(set(self.mods)) != len(self.mods):
            raise LoadoutError("--mods: a modifier is listed twice; each is one card")
        self._check_backpack(content)
        for option, item_id, slot in (("--head", self.head, "head"), ("--body", self.body, "body")):
            _family(content, option, item_id, "armour")
            if item_id and content.items[item_id]["slot"] != slot:  # Z-24
                raise LoadoutError(f"{option}: '{item_id}' is {content.items[item_id]['slot']} armour; "
                                   f"use --{content.items[item_id]['slot']} {item_id}")
        _family(content, "--escape-item", self.escape_item, "escape")
        for option, ids, family in (("--movement", self.movement, "movement"),
                                    ("--avoidance", self.avoidance, "avoidance"), ("--one-shot", self.one_shot, "one_shot"),
                                    ("--location", self.location, "location")):
            for item_id in ids:
                _family(content, option, item_id, family)
        for option, pairs, family in (("--stims/--medkits", self.healing, "healing"),
                                      ("--explosives", self.explosives, "explosives")):
            for item_id, n in pairs:
                _family(content, option, item_id, family)
                if n < 0:
                    raise LoadoutError(f"{option}: {item_id}:{n} is negative; give a count >= 0")
        total = sum(n for _, n in self.explosives)
        cap = content.rules["fight"]["max_explosives"]
        if total > cap:  # Z-18
            raise LoadoutError(f"--explosives: {total} carried, at most {cap} per stalker (Z-18); "
                               f"drop {total - cap} or raise [fight] max_explosives in rules.toml")
        for item_id, n in self.cards().items():
            deck = content.items[item_id]["deck"]
            if n > deck:  # Z-11: cards are finite
                raise LoadoutError(f"{item_id}: {n} cards wanted but its deck holds {deck} (Z-11); "
                                   f"carry at most {deck} or raise `deck` in items.toml")
        if self.reputation is not None and self.reputation < 0:
            raise LoadoutError(f"--reputation: {self.reputation} is negative; give 0 or more")
        max_hp = content.characters[self.character]["max_hp"]
        if self.hp is not None and not 1 <= self.hp <= max_hp:
            raise LoadoutError(f"--hp: {self.hp} is outside 1..{max_hp} (max HP of {self.character})")
        return self

    def _check_backpack(self, content):
        """Z-20: any firearm beyond the active one is stowed; Z-22: a stowed
        modifier sits on a stowed firearm it fits (Z-21), one of each per firearm."""
        for item_id in self.backpack:
            if item_id not in content.items or content.items[item_id].family not in ("firearms", "modifiers"):
                choices = ", ".join(e.id for e in content.family("firearms") + content.family("modifiers"))
                raise LoadoutError(f"backpack: '{item_id}' is not a firearm or a modifier; stow only these: {choices}")
        for mod in dict.fromkeys(i for i in self.backpack if content.items[i].family == "modifiers"):
            fits = content.items[mod]["firearm"]
            n, stowed = self.backpack.count(mod), self.backpack.count(fits)
            if n > stowed:
                fix = (f"list it in --mods on the active {fits}" if fits == self.weapon and stowed == 0
                       else f"add a {fits} to backpack or drop a '{mod}'")
                raise LoadoutError(f"backpack: {n} '{mod}' but {stowed} {fits} stowed; a stowed modifier "
                                   f"sits on a stowed firearm it fits (Z-21, Z-22); {fix}")


def _known(option, value, table):
    """``value`` must be an id of ``table``."""
    if value not in table:
        raise LoadoutError(f"{option}: unknown id '{value}'; use one of: {', '.join(table)}")


def _family(content, option, item_id, family):
    """``item_id`` (if given) must be an item of ``family``."""
    if item_id is None:
        return
    if item_id not in content.items or content.items[item_id].family != family:
        choices = ", ".join(e.id for e in content.family(family))
        raise LoadoutError(f"{option}: '{item_id}' is not one of the {family}: {choices}")


def check_monsters(content: Content, monsters):
    """Monster ids for a fight: at least one, each known (Z-37)."""
    if not monsters:
        raise LoadoutError("--monster: give at least one monster, e.g. --monster bloodsucker")
    for m in monsters:
        _known("--monster", m, content.monsters)
    return tuple(monsters)
