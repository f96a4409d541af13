"""Uploads and share links in Chromium: uploaded files give the CLI's numbers, and a link made
on the Compare page reopens them elsewhere, read-only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import BrowserContext, Page, expect

from tests.support.browser_reference import cli_compare, segment_counts
from tests.support.compare_page import (
    assert_headline_equals,
    assert_rows_match_segments,
    upload_inputs,
)
from tests.support.share_page import (
    SHARED_BANNER,
    expect_same_report,
    share_link,
    what_the_report_says,
)
from tests.support.streamlit_page import assert_no_error, go_to_page, open_app


def test_uploaded_files_give_the_cli_numbers_and_a_link_reopens_them(
        page: Page, app_url: str, small_inputs: dict[str, Path],
        new_context: Callable[..., BrowserContext]) -> None:
    open_app(page, app_url)
    upload_inputs(page, small_inputs)
    expected = cli_compare(small_inputs["run_a"], small_inputs["run_b"],
                           qrels=small_inputs["qrels"], segments=small_inputs["segments"],
                           segment_column="intent")
    expect(page.get_by_text("60 paired queries")).to_be_visible()
    assert_headline_equals(page, expected)
    assert_rows_match_segments(page, "intent", segment_counts(small_inputs["segments"], "intent"))
    shown = what_the_report_says(page)
    link = share_link(page)
    assert link.startswith(app_url)

    viewer = new_context().new_page()  # no cookies, no session: someone else's browser
    open_app(viewer, link)
    expect(viewer.get_by_text(SHARED_BANNER)).to_be_visible()
    expect_same_report(viewer, shown)
    assert_headline_equals(viewer, expected)

    go_to_page(viewer, "How many queries (MDE)")
    expect(viewer.get_by_role("heading", level=1)).to_contain_text("Minimum detectable effect")
    expect(viewer.get_by_text(SHARED_BANNER)).to_have_count(0)
    go_to_page(viewer, "Compare runs")
    expect(viewer.get_by_text(SHARED_BANNER)).to_be_visible()
    expect_same_report(viewer, shown)
    assert_no_error(viewer)
