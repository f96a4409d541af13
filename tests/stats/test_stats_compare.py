"""compare(): one record with everything the verdict needs, consistent with its parts."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import warnings

import numpy as np
import pytest

from ranklens.data import MetricResult
from ranklens.stats import (
    ComparisonResult,
    InsufficientSampleError,
    compare,
    paired_bootstrap,
    paired_t_test,
    permutation_test,
)
from ranklens.stats.results import ROW_KEYS
from tests.support.stats_helpers import results_from


@pytest.fixture
def pair(rng: np.random.Generator) -> tuple[MetricResult, MetricResult]:
    a = np.round(rng.uniform(0, 1, 250), 2)
    b = np.clip(np.round(a + rng.normal(0.02, 0.1, 250), 2), 0, 1)
    return results_from(a, b)


def test_fields_agree_with_the_functions_they_come_from(pair) -> None:  # type: ignore[no-untyped-def]
    a, b = pair
    result = compare(a, b, n_resamples=2000, n_permutations=2000, seed=4, interval="percentile")
    deltas = b.values - a.values
    interval = paired_bootstrap(deltas, n_resamples=2000, seed=4)
    t_test = paired_t_test(deltas)
    assert isinstance(result, ComparisonResult)
    assert (result.interval.low, result.interval.high) == (interval.low, interval.high)
    assert result.p_value == permutation_test(deltas, n_permutations=2000, seed=4)
    assert (result.t_test.p_value, result.t_test.low, result.t_test.high) == (
        t_test.p_value,
        t_test.low,
        t_test.high,
    )
    assert result.mean_a == pytest.approx(a.mean) and result.mean_b == pytest.approx(b.mean)
    assert result.delta == pytest.approx(b.mean - a.mean)
    assert result.outcomes.wins == int(np.sum(deltas > 0))
    assert result.outcomes.ties == int(np.sum(deltas == 0))
    outcomes = result.outcomes
    assert outcomes.wins + outcomes.ties + outcomes.losses == result.n_queries == 250
    assert result.effect_size == pytest.approx(deltas.mean() / deltas.std(ddof=1))
    assert (result.n_resamples, result.n_permutations, result.seed, result.interval.method) == (
        2000,
        2000,
        4,
        "percentile",
    )
    assert (result.n_only_a, result.n_only_b, result.q_value) == (0, 0, None)
    assert result.metric == "nDCG@10"


def test_same_inputs_and_seed_give_the_same_numbers(pair) -> None:  # type: ignore[no-untyped-def]
    first = compare(*pair, n_resamples=1000, n_permutations=1000, seed=3)
    assert compare(*pair, n_resamples=1000, n_permutations=1000, seed=3) == first
    sequence = np.random.SeedSequence(99).spawn(2)[0]
    by_sequence = compare(*pair, n_resamples=1000, n_permutations=1000, seed=sequence)
    again = compare(*pair, n_resamples=1000, n_permutations=1000, seed=sequence)
    assert dataclasses.replace(by_sequence, seed=0) == dataclasses.replace(again, seed=0)


def test_bootstrap_and_permutation_use_separate_streams() -> None:
    # with one shared stream the permutation test would reuse the bootstrap's draws; the
    # purpose tags keep them apart, so changing the resample count leaves p untouched
    a, b = results_from(np.zeros(100), np.random.default_rng(1).normal(0.02, 0.1, 100))
    p_small = compare(a, b, n_resamples=100, n_permutations=500).p_value
    assert compare(a, b, n_resamples=3000, n_permutations=500).p_value == p_small


def test_missing_policies_are_counted(pair) -> None:  # type: ignore[no-untyped-def]
    a, b = pair
    a2 = MetricResult(a.metric, {**a.per_query, "extra_a": 0.5})
    b2 = MetricResult(b.metric, {**b.per_query, "extra_b1": 0.5, "extra_b2": 0.1})
    with pytest.warns(UserWarning, match="dropped 1 queries only in run A"):
        dropped = compare(a2, b2, n_resamples=200, n_permutations=200)
    assert (dropped.n_queries, dropped.n_only_a, dropped.n_only_b) == (250, 1, 2)
    zero = compare(a2, b2, n_resamples=200, n_permutations=200, missing="zero")
    assert (zero.n_queries, zero.n_only_a, zero.n_only_b, zero.missing) == (253, 1, 2, "zero")
    with pytest.raises(ValueError, match="1 queries only in run A"):
        compare(a2, b2, missing="error")


def test_studentized_interval_option(pair) -> None:  # type: ignore[no-untyped-def]
    result = compare(*pair, n_resamples=1000, n_permutations=100, interval="studentized")
    assert result.interval.method == "studentized"
    assert result.interval.low < result.delta < result.interval.high


def test_input_errors(pair) -> None:  # type: ignore[no-untyped-def]
    a, b = pair
    with pytest.raises(ValueError, match="one metric"):
        compare(a, MetricResult("AP", b.per_query))
    with pytest.raises(ValueError, match="alpha"):
        compare(a, b, alpha=1.5)
    one_a, one_b = MetricResult("m", {"q": 0.1}), MetricResult("m", {"q": 0.3})
    with pytest.warns(UserWarning), pytest.raises(InsufficientSampleError):
        compare(one_a, one_b)


def test_constant_differences_have_infinite_effect_size() -> None:
    a, b = results_from(np.full(30, 0.2), np.full(30, 0.3))
    result = compare(a, b, n_resamples=200, n_permutations=200)
    assert result.effect_size == np.inf and np.isnan(result.t_test.p_value)
    assert result.outcomes.wins == 30 and result.p_value < 0.01


def test_stats_imports_neither_pandas_nor_streamlit() -> None:
    code = (
        "import sys, ranklens.stats; "
        "print(sorted(m for m in ('pandas', 'streamlit', 'scipy', 'pyarrow') if m in sys.modules))"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert output.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("n", "method", "shift"),
    [(250, "skew-guarded", 0.02), (12, "skew-guarded", 0.02), (12, "sign-flip", 0.02),
     (30, "percentile", 0.0), (40, "studentized", 0.01)],
)
def test_a_row_reads_back_into_the_same_result(n: int, method: str, shift: float) -> None:
    rng = np.random.default_rng(n)
    a = rng.uniform(0, 1, n)
    b = np.clip(a + rng.normal(shift, 0.1, n), 0, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 12 queries: a small-sample warning
        result = compare(*results_from(a, b), n_resamples=500, n_permutations=500, seed=5,
                         interval="auto" if method == "skew-guarded" else method)
    assert result.interval.method == method
    row = result.row()
    assert tuple(row) == ROW_KEYS
    read = ComparisonResult.from_row(row)
    assert read == result and read.row() == row
    # the row holds no t statistic: recomputed from the t-interval, to float rounding
    assert read.t_test.statistic == pytest.approx(result.t_test.statistic, rel=1e-12)


def test_a_row_of_constant_differences_reads_back_exactly() -> None:
    a, b = results_from(np.full(30, 0.2), np.full(30, 0.3))
    result = compare(a, b, n_resamples=200, n_permutations=200)
    assert np.isnan(result.t_test.statistic)  # no spread: t undefined (0.3)
    read = ComparisonResult.from_row(result.row())
    assert read.row() == ComparisonResult.from_row(read.row()).row()
    assert np.isnan(read.t_test.statistic) and np.isnan(read.t_test.p_value)
    assert (read.interval, read.p_value, read.delta) == (
        result.interval, result.p_value, result.delta)
