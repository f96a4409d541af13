"""The order a shuffled run is sorted into (``ordering.sort_blocks``) is numpy's lexsort's."""

from __future__ import annotations

import numpy as np
import pytest

from ranklens.metrics.ordering import _by_query_then_key, sort_blocks


@pytest.mark.parametrize("queries", [1, 3, 500, 70_000])
@pytest.mark.parametrize("rows", [0, 1, 7, 5_000])
def test_two_stable_sorts_give_lexsorts_order(queries, rows):
    rng = np.random.default_rng(queries + rows)
    codes = rng.integers(0, queries, rows).astype(np.int32)
    keys = np.round(rng.normal(size=rows), 1)
    keys[: rows // 10] = 0.0
    keys[rows // 10: rows // 5] = -0.0  # equal to 0.0: a tie kept in row order
    assert np.array_equal(_by_query_then_key(codes, keys), np.lexsort((-keys, codes)))


def test_a_shuffled_run_is_grouped_and_sorted():
    codes = np.array([2, 0, 2, 1, 0, 2], dtype=np.int32)
    keys = np.array([1.0, 3.0, 5.0, 2.0, 3.0, 1.0])
    order = sort_blocks(codes, keys)
    assert order.rows.tolist() == [1, 4, 3, 2, 0, 5]
    assert order.starts.tolist() == [0, 2, 3, 6]
