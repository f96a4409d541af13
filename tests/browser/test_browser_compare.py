"""The Compare page in Chromium: demo first visit, uploads against the CLI, settings, bad files."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from ranklens import demo
from tests.support.browser_reference import cli_compare, corrupt_line, segment_counts
from tests.support.compare_page import (
    UPLOADERS,
    assert_headline_equals,
    assert_rows_match_segments,
    forest_plot,
    headline,
    press_compare,
    segment_table,
    upload_inputs,
)
from tests.support.streamlit_page import (
    ERROR_ELEMENTS,
    assert_no_error,
    chart_titles,
    choose_option,
    open_app,
    remove_file,
    set_multiselect,
    upload_file,
)

# ---- scenarios ----------------------------------------------------------------------------

def test_first_visit_shows_the_demo_report_then_metric_and_segment_column_change_it(
        page: Page, app_url: str) -> None:
    """One load of the demo (each costs seconds): the first visit as it arrives, then the
    metric and segment column changed from there."""
    open_app(page, app_url)
    _first_visit_shows_the_demo_report(page)
    _metric_and_segment_column_change_plot_and_table(page)


def _first_visit_shows_the_demo_report(page: Page) -> None:
    expected = cli_compare(*(demo.paths()[role] for role in ("run_a", "run_b")),
                           qrels=demo.paths()["qrels"], segments=demo.paths()["segments"],
                           segment_column="intent")
    name_a, name_b = expected["run_names"]
    assert headline(page) == f"{name_b} is better than {name_a} on nDCG@10."
    counts = segment_counts(demo.paths()["segments"], "intent")
    assert_rows_match_segments(page, "intent", counts)
    assert_headline_equals(page, expected)
    assert_no_error(page)


def _metric_and_segment_column_change_plot_and_table(page: Page) -> None:
    before = segment_table(page)[0]
    set_multiselect(page, "Metrics", ["AP"])
    choose_option(page, "Segment by", "length")
    paths = demo.paths()
    expected = cli_compare(paths["run_a"], paths["run_b"], qrels=paths["qrels"],
                           segments=paths["segments"], segment_column="length", metric="AP")
    assert headline(page).endswith(" on AP.")
    assert chart_titles(forest_plot(page, metric="AP"))[0].startswith("AP: ")
    counts = segment_counts(paths["segments"], "length")
    assert_rows_match_segments(page, "length", counts)
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

    # run B's slot takes several files (training seeds): the broken one is removed, not replaced
    remove_file(page, UPLOADERS["run_b"], bad.name)
    upload_file(page, UPLOADERS["run_b"], small_inputs["run_b"])
    press_compare(page)
    expected = cli_compare(small_inputs["run_a"], small_inputs["run_b"],
                           qrels=small_inputs["qrels"])
    assert_headline_equals(page, expected)
    assert_no_error(page)
