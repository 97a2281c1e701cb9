"""Load and validate a content set (a folder of TOML files) into frozen, typed entries.

Every problem raises ``ContentError`` with one line naming the file, the entry,
the field and the fix.
"""

import hashlib
import shutil
import tempfile
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

from sim.content import schema
from sim.errors import ZonesimError

DEFAULT_DIR = Path(__file__).parent / "default"


class ContentError(ZonesimError):
    """A content file that cannot be used; the message is one line."""


@dataclass(frozen=True)
class Entry:
    """One character, monster or item: its id, family and validated fields."""

    id: str
    family: str
    file: str
    fields: MappingProxyType
    assumed: frozenset

    def __getitem__(self, field):
        return self.fields[field]

    @property
    def name(self):
        return self.fields.get("name", self.id)


@dataclass(frozen=True)
class Content:
    """A validated content set. Entries keep their file order."""

    directory: Path
    digest: str
    rules: MappingProxyType
    characters: MappingProxyType
    monsters: MappingProxyType
    items: MappingProxyType
    holds: MappingProxyType
    """How a stalker carries the cards of each family items.toml declares (``schema.HOLDS``)."""

    def __reduce__(self):
        """Pickle as the folder's path and TOML files plus the items' fields, so a
        content sent to a cluster worker is rebuilt there, with any changed
        prices kept, whether or not the worker sees the folder (a tuning's
        temporary copy, another machine)."""
        return _restore, (self.directory, _files(Path(self.directory)),
                          {i: dict(e.fields) for i, e in self.items.items()})

    def prices(self) -> dict:
        """Every item's price by id, in id order (what a run that shops depends on beside the files)."""
        return {i: e["price"] for i, e in sorted(self.items.items())}

    def display_names(self) -> dict:
        """Every item's and monster's name for people (``name``, or its id), by id."""
        return {e.id: e.name for group in (self.items, self.monsters) for e in group.values()}

    def family(self, family):
        """The items of one family (``firearms``, ``healing``, ...) in file order."""
        return [e for e in self.items.values() if e.family == family]

    def assumed_fields(self):
        """Every ``file: entry.field`` whose value is an assumed default [A]."""
        out = [f"rules.toml: {t}.{f}" for t, v in self.rules.items() for f in v["assumed"]]
        for group in (self.characters, self.monsters, self.items):
            out += [f"{e.file}: {e.id}.{f}" for e in group.values() for f in sorted(e.assumed)]
        return out


def _check_field(where, field, value, spec, known):
    """Validate one field against its ``(kind, required, low)`` spec."""
    kind, _, low = spec
    if isinstance(kind, tuple) and kind[0] == "ref":
        if value not in known.get(kind[1], ()):
            raise ContentError(
                f"{where}.{field}: unknown {kind[1][:-1]} '{value}'; "
                f"use one of: {', '.join(known.get(kind[1], ())) or 'none defined'}"
            )
        return value
    if isinstance(kind, tuple):
        if value not in kind:
            raise ContentError(f"{where}.{field}: '{value}' is not allowed; use one of: {', '.join(kind)}")
        return value
    python_type = {"int": int, "float": (int, float), "bool": bool, "str": str}[kind]
    if isinstance(value, bool) and kind != "bool" or not isinstance(value, python_type):
        raise ContentError(f"{where}.{field}: expected {kind}, got {type(value).__name__} {value!r}")
    if low is not None and value < low:
        raise ContentError(f"{where}.{field}: {value} is below the minimum {low}; use a value >= {low}")
    return float(value) if kind == "float" else value


def read_entry(path, family, entry_id, table, fields, known, label=None):
    """Validate one TOML table (at ``path``; shown as ``label``, default the id) into an ``Entry``."""
    where = f"{path}: {label or entry_id}"
    if not isinstance(table, dict):
        raise ContentError(f"{where}: expected a table [{entry_id}], got a {type(table).__name__}")
    out = {}
    for field, value in table.items():
        if field in ("assumed", "ranges"):
            continue
        if field not in fields:
            raise ContentError(f"{where}.{field}: unknown field; known fields: {', '.join(sorted(fields))}")
        out[field] = _check_field(where, field, value, fields[field], known)
    for field, (_, required, _) in fields.items():
        if required and field not in out:
            raise ContentError(f"{where}.{field}: missing required field; add `{field} = ...`")
    assumed = table.get("assumed", [])
    if not isinstance(assumed, list) or any(a not in fields for a in assumed):
        raise ContentError(f"{where}.assumed: must list field names of this entry, got {assumed!r}")
    ranges = table.get("ranges", {})
    if not isinstance(ranges, dict) or any(f not in assumed or not _is_range(r) for f, r in ranges.items()):
        raise ContentError(f"{where}.ranges: must give assumed fields their [low, high] for `zonesim sensitivity`, "
                           f"e.g. ranges = {{ hp = [15, 30] }}; got {ranges!r}")
    return Entry(entry_id, family, Path(path).name, MappingProxyType(out), frozenset(assumed))


