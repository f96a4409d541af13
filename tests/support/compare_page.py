"""The Compare page as a person sees it: where its parts are, how to feed it, what to check."""

from __future__ import annotations

import math
import re
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from ranklens.formats import format_p
from tests.support.streamlit_page import (
    assert_rounds_to,
    axis_labels,
    card,
    choose_radio,
    expect_chart_text,
    grid_rows,
    metric_values,
    submit_form,
    upload_file,
)

OVERALL = "All queries"
COMPARE_BUTTON = "Compare"  # submits the uploads form
UPLOADERS = {  # role -> the uploader's label on the Compare page
    "run_a": "Run A (baseline)",
    "run_b": "Run B (candidate)",
    "qrels": "Judgements (qrels)",
    "segments": "Segment map (optional)",
}
# overall-row column of the segment table -> field of the CLI's JSON result
TABLE_FIELDS = {"Mean A": "mean_a", "Mean B": "mean_b", "B \u2212 A": "delta"}
# columns written as people read p-values (ranklens.formats.format_p) -> field
P_FIELDS = {"p": "p_value", "t-test p": "t_p_value"}



# ---- what the page shows ------------------------------------------------------------------

def forest_plot(page: Page, metric: str | None = None) -> Locator:
    """The first forest plot (the chart titled '... mean difference ...'), once drawn (for
    ``metric``, when given: its x title starts with it)."""
    chart = page.get_by_test_id("stVegaLiteChart").filter(has_text="mean difference").first
    expect(chart).to_be_visible()
    expect_chart_text(chart, re.compile(rf"^{re.escape(metric or '')}.*mean difference"))
    return chart


def forest_rows(page: Page, expected_row: str | None = None) -> list[str]:
    """The forest plot's row labels, e.g. ``['All queries (n=400)', 'product (n=62)', ...]``,
    once the row ``expected_row`` (if given) is drawn."""
    chart = forest_plot(page)
    if expected_row is not None:
        words = [re.escape(word) for word in expected_row.split()]
        expect_chart_text(chart, re.compile(r"^\s*" + r"\s+".join(words) + r"\s*$"))
    return [re.sub(r"\s+", " ", label) for label in axis_labels(chart) if "(n=" in label]


def segment_table(page: Page, n_rows: int | None = None) -> list[dict[str, str]]:
    """The rows of the table under the forest plot (the data frame with a 'q' column),
    once its grid holds ``n_rows`` data rows when that is given."""
    frame = _frame_with_column(page, "q")  # the robustness view has 'Mean A' too
    if n_rows is not None:
        frame.scroll_into_view_if_needed()
        expect(frame.locator('table[role="grid"]')).to_have_attribute(
            "aria-rowcount", str(n_rows + 1))
    return grid_rows(frame)


def leaderboard_table(page: Page) -> list[dict[str, str]]:
    """The rows of the leaderboard (several candidates: the data frame with 'Adjusted p')."""
    return grid_rows(_frame_with_column(page, "Adjusted p"))


def leaderboard_plot(page: Page) -> Locator:
    """The leaderboard's forest plot (x title '... candidate \u2212 ...'), once drawn."""
    chart = page.get_by_test_id("stVegaLiteChart").filter(has_text="candidate \u2212").first
    expect(chart).to_be_visible()
    return chart


def _frame_with_column(page: Page, column: str) -> Locator:
    frame = page.get_by_test_id("stDataFrame").filter(
        has=page.locator('table[role="grid"] th', has_text=re.compile(rf"^{re.escape(column)}$")))
    expect(frame).to_have_count(1)
    return frame


def headline(page: Page) -> str:
    """The verdict's first sentence: the one heading that ends with 'on <metric>.'."""
    sentence = page.get_by_test_id("stHeading").filter(has_text=re.compile(r" on \S+\.$"))
    expect(sentence).to_have_count(1)
    return sentence.inner_text().strip()


def assert_rows_match_segments(page: Page, column: str, counts: dict[str, int]) -> None:
    """Plot rows and table rows are the overall row then one per segment of ``column``, each
    with its number of queries (``counts``)."""
    total = sum(counts.values())
    expected = [f"{OVERALL} (n={total})"] + [f"{name} (n={n})" for name, n in counts.items()]
    rows = forest_rows(page, expected_row=expected[-1])
    assert rows[0] == expected[0]
    assert sorted(rows) == sorted(expected)
    table = segment_table(page)
    assert table[0][column] == OVERALL
    assert {row[column]: int(row["Queries"]) for row in table} == {OVERALL: total, **counts}


def assert_headline_equals(page: Page, expected: dict) -> None:
    """Cards and the table's overall row show the CLI's overall result of the first metric."""
    names = expected["run_names"]
    result = expected["comparisons"][0]["overall"]
    values = metric_values(page)
    assert_rounds_to(card(values, f"{names[0]} (A)"), result["mean_a"])
    assert_rounds_to(card(values, f"{names[1]} (B)"), result["mean_b"])
    low, high = card(values, "interval of B").split(" to ")
    assert_rounds_to(low, result["ci_low"])
    assert_rounds_to(high, result["ci_high"])
    assert_rounds_to(card(values, "p (skew-guarded)"), result["p_value"])
    assert_rounds_to(card(values, "p (t-test)"), result["t_p_value"])
    overall = segment_table(page)[0]
    assert overall["Queries"] == str(result["n_queries"])
    counts = tuple(overall["W / T / L"].replace(",", "").split(" / "))
    assert counts == (str(result["wins"]), str(result["ties"]), str(result["losses"]))
    low, high = overall["Interval"].split(" to ")
    assert_rounds_to(low, result["ci_low"])
    assert_rounds_to(high, result["ci_high"])
    for column, field in TABLE_FIELDS.items():
        assert math.isclose(float(overall[column]), result[field], rel_tol=1e-9), column
    for column, field in P_FIELDS.items():
        assert overall[column] == format_p(result[field]), column


def upload_inputs(page: Page, files: dict[str, Path]) -> None:
    """Switch Data to 'My files', upload each role's file and press Compare.

    Judgements and segments go first, so that without the form the runs arrive last and the
    report is computed once.
    """
    choose_radio(page, "Data", "My files")
    for role in ("qrels", "segments", "run_a", "run_b"):
        if role in files:
            upload_file(page, UPLOADERS[role], files[role])
    press_compare(page)


def press_compare(page: Page) -> None:
    """Submit the uploads form with its Compare button (when the page has that form)."""
    if page.get_by_test_id("stFormSubmitButton").filter(has_text=COMPARE_BUTTON).count():
        submit_form(page, COMPARE_BUTTON)
