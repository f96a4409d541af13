"""trec_eval 10.0's per-query measures over a ``TrecRanking``, all queries at once.

Each function answers one measure family as trec_eval's ``m_<name>.c`` defines it (the rules
are restated in its docstring) and returns one row of values per printed measure (per cutoff).
Sums run in rank order, one row after the other (``np.bincount`` and ``segment_cumsum`` add
sequentially), and logs come from the C library, so that the printed digits are trec_eval's.
``relevant`` means grade >= the level ``-l``; ``NONPOOL``/``UNJUDGED`` rows are never relevant.
They do not read files, plan measures or print (``ranklens.metrics.trec_eval`` does).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from ranklens.metrics.ranked import safe_divide
from ranklens.metrics.trec_ranking import UNJUDGED, TrecRanking, segment_cumsum
from ranklens.metrics.trec_relstring import relstring as relstring  # the one text measure

MIN_GEO_MEAN = 0.00001  # trec_eval's floor before the log of gm_map and gm_bpref
INFAP_EPSILON = 0.00001


_LOG2: list[np.ndarray] = [np.empty(0)]
_RANKS_AT_ONCE = 1 << 16  # rbp_residual's ranks per chunk of queries


def libm_log2(x: np.ndarray) -> np.ndarray:
    """``log2`` of each whole number >= 1 in ``x`` as the C library computes it (a table)."""
    if not len(x):
        return np.empty(0)
    top = int(x.max()) + 1
    if len(_LOG2[0]) < top:
        _LOG2[0] = np.array([-math.inf] + [math.log2(v) for v in range(1, max(top, 4096))])
    return _LOG2[0][x.astype(np.int64)]


def _rel_so_far(r: TrecRanking, relevant: np.ndarray) -> np.ndarray:
    """Per row, relevant rows of its query up to and including it."""
    return r.rel_so_far


def counts(r: TrecRanking, name: str) -> np.ndarray:
    """num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret (one row)."""
    if name == "num_ret":
        return r.num_ret.astype(np.float64)[None]
    if name == "num_rel":
        return r.num_rel[None]
    if name == "num_rel_ret":
        return r.num_rel_ret[None]
    # trec_eval: num_ret - nonpool - unjudged - num_rel_ret, the judged non-relevant rows
    judged = r.labels >= 0
    return r.per_query(judged & ~r.relevant())[None]


def average_precision(r: TrecRanking, cutoffs: Sequence[int] | None = None) -> np.ndarray:
    """map (``cutoffs=None``) or map_cut_k: sum of precision at each relevant row (ranks <= k)
    over num_rel; 0 when num_rel is 0."""
    relevant = r.relevant()
    if cutoffs is None:  # map and gm_map share it
        return r._cached("average_precision", lambda: _average_precision(r, relevant))
    weight = np.where(relevant, r.rel_so_far / (r.position + 1.0), 0.0)
    running = segment_cumsum(weight, r.starts)
    return np.array([safe_divide(r.at_depth(running, k), r.num_rel) for k in cutoffs])


def _average_precision(r: TrecRanking, relevant: np.ndarray) -> np.ndarray:
    precision = r.rel_so_far[relevant] / (r.position[relevant] + 1.0)
    total = np.bincount(r.query[relevant], weights=precision, minlength=r.n_queries)
    return safe_divide(total, r.num_rel)[None]


def gm_log_ap(r: TrecRanking) -> np.ndarray:
    """gm_map's per-query term: log(max(AP, 0.00001)) (summary only)."""
    return np.log(np.maximum(average_precision(r)[0], MIN_GEO_MEAN))[None]


def r_precision(r: TrecRanking) -> np.ndarray:
    """Relevant rows in the top num_rel, over num_rel (0 when num_rel or num_ret is 0)."""
    rows = r.relevant() & (r.position < r.num_rel[r.query])
    return safe_divide(r.per_query(rows), r.num_rel)[None]


def bpref_terms(r: TrecRanking) -> np.ndarray:
    """bpref: per relevant row, 1 - min(n, R) / min(N, R) with n the judged non-relevant
    rows above it (1 when n is 0), summed over R; unjudged and nonpool rows are skipped.
    (Computed once for bpref and gm_bpref.)"""
    return r._cached("bpref", lambda: _bpref_terms(r))


