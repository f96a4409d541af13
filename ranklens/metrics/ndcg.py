"""nDCG and nDCG@k, as trec_eval's ``ndcg`` and ``ndcg_cut`` compute them.

- gain: the grade itself (``linear``, trec_eval) or 2^grade - 1 (``exp``); unjudged documents
  and grades <= 0 gain nothing;
- discount: log2(rank + 1) for 1-based ranks, i.e. 1 / log2(position + 2);
- ideal DCG: from all positive-graded judged documents of the query in the qrels, retrieved or
  not, best first, cut at k; when the ideal is 0 (no positive grade) the query scores 0;
- the relevance level (``-l``) plays no part, as in trec_eval;
- a cutoff beyond the ranking's length sums what is there; the ideal is still cut at k.
"""

from __future__ import annotations

import numpy as np

from ranklens.metrics.names import MetricSpec
from ranklens.metrics.ranked import RankedLabels, safe_divide


def gains(grades: np.ndarray, gain: str) -> np.ndarray:
    """Gain of each grade: linear (the grade) or exponential (2^grade - 1); 0 for grade <= 0."""
    positive = np.maximum(grades, 0).astype(np.float64)
    return positive if gain == "linear" else np.expm1(positive * np.log(2.0))


def discounts(position: np.ndarray) -> np.ndarray:
    return 1.0 / np.log2(position.astype(np.float64) + 2.0)


def ideal_dcg(ranked: RankedLabels, cutoff: int | None, gain: str) -> np.ndarray:
    query, position, grades = ranked.judgements.ideal()
    inside = slice(None) if cutoff is None else position < cutoff
    weights = gains(grades[inside], gain) * discounts(position[inside])
    return np.bincount(query[inside], weights=weights, minlength=ranked.n_queries)


def ndcg(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    """Per-query nDCG (nDCG@k when ``spec.cutoff`` is set) with trec_eval's semantics."""
    rows = ranked.top(spec.cutoff) & (ranked.labels > 0)
    dcg = ranked.count(rows, gains(ranked.labels, spec.gain) * discounts(ranked.position))
    return safe_divide(dcg, ideal_dcg(ranked, spec.cutoff, spec.gain))
