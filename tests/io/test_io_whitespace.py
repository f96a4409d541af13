"""TREC text is whitespace-separated: every reader path gives what ``line.split()`` gives.

The reference reads the bytes as trec_eval does: lines end at LF, CR LF or a lone CR
(``bytes.splitlines``), fields are ``line.split()`` (runs of space, tab, VT, FF), and a line
whose first field starts with ``#`` is a comment. The fast reader (when it accepts the file),
the rewritten-text reader and the line-by-line reader must each give that table, and the
metrics on it must equal pytrec_eval's on the reference dictionaries.
"""

from __future__ import annotations

import contextlib

import numpy as np
import pytest
import pytrec_eval
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ranklens.io import InputError, read_qrels, read_run
from ranklens.io import trec as trec_module
from ranklens.io.detect import sniff
from ranklens.io.source import load
from ranklens.metrics import evaluate

QUERIES = ["q1", "007", "7", "301", "a-b", "ü"]
DOCS = ["d1", "D1", "doc-7", "10", "9", "é1", "x_9", "FBIS3-10082", "a.b"]
BLANK_RUN = st.text(alphabet=" \t", min_size=1, max_size=3)
PADDING = st.text(alphabet=" \t", max_size=2)


def reference(data: bytes, width: int) -> tuple[list[list[str]], int]:
    """Data lines as fields (``line.split()``), and the number of comment lines."""
    rows, comments = [], 0
    for line in data.removeprefix(b"\xef\xbb\xbf").splitlines():
        fields = line.split()
        if not fields:
            continue
        if fields[0].startswith(b"#"):
            comments += 1
            continue
        rows.append([field.decode() for field in fields[:width]])
    return rows, comments


@st.composite
def trec_text(draw, kind: str) -> bytes:
    """A run or qrels file with random separators, padding, CRLF, comments and blank lines."""
    pairs = draw(st.lists(st.tuples(st.sampled_from(QUERIES), st.sampled_from(DOCS)),
                          min_size=1, max_size=25, unique=True))
    tab_first = draw(st.booleans())
    extra = draw(st.sampled_from([0, 0, 1, 2]))  # extra trailing fields (runs only)
    lines = []
    for i, (query, doc) in enumerate(pairs):
        if kind == "run":
            score = draw(st.sampled_from(["1", "2.5", "-0.5", "10", ".5", "3e2", "0.25"]))
            fields = [query, "Q0", doc, str(i + 1), score, "tag"] + ["x"] * extra
        else:
            fields = [query, "0", doc, draw(st.sampled_from(["0", "1", "2", "-1", "3"]))]
        if draw(st.booleans()):  # a regular line: one separator, no padding
            line = ("\t" if tab_first else " ").join(fields)
        else:
            line = draw(PADDING) + "".join(f + draw(BLANK_RUN) for f in fields[:-1]) \
                + fields[-1] + draw(PADDING)
        lines.append(line)
        if draw(st.integers(0, 9)) == 0:
            lines.append(draw(PADDING) + "#" + draw(st.sampled_from(
                ["", " pool depth 100", "\tQ0 d 1 2 t", " a b c d"])))
        if draw(st.integers(0, 14)) == 0:
            lines.append(draw(PADDING))
    if draw(st.integers(0, 4)) == 0:
        lines.insert(0, "# " + kind + " written by a test")
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    return (ending.join(lines) + draw(st.sampled_from(["", ending]))).encode()


def parsed_rows(parsed: trec_module.Parsed, value: str) -> list[tuple[str, str, object]]:
    queries = parsed.queries.values.take(parsed.queries.codes).to_pylist()
    docs = parsed.docs.values.take(parsed.docs.codes).to_pylist()
    values = np.asarray(parsed.numbers[value]).tolist() if isinstance(
        parsed.numbers[value], np.ndarray) else parsed.numbers[value].to_pylist()
    return [(q, d, float(v)) for q, d, v in zip(queries, docs, values, strict=True)]


def every_path(data: bytes, kind: str) -> list[list[tuple[str, str, object]]]:
    """The rows of each reader path that accepts ``data`` (the line reader always answers)."""
    loaded = load(data, name="t")
    detected = sniff(loaded, "trec-run" if kind == "run" else "trec-qrels")
    fields = trec_module.LAYOUTS[kind]
    value = "score" if kind == "run" else "relevance"
    out = []
    with contextlib.suppress(trec_module._REFUSED):
        out.append(parsed_rows(trec_module._read_fast(
            loaded, detected, fields, unique_docs=False, keep_ranks=False, checked=True), value))
    out.append(parsed_rows(trec_module.read_trec(loaded, detected, kind, unique_docs=False),
                           value))
    out.append(parsed_rows(trec_module._read_by_line(loaded, fields, kind, False), value))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trec_text("run"))
