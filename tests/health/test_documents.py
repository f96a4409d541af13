"""Documents that match nothing: failed below 1% judged, the fold that would match said."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranklens.compare.analysis import build_report
from ranklens.compare.text import render_text
from ranklens.data import Qrels, Run
from ranklens.health.documents import document_facts, find_fold
from ranklens.health.result import HealthReport
from tests.health.conftest import FAST


def _check(health: HealthReport | None, key: str, subject: str):  # type: ignore[no-untyped-def]
    assert health is not None
    return next(c for c in health.checks if c.key == key and c.subject == subject)


def test_upper_case_ids_fail_and_the_fold_is_named(data: Path) -> None:
    report = build_report(data / "bm25.trec", data / "neural_upper.trec",
                          qrels=data / "qrels.trec", settings=FAST)
    check = _check(report.health, "documents", "neural_upper")
    assert check.status == "failed"
    assert check.numbers["judged_share"] == 0.0
    assert check.numbers["documents_in_qrels"] == 0
    assert check.numbers["documents_checked"] == 597
    assert "after folding case" in check.message
    assert "the run writes 'DOC028936', the qrels 'doc028936'" in check.message
    # folding is tried on the run's rows of 100 shared queries (here all 600 rows): 421 of
    # them are judged documents once lower-cased (the rest are unjudged)
    assert check.numbers["fold_share"] == pytest.approx(421 / 600)
    assert report.health is not None and report.health.status == "failed"
    assert "No verdict" in report.health.withheld
    assert "neural_upper" in report.health.withheld


def test_matching_run_passes_with_its_judged_share(data: Path) -> None:
    report = build_report(data / "bm25.trec", data / "neural.trec", qrels=data / "qrels.trec",
                          settings=FAST)
    for name, judged in (("bm25", 233 / 300), ("neural", 242 / 300)):
        check = _check(report.health, "documents", name)
        assert check.status == "passed"
        assert check.numbers["judged_share"] == pytest.approx(judged)
        assert check.numbers["depth"] == 10 and check.numbers["queries"] == 30
    assert report.health is not None and report.health.withheld == ""


def test_both_runs_unmatched_withhold_the_verdict(data: Path, tmp_path: Path) -> None:
    upper = tmp_path / "bm25_upper.trec"
    upper.write_text((data / "bm25.trec").read_text().replace(" doc", " DOC"))
    report = build_report(upper, data / "neural_upper.trec", qrels=data / "qrels.trec",
                          settings=FAST)
    assert report.health is not None
    assert [c.subject for c in report.health.failed if c.key == "documents"] == [
        "bm25_upper", "neural_upper"]
    assert report.health.withheld.startswith(
        "No verdict: the documents of neither run match the judgements")
    text = render_text(report)
    assert "No reliable difference" not in text and "no reliable difference" not in text
    assert text.index("Health checks: ") < text.index("All queries")


def test_stripped_blanks_and_prefix_are_found() -> None:
    qrels = Qrels.from_columns(["q1", "q1", "q2"], ["123", "456", "789"], [1, 0, 1])
    blanks = Run.from_columns(["q1", "q1", "q2"], [" 123", "456 ", " 789 "], [3.0, 2.0, 1.0])
    facts = document_facts(blanks, qrels)
    assert facts.in_qrels == 0 and facts.fold is not None
    assert facts.fold.steps == "stripping blanks"
    assert (facts.fold.run_id, facts.fold.qrels_id, facts.fold.share) == (" 123", "123", 1.0)
    prefixed = Run.from_columns(["q1", "q1", "q2"], ["msmarco_passage_123", "msmarco_passage_456",
                                                     "msmarco_passage_789"], [3.0, 2.0, 1.0])
    fold = document_facts(prefixed, qrels).fold
    assert fold is not None and fold.share == 1.0
    assert "the prefix 'msmarco_passage_' from the run's ids" in fold.steps
    assert fold.qrels_id == "123"


def test_no_fold_for_ids_of_another_collection() -> None:
    fold = find_fold(["D1", "D2", "D3"], ["clueweb09-en0000-00-00001"])
    assert fold is None


def test_another_collection_fails_the_collection_check(data: Path, tmp_path: Path) -> None:
    other = tmp_path / "other_qrels.trec"
    other.write_text("".join(f"q{q:04d} 0 clueweb09-en0000-00-{q:05d} 1\n" for q in range(30)))
    report = build_report(data / "bm25.trec", data / "neural.trec", qrels=other, settings=FAST)
    assert report.health is not None
    collection = next(c for c in report.health.checks if c.key == "collection")
    assert collection.status == "failed"
    assert collection.numbers["runs_sharing_documents"] == 0
    assert "clueweb09-en0000-00-00000" in collection.message
    documents = _check(report.health, "documents", "bm25")
    assert documents.status == "failed"
    assert documents.message.startswith("None of bm25's 598 document ids occurs")


def test_documents_judged_for_other_queries_are_told_apart() -> None:
    qrels = Qrels.from_columns(["q1", "q2"], ["d1", "d2"], [1, 1])
    shifted = Run.from_columns(["q1", "q2"], ["d2", "d1"], [1.0, 1.0])  # each the other's doc
    facts = document_facts(shifted, qrels)
    assert facts.share == 1.0 and facts.fold is None
    from ranklens.health.documents import documents_check

    check = documents_check(1, "shifted", facts, 0.0, 10, 2)
    assert check.status == "failed"
    assert "judged for other queries" in check.message


def test_a_fold_names_only_the_part_of_a_prefix_that_differs() -> None:
    """``msmdoc064080`` against ``doc064080``: the qrels carry `'msm'` more; no case folding
    is said where none is needed, and it is where it is."""
    fold = find_fold(["doc064080", "doc028936", "doc086016"],
                     ["msmdoc064080", "msmdoc028936", "msmdoc070602"])
    assert fold is not None and fold.steps == "removing the prefix 'msm' from the qrels' ids"
    assert (fold.run_id, fold.qrels_id, round(fold.share, 3)) == ("doc064080", "msmdoc064080",
                                                                  0.667)
    upper = find_fold(["DOC-064080", "DOC-028936"], ["064080", "028936"])
    assert upper is not None and upper.share == 1.0
    assert upper.steps == "removing the prefix 'DOC-' from the run's ids"
    mixed = find_fold(["Doc064080", "DOC028936"], ["x064080", "x028936"])
    assert mixed is not None and mixed.steps == (
        "folding case and removing the prefix 'doc' from the run's ids and the prefix 'x' "
        "from the qrels' ids")
