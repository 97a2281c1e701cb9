"""The explorer's numbers as the page writes them: every interval labelled as a
95% confidence interval (never a bare "±"), probabilities with the digits that
tell them from 0 or 1, and a verdict on each difference."""

import math
import re

import pytest

from sim.explore.measure import GroupView, Row
from sim.explore.render import diff_text, group_html, interval_text, label, value_text, verdict


def row(name="fight_survival.bloodsucker.standard", unit="p", value=0.29, base=0.83, diff=-0.54,
        diff_ci=(-0.545, -0.535), clear=True, same=False):
    return Row(name, unit, value, (value - 0.004, value + 0.004), base, diff, diff_ci, clear, 50_000, same)


@pytest.mark.parametrize("unit,x,text", [
    ("p", 0.2941, "29.41%"), ("p", 0.99998, "99.998%"), ("p", 1.0, "100.00%"), ("p", 1e-5, "0.001%"),
    ("days", 16.114, "16.11 days"), ("G", 1456.2, "1,456 G"), ("p", math.nan, "–")])
def test_values(unit, x, text):
    assert value_text(unit, x) == text


@pytest.mark.parametrize("unit,d,text", [
    ("p", -0.5346, "−53.46 pp"), ("p", 0.00016, "+0.016 pp"), ("p", 0.0, "0.00 pp"), ("G", 457.6, "+458 G"),
    ("days", -0.125, "−0.12 days")])
def test_differences(unit, d, text):
    assert diff_text(unit, d) == text


@pytest.mark.parametrize("r,kind", [(row(), "down"), (row(diff=0.1, diff_ci=(0.09, 0.11)), "up"),
                                    (row(diff=0.001, diff_ci=(-0.002, 0.004), clear=False), "noise"),
                                    (row(diff=0.0, diff_ci=(-4e-5, 4e-5), clear=False, same=True), "same"),
                                    (row(diff=math.nan, diff_ci=(math.nan, math.nan), clear=False), "undefined")])
def test_verdicts(r, kind):
    assert verdict(r)[0] == kind


def test_every_interval_is_labelled_and_no_plus_minus_is_bare():
    rows = (row(), row("fight_survival.boar.standard", diff=0.0, diff_ci=(-4e-5, 4e-5), clear=False, same=True))
    page = group_html(GroupView("fights", "Fights", 1, 100_000, rows, 1))
    assert "±" not in page
    assert page.count("95% CI") == 2 * len(rows)
    assert 'data-metric="fight_survival.bloodsucker.standard"' in page and 'data-clear="true"' in page
    assert re.search(r"stage 2 of 4 \(5% of the full count\) · 100,000 fights per cell", page)


@pytest.mark.parametrize("unit,lo,hi,diff,text", [("p", 0.4621, 0.4709, False, "95% CI 46.21 to 47.09%"),
                                                  ("p", -0.0076, -0.0051, True, "95% CI −0.76 to −0.51 pp"),
                                                  ("G", 1150.2, 1159.4, False, "95% CI 1,150 to 1,159 G"),
                                                  ("days", 0.1, 0.15, True, "95% CI +0.10 to +0.15 days"),
                                                  ("p", math.nan, 0.1, True, "95% CI not defined")])
def test_intervals_name_their_unit_once(unit, lo, hi, diff, text):
    assert interval_text(unit, lo, hi, diff) == text


def test_labels_say_what_a_number_is():
    assert label("fight_survival.bloodsucker.standard") == "fight · bloodsucker · standard"
    assert label("stalkeriada_no_winner") == "Stalkeriada: no winner"


def test_moved_rows_come_first_and_unchanged_rows_fold():
    """A move clear of the noise is the first row, whatever its place in the content;
    rows with no trial different fold under one line; with nothing moved, nothing folds."""
    same = dict(diff=0.0, diff_ci=(0.0, 0.0), clear=False, same=True)
    rows = (row("fight_survival.blind_dog.standard", **same), row("fight_survival.flesh.standard", **same),
            row("fight_survival.snork.standard", diff=0.001, diff_ci=(-0.002, 0.004), clear=False),
            row("fight_survival.bloodsucker.standard"))
    page = group_html(GroupView("fights", "Fights", 1, 100_000, rows, 1))
    shown, fold = page.split('<details class="unchanged">')
    assert shown.index("bloodsucker") < shown.index("snork") and "blind_dog" not in shown
    assert "2 unchanged rows (= no trial differs)" in fold and "blind_dog" in fold and "flesh" in fold
    quiet = group_html(GroupView("fights", "Fights", 1, 100_000, rows[:2], 1))
    assert "<details" not in quiet and "blind_dog" in quiet and "flesh" in quiet
    values = group_html(GroupView("values", "Values", 1, 100_000, rows, 1))
    assert values.index("bloodsucker") < values.index("snork") < values.index('<details class="unchanged">')