def test_every_run_reader_equals_a_whitespace_split(data):
    rows, comments = reference(data, 6)
    expected = [(r[0], r[2], float(r[4])) for r in rows]
    for got in every_path(data, "run"):
        assert got == expected, data
    run, summary = read_run(data, name="t")
    assert run.to_dict() == {q: {d: s for q2, d, s in expected if q2 == q} for q, _, _ in expected}
    assert summary.rows == len(expected)
    if comments:
        assert any(note.startswith(f"{comments:,} comment line") for note in summary.notes)
    assert summary.run_tag == "tag"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trec_text("qrels"))
def test_every_qrels_reader_equals_a_whitespace_split(data):
    rows, comments = reference(data, 4)
    expected = [(r[0], r[2], float(int(r[3]))) for r in rows]
    for got in every_path(data, "qrels"):
        assert got == expected, data
    _qrels, summary = read_qrels(data, name="t")
    assert summary.rows == len(expected)
    if comments:
        assert any(note.startswith(f"{comments:,} comment line") for note in summary.notes)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trec_text("run"), trec_text("qrels"), st.sampled_from([1, 2]))
def test_metrics_on_hostile_text_equal_pytrec_eval_on_the_split_reading(run_text, qrels_text,
                                                                        level):
    run_rows, _ = reference(run_text, 6)
    qrels_rows, _ = reference(qrels_text, 4)
    run_dict: dict[str, dict[str, float]] = {}
    for query, _, doc, _, score, *_ in run_rows:
        run_dict.setdefault(query, {})[doc] = float(score)
    qrels_dict: dict[str, dict[str, int]] = {}
    for query, _, doc, grade in qrels_rows:
        qrels_dict.setdefault(query, {})[doc] = int(grade)
    if not set(run_dict) & set(qrels_dict) or any(
            max(grades.values()) < 0 for grades in qrels_dict.values()):
        return  # nothing to compare; pytrec_eval 9.0.8 can hang on all-negative queries
    expected = pytrec_eval.RelevanceEvaluator(
        qrels_dict, {"ndcg_cut.10", "map", "P.5", "recip_rank", "Rprec"},
        relevance_level=level).evaluate(run_dict)
    evaluation = evaluate(read_run(run_text).run, read_qrels(qrels_text).qrels,
                          ["ndcg_cut_10", "map", "P_5", "recip_rank", "Rprec"],
                          relevance_level=level)
    for name in ("ndcg_cut_10", "map", "P_5", "recip_rank", "Rprec"):
        got = evaluation[name].per_query
        assert set(got) == set(expected)
        for query, values in expected.items():
            assert got[query] == pytest.approx(values[name], abs=1e-12), (name, query)


@pytest.mark.parametrize(("content", "fragment"), [
    (b"# only a comment\n", "every line is blank or a comment"),
    (b"  # one\n\n# two\n", "every line is blank or a comment"),
])
def test_a_file_of_comments_is_an_empty_file(content, fragment):
    for reader in (read_run, read_qrels):
        with pytest.raises(InputError, match=fragment):
            reader(content, name="c.txt")


def test_issue_14_padded_ids_and_comments_no_longer_change_the_ids():
    """The reported cases: an indented query id, a doc id with a trailing blank, a comment."""
    run = (b"301\tQ0\tDOC1\t1\t 12.5\tbm25\n  301\tQ0\tDOC2 \t2\t   11\tbm25\n"
           b"# pool depth 100\n302\tQ0\tDOC1\t1\t3\tbm25\n")
    qrels = b"301 0 DOC1 1\n  301 0 DOC2 2\n# pool depth 100\n302 0 DOC3 1\n"
    read, summary = read_run(run)
    assert read.to_dict() == {"301": {"DOC1": 12.5, "DOC2": 11.0}, "302": {"DOC1": 3.0}}
    assert "1 comment line skipped" in summary.describe()
    judged, summary = read_qrels(qrels)
    assert judged.to_dict() == {"301": {"DOC1": 1, "DOC2": 2}, "302": {"DOC3": 1}}
    assert "1 comment line skipped" in summary.describe()


def test_lone_carriage_returns_end_lines_on_every_path():
    data = b"q1 Q0 d1 1 2 t\rq1 Q0 d2 2 1 t\r\nq2 Q0 d1 1 3 t\r"
    paths = every_path(data, "run")
    assert all(rows == [("q1", "d1", 2.0), ("q1", "d2", 1.0), ("q2", "d1", 3.0)]
               for rows in paths)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=" \t\x0b\x0c\r\n#ab1", max_size=120), st.integers(1, 40))
