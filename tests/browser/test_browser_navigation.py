"""Navigation in Chromium: a page's own URL (typed or bookmarked) opens it inside the app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.support.app_server import start_app, stop_app
from tests.support.streamlit_page import open_app

NAVIGATION = ("Compare runs", "How many queries (MDE)", "Cheap labels (PPI++)", "Leaderboard")
PAGES = [("compare", "Compare runs"), ("mde", "Minimum detectable effect"),
         ("ppi", "Cheap labels, corrected on gold"),
         ("leaderboard", "Leaderboard: which differences are real")]


@pytest.fixture
def fresh_app_url(tmp_path: Path) -> Iterator[str]:
    """A server of its own that no session has visited yet (as after a restart)."""
    url, process = start_app(tmp_path / "reports.sqlite3", tmp_path / "streamlit.log")
    yield url
    stop_app(process)


@pytest.mark.parametrize(("path", "title"), PAGES)
def test_a_page_url_opens_that_page_inside_the_app(page: Page, fresh_app_url: str, path: str,
                                                  title: str) -> None:
    # The first visit after a server start is the hard case: with a folder named pages/ beside
    # app.py, Streamlit used to run pages/<page>.py alone then (v1 list of pages in the
    # sidebar, no app navigation), and /compare opened a "Page not found" modal. Every later
    # visit to /mde, /ppi or a share link is what the other browser tests open (`open_app`
    # checks each load for that modal).
    open_app(page, f"{fresh_app_url}/{path}")  # returns once the run is drawn: count at once
    expect(page.get_by_role("heading", level=1)).to_contain_text(title)
    for entry in NAVIGATION:  # the app's own navigation
        assert page.get_by_role("link", name=entry, exact=True).count() == 1, entry
    assert page.get_by_test_id("stSidebarNav").count() == 0  # not the v1 list of pages/
    assert page.get_by_text("Page not found").count() == 0
    assert page.get_by_role("dialog").count() == 0
    # Compare, the default page, lives at the app's root: /compare forwards there
    expect(page).to_have_url(f"{fresh_app_url}/" if path == "compare"
                             else f"{fresh_app_url}/{path}")