def _is_range(pair):
    """``[low, high]``: two numbers (or two flags), low <= high."""
    return (isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, (int, float)) for v in pair)
            and pair[0] <= pair[1])


def read_toml(directory, name):
    """Parse one TOML file, turning decode errors into one-line ContentErrors."""
    path = directory / name
    if not path.is_file():
        raise ContentError(f"{path}: missing; copy it from the defaults with `zonesim content init DIR`")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{path}: malformed TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ContentError(f"{path}: not UTF-8 text: {exc}") from None


def _rules(raw, path):
    """Validate rules.toml."""
    rules = {}
    for section, fields in schema.RULES.items():
        table = raw.get(section)
        if not isinstance(table, dict):
            raise ContentError(f"{path}: [{section}]: missing section; copy it from the default rules.toml")
        entry = read_entry(path, "rules", section, table, fields, {})
        rules[section] = MappingProxyType({**entry.fields, "assumed": tuple(sorted(entry.assumed))})
    for section in raw:
        if section not in schema.RULES:
            raise ContentError(f"{path}: [{section}]: unknown section; known: {', '.join(schema.RULES)}")
    return MappingProxyType(rules)


def _declared(raw, path):
    """The item families items.toml declares (``[families.NAME]``, ``schema.DECLARED``):
    ``{family: (holds, fields)}``, each field spec as the schema's."""
    declared = raw.get(schema.DECLARED, {})
    if not isinstance(declared, dict):
        raise ContentError(f"{path}: {schema.DECLARED}: expected tables like [{schema.DECLARED}.detector]")
    out = {}
    for family, table in declared.items():
        where = f"{path}: {schema.DECLARED}.{family}"
        if family in schema.ITEM_FAMILIES or family == schema.DECLARED:
            raise ContentError(f"{where}: '{family}' is a built-in item family; declare a new name")
        if not isinstance(table, dict) or set(table) - {"holds", "fields"}:
            raise ContentError(f"{where}: give holds = \"one\" or \"counted\" and an optional "
                               f"fields = {{ range = \"int\" }}; got {table!r}")
        holds, fields = table.get("holds"), table.get("fields", {})
        if holds not in schema.HOLDS:
            raise ContentError(f"{where}.holds: {holds!r}; use one of: "
                               + "; ".join(f'"{k}" ({v})' for k, v in schema.HOLDS.items()))
        if not isinstance(fields, dict) or any(k not in schema.DECLARED_KINDS for k in fields.values()):
            raise ContentError(f"{where}.fields: {fields!r}; map each field to one of: "
                               f"{', '.join(schema.DECLARED_KINDS)}, e.g. fields = {{ range = \"int\" }}")
        clash = next((f for f in fields if f in ("name", "price", "deck", "assumed", "ranges")), None)
        if clash:
            raise ContentError(f"{where}.fields: '{clash}' is a field every card has; name yours otherwise")
        out[family] = (holds, {f: schema.DECLARED_KINDS[k] for f, k in fields.items()}
                       | {"name": schema.NAME, "price": schema.PRICE, "deck": schema.DECK})
    return out


def _items(raw, rules, path):
    """Validate items.toml: families (the schema's and the declared ones), unique ids,
    the modifier cap (Z-21). Returns the items and how each declared family is held."""
    known = {}
    items = {}
    declared = _declared(raw, path)
    families = {**schema.ITEM_FAMILIES, **{family: fields for family, (_, fields) in declared.items()}}
    for family in raw:
        if family not in families and family != schema.DECLARED:
            raise ContentError(
                f"{path}: [{family}]: unknown item family; known: {', '.join(families)}; declare a new one "
                f"in [{schema.DECLARED}.{family}] with holds = \"one\" or \"counted\""
            )
    for family, fields in families.items():
        tables = raw.get(family, {})
        if not isinstance(tables, dict):
            raise ContentError(f"{path}: {family}: expected tables like [{family}.some_id], got {tables!r}")
        for item_id, table in tables.items():
            if item_id in items:
                raise ContentError(
                    f"{path}: {family}.{item_id}: id already used in [{items[item_id].family}]; ids must be unique"
                )
            entry = read_entry(path, family, item_id, table, fields, known, label=f"{family}.{item_id}")
            defaults = {"deck": rules["market"]["default_deck"]}
            if family == "avoidance":
                defaults["always"] = False
            items[item_id] = Entry(
                item_id, family, "items.toml", MappingProxyType({**defaults, **entry.fields}), entry.assumed
            )
        known[family] = [i for i, e in items.items() if e.family == family]
    cap = rules["fight"]["modifier_cap"]
    for firearm in known["firearms"]:
        total = sum(e["bonus"] for e in items.values() if e.family == "modifiers" and e["firearm"] == firearm)
        if total > cap:
            raise ContentError(
                f"{path}: firearms.{firearm}: its modifiers total +{total}, above the cap +{cap} (Z-21); "
                f"lower a modifier's bonus or [fight] modifier_cap"
            )
    return MappingProxyType(items), MappingProxyType({family: holds for family, (holds, _) in declared.items()})


