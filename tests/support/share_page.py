"""A share link in Chromium: make one on a page, and read what two viewers must agree on."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.support.compare_page import headline, segment_table
from tests.support.streamlit_page import click_button, expect_metric_values, metric_values

SHARED_BANNER = "Shared report, read-only"


def share_link(page: Page) -> str:
    """Click Share and read the link the page prints in its code block."""
    click_button(page, "Share")
    code = page.get_by_test_id("stCode").filter(has_text="?report=")
    expect(code).to_have_count(1)
    return code.inner_text().strip()


Said = tuple[str, dict[str, str], list[dict[str, str]]]


def what_the_report_says(page: Page) -> Said:
    """Headline, metric cards and segment table: the numbers two viewers must agree on, read
    once the page has drawn its last cards (the per-query counts and the RBO card)."""
    labels = page.get_by_test_id("stMetricLabel")
    for last in ("p (t-test)", "Ties", "Mean RBO"):
        expect(labels.filter(has_text=last)).to_have_count(1)
    return headline(page), metric_values(page), segment_table(page)


def expect_same_report(page: Page, shown: Said) -> None:
    """Wait until ``page`` shows what ``shown`` recorded: the same headline, the same cards
    (labels and values, waited for: a finished run may still be drawing them) and the same
    segment table (read once its grid holds as many rows)."""
    sentence, cards, table = shown
    expect_metric_values(page, cards)
    assert headline(page) == sentence
    assert segment_table(page, n_rows=len(table)) == table
