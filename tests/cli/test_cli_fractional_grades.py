"""Fractional grades on the command line: the trec_eval drop-in refuses them (or truncates them
on a flag that says so); ``ranklens compare`` reads them as gains and says the rule."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tests.support.cli_helpers import Runner

QRELS = b"1 0 a 0.73\n1 0 b 2.5\n1 0 c 1\n1 0 d 0.99\n2 0 a 1.5\n2 0 e 0\n"
RUN_A = b"1 Q0 a 1 4 r\n1 Q0 b 2 3 r\n1 Q0 d 3 2 r\n1 Q0 x 4 1 r\n2 Q0 e 1 2 r\n2 Q0 a 2 1 r\n"
RUN_B = b"1 Q0 b 1 4 r\n1 Q0 c 2 3 r\n2 Q0 a 1 2 r\n2 Q0 e 2 1 r\n"
RULE = ("4 of 6 judgements have fractional grades (0.73, 0.99, …): read as gains for nDCG and "
        "ERR; relevant when grade >= ")


def _write(tmp_path: Path) -> tuple[Path, Path, Path]:
    paths = tmp_path / "qrels.txt", tmp_path / "a.run", tmp_path / "b.run"
    for path, data in zip(paths, (QRELS, RUN_A, RUN_B), strict=True):
        path.write_bytes(data)
    return paths


def test_evaluate_refuses_a_fractional_grade_naming_the_line_and_the_flag(
        ranklens: Runner, tmp_path: Path) -> None:
    qrels, run, _ = _write(tmp_path)
    done = ranklens("evaluate", "-q", "-m", "ndcg", qrels, run)
    assert done.code == 2 and not done.out
    assert f"{qrels}, line 1: relevance 0.73 is not an integer grade" in done.err
    assert "--truncate-grades" in done.err and "'ranklens compare'" in done.err


def test_compare_reads_fractional_grades_as_gains_and_its_json_says_the_rule(
        ranklens: Runner, tmp_path: Path) -> None:
    qrels, run_a, run_b = _write(tmp_path)
    done = ranklens("compare", run_a, run_b, "--qrels", qrels, "-m", "nDCG@10", "-m", "AP",
                    "-m", "P@2", "--format", "json")
    assert done.code == 0, done.err
    report = json.loads(done.out)
    record = next(r for r in report["inputs"] if r["role"] == "qrels")
    assert any(note.startswith(RULE + "the relevance level (1 unless set) for P, recall, AP")
               for note in record["summary"]["notes"])
    grades = next(c for c in report["health"]["checks"] if c["key"] == "grades")
    assert grades["status"] == "passed"
    assert grades["message"] == (f"{record['name']}'s grades run from 0 to 2.5; {RULE}1 for P, "
                                 "recall, AP, RR, R-Prec, bpref, success and RBP.")
    assert grades["numbers"]["fractional"] == 4
    # the numbers, by hand: gains are the grades; relevant means grade >= 1
    ideal_1 = 2.5 + 1 / math.log2(3) + 0.99 / 2 + 0.73 / math.log2(5)
    per_query = report["per_query"]
    ndcg = per_query["nDCG@10"]
    assert ndcg["a"]["1"] == pytest.approx((0.73 + 2.5 / math.log2(3) + 0.99 / 2) / ideal_1,
                                           abs=1e-12)
    assert ndcg["b"]["1"] == pytest.approx((2.5 + 1 / math.log2(3)) / ideal_1, abs=1e-12)
    assert ndcg["a"]["2"] == pytest.approx(1 / math.log2(3), abs=1e-12)
    assert per_query["AP"]["a"] == {"1": 0.25, "2": 0.5}  # 0.73 and 0.99 are not relevant
    assert per_query["P@2"]["b"] == {"1": 1.0, "2": 0.5}  # 1.0 is


def test_the_library_compare_reads_them_the_same_way(tmp_path: Path) -> None:
    import ranklens

    qrels, run_a, run_b = _write(tmp_path)
    report = ranklens.compare_runs({"a": run_a, "b": run_b}, qrels,
                                   metrics=["P(rel=2)@2", "ERR@20"])
    # 2.5 is relevant at level 2, 1.5 and 1.0 are not
    assert report.per_query["P(rel=2)@2"] == {"a": {"1": 0.5, "2": 0.0},
                                             "b": {"1": 0.5, "2": 0.0}}
    stop = [(2 ** g - 1) / 16 for g in (0.73, 2.5, 0.99)]
    err_a = stop[0] + (1 - stop[0]) * stop[1] / 2 + (1 - stop[0]) * (1 - stop[1]) * stop[2] / 3
    assert report.per_query["ERR@20"]["a"]["1"] == pytest.approx(err_a, abs=1e-12)
    notes = next(r.summary["notes"] for r in report.inputs if r.role == "qrels")
    assert any(note.startswith(RULE) for note in notes)
