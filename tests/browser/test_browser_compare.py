"""The Compare page in Chromium: demo first visit, uploads against the CLI, settings, bad files."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect
from reference import cli_compare, corrupt_line, demo_subset, segment_counts
from streamlit_page import (
    ERROR_ELEMENTS,
    assert_no_error,
    axis_labels,
    chart_titles,
    choose_option,
    choose_radio,
    grid_rows,
    metric_values,
    numbers_in,
    open_app,
    set_multiselect,
    upload_file,
)

from ranklens import demo

OVERALL = "All queries"
UPLOADERS = {  # role -> the uploader's label on the Compare page
    "run_a": "Run A (baseline)",
    "run_b": "Run B (candidate)",
    "qrels": "Judgements (qrels)",
    "segments": "Segment map (optional)",
}
# overall-row column of the segment table -> field of the CLI's JSON result
TABLE_FIELDS = {"B \u2212 A": "delta", "CI low": "ci_low", "CI high": "ci_high",
                "p": "p_value", "t-test p": "t_p_value"}


@pytest.fixture(scope="session")
def small_inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The demo cut to 60 queries, as files to upload."""
    return demo_subset(tmp_path_factory.mktemp("small"), n_queries=60)


# ---- what the page shows ------------------------------------------------------------------

def forest_plot(page: Page) -> Locator:
    """The first forest plot: the Vega chart whose x title says 'mean difference'."""
    chart = page.get_by_test_id("stVegaLiteChart").filter(has_text="mean difference").first
    expect(chart).to_be_visible()
    return chart


def forest_rows(page: Page) -> list[str]:
    """The forest plot's row labels, e.g. ``['All queries (n=400)', 'product (n=62)', ...]``."""
    return [re.sub(r"\s+", " ", label) for label in axis_labels(forest_plot(page))
            if "(n=" in label]


def segment_table(page: Page) -> list[dict[str, str]]:
    """The rows of the table under the forest plot (the first data frame on the page)."""
    return grid_rows(page.get_by_test_id("stDataFrame").first)


def headline(page: Page) -> str:
    """The verdict's first sentence: the one heading that ends with 'on <metric>.'."""
    sentence = page.get_by_test_id("stHeading").filter(has_text=re.compile(r" on \S+\.$"))
    expect(sentence).to_have_count(1)
    return sentence.inner_text().strip()


def card(values: dict[str, str], label_part: str) -> str:
    """The value of the one metric card whose label contains ``label_part``."""
    found = [value for label, value in values.items() if label_part in label]
    assert len(found) == 1, f"{label_part!r} in {sorted(values)}"
    return found[0]


def assert_rounds_to(shown: str, value: float) -> None:
    """``shown`` is ``value`` printed to the decimals it has (or '< 0.001' for tiny p)."""
    if shown.startswith("<"):
        assert value < numbers_in(shown)[0], (shown, value)
        return
    number = numbers_in(shown)
    assert len(number) == 1, shown
    decimals = len(shown.split(".")[1]) if "." in shown else 0
    assert math.isclose(number[0], value, abs_tol=0.5 * 10 ** -decimals + 1e-12), (shown, value)


def assert_rows_match_segments(rows: list[str], table: list[dict[str, str]], column: str,
                               counts: dict[str, int]) -> None:
    """Plot rows and table rows are the overall row then one per segment, with their n."""
    total = sum(counts.values())
    expected = {f"{OVERALL} (n={total})"} | {f"{name} (n={n})" for name, n in counts.items()}
    assert rows[0] == f"{OVERALL} (n={total})"
    assert sorted(rows) == sorted(expected)
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
    assert_rounds_to(card(values, "p (permutation)"), result["p_value"])
    assert_rounds_to(card(values, "p (t-test)"), result["t_p_value"])
    overall = segment_table(page)[0]
    assert overall["Queries"] == str(result["n_queries"])
    counts = (overall["Won"], overall["Tied"], overall["Lost"])
    assert counts == (str(result["wins"]), str(result["ties"]), str(result["losses"]))
    assert math.isclose(float(overall[f"Mean {names[0]}"]), result["mean_a"], rel_tol=1e-12)
    assert math.isclose(float(overall[f"Mean {names[1]}"]), result["mean_b"], rel_tol=1e-12)
    for column, field in TABLE_FIELDS.items():
        assert math.isclose(float(overall[column]), result[field], rel_tol=1e-9), column


