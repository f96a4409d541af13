"""End-to-end harness: the real app under `streamlit run`, driven by Debian's Chromium.

A browser download is not possible on this machine, so Playwright launches
``/usr/bin/chromium`` (override with ``RANKLENS_CHROMIUM``). One app server serves the whole
session (file watcher off: others may edit the tree meanwhile). Tests wait on Streamlit's own
state (its "script finished" messages and "notRunning" attribute, see ``streamlit_page``),
never on sleeps. On failure every open page's screenshot and text are saved under
``artifacts/browser/``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.app_server import ROOT, start_app, stop_app
from tests.support.browser_reference import demo_subset
from tests.support.streamlit_page import CHROMIUM_ARGS, full_page_screenshot

ARTIFACTS = ROOT / "artifacts" / "browser"
CHROMIUM = os.environ.get("RANKLENS_CHROMIUM", "/usr/bin/chromium")
# The machine may be busy (benchmarks, other suites): give each wait room before it fails.
WAIT_MS = 30_000
expect.set_options(timeout=WAIT_MS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.path):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.fail(f"Chromium not found at {CHROMIUM}: install Debian's chromium "
                    "(make test does it when run as root)")
    folder = tmp_path_factory.mktemp("app")
    url, process = start_app(folder / "reports.sqlite3", folder / "streamlit.log")
    yield url
    stop_app(process)


@pytest.fixture(scope="session")
def small_inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The demo cut to its first 60 queries, as files to upload (role -> path)."""
    return demo_subset(tmp_path_factory.mktemp("small"), n_queries=60)


@pytest.fixture(autouse=True)
def _patient_page(page: Page) -> None:
    """Playwright actions (click, fill, wait_for_selector) wait up to WAIT_MS, as expect does."""
    page.set_default_timeout(WAIT_MS)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": CHROMIUM_ARGS,  # raster and composite on the CPU (see streamlit_page)
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    return {**browser_context_args, "viewport": {"width": 1400, "height": 1000}}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item,
                              call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """On a failed test, save a screenshot and the text of every open page to ARTIFACTS."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    page = getattr(item, "funcargs", {}).get("page")
    if page is None:
        return
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    stem = item.name.replace("/", "_")
    for index, shown in enumerate(_open_pages(page)):
        name = stem if index == 0 else f"{stem}-{index}"
        try:
            full_page_screenshot(shown, ARTIFACTS / f"{name}.png")
            (ARTIFACTS / f"{name}.txt").write_text(f"{shown.url}\n\n{shown.inner_text('body')}")
        except Exception as error:  # the page may be gone; the failure itself is what matters
            (ARTIFACTS / f"{name}.txt").write_text(f"could not capture the page: {error}")


def _open_pages(page: Page) -> list[Page]:
    """The test's page first, then every other page open in the same browser (new contexts)."""
    browser = page.context.browser
    others = [p for context in (browser.contexts if browser else ())
              for p in context.pages if p is not page]
    return [page, *others]
