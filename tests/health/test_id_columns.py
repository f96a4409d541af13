"""Which id column: PyTerrier's docno over its integer docid, chosen by the qrels, said, and
overridable."""

from __future__ import annotations

from pathlib import Path

from ranklens.compare.analysis import build_report, load_inputs
from ranklens.data import Qrels
from ranklens.io.id_columns import choose_id_columns
from tests.health.conftest import FAST


def test_pyterrier_csv_reads_docno_and_scores_as_the_trec_run(data: Path) -> None:
    pyterrier = build_report(data / "pyterrier_bm25.csv", data / "pyterrier_neural.csv",
                             qrels=data / "qrels.trec", settings=FAST)
    trec = build_report(data / "bm25.trec", data / "neural.trec", qrels=data / "qrels.trec",
                        settings=FAST)
    assert pyterrier.per_query == trec.per_query  # the same numbers, query by query
    assert round(pyterrier.comparisons[0].overall.mean_a, 4) == 0.7211
    summary = pyterrier.inputs[0].summary
    assert summary["columns"]["doc_id"] == "docno"
    assert summary["columns"]["query_id"] == "qid"
    notes = " ".join(summary["notes"])
    assert "document ids from column 'docno', not 'docid'" in notes
    assert "'docid' 0%" in notes and "--doc-column" in notes
    assert "query ids from column 'qid'" in notes
    assert pyterrier.health is not None and pyterrier.health.status == "passed"


def test_the_user_names_the_column(data: Path) -> None:
    inputs = load_inputs(data / "pyterrier_bm25.csv", data / "pyterrier_neural.csv",
                         qrels=data / "qrels.trec", columns={"doc_id": "docid"})
    assert inputs.summaries["run_a"].columns["doc_id"] == "docid"
    report = build_report(data / "pyterrier_bm25.csv", data / "pyterrier_neural.csv",
                          qrels=data / "qrels.trec", columns={"doc_id": "docid"}, settings=FAST)
    assert report.comparisons[0].overall.mean_a == 0.0
    assert report.health is not None
    failed = [c for c in report.health.failed if c.key == "documents"]
    assert [c.subject for c in failed] == ["pyterrier_bm25", "pyterrier_neural"]
    assert "None of pyterrier_bm25's" in failed[0].message


def test_ties_keep_the_readers_first_pick() -> None:
    qrels = Qrels.from_columns(["q1"], ["d1"], [1])
    choice, = choose_id_columns({"doc_id": {"docid": ("x",), "docno": ("y",)}}, qrels)
    assert (choice.chosen, choice.changed) == ("docid", False)
    assert "no candidate column's values occur" in choice.note()
