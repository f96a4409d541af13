"""The Compare page's judgement coverage under streamlit.testing (AppTest): the banner before
the verdict (in the dense retriever's section of the three-run demo), the robustness view and
the treatment of unjudged documents, each equal to the library's on the same bytes; and the
PPI page's sentence on filling holes or correcting."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ranklens import demo
from ranklens.app import markup
from ranklens.compare import coverage_words
from ranklens.compare.analysis import CompareSettings, load_inputs
from ranklens.compare.report import Report
from ranklens.io import InputFile
from ranklens.ppi.views import FILL_OR_CORRECT
from tests.support.html_tables import html_tables
from tests.support.page_testing import run_page

ROOT = Path(__file__).resolve().parents[2]
PATHS = demo.paths()


def labelled(widgets, label: str):  # type: ignore[no-untyped-def]
    found = [w for w in widgets if w.label == label]
    assert len(found) == 1, f"{label!r}: {[w.label for w in widgets]}"
    return found[0]


def dense_report(**settings: object) -> Report:
    """The library's report on the demo files the page reads for the dense candidate."""
    def file(role: str, demo_role: str) -> InputFile:
        return InputFile(role, PATHS[demo_role].name, PATHS[demo_role].read_bytes())

    inputs = load_inputs(file("run_a", "run_a"), file("run_b", "run_dense"),
                         qrels=file("qrels", "qrels"), segments=file("segments", "segments"),
                         proxy_qrels=file("qrels_proxy", "qrels_proxy_full"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return inputs.report(CompareSettings(segment_column="intent",
                                             run_names=inputs.default_run_names,
                                             **settings))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def dense_page() -> AppTest:
    # the demo's second candidate: picked under the leaderboard, shown as a two-run report
    at = run_page(ROOT / "app.py")
    labelled(at.radio, "Look into").set_value(2).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def banners(at: AppTest) -> list[str]:
    return [w.value for w in at.warning if w.icon == ":material/rule:"]


def test_first_visit_pair_judged_alike_gets_a_note_not_a_banner() -> None:
    # the first candidate shown (the neural re-ranker) is judged like BM25: a note, no banner;
    # the leaderboard names the candidate whose verdict unjudged documents could change
    at = run_page(ROOT / "app.py")
    assert not at.exception, [e.value for e in at.exception]
    assert not banners(at)
    flagged = f"Unjudged documents could change the verdict of {markup.text('dense_retriever')}"
    assert any(flagged in c.value for c in at.caption), [c.value for c in at.caption]
    notes = [c.value for c in at.caption if "judged alike" in c.value]
    assert len(notes) == 1 and "gap 2.1 points, under 3" in notes[0], notes


def test_banner_before_the_verdict_says_the_librarys_words(dense_page: AppTest) -> None:
    report = dense_report()
    coverage = report.coverage.metric("nDCG@10")
    text = coverage_words.banner(coverage, report.comparison("nDCG@10").overall,
                                 report.run_names)
    assert text is not None
    shown = banners(dense_page)
    assert len(shown) == 1 and markup.text(text) in shown[0]  # shown as text, escaped
    # each candidate's robustness view has its own anchor (run C's here)
    assert f"(#{coverage_words.robustness_anchor('nDCG@10', ':c')})" in shown[0]
    line = coverage_words.coverage_line(coverage, report.run_names)
    assert any(markup.text(line) in c.value for c in dense_page.caption)


def test_robustness_view_rows_are_the_librarys(dense_page: AppTest) -> None:
    report = dense_report()
    rows = coverage_words.treatment_rows(report.coverage, "nDCG@10", report.run_names)
    assert coverage_words.ROBUSTNESS_TITLE in [s.value for s in dense_page.subheader]
    table = next(t for t in html_tables(dense_page) if "Unjudged documents" in t)
    assert table["Unjudged documents"].tolist() == [r["treatment"] for r in rows]
    assert table["B \u2212 A"].tolist() == [r["delta"] for r in rows]
    assert table["Interval"].tolist() == [r["interval"] for r in rows]
    assert table["Reads"].tolist() == [r["reads"] for r in rows]


def test_choosing_judged_only_lists_rescores_the_verdict(dense_page: AppTest) -> None:
    labelled(dense_page.radio, "Unjudged documents").set_value("judged-only").run()
    assert not dense_page.exception
    report = dense_report(unjudged="judged-only")
    result = report.comparison("nDCG@10").overall
    shown = {m.label: m.value for m in dense_page.metric}
    assert shown[f"{report.run_names[1]} (B)"] == f"{result.mean_b:.4f}"
    assert not banners(dense_page)  # condensed lists hold no unjudged document
    labelled(dense_page.radio, "Unjudged documents").set_value("nonrelevant").run()


def test_ppi_page_says_when_to_fill_holes_and_when_to_correct() -> None:
    at = run_page(ROOT / "pages" / "ppi.py")
    assert any(FILL_OR_CORRECT in c.value for c in at.caption)
