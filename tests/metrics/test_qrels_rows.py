"""The judgements of a few queries (`trec_lines.rows_of_queries`, what each piece of a run read
in pieces scores against): the rows one pass over every judgement gives, without that pass."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.data import Qrels
from ranklens.metrics.trec_lines import rows_of_queries


def _qrels(codes: list[int], n_queries: int) -> Qrels:
    n = len(codes)
    return Qrels(np.array(codes, dtype=np.int32), pa.array([f"q{i}" for i in range(n_queries)]),
                 np.arange(n, dtype=np.int32), pa.array([f"d{i}" for i in range(n)]),
                 relevance=np.ones(n, dtype=np.int64))


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 12).flatmap(lambda q: st.tuples(
    st.just(q), st.lists(st.integers(0, q - 1), max_size=60),
    st.lists(st.booleans(), min_size=q, max_size=q))), st.booleans())
def test_the_rows_of_the_marked_queries_in_file_order(case, grouped):
    n_queries, codes, marks = case
    if grouped:  # the usual qrels file: codes numbered in order of first use never go down
        codes = sorted(codes)
    qrels = _qrels(codes, n_queries)
    keep = np.array(marks, dtype=bool)
    want = np.flatnonzero(keep[qrels.query_codes]).tolist()
    assert rows_of_queries(qrels, keep).tolist() == want
    assert rows_of_queries(qrels, keep).tolist() == want  # again, from the memo


def test_few_queries_are_found_by_the_grouping_kept_with_the_table():
    rng = np.random.default_rng(5)
    codes = rng.integers(0, 400, size=5_000)
    for grouped in (True, False):
        qrels = _qrels(sorted(codes) if grouped else codes.tolist(), 400)
        keep = np.zeros(400, dtype=bool)
        keep[[3, 17, 399]] = True
        rows = rows_of_queries(qrels, keep)
        assert rows.tolist() == np.flatnonzero(keep[qrels.query_codes]).tolist()
        order, starts = qrels._memo["rows_by_query"]
        assert (order is None) == grouped and starts[-1] == 5_000
