"""The Compare page's health checks (AppTest): passed ones collapsed, a failed one open with
what to do, the verdict withheld, the id column control."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ranklens.app import markup
from ranklens.health.check_words import NO_VERDICT, ROBUSTNESS_WITHHELD, SEGMENTS_WITHHELD
from ranklens.store import STORE_PATH_ENV
from tests.health.test_no_verdict_faces import unmatched_files
from tests.support.html_tables import html_tables
from tests.support.page_testing import metric_cards, run_page
from tests.support.share_helpers import app, run_clean, shown_link, shown_numbers, token_of

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "health" / "data"


def _labelled(widgets, label: str):  # type: ignore[no-untyped-def]
    found = [w for w in widgets if w.label == label]
    assert len(found) == 1, f"{label!r}: {[w.label for w in widgets]}"
    return found[0]


def _report_numbers(at: AppTest) -> dict[str, object]:
    """The cards and tables of the report (not the rankings and contributions of the query
    picked: the author's session keeps the pick it made before naming the column)."""
    shown = shown_numbers(at)
    tables = {k: v for k, v in shown["tables"].items() if '"rank"' not in v}
    return {"metrics": shown["metrics"], "tables": tables}


def _upload(files: Mapping[str, str]) -> AppTest:
    at = run_page(ROOT / "app.py")
    _labelled(at.radio, "Data").set_value("My files").run()
    for role, name in files.items():
        at.file_uploader(key=f"upload_{role}").upload(name, (DATA / name).read_bytes())
    _labelled(at.button, "Compare").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_demo_passes_and_the_checks_are_collapsed() -> None:
    at = run_page(ROOT / "app.py")
    labels = [e.label for e in at.expander]
    assert "Health checks: all 11 passed" in labels
    assert not [e.value for e in at.error]
    assert _labelled(at.checkbox, "Drop self-retrieved documents").value is False


def test_a_failed_check_is_open_and_the_verdict_withheld() -> None:
    at = _upload({"run_a": "bm25.trec", "run_b": "neural_upper.trec", "qrels": "qrels.trec"})
    errors = [e.value for e in at.error]
    assert len(errors) == 1
    title = markup.text("Documents that match the judgements (neural_upper)")
    assert errors[0].startswith(f"**{title}**")
    assert "**What to do:**" in errors[0]
    assert markup.text("the run writes 'DOC028936', the qrels 'doc028936'") in errors[0]
    assert "7 passed" in [e.label for e in at.expander]
    assert "No verdict" in [s.value for s in at.subheader]
    assert "No reliable difference" not in [s.value for s in at.subheader]


def test_the_id_column_control_overrides_the_choice() -> None:
    at = _upload({"run_a": "pyterrier_bm25.csv", "run_b": "pyterrier_neural.csv",
                  "qrels": "qrels.trec"})
    assert not [e.value for e in at.error]
    assert "Health checks: all 8 passed" in [e.label for e in at.expander]
    _labelled(at.text_input, "Document id column").set_value("docid").run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value for e in at.error]
    # both runs (none of their docid values is in the judgements), and so the collection
    assert len(errors) == 3
    assert [e.split("**")[1] for e in errors] == [
        markup.text(f"Documents that match the judgements ({name})")
        for name in ("pyterrier_bm25", "pyterrier_neural")] + ["Judgements of this collection"]


def test_a_shared_link_keeps_the_id_column(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """docid named on the page: the link stores it and a colleague's session, recomputing
    from the link, reads docid too (the same numbers, the column named)."""
    monkeypatch.setenv(STORE_PATH_ENV, str(tmp_path / "reports.sqlite3"))
    at = _upload({"run_a": "pyterrier_bm25.csv", "run_b": "pyterrier_neural.csv",
                  "qrels": "qrels.trec"})
    _labelled(at.text_input, "Document id column").set_value("docid").run()
    at.button(key="share:compare").click()
    run_clean(at)
    token = token_of(shown_link(at))
    reopened = run_clean(app(report=token))
    assert _report_numbers(reopened) == _report_numbers(at)
    assert metric_cards(reopened)["pyterrier_bm25 (A)"] == "0.0000"
    settings = [c.value for c in reopened.code if '"doc_column"' in c.value]
    assert len(settings) == 1 and '"doc_column": "docid"' in settings[0]
    reopened.toggle[0].set_value(True)
    run_clean(reopened)
    said = "\n".join(m.value for m in reopened.markdown)
    assert "every number is the same as the ones" in said
    assert metric_cards(reopened)["pyterrier_bm25 (A)"] == "0.0000"
    assert markup.text("document ids from column 'docid', as named") in said


def test_no_verdict_shows_no_segment_finding_or_robustness_reading(tmp_path: Path) -> None:
    """The PyTerrier-style candidate whose ids match nothing: the segment table's Finding
    column and the robustness view's Reads say "no verdict", the sentences say why, and no
    "better"/"worse" reading is left on the page (the numbers stay)."""
    files = unmatched_files(tmp_path)
    at = run_page(ROOT / "app.py")
    _labelled(at.radio, "Data").set_value("My files").run()
    for role, path in files.items():
        at.file_uploader(key=f"upload_{role}").upload(path.name, path.read_bytes())
    _labelled(at.button, "Compare").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "No verdict" in [s.value for s in at.subheader]
    segments = next(d.value for d in at.dataframe if "finding_short" in d.value)
    assert list(segments["finding_short"]) == [NO_VERDICT] * 4
    assert round(float(segments["delta"].iloc[0]), 4) == -0.7211
    robustness = next(t for t in html_tables(at) if "Reads" in t)  # a plain table
    assert list(robustness["Reads"]) == [NO_VERDICT] * 2
    said = [m.value for m in at.markdown]
    assert SEGMENTS_WITHHELD in said  # words of the library, written as Markdown
    assert markup.text(ROBUSTNESS_WITHHELD) in said
    words = "\n".join([*said, *(c.value for c in at.caption)])
    for reading in ("better on", "worse on", "differ at q", "does not hang",
                    "not enough to change"):
        assert reading not in words, reading
