"""trec_eval's counting measures per evaluated query: ``num_ret``, ``num_rel``, ``num_rel_ret``.

``num_ret`` is the number of documents the run retrieved for the query (after ``-J``, the judged
ones), ``num_rel`` the number of judged documents with grade >= the relevance level (retrieved
or not), ``num_rel_ret`` the retrieved ones among them. Only queries that are evaluated (in the
run and the qrels) are counted, in ``QueryJoin`` order. It answers "how many", not how good.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ranklens.data import Qrels, Run
from ranklens.metrics.judged_only import condense_to_judged
from ranklens.metrics.judgements import Judgements, QueryJoin


@dataclass(frozen=True)
class RetrievalCounts:
    """Counts per evaluated query (``query_ids``), as int64 arrays in the same order."""

    query_ids: list[str]
    num_ret: np.ndarray
    num_rel: np.ndarray
    num_rel_ret: np.ndarray


def retrieval_counts(run: Run, qrels: Qrels, *, relevance_level: int = 1,
                     judged_only: bool = False) -> RetrievalCounts:
    """``num_ret``, ``num_rel`` and ``num_rel_ret`` of every evaluated query."""
    join = QueryJoin.of(run, qrels)
    judgements = Judgements(qrels, join)
    if judged_only:
        run = condense_to_judged(run, qrels)
    query = join.index_of_run_code[run.query_codes]
    rows = np.flatnonzero(query >= 0)
    labels = judgements.labels_of_rows(run, rows, query[rows])
    n = join.n_queries
    return RetrievalCounts(
        join.query_ids,
        np.bincount(query[rows], minlength=n).astype(np.int64),
        judgements.num_relevant(relevance_level).astype(np.int64),
        np.bincount(query[rows][labels >= relevance_level], minlength=n).astype(np.int64))


__all__ = ["RetrievalCounts", "retrieval_counts"]
