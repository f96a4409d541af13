"""Every bad input named in issue 5 is an InputError whose message names the source, the line
(for text formats), what is wrong and what to do. No raw traceback, no partial result."""

from __future__ import annotations

import gzip

import pyarrow as pa
import pytest

from ranklens.io import (
    InputError,
    read_documents,
    read_per_query,
    read_qrels,
    read_queries,
    read_run,
    read_segments,
)
from tests.support.hostile_files import parquet_bytes

RUN = b"q1 Q0 d1 1 2.5 tag\nq1 Q0 d2 2 1.5 tag\nq2 Q0 d1 1 0.5 tag\n"
QRELS = b"q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 2\n"


def gz(data: bytes) -> bytes:
    return gzip.compress(data)


READERS = {"run": read_run, "qrels": read_qrels, "per_query": read_per_query,
           "segments": read_segments}

# (case id, reader, content, extra kwargs, expected line or None, expected message fragments)
CASES = [
    ("empty-file", "run", b"", {}, None, ["is empty"]),
    ("only-blank-lines", "run", b"\n\n  \n", {}, None, ["every line is blank"]),
    ("csv-header-only", "run", b"query_id,doc_id,score\n", {}, None,
     ["header but no data rows"]),
    ("tsv-header-only-crlf", "qrels", b"qid\tdocid\trel\r\n", {}, None,
     ["header but no data rows"]),
    ("run-short-line", "run", b"q1 Q0 d1 1 2.5 tag\nq1 Q0 d2 2 1.5\n", {}, 2,
     ["has 5 field(s), expected 6", "run tag"]),
    ("run-one-field-line", "run", RUN + b"garbage\n", {}, 4, ["has 1 field(s), expected 6"]),
    ("qrels-short-line", "qrels", b"q1 0 d1 1\nq1 0 d2\n", {}, 2,
     ["has 3 field(s), expected 4", "relevance grade"]),
    ("csv-wrong-field-count", "run", b"query_id,doc_id,score\nq1,d1,0.5\nq1,d2,0.4,9\n", {},
     3, ["has 4 field(s), expected 3"]),
    ("run-score-not-number", "run", b"q1 Q0 d1 1 2.5 tag\nq1 Q0 d2 2 high tag\n", {}, 2,
     ["score 'high' is not a number"]),
    ("run-score-nan", "run", b"q1 Q0 d1 1 2.5 tag\nq1 Q0 d2 2 nan tag\n", {}, 2,
     ["not a finite number"]),
    ("run-score-inf", "run", b"q1 Q0 d1 1 inf tag\nq1 Q0 d2 2 1 tag\n", {}, 1,
     ["not a finite number"]),
    ("csv-score-missing", "run", b"query_id,doc_id,score\nq1,d1,\nq1,d2,0.4\n", {}, 2,
     ["score is missing"]),
    ("csv-score-text", "run", b"query_id,doc_id,score\nq1,d1,0.5\nq1,d2,abc\n", {}, 3,
     ["score 'abc' is not a number"]),
    ("csv-score-decimal-comma", "run", b"query_id;doc_id;score\nq1;d1;0,5\n", {}, 2,
     ["score '0,5' is not a number", "'.' as decimal separator"]),
    ("qrels-relevance-fraction", "qrels", b"q1 0 d1 1\nq1 0 d2 1.5\n", {"grades": "integer"},
     2, ["relevance 1.5 is not an integer grade", "--truncate-grades"]),
    ("qrels-relevance-infinite", "qrels", b"q1 0 d1 1\nq1 0 d2 inf\n", {}, 2,
     ["relevance inf is not a finite number"]),
    ("qrels-relevance-text", "qrels", b"q1 0 d1 1\nq1 0 d2 yes\n", {}, 2,
     ["relevance 'yes' is not a number"]),
    ("csv-relevance-missing", "qrels", b"query_id,doc_id,relevance\nq1,d1,1\nq1,d2,\n", {}, 3,
     ["relevance is missing"]),
    ("run-duplicate-pair", "run", RUN + b"q1 Q0 d1 3 0.1 tag\n", {}, None,
     ["query 'q1' lists document 'd1' 2 times (lines 1, 4)", "keep one row"]),
    ("qrels-duplicate-pair", "qrels", QRELS + b"q2 0 d1 0\n", {}, None,
     ["query 'q2' lists document 'd1' 2 times (lines 3, 4)"]),
    ("csv-duplicate-pair", "run", b"query_id,doc_id,score\nq1,d1,1\nq1,d1,2\n", {}, None,
     ["lists document 'd1' 2 times (lines 2, 3)"]),
    ("qrels-given-as-run", "run", QRELS, {}, None,
     ["looks like TREC qrels", "give this file as the judgements"]),
    ("run-given-as-qrels", "qrels", RUN, {}, None,
     ["looks like a TREC run", "give this file as a run"]),
    ("csv-qrels-given-as-run", "run", b"query_id,doc_id,relevance\nq1,d1,1\n", {}, None,
     ["relevance column but no score column", "judgements"]),
    ("csv-run-given-as-qrels", "qrels", b"qid,docid,score\nq1,d1,1.5\n", {}, None,
     ["score column but no relevance column", "looks like a run"]),
    ("csv-mixed-separators", "run", b"query_id,doc_id,score\nq1,d1,0.5\nq1\td2\t0.4\n", {}, 3,
     ["has 1 field(s), expected 3", "mixes separators"]),
    ("non-utf8-bytes-head", "run", b"q1 Q0 d\xe91 1 2.5 tag\n", {}, 1,
     ["not UTF-8 text (byte 0xE9)", "save the file as UTF-8"]),
    ("non-utf8-bytes-late", "run", RUN * 2000 + b"q9 Q0 d\xe9 1 2.5 tag\n", {}, 6001,
     ["not UTF-8 text (byte 0xE9)"]),
    ("utf16-text", "run", "q1 Q0 d1 1 2.5 tag\n".encode("utf-16"), {}, None,
     ["is UTF-16 text", "save it as UTF-8"]),
    ("binary-junk", "run", bytes(range(256)) * 8, {}, None, ["binary data"]),
    ("zip-archive", "run", b"PK\x03\x04" + bytes(200), {}, None,
     ["ZIP archive", "export it as CSV"]),
    ("parquet-missing-columns", "run",
     parquet_bytes(pa.table({"topic_text": ["a"], "value": [1.0]})), {}, None,
     ["has no query_id or doc_id or score column", "'topic_text'", "columns="]),
    ("parquet-corrupt", "run", b"PAR1" + bytes(100) + b"PAR1", {}, None,
     ["not a readable Parquet file"]),
    ("gzip-truncated", "run", gz(RUN * 500)[:-8], {}, None,
     ["gzip stream is truncated", "copy it again"]),
    ("gzip-corrupt", "run", gz(RUN)[:10] + b"\xff" * 40, {}, None, ["not valid gzip data"]),
    ("over-size-limit", "run", RUN, {"max_bytes": 10}, None,
     ["over the limit of 10 bytes", "max_bytes"]),
    ("gzip-over-size-limit", "run", gz(RUN * 100), {"max_bytes": 1000}, None,
     ["decompresses to more than the limit of 1,000 bytes"]),
    ("json-array-not-lines", "run", b'[{"qid": "q1"}]', {}, None,
     ["JSON array, not JSON Lines", "one JSON object per line"]),
    ("jsonl-bad-line", "run", b'{"qid":"q1","docid":"d1","score":1}\n{"qid": "q1", \n', {}, 2,
     ["is not valid JSON"]),
    ("jsonl-mixed-types", "run",
     b'{"qid":"q1","docid":"d1","score":1}\n{"qid":"q1","docid":"d2","score":"x"}\n', {}, 2,
     ["field 'score' is a str here but a number on line 1"]),
    ("csv-without-header", "run", b"q1,d1,0.5\nq1,d2,0.4\n", {}, 1, ["has no header row"]),
    ("csv-empty-query-id", "run", b"query_id,doc_id,score\n,d1,0.5\n", {}, 2,
     ["query id is empty"]),
    ("unknown-format-override", "run", RUN, {"format": "xlsx"}, None, ["unknown format"]),
    ("explicit-mapping-missing-column", "run", b"a,b,c\nq1,d1,1\n",
     {"columns": {"query_id": "a", "doc_id": "b", "score": "s"}}, None,
     ["has no column 's' (mapped to score)", "'a', 'b', 'c'"]),
    ("trec-eval-given-as-run", "run", b"map\tq1\t0.5\nmap\tq2\t0.25\n", {}, None,
     ["looks like trec_eval output", "per-query"]),
    ("per-query-nan", "per_query", b"query_id,ndcg\nq1,0.5\nq2,nan\n", {}, 3,
     ["ndcg for query 'q2' is nan"]),
    ("per-query-missing-value", "per_query", b"query_id,ndcg,ap\nq1,0.5,0.1\nq2,,0.2\n", {}, 3,
     ["query 'q2' has no value for 'ndcg'"]),
    ("per-query-duplicate", "per_query", b"query_id,ndcg\nq1,0.5\nq1,0.7\n", {}, None,
     ["query 'q1' has 2 values for 'ndcg' (lines 2, 3)"]),
    ("per-query-several-runs", "per_query",
     b"query_id,run,metric,value\nq1,a,ndcg,0.5\nq1,b,ndcg,0.4\n", {}, None,
     ["holds 2 runs (a, b)", "run="]),
    ("per-query-no-metric", "per_query", b"query_id,text\nq1,hello\n", {}, None,
     ["no numeric metric column"]),
    ("per-query-given-a-run", "per_query", RUN, {}, None, ["looks like a TREC run"]),
    ("segments-conflict", "segments", b"query_id\tsegment\nq1\ta\nq2\tb\nq1\tc\n", {}, None,
     ["query 'q1' has segments ['a', 'c']", "lines 2, 4"]),
    ("segments-no-column", "segments", b"query_id,score\nq1,0.5\n", {}, None,
     ["has no segment column"]),
    ("segments-unknown-choice", "segments", b"query_id,segment\nq1,a\n",
     {"column": "country"}, None, ["has no segment column 'country'", "segment"]),
    ("segments-from-trec-run", "segments", RUN, {}, None, ["has no header"]),
    ("missing-file", "run", None, {}, None, ["file not found"]),
    ("qrels-fifth-field", "qrels", b"q1 0 d1 1\nq1 0 d2 0 x\n", {}, 2,
     ["has 5 field(s), expected 4", "trec_eval rejects such a line too ('Malformed line')"]),
    ("qrels-fifth-field-on-line-one", "qrels", b"q1 0 d1 1 x\nq1 0 d2 0\n", {}, 1,
     ["has 5 field(s), expected 4"]),
    ("three-fields-score-not-rank", "run", b"q1 d1 0.5\nq1 d2 0.4\n", {}, None,
     ["looks like trec_eval output", "MS MARCO run is 'qid docid rank'"]),
    ("three-numeric-fields", "run", b"1 10 0\n1 11 5\n", {}, 1,
     ["not a recognised run format", "MS MARCO run line 'qid docid rank'"]),
    ("msmarco-rank-twice", "run", b"1\t10\t1\n1\t11\t1\n", {}, None,
     ["query '1' has rank 1 twice (lines 1, 2)"]),
    ("msmarco-rank-text", "run", b"1\t10\t1\n1\t11\tx\n", {}, 2, ["rank 'x' is not a whole"]),
    ("msmarco-given-as-qrels", "qrels", b"1\t10\t1\n1\t11\t2\n", {}, None,
     ["looks like an MS MARCO run", "give this file as a run"]),
    ("per-query-given-msmarco", "per_query", b"1\t10\t1\n", {}, None, ["MS MARCO"]),
    ("comments-only", "run", b"# nothing\n  # here\n", {}, None,
     ["every line is blank or a comment"]),
]


