"""Inputs that make every metric say little are counted: no relevant document, tied scores."""

from __future__ import annotations

import numpy as np

from ranklens.data import Qrels, Run
from ranklens.metrics import evaluate
from ranklens.metrics.checks import (
    no_relevant_documents,
    no_relevant_warning,
    relevant_documents,
    tied_queries,
    tied_scores_warning,
)


def test_judgements_without_a_relevant_document_are_named() -> None:
    zeros = Qrels.from_dict({"q1": {"d1": 0, "d2": 0}, "q2": {"d3": 0, "d4": -1}})
    assert relevant_documents(zeros) == 0 and no_relevant_documents(zeros)
    message = no_relevant_warning(zeros, "all_zero.qrels")
    assert message is not None
    assert message.startswith("all_zero.qrels marks no document relevant: its 4 judgements "
                              "have grades -1, 0, none at or above 1.")
    assert "Every metric is 0 for both runs" in message
    run = Run.from_dict({"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d3": 1.0}})
    assert set(evaluate(run, zeros, ["nDCG@10"])["nDCG@10"].per_query.values()) == {0.0}


def test_one_relevant_document_is_enough_and_the_level_counts() -> None:
    qrels = Qrels.from_dict({"q1": {"d1": 0, "d2": 1}, "q2": {"d3": 2}})
    assert relevant_documents(qrels) == 2 and no_relevant_warning(qrels, "q.txt") is None
    assert relevant_documents(qrels, relevance_level=2) == 1
    assert no_relevant_warning(qrels, "q.txt", relevance_level=3) is not None


def test_tied_queries_count_queries_with_one_score_throughout() -> None:
    run = Run.from_columns(["q1", "q1", "q2", "q2", "q2", "q3", "q4", "q4"],
                           ["a", "b", "a", "b", "c", "a", "a", "b"],
                           [1.0, 1.0, 3.0, 2.0, 3.0, 5.0, 0.5, 0.5])
    # q1 and q4 are tied, q2 is not (one tie among three), q3 has one document only
    assert tied_queries(run) == (2, 3)
    assert tied_queries(Run.from_dict({})) == (0, 0)


def test_a_run_tied_on_most_queries_is_named_and_offered_rank_order() -> None:
    queries = np.repeat([f"q{i}" for i in range(10)], 3)
    docs = np.tile(["a", "b", "c"], 10)
    flat = Run.from_columns(queries, docs, np.ones(30), np.tile([1, 2, 3], 10))
    message = tied_scores_warning(flat, "run_b_flat (run_b_flat.trec)")
    assert message is not None
    assert message.startswith("run_b_flat (run_b_flat.trec) gives every document the same "
                              "score on 10 of its 10 queries")
    assert "order by rank instead" in message and "--order rank" in message
    no_ranks = Run.from_columns(queries, docs, np.ones(30))
    assert "no rank column" in (tied_scores_warning(no_ranks, "x") or "")
    half = Run.from_columns(queries, docs, np.r_[np.ones(15), np.arange(15.0)])
    assert tied_queries(half) == (5, 10)
    assert tied_scores_warning(half, "x") is None  # five of ten is not most