def test_canonical_text_is_the_whitespace_split_of_every_line(text, chunk_bytes):
    """Line by line: fields joined by one space, comment lines empty; chunking changes nothing."""
    from ranklens.io import whitespace

    data = text.encode()
    old = whitespace.CHUNK_BYTES
    whitespace.CHUNK_BYTES = chunk_bytes
    try:
        rewritten = whitespace.canonical_text(np.frombuffer(data, dtype=np.uint8))
    finally:
        whitespace.CHUNK_BYTES = old
    expected = []
    comments = 0
    for line in data.splitlines():
        fields = line.split()
        if fields and fields[0].startswith(b"#"):
            comments += 1
            fields = []
        expected.append(b" ".join(fields))
    got = rewritten.data.tobytes().splitlines()
    while expected and not expected[-1] and len(expected) > len(got):
        expected.pop()  # a last line without a line break that is emptied leaves nothing
    assert got == expected
    assert rewritten.comment_lines == comments


def test_a_blank_inside_q0_after_the_first_64_kib_is_found():
    """Many Q0 values: that check column is a dictionary; a blank in it still means another
    split of the line."""
    lines = [f"q{i % 50}\tQ{i % 40}\td{i}\t{i}\t{i % 7}.5\ttag" for i in range(4000)]
    lines[3500] = "q1\tQ0 x\td3500\t1\t2.5\ttag"  # six tab fields; split: doc 'x', score 1
    data = ("\n".join(lines) + "\n").encode()
    rows, _ = reference(data, 6)
    run, _ = read_run(data)
    assert run.to_dict()["q1"]["x"] == 1.0 and "d3500" not in run.to_dict()["q1"]
    assert len(run) == len(rows)


@pytest.mark.parametrize("tag", ["tag", "7"])  # checks by null values; by bool (a number)
@pytest.mark.parametrize("dropped", range(6))
@pytest.mark.parametrize("empty_at", range(6))
def test_a_line_short_of_a_field_with_an_empty_one_in_its_place_is_refused(tag, dropped,
                                                                           empty_at):
    """Five fields and a doubled separator (or one at a line's end) split into six fields
    on single spaces, one of them empty: trec_eval reads five and refuses the line, and so
    must every reader, whichever column the empty field falls in. The line comes after the
    first 64 KiB, which the reader samples for the check columns' values."""
    good = [["q1", "Q0", f"d{i}", str(i + 1), str(9000 - i), tag] for i in range(4000)]
    fields = list(good[3500])
    del fields[dropped]
    fields.insert(empty_at, "")
    lines = [" ".join(f) for f in good[:3500]] + [" ".join(fields)] + \
        [" ".join(f) for f in good[3501:]]
    data = ("\n".join(lines) + "\n").encode()
    assert data.index(" ".join(fields).encode()) > 1 << 16
    loaded = load(data, name="t")
    with pytest.raises(trec_module._REFUSED):
        trec_module._read_fast(loaded, sniff(loaded, "trec-run"), trec_module.RUN_FIELDS,
                               unique_docs=False, keep_ranks=False, checked=True)
    with pytest.raises(InputError, match="line 3501"):
        read_run(data, name="t")


@pytest.mark.parametrize("shards", [2, 3, 7])
def test_a_tag_per_shard_is_read_by_the_fast_reader(monkeypatch, shards):
    """Runs concatenated, or a tag per shard: the tag changes where the sampled first and last
    64 KiB do not show it. The file stays on the fast reader (the tags read as strings), not
    rewritten whole for the next one, and gives the whitespace split's table."""
    lines = [f"q{i // 100} Q0 d{i} {i % 100 + 1} {9000 - i}.5 shard{i * shards // 12000}"
             for i in range(12000)]
    data = ("\n".join(lines) + "\n").encode()

    def no_rewrite(*args, **kwargs):
        raise AssertionError("the file was rewritten for the next reader")

    monkeypatch.setattr(trec_module, "canonical_text", no_rewrite)
    rows, _ = reference(data, 6)
    run, _ = read_run(data)
    assert len(run) == len(rows) == 12000
    assert run.to_dict()["q119"]["d11999"] == 9000 - 11999.5


def test_a_blank_inside_a_tag_no_sample_shows_is_found():
    """With the tags read as strings, a tag holding a blank is still another split: the
    line has an extra trailing field, which trec_eval ignores and the reader says so."""
    lines = [f"q{i // 100}\tQ0\td{i}\t{i % 100 + 1}\t{i}.5\t{'A' if i < 6000 else 'B'}"
             for i in range(12000)]
    lines[3000] = "q30\tQ0\td3000\t1\t3000.5\tC x"  # seven fields on a split
    data = ("\n".join(lines) + "\n").encode()
    run, summary = read_run(data, name="t")
    assert len(run) == 12000
    assert any("1 line(s) have extra trailing fields" in note for note in summary.notes)
