"""Reading good input: every format, ids as strings, tolerated quirks, and the summary."""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.data import two_threads
from ranklens.io import (
    InputError,
    read_per_query,
    read_qrels,
    read_run,
    read_segments,
)
from ranklens.io import build as io_build
from tests.support.make_data import make_world

RUN = b"q1 Q0 d1 1 2.5 tag\nq1 Q0 d2 2 1.5 tag\nq2 Q0 d1 1 0.5 tag\n"
RUN_DICT = {"q1": {"d1": 2.5, "d2": 1.5}, "q2": {"d1": 0.5}}


@pytest.fixture(scope="module")
def small_data(tmp_path_factory) -> Path:
    return make_world(tmp_path_factory.mktemp("small"), "--queries", "50", "--depth", "20")


@pytest.fixture
def tiny_blocks(monkeypatch):
    """Blocks of a few rows, so every id dictionary is split over many reader blocks, and
    work split between two threads from a few rows on (the halves' copies and sorts)."""
    monkeypatch.setattr(io_build, "BLOCK_SIZE", 64)
    monkeypatch.setattr(two_threads, "PARALLEL_FROM", 4)


def test_trec_run_matches_pytrec_eval(small_data):
    run, summary = read_run(small_data / "run_a.trec")
    with open(small_data / "run_a.trec") as handle:
        assert run.to_dict() == pytrec_eval.parse_run(handle)
    assert summary.format == "trec-run"
    assert (summary.rows, summary.queries) == (1000, 50)
    assert run.name == "run_a"


def test_trec_qrels_match_pytrec_eval(small_data):
    qrels, summary = read_qrels(small_data / "qrels.trec")
    with open(small_data / "qrels.trec") as handle:
        assert qrels.to_dict() == pytrec_eval.parse_qrel(handle)
    assert summary.documents == len(qrels.docs) == qrels.n_docs


def test_big_reader_blocks_give_the_same_run(small_data, tiny_blocks):
    run, _ = read_run(small_data / "run_b.trec")
    with open(small_data / "run_b.trec") as handle:
        assert run.to_dict() == pytrec_eval.parse_run(handle)
    assert run.n_queries == 50


def test_ids_stay_strings():
    run, _ = read_run(b"007 Q0 001 1 1 t\n7 Q0 1 1 2 t\n")
    assert run.to_dict() == {"007": {"001": 1.0}, "7": {"1": 2.0}}
    frame_run, _ = read_run(b"query_id,doc_id,score\n007,001,1\n7,1,2\n")
    assert frame_run.to_dict() == run.to_dict()


def test_numeric_ids_in_parquet_and_jsonl_become_text():
    table = pa.table({"qid": [7, 7], "docid": [1, 2], "score": [0.5, 0.25]})
    sink = io.BytesIO()
    pq.write_table(table, sink)
    run, summary = read_run(sink.getvalue())
    assert run.to_dict() == {"7": {"1": 0.5, "2": 0.25}}
    assert summary.format == "parquet"
    jsonl = b'{"qid": 7, "docid": "a", "score": 1}\n{"qid": 7, "docid": "b", "score": 2.5}\n'
    run, summary = read_run(jsonl)
    assert run.to_dict() == {"7": {"a": 1.0, "b": 2.5}}
    assert summary.format == "jsonl"


@pytest.mark.parametrize("content", [
    b"\xef\xbb\xbf" + RUN,
    RUN.replace(b"\n", b"\r\n"),
    b"\xef\xbb\xbf" + RUN.replace(b"\n", b"\r\n"),
    RUN.replace(b" ", b"\t"),
    RUN + b"\n\n",
], ids=["bom", "crlf", "bom-crlf", "tabs", "trailing-blank-lines"])
def test_bom_crlf_tabs_are_accepted(content):
    run, summary = read_run(content)
    assert run.to_dict() == RUN_DICT
    assert summary.rows == 3


def test_mixed_whitespace_and_extra_fields_are_read_as_trec_eval_does():
    content = b"q1 Q0 d1 1 2.5 tag extra\nq1\tQ0  d2 2 1.5 tag\n  q2 Q0 d1 1 0.5 tag\n"
    run, summary = read_run(content)
    assert run.to_dict() == RUN_DICT
    assert any("extra trailing fields" in note for note in summary.notes)
    assert any("any run of spaces or tabs" in note for note in summary.notes)


def test_tabs_on_some_lines_spaces_on_others():
    content = b"q1\tQ0\td1\t1\t2.5\ttag\nq1 Q0 d2 2 1.5 tag\nq2\tQ0 d1 1 0.5\ttag\n"
    run, summary = read_run(content)
    assert run.to_dict() == RUN_DICT
    assert any("runs of spaces and tabs" in note for note in summary.notes)
    with pytest.raises(InputError, match="line 2: score 'x' is not a number"):
        read_run(content.replace(b"1.5", b"x"))


