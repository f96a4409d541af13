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
from ranklens.stats.interval import SIGN_FLIP_BELOW, resolve_interval
from ranklens.stats.sign_flip import MAX_SIGN_FLIP_N, bounded_from
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
    assert result.interval.method == "sign-flip"
    assert (result.interval.low <= 0.0 <= result.interval.high) == (not result.significant)


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
    with pytest.raises(ValueError, match=f"at most {MAX_SIGN_FLIP_N}"):
        sign_flip_interval(np.ones(MAX_SIGN_FLIP_N + 1))
    with pytest.raises(ValueError, match="alpha"):
        sign_flip_interval([0.1, 0.2], alpha=1.0)


# --- the rule by n and its description ----------------------------------------------------


def test_auto_is_sign_flip_below_twenty_queries_and_bootstrap_t_from_twenty() -> None:
    assert DEFAULT_INTERVAL == "auto" and SIGN_FLIP_BELOW == 20
    assert [resolve_interval("auto", n) for n in (2, 19, 20, 5000)] == [
        "sign-flip",
        "sign-flip",
        "studentized",
        "studentized",
    ]
    assert resolve_interval("percentile", 3) == "percentile"
    drawn = np.random.default_rng(1).normal(0.02, 0.1, 40)
    assert _compare(list(drawn[:19])).interval.method == "sign-flip"
    result = _compare(list(drawn))
    assert result.interval.method == "studentized"
    base = np.linspace(0.2, 0.3, 40)
    deltas = (base + drawn) - base  # the differences compare sees
    shown = mean_interval(deltas, n_resamples=10_000, seed=0)
    assert (result.interval.low, result.interval.high) == (shown.low, shown.high)
    expected = paired_bootstrap(deltas, interval="studentized")
    assert (result.interval.low, result.interval.high) == (expected.low, expected.high)


def test_each_method_can_be_asked_for_by_name() -> None:
    deltas = list(np.random.default_rng(2).normal(0.02, 0.1, 12))
    for method in ("percentile", "studentized", "sign-flip"):
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
    assert "exact permutation test" in sign_flip and "below 20 queries" in sign_flip
    assert "from 20 queries on" in interval_description("auto")
    assert len({interval_description(method) for method in INTERVAL_METHODS}) == 4
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
    # 2,000 datasets each, fixed seeds; Monte Carlo error of a coverage near .95 is +-.005
    assert _coverage(_normal, 20, seed=20) >= 0.945
    assert _coverage(_exponential, 20, seed=21) >= 0.935


@pytest.mark.slow
def test_default_interval_below_twenty_queries_holds_its_level_on_symmetric_differences() -> None:
    # the sign-flip interval is exact under symmetry (conservative by its discreteness)
    assert _coverage(_normal, 10, seed=10, replications=1000) >= 0.94
