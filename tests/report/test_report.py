"""``zonesim report``: the whole default study writes report.md and report.html
whose every figure exists and names its trials, seed and [A] assumptions; a bad
report.toml exits 2 with one line."""

import html
import json
import re

import polars as pl
import pytest

from sim.content import load_content
from tests.conftest import edited_content, zonesim


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "r"
    proc = zonesim("report", "--quick", "--out", out)
    assert proc.returncode == 0, proc.stderr
    return out


def test_report_has_every_section_and_its_figures(quick):
    md = (quick / "report.md").read_text()
    assert md.index("## What to look at first") < md.index("## Item economy: what every card is worth in G")
    for title in ("Item economy: what every card is worth in G",
                  "Item economy in fights: what every card is worth against the monsters the campaigns meet",
                  "Fights: survival by monster and loadout tier",
                  "Item values in one fight (a narrow view: one loadout, one monster)",
                  "Loadouts: what each budget buys", "Tactical skirmishes", "Price tuning in one fight (a narrow view)",
                  "Journeys on the default map", "Stalkeriada matchups"):
        assert f"## {title}" in md
    images = re.findall(r"!\[(.*?)\]\((.*?)\)\n\n\*(.*?)\*\n", md)
    assert len(images) >= 6
    for _, path, caption in images:
        assert (quick / path).is_file(), path
        assert "seed 1" in caption and re.search(r"[\d,]+ (paired )?\w+", caption), caption
        assert "[A]" in caption, caption


def _visible_text(page):
    """The text a reader sees: tags, scripts, styles and code left out."""
    page = re.sub(r"<(script|style|code)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_the_html_page_is_rendered_self_contained_and_captions_once(quick):
    """No raw Markdown outside code; every chart embedded (the page travels alone); each
    caption once; a table of contents; numbers aligned right; wide tables scroll in a box."""
    page = (quick / "report.html").read_text()
    text = _visible_text(page)
    for marker in ("**", "](", "|---", "`", "<sub>"):
        assert marker not in text, marker
    assert not re.search(r"(^|\s)\*[A-Za-z][^*]*\*(\s|$)", text) and not re.search(r"(?m)^#+ ", text)
    sources = re.findall(r'<img src="([^"]+)"', page)
    assert len(sources) >= 6 and all(s.startswith("data:image/png;base64,") for s in sources)
    md = (quick / "report.md").read_text()
    for caption in re.findall(r"!\[.*?\]\(.*?\)\n\n\*(.*?)\*\n", md):
        assert page.count(html.escape(caption, quote=False)) == 1, caption
    assert '<nav class="toc">' in page and 'href="#what-to-look-at-first"' in page
    assert 'style="text-align:right"' in page and page.count('<div class="scroll"><table>') >= 10
    assert "<script>" in page and "sort by this column" in page


def test_findings_json_holds_the_ranked_findings_of_the_first_section(quick):
    findings = json.loads((quick / "findings.json").read_text())
    assert findings and all(set(f) >= {"kind", "subject", "metric", "value", "ci95", "context", "section"}
                            for f in findings)
    for kind in {f["kind"] for f in findings}:  # largest first within each kind; the kinds take turns
        sizes = [f["size"] for f in findings if f["kind"] == kind]
        assert sizes == sorted(sizes, reverse=True), kind
    firsts = [f["kind"] for f in findings[:len({f["kind"] for f in findings})]]
    assert len(set(firsts)) == len(firsts)
    md = (quick / "report.md").read_text()
    first = md.split("## What to look at first", 1)[1].split("\n## ", 1)[0]
    assert first.count("[evidence](#") == len(findings) and "<details><summary>" in first
    kinds = {f["kind"] for f in findings}
    assert {"over_priced", "under_priced", "deadly_monster"} <= kinds, kinds  # none of no use everywhere
    titles = {line[3:].strip() for line in md.splitlines() if line.startswith("## ")}
    assert {f["section"] for f in findings} <= titles


def test_each_price_finding_suggests_a_price_and_no_two_findings_read_alike(quick):
    """Every over- or under-priced finding gives the price its value suggests (its value to
    economy.toml's 25 G step), and no two findings say the same apart from their subjects
    (the monsters that kill every starter stalker are one finding: three alike before)."""
    findings = json.loads((quick / "findings.json").read_text())
    priced = [f for f in findings if f["kind"] in ("over_priced", "under_priced")]
    assert priced
    for f in priced:
        found = re.search(r"suggested price \*\*([\d,]+) G\*\*", f["sentence"])
        assert found, f["sentence"]
        suggested = int(found.group(1).replace(",", ""))
        assert suggested % 25 == 0 and abs(suggested - max(f["value"], 25)) <= 12.5, f
    said = [re.sub(r"\*\*[^*]+\*\*", "", f["sentence"]) for f in findings]
    assert len(said) == len(set(said)), [s for s in said if said.count(s) > 1]


def test_every_table_column_has_one_precision(quick):
    """Each numeric column of every table in report.md shows its numbers to one number of
    decimals (G whole; 32.7586 G beside 103 G in one column before)."""
    md = (quick / "report.md").read_text()
    mixed = []
    for table in re.findall(r"(\| [^\n]+\|\n\|[-:|]+\n(?:\|[^\n]+\n)+)", md):
        lines = table.strip().split("\n")
        head = [c.strip() for c in lines[0].strip("|").split("|")]
        rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]
        for j, column in enumerate(head):
            numbers = [r[j] for r in rows if j < len(r) and re.fullmatch(r"-?[\d,]+(\.\d+)?", r[j])]
            if len({len(n.partition(".")[2]) for n in numbers}) > 1:
                mixed.append((column, numbers[:4]))
    assert not mixed, mixed


