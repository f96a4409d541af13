"""The MDE and PPI pages as a user meets them in Chromium: exports that open offline and whose
headline cards never overlap, file names shown as typed, and the Methods page they link to
(a loss drawn as a loss: test_browser_coverage, on the same pick of the demo).

Every wait is on a state: Streamlit's finished runs (``streamlit_page``), a download event, an
element being attached; never on time.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from ranklens import demo
from tests.support.offline_report import assert_opens_offline
from tests.support.streamlit_page import (
    ERROR_ELEMENTS,
    assert_no_error,
    choose_radio,
    open_app,
    upload_file,
)

WIDTHS = (1200, 1440, 1920)
HOSTILE = "click me **bold** $x^2$.trec"

# Every card's box, and the box of what it holds: a card must not intersect another, and its
# value (nowrap) must end inside its own card.
_CARD_BOXES = """() => [...document.querySelectorAll('.cards')].map(group =>
  [...group.querySelectorAll(':scope > .card')].map(card => {
    const box = card.getBoundingClientRect();
    const value = card.querySelector('.value');
    const range = document.createRange();
    range.selectNodeContents(value);
    const text = range.getBoundingClientRect();
    return {label: card.querySelector('.label').innerText, left: box.left, right: box.right,
            top: box.top, bottom: box.bottom, textLeft: text.left, textRight: text.right};
  }))"""


def download_export(page: Page, url: str, folder: Path) -> Path:
    """Open the page at ``url``, click "Report (HTML)" and keep the file it downloads."""
    open_app(page, url)
    button = page.get_by_test_id("stDownloadButton").get_by_role("button",
                                                                  name="Report (HTML)")
    expect(button).to_be_enabled()
    with page.expect_download() as info:
        button.click()
    target = folder / info.value.suggested_filename
    info.value.save_as(target)
    return target


def assert_cards_apart(page: Page, document: Path) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(document.as_uri())
        expect(page.locator(".cards .card").first).to_be_visible()
        groups = page.evaluate(_CARD_BOXES)
        assert groups and all(groups)
        for cards in groups:
            for card in cards:
                assert card["textLeft"] >= card["left"] - 0.5, (width, card)
                assert card["textRight"] <= card["right"] + 0.5, (width, card)  # fits its card
            for i, one in enumerate(cards):
                for other in cards[i + 1:]:
                    apart = (one["right"] <= other["left"] or other["right"] <= one["left"]
                             or one["bottom"] <= other["top"] or other["bottom"] <= one["top"])
                    assert apart, (width, one, other)


# Compare's export opens offline in test_browser_candidates (its renamed-run export)
@pytest.mark.parametrize(("path", "name", "figures", "words"), [
    ("/mde", "ranklens-mde.html", 2, "will often come out non-significant"),  # MDE and power
    ("/ppi", "ranklens-ppi.html", 2, "after correcting the proxy"),  # intervals, gold budget
])
def test_exported_report_opens_offline_and_its_cards_never_overlap(
        page: Page, browser: Browser, app_url: str, tmp_path: Path, path: str, name: str,
        figures: int, words: str) -> None:
    document = download_export(page, app_url + path, tmp_path)
    assert document.name == name
    assert_opens_offline(browser, document, figures=figures, words=words)
    assert_cards_apart(page, document)


def test_a_file_name_with_markdown_is_shown_as_typed(page: Page, app_url: str,
                                                     tmp_path: Path) -> None:
    bad = tmp_path / HOSTILE
    bad.write_text("q0000 Q0 d1 1 notanumber tag\n")
    open_app(page, f"{app_url}/mde")
    choose_radio(page, "Spread from", "My pilot runs")
    upload_file(page, "Pilot run A", demo.paths()["run_a"])
    upload_file(page, "Judgements (qrels)", demo.paths()["qrels"])
    upload_file(page, "Pilot run B", bad)
    error = page.locator(ERROR_ELEMENTS)
    expect(error).to_have_count(1)
    expect(error).to_contain_text(f"{HOSTILE}, line 1")  # the characters, not bold or math
    expect(error.locator("strong", has_text="bold")).to_have_count(0)
    expect(error.locator(".katex")).to_have_count(0)


def test_the_methods_page_shows_the_formulas_and_is_linked(page: Page, app_url: str) -> None:
    open_app(page, f"{app_url}/mde")
    link = page.get_by_role("link", name="Methods page").first
    expect(link).to_have_attribute("href", "/methods#mde")
    open_app(page, f"{app_url}/methods#mde")
    expect(page.get_by_role("heading", level=1)).to_have_text("Methods")
    for heading in ("How many queries: the MDE", "Cheap labels: PPI++", "Assumptions",
                    "Where ranklens differs from a reference"):
        expect(page.get_by_role("heading", name=heading)).to_have_count(1)
    expect(page.locator(".katex").first).to_be_attached()  # LaTeX typeset, not raw dollars
    assert "$$" not in page.inner_text("body")
    assert_no_error(page)
