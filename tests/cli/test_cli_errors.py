"""Bad usage and bad input: exit status 2 and one line on stderr, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli_helpers import Outcome, Runner


def _one_line_error(done: Outcome) -> str:
    assert done.code == 2
    assert done.out == ""
    assert done.err.endswith("\n") and done.err.count("\n") == 1, done.err
    assert "Traceback" not in done.err
    return done.err


def test_malformed_run_names_the_file_and_line(ranklens: Runner, demo_paths: dict[str, Path],
                                              tmp_path: Path) -> None:
    bad = tmp_path / "bad_run.trec"
    bad.write_text("q1 Q0 d1 1 0.5 tag\nq1 Q0 d2 2 not-a-number tag\n")
    err = _one_line_error(ranklens("compare", bad, demo_paths["run_b"], "--qrels",
                                   demo_paths["qrels"]))
    assert err.startswith("ranklens: error: bad_run.trec")
    assert "line 2" in err


def test_missing_file(ranklens: Runner, demo_paths: dict[str, Path], tmp_path: Path) -> None:
    err = _one_line_error(ranklens("compare", tmp_path / "nope.trec", demo_paths["run_b"],
                                   "--qrels", demo_paths["qrels"]))
    assert "nope.trec" in err and "not found" in err


def test_unknown_metric(ranklens: Runner, runs: list[object]) -> None:
    err = _one_line_error(ranklens("compare", *runs, "--metric", "ndgc@10"))
    assert "unknown metric 'ndgc@10'" in err


def test_unknown_metric_in_evaluate(ranklens: Runner, demo_paths: dict[str, Path]) -> None:
    err = _one_line_error(ranklens("evaluate", demo_paths["run_a"], "--qrels",
                                   demo_paths["qrels"], "-m", "bogus"))
    assert "unknown metric" in err


@pytest.mark.parametrize("args, words", [
    (["compare"], "required"),
    (["compare", "a", "b", "--alpha", "2"], "--alpha"),
    (["compare", "a", "b", "--n-resamples", "ten"], "--n-resamples"),
    (["compare", "a", "b", "--format", "pdf"], "invalid choice"),
    (["evaluate", "run.trec"], "--qrels"),
    (["mde", "--sd", "-1"], "--sd"),
    (["frobnicate"], "invalid choice"),
    ([], "required"),
])
def test_usage_errors(ranklens: Runner, args: list[str], words: str) -> None:
    err = _one_line_error(ranklens(*args))
    assert words in err and "--help" in err


def test_segments_with_two_columns_need_one_picked(ranklens: Runner, runs: list[object],
                                                   demo_paths: dict[str, Path]) -> None:
    err = _one_line_error(ranklens("compare", *runs, "--segments", demo_paths["segments"]))
    assert "intent, length" in err and "segments.tsv:intent" in err


def test_unknown_segment_column(ranklens: Runner, runs: list[object],
                                demo_paths: dict[str, Path]) -> None:
    err = _one_line_error(ranklens("compare", *runs, "--segments",
                                   f"{demo_paths['segments']}:country"))
    assert "no segment column 'country'" in err


def test_qrels_given_as_run(ranklens: Runner, demo_paths: dict[str, Path]) -> None:
    err = _one_line_error(ranklens("compare", demo_paths["qrels"], demo_paths["run_b"],
                                   "--qrels", demo_paths["qrels"]))
    assert "qrels" in err


def test_unwritable_output(ranklens: Runner, runs: list[object], tmp_path: Path) -> None:
    err = _one_line_error(ranklens("compare", *runs, "--n-resamples", "200",
                                   "-o", tmp_path / "no" / "such" / "dir.txt"))
    assert "cannot write" in err


def test_help_exits_zero(ranklens: Runner) -> None:
    done = ranklens("compare", "--help")
    assert done.code == 0 and "--segments" in done.out


def test_first_bad_file_in_argument_order_is_reported(ranklens: Runner, tmp_path: Path,
                                                      demo_paths: dict[str, Path]) -> None:
    bad_run = tmp_path / "bad_run.trec"
    bad_run.write_text("q1 Q0 d1 1 x tag\n")
    bad_qrels = tmp_path / "bad_qrels.trec"
    bad_qrels.write_text("q1 0 d1 high\n")
    err = _one_line_error(ranklens("compare", demo_paths["run_a"], bad_run, "--qrels",
                                   bad_qrels))
    assert err.startswith("ranklens: error: bad_run.trec")
