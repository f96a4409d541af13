"""64-bit keys of string ids (ranklens.data.id_keys) and the two places that trust them only
as far as the strings confirm: the readers' duplicate check and the trec_eval labels join."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.data import Qrels, Run, id_keys, two_threads
from ranklens.io import InputError, read_run
from ranklens.metrics import judgements
from ranklens.metrics.trec_eval import plan_measures
from ranklens.metrics.trec_lines import TrecOptions, trec_eval_output

# ids of every length around the 8 and 16 bytes the key reads, shared prefixes, non-ASCII
IDS = st.text(alphabet="ab\u00e9\u4e2d_0", min_size=0, max_size=20)

PER_QUERY = TrecOptions(per_query=True)  # trec_eval -q


@settings(max_examples=60, deadline=None)
@given(st.lists(IDS, min_size=0, max_size=40), st.integers(0, 3), st.booleans())
def test_equal_strings_get_equal_keys_and_every_repeat_is_a_candidate(values, cut, large):
    array = pa.array(["pad"] * cut + values, pa.large_string() if large else pa.string())
    array = array.slice(cut)  # offsets that do not start at 0
    salt = np.array([len(v) % 3 for v in values], dtype=np.int32)
    keys = id_keys.string_keys(array, salt=salt)
    by_pair: dict[tuple[int, str], int] = {}
    repeats = set()
    for row, (s, v) in enumerate(zip(salt.tolist(), values, strict=True)):
        if (s, v) in by_pair:
            assert keys[row] == keys[by_pair[(s, v)]]
            repeats |= {row, by_pair[(s, v)]}
        by_pair.setdefault((s, v), row)
    assert repeats <= set(id_keys.repeated_candidates(keys).tolist())
    # distinct strings get distinct keys (64 bits: a collision here would be a bad mix)
    assert len(set(keys.tolist())) == len(by_pair)


def test_codes_give_the_keys_of_the_strings_they_name():
    values = pa.array(["d1", "a-much-longer-document-id", "d1x", ""])
    codes = np.array([2, 0, 1, 0, 3, 1])
    salt = np.arange(6)
    rows = pa.array([values[c].as_py() for c in codes.tolist()])
    assert (id_keys.string_keys(values, salt=salt, codes=codes)
            == id_keys.string_keys(rows, salt=salt)).all()


@settings(max_examples=40, deadline=None)
@given(st.lists(IDS, min_size=0, max_size=30, unique=True), st.lists(IDS, max_size=60))
def test_matching_finds_each_left_key_in_the_right_side(right, left):
    right_keys = id_keys.string_keys(pa.array(right, pa.string()))
    left_keys = id_keys.string_keys(pa.array(left, pa.string()))
    rows, mates = id_keys.matching_candidates(left_keys, right_keys)
    assert sorted(zip(rows.tolist(), mates.tolist(), strict=True)) == [
        (i, right.index(v)) for i, v in enumerate(left) if v in right]


def test_a_short_left_side_with_a_repeated_key_is_matched_row_by_row():
    """The table of a short left side cannot hold a key twice: the sort matches them."""
    right = id_keys.string_keys(pa.array([f"d{i}" for i in range(40)]))
    left = id_keys.string_keys(pa.array(["d3", "x", "d3", "d39"]))
    rows, mates = id_keys.matching_candidates(left, right)
    assert sorted(zip(rows.tolist(), mates.tolist(), strict=True)) == [(0, 3), (2, 3), (3, 39)]
    rows, mates = id_keys.matching_candidates(left[1:], right)  # distinct: by the table
    assert sorted(zip(rows.tolist(), mates.tolist(), strict=True)) == [(1, 3), (2, 39)]


def test_matching_refuses_a_right_side_with_a_repeated_key():
    keys = id_keys.string_keys(pa.array(["x", "y", "x"]))
    with pytest.raises(ValueError, match="share a key"):
        id_keys.matching_candidates(keys[:1], keys)


def _keys_sharing_top_bits(rng: np.random.Generator, n: int, tops: int) -> np.ndarray:
    """``n`` distinct keys whose top 22 bits take only ``tops`` values: most share a slot."""
    top = rng.integers(0, 1 << 22, size=tops, dtype=np.uint64)[rng.integers(0, tops, size=n)]
    low = rng.choice(1 << 40, size=n, replace=False).astype(np.uint64)
    return (top << np.uint64(42)) | low


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 400), st.integers(1, 50), st.integers(0, 2**32 - 1), st.booleans())
def test_matching_a_long_left_side_by_slots_finds_every_key(n_right, tops, seed, small):
    with pytest.MonkeyPatch.context() as patch:
        if small:  # the look-up in chunks of 7 rows, on two threads: the big case's loop
            patch.setattr(id_keys, "_CHUNK", 7)
            patch.setattr(two_threads, "PARALLEL_FROM", 16)
        _check_matching_by_slots(n_right, tops, seed)


def _check_matching_by_slots(n_right: int, tops: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    keys = _keys_sharing_top_bits(rng, 2 * n_right, tops)
    right, absent = keys[:n_right], keys[n_right:]  # absent ones share the slots of right
    left = np.concatenate((right[rng.integers(0, n_right, size=4 * n_right + 7)],
                           absent[rng.integers(0, n_right, size=n_right)]))
    rng.shuffle(left)
    assert len(left) > 4 * len(right)  # the table path
    rows, mates = id_keys.matching_candidates(left, right)
    where = {int(k): i for i, k in enumerate(right)}
    assert sorted(zip(rows.tolist(), mates.tolist(), strict=True)) == [
        (i, where[int(k)]) for i, k in enumerate(left) if int(k) in where]


def test_matching_by_slots_refuses_a_repeated_right_key():
    rng = np.random.default_rng(3)
    top = rng.choice(1 << 10, size=200, replace=False).astype(np.uint64)  # 1,024 slots here
    right = (top << np.uint64(54)) | rng.integers(0, 1 << 54, size=200, dtype=np.uint64)
    right[-1] = right[0]  # the repeat is the one crowded slot
    left = right[rng.integers(1, 100, size=1000)]  # no left row looks the repeat up
    assert not np.isin(left, right[0]).any()
    with pytest.raises(ValueError, match="share a key"):
        id_keys.matching_candidates(left, right)


def _colliding(query_codes, values, codes):
    """Every pair gets the same key: only the confirmation on the strings is left."""
    return np.zeros(len(codes), dtype=np.uint64)


def test_duplicates_are_found_on_the_strings_when_every_key_collides(monkeypatch):
    monkeypatch.setattr("ranklens.io.runs.pair_keys", _colliding)
    monkeypatch.setattr("ranklens.io.build.pair_keys", _colliding)
    rows = "".join(f"q{q} Q0 d{d} {d} {10 - d} t\n" for q in range(3) for d in range(5))
    run, _ = read_run(rows.encode())
    assert len(run) == 15
    with pytest.raises(InputError, match=r"query 'q1' lists document 'd3' 2 times"):
        read_run((rows + "q1 Q0 d3 9 0.5 t\n").encode())


def _case() -> tuple[Run, Qrels]:
    rng = np.random.default_rng(7)
    run_rows, qrels_rows = [], []
    for q in range(20):
        docs = rng.choice(80, size=40, replace=False)
        run_rows += [(f"q{q}", f"doc-{d:03d}", float(rng.integers(0, 6))) for d in docs]
        qrels_rows += [(f"q{q}", f"doc-{d:03d}", int(rng.integers(-1, 4)))
                       for d in rng.choice(80, size=30, replace=False)]
    return Run.from_columns(*zip(*run_rows, strict=True)), \
        Qrels.from_columns(*zip(*qrels_rows, strict=True))


def test_labels_are_the_same_when_keys_collide_and_the_strings_decide(monkeypatch):
    run, qrels = _case()
    plan = plan_measures(["all_trec"])
    want = trec_eval_output(run, qrels, plan, PER_QUERY).text
    monkeypatch.setattr(judgements, "pair_keys", _colliding)  # the hash fallback
    monkeypatch.setattr(judgements, "row_keys", lambda table, rows: np.zeros(
        len(table) if rows is None else len(rows), dtype=np.uint64))
    assert trec_eval_output(run, qrels, plan, PER_QUERY).text == want

    def lying(left, right):  # every row the keys match to nothing matched to some pair
        rows, mates = id_keys.matching_candidates(left, right)
        found = np.full(len(left), -1)
        found[rows] = mates
        alone = found < 0
        found[alone] = np.arange(int(alone.sum())) % len(right)
        return np.arange(len(left)), found

    monkeypatch.undo()
    monkeypatch.setattr(judgements, "matching_candidates", lying)
    assert trec_eval_output(run, qrels, plan, PER_QUERY).text == want

    def no_match(left, right):  # keys that match nothing the strings would
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)

    monkeypatch.undo()
    monkeypatch.setattr(judgements, "matching_candidates", no_match)
    assert trec_eval_output(run, qrels, plan, PER_QUERY).text != want


def test_a_read_run_scores_as_the_same_rows_built_in_memory(monkeypatch):
    """The reader's keys, kept with the run, join the qrels as keys made afresh do."""
    import pickle

    from ranklens.io import build

    monkeypatch.setattr(build, "BLOCK_SIZE", 256)  # many reader blocks: ids one per row
    run, qrels = _case()
    text = "".join(f"{q} Q0 {d} 1 {s} t\n" for q, d, s in zip(
        run.queries.take(pa.array(run.query_codes)).to_pylist(),
        run.docs.take(pa.array(run.doc_codes)).to_pylist(), run.scores.tolist(), strict=True))
    read, _ = read_run(text.encode())
    assert "row_keys" in read._memo and not read.docs.equals(run.docs)
    plan = plan_measures(["all_trec"])
    want = trec_eval_output(run, qrels, plan, PER_QUERY, run_tag="t").text
    assert trec_eval_output(read, qrels, plan, PER_QUERY, run_tag="t").text == want
    copy = pickle.loads(pickle.dumps(read))
    assert copy._memo == {}  # what the memo derived is not pickled
    assert trec_eval_output(copy, qrels, plan, PER_QUERY).text == \
        trec_eval_output(read, qrels, plan, PER_QUERY).text


