"""Each query's first k documents of a run, in trec_eval's order, as a table.

Answers "which documents does this run show in its top k, at which rank" for the features
that reason about documents rather than metric values (which documents to judge, how many
the two runs share). Score descending, ties by document id descending, as every metric reads
the run. pandas; for whole runs of millions of rows the metrics' own ranking is faster.
"""

from __future__ import annotations

import pandas as pd

from ranklens.data import Qrels, Run


def top_k(run: Run, k: int) -> pd.DataFrame:
    """query_id, doc_id, rank (1..k) of each query's first k documents."""
    frame = pd.DataFrame({
        "query_id": run.queries.take(run.query_codes).to_numpy(zero_copy_only=False),
        "doc_id": run.docs.take(run.doc_codes).to_numpy(zero_copy_only=False),
        "score": run.scores})
    frame = frame.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False],
                              kind="mergesort")
    frame["rank"] = frame.groupby("query_id", sort=False).cumcount() + 1
    return frame[frame["rank"] <= k][["query_id", "doc_id", "rank"]]


def grades_frame(qrels: Qrels) -> pd.DataFrame:
    """query_id, doc_id, grade (float) of every judgement."""
    return pd.DataFrame({
        "query_id": qrels.queries.take(qrels.query_codes).to_numpy(zero_copy_only=False),
        "doc_id": qrels.docs.take(qrels.doc_codes).to_numpy(zero_copy_only=False),
        "grade": qrels.relevance.astype("float64")})


__all__ = ["grades_frame", "top_k"]
