"""A stalker's loadout, checked against a content set (Z-01, Z-07, Z-11, Z-18,
Z-20..Z-24, Z-32), and its one-card changes: what a shopper may buy or swap,
a card added or taken out, and the cards that do one card's job."""

from dataclasses import dataclass, replace

from sim.content import schema
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
    declared: tuple = ()  # ((id, n), ...) of the families items.toml declares ([families.NAME])

    @classmethod
    def from_options(cls, content: Content, *, character="novice", weapon=None, mods=(), head=None, body=None,
                     stims=None, medkits=None, explosives=None, escape_item=None, reputation=None, hp=None,
                     movement=(), avoidance=(), one_shot=(), location=(), kit=None) -> "Loadout":
        """The checked loadout the loadout options give (counts as ``{"stimulator": 2}``):
        ``stims`` are in-combat healing items, ``medkits`` the others (Z-31). A ``kit``
        (``from_kit``'s ``[CHARACTER:]ITEM,ITEM*N``) gives every card at once, with
        ``reputation`` and ``hp``; ``character`` stands for a kit that names none."""
        if kit is not None:
            given = [name for name, value in (("--weapon", weapon), ("--mods", mods), ("--head", head),
                                              ("--body", body), ("--stims", stims), ("--medkits", medkits),
                                              ("--explosives", explosives), ("--escape-item", escape_item),
                                              ("--movement", movement), ("--avoidance", avoidance),
                                              ("--one-shot", one_shot)) if value]
            if given:
                raise LoadoutError(f"--kit: give every card there, not also {given[0]}; e.g. --kit "
                                   f"\"{character}:ak47,vest,stimulator*2\"")
            spec = kit if ":" in kit else f"{character}:{kit}"
            return replace(cls.from_kit(content, spec), reputation=reputation, hp=hp).validate(content)
        stims, medkits = dict(stims or {}), dict(medkits or {})
        _check_healing_kind(content, "--stims", stims, in_combat=True)
        _check_healing_kind(content, "--medkits", medkits, in_combat=False)
        return cls(character=character, weapon=weapon, mods=tuple(mods), head=head, body=body,
                   healing=(*stims.items(), *medkits.items()), explosives=tuple(dict(explosives or {}).items()),
                   escape_item=escape_item, reputation=reputation, hp=hp, movement=tuple(movement),
                   avoidance=tuple(avoidance), one_shot=tuple(one_shot), location=tuple(location)).validate(content)

    @classmethod
    def from_kit(cls, content: Content, spec: str, option: str = "--kit") -> "Loadout":
        """The checked loadout of ``[CHARACTER:]ITEM,ITEM*N,...``: each card goes where its
        family puts it (``with_card``), whatever its family, so a new kind of card needs
        no option of its own. Two cards for one slot (two firearms, Z-20; two body
        armours, Z-24) or a card the rules forbid are refused in one line."""
        character, _, items = spec.rpartition(":")
        loadout = cls(character=character.strip() or "novice").validate(content)
        for token in filter(None, (t.strip() for t in items.split(","))):
            item_id, _, count = token.partition("*")
            item_id = item_id.strip()
            if not count.strip().isdigit() and count:
                raise LoadoutError(f"{option}: '{token}': the count after * must be a whole number, e.g. "
                                   f"{item_id}*2")
            if item_id not in content.items:
                raise LoadoutError(f"{option}: unknown item '{item_id}'; use ids from items.toml")
            for _ in range(int(count) if count else 1):
                before = loadout.cards()
                added = loadout.with_card(content, item_id)
                if added is None:
                    raise LoadoutError(f"{option}: '{item_id}' cannot join {loadout.describe()} under the rules "
                                       "(a deck of one card, the explosives cap, or a card this stalker cannot use)")
                lost = [i for i in before if i not in added.cards()]
                if lost:
                    family = content.items[item_id].family
                    why = (f"items.toml declares the {family} to hold one ([{schema.DECLARED}.{family}])"
                           if family in content.holds else "Z-20, Z-24")
                    raise LoadoutError(f"{option}: '{item_id}' and '{lost[0]}' take the same slot; one is active "
                                       f"({why}); keep one")
                loadout = added
        return loadout

    def cards(self):
        """Every card carried, as ``{item_id: count}``."""
        out = {}
        singles = [self.weapon, *self.mods, self.head, self.body, self.escape_item, *self.movement, *self.avoidance,
                   *self.one_shot, *self.backpack, *self.location]
        for item_id, n in [(i, 1) for i in singles if i] + [*self.healing, *self.explosives, *self.declared]:
            out[item_id] = out.get(item_id, 0) + n
        return out

    def cost(self, content: Content):
        """Total shop price in G (Z-42)."""
        return sum(content.items[i]["price"] * n for i, n in self.cards().items())

    def card_list(self) -> list:
        """Every card, a card twice for two, in an order ``with_card`` rebuilds the
        loadout from (the firearm before its modifiers)."""
        singles = [self.weapon, *self.mods, self.head, self.body, self.escape_item, *self.movement,
                   *self.avoidance, *self.one_shot, *self.location]
        return [i for i in singles if i] + [i for i, n in (*self.healing, *self.explosives, *self.declared)
                                            for _ in range(n)]

    def describe(self) -> str:
        """The cards in one line (``glonass, stimulator x2``), or "nothing"."""
        return card_line(self.cards().items())

    def by_slot(self, character=False) -> str:
        """The loadout slot by slot: ``ak47+rebored · helmet/vest · 2 stimulator · camo_cloak``
        (the firearm with its modifiers or "no firearm", armour, counted cards, escape,
        Zone-movement and avoidance cards); ``novice: ...`` with the ``character``."""
        parts = ["+".join([self.weapon, *self.mods]) if self.weapon else "no firearm"]
        armour = "/".join(a for a in (self.head, self.body) if a)
        counted = ", ".join(f"{n} {i}" for i, n in (*self.healing, *self.explosives, *self.declared) if n)
        parts += [p for p in (armour, counted, self.escape_item, *self.movement, *self.avoidance) if p]
        line = " · ".join(parts)
        return f"{self.character}: {line}" if character else line

    def columns(self) -> dict:
        """The fight cards as flat text columns of a table: ``weapon``, ``mods`` (``a,b``), ``head``,
        ``body``, ``healing`` and ``explosives`` (``id:n,id:n``) and ``escape_item``; "" for none."""
        counts = lambda pairs: ",".join(f"{i}:{n}" for i, n in pairs)  # noqa: E731
        return {"weapon": self.weapon or "", "mods": ",".join(self.mods), "head": self.head or "",
                "body": self.body or "", "healing": counts(self.healing), "explosives": counts(self.explosives),
                "escape_item": self.escape_item or ""}

    def with_card(self, content: Content, item_id: str):
        """This loadout with one more ``item_id``: a slot card takes its slot (the
        card there goes), a modifier for another firearm than the active one
        comes with its own firearm (Z-21), a consumable is one more card; None
        if the rules forbid it (a deck, the explosives cap: Z-11, Z-18)."""
        item = content.items[item_id]
        family = item.family
        if family == "firearms":
            fields = {"weapon": item_id, "mods": ()}
        elif family == "modifiers":
            same = self.weapon == item["firearm"]
            fields = {"weapon": item["firearm"], "mods": (self.mods if same else ()) + (item_id,)}
        elif family == "armour":
            fields = {item["slot"]: item_id}
        elif family in ("healing", "explosives"):
            counts = dict(getattr(self, family))
            counts[item_id] = counts.get(item_id, 0) + 1
            fields = {family: tuple(counts.items())}
        elif family == "escape":
            fields = {"escape_item": item_id}
        elif family in ONE_ACTIVE:
            fields = {family: (item_id,)}
        elif family == "one_shot":
            fields = {"one_shot": self.one_shot + (item_id,)}
        elif family in content.holds:
            fields = {"declared": self._declared_with(content, item_id)}
        else:
            return None
        try:
            return replace(self, **fields).validate(content)
        except LoadoutError:
            return None

    def without(self, item_ids) -> "Loadout":
        """This loadout with no card of ``item_ids`` (a firearm goes with its modifiers)."""
        gone = set(item_ids)
        weapon = None if self.weapon in gone else self.weapon
        return replace(
            self, weapon=weapon, mods=() if weapon is None else tuple(m for m in self.mods if m not in gone),
            head=None if self.head in gone else self.head, body=None if self.body in gone else self.body,
            healing=tuple(p for p in self.healing if p[0] not in gone),
            explosives=tuple(p for p in self.explosives if p[0] not in gone),
            escape_item=None if self.escape_item in gone else self.escape_item,
            declared=tuple(p for p in self.declared if p[0] not in gone),
            **{f: tuple(i for i in getattr(self, f) if i not in gone) for f in (*ONE_ACTIVE, "one_shot")})

    def _declared_with(self, content: Content, item_id: str) -> tuple:
        """The ``declared`` cards with one more ``item_id``: it replaces its family's card if the
        family holds one, else one more of it (``schema.HOLDS``)."""
        family = content.items[item_id].family
        counts = {i: n for i, n in self.declared
                  if content.holds[family] == "counted" or content.items[i].family != family}
        counts[item_id] = counts.get(item_id, 0) + 1
        return tuple(counts.items())

    def changes(self, content: Content, max_count: int) -> list:
        """Every legal one-card purchase or swap: another firearm (its modifiers
        go, Z-20) or a modifier for the active one (Z-21), another head or body
        armour (Z-24), one more healing item or explosive within its deck, the
        explosives cap and ``max_count`` copies (Z-11, Z-18, Z-31), another escape,
        Zone-movement, location-movement or avoidance card (one active each:
        Z-25, Z-29, Z-30, Z-32), one more one-shot card (Z-27, Z-28)."""
        out = []

        def offer(**fields):
            try:
                out.append(replace(self, **fields).validate(content))
            except LoadoutError:
                pass

        for item in content.family("firearms"):
            if item.id != self.weapon:
                offer(weapon=item.id, mods=())
        for item in content.family("modifiers"):
            if item["firearm"] == self.weapon and item.id not in self.mods:
                offer(mods=self.mods + (item.id,))
        for item in content.family("armour"):
            if getattr(self, item["slot"]) != item.id:
                offer(**{item["slot"]: item.id})
        for family in ("healing", "explosives"):
            counts = dict(getattr(self, family))
            for item in content.family(family):
                if counts.get(item.id, 0) < max_count:
                    offer(**{family: tuple({**counts, item.id: counts.get(item.id, 0) + 1}.items())})
        for item in content.family("escape"):
            if self.escape_item != item.id:
                offer(escape_item=item.id)
        for family in ONE_ACTIVE:
            for item in content.family(family):
                if (item.id,) != getattr(self, family):
                    offer(**{family: (item.id,)})
        for item in content.family("one_shot"):
            if item.id not in self.one_shot:
                offer(one_shot=self.one_shot + (item.id,))
        held = dict(self.declared)
        for family, holds in content.holds.items():  # the declared families, as they hold (schema.HOLDS)
            for item in content.family(family):
                if held.get(item.id, 0) < (max_count if holds == "counted" else 1):
                    offer(declared=self._declared_with(content, item.id))
        return out

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
                                      ("--explosives", self.explosives, "explosives"),
                                      ("--kit", self.declared, None)):
            for item_id, n in pairs:
                _family(content, option, item_id, family or _declared_family(content, item_id))
                if n < 0:
                    raise LoadoutError(f"{option}: {item_id}:{n} is negative; give a count >= 0")
        self._check_declared(content)
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

    def _check_declared(self, content):
        """A family items.toml declares with ``holds = "one"`` has one card of it at a time."""
        for family, holds in content.holds.items():
            held = [(i, n) for i, n in self.declared if n and content.items[i].family == family]
            if holds == "one" and (len(held) > 1 or any(n > 1 for _, n in held)):
                raise LoadoutError(f"--kit: {card_line(held)}: the {family} hold one card at a time "
                                   f"([{schema.DECLARED}.{family}] holds = \"one\" in items.toml); keep one")

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


