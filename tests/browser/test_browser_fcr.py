"""Issue 32 in Chromium: the forest plot draws FCR-adjusted intervals by default, and the
toggle draws the marginal ones."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ranklens.app.segment_intervals import TOGGLE_LABEL
from tests.support.compare_page import forest_plot
from tests.support.streamlit_page import (
    assert_no_error,
    chart_titles,
    expect_chart_text,
    expect_rerun,
    open_app,
)


def test_forest_plot_shows_fcr_intervals_then_marginal_on_the_toggle(page: Page,
                                                                    app_url: str) -> None:
    open_app(page, app_url)
    chart = forest_plot(page)
    # the demo by intent: BH selects 4 of 6 segments, so 1 - 4 x 0.05 / 6 = 96.67%
    expect_chart_text(chart, re.compile(r"segments: FCR-adjusted 96\.67% intervals"))
    caption = page.get_by_text(re.compile(r"^Segment intervals are FCR-adjusted"))
    expect(caption.first).to_be_visible()
    with expect_rerun(page):
        page.get_by_text(TOGGLE_LABEL, exact=True).first.click()
    chart = forest_plot(page)
    expect_chart_text(chart, re.compile(r"mean difference; marginal 95% intervals"))
    assert not any("FCR-adjusted" in title for title in chart_titles(chart))
    expect(page.get_by_text(re.compile(r"^Segment intervals are marginal")).first).to_be_visible()
    assert_no_error(page)
