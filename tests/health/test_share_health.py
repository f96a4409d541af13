"""A share link keeps the health section: stored with the report, the same when recomputed."""

from __future__ import annotations

from pathlib import Path

from ranklens.compare.analysis import CompareSettings, build_report
from ranklens.io import InputFile
from ranklens.share import compare_report, reopen, share, stored_report
from ranklens.store import SQLiteReportStore


def test_link_stores_and_recomputes_the_health(data: Path, tmp_path: Path) -> None:
    files = [InputFile.from_path("run_a", data / "bm25.trec"),
             InputFile.from_path("run_b", data / "neural_upper.trec"),
             InputFile.from_path("qrels", data / "qrels.trec")]
    settings = CompareSettings(n_resamples=200, n_permutations=200,
                               run_names=("bm25", "neural_upper"))
    report = build_report(*files[:2], qrels=files[2], settings=settings)
    store = SQLiteReportStore(tmp_path / "reports.sqlite3")
    shared = reopen(store, share(store, "compare", settings, files, result=report))
    stored = stored_report(shared)
    assert stored is not None and stored.health == report.health
    assert stored.health is not None and stored.health.status == "failed"
    assert compare_report(shared).health == report.health
