"""The pairing on sorted id arrays equals a plain pairing through dicts and sets (issue 26).

`ranklens.stats.pairing.align` pairs two runs by guessing each id's place in the other run and
checking it (`_partners`), with look-ups every `_BLOCK` ids; these properties hold it to the
obvious pairing for any two sets of ids, with the block at its size and at sizes that put many
blocks into a few dozen ids.
"""

from __future__ import annotations

from unittest import mock

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.data import MetricResult
from ranklens.stats import pairing
from ranklens.stats.pairing import pair_quietly

# ids from a small pool so that the two runs share many, with long and short runs of gaps;
# a few with shared prefixes, non-ASCII and NUL characters, which order as Python orders them
POOL = [f"q{i:03d}" for i in range(400)] + ["q", "q0", "q00\x00", "q\u00e9", "\u00e9", "Q1"]
runs = st.lists(st.sampled_from(POOL), unique=True, max_size=300)


def _plain(ids_a: list[str], ids_b: list[str]) -> tuple[list[str], list[str], list[str]]:
    """Shared, only-A and only-B ids, sorted, the obvious way."""
    shared = set(ids_a) & set(ids_b)
    return sorted(shared), sorted(set(ids_a) - shared), sorted(set(ids_b) - shared)


def _check(ids_a: list[str], ids_b: list[str]) -> None:
    values_a = {q: float(i) for i, q in enumerate(ids_a)}
    values_b = {q: 1000.0 + i for i, q in enumerate(ids_b)}
    paired = pair_quietly(MetricResult("m", values_a), MetricResult("m", values_b),
                          min_queries=0)
    shared, only_a, only_b = _plain(ids_a, ids_b)
    assert paired.queries.tolist() == shared
    assert paired.a.tolist() == [values_a[q] for q in shared]
    assert paired.b.tolist() == [values_b[q] for q in shared]
    assert paired.only_a.tolist() == only_a
    assert paired.only_b.tolist() == only_b


@settings(max_examples=300, deadline=None)
@given(runs, runs)
def test_pairing_equals_the_dict_pairing(ids_a: list[str], ids_b: list[str]) -> None:
    _check(ids_a, ids_b)


@settings(max_examples=300, deadline=None)
@given(runs, runs, st.sampled_from([1, 2, 3, 5]))
def test_pairing_equals_the_dict_pairing_with_small_blocks(ids_a: list[str], ids_b: list[str],
                                                           block: int) -> None:
    with mock.patch.object(pairing, "_BLOCK", block):
        _check(ids_a, ids_b)


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(0, 5000), max_size=400), st.data())
def test_runs_that_drop_a_few_queries_pair_exactly(kept: set[int], data: st.DataObject) -> None:
    # the usual case: one query set, each run missing a few (the guesses hold for long)
    ids = [f"q{i:05d}" for i in sorted(kept)]
    drop_a = data.draw(st.sets(st.sampled_from(ids), max_size=10) if ids else st.just(set()))
    drop_b = data.draw(st.sets(st.sampled_from(ids), max_size=10) if ids else st.just(set()))
    with mock.patch.object(pairing, "_BLOCK", 4):
        _check([q for q in ids if q not in drop_a], [q for q in ids if q not in drop_b])
    _check([q for q in ids if q not in drop_a], [q for q in ids if q not in drop_b])


def test_a_million_queries_with_one_percent_unpaired_pair_exactly() -> None:
    # bench/bench_pairing.py's case: every 100th id only in A, every 100th + 1 only in B
    n = 200_000
    ids = np.array([f"q{i:07d}" for i in range(n)], dtype=object)
    keep_a, keep_b = np.ones(n, dtype=bool), np.ones(n, dtype=bool)
    keep_a[1::100] = False
    keep_b[::100] = False
    partners = pairing._partners(ids[keep_a], ids[keep_b])
    assert partners is not None  # the guessing path, not the merge
    expected = np.searchsorted(ids[keep_b], ids[keep_a])
    found = np.isin(np.flatnonzero(keep_a), np.flatnonzero(keep_b))
    assert (partners[found] == expected[found]).all() and (partners[~found] == -1).all()
    assert int(found.sum()) == n - 2 * n // 100
