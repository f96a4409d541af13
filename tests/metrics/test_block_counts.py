"""Two shortcuts of the 7M-row pass against their plain definitions: how many rows each query
code has (``data.tables.count_codes``) and where a tie group straddling a cutoff ends
(``metrics.ordering.tie_ends``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.data import tables
from ranklens.metrics.ordering import tie_ends


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(1, 30)), min_size=1, max_size=30),
       st.integers(0, 5), st.booleans())
def test_count_codes_is_bincount(runs, extra, shuffle):
    """Runs of codes (one per code, or codes that come back), shuffled or not, with codes
    beyond ``size`` too: the counts bincount gives."""
    codes = np.repeat(np.array([c for c, _ in runs], dtype=np.int32), [n for _, n in runs])
    if shuffle:
        codes = np.random.default_rng(len(codes)).permutation(codes)
    size = max(int(codes.max()) + 1 - extra, 0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tables, "_COUNT_CHUNK", 64)  # chunks and run lengths past 64 codes
        got = tables.count_codes(codes, size)
    assert got.tolist() == np.bincount(codes, minlength=size).tolist()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from([3.0, 2.5, 2.0, 1.0, -1.0]), min_size=1,
                         max_size=40), min_size=1, max_size=8), st.data())
def test_tie_ends_is_the_first_lower_key_of_the_block(blocks, data):
    keys = np.concatenate([np.sort(np.array(b))[::-1] for b in blocks])
    bounds = np.cumsum([0] + [len(b) for b in blocks])
    block = np.array([data.draw(st.integers(0, len(blocks) - 1)) for _ in range(5)])
    positions = np.array([data.draw(st.integers(int(bounds[b]), int(bounds[b + 1]) - 1))
                          for b in block.tolist()])
    ends = bounds[block + 1]
    want = []
    for p, end in zip(positions.tolist(), ends.tolist(), strict=True):
        q = p
        while q < end and keys[q] == keys[p]:
            q += 1
        want.append(q)
    assert tie_ends(keys, positions, ends).tolist() == want
