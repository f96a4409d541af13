"""Share links in Chromium against `streamlit run app.py`: what AppTest cannot show.

AppTest runs a page file directly when it switches pages (not through ``app.py``), so moving
between pages with a shared report open, the absolute link and the HTML download are checked
here, in a real browser session. Marked ``browser``; needs Debian's Chromium.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from share_helpers import ROOT

pytestmark = pytest.mark.browser

IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
TIMEOUT_MS = 180_000
BANNER = "Shared report, read-only"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("share-app")
    port = _free_port()
    env = {**os.environ, "RANKLENS_STORE": str(folder / "reports.sqlite3")}
    with (folder / "streamlit.log").open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
             "--server.port", str(port), "--server.address", "127.0.0.1",
             "--server.headless", "true", "--browser.gatherUsageStats", "false"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                    if answer.read().strip() == b"ok":
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("streamlit did not start") from None
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


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


def settle(page: Page) -> None:
    """Wait until the run is drawn: idle, and the metric cards the same twice 0.5 s apart.

    The idle marker alone can be seen before a run starts, or while the page still draws
    what the run sent (a PPI page once showed 4 of its 8 cards at that point).
    """
    expect(page.get_by_test_id("stMetric").first).to_be_visible(timeout=TIMEOUT_MS)
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    previous: dict[str, str] | None = None
    while time.monotonic() < deadline:
        page.wait_for_selector(IDLE, timeout=TIMEOUT_MS)
        current = metric_cards(page)
        if current == previous:
            return
        previous = current
        page.wait_for_timeout(500)
    raise AssertionError("the page kept changing")


def metric_cards(page: Page) -> dict[str, str]:
    cards = {}
    for card in page.get_by_test_id("stMetric").all():
        label = card.get_by_test_id("stMetricLabel").inner_text().strip()
        cards[label] = card.get_by_test_id("stMetricValue").inner_text().strip()
    return cards


def share_link(page: Page) -> str:
    page.get_by_role("button", name="Share").click()
    code = page.get_by_test_id("stCode").filter(has_text="?report=")
    expect(code).to_be_visible(timeout=TIMEOUT_MS)
    return code.inner_text().strip()


def test_shared_report_stays_open_across_pages(fresh_page: Callable[[], Page],
                                               app_url: str) -> None:
    author = fresh_page()
    author.goto(app_url)
    settle(author)
    numbers = metric_cards(author)
    link = share_link(author)
    assert link.startswith(f"{app_url}/?report=")

    colleague = fresh_page()
    colleague.goto(link)
    settle(colleague)
    expect(colleague.get_by_text(BANNER)).to_be_visible()
    assert metric_cards(colleague) == numbers

    colleague.get_by_role("link", name="How many queries (MDE)").click()
    expect(colleague.get_by_text("A shared report is open")).to_be_visible(timeout=TIMEOUT_MS)
    settle(colleague)
    assert "report=" not in colleague.url  # switching pages drops the query; the session keeps it

    colleague.get_by_role("link", name="Back to the shared report").click()
    expect(colleague.get_by_text(BANNER)).to_be_visible(timeout=TIMEOUT_MS)
    settle(colleague)
    assert metric_cards(colleague) == numbers


def test_link_to_another_page_switches_to_the_shared_page(fresh_page: Callable[[], Page],
                                                         app_url: str) -> None:
    author = fresh_page()
    author.goto(f"{app_url}/ppi")
    settle(author)
    link = share_link(author)
    assert link.startswith(f"{app_url}/ppi?report=")
    colleague = fresh_page()
    colleague.goto(link.replace("/ppi?", "/mde?"))  # a link edited to point at another page
    expect(colleague.get_by_text(BANNER)).to_be_visible(timeout=TIMEOUT_MS)
    settle(colleague)
    assert "/ppi" in colleague.url and "report=" in colleague.url
    assert metric_cards(colleague) == metric_cards(author)


@pytest.mark.parametrize(("path", "figures", "words"), [
    ("", 1, "is better than"),  # Compare: one metric, one forest plot
    ("/mde", 2, "will often come out non-significant"),  # MDE curve and power curve
    ("/ppi", 2, "after correcting the proxy"),  # the four intervals and the gold budget
])
def test_html_download_opens_offline(browser: Browser, fresh_page: Callable[[], Page],
                                     app_url: str, tmp_path: Path, path: str, figures: int,
                                     words: str) -> None:
    page = fresh_page()
    page.goto(app_url + path)
    settle(page)
    with page.expect_download(timeout=TIMEOUT_MS) as download:
        page.get_by_role("button", name="Report (HTML)").click()
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
