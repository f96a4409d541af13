"""Identical runs, and the judgements' own checks (nothing relevant, odd grades)."""

from __future__ import annotations

import shutil
from pathlib import Path

from ranklens.compare.analysis import build_report
from ranklens.data import Qrels
from ranklens.health.judgements import grades_check, relevant_check
from tests.health.conftest import FAST


def _identical(report):  # type: ignore[no-untyped-def]
    return next(c for c in report.health.checks if c.key == "identical-runs")


def test_same_file_fails_equal_scores_warn_different_pass(data: Path, tmp_path: Path) -> None:
    same = build_report(data / "bm25.trec", data / "bm25.trec", qrels=data / "qrels.trec",
                        settings=FAST)
    assert _identical(same).status == "failed"
    assert "is the same file as bm25" in _identical(same).message
    # the same rankings under another tag: other bytes, the same scores everywhere
    copy = tmp_path / "bm25_copy.trec"
    copy.write_text((data / "bm25.trec").read_text().replace("bm25_baseline", "copy"))
    equal = build_report(data / "bm25.trec", copy, qrels=data / "qrels.trec", settings=FAST)
    assert _identical(equal).status == "warning"
    assert _identical(equal).numbers["queries"] == 30
    assert "score the same on every one of the 30 queries" in _identical(equal).message
    differ = build_report(data / "bm25.trec", data / "neural.trec", qrels=data / "qrels.trec",
                          settings=FAST)
    assert _identical(differ).status == "passed"
    shutil.copy(data / "bm25.trec", tmp_path / "renamed.trec")
    renamed = build_report(data / "bm25.trec", tmp_path / "renamed.trec",
                           qrels=data / "qrels.trec", settings=FAST)
    assert _identical(renamed).status == "failed"  # same digest, whatever the name


def test_queries_without_a_relevant_document() -> None:
    qrels = Qrels.from_columns(["q1", "q1", "q2", "q3"], ["a", "b", "c", "d"], [1, 0, 0, 0])
    check = relevant_check(qrels, "qrels.trec", 1)
    assert check.status == "warning"
    assert dict(check.numbers) == {"queries": 3, "without_relevant": 2, "relevance_level": 1}
    assert check.examples == ("q2", "q3")
    assert relevant_check(qrels, "qrels.trec", 2).status == "failed"
    good = Qrels.from_columns(["q1", "q2"], ["a", "b"], [1, 2])
    assert relevant_check(good, "qrels.trec", 1).status == "passed"


def test_negative_and_out_of_scale_grades() -> None:
    qrels = Qrels.from_columns(["q1", "q1", "q2"], ["a", "b", "c"], [-1, 1, 40])
    check = grades_check(qrels, "qrels.trec", "exp")
    assert check.status == "warning"
    assert (check.numbers["negative"], check.numbers["above_scale"]) == (1, 1)
    assert (check.numbers["lowest"], check.numbers["highest"]) == (-1, 40)
    assert check.examples == ("q1 a -1", "q2 c 40")
    assert "2^grade" in check.message
    fine = Qrels.from_columns(["q1", "q1"], ["a", "b"], [0, 3])
    assert grades_check(fine, "qrels.trec", "linear").status == "passed"
