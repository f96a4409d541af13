"""paired_bootstrap and resample_means: exact resampling, determinism and coverage."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.stats import (
    BootstrapInterval,
    InsufficientSampleError,
    SmallSampleWarning,
    chunking,
    paired_bootstrap,
    resample_means,
)


def test_resampling_two_values_gives_binomial_means() -> None:
    # resampling [0, 1] twice with replacement: mean 0, 0.5, 1 with probability 1/4, 1/2, 1/4
    means = resample_means([0.0, 1.0], n_resamples=40_000, seed=1)
    shares = [np.mean(means == value) for value in (0.0, 0.5, 1.0)]
    np.testing.assert_allclose(shares, [0.25, 0.5, 0.25], atol=4 * np.sqrt(0.25 / 40_000))


def test_every_query_is_drawn_equally_often() -> None:
    # the index draws are uniform: the resampled means average to the sample mean and
    # spread as var / n (ddof 0), the moments of sampling with replacement
    rng = np.random.default_rng(4)
    values = rng.exponential(0.1, 500)
    means = resample_means(values, n_resamples=20_000, seed=2)
    expected_sd = values.std() / np.sqrt(values.size)
    assert abs(means.mean() - values.mean()) < 4 * expected_sd / np.sqrt(20_000)
    assert means.std() == pytest.approx(expected_sd, rel=0.03)


def test_resampling_is_exact_relative_to_a_large_offset() -> None:
    # values are resampled as deviations from their mean: a large common level does not
    # cost precision in the small differences
    rng = np.random.default_rng(5)
    values = rng.normal(0.0, 0.01, 200)
    shifted = resample_means(values + 1e6, n_resamples=500, seed=3)
    np.testing.assert_allclose(
        shifted - 1e6, resample_means(values, n_resamples=500, seed=3), atol=1e-9
    )


def test_interval_fields_and_determinism() -> None:
    rng = np.random.default_rng(6)
    deltas = rng.normal(0.02, 0.1, 300)
    first = paired_bootstrap(deltas, n_resamples=2000, seed=9)
    assert isinstance(first, BootstrapInterval)
    assert first == paired_bootstrap(deltas, n_resamples=2000, seed=9)
    assert first.low < first.delta < first.high
    assert (first.alpha, first.n_queries, first.n_resamples, first.seed, first.method) == (
        0.05,
        300,
        2000,
        9,
        "percentile",
    )
    assert first.delta == pytest.approx(deltas.mean())
    assert paired_bootstrap(deltas, n_resamples=2000, seed=10) != first


def test_seed_sequence_gives_the_same_interval_twice() -> None:
    deltas = np.random.default_rng(7).normal(0.0, 0.1, 100)
    sequence = np.random.SeedSequence(123).spawn(4)[2]
    first = paired_bootstrap(deltas, n_resamples=1000, seed=sequence)
    assert paired_bootstrap(deltas, n_resamples=1000, seed=sequence).low == first.low


def test_threads_do_not_change_the_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    deltas = np.random.default_rng(8).normal(0.0, 0.1, 2000)
    monkeypatch.setattr(chunking, "PARALLEL_MIN_DRAWS", 10**18)
    serial = resample_means(deltas, n_resamples=3000, seed=1)
    monkeypatch.setattr(chunking, "PARALLEL_MIN_DRAWS", 0)
    np.testing.assert_array_equal(resample_means(deltas, n_resamples=3000, seed=1), serial)


def test_identical_differences_give_a_point_interval() -> None:
    for method in ("percentile", "studentized"):
        interval = paired_bootstrap(np.full(30, 0.25), n_resamples=500, interval=method)
        assert interval.low == interval.high == pytest.approx(0.25)


def test_studentized_survives_resamples_without_spread() -> None:
    # one query differs, nineteen tie: 36% of resamples contain only zeros (sd* = 0, t* = -inf),
    # so the upper end is unbounded: +inf with a warning, not a finite placeholder (issue 15)
    deltas = np.zeros(20)
    deltas[0] = 1.0
    with pytest.warns(SmallSampleWarning, match=r"infinite end: 3\d\.\d% of the resamples"):
        interval = paired_bootstrap(deltas, n_resamples=4000, interval="studentized")
    assert np.isfinite(interval.low) and interval.high == np.inf
    assert interval.low <= interval.delta <= interval.high


def test_studentized_on_two_values_is_unbounded_not_a_placeholder() -> None:
    # issue 15: [0.1, 0.2] gave +-8.99e306; half of the resamples repeat one value
    with pytest.warns(SmallSampleWarning, match="4 or more at alpha 0.05"):
        interval = paired_bootstrap([0.1, 0.2], interval="studentized")
    assert (interval.low, interval.high) == (-np.inf, np.inf)
    with pytest.raises(InsufficientSampleError, match="at least 2"):
        paired_bootstrap([0.1], interval="studentized")


def test_the_warnings_point_at_the_callers_line() -> None:
    # the public functions warn their notes (stats.notes.emitted) as seen from the caller
    from ranklens.stats import mean_interval, sign_flip_interval

    calls = {"paired_bootstrap": lambda: paired_bootstrap([0.1, 0.2], interval="studentized"),
             "mean_interval": lambda: mean_interval([0.1, 0.2], interval="studentized"),
             "sign_flip_interval": lambda: sign_flip_interval([0.1, 0.2])}
    for name, call in calls.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        assert [(w.category, w.filename) for w in caught] == [(SmallSampleWarning, __file__)], name


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"alpha": 0.0}, "alpha"),
        ({"alpha": 1.0}, "alpha"),
        ({"n_resamples": 0}, "n_resamples"),
        ({"interval": "bca"}, "interval"),
    ],
)
def test_invalid_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        paired_bootstrap([0.1, 0.2, 0.3], **kwargs)  # type: ignore[arg-type]


def test_invalid_deltas() -> None:
    with pytest.raises(ValueError, match="empty"):
        paired_bootstrap([])
    with pytest.raises(ValueError, match="one-dimensional"):
        paired_bootstrap([[0.1, 0.2]])
    with pytest.raises(TypeError, match="seed"):
        paired_bootstrap([0.1, 0.2], seed=1.5)  # type: ignore[arg-type]


def _coverage(sample, n_datasets: int, method: str, seed: int) -> float:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    hits = 0
    for index in range(n_datasets):
        deltas, true_mean = sample(rng)
        interval = paired_bootstrap(deltas, n_resamples=2000, seed=index, interval=method)
        hits += interval.contains(true_mean)
    return hits / n_datasets


@pytest.mark.slow
def test_percentile_coverage_at_n_200_on_normal_differences() -> None:
    def sample(rng: np.random.Generator) -> tuple[np.ndarray, float]:
        return rng.normal(0.01, 0.1, 200), 0.01

    assert _coverage(sample, 1000, "percentile", seed=1) >= 0.94


def _zero_inflated(rng: np.random.Generator) -> tuple[np.ndarray, float]:
    # 60% of queries tie (delta 0); the rest gain a lognormal amount: mean 0.4 * e^0.5 * 0.05
    gains = rng.lognormal(np.log(0.05), 1.0, 20)
    return np.where(rng.random(20) < 0.6, 0.0, gains), 0.4 * 0.05 * np.exp(0.5)


@pytest.mark.slow
def test_studentized_coverage_at_n_20_on_zero_inflated_skewed_differences() -> None:
    # some of these 600 data sets tie so often that the studentized interval has an infinite
    # end: the library says so, and the coverage counts those intervals as they are
    with pytest.warns(SmallSampleWarning, match="studentized interval on 20 differences has "
                      "an infinite end"):
        studentized = _coverage(_zero_inflated, 600, "studentized", seed=2)
    percentile = _coverage(_zero_inflated, 600, "percentile", seed=2)
    assert studentized >= 0.90
    assert percentile < studentized  # the reason the studentized option exists


def test_huge_differences_do_not_overflow() -> None:
    deltas = np.array([1e300, -1e300, 5e299, 0.0] * 10)
    interval = paired_bootstrap(deltas, n_resamples=200)
    assert np.isfinite(interval.low) and np.isfinite(interval.high)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(-1.0, 1.0, allow_subnormal=False), min_size=2, max_size=60),
    st.sampled_from(["percentile", "studentized"]),
)
def test_percentile_interval_stays_within_the_data(deltas: list[float], method: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        interval = paired_bootstrap(deltas, n_resamples=300, seed=1, interval=method)
    unbounded = [w for w in caught if issubclass(w.category, SmallSampleWarning)]
    # finite ends, or (studentized only) an infinite end that a warning explains
    assert not unbounded or method == "studentized"
    if not unbounded:
        assert np.isfinite(interval.low) and np.isfinite(interval.high)
    else:
        assert "infinite end" in str(unbounded[0].message)
        assert np.isinf(interval.low) or np.isinf(interval.high)
    assert not np.isnan(interval.low) and not np.isnan(interval.high)
    assert interval.low <= interval.high
    if method == "percentile":  # resampled means can never leave the range of the data
        assert min(deltas) - 1e-12 <= interval.low and interval.high <= max(deltas) + 1e-12
