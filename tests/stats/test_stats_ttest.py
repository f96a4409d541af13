"""paired_t_test against scipy's one-sample t-test on the differences."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from ranklens.stats import InsufficientSampleError, paired_t_test


@pytest.mark.parametrize("n", [2, 5, 20, 300, 7000])
def test_matches_scipy(n: int) -> None:
    rng = np.random.default_rng(n)
    deltas = rng.normal(0.01, 0.1, n)
    result = paired_t_test(deltas, alpha=0.1)
    expected = stats.ttest_1samp(deltas, 0.0)
    assert result.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert result.p_value == pytest.approx(expected.pvalue, rel=1e-9)
    low, high = expected.confidence_interval(0.9)
    assert (result.low, result.high) == (
        pytest.approx(low, rel=1e-9),
        pytest.approx(high, rel=1e-9),
    )
    assert result.df == n - 1


def test_tiny_p_values_are_not_rounded_to_zero() -> None:
    deltas = np.random.default_rng(1).normal(0.5, 0.1, 400)
    result = paired_t_test(deltas)
    assert 0.0 < result.p_value < 1e-200
    assert result.p_value == pytest.approx(stats.ttest_1samp(deltas, 0.0).pvalue, rel=1e-6)


def test_constant_differences() -> None:
    zero = paired_t_test(np.zeros(10))
    assert (zero.p_value, zero.low, zero.high) == (1.0, 0.0, 0.0)
    # no spread and a non-zero mean: t is undefined (0.2 said p = 0 and [0.2, 0.2]; three
    # queries each 0.2 better have a sign-flip p of .25, not 0)
    shifted = paired_t_test(np.full(10, 0.2))
    assert shifted.delta == pytest.approx(0.2)
    assert all(math.isnan(x) for x in (shifted.statistic, shifted.p_value, shifted.low,
                                       shifted.high))


def test_needs_two_differences() -> None:
    with pytest.raises(InsufficientSampleError):
        paired_t_test([0.1])
