"""`ranklens evaluate` on a run read in pieces of whole queries: the same bytes as whole.

The pieces are cut small here (a few lines each) so that every golden case of trec_eval 10.0
runs through the bounded-memory path (``ranklens.io.pieces``,
``ranklens.metrics.trec_pieces``), and the runs that cannot be cut (a query that comes back,
an error deep in the file) are read whole, with the same output or the same message.
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from ranklens.io import pieces as pieces_module
from ranklens.metrics import trec_pieces
from ranklens.metrics.trec_ranking import PLACEHOLDER_DOCNO
from tests.cli.test_cli_trec_eval10_golden import CASES, ROOT, STOPS, comparable
from tests.support.cli_helpers import Runner


@pytest.fixture
def small_pieces(monkeypatch):
    """Pieces of about 300 bytes (a handful of lines), and a count of the outputs they gave."""
    monkeypatch.setattr(pieces_module, "PIECE_BYTES", 300)
    used: list[bool] = []
    whole = trec_pieces.trec_eval_output_by_pieces

    def spy(*args, **kwargs):
        output = whole(*args, **kwargs)
        used.append(output is not None)
        return output

    monkeypatch.setattr(trec_pieces, "trec_eval_output_by_pieces", spy)
    return used


# the cases whose run can be cut at 300 bytes (the smallest runs are one piece: read whole)
PIECEWISE = sorted(name for name in set(CASES) - STOPS
                   if pieces_module.query_pieces(ROOT / "inputs" / CASES[name]["run"],
                                                 piece_bytes=300) is not None)


@pytest.mark.parametrize("name", PIECEWISE)
def test_every_golden_case_in_small_pieces_prints_trec_eval_10s_bytes(ranklens: Runner,
                                                                      small_pieces, name):
    """The cut runs: every case of run.trec (with and without -c, -J, -M, -l, -n) and the
    ones with comment lines."""
    case = CASES[name]
    done = ranklens("evaluate", *case["args"], ROOT / "inputs" / case["qrels"],
                    ROOT / "inputs" / case["run"])
    expected = (ROOT / "expected" / f"{name}.txt").read_text(encoding="utf-8")
    assert done.code == 0, done.err
    assert small_pieces == [True], "the run was not scored in pieces"
    assert comparable(done.out) == comparable(expected)


def test_the_cuts_fall_where_the_query_changes_and_cover_the_file(tmp_path):
    lines = [f"q{i // 7:03d} Q0 d{i} {i % 7 + 1} {100 - i % 7} tag\n" for i in range(700)]
    path = tmp_path / "run.trec"
    path.write_text("".join(lines), encoding="utf-8")
    data = path.read_bytes()
    cuts = pieces_module.query_pieces(path, piece_bytes=500)
    assert cuts is not None and len(cuts) > 10
    assert cuts[0][0] == 0 and cuts[-1][1] == len(data)
    queries = []
    for (start, stop), (after, _) in zip(cuts, [*cuts[1:], (len(data), 0)], strict=True):
        assert stop == after
        piece = data[start:stop].decode().splitlines()
        queries.append({line.split()[0] for line in piece})
        assert len(piece[0].split()) == 6  # a whole line
    for first, second in pairwise(queries):
        assert not first & second
    assert pieces_module.query_pieces(path, piece_bytes=len(data)) is None  # one piece: whole


def test_a_file_not_grouped_by_query_is_read_whole(tmp_path):
    lines = [f"q{i % 50} Q0 d{i} 1 {i} tag\n" for i in range(2000)]
    path = tmp_path / "run.trec"
    path.write_text("".join(lines), encoding="utf-8")
    assert pieces_module.query_pieces(path, piece_bytes=500) is None


def test_a_query_that_comes_back_after_the_head_sends_the_run_to_the_whole_path(
        ranklens: Runner, small_pieces, tmp_path):
    """Grouped in its first 64 KiB, not after: the pieces see a query twice and give way."""
    source = (ROOT / "inputs" / "run.trec").read_text(encoding="utf-8").splitlines(keepends=True)
    moved = source[:]
    first_query = source[0].split()[0]
    line = next(i for i, text in enumerate(moved) if text.split()[0] == first_query)
    moved.append(moved.pop(line))  # one line of the first query goes to the end
    run = tmp_path / "run.trec"
    run.write_text("".join(moved), encoding="utf-8")
    qrels = ROOT / "inputs" / "qrels.trec"
    monkey_head = pieces_module._PROBE
    try:
        pieces_module._PROBE = 64  # the head shows too little to notice
        done = ranklens("evaluate", "-q", "-c", "-m", "all_trec", qrels, run)
    finally:
        pieces_module._PROBE = monkey_head
    whole = ranklens("evaluate", "-q", "-c", "-m", "all_trec", qrels,
                     ROOT / "inputs" / "run.trec")
    assert small_pieces[0] is False  # given up: the whole run was scored instead
    assert done.code == 0 and comparable(done.out) == comparable(whole.out)


def test_a_bad_line_deep_in_the_file_is_reported_with_its_line_number(ranklens: Runner,
                                                                      small_pieces, tmp_path):
    lines = (ROOT / "inputs" / "run.trec").read_text(encoding="utf-8").splitlines(keepends=True)
    at = 1000
    fields = lines[at].split()
    fields[4] = "high"
    lines[at] = " ".join(fields) + "\n"
    run = tmp_path / "run.trec"
    run.write_text("".join(lines), encoding="utf-8")
    done = ranklens("evaluate", "-q", "-m", "map", ROOT / "inputs" / "qrels_answered.trec", run)
    assert done.code == 2
    assert f"line {at + 1}" in done.err and "high" in done.err


def test_a_shuffled_run_gives_the_same_lines(ranklens: Runner, small_pieces, tmp_path):
    lines = (ROOT / "inputs" / "run.trec").read_text(encoding="utf-8").splitlines(keepends=True)
    random.Random(3).shuffle(lines)
    run = tmp_path / "run.trec"
    run.write_text("".join(lines), encoding="utf-8")
    qrels = ROOT / "inputs" / "qrels.trec"
    done = ranklens("evaluate", "-q", "-c", "-m", "all_trec", qrels, run)
    assert small_pieces == []  # never tried: the head shows the queries interleaved
    whole = ranklens("evaluate", "-q", "-c", "-m", "all_trec", qrels,
                     ROOT / "inputs" / "run.trec")
    assert done.code == 0 and comparable(done.out) == comparable(whole.out)


LONG_PREFIX = "doc-collection-2026-shard-07-"


def _long_ids(source, target, column: int) -> None:
    """``source`` with ``LONG_PREFIX`` before every document id (field ``column``) but
    trec_eval's placeholder for a missing query, which the golden qrels judge once."""
    lines = []
    for line in source.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if len(fields) > column and not fields[0].startswith("#") and \
                fields[column] != PLACEHOLDER_DOCNO:
            fields[column] = LONG_PREFIX + fields[column]
        lines.append(" ".join(fields))
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("name", ["all_trec_q_c_l1", "all_trec_q_c_J_l2", "params_q_c"])
def test_long_document_ids_in_small_pieces_print_trec_eval_10s_bytes(ranklens: Runner,
                                                                    small_pieces, tmp_path,
                                                                    name):
    """Every document id 29 bytes longer, in the run and the qrels alike: the order of the ids
    (trec_eval's tie break) and so every line stay those of the golden case, read in pieces
    of a few lines (longer ids: more pieces) and whole. The qrels' ids then differ only past
    their first 16 bytes, which ``unique_ids``' every-byte keys tell apart."""
    case = CASES[name]
    args = case["args"]
    qrels, run = tmp_path / "qrels.trec", tmp_path / "run.trec"
    _long_ids(ROOT / "inputs" / case["qrels"], qrels, 2)
    _long_ids(ROOT / "inputs" / case["run"], run, 2)
    expected = (ROOT / "expected" / f"{name}.txt").read_text(encoding="utf-8")
    pieces = ranklens("evaluate", *args, qrels, run)
    assert pieces.code == 0, pieces.err
    assert small_pieces == [True], "the run was not scored in pieces"
    assert comparable(pieces.out) == comparable(expected)
    pieces_module.PIECE_BYTES = 1 << 30  # undone by the fixture's monkeypatch: read whole
    whole = ranklens("evaluate", *args, qrels, run)
    assert small_pieces == [True], "the run was scored in pieces"
    assert whole.out == pieces.out
