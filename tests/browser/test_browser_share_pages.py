"""Share links across pages in Chromium: what AppTest cannot show.

A shared report stays open while its reader visits another page and comes back; a link edited
to point at another page opens the page it was made on; each page's "Report (HTML)" download
opens offline. Every wait is on the app's state (`open_app` / `expect_rerun` count finished
runs; `expect_metric_values` waits for the cards themselves), never on time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.support.streamlit_page import (
    click_button,
    expect_metric_values,
    go_to_page,
    metric_values,
    open_app,
)

BANNER = "Shared report, read-only"


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


def share_link(page: Page) -> str:
    click_button(page, "Share")
    code = page.get_by_test_id("stCode").filter(has_text="?report=")
    expect(code).to_have_count(1)
    return code.inner_text().strip()


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
    expect(colleague.get_by_text(BANNER)).to_be_visible()
    expect_metric_values(colleague, numbers)

    go_to_page(colleague, "How many queries (MDE)")
    expect(colleague.get_by_text("A shared report is open")).to_be_visible()
    assert "report=" not in colleague.url  # switching pages drops the query; the session keeps it

    go_to_page(colleague, "Back to the shared report")
    expect(colleague.get_by_text(BANNER)).to_be_visible()
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
    expect(colleague.get_by_text(BANNER)).to_be_visible()
    expect(colleague).to_have_url(f"{app_url}/ppi?report={link.split('report=')[1]}")
    expect_metric_values(colleague, numbers)


@pytest.mark.parametrize(("path", "figures", "words"), [
    # Compare, the demo's three runs: the leaderboard and each candidate's forest plot
    ("", 3, "is better than"),
    ("/mde", 2, "will often come out non-significant"),  # MDE curve and power curve
    ("/ppi", 2, "after correcting the proxy"),  # the four intervals and the gold budget
])
def test_html_download_opens_offline(browser: Browser, fresh_page: Callable[[], Page],
                                     app_url: str, tmp_path: Path, path: str, figures: int,
                                     words: str) -> None:
    page = fresh_page()
    open_app(page, app_url + path)
    button = page.get_by_role("button", name="Report (HTML)")
    expect(button).to_have_count(1)
    with page.expect_download() as download:
        button.click()
    saved = tmp_path / "report.html"
    download.value.save_as(saved)

    context = browser.new_context(offline=True)
    offline = context.new_page()
    requested: list[str] = []
    offline.on("request", lambda request: requested.append(request.url))
    offline.goto(saved.as_uri())
    expect(offline.locator("figure svg")).to_have_count(figures)
    assert requested == [saved.as_uri()]
    assert words in offline.inner_text("body")
    context.close()
