"""The demo's Compare report prepared ahead (``ranklens.app.prepared``) is the one the page
computes today, and the page uses it on the demo's first view (issue 51: the first verdict
without computing)."""

from __future__ import annotations

from ranklens.app import prepared
from ranklens.demo import data_dir
from tests.support.prepared_demo import computed


def test_the_shipped_report_is_what_the_page_computes_today() -> None:
    key, report = computed()
    stored = prepared._stored()
    assert stored is not None, "no prepared report: python -m tests.support.prepared_demo --write"
    message = ("the prepared demo report is stale (numbers, defaults or version changed): "
               "python -m tests.support.prepared_demo --write")
    assert stored["key"] == key, message
    shipped = (data_dir() / prepared.PREPARED_FILE).read_text(encoding="utf-8")
    assert shipped == prepared.prepared_text(key, report), message
    assert prepared.prepared_report(key) == report


def test_another_key_or_version_gets_none(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    stored = prepared._stored()
    assert stored is not None
    assert prepared.prepared_report(stored["key"] + " ") is None
    monkeypatch.setattr(prepared, "installed_version", lambda: "0.0.0+other")
    assert prepared.prepared_report(stored["key"]) is None


def test_the_first_view_of_the_demo_computes_no_report(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from streamlit.testing.v1 import AppTest

    from ranklens.app import state
    from tests.support.prepared_demo import ROOT

    def computing(*_: object) -> None:
        raise AssertionError("the demo's first view computed its report")

    monkeypatch.setattr(state, "once", lambda key, compute: compute())  # no cache to hide in
    monkeypatch.setattr(state, "compute_report", computing)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("neural_reranker is better than bm25_baseline" in m.value for m in at.markdown)
