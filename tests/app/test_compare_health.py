"""The Compare page's health checks (AppTest): passed ones collapsed, a failed one open with
what to do, the verdict withheld, the id column control."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from streamlit.testing.v1 import AppTest

from ranklens.app import markup
from tests.support.page_testing import run_page

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "health" / "data"


def _labelled(widgets, label: str):  # type: ignore[no-untyped-def]
    found = [w for w in widgets if w.label == label]
    assert len(found) == 1, f"{label!r}: {[w.label for w in widgets]}"
    return found[0]


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
    assert markup.text("the run writes `DOC028936`, the qrels `doc028936`") in errors[0]
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