def _digest(directory):
    """sha256 of every TOML file of the content set (maps included), for manifests."""
    return _files_digest(_files(directory))


def _files_digest(files: dict) -> str:
    h = hashlib.sha256()
    for name, data in files.items():
        h.update(name.encode())
        h.update(data)
    return h.hexdigest()


def load_content(directory=None) -> Content:
    """Load and validate the content set in ``directory`` (default: the shipped one)."""
    directory = Path(directory) if directory is not None else DEFAULT_DIR
    if not directory.is_dir():
        raise ContentError(f"{directory}: content folder not found; create one with `zonesim content init {directory}`")
    rules = _rules(read_toml(directory, "rules.toml"), directory / "rules.toml")
    base_hp = rules["stalker"]["base_hp"]
    characters = {}
    for cid, table in read_toml(directory, "characters.toml").items():
        e = read_entry(directory / "characters.toml", "characters", cid, table, schema.CHARACTER, {})
        fields = {"max_hp": base_hp, "heal_bonus": 0, "money_bonus": 0, "damage_bonus": 0, **e.fields}
        characters[cid] = Entry(cid, "characters", e.file, MappingProxyType(fields), e.assumed)
    monsters = {}
    for mid, table in read_toml(directory, "monsters.toml").items():
        e = read_entry(directory / "monsters.toml", "monsters", mid, table, schema.MONSTER, {})
        fields = {"trophy_price": e["hp"] * rules["market"]["trophy_price_per_hp"], **e.fields}
        monsters[mid] = Entry(mid, "monsters", e.file, MappingProxyType(fields), e.assumed)
    if not characters:
        raise ContentError(f"{directory / 'characters.toml'}: defines no character; add at least one [id] table")
    items, holds = _items(read_toml(directory, "items.toml"), rules, directory / "items.toml")
    for group, name in ((monsters, "monsters.toml"), (items, "items.toml")):
        for other, other_name in ((characters, "characters.toml"), (monsters, "monsters.toml")):
            if group is other:
                continue
            clash = next((i for i in group if i in other), None)
            if clash:
                raise ContentError(f"{directory / name}: {clash}: id already used in {other_name}; "
                                   f"ids must be unique across characters, monsters and items")
    return Content(
        directory, _digest(directory), rules,
        MappingProxyType(characters), MappingProxyType(monsters), items, holds,
    )


def _files(directory: Path) -> dict:
    """Every TOML file of a content folder (maps included) by its path within it, in path order."""
    return {path.relative_to(directory).as_posix(): path.read_bytes() for path in sorted(directory.rglob("*.toml"))}


def _unpacked(digest: str, files: dict) -> Path:
    """A folder holding ``files`` under this machine's temp folder, named by their
    digest and written once (into a temp name, then renamed into place)."""
    folder = Path(tempfile.gettempdir()) / f"zonesim-content-{digest[:16]}"
    if not folder.is_dir():
        staging = Path(tempfile.mkdtemp(prefix=folder.name + "-", dir=folder.parent))
        for name, data in files.items():
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            (staging / name).write_bytes(data)
        try:
            staging.rename(folder)
        except OSError:  # another process unpacked it first
            shutil.rmtree(staging, ignore_errors=True)
    return folder


def _restore(directory, files, item_fields) -> Content:
    """The pickled content (``Content.__reduce__``): its folder if this machine
    sees it unchanged, else its files unpacked here; the items' fields as pickled."""
    directory, digest = Path(directory), _files_digest(files)
    if not (directory.is_dir() and _digest(directory) == digest):
        directory = _unpacked(digest, files)
    content = load_content(directory)
    items = {i: replace(e, fields=MappingProxyType(item_fields[i])) for i, e in content.items.items()}
    return replace(content, items=MappingProxyType(items))
