"""`ranklens compare`: the numbers are the library's, in every format."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pandas as pd
import pytest

from ranklens.compare.analysis import CompareSettings, build_report, load_inputs
from ranklens.compare.report import Report
from ranklens.formats import format_delta
from ranklens.io import InputFile
from tests.support.cli_helpers import Runner

FAST = ["--n-resamples", "2000", "--n-permutations", "2000"]


def _files(demo_paths: dict[str, Path], *roles: str) -> dict[str, InputFile]:
    return {role: InputFile.from_path(role, demo_paths[role]) for role in roles}


def test_json_equals_build_report_byte_for_byte(ranklens: Runner, runs: list[object],
                                                demo_paths: dict[str, Path]) -> None:
    done = ranklens("compare", *runs, "--segments", f"{demo_paths['segments']}:intent",
                    "-m", "ndcg@10", "-m", "map", "--seed", "7", *FAST, "--format", "json")
    assert done.code == 0, done.err
    files = _files(demo_paths, "run_a", "run_b", "qrels", "segments")
    expected = build_report(
        files["run_a"], files["run_b"], qrels=files["qrels"], segments=files["segments"],
        settings=CompareSettings(metrics=("ndcg@10", "map"), segment_column="intent", seed=7,
                                 n_resamples=2000, n_permutations=2000))
    assert done.out == expected.to_json() + "\n"
    assert Report.from_json(done.out) == expected


def test_text_shows_table_verdict_note_and_segments(ranklens: Runner, runs: list[object],
                                                    demo_paths: dict[str, Path]) -> None:
    done = ranklens("compare", *runs, "--segments", f"{demo_paths['segments']}:intent", *FAST)
    assert done.code == 0, done.err
    text = done.out
    header = next(line for line in text.splitlines() if line.startswith("intent"))
    for column in ("n", "A: bm25_baseline", "B: neural_reranker", "95% CI", "p", "q"):
        assert column in header
    rows = {line.split("  ")[0].strip(): line for line in text.splitlines()}
    for segment in ("All queries", "how-to", "informational", "local", "navigational",
                    "news", "product"):
        assert segment in rows
    files = _files(demo_paths, "run_a", "run_b", "qrels", "segments")
    report = build_report(files["run_a"], files["run_b"], qrels=files["qrels"],
                          segments=files["segments"],
                          settings=CompareSettings(segment_column="intent", n_resamples=2000,
                                                   n_permutations=2000))
    for row in report.comparisons[0].rows:
        assert row.result is not None
        line = rows[row.segment]
        assert format_delta(row.result.delta) in line
        assert f"{row.result.mean_a:.4f}" in line and f"{row.result.mean_b:.4f}" in line
        assert line.rstrip().endswith("*") == row.result.significant
    assert "neural_reranker is better than bm25_baseline on nDCG@10" in text
    assert "Segment intervals are FCR-adjusted" in text
    assert "does not say" in text
    assert done.err == ""  # no status line: stderr is not a terminal


def test_text_columns_are_aligned(ranklens: Runner, runs: list[object],
                                  demo_paths: dict[str, Path]) -> None:
    done = ranklens("compare", *runs, "--segments", f"{demo_paths['segments']}:length", *FAST)
    lines = done.out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("length"))
    table = lines[start:lines.index("", start)]
    # every interval reads "low to high" (ranklens.formats) and starts in one column
    starts = {line.index(" to ") for line in table[2:]}
    assert len(starts) == 1
    assert "[" not in "".join(table)


def test_csv_parses_with_the_reports_numbers(ranklens: Runner, runs: list[object],
                                              demo_paths: dict[str, Path]) -> None:
    done = ranklens("compare", *runs, "--segments", f"{demo_paths['segments']}:intent", *FAST,
                    "-f", "csv")
    table = pd.read_csv(io.StringIO(done.out))
    assert table["segment"].iloc[0] == "All queries"
    assert len(table) == 7
    report = Report.from_json(
        ranklens("compare", *runs, "--segments", f"{demo_paths['segments']}:intent", *FAST,
                 "-f", "json").out)
    rows = report.comparisons[0].rows
    assert table["delta"].tolist() == [row.result.delta for row in rows if row.result]
    assert table["n_queries"].tolist() == [row.n_queries for row in rows]
    # judgement coverage closes every row: judged@10 of each run over the row's queries
    assert report.coverage is not None
    coverage = report.coverage.metric("nDCG@10")
    assert coverage is not None and coverage.depth == 10
    assert list(table.columns[-4:]) == ["judged_depth", "judged_a", "judged_b", "health"]
    assert table["judged_depth"].tolist() == [10] * 7
    assert table["judged_a"].tolist() == [row.judged_a for row in coverage.rows]
    assert table["judged_b"].tolist() == [row.judged_b for row in coverage.rows]
    assert table["judged_b"].iloc[0] < 1.0  # the demo's neural run retrieves unjudged ones


def test_markdown_table_shape(ranklens: Runner, runs: list[object],
                              demo_paths: dict[str, Path]) -> None:
    done = ranklens("compare", *runs, "--segments", f"{demo_paths['segments']}:intent", *FAST,
                    "-f", "markdown")
    lines = done.out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    table = lines[start:lines.index("", start)]  # the segments' table, the first
    widths = {line.replace("\\|", "").count("|") for line in table}
    assert len(widths) == 1
    assert set(table[1].replace("|", "")) == {"-"}
    assert len(table) == 2 + 7
    assert lines[0].startswith("# neural_reranker vs bm25_baseline")


def test_output_file(ranklens: Runner, runs: list[object], tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    done = ranklens("compare", *runs, *FAST, "-f", "json", "-o", target)
    assert done.code == 0 and done.out == ""
    assert json.loads(target.read_text())["kind"] == "compare"


def test_per_query_tables_instead_of_runs(ranklens: Runner, runs: list[object],
                                          demo_paths: dict[str, Path], tmp_path: Path) -> None:
    files = _files(demo_paths, "run_a", "run_b", "qrels")
    inputs = load_inputs(files["run_a"], files["run_b"], qrels=files["qrels"])
    eval_a, eval_b = inputs.evaluations(("nDCG@10", "AP"))
    tables = []
    for name, evaluation in (("a.tsv", eval_a), ("b.tsv", eval_b)):
        path = tmp_path / name
        evaluation.to_frame().to_csv(path, sep="\t", index=False)
        tables.append(path)
    from_runs = json.loads(ranklens("compare", *runs, "-m", "ndcg@10", *FAST, "-f", "json").out)
    done = ranklens("compare", *tables, "-m", "ndcg_cut_10", *FAST, "-f", "json")
    assert done.code == 0, done.err
    from_tables = json.loads(done.out)
    assert from_tables["comparisons"][0]["overall"] == from_runs["comparisons"][0]["overall"]
    both = json.loads(ranklens("compare", *tables, *FAST, "-f", "json").out)
    assert [c["metric"] for c in both["comparisons"]] == ["nDCG@10", "AP"]


def test_html_format_writes_one_html_document(ranklens: Runner, runs: list[object]) -> None:
    done = ranklens("compare", *runs, *FAST, "-f", "html")
    assert done.code == 0, done.err
    assert done.out.lower().startswith("<!doctype html>")
    assert done.out.rstrip().lower().endswith("</html>")


@pytest.mark.parametrize("segments_flag", ["intent", "length"])
def test_segment_column_picked(ranklens: Runner, runs: list[object],
                               demo_paths: dict[str, Path], segments_flag: str) -> None:
    done = ranklens("compare", *runs, "--segments",
                    f"{demo_paths['segments']}:{segments_flag}", *FAST, "-f", "json")
    report = json.loads(done.out)
    assert report["params"]["segment_column"] == segments_flag
    assert report["comparisons"][0]["segment_column"] == segments_flag


def test_timings_on_request_only(ranklens: Runner, runs: list[object]) -> None:
    done = ranklens("compare", *runs, *FAST, "-f", "json", "--timings")
    assert done.code == 0
    line = done.err.strip()
    assert line.startswith("ranklens: timings: reading the inputs ")
    assert "(CPU " in line
    for stage in ("scoring the runs", "comparing", "writing", "total"):
        assert stage in line
