"""Share links across pages in Chromium: what AppTest cannot show.

A shared report stays open while its reader visits another page and comes back; a link edited
to point at another page opens the page it was made on (each page's "Report (HTML)" download
opening offline is checked with the exports: test_browser_exports_and_words for MDE and PPI,
test_browser_candidates for Compare). Every wait is on the app's state (`open_app` /
`expect_rerun` count finished runs; `expect_metric_values` waits for the cards themselves),
never on time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.support.share_page import SHARED_BANNER, share_link
from tests.support.streamlit_page import (
    expect_metric_values,
    go_to_page,
    metric_values,
    open_app,
)


@pytest.fixture
def fresh_page(browser: Browser) -> Iterator[Callable[[], Page]]:
    """Pages in new browser contexts: each a new Streamlit session, as a colleague would have."""
    contexts: list[BrowserContext] = []

    def make() -> Page:
        context = browser.new_context(viewport={"width": 1400, "height": 1000},
                                      accept_downloads=True)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def cards_when_drawn(page: Page, count: int) -> dict[str, str]:
    """The page's metric cards, read once ``count`` of them are on the page with values."""
    tiles = page.get_by_test_id("stMetric")
    expect(tiles).to_have_count(count)
    for value in tiles.get_by_test_id("stMetricValue").all():
        expect(value).not_to_be_empty()
    return metric_values(page)


def first_cards(page: Page) -> dict[str, str]:
    """The demo Compare page's headline cards: five overall, three per-query, one RBO."""
    return cards_when_drawn(page, 9)


def test_shared_report_stays_open_across_pages(fresh_page: Callable[[], Page],
                                               app_url: str) -> None:
    author = fresh_page()
    open_app(author, app_url)
    numbers = first_cards(author)
    link = share_link(author)
    assert link.startswith(f"{app_url}/?report=")

    colleague = fresh_page()
    open_app(colleague, link)
    expect(colleague.get_by_text(SHARED_BANNER)).to_be_visible()
    expect_metric_values(colleague, numbers)

    go_to_page(colleague, "How many queries (MDE)")
    expect(colleague.get_by_text("A shared report is open")).to_be_visible()
    assert "report=" not in colleague.url  # switching pages drops the query; the session keeps it

    go_to_page(colleague, "Back to the shared report")
    expect(colleague.get_by_text(SHARED_BANNER)).to_be_visible()
    expect_metric_values(colleague, numbers)


def test_link_to_another_page_switches_to_the_shared_page(fresh_page: Callable[[], Page],
                                                         app_url: str) -> None:
    author = fresh_page()
    open_app(author, f"{app_url}/ppi")
    expect(author.get_by_test_id("stMetric").first).to_be_visible()
    link = share_link(author)
    assert link.startswith(f"{app_url}/ppi?report=")
    numbers = metric_values(author)
    colleague = fresh_page()
    open_app(colleague, link.replace("/ppi?", "/mde?"))  # a link edited to point at another page
    expect(colleague.get_by_text(SHARED_BANNER)).to_be_visible()
    expect(colleague).to_have_url(f"{app_url}/ppi?report={link.split('report=')[1]}")
    expect_metric_values(colleague, numbers)

