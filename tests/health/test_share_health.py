"""A share link keeps the health section: stored with the report, the same when recomputed."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ranklens.compare.analysis import CompareSettings, build_report, load_inputs
from ranklens.io import InputFile
from ranklens.share.links import compare_report, reopen, share, stored_report
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


def test_a_named_id_column_is_kept_by_the_link(data: Path, tmp_path: Path) -> None:
    """PyTerrier's integer docid named instead of docno: the settings carry the choice, so
    the link's recomputation reads the same column and gets the same numbers (0, not the
    0.7211 docno gives), and the report's parameters and read summary name it."""
    files = [InputFile.from_path("run_a", data / "pyterrier_bm25.csv"),
             InputFile.from_path("run_b", data / "pyterrier_neural.csv"),
             InputFile.from_path("qrels", data / "qrels.trec")]
    settings = CompareSettings(n_resamples=200, n_permutations=200, doc_column="docid")
    report = build_report(*files[:2], qrels=files[2], settings=settings)
    assert report.params["doc_column"] == "docid" and "query_column" not in report.params
    assert report.comparisons[0].overall.mean_a == 0.0
    store = SQLiteReportStore(tmp_path / "reports.sqlite3")
    shared = reopen(store, share(store, "compare", report.params, files, result=report))
    assert shared.settings["doc_column"] == "docid"
    again = compare_report(shared)
    assert again.per_query == report.per_query
    assert again.comparisons[0].overall.mean_a == 0.0
    assert again.inputs[0].summary["columns"]["doc_id"] == "docid"
    assert "document ids from column 'docid', as named" in again.inputs[0].summary["notes"]
    automatic = build_report(*files[:2], qrels=files[2],
                             settings=CompareSettings(n_resamples=200, n_permutations=200))
    assert round(automatic.comparisons[0].overall.mean_a, 4) == 0.7211  # what it would be
    assert "doc_column" not in automatic.params


def test_columns_and_settings_agree_or_are_refused(data: Path) -> None:
    """``columns=`` of the library lands in the report's settings; settings naming another
    column than the inputs were read by are refused (they would be another reading's)."""
    runs = (data / "pyterrier_bm25.csv", data / "pyterrier_neural.csv")
    fast = CompareSettings(n_resamples=200, n_permutations=200)
    inputs = load_inputs(*runs, qrels=data / "qrels.trec", columns={"doc_id": "docid"})
    assert inputs.report(fast).params["doc_column"] == "docid"
    with pytest.raises(ValueError, match="the runs were read by the columns the judgements"):
        load_inputs(*runs, qrels=data / "qrels.trec").report(
            dataclasses.replace(fast, doc_column="docid"))
    with pytest.raises(ValueError, match="doc_column must name a column"):
        CompareSettings(doc_column=" ")
