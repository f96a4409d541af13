"""The Compare page's "Where B differs most" (issue 48): off until asked; asked, it shows the
report section of the library (the search's account and the confirmed slices)."""

from __future__ import annotations

from pathlib import Path

from ranklens import demo
from tests.support.page_testing import run_page

ROOT = Path(__file__).resolve().parents[2]


def test_the_search_runs_when_asked_and_says_what_the_library_says():
    at = run_page(ROOT / "app.py")
    assert not at.exception
    toggle = next(t for t in at.toggle if t.label == "Search for slices")
    assert toggle.value is False
    shown = "\n".join(m.value for m in at.markdown)
    assert "Where B differs most" not in shown and "held-out queries" not in shown
    toggle.set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    page = "\n".join(m.value for m in at.markdown).replace("\\", "")  # markup escapes
    assert "candidate slices" in page and "held-out queries" in page
    assert "intent = navigational (a segment of the forest plot): B − A −0.1314" in page


def test_a_found_slice_lists_its_queries_for_the_drill_down():
    at = run_page(ROOT / "app.py")
    next(t for t in at.toggle if t.label == "Search for slices").set_value(True).run()
    picker = at.selectbox(key="discover_slice_pick")
    label = next(o for o in picker.options if o.startswith("intent = navigational"))
    picker.set_value(label).run()
    assert not at.exception, [e.value for e in at.exception]
    frame = next(d.value for d in at.dataframe
                 if list(d.value.columns) == ["query_id", "a", "b", "delta"])
    segments = demo.paths()["segments"].read_text(encoding="utf-8").splitlines()
    header = segments[0].split("\t")
    navigational = {row.split("\t")[0] for row in segments[1:]
                    if row.split("\t")[header.index("intent")] == "navigational"}
    assert set(frame["query_id"]) == navigational
    deltas = list(frame["delta"])
    assert deltas == sorted(deltas)  # biggest losses first