@pytest.mark.parametrize(("reader", "content", "kwargs", "line", "fragments"),
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_bad_input_is_an_input_error_that_says_what_and_where(
        reader, content, kwargs, line, fragments, tmp_path):
    source = tmp_path / "no-such-file.txt" if content is None else content
    name = None if content is None else "upload.txt"
    with pytest.raises(InputError) as caught:
        READERS[reader](source, name=name, **kwargs)
    error = caught.value
    message = str(error)
    assert message.startswith(name or str(source)), message
    for fragment in fragments:  # hints start with a capital in the message
        assert fragment.lower() in message.lower(), message
    if line is not None:
        assert error.line == line, message
        assert f"line {line}:" in message
    assert error.hint or "file not found" in message, message


def test_there_are_at_least_thirty_cases():
    assert len(CASES) >= 30


def test_the_same_bad_file_from_disk_names_the_path(tmp_path):
    path = tmp_path / "run.txt"
    path.write_bytes(b"q1 Q0 d1 1 2.5 tag\nq1 Q0 d2 2 oops tag\n")
    with pytest.raises(InputError, match=r"run\.txt, line 2: score 'oops' is not a number"):
        read_run(path)


def test_a_folder_is_not_a_file(tmp_path):
    with pytest.raises(InputError, match="is a folder"):
        read_run(tmp_path)


def test_input_error_is_a_value_error_and_pickles():
    import pickle

    error = InputError("f.txt", "bad", line=3, hint="fix it")
    assert isinstance(error, ValueError)
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error) == "f.txt, line 3: bad. Fix it"