def _bpref_terms(r: TrecRanking) -> np.ndarray:
    nonrel = ((r.labels >= 0) & (r.labels < r.level)).astype(np.int64)
    above = r.running(nonrel) - nonrel
    relevant = r.relevant()
    rows = np.flatnonzero(relevant)
    q = r.query[rows]
    num_rel = r.num_rel[q]
    n_above = above[rows].astype(np.float64)
    denominator = np.minimum(r.num_nonrel[q], num_rel)
    term = np.ones(len(rows))
    some = n_above > 0
    term[some] = 1.0 - np.minimum(n_above[some], num_rel[some]) / denominator[some]
    total = np.bincount(q, weights=term, minlength=r.n_queries)
    return safe_divide(total, r.num_rel)


def bpref(r: TrecRanking) -> np.ndarray:
    return bpref_terms(r)[None]


def gm_log_bpref(r: TrecRanking) -> np.ndarray:
    return np.log(np.maximum(bpref_terms(r), MIN_GEO_MEAN))[None]


def recip_rank(r: TrecRanking) -> np.ndarray:
    """1 / rank of the first relevant row; 0 without one."""
    rows = np.flatnonzero(r.relevant())
    first = np.full(r.n_queries, -1, dtype=np.int64)
    # rows are in rank order within a query: the first per query is its smallest index
    q = r.query[rows]
    is_first = np.r_[True, q[1:] != q[:-1]] if len(q) else np.empty(0, dtype=bool)
    first[q[is_first]] = r.position[rows[is_first]]
    out = np.zeros(r.n_queries)
    found = first >= 0
    out[found] = 1.0 / (first[found] + 1.0)
    return out[None]


def precision(r: TrecRanking, cutoffs: Sequence[int]) -> np.ndarray:
    return np.array([r.at_depth(r.rel_so_far, k) / k for k in cutoffs])


def recall(r: TrecRanking, cutoffs: Sequence[int]) -> np.ndarray:
    return np.array([safe_divide(r.at_depth(r.rel_so_far, k), r.num_rel) for k in cutoffs])


def success(r: TrecRanking, cutoffs: Sequence[int]) -> np.ndarray:
    return np.array([(r.at_depth(r.rel_so_far, k) > 0).astype(np.float64) for k in cutoffs])


def relative_precision(r: TrecRanking, cutoffs: Sequence[int]) -> np.ndarray:
    """relative_P_k: relevant in the top k over min(k, num_rel); 0 when num_rel is 0."""
    return np.array([safe_divide(r.at_depth(r.rel_so_far, k), np.minimum(float(k), r.num_rel))
                     for k in cutoffs])


def unjudged(r: TrecRanking, cutoffs: Sequence[int]) -> np.ndarray:
    """unj_k: nonpool or unjudged documents in the top k, over k (past the end: judged):
    the ranks above k less the judged rows there."""
    judged = r.running(r.labels >= 0)
    return np.array([(np.minimum(k, r.num_ret) - r.at_depth(judged, k)) / k
                     for k in cutoffs])


