"""Checks that keep the docs true to the project: counts stated in prose,
references to the project's files, output columns in the glossary and
documented JSON keys. Each returns what is wrong (empty: nothing), so a test
can plant an error and see it caught."""

import json
import re
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "results" / "example"
NUMBER_WORDS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven "
                                           "twelve".split())}
PROJECT_DIRS = ("sim/", "docs/", "tests/", "notebooks/", "scripts/", "bench/", "strategies/", "results/example/")
"""A path starting with one of these names a file of the project, which must exist."""


def prose_texts() -> dict:
    """Every text a designer reads: the docs, the READMEs, the shipped content's
    comments and the notebooks' markdown cells, by path."""
    paths = [*ROOT.glob("docs/**/*.md"), ROOT / "README.md", EXAMPLES / "README.md",
             *ROOT.glob("sim/content/default/**/*.toml")]
    texts = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in paths}
    for nb in ROOT.glob("notebooks/*.ipynb"):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        texts[str(nb.relative_to(ROOT))] = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return texts


def code_texts() -> dict:
    """The shipped code's docstrings and comments (the whole source), by path."""
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
            for top in ("sim", "strategies", "scripts", "bench") for p in (ROOT / top).rglob("*.py")}


def _count(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word.lower(), -1)


def count_claims() -> list:
    """``(pattern, true count)``: each pattern's first group states a count the project can compute."""
    from sim.compare.sensitivity import assumed_parameters
    from sim.content import DEFAULT_DIR

    notebooks = len(list(ROOT.glob("notebooks/*.ipynb")))
    two_files = len(assumed_parameters(DEFAULT_DIR, files=["monsters.toml", "rules.toml"]))
    return [(r"every\s+assumed\s+number\s+of\s+the\s+content\s+\((\d+)", len(assumed_parameters(DEFAULT_DIR))),
            (r"the\s+(\d+)\s+of\s+the\s+shipped\s+content", len(assumed_parameters(DEFAULT_DIR))),
            (r"`--files\s+monsters\.toml,rules\.toml`,\s+(\d+)\s+numbers", two_files),
            (r"`notebooks/`\s+holds\s+(\w+)\s+(?:notebooks|tutorials)", notebooks)]


def stale_counts(texts: dict, claims: list) -> list:
    """``path: "stated" is N`` for every count a text states that is not the true one."""
    wrong = []
    for path, text in texts.items():
        for pattern, true in claims:
            for m in re.finditer(pattern, text, re.IGNORECASE):
                if _count(m.group(1)) != true:
                    wrong.append(f"{path}: '{m.group(0)}' is {true}")
    return wrong


FILE_REF = re.compile(r"(?<![\w/.])([\w.-]+(?:/[\w.-]+)*\.(?:md|toml|py|ipynb|json|parquet|png))(?![\w/])")


def missing_files(texts: dict) -> list:
    """``path: ref`` for every reference to a project file that does not exist:
    a path under one of ``PROJECT_DIRS``, or an upper-case ``NAME.md``."""
    missing = []
    for path, text in texts.items():
        here = (ROOT / path).parent
        for m in FILE_REF.finditer(text):
            ref = m.group(1).lstrip("-")
            project = ref.startswith(PROJECT_DIRS) or re.fullmatch(r"[A-Z][A-Z_]*\.md", ref)
            if project and not any((base / ref).exists() for base in (ROOT, here)):
                missing.append(f"{path}: {ref}")
    return missing


def output_columns(folder: Path = EXAMPLES) -> dict:
    """Every column of every parquet output under ``folder`` (a per-tier column
    ``value_g 2,500 G`` as ``value_g <tier>``), with a file that has it."""
    columns = {}
    for path in sorted(folder.rglob("*.parquet")):
        for name in pl.read_parquet_schema(path):
            columns.setdefault(re.sub(r"^value_g \d[\d,]* G$", "value_g <tier>", name), path.name)
    return columns