ONE_ACTIVE = ("movement", "location", "avoidance")
"""Families of which a stalker uses one card at a time (Z-25, Z-29, Z-30)."""
SLOT_FAMILIES = ("firearms", "armour", "escape", *ONE_ACTIVE, "one_shot")
"""Families whose cards take a slot: one firearm (Z-20), one armour per slot
(Z-24), one escape (Z-32), one of each ``ONE_ACTIVE`` family, and the one-shot
teleports, which do one job (Z-27, Z-28: a second is not needed for one trip)."""


def card_line(counts) -> str:
    """``((card, n), ...)`` in one line (``glonass, stimulator x2``), or "nothing"."""
    return ", ".join(f"{i} x{n}" if n > 1 else i for i, n in counts) or "nothing"


def clones(content: Content, item_id: str, besides=("name", "price")) -> frozenset:
    """``item_id`` and every item identical to it but for id and the fields ``besides``."""
    item = content.items[item_id]
    same = {k: v for k, v in item.fields.items() if k not in besides}
    return frozenset(e.id for e in content.family(item.family)
                     if {k: v for k, v in e.fields.items() if k not in besides} == same)


def twins(content: Content, cards) -> list:
    """Groups (sorted tuples) of two or more of ``cards`` that do the same in play: identical
    but for id, name, price and how many the deck holds."""
    groups = {clones(content, c, ("name", "price", "deck")) & set(cards) for c in cards if c in content.items}
    return sorted(tuple(sorted(g)) for g in groups if len(g) > 1)


