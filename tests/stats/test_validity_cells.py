"""CI-sized cells of docs/validity.md (issue 45): the library's default interval and p-value on
tie-heavy nulls, t(3) tails and small skewed segments. Fixed seeds; each well under 30 s."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from ranklens.data import MetricResult
from ranklens.stats import compare
from ranklens.stats.sign_flip import sign_flip_test

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from validity import fcr_simulation


def _default_on(samples: np.ndarray, truth: float) -> tuple[float, float, float]:
    """Coverage of ``truth``, share of p <= .05, and share where "excludes 0" and p disagree,
    of the sign-flip test inverted (the default before the skew guard, which only widens it;
    2,000 patterns to keep it fast)."""
    covered = rejected = disagree = 0
    for index, deltas in enumerate(samples):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            interval, p, _ = sign_flip_test(deltas, n_permutations=2000, seed=index)
        covered += interval.low <= truth <= interval.high
        rejected += p <= 0.05
        disagree += (interval.low > 0 or interval.high < 0) != (p <= 0.05)
    n = len(samples)
    return covered / n, rejected / n, disagree / n


@pytest.mark.slow
@pytest.mark.parametrize("n", [20, 50])
def test_tie_heavy_null_holds_alpha_and_agrees_with_p(n: int) -> None:
    # 70% exact ties, the rest symmetric: 0.2's bootstrap-t excluded 0 in 13% at n = 20
    rng = np.random.default_rng([45, n])
    samples = np.where(rng.random((1000, n)) < 0.7, 0.0, rng.normal(0.0, 0.05, (1000, n)))
    coverage, type_i, disagree = _default_on(samples, 0.0)
    assert type_i <= 0.055 and disagree == 0.0
    assert coverage == 1.0 - type_i


@pytest.mark.slow
def test_t3_tails_are_covered() -> None:
    # t(3) differences at 20 queries: 0.2's bootstrap-t covered .91-.92; 1,000 samples (+-.007)
    rng = np.random.default_rng(453)
    samples = 0.02 + 0.05 * rng.standard_t(3, (1000, 20))
    coverage, _, disagree = _default_on(samples, 0.02)
    assert coverage >= 0.935 and disagree == 0.0


@pytest.mark.slow
def test_fcr_of_small_normal_segments() -> None:
    numbers = fcr_simulation(60, sizes=(12, 150), distribution="normal", n_alternatives=4)
    assert numbers["disagreements"] == 0  # the interval is the q-value's test inverted
    assert numbers["fcr"] <= 0.05 + 2 * numbers["fcr_se"]


@pytest.mark.slow
def test_fcr_of_small_skewed_segments() -> None:
    # the segments' skew-guarded test (ranklens.stats.skew_guard) against the sign-flip test
    # alone (docs/validity.md, 600 reports: .037 +- .003 against .103 +- .006)
    numbers = fcr_simulation(100, sizes=(12, 150), distribution="exponential", n_alternatives=4)
    assert numbers["disagreements"] == 0
    assert numbers["fcr"] <= 0.05
    # the first 50 of the same reports are enough to show the sign-flip test alone fails here
    # (.100; .090 over 100)
    alone = fcr_simulation(50, sizes=(12, 150), distribution="exponential", n_alternatives=4,
                           interval="sign-flip")
    assert alone["fcr"] > 0.05


@pytest.mark.slow
def test_fcr_of_small_tie_heavy_segments() -> None:
    # 40 segments of 10-150 queries, 70% exact ties and a centred exponential rest, 4 real
    # effects: the guard with Hall's test on all the differences, the adjusted skewness and the
    # tie floor (ranklens.stats.skew_guard) against the sign-flip test alone, 100 and 50 reports
    # (1,000 reports: docs/validity.md)
    numbers = fcr_simulation(100, sizes=(10, 150), distribution="tied", n_alternatives=4)
    assert numbers["disagreements"] == 0
    assert numbers["fcr"] <= 0.05
    # the sign-flip test alone over the first 50 of the same reports: .136 (.149 over 100)
    alone = fcr_simulation(50, sizes=(10, 150), distribution="tied", n_alternatives=4,
                           interval="sign-flip")
    assert alone["fcr"] > 0.1


@pytest.mark.slow
def test_default_holds_alpha_on_skewed_null() -> None:
    # centred exponential differences (skewness 2), 20 queries, no difference: the sign-flip
    # test alone rejects .074-.088 at 10-50 queries (docs/validity.md); `compare`'s default
    # (auto: the skew-guarded test) holds .05, and its interval excludes 0 exactly when p <= .05
    reps, n = 600, 20
    rng = np.random.default_rng([45, 4, n])
    samples = rng.exponential(0.1, (reps, n)) - 0.1
    ids = [f"q{i}" for i in range(n)]
    base = MetricResult("nDCG@10", dict.fromkeys(ids, 0.5))
    rejected = disagree = 0
    for index, deltas in enumerate(samples):
        other = MetricResult("nDCG@10", dict(zip(ids, (0.5 + deltas).tolist(), strict=True)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = compare(base, other, n_permutations=2000, seed=index)
        assert result.interval.method == "skew-guarded"
        rejected += result.p_value <= 0.05
        excludes = result.interval.low > 0 or result.interval.high < 0
        disagree += excludes != (result.p_value <= 0.05)
    mc = np.sqrt(0.05 * 0.95 / reps)  # one Monte Carlo error: .009 at 600 samples
    assert rejected / reps <= 0.055 + mc
    assert disagree == 0
