"""Two app replicas on one PostgreSQL store: a link made on one opens on the other.

Two ``streamlit run`` servers on different ports share nothing but ``RANKLENS_STORE``, a
database on the session's PostgreSQL server, as replicas behind a load balancer would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.support.app_server import start_app, stop_app
from tests.support.compare_page import upload_inputs
from tests.support.share_page import (
    SHARED_BANNER,
    expect_same_report,
    share_link,
    what_the_report_says,
)
from tests.support.streamlit_page import assert_no_error, open_app


@pytest.fixture
def replicas(postgres_server: Any, tmp_path: Path) -> Iterator[tuple[str, str]]:
    url = postgres_server.new_database()
    first, first_process = start_app(url, tmp_path / "first.log")
    try:
        second, second_process = start_app(url, tmp_path / "second.log")
    except Exception:
        stop_app(first_process)
        raise
    try:
        yield first, second
    finally:
        stop_app(first_process)
        stop_app(second_process)
        postgres_server.give_back(url)


def test_link_made_on_one_replica_opens_on_the_other(
        page: Page, replicas: tuple[str, str], small_inputs: dict[str, Path],
        new_context: Callable[..., BrowserContext]) -> None:
    first, second = replicas
    assert first != second
    open_app(page, first)
    upload_inputs(page, small_inputs)
    shown = what_the_report_says(page)
    link = share_link(page)
    assert link.startswith(first)

    viewer = new_context().new_page()
    open_app(viewer, link.replace(first, second))  # the load balancer sent it elsewhere
    expect(viewer.get_by_text(SHARED_BANNER)).to_be_visible()
    expect_same_report(viewer, shown)
    assert_no_error(viewer)
