"""Inputs trec_eval 10.0 reads and ranklens refuses or handles its own way: each message says
what trec_eval would have done (the values quoted were printed by the 10.0 binary)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranklens import io
from tests.support.cli_helpers import Runner


def _files(tmp_path: Path, qrels: bytes, run: bytes) -> tuple[Path, Path]:
    (tmp_path / "qrels").write_bytes(qrels)
    (tmp_path / "run").write_bytes(run)
    return tmp_path / "qrels", tmp_path / "run"


@pytest.mark.parametrize(("score", "atof"), [("0x10", "16"), ("abc", "0")])
def test_a_score_c_reads_as_a_number_is_refused_with_what_atof_makes_of_it(
        ranklens: Runner, tmp_path, score, atof):
    qrels, run = _files(tmp_path, b"1 0 a 1\n1 0 b 0\n",
                        f"1 Q0 a 1 {score} r\n1 Q0 b 2 1 r\n".encode())
    done = ranklens("evaluate", "-q", "-m", "P.1", qrels, run)
    assert done.code == 2 and not done.out
    assert f"score '{score}' is not a number" in done.err
    assert f"trec_eval's atof would read it as {atof}" in done.err


def test_a_decimal_comma_in_a_score_is_named(ranklens: Runner, tmp_path):
    qrels, run = _files(tmp_path, b"1 0 a 1\n", b"1 Q0 a 1 2,5 r\n1 Q0 b 2 1 r\n")
    done = ranklens("evaluate", "-m", "P.1", qrels, run)
    assert done.code == 2 and "decimal comma in the score ('2,5')" in done.err
    assert "atof would read '2,5' as 2" in done.err


def test_latin1_ids_are_refused_saying_trec_eval_compares_bytes(ranklens: Runner, tmp_path):
    qrels, run = _files(tmp_path, b"1 0 a 1\n", b"1 Q0 \xe9a 1 2 r\n")
    done = ranklens("evaluate", "-m", "P.1", qrels, run)
    assert done.code == 2 and "not UTF-8" in done.err and "raw bytes" in done.err


def test_fractional_grades_are_refused_or_truncated_as_trec_eval_on_a_flag(
        ranklens: Runner, tmp_path):
    qrels, run = _files(tmp_path, b"1 0 a 0.73\n1 0 b 2.5\n", b"1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n")
    refused = ranklens("evaluate", "-q", "-m", "P.1", "-m", "ndcg", qrels, run)
    assert refused.code == 2 and "relevance 0.73 is not an integer grade" in refused.err
    assert "--truncate-grades" in refused.err and "atol" in refused.err
    done = ranklens("evaluate", "--truncate-grades", "-q", "-m", "P.1", "-m", "ndcg", qrels,
                    run)
    # trec_eval 10.0 on the same files (grades 0 and 2 after atol)
    assert done.out.splitlines() == [
        f"{'P_1':<22}\t1\t0.0000", f"{'ndcg':<22}\t1\t0.6309",
        f"{'P_1':<22}\tall\t0.0000", f"{'ndcg':<22}\tall\t0.6309"]
    assert "2 fractional grade(s) truncated" in done.err


def test_a_byte_order_mark_is_skipped_and_the_summary_says_what_trec_eval_does(tmp_path):
    _, run = _files(tmp_path, b"", b"\xef\xbb\xbf1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n")
    read, summary = io.read_run(run)
    assert read.queries.to_pylist() == ["1"]
    assert any("byte-order mark" in note and "first query id" in note for note in summary.notes)


def test_an_ms_marco_run_says_it_is_a_ranklens_extension(tmp_path):
    _, run = _files(tmp_path, b"", b"1\ta\t1\n1\tb\t2\n")
    _, summary = io.read_run(run)
    assert any("trec_eval refuses a three-field run line" in note for note in summary.notes)


def test_minus_l_0_counts_grade_0_as_relevant(ranklens: Runner, tmp_path):
    qrels, run = _files(tmp_path, b"1 0 a 0\n1 0 b 1\n", b"1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n")
    done = ranklens("evaluate", "-l", "0", "-m", "num_rel", "-m", "P.1", qrels, run)
    assert done.code == 0, done.err
    assert done.out.splitlines() == [f"{'num_rel':<22}\tall\t2", f"{'P_1':<22}\tall\t1.0000"]


def test_the_issue_example_of_num_rel_under_c(ranklens: Runner, tmp_path):
    qrels, run = _files(tmp_path, b"1 0 a 2\n1 0 b 1\n2 0 c 1\n",
                        b"1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n")
    for flags in (["-c", "-l", "2"], ["-c"]):
        done = ranklens("evaluate", *flags, "-m", "num_rel", qrels, run)
        assert done.out == f"{'num_rel':<22}\tall\t3\n"
    done = ranklens("evaluate", "-m", "num_rel", qrels, run)
    assert done.code == 4 and not done.out and "judged query '2'" in done.err