def takes_a_slot(content: Content, family: str) -> bool:
    """Whether a card of ``family`` takes a slot: a ``SLOT_FAMILIES`` family, or a
    family items.toml declares to hold one card at a time."""
    return family in SLOT_FAMILIES or content.holds.get(family) == "one"


def kind(content: Content, item_id: str) -> frozenset:
    """The cards that do ``item_id``'s job: its slot's cards for a slot card
    (``takes_a_slot``; armour: the armour of its slot, Z-24), else its clones."""
    item = content.items[item_id]
    if not takes_a_slot(content, item.family):
        return clones(content, item_id)
    return frozenset(e.id for e in content.family(item.family)
                     if item.family != "armour" or e["slot"] == item["slot"])


def _known(option, value, table):
    """``value`` must be an id of ``table``."""
    if value not in table:
        raise LoadoutError(f"{option}: unknown id '{value}'; use one of: {', '.join(table)}")


def _declared_family(content, item_id):
    """The declared family of ``item_id``, or a name no item has (so ``_family`` refuses it)."""
    item = content.items.get(item_id)
    return item.family if item is not None and item.family in content.holds else "declared families"


def _family(content, option, item_id, family):
    """``item_id`` (if given) must be an item of ``family``."""
    if item_id is None:
        return
    if item_id not in content.items or content.items[item_id].family != family:
        choices = ", ".join(e.id for e in content.family(family))
        raise LoadoutError(f"{option}: '{item_id}' is not one of the {family}: {choices}")


def _check_healing_kind(content, option, counts, in_combat):
    """``--stims`` takes in-combat healing items, ``--medkits`` the others (Z-31)."""
    for item_id in counts:
        item = content.items.get(item_id)
        if item is not None and item.family == "healing" and item["in_combat"] != in_combat:
            kind, other = ("a stimulator", "--stims") if item["in_combat"] else ("a medkit", "--medkits")
            raise LoadoutError(f"{option}: '{item_id}' is {kind}; give it with {other}")


def check_monsters(content: Content, monsters):
    """Monster ids for a fight: at least one, each known (Z-37)."""
    if not monsters:
        raise LoadoutError("--monster: give at least one monster, e.g. --monster bloodsucker")
    for m in monsters:
        _known("--monster", m, content.monsters)
    return tuple(monsters)
