"""Self-retrieval: counted per run; dropped before scoring only when asked, as BEIR does."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranklens.compare.analysis import CompareSettings, build_report
from ranklens.data import Run
from ranklens.health.self_retrieval import self_retrieval, without_self_retrieval


def _write(path: Path, rows: list[tuple[str, str, float]]) -> Path:
    path.write_text("".join(f"{q} Q0 {d} {i + 1} {s} t\n" for i, (q, d, s) in enumerate(rows)))
    return path


def test_counts_rows_queries_and_top() -> None:
    run = Run.from_columns(["q1", "q1", "q2", "q2", "q3"], ["q1", "d1", "d2", "q2", "d3"],
                           [3.0, 2.0, 5.0, 1.0, 1.0])
    found = self_retrieval(run)
    assert (found.rows, found.queries, found.at_top) == (2, 2, 1)
    assert found.examples == ("q1", "q2")
    kept = without_self_retrieval(run)
    assert len(kept) == 3 and "q1" not in kept.to_dict()["q1"]


def test_a_run_without_self_retrieval_is_left_alone() -> None:
    run = Run.from_columns(["q1"], ["d1"], [1.0])
    assert self_retrieval(run).rows == 0
    assert without_self_retrieval(run) is run


def test_warned_when_kept_and_dropped_on_request(tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.trec"
    qrels.write_text("q1 0 d1 1\nq2 0 d2 1\n")
    a = _write(tmp_path / "a.trec", [("q1", "q1", 3.0), ("q1", "d1", 2.0),
                                     ("q2", "d2", 2.0), ("q2", "x", 1.0)])
    b = _write(tmp_path / "b.trec", [("q1", "d1", 3.0), ("q2", "d2", 2.0)])
    settings = CompareSettings(n_resamples=200, n_permutations=200)
    kept = build_report(a, b, qrels=qrels, settings=settings)
    assert kept.health is not None
    check = next(c for c in kept.health.checks if c.key == "self-retrieval" and c.subject == "a")
    assert check.status == "warning"
    assert dict(check.numbers) == {"rows": 1, "queries": 1, "at_top": 1}
    assert "--drop-self-retrieval" in check.action
    # q1 of run a: its relevant document at rank 2, nDCG@10 = 1 / log2(3)
    assert kept.per_query["nDCG@10"]["a"]["q1"] == pytest.approx(0.6309297535714575)
    assert "drop_self_retrieval" not in kept.params
    dropped = build_report(a, b, qrels=qrels,
                           settings=CompareSettings(n_resamples=200, n_permutations=200,
                                                    drop_self_retrieval=True))
    assert dropped.per_query["nDCG@10"]["a"]["q1"] == 1.0
    assert dropped.params["drop_self_retrieval"] is True
    assert dropped.health is not None
    after = next(c for c in dropped.health.checks
                 if c.key == "self-retrieval" and c.subject == "a")
    assert after.status == "passed" and "dropped before scoring" in after.message
    assert after.numbers["rows"] == 1  # counted before they went
