"""One interval type: every result of ranklens answers ``.interval`` with an `Interval`
(low, high, level, method), and the seeds' names (``BootstrapInterval``, ``ci_low``) still
read the same numbers."""

from __future__ import annotations

import numpy as np
import pytest

from ranklens.data import MetricResult
from ranklens.ppi.analysis import ProxyBias
from ranklens.stats import (
    AdjustedInterval,
    BootstrapInterval,
    Interval,
    MeanDifferenceInterval,
    PPIComparison,
    compare,
    confidence_curve,
    fcr_adjust,
    judge_agreement,
    macro_compare,
    new_run_estimate,
    paired_bootstrap,
    paired_t_test,
)


def test_the_seeds_name_is_the_mean_difference_interval_built_as_the_seeds_build_it() -> None:
    assert BootstrapInterval is MeanDifferenceInterval
    made = BootstrapInterval(delta=0.02, low=0.01, high=0.03, alpha=0.05, n_queries=50,
                             n_resamples=1000, seed=0)
    assert isinstance(made, Interval)
    assert (made.low, made.high, made.method) == (0.01, 0.03, "percentile")
    assert made.level == pytest.approx(0.95, abs=1e-15)
    assert made.width == pytest.approx(0.02, abs=1e-15)
    assert made.contains(0.02) and not made.contains(0.0)


def test_paired_bootstrap_returns_the_one_type_with_the_seeds_fields() -> None:
    deltas = np.linspace(-0.1, 0.3, 40)
    got = paired_bootstrap(deltas, n_resamples=500, alpha=0.1, seed=3)
    assert isinstance(got, Interval) and got.method == "percentile"
    assert got.level == pytest.approx(0.9, abs=1e-15)
    assert got.delta == pytest.approx(0.1, abs=1e-12)
    assert got.low < 0.1 < got.high


def _results(n: int, shift: float) -> tuple[MetricResult, MetricResult]:
    rng = np.random.default_rng(1)
    a = rng.random(n)
    b = np.clip(a + shift + rng.normal(0, 0.05, n), 0, 1)
    ids = [f"q{i:03d}" for i in range(n)]
    return MetricResult("nDCG@10", dict(zip(ids, a, strict=True))), \
        MetricResult("nDCG@10", dict(zip(ids, b, strict=True)))


def test_a_comparison_and_its_t_test_answer_with_the_one_type() -> None:
    a, b = _results(60, 0.03)
    result = compare(a, b, n_resamples=300, n_permutations=300)
    assert isinstance(result.interval, Interval)
    assert result.interval.method == "skew-guarded"  # the default at every n (issue 45)
    t = result.t_test.interval
    assert isinstance(t, Interval) and t.method == "t"
    assert (t.low, t.high) == (result.t_test.low, result.t_test.high)
    assert t.level == pytest.approx(1 - result.alpha, abs=1e-15)


def test_the_sign_flip_interval_says_it_is_no_bootstrap() -> None:
    a, b = _results(8, 0.05)  # below MIN_QUERIES: the exact sign-flip test inverted
    with pytest.warns(UserWarning):
        result = compare(a, b, n_resamples=300, n_permutations=300, interval="sign-flip")
    assert isinstance(result.interval, MeanDifferenceInterval)
    assert result.interval.method == "sign-flip" and result.interval.n_resamples == 2**8


def test_ppi_and_the_proxy_bias_answer_with_the_one_type() -> None:
    ppi = PPIComparison("m", 0.5, 0.52, 0.02, 0.005, 0.035, 0.05, 0.01, 0.7, 300, 40, df=38.0)
    assert ppi.interval == Interval(0.005, 0.035, 0.95, "ppi-t")
    asymptotic = PPIComparison("m", 0.5, 0.52, 0.02, 0.005, 0.035, 0.1, 0.01, 0.7, 300, 40)
    assert asymptotic.interval.method == "ppi-normal"
    assert asymptotic.interval.level == pytest.approx(0.9, abs=1e-15)
    bias = ProxyBias(0.01, -0.002, 0.022, 0.1, 0.05, 40)
    assert bias.interval == Interval(-0.002, 0.022, 0.95, "t")


def test_paired_t_test_interval_matches_its_fields() -> None:
    test = paired_t_test(np.array([0.1, 0.2, 0.0, 0.3, 0.1]), alpha=0.05)
    assert test.interval.contains(test.delta)
    assert test.interval.low == test.low and test.interval.high == test.high


def test_the_new_modules_answer_with_the_one_type(rng: np.random.Generator) -> None:
    """Curves, FCR, the new training run, the macro average and the judge check: each interval
    is an `Interval`, with the numbers its own fields used to carry."""
    deltas = rng.normal(0.02, 0.05, 60)
    curve = confidence_curve(deltas, method="t")
    at_90 = curve.interval(0.10)
    direct = paired_t_test(deltas, alpha=0.10)
    assert isinstance(at_90, Interval) and at_90.method == "t"
    assert (at_90.low, at_90.high) == pytest.approx((direct.low, direct.high), abs=1e-14)
    assert at_90.level == pytest.approx(0.9, abs=1e-15)

    a, b = _results(60, 0.02)
    comparison = compare(a, b, n_resamples=300, n_permutations=300)
    shown = fcr_adjust([comparison]).intervals[0]
    assert isinstance(shown, Interval) and isinstance(shown, AdjustedInterval)
    assert shown.marginal == comparison.interval  # one selected of one: the level is 1 - alpha
    assert shown.level == pytest.approx(comparison.interval.level, abs=1e-15)
    assert shown.excludes_zero == (shown.low > 0 or shown.high < 0)

    runs_a = rng.normal(0.4, 0.1, (40, 3))
    new_run = new_run_estimate(runs_a, runs_a + 0.01 + rng.normal(0, 0.02, (40, 3)))
    assert isinstance(new_run.interval, Interval)
    assert (new_run.low, new_run.high) == (new_run.interval.low, new_run.interval.high)
    assert new_run.interval.level == 0.95 and new_run.alpha == pytest.approx(0.05, abs=1e-15)

    macro = macro_compare({"x": deltas[:30], "y": deltas[30:]}, n_resamples=200,
                          n_permutations=200, alpha=0.1)
    assert isinstance(macro.interval, Interval) and macro.interval.method == "studentized"
    assert macro.interval.level == pytest.approx(0.9, abs=1e-15)
    assert macro.interval.contains(macro.estimate)

    queries = np.repeat(np.arange(20), 5)
    gold = rng.integers(0, 3, queries.size)
    judge = judge_agreement(queries, gold, np.clip(gold + rng.integers(-1, 2, gold.size), 0, 2),
                            n_resamples=200)
    assert isinstance(judge.kappa_linear.interval, Interval)
    assert judge.kappa_linear.interval.level == 0.95
    assert judge.kappa_linear.interval.method == "bootstrap percentile over queries"
