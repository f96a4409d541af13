"""Navigation in Chromium: a page's own URL (a bookmark) opens it inside the app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from app_server import start_app, stop_app
from playwright.sync_api import Page, expect
from streamlit_page import open_app

MDE_PAGE = "How many queries (MDE)"


@pytest.fixture
def fresh_app_url(tmp_path: Path) -> Iterator[str]:
    """A server of its own that no session has visited yet (as after a restart)."""
    url, process = start_app(tmp_path / "reports.sqlite3", tmp_path / "streamlit.log")
    yield url
    stop_app(process)


@pytest.mark.xfail(strict=True, reason=(
    "issue 7: when the first visit after a server start is /mde (a bookmark), Streamlit runs "
    "pages/mde.py as a v1 'pages/' page: the sidebar lists app/compare/mde/ppi, no top "
    "navigation, no wide layout, no shared sidebar (every session, until one opens /). Seen "
    "13:25 UTC; remove this mark once app.py's pages live outside a folder named pages/"))
def test_bookmarked_page_opens_inside_the_app(page: Page, fresh_app_url: str) -> None:
    open_app(page, f"{fresh_app_url}/mde")  # returns once the run is drawn: count at once
    expect(page.get_by_role("heading", level=1)).to_contain_text("Minimum detectable effect")
    assert page.get_by_role("link", name=MDE_PAGE).count() == 1  # the app's navigation
    assert page.get_by_test_id("stSidebarNav").count() == 0  # not the v1 list of pages/