def test_every_line_with_extra_fields_stays_on_the_fast_path():
    run, summary = read_run(RUN.replace(b"tag\n", b"tag more\n"))
    assert run.to_dict() == RUN_DICT
    assert "extra trailing field(s) on every line" in summary.notes[0]


def test_gzip_is_detected_by_content(tmp_path):
    path = tmp_path / "run.txt"
    path.write_bytes(gzip.compress(RUN))
    run, summary = read_run(path)
    assert run.to_dict() == RUN_DICT
    assert summary.compressed
    assert read_run(gzip.compress(RUN) + gzip.compress(RUN.replace(b"q", b"x")))[0].n_queries == 4


def test_csv_with_tabs_and_a_txt_run_are_detected_by_content(tmp_path):
    tsv = tmp_path / "run.csv"
    tsv.write_bytes(b"qid\tdocno\tsim\nq1\td1\t2.5\nq1\td2\t1.5\nq2\td1\t0.5\n")
    run, summary = read_run(tsv)
    assert run.to_dict() == RUN_DICT
    assert summary.format == "tsv"
    assert dict(summary.columns) == {"query_id": "qid", "doc_id": "docno", "score": "sim"}
    txt = tmp_path / "run.txt"
    txt.write_bytes(RUN)
    assert read_run(txt)[1].format == "trec-run"


def test_format_override_and_explicit_mapping():
    content = b"Topic;Passage;Model score\nq1;d1;2.5\nq1;d2;1.5\nq2;d1;0.5\n"
    mapping = {"query_id": "Topic", "doc_id": "Passage", "score": "Model score"}
    run, _ = read_run(content, columns=mapping)
    assert run.to_dict() == RUN_DICT
    forced, _ = read_run(RUN.replace(b" ", b"\t"), format="trec")
    assert forced.to_dict() == RUN_DICT
    with pytest.raises(InputError, match="has no header row"):
        read_run(RUN.replace(b" ", b","), format="csv")


def test_upload_objects_and_names():
    upload = io.BytesIO(RUN)
    upload.name = "my run.trec"
    run, summary = read_run(upload)
    assert summary.source == "my run.trec"
    assert run.name == "my run"
    _, named = read_run(RUN, name="shown.txt")
    assert named.source == "shown.txt"


def test_path_and_bytes_give_the_same_run(small_data):
    from_path, _ = read_run(small_data / "run_b.trec")
    from_bytes, _ = read_run((small_data / "run_b.trec").read_bytes())
    assert from_path.to_dict() == from_bytes.to_dict()


def test_ranks_are_read_on_request():
    run, _ = read_run(RUN)
    assert run.ranks is None
    run, _ = read_run(RUN, keep_ranks=True)
    assert run.ranks.tolist() == [1, 2, 1]


def test_unique_docs_on_request(small_data, tiny_blocks):
    shared = b"".join(f"q{q} Q0 d{d} {d} {10 - d} t\n".encode() for q in range(30)
                      for d in range(5))
    run, summary = read_run(shared)
    assert len(run.docs) > 5  # per-block dictionaries repeat ids
    assert summary.documents is None  # not counted: that would need a global hash
    assert run.n_docs == 5
    unique, summary = read_run(shared, unique_docs=True)
    assert len(unique.docs) == 5 and summary.documents == 5
    assert unique.to_dict() == run.to_dict()


@pytest.mark.parametrize("contiguous", [True, False])
def test_duplicates_across_reader_blocks_are_found(tiny_blocks, contiguous):
    rows = [f"q{q} Q0 d{d} 1 {d} t" for q in range(20) for d in range(8)]
    rows.append("q3 Q0 d5 9 0.1 t")  # q3/d5 again, many blocks after the first
    if not contiguous:
        rows = rows[::2] + rows[1::2]
    content = ("\n".join(rows) + "\n").encode()
    with pytest.raises(InputError, match=r"query 'q3' lists document 'd5' 2 times"):
        read_run(content)


def test_same_document_under_many_queries_is_not_a_duplicate(tiny_blocks):
    rows = [f"q{q} Q0 shared {1} 1.0 t\nq{q} Q0 own{q} 2 0.5 t\n" for q in range(40)]
    run, _ = read_run("".join(rows).encode())
    assert len(run) == 80


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["q1", "007", "7", "a-b", "ü"]),
                          st.text("abcdXYZ019._-", min_size=1, max_size=6),
                          st.floats(-1e6, 1e6, allow_nan=False)),
                min_size=1, max_size=60, unique_by=lambda row: (row[0], row[1])),
       st.sampled_from([64, 256, 1 << 20]), st.sampled_from([" ", "\t"]))
