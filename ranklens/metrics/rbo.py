"""Rank-biased overlap between two runs' rankings of the same queries (Webber et al. 2010).

``rbo(run_a, run_b, p=0.9, depth=None)`` answers "how similar are the two orderings", per query,
without judgements: 1 for identical rankings, 0 for rankings with no document in common. It
does not say which ranking is better (that is ``evaluate`` and ``ranklens.stats``).

The value is the extrapolated RBO (RBO_ext, eq. 32 of Webber, Moffat & Zobel, "A similarity
measure for indefinite rankings", TOIS 2010), which handles rankings of different lengths:

    RBO_ext = (1-p)/p * (sum_{d=1..l} X_d/d p^d + sum_{d=s+1..l} X_s (d-s)/(s d) p^d)
              + ((X_l - X_s)/l + X_s/s) p^l

with s and l the shorter and longer ranking's lengths and X_d the number of documents the two
rankings share in their first d positions (for d > s the whole shorter ranking).

Ties: each ranking is first made tie-free in trec_eval's order (score descending, then
document id descending by bytes; or the rank column with ``order="rank"``), the same order the
metrics use. The tie-aware variant of the paper is not implemented.

Queries: only queries ranked by both runs get a value; ``depth`` cuts both rankings to their
first ``depth`` documents before comparing (RBO of the prefixes, still extrapolated).
Everything runs vectorised over all queries.
"""

from __future__ import annotations

import numpy as np

from ranklens.data import MetricResult, Run
from ranklens.metrics.arrow import codes_in, take
from ranklens.metrics.ordering import (
    ordering_keys,
    sort_blocks,
    tie_break_permutation,
    top_positions,
)


def ranked_rows(run: Run, depth: int | None, order: str) -> tuple[np.ndarray, np.ndarray]:
    """Each query's rows in trec_eval's order, tie-free, cut at ``depth``.

    Returns (run row indices, block boundaries); block ``b`` holds the rows of run query code
    ``run.query_codes[rows[starts[b]]]``.
    """
    keys = ordering_keys(run, order)
    blocks = sort_blocks(run.query_codes, keys)
    limit = np.iinfo(np.int64).max if depth is None else depth
    positions, starts = top_positions(blocks, np.full(len(blocks.lengths), limit))
    rows = blocks.run_rows(positions)
    every_row_distinct = np.arange(len(rows), dtype=np.int64)
    permutation = tie_break_permutation(
        blocks.keys[positions], starts, every_row_distinct,
        lambda tied: take(run.docs, run.doc_codes[rows[tied]]),
    )
    if permutation is not None:
        rows = rows[permutation]
    if depth is not None:  # the tie group straddling the depth was kept whole: cut it now
        lengths = np.diff(starts)
        rank = np.arange(len(rows)) - np.repeat(starts[:-1], lengths)
        rows = rows[rank < depth]
        starts = np.concatenate(([0], np.cumsum(np.minimum(lengths, depth)))).astype(np.int64)
    return rows, starts


