"""Whatever the bytes, a reader returns a whole result or raises InputError: never anything else."""

from __future__ import annotations

import gzip

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ranklens.io import InputError, read_per_query, read_qrels, read_run, read_segments

VALID = {
    "run": b"q1 Q0 d1 1 2.5 tag\nq1 Q0 d2 2 1.5 tag\nq2 Q0 d1 1 0.5 tag\n",
    "qrels": b"q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 2\n",
    "csv": b"query_id,doc_id,score,relevance,segment\nq1,d1,0.5,1,a\nq1,d2,0.25,0,a\n",
    "per_query": b"query_id,ndcg,ap\nq1,0.5,0.1\nq2,0.25,0.2\n",
    "jsonl": b'{"qid": "q1", "docid": "d1", "score": 1, "rel": 1, "segment": "x"}\n',
}
READERS = [read_run, read_qrels, read_per_query, read_segments]


def mutate(data: bytes, edits: list[tuple[int, int]]) -> bytes:
    out = bytearray(data)
    for position, byte in edits:
        if out:
            out[position % len(out)] = byte
    return bytes(out)


def outcome(reader, data: bytes) -> None:
    try:
        reader(data, name="fuzz")
    except InputError as error:
        assert str(error).startswith("fuzz"), str(error)
        assert "unexpected" not in str(error), str(error)  # a bug, not a bad file


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(VALID)), st.lists(st.tuples(st.integers(0, 10**6),
                                                          st.integers(0, 255)), max_size=6),
       st.integers(0, 3), st.booleans(), st.integers(0, 200))
def test_mutated_files_read_whole_or_raise_input_error(kind, edits, reader_index, compress,
                                                      cut):
    data = mutate(VALID[kind], edits)
    if cut:
        data = data[:-cut] if cut < len(data) else data
    if compress:
        data = gzip.compress(data)
    outcome(READERS[reader_index], data)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300), st.integers(0, 3))
def test_random_bytes_read_whole_or_raise_input_error(data, reader_index):
    outcome(READERS[reader_index], data)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=" \t\n\r,;|\"'{}[]:0123456789.-eEnaifqdQ_abc\x00é", max_size=200),
       st.integers(0, 3))
def test_random_text_reads_whole_or_raises_input_error(text, reader_index):
    outcome(READERS[reader_index], text.encode("utf-8"))