@settings(max_examples=80, deadline=None)
@given(st.lists(IDS, min_size=0, max_size=60), st.booleans())
def test_unique_ids_equal_pyarrows_dictionary_encoding(values, collide):
    from ranklens.io import build

    ids = build.Ids(np.arange(len(values), dtype=np.int32), pa.array(values, pa.string()),
                    unique=False)
    if collide:  # every key equal: the strings refuse the grouping and pyarrow encodes
        ids_of = build.string_keys
        build.string_keys = lambda array, **_: np.zeros(len(array), np.uint64)  # type: ignore
    try:
        got = build.unique_ids(ids)
    finally:
        if collide:
            build.string_keys = ids_of  # type: ignore
    encoded = pc.dictionary_encode(pa.array(values, pa.string()))
    assert got.values.to_pylist() == encoded.dictionary.to_pylist()  # first use order
    assert got.codes.tolist() == encoded.indices.to_pylist()


# long ids that differ in the middle: ClueWeb's segment (the default key reads only the first
# and last 8 bytes, so clueweb09-en0000-00-00001 and clueweb09-en0001-00-00001 share one), and
# a long prefix before ids that differ in their last 8 bytes (the 21M-row case's shape)
LONG_IDS = [f"clueweb09-en{segment:04d}-{d:02d}-{n:05d}" for segment in range(0, 40, 3)
            for d in (0, 7, 93) for n in range(0, 90_000, 997)] + [
    f"doc-collection-2026-shard-07-q{q:06d}_d{d}" for q in range(0, 40_000, 97)
    for d in range(0, 1000, 7)]


