"""The interval a comparison shows: the sign-flip interval, the rule by n and its coverage."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.stats import (
    DEFAULT_INTERVAL,
    INTERVAL_METHODS,
    InsufficientSampleError,
    SmallSampleWarning,
    compare,
    interval_description,
    mean_interval,
    paired_bootstrap,
    permutation_test,
    sign_flip_interval,
)
from ranklens.stats.interval import resolve_interval
from ranklens.stats.sign_flip import bounded_from, sign_flip_test
from ranklens.stats.skew_guard import hall_p_value, skew_guarded_test
from tests.support.stats_helpers import results_from

TENTHS = st.integers(-5, 5).map(lambda k: k / 10)  # many exact ties among flipped sums
SMALL_FLOATS = st.floats(-1.0, 1.0, allow_subnormal=False)


def _compare(deltas: list[float], **kwargs: object):  # type: ignore[no-untyped-def]
    base = np.linspace(0.2, 0.3, len(deltas))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # small-sample warnings are the point here
        return compare(*results_from(base, base + np.asarray(deltas)), **kwargs)  # type: ignore[arg-type]


# --- the sign-flip interval ---------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.one_of(TENTHS, SMALL_FLOATS), min_size=2, max_size=11),
    st.floats(-1.2, 1.2),
    st.sampled_from([0.05, 0.1, 0.2]),
)
def test_sign_flip_interval_is_the_exact_test_inverted(
    deltas: list[float], mu: float, alpha: float
) -> None:
    # mu is inside exactly when the exact sign-flip test of deltas - mu does not reject
    values = np.asarray(deltas)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SmallSampleWarning)
        interval = sign_flip_interval(values, alpha=alpha)
    p_at_mu = permutation_test(values - mu)  # 2^n <= 10,000: enumerated, exact
    ends = np.array([interval.low, interval.high])
    if np.all(np.abs(ends[np.isfinite(ends)] - mu) > 1e-9):  # not on an end, up to rounding
        assert (interval.low <= mu <= interval.high) == (p_at_mu > alpha)
    assert interval.low <= interval.delta <= interval.high
    assert (interval.method, interval.n_resamples) == ("sign-flip", 2 ** len(deltas))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(TENTHS, SMALL_FLOATS), min_size=2, max_size=13))
def test_compare_never_excludes_zero_when_the_exact_p_is_above_alpha(deltas: list[float]) -> None:
    # issue 15: at n = 2 the percentile interval of (0.1, 0.2) excluded 0 while p = 0.5
    result = _compare(deltas)
    assert result.interval.method == "skew-guarded"
    assert (result.interval.low <= 0.0 <= result.interval.high) == (not result.significant)
    flip = _compare(deltas, interval="sign-flip")
    assert (flip.interval.low <= 0.0 <= flip.interval.high) == (not flip.significant)


def test_two_queries_give_an_unbounded_interval_and_say_so() -> None:
    with pytest.warns(SmallSampleWarning, match="at least 6 queries are needed"):
        interval = sign_flip_interval([0.1, 0.2])
    assert (interval.low, interval.high) == (-np.inf, np.inf)
    result = _compare([0.1, 0.2])
    assert result.p_value == 0.5 and result.interval.low < 0 < result.interval.high
    percentile = paired_bootstrap([0.1, 0.2], interval="percentile")  # still there when asked
    assert (percentile.low, percentile.high) == pytest.approx((0.1, 0.2))


def test_six_queries_all_in_favour_of_b_are_significant_and_excluded() -> None:
    # smallest exact p at n = 6 is 2/64 = 0.031: the first n where anything can be ruled out
    assert bounded_from(0.05) == 6 and bounded_from(0.2) == 4
    result = _compare([0.1, 0.2, 0.05, 0.3, 0.15, 0.25])
    assert result.p_value == 2 / 64 and result.significant
    assert 0.0 < result.interval.low <= result.delta <= result.interval.high <= 0.3 + 1e-6
    five = _compare([0.1, 0.2, 0.05, 0.3, 0.15])
    assert five.p_value == 2 / 32 and np.isinf(five.interval.low) and np.isinf(five.interval.high)


def test_sign_flip_interval_on_constant_and_zero_differences() -> None:
    assert (sign_flip_interval(np.zeros(8)).low, sign_flip_interval(np.zeros(8)).high) == (0, 0)
    constant = sign_flip_interval(np.full(8, 0.25))
    assert constant.low == pytest.approx(0.25) and constant.high == pytest.approx(0.25)


def test_sign_flip_interval_input_errors() -> None:
    with pytest.raises(InsufficientSampleError, match="at least 2"):
        sign_flip_interval([0.1])
    with pytest.raises(ValueError, match="alpha"):
        sign_flip_interval([0.1, 0.2], alpha=1.0)
    with pytest.raises(ValueError, match="n_permutations"):
        sign_flip_interval([0.1, 0.2], n_permutations=0)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.one_of(TENTHS, TENTHS, SMALL_FLOATS), min_size=2, max_size=40),
    st.sampled_from([50, 999, 10_000]),
    st.integers(0, 3),
    st.sampled_from([0.05, 0.01, 0.2]),
)
def test_interval_and_p_value_are_one_test_at_every_n(
    deltas: list[float], n_permutations: int, seed: int, alpha: float
) -> None:
    # issue 45: the interval excludes 0 exactly when the permutation p-value is <= alpha,
    # enumerated (2^n <= n_permutations) or drawn, and the p-value is permutation_test's
    values = np.asarray(deltas)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SmallSampleWarning)
        interval, p_value, _ = sign_flip_test(values, alpha=alpha, n_permutations=n_permutations,
                                              seed=seed)
    assert p_value == permutation_test(values, n_permutations=n_permutations, seed=seed)
    assert (interval.low > 0.0 or interval.high < 0.0) == (p_value <= alpha)
    assert interval.low <= interval.delta <= interval.high


def test_issue_45_tied_queries_interval_agrees_with_p() -> None:
    # 17 tied queries and three small losses: 0.2 showed (-inf, -0.00015) beside p .25
    deltas = [0.0] * 17 + [-0.012, -0.093, -0.034]
    flip = _compare(deltas, interval="sign-flip")
    assert flip.p_value == pytest.approx(0.25, abs=0.01)  # 2 of 8 sign patterns of the losses
    assert flip.interval.low < 0.0 <= flip.interval.high
    assert -0.02 < flip.interval.low < -0.012  # -0.0159 with these patterns
    result = _compare(deltas)  # the default: the guard's floor (1 - 1/e)^3 = .2526 for 3 of 20
    assert result.interval.method == "skew-guarded"
    assert result.p_value == pytest.approx(0.25258, abs=5e-6)
    assert result.p_value > flip.p_value
    assert result.interval.low < flip.interval.low < 0.0 <= result.interval.high
    assert -0.043 < result.interval.low < -0.042  # Hall's, of the three losses: -0.0424
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compare(*results_from(np.full(20, 0.3), np.full(20, 0.3) + np.asarray(deltas)))
    assert any("mostly tied (17 of 20" in str(w.message) for w in caught)


def test_three_equal_gains_give_no_t_test_and_say_so() -> None:
    # issue 45: n = 3, a constant shift: 0.2 printed t-test p = 0.0 and a zero-width interval
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = compare(*results_from(np.full(3, 0.5), np.full(3, 0.6)))
    assert result.p_value == 0.25 and np.isinf(result.interval.low)
    assert np.isnan(result.t_test.p_value) and np.isnan(result.t_test.low)
    assert any("t-test is undefined" in str(w.message) for w in caught)


# --- the rule by n and its description ----------------------------------------------------


def test_auto_is_the_skew_guarded_interval_at_every_n() -> None:
    assert DEFAULT_INTERVAL == "auto"
    assert {resolve_interval("auto", n) for n in (2, 19, 20, 5000)} == {"skew-guarded"}
    assert resolve_interval("percentile", 3) == "percentile"
    drawn = np.random.default_rng(1).normal(0.02, 0.1, 40)
    assert _compare(list(drawn[:19])).interval.method == "skew-guarded"
    result = _compare(list(drawn))
    assert result.interval.method == "skew-guarded"
    assert (result.interval.n_resamples, result.interval.seed) == (10_000, 0)
    base = np.linspace(0.2, 0.3, 40)
    deltas = (base + drawn) - base  # the differences compare sees
    shown = mean_interval(deltas, n_resamples=10_000, seed=0)
    assert (result.interval.low, result.interval.high) == (shown.low, shown.high)
    expected, expected_p, _ = skew_guarded_test(deltas, n_permutations=10_000, seed=0)
    assert (result.interval.low, result.interval.high) == (expected.low, expected.high)
    assert result.p_value == expected_p == max(permutation_test(deltas, seed=0),
                                               hall_p_value(deltas))
    flip = sign_flip_interval(deltas, n_permutations=10_000, seed=0)
    assert result.interval.low <= flip.low and result.interval.high >= flip.high
    # the t-interval of these normal differences, within the patterns' Monte Carlo error
    assert result.interval.low == pytest.approx(result.t_test.low, abs=0.004)
    assert result.interval.high == pytest.approx(result.t_test.high, abs=0.004)


def test_each_method_can_be_asked_for_by_name() -> None:
    deltas = list(np.random.default_rng(2).normal(0.02, 0.1, 12))
    for method in ("percentile", "studentized", "sign-flip", "skew-guarded"):
        assert _compare(deltas, interval=method).interval.method == method
    with pytest.raises(ValueError, match="interval must be one of"):
        _compare(deltas, interval="bca")


def test_descriptions_name_the_interval_in_words() -> None:
    assert interval_description("studentized").startswith(
        "bootstrap-t (studentized) 95% interval"
    )
    assert interval_description("percentile", alpha=0.1).startswith(
        "bootstrap percentile 90% interval"
    )
    sign_flip = interval_description("sign-flip")
    assert "permutation test turned into an interval" in sign_flip
    assert "excludes 0 exactly when the permutation p-value is at most 0.05" in sign_flip
    assert interval_description("auto") == interval_description("skew-guarded")
    assert len({interval_description(method) for method in INTERVAL_METHODS}) == 4
    assert interval_description("skew-guarded", alpha=0.01).startswith(
        "skew-guarded 99% interval: every mean difference that the sign-flip test or a "
        "skewness-corrected t-test would not rule out")
    with pytest.raises(ValueError, match="interval must be one of"):
        interval_description("bca")


# --- coverage of the default (issue 15) ---------------------------------------------------


def _coverage(sample, n: int, seed: int, replications: int = 2000) -> float:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    hits = 0
    for index in range(replications):
        deltas = sample(rng, n)  # true mean 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SmallSampleWarning)
            interval = mean_interval(deltas, seed=index)
        hits += interval.low <= 0.0 <= interval.high
    return hits / replications


def _normal(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.normal(0.0, 0.1, n)


def _exponential(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.exponential(0.1, n) - 0.1


@pytest.mark.slow
def test_default_interval_covers_at_twenty_queries() -> None:
    # 1,000 datasets each, fixed seeds; Monte Carlo error of a coverage near .95 is +-.007.
    # Centred exponential differences at 20 queries: no candidate holds .95 there (issue 45's
    # grid: sign-flip .921, t .925, bootstrap-t .938); the sign-flip interval is the t's.
    # Normal: .955 (the first 1,000 of the 2,000 this ran before, .963); the interval 10%
    # narrower around its middle gives .923 and fails (.936 over 2,000); any narrowing past
    # 4% fails here (8% over 2,000). Exponential .958 (.959): fails below 82% of the width as
    # over 2,000.
    assert _coverage(_normal, 20, seed=20, replications=1000) >= 0.945
    assert _coverage(_exponential, 20, seed=21, replications=1000) >= 0.91


@pytest.mark.slow
def test_default_interval_below_twenty_queries_holds_its_level_on_symmetric_differences() -> None:
    # the sign-flip interval is exact under symmetry (conservative by its discreteness)
    assert _coverage(_normal, 10, seed=10, replications=1000) >= 0.94
