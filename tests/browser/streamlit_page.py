"""Small helpers to drive a Streamlit page the way a person does, waiting on the app's state."""

from __future__ import annotations

from playwright.sync_api import Page, expect

IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def wait_idle(page: Page, timeout: float = 30_000) -> None:
    """Wait until Streamlit reports that the script is not running (a rerun has finished)."""
    page.wait_for_selector(IDLE, timeout=timeout)
    # a rerun may have been queued by the last interaction: wait for the state to settle again
    page.wait_for_selector(IDLE, timeout=timeout)


def open_app(page: Page, url: str) -> None:
    page.goto(url)
    wait_idle(page, timeout=60_000)


def assert_no_error(page: Page) -> None:
    """No exception or error element, and no Python traceback text, anywhere on the page."""
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    assert "Traceback (most recent call last)" not in page.inner_text("body")