def test_any_valid_run_round_trips(rows, block_size, separator):
    old, parallel = io_build.BLOCK_SIZE, two_threads.PARALLEL_FROM
    io_build.BLOCK_SIZE = block_size
    two_threads.PARALLEL_FROM = 4 if block_size == 64 else parallel  # two threads from 4 rows
    try:
        text = "".join(separator.join([q, "Q0", d, str(i), repr(s), "t"]) + "\n"
                       for i, (q, d, s) in enumerate(rows))
        run, summary = read_run(text.encode())
    finally:
        io_build.BLOCK_SIZE, two_threads.PARALLEL_FROM = old, parallel
    expected: dict[str, dict[str, float]] = {}
    for q, d, s in rows:
        expected.setdefault(q, {})[d] = s
    assert run.to_dict() == expected
    assert summary.rows == len(rows)


def test_qrels_grades_whole_floats_and_negatives():
    qrels, _ = read_qrels(b"q1 0 d1 2.0\nq1 0 d2 -1\n")
    assert qrels.to_dict() == {"q1": {"d1": 2, "d2": -1}}
    csv, summary = read_qrels(b"query_id,doc_id,label\nq1,d1,2\nq1,d2,-1\n")
    assert csv.to_dict() == qrels.to_dict()
    assert summary.columns["relevance"] == "label"


def test_csv_run_with_extra_columns_notes_them():
    run, summary = read_run(b"query_id,doc_id,score,segment\nq1,d1,1,a\n")
    assert run.to_dict() == {"q1": {"d1": 1.0}}
    assert any("segment" in note for note in summary.notes)


def test_per_query_wide_long_and_trec_eval():
    wide, summary = read_per_query(b"query_id,nDCG@10,AP\n007,0.5,0.25\n8,1,0\n")
    assert set(wide) == {"nDCG@10", "AP"}
    assert dict(wide["nDCG@10"].per_query) == {"007": 0.5, "8": 1.0}
    assert summary.rows == 2
    long, _ = read_per_query(b"qid\tmetric\tvalue\n1\tap\t0.5\n2\tap\t0.25\n1\trr\t1\n")
    assert dict(long["ap"].per_query) == {"1": 0.5, "2": 0.25}
    assert dict(long["rr"].per_query) == {"1": 1.0}
    trec_eval = b"map   \tq1\t0.5\nmap   \tall\t0.5\nrunid \tall\tbm25\nP_10\tq1\t0.3\n"
    results, summary = read_per_query(trec_eval, name="bm25.eval")
    assert set(results) == {"map", "P_10"}
    assert summary.rows_set_aside == 2
    assert summary.set_aside[0].reason.startswith("trec_eval summary rows")
    assert results["map"].run == "bm25.eval"


def test_per_query_picks_a_run_and_counts_the_rest():
    content = b"query_id,run,metric,value\nq1,a,ndcg,0.5\nq1,b,ndcg,0.4\nq2,b,ndcg,0.1\n"
    results, summary = read_per_query(content, run="b")
    assert dict(results["ndcg"].per_query) == {"q1": 0.4, "q2": 0.1}
    assert results["ndcg"].run == "b"
    assert summary.rows == 2 and summary.rows_set_aside == 1
    assert "1 rows set aside" in summary.describe()


def test_segments_several_columns_user_picks_one():
    content = b"query_id\tsegment\tlength\nq1\thead\tshort\nq2\ttail\t\nq3\thead\tlong\n"
    segments, summary = read_segments(content)
    assert segments.column == "segment" and segments.columns == ("segment", "length")
    assert dict(segments.mapping) == {"q1": "head", "q2": "tail", "q3": "head"}
    chosen, summary = read_segments(content, column="length")
    assert dict(chosen.mapping) == {"q1": "short", "q3": "long"}
    assert summary.rows_set_aside == 1 and summary.set_aside[0].lines == (3,)
    assert segments.choose("length").mapping == chosen.mapping


def test_segments_from_a_run_table():
    content = b"qid,docid,score,market\nq1,d1,1,us\nq1,d2,0.5,us\nq2,d1,1,de\n"
    segments, summary = read_segments(content)
    assert dict(segments.mapping) == {"q1": "us", "q2": "de"}
    assert any("counted once" in note for note in summary.notes)


def test_segments_file_from_the_generator(small_data):
    segments, summary = read_segments(small_data / "segments.tsv")
    assert len(segments.mapping) == 50 == summary.queries