def _interpolated(r: TrecRanking) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per relevant row (in rank order): its query, its 1-based count among the query's
    relevant rows, and the interpolated precision there (the highest precision at it or
    below, the end of the ranking included)."""
    relevant = r.relevant()
    rel_so_far = _rel_so_far(r, relevant)
    rows = np.flatnonzero(relevant)
    precision = rel_so_far[rows] / (r.position[rows] + 1.0)
    q = r.query[rows]
    # suffix maximum within each query, exactly: on ranks of the values, offset per query
    unique, rank = np.unique(precision, return_inverse=True)
    rank = rank.reshape(-1).astype(np.int64)
    # walking backwards the queries come in descending order: give them growing offsets
    offset = (r.n_queries - q.astype(np.int64)) * (len(unique) + 1)
    suffix = np.maximum.accumulate((offset + rank)[::-1])[::-1]
    interpolated = unique[suffix - offset] if len(rows) else np.empty(0)
    return q, rel_so_far[rows], interpolated


def _nth_relevant(r: TrecRanking, n: np.ndarray, q: np.ndarray, nth: np.ndarray,
                  values: np.ndarray) -> np.ndarray:
    """values at the n[query]-th relevant row of each query (NaN where there is none)."""
    out = np.full(r.n_queries, np.nan)
    hit = nth == n[q]
    out[q[hit]] = values[hit]
    return out


def _recall_points(r: TrecRanking, levels: Sequence[float]) -> list[np.ndarray]:
    """iprec_at_recall's values at each recall level, as m_iprec_at_recall.c finds them
    (computed once for iprec_at_recall and 11pt_avg when their levels are the same)."""
    key = f"recall_points{tuple(levels)}"
    if key not in r._cache:
        r._cache[key] = np.array(_compute_recall_points(r, levels))
    return list(r._cache[key])


def _compute_recall_points(r: TrecRanking, levels: Sequence[float]) -> list[np.ndarray]:
    q, nth, interpolated = _interpolated(r)
    num_rel_ret = r.num_rel_ret
    with np.errstate(invalid="ignore", divide="ignore"):
        at_end = num_rel_ret / r.num_ret  # 0/0 is NaN, as in C
    first = _nth_relevant(r, np.ones(r.n_queries, dtype=np.int64), q, nth, interpolated)
    zero_cut = np.where(num_rel_ret > 0, first, at_end)
    out = []
    for level in levels:
        x = level * r.num_rel
        floor = np.floor(x)
        cut = np.where(x - floor >= 0.5, floor + 1, floor).astype(np.int64)  # lround
        value = _nth_relevant(r, cut, q, nth, interpolated)
        value = np.where(cut == 0, zero_cut, value)
        value = np.where(cut > num_rel_ret, 0.0, value)
        out.append(value)
    return out


def iprec_at_recall(r: TrecRanking, levels: Sequence[float]) -> np.ndarray:
    return np.array(_recall_points(r, levels))


def eleven_point_average(r: TrecRanking, levels: Sequence[float]) -> np.ndarray:
    """11pt_avg: iprec_at_recall's values added from the highest level down, over their count."""
    total = np.zeros(r.n_queries)
    for value in reversed(_recall_points(r, levels)):
        total = total + value
    return (total / len(levels))[None]


def r_precision_multiples(r: TrecRanking, multiples: Sequence[float]) -> np.ndarray:
    """Rprec_mult_x: precision at n = (long)(x * num_rel + 0.9) documents, the ranking filled
    with non-relevant ones past its end; 0 when n is 0."""
    out = []
    for x in multiples:
        n = (x * r.num_rel + 0.9).astype(np.int64)
        out.append(safe_divide(r.at_depth(r.rel_so_far, n), n.astype(np.float64)))
    return np.array(out)


def inferred_ap(r: TrecRanking) -> np.ndarray:
    """infAP (Yilmaz & Aslam): per relevant row at 0-based rank j > 0,
    1/(j+1) + j/(j+1) * ((R-1 + N + U)/j) * ((R-1 + e)/(R-1 + N + 2e)) with R the relevant rows
    up to it, N the judged non-relevant and U the pool-unjudged rows above it (nonpool rows
    are skipped but keep their rank); 1 at j = 0; summed over num_rel."""
    relevant = r.relevant()
    nonrel = (r.labels >= 0) & ~relevant
    rel_so_far = _rel_so_far(r, relevant)
    nonrel_above = r.running(nonrel) - nonrel
    pool = r.labels == UNJUDGED
    pool_above = r.running(pool) - pool
    rows = np.flatnonzero(relevant)
    j = r.position[rows].astype(np.float64)
    before = (rel_so_far[rows] - 1).astype(np.float64)
    n_above = nonrel_above[rows]
    with np.errstate(invalid="ignore", divide="ignore"):
        term = 1.0 / (j + 1.0) + (j / (j + 1.0)) * (
            (rel_so_far[rows] - 1 + n_above + pool_above[rows]) / j) * (
            (before + INFAP_EPSILON) / ((rel_so_far[rows] - 1 + n_above) + 2 * INFAP_EPSILON))
    term[j == 0] = 1.0
    total = np.bincount(r.query[rows], weights=term, minlength=r.n_queries)
    return safe_divide(total, r.num_rel)[None]


