"""Facts about each query that ranklens can compute itself, as labels to search for slices.

Answers "which features of a query might go with a different B - A", for
`ranklens.stats.slices.discover_slices`, beside the columns of a segment map: the number of
judged relevant documents, judged@k of each run, how many of the top k documents the two runs
share, the query's length in terms (when query texts are given) and the baseline's own score.
Numbers become labels of quantile bins (`ranklens.stats.slices.binned`).

The baseline's score is said with its caveat: queries picked for a low A score tend to gain
whatever B does (regression to the mean: A's low score is partly A's own noise), so a slice
on it can show a gain that is no property of B. It does not compute anything a report shows
elsewhere, and it does not choose which features matter (the search does).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ranklens.data import Qrels, Run
from ranklens.metrics import evaluate
from ranklens.metrics.top_k import grades_frame, top_k
from ranklens.stats.slices import binned

BASELINE_CAVEAT = ("a slice of the baseline's own score: queries picked for a low A score "
                   "tend to gain whatever B does (regression to the mean)")


def query_features(query_ids: Sequence[str], run_a: Run, run_b: Run, qrels: Qrels, *,
                   k: int = 10, baseline_scores: Mapping[str, float] | None = None,
                   query_texts: Mapping[str, str] | None = None,
                   bins: int = 4) -> dict[str, list[str]]:
    """Labels per query (in ``query_ids`` order) of each feature, by name:

    - ``judged relevant``: documents judged relevant (grade > 0), binned;
    - ``judged@k A`` / ``judged@k B``: share of the run's top k with a judgement, binned;
    - ``top-k overlap``: documents both runs have in their top k (0 to k), binned;
    - ``query terms``: whitespace terms of the query text (``query_texts``), 1, 2, 3, 4, 5+;
    - ``baseline score``: ``baseline_scores`` binned (see `BASELINE_CAVEAT`).
    """
    ids = list(query_ids)
    features = {"judged relevant": judged_relevant(ids, qrels, bins)}
    for side, run in (("A", run_a), ("B", run_b)):
        judged = evaluate(run, qrels, [f"Judged@{k}"], missing="zero")[f"Judged@{k}"].per_query
        features[f"judged@{k} {side}"] = binned([judged.get(q, 0.0) for q in ids], bins)
    features[f"top-{k} overlap"] = top_k_overlap(ids, run_a, run_b, k, bins)
    if query_texts:
        features["query terms"] = query_terms(ids, query_texts)
    if baseline_scores is not None:
        features["baseline score"] = binned([baseline_scores.get(q, 0.0) for q in ids], bins)
    return features


def judged_relevant(query_ids: Sequence[str], qrels: Qrels, bins: int = 4) -> list[str]:
    """Each query's number of documents judged relevant (grade > 0), binned."""
    grades = grades_frame(qrels)
    relevant = grades[grades["grade"] > 0].groupby("query_id").size()
    return binned([float(relevant.get(q, 0)) for q in query_ids], bins)


def top_k_overlap(query_ids: Sequence[str], run_a: Run, run_b: Run, k: int = 10,
                  bins: int = 4) -> list[str]:
    """How many documents each query's two top k lists share (0 to k), binned."""
    top_a, top_b = top_k(run_a, k), top_k(run_b, k)
    shared = top_a.merge(top_b, on=["query_id", "doc_id"]).groupby("query_id").size()
    return binned([float(shared.get(q, 0)) for q in query_ids], bins)


def query_terms(query_ids: Sequence[str], query_texts: Mapping[str, str]) -> list[str]:
    """Each query's length in whitespace terms (1, 2, 3, 4, 5+; "no text" without one)."""
    return [_terms(query_texts[q]) if q in query_texts else "no text" for q in query_ids]


def _terms(text: str) -> str:
    count = len(text.split())
    return f"{count} term{'s' if count != 1 else ''}" if count < 5 else "5+ terms"


__all__ = ["BASELINE_CAVEAT", "judged_relevant", "query_features", "query_terms",
           "top_k_overlap"]