def test_reading_does_not_import_pandas():
    code = ("import sys; from ranklens.io import read_run; "
            "read_run(b'q1 Q0 d1 1 1 t\\nq1 Q0 d2 2 0.5 t\\n'); print('pandas' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_summary_describe_mentions_counts(small_data):
    _, summary = read_qrels(small_data / "qrels.trec")
    text = summary.describe()
    assert "rows" in text and "50 queries" in text and "documents" in text
    assert json.dumps(dict(summary.columns))


@pytest.mark.parametrize("block_size", [64, 256, 4096, 1 << 20])
@pytest.mark.parametrize("order", ["sorted", "shuffled"])
@pytest.mark.parametrize("duplicate", [True, False])
def test_duplicates_with_documents_shared_by_queries(monkeypatch, block_size, order, duplicate):
    monkeypatch.setattr(io_build, "BLOCK_SIZE", block_size)
    rng = np.random.default_rng(block_size)
    rows = [(f"q{q}", f"d{d}") for q in range(30)
            for d in rng.choice(40, size=10, replace=False)]  # 40 documents shared by 30 queries
    if duplicate:
        rows.insert(int(rng.integers(len(rows))), rows[int(rng.integers(len(rows)))])
    if order == "shuffled":
        rows = [rows[i] for i in rng.permutation(len(rows))]
    content = "".join(f"{q} Q0 {d} 1 1.0 t\n" for q, d in rows).encode()
    if duplicate:
        with pytest.raises(InputError, match=r"lists document 'd\d+' 2 times"):
            read_run(content)
    else:
        run, _ = read_run(content)
        assert len(run) == len(rows) and run.n_docs <= 40


def test_ms_marco_run_is_read_in_rank_order():
    content = b"1048585\t7187158\t2\n1048585\t7187157\t1\n2\t10\t1\n"
    run, summary = read_run(content, name="dev.tsv")
    assert summary.format == "msmarco-run"
    assert run.to_dict() == {"1048585": {"7187157": -1.0, "7187158": -2.0}, "2": {"10": -1.0}}
    assert run.ranks.tolist() == [2, 1, 1]
    assert "ranked by the rank column" in summary.describe()
    padded, _ = read_run(b" 1048585  7187158 2 \r\n1048585\t7187157\t1\r\n2 10 1\r\n")
    assert padded.to_dict() == run.to_dict()


def test_trec_eval_all_trec_output_sets_aside_text_measures():
    content = (b"# trec_eval -q -m all_trec qrels run\n"
               b"num_ret               \t301\t1000\n"
               b"map                   \t301\t0.2345\n"
               b"relstring             \t301\t'223-110113'\n"
               b"num_ret               \t302\t1000\n"
               b"map                   \t302\t0.1000\n"
               b"relstring             \t302\t''\n"
               b"runid                 \tall\tbm25\n"
               b"num_q                 \tall\t2\n"
               b"map                   \tall\t0.1673\n")
    results, summary = read_per_query(content, name="bm25.eval")
    assert set(results) == {"num_ret", "map"}
    assert dict(results["map"].per_query) == {"301": 0.2345, "302": 0.1}
    reasons = {aside.reason: aside.rows for aside in summary.set_aside}
    assert reasons["trec_eval summary rows (query 'all')"] == 3
    assert reasons["measure(s) relstring: text, not numbers (as trec_eval prints them)"] == 2
    assert "1 comment line skipped" in summary.describe()
    with pytest.raises(InputError, match=r"line 3: value 'x' is not a number"):
        read_per_query(content.replace(b"0.2345", b"x"), name="bad.eval")


def test_ranklens_evaluate_output_reads_back_as_a_per_query_table(tmp_path):
    from ranklens.cli import main

    out = tmp_path / "eval.txt"
    data = b"q1 Q0 d1 1 2 t\nq1 Q0 d2 2 1 t\nq2 Q0 d1 1 1 t\n"
    (tmp_path / "run.trec").write_bytes(data)
    (tmp_path / "qrels.trec").write_bytes(b"q1 0 d2 1\nq2 0 d1 2\n")
    assert main(["evaluate", "-q", "-m", "official", "-o", str(out), str(tmp_path / "qrels.trec"),
                 str(tmp_path / "run.trec")]) == 0
    results, summary = read_per_query(out)
    assert dict(results["map"].per_query) == {"q1": 0.5, "q2": 1.0}
    assert dict(results["num_rel_ret"].per_query) == {"q1": 1.0, "q2": 1.0}
    assert summary.queries == 2


def test_a_trec_eval_table_with_an_integer_first_value_is_not_an_ms_marco_run():
    results, summary = read_per_query(b"recall@100\tq1\t1\nrecall@100\tq2\t0.5\n")
    assert summary.format == "trec_eval"
    assert dict(results["recall@100"].per_query) == {"q1": 1.0, "q2": 0.5}


def test_a_long_comment_header_is_named_as_such():
    content = b"# " + b"x" * 100 + b"\n"
    with pytest.raises(InputError, match="no data line in its first 64 KiB"):
        read_run(content * 700 + b"q1 Q0 d1 1 1 t\n")