def test_every_byte_keys_tell_long_ids_that_differ_in_the_middle_apart():
    array = pa.array(LONG_IDS, pa.string())
    default = id_keys.string_keys(array)
    every = id_keys.string_keys(array, every_byte=True)
    assert len(np.unique(default)) < len(LONG_IDS)  # the case: the first and last bytes share
    assert len(np.unique(every)) == len(LONG_IDS)
    short = pa.array([v[29:] for v in LONG_IDS[:500]] + ["", "a", "x" * 16], pa.string())
    assert np.array_equal(id_keys.string_keys(short, every_byte=True),
                          id_keys.string_keys(short))  # 16 bytes or fewer: the same keys


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="ab_0", min_size=15, max_size=45), max_size=40), st.booleans())
def test_every_byte_keys_give_equal_strings_equal_keys_and_distinct_ones_distinct(values,
                                                                                   large):
    array = pa.array(["pad", *values], pa.large_string() if large else pa.string()).slice(1)
    keys = id_keys.string_keys(array, every_byte=True).tolist()
    first: dict[str, int] = {}
    for value, key in zip(values, keys, strict=True):
        assert key == first.setdefault(value, key)
    assert len(set(keys)) == len(first)


def test_unique_ids_of_long_prefixed_ids_need_no_hash_table(monkeypatch):
    """The qrels' document ids are grouped by their keys alone: pyarrow's dictionary encoding
    (its hash table held about 450 MB for the 1.9M long ids of the 21M-row case) is not
    called."""
    from ranklens.io import build

    def refused(*args, **kwargs):
        raise AssertionError("dictionary_encode called")

    values = [*LONG_IDS, *LONG_IDS[::3]]
    ids = build.Ids(np.arange(len(values), dtype=np.int32), pa.array(values, pa.string()),
                    unique=False)
    monkeypatch.setattr(build.pc, "dictionary_encode", refused)
    got = build.unique_ids(ids)
    assert got.values.to_pylist() == LONG_IDS
    assert got.codes.tolist() == [*range(len(LONG_IDS)), *range(0, len(LONG_IDS), 3)]


