"""Tie-averaged metrics (McSherry & Najork, ECIR 2008): the expected value over every order of
the documents inside each group of equal scores, instead of trec_eval's order by document id.

Closed forms, vectorised over all queries (a tie group is a run of rows of one query with the
same key; its rows hold positions s .. s + n - 1 whatever the order inside):

- metrics linear in the per-row value with a weight per position (DCG/nDCG, P@k, R@k,
  R-Prec, RBP): by linearity of expectation every position of a group gets the group's mean
  value, so the metric is computed with each row's gain replaced by its group's mean gain;
- RR: only the first group holding a relevant document (within the cutoff) matters; with n
  members of which r are relevant, the offset J of its first relevant one has
  P(J = j) = C(n-1-j, r-1) / C(n, r) = (r/n) prod_{t<j} (n-r-t)/(n-1-t), and
  RR = sum_j P(J = j) / (s + j + 1) over positions inside the cutoff;
- AP: a relevant document of a group with c relevant documents above it sits at offset j with
  probability 1/n, and given j the expected number of the group's other r-1 relevant ones
  ahead of it is j (r-1)/(n-1), so the group adds
  (r/n) sum_j (c + 1 + j (r-1)/(n-1)) / (s + j + 1) to the sum, which is then divided by R.

With no ties every group has one member and each form is the trec_eval value. It does not
decide which rows are tied (``ordering`` does) nor read the cutoff's tie groups for display
(``ties`` does).
"""

from __future__ import annotations

import numpy as np

from ranklens.metrics.names import MetricSpec
from ranklens.metrics.ndcg import discounts, gains, ideal_dcg
from ranklens.metrics.ordering import expand_ranges
from ranklens.metrics.ranked import RankedLabels, safe_divide
from ranklens.metrics.rbp import rank_weights
from ranklens.metrics.segmented import exclusive_running_sum


class _Groups:
    """Per tie group of the ranked rows: first row, size, first position, query."""

    def __init__(self, ranked: RankedLabels) -> None:
        assert ranked.tie_group is not None, "rank_and_label(..., tie_groups=True) needed"
        group = ranked.tie_group
        n = len(group)
        self.first_row = np.flatnonzero(np.r_[True, group[1:] != group[:-1]]) if n else \
            np.empty(0, dtype=np.int64)
        self.size = np.diff(np.r_[self.first_row, n]).astype(np.int64)
        self.start = ranked.position[self.first_row].astype(np.int64)
        self.query = ranked.query[self.first_row]
        self.of_row = np.repeat(np.arange(len(self.first_row)), self.size)

    def mean(self, values: np.ndarray) -> np.ndarray:
        """Each row's value replaced by the mean over its tie group."""
        if not len(values):
            return values.astype(np.float64)
        totals = np.add.reduceat(values.astype(np.float64), self.first_row)
        return (totals / self.size)[self.of_row]

    def count(self, mask: np.ndarray) -> np.ndarray:
        return np.bincount(self.of_row[mask], minlength=len(self.first_row)).astype(np.int64)


def _inside(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    return ranked.top(spec.cutoff)


def ndcg(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    groups = _Groups(ranked)
    mean_gain = groups.mean(gains(ranked.labels, spec.gain))
    rows = _inside(ranked, spec)
    dcg = ranked.count(rows, mean_gain * discounts(ranked.position))
    return safe_divide(dcg, ideal_dcg(ranked, spec.cutoff, spec.gain))


def _mean_relevant(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    return _Groups(ranked).mean(ranked.relevant(spec.relevance_level))


def precision(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    assert spec.cutoff is not None
    return ranked.count(_inside(ranked, spec), _mean_relevant(ranked, spec)) / spec.cutoff


def recall(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    num_relevant = ranked.judgements.num_relevant(spec.relevance_level).astype(np.float64)
    found = ranked.count(_inside(ranked, spec), _mean_relevant(ranked, spec))
    return safe_divide(found, num_relevant)


def r_precision(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    num_relevant = ranked.judgements.num_relevant(spec.relevance_level)
    rows = ranked.position < num_relevant[ranked.query]
    found = ranked.count(rows, _mean_relevant(ranked, spec))
    return safe_divide(found, num_relevant.astype(np.float64))


def rbp(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    assert spec.p is not None
    weights = _mean_relevant(ranked, spec) * rank_weights(ranked.position, spec.p)
    return ranked.count(_inside(ranked, spec), weights)


def _limit(spec: MetricSpec) -> int:
    return spec.cutoff if spec.cutoff is not None else np.iinfo(np.int64).max


def reciprocal_rank(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    groups = _Groups(ranked)
    hits = groups.count(ranked.relevant(spec.relevance_level))
    inside = groups.start < _limit(spec)
    candidates = np.flatnonzero((hits > 0) & inside)
    out = np.zeros(ranked.n_queries, dtype=np.float64)
    if not len(candidates):
        return out
    query = groups.query[candidates]
    first = candidates[np.r_[True, query[1:] != query[:-1]]]  # groups are in rank order
    n, r, s = groups.size[first], hits[first], groups.start[first]
    span = np.minimum(n - r + 1, _limit(spec) - s)  # offsets j = 0 .. n-r inside the cutoff
    j = expand_ranges(np.zeros(len(first), dtype=np.int64), span)
    owner = np.repeat(np.arange(len(first)), span)
    nn, rr = n[owner].astype(np.float64), r[owner].astype(np.float64)
    # log P(J = j) = log(r/n) + sum_{t<j} log((n-r-t)/(n-1-t)); the last offset's own step
    # (0/.., never used by an exclusive sum) is clamped to stay finite
    steps = np.log(np.maximum(nn - rr - j, 1.0) / np.maximum(nn - 1 - j, 1.0))
    log_p = np.log(rr / nn) + exclusive_running_sum(steps, owner)
    values = np.bincount(owner, weights=np.exp(log_p) / (s[owner] + j + 1.0),
                         minlength=len(first))
    out[groups.query[first]] = values
    return out


def average_precision(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    groups = _Groups(ranked)
    hits = groups.count(ranked.relevant(spec.relevance_level))
    # relevant documents above each group, within its query
    above = exclusive_running_sum(hits, groups.query)
    chosen = np.flatnonzero((hits > 0) & (groups.start < _limit(spec)))
    n, r, s = groups.size[chosen], hits[chosen], groups.start[chosen]
    span = np.minimum(n, _limit(spec) - s)
    j = expand_ranges(np.zeros(len(chosen), dtype=np.int64), span).astype(np.float64)
    owner = np.repeat(np.arange(len(chosen)), span)
    nn, rr = n[owner].astype(np.float64), r[owner].astype(np.float64)
    ahead = np.where(nn > 1, j * (rr - 1) / np.maximum(nn - 1, 1.0), 0.0)
    terms = (rr / nn) * (above[chosen][owner] + 1.0 + ahead) / (s[owner] + j + 1.0)
    total = np.bincount(groups.query[chosen][owner], weights=terms, minlength=ranked.n_queries)
    num_relevant = ranked.judgements.num_relevant(spec.relevance_level).astype(np.float64)
    return safe_divide(total, num_relevant)


AVERAGED = {
    "ndcg": ndcg,
    "P": precision,
    "recall": recall,
    "Rprec": r_precision,
    "RBP": rbp,
    "RR": reciprocal_rank,
    "AP": average_precision,
}
"""The families with a tie-averaged form, by ``MetricSpec.family``."""