def utility(r: TrecRanking, params: Sequence[float], num_docs: int) -> np.ndarray:
    """p1 * rel_ret + p2 * nonrel_ret + p3 * rel_not_ret + p4 * nonrel_not_ret (-N docs)."""
    p1, p2, p3, p4 = params
    a, ret, rel = r.num_rel_ret, r.num_ret.astype(np.float64), r.num_rel
    return (p1 * a + p2 * (ret - a) + p3 * (rel - a) + p4 * (num_docs + a - ret - rel))[None]


def _gains(r: TrecRanking) -> np.ndarray:
    return np.maximum(r.labels, 0).astype(np.float64)


def dcg_parts(r: TrecRanking) -> tuple[np.ndarray, np.ndarray]:
    """(dcg, ideal_dcg): sum of grade / log2(rank + 1) over the ranking, and over the ideal
    ranking (every positive judged grade, best first)."""
    gain = _gains(r)
    rows = gain > 0
    dcg = r.per_query(rows, gain / libm_log2(r.position + 2.0))
    grades, start, count = r.ideal()
    ideal_query = np.repeat(np.arange(r.n_queries), count)
    ideal_pos = np.arange(len(grades)) - np.repeat(start, count)
    ideal = np.bincount(ideal_query, weights=grades / libm_log2(ideal_pos + 2.0),
                        minlength=r.n_queries)
    return dcg, ideal


def ndcg(r: TrecRanking) -> np.ndarray:
    """ndcg: dcg over ideal_dcg; 0 when the ideal is 0."""
    dcg, ideal = dcg_parts(r)
    return safe_divide(dcg, ideal)[None]


def ndcg_cut(r: TrecRanking, cutoffs: Sequence[int]) -> np.ndarray:
    """ndcg_cut_k: the same cut at k ranks, ideal cut at k too."""
    running = _running_dcg(r)
    ideal_running, start, count = _ideal_running(r)
    out = []
    for k in cutoffs:
        dcg = r.at_depth(running, k)
        take = np.minimum(k, count)
        ideal = np.zeros(r.n_queries)
        some = take > 0
        ideal[some] = ideal_running[start[some] + take[some] - 1]
        out.append(safe_divide(dcg, ideal))
    return np.array(out)


def binary_gain(r: TrecRanking) -> np.ndarray:
    """binG: per relevant row 1 / log2(2 + non-relevant rows above it), over num_rel."""
    relevant = r.relevant()
    rel_so_far = _rel_so_far(r, relevant)
    rows = np.flatnonzero(relevant)
    term = 1.0 / libm_log2((3 + r.position[rows] - rel_so_far[rows]).astype(np.float64))
    return safe_divide(np.bincount(r.query[rows], weights=term, minlength=r.n_queries),
                       r.num_rel)[None]


def normalized_gain(r: TrecRanking) -> np.ndarray:
    """G: per row with a gain, gain / log2(2 + cost - gained), with cost the sum of
    max(ideal gain, 1) over the ranks down to it and gained the running sum of the ranking's
    gains; over the sum of the ideal gains."""
    gain = r.labels.clip(min=0)
    rows = np.flatnonzero(gain != 0)
    gained = r.running(gain)[rows]
    q, at = r.query[rows], r.position[rows]
    # the ideal's positive grades (each >= 1) down to the rank, then 1 per rank past them
    grades, start, count = r.ideal()
    running_ideal, total_ideal = _segment_totals(grades, start, count)
    inside = at < count[q]
    cost = total_ideal[q] + (at - count[q] + 1)
    cost[inside] = running_ideal[start[q[inside]] + at[inside]]
    term = gain[rows] / libm_log2((2 + cost - gained).astype(np.float64))
    total = np.bincount(q, weights=term, minlength=r.n_queries)
    sum_ideal = np.bincount(np.repeat(np.arange(r.n_queries), count),
                            weights=grades.astype(np.float64), minlength=r.n_queries)
    return safe_divide(total, sum_ideal)[None]