def test_distinct_keys_numbers_codes_by_first_row():
    codes, first = id_keys.distinct_keys(np.array([9, 3, 9, 7, 3, 3], dtype=np.uint64))
    assert codes.tolist() == [0, 1, 0, 2, 1, 1]
    assert first.tolist() == [0, 1, 3]


def _distinct_by_unique(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """distinct_keys by np.unique, to check against."""
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    code_of = np.empty(len(first), dtype=np.int64)
    code_of[np.argsort(first)] = np.arange(len(first))
    return code_of[inverse.ravel()], np.sort(first)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 7), min_size=0, max_size=80), st.integers(0, 2**64 - 1),
       st.sampled_from([0, 1, 2]))
def test_distinct_keys_equal_a_unique_based_reference(picks, seed, shape):
    rng = np.random.default_rng(seed % 2**32)
    pool = rng.integers(0, 2**64, size=8, dtype=np.uint64)
    if shape:  # keys that differ only in their low bits share the top bits the sort keeps
        low = np.uint64(0xFFFF if shape == 1 else 0x3)
        pool[: 4 * shape] = (pool[0] & ~low) | (pool[: 4 * shape] & low)
    keys = pool[np.array(picks, dtype=np.int64)]
    codes, first = id_keys.distinct_keys(keys)
    want_codes, want_first = _distinct_by_unique(keys)
    assert codes.dtype == np.int32 and first.dtype == np.int64
    assert codes.tolist() == want_codes.tolist() and first.tolist() == want_first.tolist()


def test_distinct_keys_of_many_keys_some_sharing_top_bits():
    rng = np.random.default_rng(3)
    keys = rng.integers(0, 2**64, size=50_000, dtype=np.uint64)
    keys[:300] = (keys[0] & ~np.uint64(0xFFFF)) | (keys[:300] & np.uint64(0xFFFF))
    keys = keys[rng.integers(0, len(keys), size=120_000)]  # repeats, scattered
    codes, first = id_keys.distinct_keys(keys)
    want_codes, want_first = _distinct_by_unique(keys)
    assert np.array_equal(codes, want_codes) and np.array_equal(first, want_first)


def test_unique_ids_refuses_keys_that_group_different_strings():
    from ranklens.io import build

    values = ["d1", "d2", "d1", "d3", "d2"]
    ids = build.Ids(np.array([4, 0, 1, 3], dtype=np.int32), pa.array(values, pa.string()),
                    unique=False)
    keys_of = build.string_keys
    # d1 and d3 share a key: the grouping would merge them, the strings refuse
    build.string_keys = lambda array, **_: np.array([1, 2, 1, 1, 2], np.uint64)  # type: ignore
    try:
        got = build.unique_ids(ids)
    finally:
        build.string_keys = keys_of  # type: ignore
    assert got.values.to_pylist() == ["d1", "d2", "d3"]
    assert got.codes.tolist() == [1, 0, 1, 2]