def rbo(
    run_a: Run,
    run_b: Run,
    p: float = 0.9,
    depth: int | None = None,
    *,
    order: str = "score",
) -> MetricResult:
    """Per-query extrapolated RBO between ``run_a`` and ``run_b`` (mean: ``.mean``).

    ``p`` (0 < p < 1) is the persistence: the weight of the top d positions is 1 - p^d, so
    p=0.9 puts about 86% of the weight on the first 10. Named ``RBO(p=0.9)`` or
    ``RBO(p=0.9)@depth``; ``run`` is ``"<a> vs <b>"``.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must lie strictly between 0 and 1, not {p}")
    if depth is not None and depth < 1:
        raise ValueError(f"depth must be a positive integer or None, not {depth}")
    name = f"RBO(p={p:g})" + ("" if depth is None else f"@{depth}")
    label = f"{run_a.name} vs {run_b.name}"
    rows_a, starts_a = ranked_rows(run_a, depth, order)
    rows_b, starts_b = ranked_rows(run_b, depth, order)

    # queries of b in a's query codes; dense index over queries ranked by both
    a_code_of_b = codes_in(run_b.queries, run_a.queries)
    block_query_a = run_a.query_codes[rows_a[starts_a[:-1]]].astype(np.int64)
    block_query_b = a_code_of_b[run_b.query_codes[rows_b[starts_b[:-1]]]]
    common = np.intersect1d(block_query_a, block_query_b[block_query_b >= 0])
    if not len(common):
        return MetricResult(name, {}, run=label)
    index_of_a_code = np.full(len(run_a.queries), -1, dtype=np.int64)
    index_of_a_code[common] = np.arange(len(common))

    length_a = np.zeros(len(common), dtype=np.int64)
    length_b = np.zeros(len(common), dtype=np.int64)
    qa, qb = index_of_a_code[block_query_a], np.full(len(block_query_b), -1, dtype=np.int64)
    qb[block_query_b >= 0] = index_of_a_code[block_query_b[block_query_b >= 0]]
    length_a[qa[qa >= 0]] = np.diff(starts_a)[qa >= 0]
    length_b[qb[qb >= 0]] = np.diff(starts_b)[qb >= 0]

    # documents as canonical codes in a's dictionary (b's unknown ids after all of a's)
    docs_a = codes_in(take(run_a.docs, run_a.doc_codes[rows_a]), run_a.docs)
    strings_b = take(run_b.docs, run_b.doc_codes[rows_b])
    docs_b = codes_in(strings_b, run_a.docs)
    unknown = np.flatnonzero(docs_b < 0)
    if len(unknown):
        docs_b[unknown] = len(run_a.docs) + codes_in(take(strings_b, unknown), run_b.docs)

    query_a = np.repeat(qa, np.diff(starts_a))
    query_b = np.repeat(qb, np.diff(starts_b))
    rank_a = np.arange(len(rows_a)) - np.repeat(starts_a[:-1], np.diff(starts_a)) + 1
    rank_b = np.arange(len(rows_b)) - np.repeat(starts_b[:-1], np.diff(starts_b)) + 1
    keep_a, keep_b = query_a >= 0, query_b >= 0
    n_docs = len(run_a.docs) + len(run_b.docs)
    key_a = query_a[keep_a] * n_docs + docs_a[keep_a]
    key_b = query_b[keep_b] * n_docs + docs_b[keep_b]
    shared_a, in_a, in_b = np.intersect1d(key_a, key_b, assume_unique=True, return_indices=True)
    shared_query = shared_a // n_docs
    deepest = np.maximum(rank_a[keep_a][in_a], rank_b[keep_b][in_b])  # in both from here on

    short = np.minimum(length_a, length_b)
    long_ = np.maximum(length_a, length_b)
    powers = p ** np.arange(1, int(long_.max()) + 1, dtype=np.float64)
    h = np.concatenate(([0.0], np.cumsum(powers / np.arange(1, len(powers) + 1))))
    g = np.concatenate(([0.0], np.cumsum(powers)))
    n_common = len(common)
    # sum_d X_d p^d / d = sum over shared documents of (H(l) - H(m - 1))
    overlap_sum = np.bincount(shared_query, weights=h[long_[shared_query]] - h[deepest - 1],
                              minlength=n_common)
    x_short = np.bincount(shared_query[deepest <= short[shared_query]], minlength=n_common)
    x_long = np.bincount(shared_query, minlength=n_common).astype(np.float64)
    tail = (g[long_] - g[short]) - short * (h[long_] - h[short])
    extrapolated = (1 - p) / p * (overlap_sum + x_short / short * tail)
    extrapolated += ((x_long - x_short) / long_ + x_short / short) * p ** long_
    query_ids = take(run_a.queries, common).to_pylist()
    return MetricResult(name, dict(zip(query_ids, extrapolated.tolist(), strict=True)),
                        run=label)
