"""The Student t and noncentral t wrappers (scipy.special) against scipy.stats."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

from ranklens.stats.distributions import (
    normal_two_sided,
    regularized_beta,
    t_cdf,
    t_power,
    t_quantile,
    t_two_sided,
)

DEGREES = st.one_of(st.integers(1, 60), st.sampled_from([199, 999, 6_999, 99_999]))


@settings(max_examples=200, deadline=None)
@given(a=st.floats(0.05, 500.0), b=st.floats(0.05, 500.0), x=st.floats(0.0, 1.0))
def test_regularized_beta_matches_scipy(a: float, b: float, x: float) -> None:
    assert regularized_beta(a, b, x) == pytest.approx(special.betainc(a, b, x), rel=1e-9, abs=1e-14)


@settings(max_examples=300, deadline=None)
@given(t=st.floats(-60.0, 60.0), df=DEGREES)
def test_t_cdf_and_two_sided_tail_match_scipy(t: float, df: int) -> None:
    assert t_cdf(t, df) == pytest.approx(stats.t.cdf(t, df), rel=1e-9, abs=1e-15)
    expected = 2 * stats.t.sf(abs(t), df)
    if expected > 1e-290:  # scipy underflows to 0 first
        assert t_two_sided(t, df) == pytest.approx(expected, rel=1e-8)


@settings(max_examples=200, deadline=None)
@given(q=st.floats(1e-12, 1 - 1e-12), df=DEGREES)
def test_t_quantile_matches_scipy(q: float, df: int) -> None:
    expected = stats.t.ppf(q, df)
    assert t_quantile(q, df) == pytest.approx(expected, rel=1e-8, abs=1e-10)


@pytest.mark.parametrize("df", [1, 2, 5, 19, 199, 6_999])
@pytest.mark.parametrize("noncentrality", [0.0, 0.7, 2.8, 6.0])
def test_noncentral_t_power_matches_scipy(df: int, noncentrality: float) -> None:
    critical = stats.t.ppf(0.975, df)
    expected = stats.nct.sf(critical, df, noncentrality) + stats.nct.cdf(
        -critical, df, noncentrality
    )
    assert t_power(noncentrality, df, critical) == pytest.approx(expected, abs=1e-8)


def test_noncentral_t_power_survives_scipys_nan_lower_tail() -> None:
    # scipy's nctdtr gives NaN for a lower tail far below 1e-15 (here df 14, noncentrality
    # 8.85); that tail is below Phi(-8.85) = 4e-19, so the power is the upper tail alone
    critical = stats.t.ppf(0.975, 14)
    if np.isnan(special.nctdtr(14, 8.85, -critical)):  # the case this guards against
        assert t_power(8.85, 14, critical) == pytest.approx(
            stats.nct.sf(critical, 14, 8.85), abs=1e-12
        )
    with pytest.raises(ValueError, match="noncentrality"):
        t_power(-1.0, 14, critical)


def test_two_sided_normal_tail_does_not_underflow() -> None:
    # 1 - Phi(30) is exactly 0 in floating point; 2 * Phi(-30) is not
    assert normal_two_sided(30.0) == pytest.approx(2 * stats.norm.sf(30.0), rel=1e-12)
    assert normal_two_sided(30.0) > 0


def test_edge_values() -> None:
    assert t_two_sided(0.0, 5) == 1.0
    assert t_two_sided(math.inf, 5) == 0.0
    assert t_quantile(0.5, 3) == 0.0
    with pytest.raises(ValueError):
        t_quantile(1.0, 3)
    with pytest.raises(ValueError):
        t_two_sided(1.0, 0)
