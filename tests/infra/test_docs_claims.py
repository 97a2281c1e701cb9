"""The docs say what is true: every count they state, every project file they
name, every output column (in the glossary) and every key of the report's JSON
files (in the JSON reference). Each check is shown catching a planted error."""

import json
import re

import polars as pl

from tests.infra import docs_checks as checks

GLOSSARY = (checks.ROOT / "docs" / "guide" / "glossary.md").read_text(encoding="utf-8")
REPORT = checks.EXAMPLES / "report"


def test_counts_in_prose_are_true():
    texts, claims = checks.prose_texts(), checks.count_claims()
    assert checks.stale_counts(texts, claims) == []
    for pattern, _ in claims:  # a claim no text states any more is a check that cannot fail
        assert any(re.search(pattern, t, re.IGNORECASE) for t in texts.values()), pattern


def test_a_stale_count_is_caught():
    planted = {"docs/x.md": "Every assumed number of the content (12) takes a minute; "
                            "`notebooks/` holds four notebooks."}
    assert len(checks.stale_counts(planted, checks.count_claims())) == 2


def test_named_project_files_exist():
    assert checks.missing_files({**checks.prose_texts(), **checks.code_texts()}) == []


def test_a_missing_file_is_caught():
    planted = {"README.md": "Rules are in RULES.md; see `docs/guide/nowhere.md` and `sim/content/default/items.toml`."}
    assert checks.missing_files(planted) == ["README.md: RULES.md", "README.md: docs/guide/nowhere.md"]


def test_every_output_column_is_in_the_glossary():
    columns = checks.output_columns()
    assert {"value_g", "p_last", "mean_place", "reservation_g", "value_g <tier>"} <= set(columns)
    assert checks.undefined_columns(columns, GLOSSARY) == []


def test_a_column_missing_from_the_glossary_is_caught(tmp_path):
    pl.DataFrame({"value_g": [1.0], "value_g 1,000 G": [2.0], "mystery_share": [0.5]}).write_parquet(
        tmp_path / "x.parquet")
    assert checks.undefined_columns(checks.output_columns(tmp_path), GLOSSARY) == ["mystery_share"]


def _keys(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    return sorted({k for row in data for k in row} if isinstance(data, list) else data)


def test_report_json_keys_are_documented():
    section = checks.json_section("`zonesim report`")
    assert checks.undocumented_keys(_keys(REPORT / "findings.json"), section) == []
    assert checks.undocumented_keys(_keys(REPORT / "manifest.json"), section) == []
    assert checks.undefined_columns(_keys(REPORT / "findings.json"), GLOSSARY) == []


def test_an_undocumented_key_is_caught():
    section = checks.json_section("`zonesim report`")
    assert checks.undocumented_keys([*_keys(REPORT / "findings.json"), "surprise"], section) == ["surprise"]


def test_no_duration_is_typed_by_hand_in_the_docs():
    """Every time a page states comes from docs/dev/bench-results.json through a figures block
    (``python scripts/readme_figures.py``), so two pages cannot disagree on how long a run takes."""
    assert checks.typed_durations(checks.doc_pages()) == []


def test_a_duration_typed_by_hand_is_caught():
    planted = {"docs/guide/x.md": "Compiling takes about a minute; a line every 5 s.\n```\nzonesim: 4 min\n```\n"
                                  "<!-- figures:report-quick:start -->\nabout 43 s\n<!-- figures:report-quick:end -->\n"
                                  "The report takes 43 s, the tune 5 min 14 s.\nA value takes 26-46 s.",
               "docs/decisions/old.md": "It took 4 min 49 s then."}
    assert checks.typed_durations(planted) == ["docs/guide/x.md:1: about a minute", "docs/guide/x.md:8: 43 s",
                                               "docs/guide/x.md:8: 5 min", "docs/guide/x.md:8: 14 s",
                                               "docs/guide/x.md:9: 26-46 s"]


VALUE_SECTION = "Card values as JSON: `zonesim value --json`"


def test_every_key_of_value_json_is_in_the_glossary_with_the_commands_meaning():
    """Every key of ``zonesim value --json`` (results/example/value.json, the default content's
    quick run), nested ones too, is defined in the glossary's section for that command."""
    keys = checks.nested_keys(json.loads((checks.EXAMPLES / "value.json").read_text(encoding="utf-8")))
    assert {"agreement", "second_kit", "g_per_unit", "unspent", "value_g_spread"} <= set(keys)
    assert checks.undefined_columns(keys, checks.glossary_section(VALUE_SECTION)) == []


def test_a_new_key_of_value_json_is_caught():
    data = json.loads((checks.EXAMPLES / "value.json").read_text(encoding="utf-8"))
    data["context"]["tiers"][0]["agreement"]["surprise"] = 1
    data["context"]["tiers"][0]["strategies"]["a new strategy"] = 1.0  # a map's entry is data, not a key
    assert checks.undefined_columns(checks.nested_keys(data), checks.glossary_section(VALUE_SECTION)) == ["surprise"]


def test_the_examples_come_from_one_content_version_without_machine_paths():
    """results/example: every manifest names the shipped content ``default``,
    with the shipped content's hash (python scripts/examples.py makes them again)."""
    from sim.content import load_content

    manifests = sorted(checks.EXAMPLES.rglob("manifest.json"))
    assert len(manifests) >= 3
    for path in manifests:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["content_dir"] == "default", path
        assert data["content_hash"] == load_content().digest, f"{path} is stale: run python scripts/examples.py"
    for path in [*checks.EXAMPLES.rglob("*.json"), *checks.EXAMPLES.rglob("*.md")]:
        text = path.read_text(encoding="utf-8")
        assert str(checks.ROOT) not in text and "/tmp/" not in text, path
