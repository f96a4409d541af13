"""The health checks in Chromium: a run whose ids are upper-cased gets its failed check open
above the verdict, with what to do, and no verdict; the passed checks stay collapsed."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from ranklens.health.check_words import ROBUSTNESS_WITHHELD, SEGMENTS_WITHHELD
from tests.browser.conftest import ARTIFACTS
from tests.health.test_no_verdict_faces import unmatched_files
from tests.support.compare_page import upload_inputs
from tests.support.streamlit_page import full_page_screenshot, open_app

DATA = Path(__file__).resolve().parents[1] / "health" / "data"


def test_failed_check_open_before_the_withheld_verdict(page: Page, app_url: str) -> None:
    open_app(page, app_url)
    upload_inputs(page, {"run_a": DATA / "bm25.trec", "run_b": DATA / "neural_upper.trec",
                         "qrels": DATA / "qrels.trec"})
    failed = page.get_by_test_id("stAlertContentError").filter(
        has_text="Documents that match the judgements (neural_upper)")
    expect(failed).to_have_count(1)
    expect(failed).to_contain_text("the run writes 'DOC028936', the qrels 'doc028936'")
    expect(failed).not_to_contain_text("`")  # no Markdown code marks shown as text
    expect(failed).to_contain_text("What to do:")
    verdict = page.get_by_test_id("stHeading").filter(has_text="No verdict")
    expect(verdict).to_have_count(1)
    # the check comes first, the verdict after it
    assert failed.bounding_box()["y"] < verdict.bounding_box()["y"]  # type: ignore[index]
    passed = page.get_by_test_id("stExpander").filter(has_text="7 passed")
    expect(passed).to_have_count(1)
    expect(passed.get_by_text("Self-retrieval (bm25)")).not_to_be_visible()  # collapsed
    full_page_screenshot(page, ARTIFACTS / "health_failed_check.png")


def test_no_verdict_leaves_no_finding_in_the_segments(page: Page, app_url: str,
                                                      tmp_path: Path) -> None:
    """The PyTerrier-style candidate whose ids match nothing, with segments: the failed check
    open first, then "No verdict", and under "Where" the sentence that says why no segment is
    read (not "3 of 3 segments differ"); the robustness view says why it has no reading."""
    open_app(page, app_url)
    upload_inputs(page, unmatched_files(tmp_path))
    failed = page.get_by_test_id("stAlertContentError").filter(
        has_text="Documents that match the judgements (neural_docid)")
    expect(failed).to_have_count(1)
    expect(failed).to_contain_text("What to do:")
    verdict = page.get_by_test_id("stHeading").filter(has_text="No verdict")
    expect(verdict).to_have_count(1)
    why = page.get_by_text(SEGMENTS_WITHHELD)
    expect(why).to_be_visible()
    expect(page.get_by_text(ROBUSTNESS_WITHHELD)).to_have_count(1)
    expect(page.get_by_text("segments differ at q")).to_have_count(0)
    boxes = [locator.bounding_box() for locator in (failed, verdict, why)]
    assert [box["y"] for box in boxes] == sorted(box["y"] for box in boxes)  # type: ignore[index]
    full_page_screenshot(page, ARTIFACTS / "health_no_verdict_segments.png")