def undefined_columns(columns, glossary: str) -> list:
    """The columns the glossary does not name in backticks."""
    named = set(re.findall(r"`([^`\n]+)`", glossary))
    return sorted(c for c in columns if c not in named)


DURATION = re.compile(
    r"(?<![\w-])\d+(?:[.,]\d+)?(?:\s?(?:-|–|to)\s?\d+(?:[.,]\d+)?)?\s?(?:ms|s|sec|seconds?|min|minutes?|h|hours?)(?![\w-])"
    r"|\b(?:about|under|up to|over|nearly|almost|within)\s(?:a|an|one|two|three|four|five|ten)\s(?:minutes?|hours?|seconds?)\b"
    r"|\ba few (?:minutes|seconds|hours)\b|\ba minute and a half\b|\bhalf (?:a|an) (?:minute|second|hour)\b"
    r"|\b(?:one|two|three|four|five|six|ten|twenty) (?:minutes|seconds|hours)\b", re.IGNORECASE)
FIGURES = re.compile(r"<!-- figures:([a-z-]+):start -->.*?<!-- figures:\1:end -->", re.S)
FENCED = re.compile(r"^```.*?^```", re.S | re.M)
LIMITS = ("every", "within", "at most")  # a period or a limit: a setting, not a measured time
TIMED_EXEMPT = ("docs/decisions/", "docs/dev/benchmarks.md")  # dated records; the rendered benchmark tables


def typed_durations(texts: dict) -> list:
    """``path:line: duration`` for every duration typed by hand in ``texts`` (``{path: text}``):
    outside the figures blocks rendered from docs/dev/bench-results.json and console blocks
    (a program's own words), and not a period or a limit (``every 5 s``, ``within 2 s``: settings)."""
    found = []
    for path, text in texts.items():
        if path.startswith(TIMED_EXEMPT):
            continue
        blank = FENCED.sub(_lines_only, FIGURES.sub(_lines_only, text))
        for n, line in enumerate(blank.splitlines(), 1):
            found += [f"{path}:{n}: {m.group(0)}" for m in DURATION.finditer(line)
                      if not line[:m.start()].rstrip().lower().endswith(LIMITS)]
    return found


def _lines_only(match) -> str:
    """A matched block as blank lines, so the lines after it keep their numbers."""
    return "\n" * match.group(0).count("\n")


def doc_pages() -> dict:
    """``{path: text}`` of every page under docs/."""
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").rglob("*.md"))}


def nested_keys(data, maps=("strategies", "tier_weights", "weights")) -> list:
    """Every key of a JSON value, nested ones too, but not the entries of a map (a dict under
    one of ``maps``, keyed by data such as a tier label or a strategy name)."""
    keys, stack = set(), [(None, data)]
    while stack:
        parent, value = stack.pop()
        if isinstance(value, dict):
            if parent not in maps:
                keys |= set(value)
            stack += [(k, v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [(parent, v) for v in value]
    return sorted(keys)


def glossary_section(heading: str) -> str:
    """The text under a ``###`` heading of the glossary."""
    return _section(ROOT / "docs" / "guide" / "glossary.md", 3, heading)


def undocumented_keys(real_keys, section: str) -> list:
    """The keys of a real JSON output its documented section does not quote."""
    quoted = set(re.findall(r'"(\w+)"', section))
    return sorted(k for k in real_keys if k not in quoted)


def json_section(heading: str) -> str:
    """The text under a ``##`` heading of docs/reference/json.md."""
    return _section(ROOT / "docs" / "reference" / "json.md", 2, heading)


def _section(path: Path, level: int, heading: str) -> str:
    """The text of ``path`` from the heading of ``level`` named ``heading`` to the next heading of
    that level or a higher one."""
    text = path.read_text(encoding="utf-8")
    start = text.index(f"{'#' * level} {heading}")
    end = re.compile(rf"\n#{{1,{level}}} ").search(text, start + 1)
    return text[start:end.start() if end else None]