def upload_inputs(page: Page, files: dict[str, Path]) -> None:
    """Switch Data to 'My files' and upload each role's file (judgements and segments first,
    so the runs arrive last and the report is computed once)."""
    choose_radio(page, "Data", "My files")
    for role in ("qrels", "segments", "run_a", "run_b"):
        if role in files:
            upload_file(page, UPLOADERS[role], files[role])


# ---- scenarios ----------------------------------------------------------------------------

def test_first_visit_shows_the_demo_report(page: Page, app_url: str) -> None:
    open_app(page, app_url)
    expected = cli_compare(*(demo.paths()[role] for role in ("run_a", "run_b")),
                           qrels=demo.paths()["qrels"], segments=demo.paths()["segments"],
                           segment_column="intent")
    name_a, name_b = expected["run_names"]
    assert headline(page) == f"{name_b} is better than {name_a} on nDCG@10."
    counts = segment_counts(demo.paths()["segments"], "intent")
    assert_rows_match_segments(forest_rows(page), segment_table(page), "intent", counts)
    assert_headline_equals(page, expected)
    assert_no_error(page)


def test_uploaded_files_give_the_cli_numbers(page: Page, app_url: str,
                                             small_inputs: dict[str, Path]) -> None:
    open_app(page, app_url)
    upload_inputs(page, small_inputs)
    expected = cli_compare(small_inputs["run_a"], small_inputs["run_b"],
                           qrels=small_inputs["qrels"], segments=small_inputs["segments"],
                           segment_column="intent")
    expect(page.get_by_text("60 paired queries")).to_be_visible()
    assert_headline_equals(page, expected)
    counts = segment_counts(small_inputs["segments"], "intent")
    assert_rows_match_segments(forest_rows(page), segment_table(page), "intent", counts)
    assert_no_error(page)


def test_metric_and_segment_column_change_plot_and_table(page: Page, app_url: str) -> None:
    open_app(page, app_url)
    before = segment_table(page)[0]
    set_multiselect(page, "Metrics", ["AP"])
    choose_option(page, "Segment by", "length")
    paths = demo.paths()
    expected = cli_compare(paths["run_a"], paths["run_b"], qrels=paths["qrels"],
                           segments=paths["segments"], segment_column="length", metric="AP")
    assert headline(page).endswith(" on AP.")
    assert chart_titles(forest_plot(page))[0].startswith("AP: ")
    counts = segment_counts(paths["segments"], "length")
    assert_rows_match_segments(forest_rows(page), segment_table(page), "length", counts)
    assert_headline_equals(page, expected)
    assert segment_table(page)[0]["B \u2212 A"] != before["B \u2212 A"]
    assert_no_error(page)


def test_malformed_file_is_named_with_its_line(page: Page, app_url: str,
                                               small_inputs: dict[str, Path],
                                               tmp_path: Path) -> None:
    bad = corrupt_line(small_inputs["run_b"], tmp_path / "broken_run.trec", 5,
                       "q0000 Q0 d99 5 notanumber neural")
    open_app(page, app_url)
    upload_inputs(page, {"qrels": small_inputs["qrels"], "run_a": small_inputs["run_a"],
                         "run_b": bad})
    error = page.locator(ERROR_ELEMENTS)
    expect(error).to_have_count(1)
    expect(error).to_contain_text("broken_run.trec")
    expect(error).to_contain_text("line 5")
    expect(page.get_by_test_id("stException")).to_have_count(0)
    assert "Traceback" not in page.inner_text("body")

    upload_file(page, UPLOADERS["run_b"], small_inputs["run_b"])
    expected = cli_compare(small_inputs["run_a"], small_inputs["run_b"],
                           qrels=small_inputs["qrels"])
    assert_headline_equals(page, expected)
    assert_no_error(page)
