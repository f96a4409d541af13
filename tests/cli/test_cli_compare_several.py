"""`ranklens compare BASELINE CAND CAND ...`: a leaderboard, then each candidate's segments."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from ranklens.compare import html as html_report
from ranklens.compare.analysis import CompareSettings, build_report
from ranklens.compare.csv_report import MULTI_CSV_COLUMNS
from ranklens.compare.report import Report
from ranklens.formats import format_delta, format_p
from tests.support.cli_helpers import Runner

FAST = ["--n-resamples", "2000", "--n-permutations", "2000"]


@pytest.fixture
def three(demo_paths: dict[str, Path]) -> list[object]:
    """``BASELINE CAND CAND --qrels QRELS --segments SEGMENTS:intent`` of the demo."""
    return [demo_paths["run_a"], demo_paths["run_b"], demo_paths["run_dense"], "--qrels",
            demo_paths["qrels"], "--segments", f"{demo_paths['segments']}:intent", *FAST]


@pytest.fixture(scope="module")
def expected() -> Report:
    from ranklens import demo

    paths = demo.paths()
    return build_report(paths["run_a"], paths["run_b"], paths["run_dense"], qrels=paths["qrels"],
                        segments=paths["segments"],
                        settings=CompareSettings(segment_column="intent", n_resamples=2000,
                                                 n_permutations=2000))


def test_json_is_the_library_report(ranklens: Runner, three: list[object],
                                    expected: Report) -> None:
    done = ranklens("compare", *three, "--format", "json")
    assert done.code == 0, done.err
    assert done.out == expected.to_json() + "\n"
    data = json.loads(done.out)
    assert data["schema"] == 3
    assert data["run_names"] == ["bm25_baseline", "neural_reranker", "dense_retriever"]


def test_text_leaderboard_then_each_candidate(ranklens: Runner, three: list[object],
                                              expected: Report) -> None:
    done = ranklens("compare", *three)
    assert done.code == 0, done.err
    health, rest = done.out.split("\n\n", 1)  # the health checks open the text
    assert health.startswith("Health checks: 11 passed")
    lines = rest.splitlines()
    assert lines[0] == "nDCG@10: 2 candidates against bm25_baseline"
    header = lines[2]
    for column in ("run", "mean", "B \u2212 A", "95% CI", "p", "adj. p", "W / T / L"):
        assert column in header
    assert lines[4].startswith("bm25_baseline (A, baseline)  0.6186")
    family = expected.family("nDCG@10")
    for line, j in zip(lines[5:7], (1, 2), strict=True):
        result = expected.comparison("nDCG@10", j).overall
        assert line.startswith(expected.run_names[j])
        assert format_delta(result.delta) in line
        assert format_p(family.pair(0, j).adjusted_p) in line
        outcomes = result.outcomes
        assert f"{outcomes.wins:,} / {outcomes.ties:,} / {outcomes.losses:,}" in line
        assert line.rstrip().endswith("*")
    text = done.out
    flowing = " ".join(text.split())
    assert ("On nDCG@10, neural_reranker is better than bm25_baseline; dense_retriever is "
            "worse") in flowing
    assert "Adjusted p: 2 comparisons (each candidate against the baseline, 3 runs)" in text
    assert "400 queries paired across all 3 runs; every run has every one of them." in text
    assert text.index("== neural_reranker against bm25_baseline ==") < text.index(
        "== dense_retriever against bm25_baseline ==")
    flowing = " ".join(text.split())
    assert "adjusted p < 0.001 for 2 candidates" in flowing  # the verdict uses the family's p
    assert text.count("Inputs:") == 1


def test_all_pairs_shows_every_pair(ranklens: Runner, three: list[object]) -> None:
    done = ranklens("compare", *three, "--all-pairs", "--family-method", "holm")
    assert done.code == 0, done.err
    assert "Every pair:" in done.out
    pair_lines = [line for line in done.out.splitlines()
                  if line.split()[:2] == ["dense_retriever", "neural_reranker"]]
    assert len(pair_lines) == 1
    flowing = " ".join(done.out.split())
    assert "3 comparisons (every pair of runs, 3 runs); Holm on each pair's own p" \
        in flowing
    assert "adjusted p ≤ 0.05 for all 3 pairs of 3 runs" in flowing


def test_csv_has_a_row_per_candidate_and_segment(ranklens: Runner, three: list[object],
                                                 expected: Report) -> None:
    done = ranklens("compare", *three, "--format", "csv", "--q-family", "candidates-segments")
    assert done.code == 0, done.err
    rows = list(csv.DictReader(io.StringIO(done.out)))
    assert tuple(rows[0]) == MULTI_CSV_COLUMNS
    assert len(rows) == 2 * 7  # two candidates, overall + six intents each
    overall = [r for r in rows if r["segment"] == "All queries"]
    assert [r["candidate"] for r in overall] == ["neural_reranker", "dense_retriever"]
    assert float(overall[1]["adjusted_p"]) == expected.family("nDCG@10").pair(0, 2).adjusted_p
    assert all(r["adjusted_p"] == "" for r in rows if r["segment"] != "All queries")
    # each candidate's rows carry its own judgement coverage against the baseline
    for candidate, name in ((1, "neural_reranker"), (2, "dense_retriever")):
        coverage = expected.coverage_of(candidate)
        assert coverage is not None
        measured = coverage.metric("nDCG@10")
        assert measured is not None
        mine = [r for r in rows if r["candidate"] == name]
        assert [float(r["judged_b"]) for r in mine] == [c.judged_b for c in measured.rows]
        assert [float(r["judged_a"]) for r in mine] == [c.judged_a for c in measured.rows]
        assert {r["judged_depth"] for r in mine} == {"10"}


def test_markdown_and_html(ranklens: Runner, three: list[object], tmp_path: Path) -> None:
    done = ranklens("compare", *three, "--format", "markdown")
    assert done.code == 0, done.err
    assert done.out.startswith("# 2 candidates vs bm25_baseline\n\n## Health checks\n\n"
                               "11 passed.\n")
    assert "\n\n## Leaderboard: nDCG@10" in done.out
    assert "## neural_reranker vs bm25_baseline" in done.out
    assert "### nDCG@10" in done.out
    out = tmp_path / "report.html"
    done = ranklens("compare", *three, "--format", "html", "--output", out)
    assert done.code == 0, done.err
    page = out.read_text()
    assert 'id="leaderboard-ndcg-10"' in page and 'id="candidate-2"' in page
    # each candidate's metric its own robustness view; the dense retriever's banner links to
    # its own
    assert 'id="candidate-1-robustness-ndcg-10"' in page
    assert page.count('class="warnings guardrail"') == 1
    assert 'href="#candidate-2-robustness-ndcg-10"' in page
    assert 'id="candidate-2-robustness-ndcg-10"' in page
    assert html_report.embedded_report(page).run_names == (
        "bm25_baseline", "neural_reranker", "dense_retriever")


def test_names_and_usage_errors(ranklens: Runner, three: list[object],
                                demo_paths: dict[str, Path]) -> None:
    done = ranklens("compare", *three, "--name", "BM25", "--name", "Neural", "--name", "Light")
    assert done.code == 0, done.err
    assert done.out.split("\n\n", 1)[1].startswith("nDCG@10: 2 candidates against BM25")
    done = ranklens("compare", *three, "--name", "BM25")
    assert done.code == 2 and "1 --name for 3 runs" in done.err
    done = ranklens("compare", demo_paths["run_a"], "--qrels", demo_paths["qrels"])
    assert done.code == 2 and "at least one candidate" in done.err


def test_unjudged_and_proxy_labels_with_several_candidates(ranklens: Runner,
                                                           three: list[object]) -> None:
    from ranklens import demo

    paths = demo.paths()
    done = ranklens("compare", *three, "--proxy-qrels", paths["qrels_proxy_full"],
                    "--unjudged", "proxy", "--format", "json")
    assert done.code == 0, done.err
    expected = build_report(
        paths["run_a"], paths["run_b"], paths["run_dense"], qrels=paths["qrels"],
        segments=paths["segments"], proxy_qrels=paths["qrels_proxy_full"],
        settings=CompareSettings(segment_column="intent", n_resamples=2000,
                                 n_permutations=2000, unjudged="proxy"))
    assert done.out == expected.to_json() + "\n"  # scored while read = read, then scored
    report = Report.from_json(done.out)
    for j in report.candidates:
        coverage = report.coverage_of(j)
        assert coverage is not None and coverage.treatment == "proxy"
        assert [t.treatment for t in coverage.robustness["nDCG@10"]] == [
            "nonrelevant", "judged-only", "proxy"]