def test_the_first_screen_speaks_the_designers_words(quick):
    """The first 12 findings name cards and monsters by their display names,
    name each finding's context in words (its full text once, under the list, after
    the findings), and the body holds no machine path or timing."""
    import re

    from sim.content import DEFAULT_DIR, load_content

    renamed = {i: n for i, n in load_content().display_names().items() if n != i}
    md = (quick / "report.md").read_text()
    first = md.split("## What to look at first", 1)[1].split("\n## ", 1)[0]
    shown = [line for line in first.splitlines() if re.match(r"\d+\. ", line)][:12]
    assert len(shown) == 12
    for line in shown:
        assert not [i for i in renamed if re.search(rf"\b{re.escape(i)}\b", line)], line
    contexts = {f["context"] for f in json.loads((quick / "findings.json").read_text())}
    assert all(first.count(c) == 1 for c in contexts), contexts
    assert all(re.search(r"\(in [a-z][^;]*; \[evidence\]", line) for line in shown), shown  # words, not letters
    assert first.index("1. ") < first.index("Measured in ") < first.index("The findings of this report")
    assert str(DEFAULT_DIR) not in md and "<sub>" not in md and " s on " not in md


def test_report_tables_name_cards_and_monsters_and_their_columns_in_words(quick):
    """No table of report.html has a card's or monster's id in a heading or a row where a display
    name exists (``stealth_generator``, ``blind_dog``, ``ak47``), nor a data column's name
    (``value_g``, ``ci_low``) as its heading: the cards and monsters go by their names, the
    columns in words. Before, 24 tables showed 19 card ids and 35 snake_case headings."""
    from html.parser import HTMLParser

    shown = load_content().display_names()
    renamed = {i for i, n in shown.items() if n != i}
    display = re.compile("|".join(sorted(map(re.escape, shown.values()), key=len, reverse=True)))

    class Cells(HTMLParser):
        def __init__(self):
            super().__init__()
            self.cells, self.open = [], None

        def handle_starttag(self, tag, attrs):
            if tag in ("th", "td"):
                self.open = [tag, ""]

        def handle_data(self, data):
            if self.open:
                self.open[1] += data

        def handle_endtag(self, tag):
            if self.open and tag == self.open[0]:
                self.cells.append(tuple(self.open))
                self.open = None

    page = Cells()
    page.feed((quick / "report.html").read_text())
    assert len(page.cells) > 500
    ids = [(tag, text) for tag, text in page.cells  # an id in a dotted key (bloodsucker.hp) is the key's
           if set(re.findall(r"(?<![\w.])[a-z][a-z0-9_]*(?![\w.])", display.sub("", text))) & renamed]
    assert not ids, ids[:10]
    columns = [text for tag, text in page.cells if tag == "th" and re.search(r"[a-z]_[a-z]", text)]
    assert not columns, columns


