"""``ranklens compare --unjudged ... --proxy-qrels`` and the new metrics in ``evaluate``."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranklens.compare.coverage_words import BANNER_TITLE, ROBUSTNESS_TITLE
from ranklens.compare.report import Report
from tests.support.cli_helpers import Runner

FAST = ("--n-resamples", "1000", "--n-permutations", "1000")


@pytest.fixture
def dense(demo_paths: dict[str, Path]) -> list[object]:
    """The demo baseline against the dense retriever, with the proxy labels of every top 20."""
    return [demo_paths["run_a"], demo_paths["run_dense"], "--qrels", demo_paths["qrels"],
            "--proxy-qrels", demo_paths["qrels_proxy_full"]]


def test_banner_line_before_the_table_and_three_treatments(ranklens: Runner,
                                                           dense: list[object]) -> None:
    done = ranklens("compare", *dense, *FAST)
    assert done.code == 0, done.err
    lines = done.out.splitlines()
    banner = next(i for i, line in enumerate(lines) if line.startswith(f"! {BANNER_TITLE}"))
    table = next(i for i, line in enumerate(lines) if line.startswith("All queries"))
    assert banner < table
    assert "dense_retriever's top 10 is 5" in done.out
    robustness = done.out[done.out.index(f"{ROBUSTNESS_TITLE} (nDCG@10)"):]
    for name in ("Non-relevant (default) \u2190 used", "Judged-only (-J)", "Proxy labels"):
        assert name in robustness


@pytest.mark.parametrize("treatment", ["judged-only", "proxy"])
def test_unjudged_treatment_changes_the_scored_values(ranklens: Runner, dense: list[object],
                                                      treatment: str) -> None:
    default = Report.from_json(ranklens("compare", *dense, *FAST, "-f", "json").out)
    other = Report.from_json(ranklens("compare", *dense, *FAST, "--unjudged", treatment,
                                      "-f", "json").out)
    assert other.params["unjudged"] == treatment
    rows = {row.treatment: row.result for row in default.coverage.robustness["nDCG@10"]}
    assert other.comparison("nDCG@10").overall.delta == pytest.approx(rows[treatment].delta)
    assert other.comparison("nDCG@10").overall.delta != pytest.approx(
        default.comparison("nDCG@10").overall.delta)


def test_proxy_treatment_without_proxy_qrels_is_a_usage_error(ranklens: Runner,
                                                                runs: list[object]) -> None:
    done = ranklens("compare", *runs, "--unjudged", "proxy")
    assert done.code == 2 and "--proxy-qrels" in done.err and "Traceback" not in done.err


def test_evaluate_prints_rbp_with_its_residual(ranklens: Runner,
                                               demo_paths: dict[str, Path]) -> None:
    done = ranklens("evaluate", demo_paths["run_dense"], "--qrels", demo_paths["qrels"],
                    "-m", "RBP(p=0.8)", "-m", "bpref", "-m", "ERR@20", "-q")
    assert done.code == 0, done.err
    names = {line.split("\t")[0].strip() for line in done.out.splitlines()}
    assert names == {"RBP(p=0.8)", "RBP(p=0.8)_residual", "bpref", "ERR@20"}
    means = {line.split("\t")[0].strip(): float(line.split("\t")[2])
             for line in done.out.splitlines() if line.split("\t")[1] == "q0000"}
    assert 0 <= means["RBP(p=0.8)"] <= 1 and 0 < means["RBP(p=0.8)_residual"] <= 1
