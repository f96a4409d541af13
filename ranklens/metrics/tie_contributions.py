"""Per-rank parts of one query's tie-averaged value (``contributions(..., ties="average")``).

The same closed forms as ``tie_average`` (McSherry & Najork), split by position instead of
summed: a position inside a tie group gets its *expected* part over every order of the group,
so the parts sum to ``evaluate(..., ties="average")``'s value. Within a group, a part belongs
to the position, not to a document (each document is at each position of its group equally
often). One query at a time, for display: the loops here run per tie group of one ranking,
never per query of a run (``tie_average`` is the vectorised path).
"""

from __future__ import annotations

import numpy as np

from ranklens.metrics.names import MetricSpec
from ranklens.metrics.ndcg import discounts, gains
from ranklens.metrics.rbp import rank_weights

Parts = tuple[np.ndarray, np.ndarray, np.ndarray]


def averaged_rows(spec: MetricSpec, grades: np.ndarray, keys: np.ndarray,
                  judged_grades: np.ndarray, ideal_dcg: float) -> Parts:
    """gain, discount and expected contribution per rank (``keys`` in rank order)."""
    n = len(grades)
    position = np.arange(n)
    new = np.r_[True, keys[1:] != keys[:-1]] if n else np.zeros(0, dtype=bool)
    group = np.cumsum(new) - 1
    starts = np.flatnonzero(new)
    sizes = np.diff(np.r_[starts, n]).astype(np.int64)
    limit = spec.cutoff if spec.cutoff is not None else n + 1
    relevant = grades >= spec.relevance_level
    num_relevant = float(np.count_nonzero(judged_grades >= spec.relevance_level))
    if spec.family in ("RR", "AP"):
        hits = np.bincount(group, weights=relevant, minlength=len(starts)).astype(np.int64)
        parts = _reciprocal_rank if spec.family == "RR" else _average_precision
        return parts(n, starts, sizes, hits, limit, num_relevant)
    value = gains(grades, spec.gain) if spec.family == "ndcg" else relevant.astype(np.float64)
    mean = (np.bincount(group, weights=value, minlength=len(starts)) / np.maximum(sizes, 1)
            )[group] if n else np.zeros(0)
    inside = position < limit
    if spec.family == "ndcg":
        weight = discounts(position) / ideal_dcg if ideal_dcg > 0 else np.zeros(n)
    elif spec.family == "P":
        weight = np.full(n, 1.0 / limit)
    elif spec.family in ("recall", "Rprec"):
        weight = np.full(n, 1.0 / num_relevant if num_relevant else 0.0)
        if spec.family == "Rprec":
            inside = position < num_relevant
    elif spec.family == "RBP":
        assert spec.p is not None
        weight = rank_weights(position, spec.p)
    else:
        raise ValueError(f"{spec.name} has no tie-averaged form")
    discount = discounts(position) if spec.family == "ndcg" else weight
    return mean, discount, np.where(inside, mean * weight, 0.0)


def _reciprocal_rank(n: int, starts: np.ndarray, sizes: np.ndarray, hits: np.ndarray,
                     limit: int, _: float) -> Parts:
    """P(first relevant document at this position) and 1/rank, in the first group holding a
    relevant document (within the cutoff)."""
    gain, discount = np.zeros(n), 1.0 / (np.arange(n) + 1.0)
    for s, size, r in zip(starts.tolist(), sizes.tolist(), hits.tolist(), strict=True):
        if s >= limit:
            break
        if r == 0:
            continue
        chance = r / size
        for j in range(min(size - r + 1, limit - s)):
            gain[s + j] = chance
            chance *= (size - r - j) / max(size - 1 - j, 1)
        break
    return gain, discount, gain * discount


def _average_precision(n: int, starts: np.ndarray, sizes: np.ndarray, hits: np.ndarray,
                       limit: int, num_relevant: float) -> Parts:
    """Expected relevant mass at the position (over R) and the expected precision of a
    relevant document there."""
    gain, discount = np.zeros(n), np.zeros(n)
    above = 0
    for s, size, r in zip(starts.tolist(), sizes.tolist(), hits.tolist(), strict=True):
        if s >= limit:
            break
        for j in range(min(size, limit - s)):
            ahead = j * (r - 1) / (size - 1) if size > 1 else 0.0
            gain[s + j] = r / size / num_relevant if num_relevant else 0.0
            discount[s + j] = (above + 1.0 + ahead) / (s + j + 1.0)
        above += r
    return gain, discount, gain * discount