@pytest.mark.browser
def test_the_page_shows_every_chart_with_the_png_files_gone(quick, browser, tmp_path):
    """A designer mails report.html alone: in a real browser, from a folder with no
    charts/, every image still has a width, and the first section is the findings."""
    alone = tmp_path / "mailed"
    alone.mkdir()
    (alone / "report.html").write_text((quick / "report.html").read_text())
    page = browser.new_page()
    page.goto((alone / "report.html").as_uri())
    widths = page.eval_on_selector_all("img", "images => images.map(i => i.naturalWidth)")
    assert len(widths) >= 6 and all(w > 0 for w in widths), widths
    assert page.locator("h2").first.inner_text().startswith("What to look at first")
    page.close()


def test_report_tables_and_manifest(quick):
    manifest = json.loads((quick / "manifest.json").read_text())
    assert manifest["quick"] and set(manifest["steps"]) >= {"Item economy: what every card is worth in G",
                                                            "Tactical skirmishes"}
    economy = pl.read_parquet(quick / "economy.parquet")
    assert economy.height == 38 and (economy["value_g"] >= 0).all()
    assert economy.filter(pl.col("item") == "ak47")["verdict"].to_list() != ["no use here"]  # the fights come
    by_objective = pl.read_parquet(quick / "economy_objectives.parquet")
    assert by_objective.height == 38 and {"speed_g", "safety_g", "wealth_g", "reputation_g"} <= set(by_objective.columns)
    in_fights = pl.read_parquet(quick / "economy_fights.parquet")
    assert in_fights.height == 38 and (in_fights["value_g"] >= 0).all()
    assert in_fights.filter(pl.col("item").is_in(["zone_map", "medkit"]))["verdict"].to_list() == ["no use here"] * 2
    assert in_fights.filter(pl.col("item") == "tyoshcha")["value_g"].item() > 0
    fights = pl.read_parquet(quick / "fights.parquet")
    assert fights.height == 7 * 4 and fights["trials"].unique().to_list() == [manifest["trials"]["fights"]]
    by_tier = fights.group_by("tier").agg(pl.col("p_survive").mean()).sort("p_survive")
    assert by_tier["tier"].to_list() == ["starter", "standard", "veteran", "elite"]  # better kit, more survival
    values = pl.read_parquet(quick / "values.parquet")  # one fight: a fighter never rolls to escape
    assert values.filter(pl.col("item") == "camo_cloak")["verdict"].to_list() == ["no use here"]
    assert load_content(quick / "content").digest == load_content().digest  # saved: a later report's --baseline


def test_bad_report_toml_gets_one_line_and_exit_2(tmp_path):
    bad = edited_content(tmp_path, "report.toml", 'value_tier = "standard"', 'value_tier = "legendary"')
    proc = zonesim("report", "--quick", "--content", bad, "--out", tmp_path / "r")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "study.value_tier" in proc.stderr and "legendary" in proc.stderr
    bad = edited_content(tmp_path, "report.toml", "fights = [1000000, 20000]", "fights = [0, 20000]", name="c2")
    proc = zonesim("report", "--quick", "--content", bad, "--out", tmp_path / "r2")
    assert proc.returncode == 2 and "trials.fights" in proc.stderr
