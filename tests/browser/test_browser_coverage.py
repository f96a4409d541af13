"""The coverage guardrail in Chromium: the banner sits before the verdict, follows the
candidate, and its link scrolls to the robustness view; the candidate that loses shows its
loss as a loss (a red arrow down), checked on the same pick: one load of the demo, not two."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from ranklens.compare.coverage_words import BANNER_TITLE, ROBUSTNESS_TITLE
from tests.support.streamlit_page import assert_no_error, choose_radio, open_app


def test_dense_demo_shows_the_banner_a_red_arrow_down_and_links_to_the_robustness_view(
        page: Page, app_url: str) -> None:
    open_app(page, app_url)
    alert = page.get_by_test_id("stAlertContainer").filter(has_text=BANNER_TITLE)
    # the first-visit pair differs by 2.1 points, under MIN_GAP: a note, no banner
    expect(page.get_by_text("Both runs are judged alike (gap 2.1 points, under 3)").first
           ).to_be_visible()
    expect(alert).to_have_count(0)
    choose_radio(page, "Look into", "dense_retriever")  # the demo's candidate that loses
    assert_no_error(page)
    _a_loss_shows_a_red_arrow_down(page)
    expect(alert).to_have_count(1)
    expect(alert).to_contain_text("dense_retriever's top 10 is 54% judged, bm25_baseline's 71%")
    verdict = page.get_by_text("bm25_baseline is better than dense_retriever on nDCG@10.")
    assert alert.bounding_box()["y"] < verdict.bounding_box()["y"]  # before the result
    alert.get_by_role("link", name="Go to the robustness view").click()
    heading = page.get_by_role("heading", name=ROBUSTNESS_TITLE)
    expect(heading).to_be_in_viewport()
    table = page.locator(".rl-table").filter(has_text="Judged-only (-J)")  # a plain table
    expect(table).to_be_visible()


def _a_loss_shows_a_red_arrow_down(page: Page) -> None:
    tile = page.get_by_test_id("stMetric").filter(
        has=page.get_by_test_id("stMetricLabel").get_by_text("dense_retriever (B)"))
    expect(tile).to_have_count(1)
    delta = tile.get_by_test_id("stMetricDelta")
    expect(delta).to_contain_text("\u22120.0895")
    expect(delta.get_by_test_id("stMetricDeltaIcon-Down")).to_have_count(1)
    expect(delta.get_by_test_id("stMetricDeltaIcon-Up")).to_have_count(0)
    red, green, _ = (int(part) for part in delta.evaluate(
        "e => getComputedStyle(e).color").removeprefix("rgb(").rstrip(")").split(",")[:3])
    assert red > 150 and green < 100, (red, green)
