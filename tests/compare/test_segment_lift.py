"""Each row's relative lift in a report (issue 51: a lift beside every absolute difference):
it agrees with the row's B − A interval about 0 (the skew-guarded default included, tied and
skewed differences too), covers the true lift where the differences are skewed, is written
by every face, and a report written before it still reads (no lift, a dash)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from ranklens import api, demo
from ranklens.compare.report import Report
from ranklens.compare.segments import SegmentOptions, compare_segments
from ranklens.compare.text import render_text
from ranklens.data import MetricResult
from ranklens.stats import PairedOptions, compare
from ranklens.stats.lift import relative_lift

ROOT = Path(__file__).resolve().parents[2]


def _result(values: np.ndarray, metric: str = "nDCG@10") -> MetricResult:
    return MetricResult(metric, {f"q{i:03d}": float(v) for i, v in enumerate(values)})


@pytest.mark.parametrize("shape", ["tied-skewed", "symmetric", "heavy"])
def test_every_row_s_lift_excludes_0_exactly_when_its_interval_does(shape: str) -> None:
    rng = np.random.default_rng(len(shape))
    options = SegmentOptions(PairedOptions(n_permutations=500), segment_column="kind")
    checked = 0
    for _ in range(12):
        n = 90
        a = rng.uniform(0.2, 0.9, n)
        if shape == "tied-skewed":  # most queries untouched, the rest skewed gains
            change = np.where(rng.random(n) < 0.7, 0.0, rng.exponential(0.08, n) - 0.04)
        elif shape == "symmetric":
            change = rng.normal(0.02, 0.1, n)
        else:
            change = 0.03 * rng.standard_t(3, n)
        b = np.clip(a + change, 0.0, 1.0)
        segments = {f"q{i:03d}": ("head", "torso", "tail")[i % 3] for i in range(n)}
        comparison = compare_segments(_result(a), _result(b), segments, options)
        for row in comparison.rows:
            assert row.result is not None and row.lift is not None
            interval = row.result.interval
            assert (row.lift.low > 0 or row.lift.high < 0) == (
                interval.low > 0 or interval.high < 0), (shape, row)
            assert row.lift.low <= row.lift.estimate <= row.lift.high
            assert row.lift.estimate == pytest.approx(row.result.delta / row.result.mean_a,
                                                      rel=1e-5)
            checked += 1
    assert checked == 48


@pytest.mark.slow
def test_the_lift_beside_the_default_interval_covers_skewed_differences() -> None:
    """30 queries, skewed gains on a nDCG-like baseline (true lift known): the lift's interval,
    the ratio's test widened to B − A's skew-guarded interval, covers at least .94 (600
    samples, Monte Carlo sd .009)."""
    rng = np.random.default_rng(2026)
    covered, samples, n = 0, 600, 30
    true_gain, mean_a = 0.04, 2.0 / 4.5
    for rep in range(samples):
        a = rng.beta(2.0, 2.5, n)
        b = a + rng.exponential(true_gain, n) + rng.normal(0.0, 0.05, n)
        result = compare(_result(a), _result(b), n_permutations=1000, seed=rep)
        interval = result.interval
        lift = relative_lift(a, b, n_permutations=1000, seed=rep,
                             difference=(interval.low, interval.high))
        assert lift is not None
        covered += lift.low <= true_gain / mean_a <= lift.high
    assert covered / samples >= 0.94


def test_the_demo_report_s_lift_in_text_and_a_report_written_before_it() -> None:
    paths = demo.paths()
    report = api.compare_runs({"bm25_baseline": paths["run_a"],
                               "neural_reranker": paths["run_b"]}, paths["qrels"],
                              metrics="nDCG@10", segments=paths["segments"],
                              segment_column="intent")
    overall = report.comparison("nDCG@10").rows[0]
    assert overall.lift is not None
    # the ratio's own interval (A's mean estimated too) is the wider part here
    assert (round(overall.lift.estimate, 4), round(overall.lift.low, 4),
            round(overall.lift.high, 4)) == (0.0485, 0.0235, 0.0744)
    text = render_text(report)
    assert "a lift of +4.9% over bm25_baseline's mean (95% CI +2.3% to +7.4%)" in " ".join(
        text.split())
    # a report written before lifts were: its JSON has no "lift"; it reads, with dashes
    old_report = Report.from_json(_without_lifts(report))
    assert all(row.lift is None for row in old_report.comparison("nDCG@10").rows)
    old_text = render_text(old_report)
    assert "a lift of" not in old_text
    [overall_line] = [line for line in old_text.splitlines() if line.startswith("All queries")]
    assert "\u2014" in overall_line


def _without_lifts(report: Report) -> str:
    data = json.loads(report.to_json())

    def strip(value: object) -> object:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("lift", "overall_lift")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return json.dumps(strip(data))


def test_the_cli_prints_the_lift_column() -> None:
    paths = demo.paths()
    out = subprocess.run(
        [str(ROOT / ".venv/bin/ranklens"), "compare", str(paths["run_a"]), str(paths["run_b"]),
         "--qrels", str(paths["qrels"]), "-m", "ndcg@10", "--format", "markdown"],
        capture_output=True, text=True, check=True).stdout
    assert "Lift (95% CI)" in out and "+4.9% (" in out