@settings(max_examples=40, deadline=None)
@given(st.lists(IDS, min_size=0, max_size=40), st.booleans())
def test_keys_do_not_depend_on_chunks_or_threads(values, salted):
    array = pa.array(values, pa.string())
    salt = np.arange(len(values), dtype=np.int64) % 5 if salted else None
    whole = id_keys.string_keys(array, salt=salt)
    candidates = id_keys.repeated_candidates(whole)
    chunk, parallel = id_keys._CHUNK, two_threads.PARALLEL_FROM
    id_keys._CHUNK, two_threads.PARALLEL_FROM = 3, 4  # many chunks, two threads, a merge
    try:
        assert np.array_equal(id_keys.string_keys(array, salt=salt), whole)
        assert np.array_equal(id_keys.repeated_candidates(whole), candidates)
    finally:
        id_keys._CHUNK, two_threads.PARALLEL_FROM = chunk, parallel


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), IDS), min_size=0, max_size=60), st.booleans(),
       st.integers(1, 5), st.sampled_from([1 << 16, 1, 7]))
def test_repeats_within_groups_are_found_group_by_group(rows, contiguous, piece, stretch):
    """Rows grouped by query (the usual run) are sorted piece by piece; rows whose groups
    come back (an interleaved run) by the one sort: both find every repeat in a group."""
    if contiguous:
        rows = sorted(rows, key=lambda row: row[0])
    groups = np.array([g for g, _ in rows], dtype=np.int32)
    array = pa.array([v for _, v in rows], pa.string())
    keys = id_keys.string_keys(array, salt=groups)
    seen: dict[tuple[int, str], int] = {}
    repeats = set()
    for row, pair in enumerate(rows):
        if pair in seen:
            repeats |= {row, seen[pair]}
        seen.setdefault(pair, row)
    with pytest.MonkeyPatch.context() as patch:  # many pieces, two threads, short stretches
        patch.setattr(id_keys, "_PIECE", piece)
        patch.setattr(two_threads, "PARALLEL_FROM", 4)
        patch.setattr(id_keys, "_CHUNK", stretch)
        found = id_keys.repeated_candidates(keys, groups)
    assert repeats <= set(found.tolist())
    assert found.tolist() == sorted(set(found.tolist()))
    # 64-bit keys of distinct pairs do not collide here: the candidates are the repeats
    assert set(found.tolist()) == repeats
    cuts = id_keys._contiguous_pieces(groups) if len(groups) else None
    if len(groups) and len(set(groups.tolist())) < len(
            [g for i, g in enumerate(groups.tolist()) if i == 0 or g != groups[i - 1]]):
        assert cuts is None  # a group that comes back is not cut into pieces
    elif len(groups):
        assert cuts is not None and cuts[0] == 0 and cuts[-1] == len(groups)
        assert all(groups[c] != groups[c - 1] for c in cuts[1:-1])  # cut at group starts


def test_contiguous_pieces_cut_at_group_starts_after_each_piece_size():
    groups = np.repeat(np.array([3, 1, 2, 0]), [2, 3, 1, 4])  # rows 0-1, 2-4, 5, 6-9
    pieces = id_keys._PIECE
    id_keys._PIECE = 4
    try:
        assert id_keys._contiguous_pieces(groups).tolist() == [0, 5, 10]
        assert id_keys._contiguous_pieces(np.array([0, 0, 1, 0])) is None
    finally:
        id_keys._PIECE = pieces


def test_a_left_key_equal_to_one_of_right_keys_sharing_their_top_bits_is_matched():
    """Right keys that agree on the bits the one sort compares (all but the low ones that hold
    the row) are told apart by the whole key: a left key equal to the first of them is found
    (it was lost when the nearest right key before it in the sort was another of them)."""
    from ranklens.data.id_keys import _match_sorted

    rng = np.random.default_rng(5)
    tops = rng.integers(0, 1 << 20, 300, dtype=np.uint64) << np.uint64(40)
    right = np.unique(tops[rng.integers(0, 300, 2_000)]
                      | rng.integers(0, 1 << 12, 2_000, dtype=np.uint64))
    left = np.concatenate((right[rng.integers(0, len(right), 5_000)],
                           rng.integers(0, 1 << 63, 1_000, dtype=np.uint64)))
    found, mate = _match_sorted(left, right)
    expected = {i: int(np.flatnonzero(right == key)[0]) for i, key in enumerate(left)
                if key in set(right.tolist())}
    assert dict(zip(found.tolist(), mate.tolist(), strict=True)) == expected
