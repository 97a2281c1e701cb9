"""report.md rendered as one self-contained report.html: Markdown by
markdown-it-py (CommonMark and tables), a table of contents, every chart
embedded as a base64 PNG, styles inline, wide tables that scroll inside their
box, numbers aligned right, and a small script that sorts a table by a column
when its header is clicked (the page reads the same with scripts off)."""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

from markdown_it import MarkdownIt

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:1180px;margin:2em auto;padding:0 1em;
line-height:1.5;color:#1d1d1d}
h1{font-size:1.7em;margin-bottom:.2em}h2{border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:2.2em}
nav.toc{background:#f6f7f9;border:1px solid #e1e4e8;border-radius:6px;padding:.6em 1.2em;margin:1em 0 2em}
nav.toc h2{border:0;margin:.2em 0;font-size:1.05em}nav.toc ol{margin:.3em 0;padding-left:1.4em}
.scroll{overflow-x:auto;margin:.4em 0 1.4em;border:1px solid #e1e4e8;border-radius:4px}
table{border-collapse:collapse;font-size:13px;width:max-content;min-width:100%}
th,td{border-bottom:1px solid #eee;padding:3px 9px;white-space:nowrap}
th{background:#f6f7f9;position:sticky;top:0;text-align:left;cursor:pointer}
td[style*="right"],th[style*="right"]{font-variant-numeric:tabular-nums}
tr:hover td{background:#fafbfc}
img{max-width:100%;height:auto;display:block;margin:1em auto .3em}
p em:only-child{color:#555;font-size:.92em}
code{background:#f3f3f3;padding:0 .25em;border-radius:3px;font-size:.92em}
sub{color:#888}
ol.findings li{margin:.35em 0}
"""

SORT = """
document.querySelectorAll("table").forEach(function (table) {
  table.querySelectorAll("th").forEach(function (th, col) {
    th.title = "sort by this column";
    th.addEventListener("click", function () {
      var body = table.tBodies[0], rows = Array.from(body.rows), down = th.dataset.down !== "1";
      var key = function (r) { var t = r.cells[col].textContent.replace(/,/g, ""); var n = parseFloat(t);
                               return isNaN(n) ? t : n; };
      rows.sort(function (a, b) { var x = key(a), y = key(b);
                                  return (x > y ? 1 : x < y ? -1 : 0) * (down ? -1 : 1); });
      th.dataset.down = down ? "1" : "0";
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
"""


def slug(text: str) -> str:
    """A heading's anchor: lower case, words joined by hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def render(markdown: str, folder: Path, title: str) -> str:
    """The page of ``markdown`` (its images read from ``folder`` and embedded)."""
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    tokens = md.parse(markdown)
    contents = []
    for k, token in enumerate(tokens):
        if token.type == "heading_open":
            text = tokens[k + 1].content
            token.attrSet("id", slug(text))
            if token.tag == "h2":
                contents.append((slug(text), text))
    body = md.renderer.render(tokens, md.options, {})
    body = re.sub(r'<img src="([^"]+)"', lambda m: f'<img src="{_data_uri(folder / m.group(1))}"', body)
    body = body.replace("<table>", '<div class="scroll"><table>').replace("</table>", "</table></div>")
    toc = ('<nav class="toc"><h2>Contents</h2><ol>' + "".join(
        f'<li><a href="#{anchor}">{html.escape(text)}</a></li>' for anchor, text in contents) + "</ol></nav>")
    starts = [m.start() for m in re.finditer("<h2", body)]
    at = starts[1] if len(starts) > 1 else len(body)  # after the first section: what to look at first
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{html.escape(title)}</title>'
            f"<style>{STYLE}</style></head><body>{body[:at]}{toc}{body[at:]}<script>{SORT}</script></body></html>")


def _data_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")