def _segment_totals(grades: np.ndarray, start: np.ndarray, count: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Integer running sums of each query's ideal grades, and each query's total."""
    running = np.cumsum(grades.astype(np.int64))
    before = np.concatenate(([0], running))[start]
    running -= np.repeat(before, count)
    total = np.zeros(len(start), dtype=np.int64)
    some = count > 0
    total[some] = running[start[some] + count[some] - 1]
    return running, total


def _running_dcg(r: TrecRanking) -> np.ndarray:
    """Per row, the DCG of its query's ranking down to it (added row by row)."""
    return r._cached("running_dcg", lambda: _compute_running_dcg(r))


def _compute_running_dcg(r: TrecRanking) -> np.ndarray:
    gain = _gains(r)
    weight = np.zeros(len(gain))
    rows = gain > 0
    weight[rows] = gain[rows] / libm_log2(r.position[rows] + 2.0)
    return segment_cumsum(weight, r.starts)


def _ideal_running(r: TrecRanking) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Running ideal DCG over each query's positive ideal positions: (values, start, count)."""
    grades, start, count = r.ideal()

    def make() -> np.ndarray:
        ideal_pos = np.arange(len(grades)) - np.repeat(start, count)
        starts = np.concatenate((start, [len(grades)]))
        return segment_cumsum(grades / libm_log2(ideal_pos + 2.0), starts)
    return r._cached("ideal_running", make), start, count


def ndcg_rel(r: TrecRanking) -> np.ndarray:
    """ndcg_rel: nDCG averaged over the ideal's positive positions: at each retrieved row with
    a gain, DCG so far / ideal DCG so far (the ideal stops growing past its positive grades);
    each positive document not retrieved adds final DCG / ideal DCG; over the positive count."""
    running = _running_dcg(r)
    ideal_running, start, count = _ideal_running(r)
    total_ideal = np.where(count > 0, ideal_running[np.maximum(start + count - 1, 0)]
                           if len(ideal_running) else 0.0, 0.0)
    gain = _gains(r)
    rows = np.flatnonzero(gain > 0)
    q = r.query[rows]
    at = np.minimum(r.position[rows], count[q] - 1)
    ratio = running[rows] / ideal_running[start[q] + at]
    total: np.ndarray = np.bincount(q, weights=ratio, minlength=r.n_queries)
    found = np.bincount(q, minlength=r.n_queries)
    last = r.starts[1:] - 1
    final = np.where(r.starts[1:] > r.starts[:-1], running[np.maximum(last, 0)]
                     if len(running) else 0.0, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        total = total + (count - found).astype(np.float64) * final / total_ideal
    return np.where(total > 0, total / np.maximum(count, 1), 0.0)[None]


def r_ndcg(r: TrecRanking) -> np.ndarray:
    """Rndcg: nDCG averaged at the points where the ideal gain changes (each change of level
    among the positive grades and the drop to 0), plus at the end of a ranking longer than
    positives + 1; 0 when num_rel is 0."""
    running = _running_dcg(r)
    ideal_running, start, count = _ideal_running(r)
    grades, _, _ = r.ideal()
    n = r.n_queries
    ideal_pos = np.arange(len(grades)) - np.repeat(start, count)
    ideal_query = np.repeat(np.arange(n), count)
    # change points c in 1..P: ideal(c) != ideal(c - 1), with ideal(P) = 0
    nxt = np.r_[grades[1:], 0] if len(grades) else grades
    last_of_query = ideal_pos == count[ideal_query] - 1
    change = last_of_query | (grades != nxt)
    c = ideal_pos[change] + 1
    cq = ideal_query[change]
    idcg = ideal_running[start[cq] + c - 1]
    at = r.last_before(c, cq)  # DCG over the ranks above c (those there are)
    dcg = np.zeros(len(c))
    dcg[at >= 0] = running[at[at >= 0]]
    term = dcg / idcg
    # the end of a ranking longer than P + 1 (added after the changes, which all lie before)
    final_q = np.flatnonzero((count >= 1) & (r.num_ret > count + 1))
    final_dcg = np.where(r.starts[final_q + 1] > r.starts[final_q],
                         running[np.maximum(r.starts[final_q + 1] - 1, 0)]
                         if len(running) else 0.0, 0.0)
    final = final_dcg / ideal_running[start[final_q] + count[final_q] - 1]
    q_all = np.concatenate([cq, final_q])
    key = np.concatenate([c, np.full(len(final_q), np.iinfo(np.int64).max)])
    order = np.lexsort((key, q_all))
    terms = np.concatenate([term, final])[order]
    total = np.bincount(q_all[order], weights=terms, minlength=n)
    number = np.bincount(q_all, minlength=n).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = total / number
    return np.where(r.num_rel > 0, value, 0.0)[None]


def set_measures(r: TrecRanking, name: str, beta: float = 1.0) -> np.ndarray:
    """set_P, set_recall, set_relative_P, set_map, set_F over the whole retrieved set."""
    a, ret, rel = r.num_rel_ret, r.num_ret.astype(np.float64), r.num_rel
    if name == "set_P":
        return safe_divide(a, ret)[None]
    if name == "set_recall":
        return safe_divide(a, rel)[None]
    if name == "set_relative_P":
        return np.where((ret > 0) & (rel > 0), safe_divide(a, np.minimum(ret, rel)), 0.0)[None]
    if name == "set_map":
        return np.where((ret > 0) & (rel > 0), safe_divide(a * a, ret * rel), 0.0)[None]
    p, rc = safe_divide(a, ret), safe_divide(a, rel)
    with np.errstate(invalid="ignore", divide="ignore"):
        f = (beta + 1.0) * p * rc / (beta * p + rc)
    return np.where(a > 0, f, 0.0)[None]


def _powers(p: float, n: int) -> np.ndarray:
    """p^0, p^1, ... p^n as repeated multiplication gives them (trec_eval's cur_p)."""
    return np.cumprod(np.r_[1.0, np.full(n, p)])


def rbp(r: TrecRanking, p: float) -> np.ndarray:
    """rbp: (1 - p) * sum of gain * p^i over the ranking; the grades are the gains, divided by
    the query's highest judged grade when that is above 1 (trec_eval maps gains into [0, 1])."""
    powers = _powers(p, int(r.position.max(initial=0)) + 1)
    top = r.max_grade.astype(np.float64)
    gain = _gains(r)
    scaled = top[r.query] > 1
    gain[scaled] = gain[scaled] / top[r.query[scaled]]
    rows = gain != 0
    return ((1.0 - p) * r.per_query(rows, gain * powers[r.position]))[None]


def rbp_residual(r: TrecRanking, p: float) -> np.ndarray:
    """rbp_resid: p^num_ret + (1 - p) * sum of p^i over the unjudged ranks i (nonpool or
    unjudged documents), added in rank order, when there are some."""
    powers = _powers(p, int(r.num_ret.max(initial=0)) + 1)
    known = r.labels >= 0
    unknown = r.num_ret - r.per_query(known).astype(np.int64)
    out = np.zeros(r.n_queries)
    some = unknown > 0
    if not some.any():
        return out[None]
    total = np.zeros(r.n_queries)
    lengths = r.num_ret
    starts = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    # every rank of every ranking (nonpool documents have no row), the judged ones weigh 0;
    # queries taken a chunk at a time: the ranks of 7M documents as whole arrays would cost
    # more in fresh memory than the sum
    cuts = np.searchsorted(starts, np.arange(0, int(starts[-1]), _RANKS_AT_ONCE), side="right")
    bounds = np.concatenate(([0], cuts - 1, [r.n_queries]))
    bounds = bounds[np.concatenate(([True], bounds[1:] != bounds[:-1]))]  # np.unique: numpy.ma
    for qa, qb in itertools.pairwise(bounds.tolist()):
        first, count = int(starts[qa]), lengths[qa:qb]
        rank = np.arange(int(starts[qb]) - first, dtype=np.int64)
        rank -= np.repeat(starts[qa:qb] - first, count)
        weights = powers[rank]
        rows = slice(int(r.starts[qa]), int(r.starts[qb]))
        judged = known[rows]
        weights[starts[r.query[rows][judged]] - first + r.position[rows][judged]] = 0.0
        total[qa:qb] = np.bincount(np.repeat(np.arange(qb - qa), count), weights=weights,
                                   minlength=qb - qa)
    out[some] = powers[r.num_ret[some]] + (1 - p) * total[some]
    return out[None]
