"""A downloaded report as a reader without a network opens it."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect


def assert_opens_offline(browser: Browser, saved: Path, *, figures: int, words: str) -> None:
    """``saved`` (a downloaded report) shows ``figures`` charts and ``words`` in a browser
    context without a network, and asks for nothing but itself."""
    context = browser.new_context(offline=True)
    offline = context.new_page()
    requested: list[str] = []
    offline.on("request", lambda request: requested.append(request.url))
    offline.goto(saved.as_uri())
    expect(offline.locator("figure svg")).to_have_count(figures)
    assert requested == [saved.as_uri()]
    assert words in offline.inner_text("body")
    context.close()