@pytest.mark.parametrize(("reader", "content", "fragment"), [
    (read_segments, b"query_id,segment\nq1,a\n,b\n", "line 3: query id is empty"),
    (read_per_query, b"query_id,metric,value\nq1,ap,\n", "line 2: query 'q1' has no value"),
    (read_run, b'{"qid":"q","docid":"a","score":1}\n{"qid":null,"docid":"b","score":2}\n',
     "line 2: query id is missing"),
    (read_run, b'query_id,doc_id,score\n"q1",d1,1\n"q1",,2\n', "line 3: document id is empty"),
], ids=["segments-empty-query", "per-query-long-missing", "jsonl-null-id", "csv-empty-doc"])
def test_missing_ids_and_values(reader, content, fragment):
    with pytest.raises(InputError, match=fragment):
        reader(content, name="f")


# documents and queries: the message names the file, the line and what is wrong
@pytest.mark.parametrize(("reader", "data", "message"), [
    (read_documents, b'{"_id": "a", "text": "x"}\n{"_id": "b", "text": \n',
     r"f, line 2: is not valid JSON"),
    (read_documents, b'{"_id": "a", "text": "x"}\n{"_id": 3, "text": "y"}\n',
     r"f, line 2: document id 3"),
    (read_documents, b'{"_id": "a", "text": "x"}\n{"text": "y"}\n',
     r"f, line 2: document id is missing"),
    (read_documents, b'{"_id": "a", "body2": "x"}\n', r"f: has no title or text column"),
    (read_documents, b"1\ttext\n2\ttext\tmore\n", r"f, line 2: has 3 field\(s\), expected 2"),
    (read_documents, b"1\ta\tb\tc\td\n", r"f, line 1: has 5 tab-separated fields and no header"),
    (read_documents, b'doc_id,text\n1,"two\nlines"\n', r"f, line 2: a quoted value spans lines"),
    (read_documents, b"1,text\n", r"f, line 1: has no header row"),
    (read_documents, b"just words\n", r"f, line 1: is not a recognised documents format"),
    (read_documents, b"\n\n", r"f: has no data"),
    (read_documents, b"", r"f: is empty"),
    (read_queries, b"q1\ta\tb\n", r"f, line 1: has 3 tab-separated fields, expected 2"),
    (read_queries, b"q1\thello\nq2\n", r"f, line 2: has no tab after the query id"),
    (read_queries, b"q1\thello\n\t bare\n", r"f, line 2: query id is empty"),
    (read_queries, b"q1 what is this\n", r"f: is not a recognised queries format"),
    (read_queries, b"q1\tcaf\xe9\n", r"f, line 1: is not UTF-8 text"),
    (read_queries, b"", r"f: is empty"),
    (read_queries, b"query_id,text\nq1,\n", r"f: no query has a text"),
])
def test_documents_and_queries_name_file_line_and_fix(reader, data, message):
    with pytest.raises(InputError, match=message):
        reader(data, name="f")
