"""The skew-guarded test (sign-flip and Hall's skewness-corrected t, the more cautious) that a
BH family of segments uses: its statistic, its interval, its agreement with its p-value and
its level at the small levels BH needs."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from ranklens.compare.segments import compare_segments
from ranklens.data import MetricResult
from ranklens.stats import compare, paired_t_test, sign_flip_interval
from ranklens.stats.distributions import t_two_sided
from ranklens.stats.levels import ConfidenceCurve, confidence_curve
from ranklens.stats.pairing import sample_sd
from ranklens.stats.shape import skewness
from ranklens.stats.sign_flip import sign_flip_test
from ranklens.stats.skew_guard import (
    TAIL_SHARE,
    adjusted_skewness,
    guard_ends,
    guard_p_value,
    guard_summary,
    hall_ends,
    hall_p_value,
    hall_statistic,
    skew_guarded_test,
)


def test_hall_statistic_written_out() -> None:
    # n = 4, mean 0.1, sd 0.2, skewness 1.5, mu 0: W = 0.5
    w, g, n = 0.5, 1.5, 4
    expected = math.sqrt(n) * (w + g / (6 * n) + g * w**2 / 3 + g**2 * w**3 / 27)
    assert hall_statistic(0.1, 0.2, 1.5, 4) == pytest.approx(expected, rel=1e-15)
    # by hand: 2 * (0.5 + 1.5 / 24 + 1.5 * 0.25 / 3 + 2.25 * 0.125 / 27) = 1.395833...
    assert expected == pytest.approx(2 * (0.5 + 0.0625 + 0.125 + 0.0104166666666667), rel=1e-14)
    assert hall_statistic(0.1, 0.2, 0.0, 4) == pytest.approx(2 * 0.5, rel=1e-15)  # the t


def test_symmetric_sample_gives_the_t_test() -> None:
    x = np.array([-0.02, -0.01, 0.0, 0.01, 0.02]) + 0.012  # skewness exactly 0
    assert skewness(x) == pytest.approx(0.0, abs=1e-12)
    assert hall_p_value(x) == pytest.approx(paired_t_test(x).p_value, rel=1e-9)
    low, high = hall_ends(float(x.mean()), sample_sd(x) / math.sqrt(5), 0.0, 5, 0.05)
    t = paired_t_test(x)
    assert (low, high) == pytest.approx((t.low, t.high), rel=1e-12)


def test_interval_ends_are_where_the_p_value_is_alpha(rng: np.random.Generator) -> None:
    for n in (8, 20, 60):
        x = rng.exponential(0.1, n) - 0.08
        se = sample_sd(x) / math.sqrt(n)
        for alpha in (0.05, 0.005):
            low, high = hall_ends(float(x.mean()), se, adjusted_skewness(x), n, alpha)
            assert low < x.mean() < high
            assert hall_p_value(x, low) == pytest.approx(alpha, abs=1e-10)
            assert hall_p_value(x, high) == pytest.approx(alpha, abs=1e-10)
        # a right-skewed sample's interval reaches further up than down, a left-skewed one's
        # further down (a t-interval is symmetric)
        low, high = hall_ends(float(x.mean()), se, skewness(x), n, 0.05)
        assert (high - x.mean() > x.mean() - low) == (skewness(x) > 0)


def test_guard_is_the_larger_p_and_the_hull_of_both_intervals() -> None:
    # 12 differences, three large gains among small ones (skewness 1.5, adjusted 1.77 as
    # scipy's skew(bias=False) says): the sign-flip p is .00195 (8 of the 4,096 patterns), small
    # enough for BH's levels over 40 segments; Hall's test sees the skew and says .0089
    x = np.array([0.008, -0.012, 0.045, 0.058, 0.648, 0.06, 0.035, 0.029, 0.246, 0.578, 0.025,
                  0.009])
    flip, flip_p, _ = sign_flip_test(x)
    interval, p, _ = skew_guarded_test(x)
    assert flip_p == 8 / 4096
    assert adjusted_skewness(x) == pytest.approx(1.771042, abs=5e-7)
    assert p == hall_p_value(x) == guard_p_value(x) == pytest.approx(0.008874, abs=5e-7)
    low, high = hall_ends(float(x.mean()), sample_sd(x) / math.sqrt(12), adjusted_skewness(x),
                          12, 0.05)
    assert (interval.low, interval.high) == (min(flip.low, low), max(flip.high, high))
    # at BH's level for the first of 40 segments, .00125 x 4: the sign-flip interval
    # excludes 0, the guarded one (Hall's end) does not
    flip, _, _ = sign_flip_test(x, alpha=0.005)
    interval, _, _ = skew_guarded_test(x, alpha=0.005)
    assert interval.low < 0.0 < flip.low
    assert interval.method == "skew-guarded" and interval.n_resamples == 4096


def test_what_the_guard_cannot_see() -> None:
    # 12 small losses and no gain: a sample of centred exponential differences looks like this
    # (0.632^12 = .4% of them) and shows no tail, so Hall's p (.00043) is no more cautious than
    # the sign-flip p (2 / 4096), which the guard keeps (module docstring: Bahadur-Savage)
    x = np.array([-0.09, -0.08, -0.085, -0.07, -0.06, -0.095, -0.05, -0.088, -0.03, -0.075,
                  -0.02, -0.04])
    _, p, _ = skew_guarded_test(x)
    assert hall_p_value(x) == pytest.approx(0.000427, abs=5e-7)
    assert p == 2 / 4096


def test_excludes_zero_exactly_when_p_at_most_alpha(rng: np.random.Generator) -> None:
    for i in range(150):
        n = int(rng.integers(6, 80))
        x = rng.exponential(0.1, n) * rng.choice([-1, 1]) + rng.normal(0.0, 0.05)
        alpha = (0.05, 0.01, 0.002)[i % 3]
        interval, p, _ = skew_guarded_test(x, alpha=alpha, n_permutations=2000, seed=i)
        assert interval.excludes_zero == (p <= alpha)


def test_curve_gives_back_the_comparisons_interval_to_the_bit(rng: np.random.Generator
                                                               ) -> None:
    ids = [f"q{i:02d}" for i in range(40)]  # paired in this order
    a = rng.uniform(0.2, 0.8, 40)
    b = a + rng.exponential(0.1, 40) - 0.08
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # skewed for its size (ranklens.stats.shape)
        result = compare(MetricResult.from_arrays("m", ids, a),
                         MetricResult.from_arrays("m", ids, b), interval="skew-guarded",
                         n_permutations=2000, seed=5)
    curve = ConfidenceCurve.for_comparison(result, b - a)
    shown = curve.interval(0.05)
    assert (shown.low, shown.high) == (result.interval.low, result.interval.high)
    for alpha in (0.01, 0.002):
        direct, _, _ = skew_guarded_test(b - a, alpha=alpha, n_permutations=2000, seed=5)
        again = confidence_curve(b - a, method="skew-guarded", n_resamples=2000, seed=5)
        assert (again.interval(alpha).low, again.interval(alpha).high) == (direct.low,
                                                                           direct.high)
    flip = sign_flip_interval(b - a, n_permutations=2000, seed=5)
    assert result.interval.low <= flip.low and result.interval.high >= flip.high


def test_segments_and_the_overall_row_use_the_guard(rng: np.random.Generator) -> None:
    ids = [f"q{i:03d}" for i in range(90)]
    a = rng.uniform(0.2, 0.8, 90)
    b = a + rng.exponential(0.1, 90) - 0.1
    segments = {q: ("head", "torso", "tail")[i % 3] for i, q in enumerate(ids)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = compare_segments(MetricResult.from_arrays("m", ids, a),
                               MetricResult.from_arrays("m", ids, b), segments)
    assert out.overall.interval.method == "skew-guarded"  # the default since issue 45's grid
    flip_p = sign_flip_test(b - a, n_permutations=out.overall.n_permutations,
                            seed=out.overall.seed)[1]
    assert out.overall.p_value == max(flip_p, guard_p_value(b - a))
    for row in out.segments:
        assert row.result is not None and row.result.interval.method == "skew-guarded"
        rows = [i for i, q in enumerate(ids) if segments[q] == row.segment]
        d = b[rows] - a[rows]
        _, flip_p, _ = sign_flip_test(d, n_permutations=row.result.n_permutations,
                                         seed=row.result.seed)
        assert row.result.p_value == max(flip_p, guard_p_value(d))


@pytest.mark.slow
def test_null_tail_of_skewed_differences_at_bh_levels() -> None:
    # centred exponential differences (skewness 2), 30 queries, no difference: at BH's levels
    # for 40 segments the sign-flip p rejects several times too often, the guard does not.
    # 3,000 samples: a share of .005 has Monte Carlo error +-.0013.
    rng = np.random.default_rng([45, 30])
    samples = rng.exponential(0.1, (3000, 30)) - 0.1
    guarded, flipped = [], []
    for i, x in enumerate(samples):
        _, p, _ = skew_guarded_test(x, n_permutations=2000, seed=i)
        _, q, _ = sign_flip_test(x, n_permutations=2000, seed=i)
        guarded.append(p)
        flipped.append(q)
    for level in (0.0025, 0.005):
        assert np.mean(np.array(flipped) <= level) > 2.5 * level
        assert np.mean(np.array(guarded) <= level) <= level + 3 * math.sqrt(level / 3000)


def test_tied_queries_are_tested_through_the_changed_ones_and_all() -> None:
    # issue 45's example: 17 tied queries and three small losses. The mean of all 20 is 0
    # exactly when the mean of the 3 changed ones is; Hall's test reads those 3 (2 df, adjusted
    # skewness: scipy's skew(bias=False) of the three is -1.2102), and all 20 (the ties counted)
    x = np.r_[np.zeros(17), [-0.012, -0.093, -0.034]]
    changed = x[x != 0.0]
    summary = guard_summary(x)
    assert (summary.n, summary.k) == (20, 3)
    assert summary.changed_skewness == pytest.approx(-1.210173, abs=5e-7)
    assert summary.skewness == pytest.approx(-3.705446, abs=5e-7)
    direct = t_two_sided(hall_statistic(float(changed.mean()), sample_sd(changed),
                                        summary.changed_skewness, 3), 2.0)
    assert hall_p_value(x) == pytest.approx(direct, rel=1e-12)
    assert hall_p_value(x) == pytest.approx(0.094669, abs=5e-6)
    # Hall's test of all 20 says .0399, but 3 changed queries among 17 tied: the floor
    # (1 - 1/e)^3 = .2526 is the guarded p, and the interval reaches 0
    all_p = t_two_sided(hall_statistic(float(x.mean()), sample_sd(x), summary.skewness, 20), 19.0)
    assert all_p == pytest.approx(0.039884, abs=5e-6)
    assert guard_p_value(x) == summary.floor == pytest.approx(TAIL_SHARE**3, rel=1e-15)
    assert summary.floor == pytest.approx(0.252580, abs=5e-7)
    low, high = guard_ends(float(x.mean()), summary, 0.05)
    c_low, c_high = hall_ends(float(changed.mean()), sample_sd(changed) / math.sqrt(3),
                              summary.changed_skewness, 3, 0.05)
    a_low, a_high = hall_ends(float(x.mean()), sample_sd(x) / math.sqrt(20), summary.skewness,
                              20, 0.05)
    assert a_high < 0.0  # Hall's of all 20 alone would exclude 0
    assert (low, high) == pytest.approx((min(c_low * 3 / 20, a_low), max(c_high * 3 / 20, 0.0)),
                                        rel=1e-12)
    assert hall_p_value(x, c_low * 3 / 20) == pytest.approx(0.05, abs=1e-9)
    interval, p, _ = skew_guarded_test(x)
    assert p == max(sign_flip_test(x)[1], guard_p_value(x)) and not interval.excludes_zero


def test_the_floor_binds_only_where_most_queries_tie() -> None:
    # six gains: alone the sign-flip p is 2/64 and significant; among 14 tied queries the
    # floor (1 - 1/e)^6 = .0638 is the p and the interval reaches 0
    gains = [0.05, 0.1, 0.02, 0.2, 0.07, 0.03]
    _, alone, _ = skew_guarded_test(gains)
    assert alone == 2 / 64 and guard_summary(np.array(gains)).floor == 0.0
    interval, p, _ = skew_guarded_test(np.r_[np.zeros(14), gains])
    assert p == pytest.approx(0.063797, abs=5e-7) and interval.low == 0.0 < interval.high
    # 50 changed queries are no longer "few": no floor, however many tie
    many = np.r_[np.zeros(60), np.full(50, 0.01)]
    assert guard_summary(many).floor == 0.0 and guard_summary(np.zeros(5)).floor == 1.0


def test_a_symmetric_sample_whose_skewness_is_float_noise_agrees_with_its_p() -> None:
    # found by hypothesis: three -0.2 and three -0.0078125 have skewness ~1e-16, and
    # 3 (cbrt(1 + g r) - 1) / g cancelled to 0, so Hall's interval collapsed to the mean and
    # the guard's interval excluded 0 beside p .060 (Hall's, the t-test's here)
    deltas = [-0.2] * 3 + [-0.0078125] * 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        interval, p, _ = skew_guarded_test(deltas)
    assert p == pytest.approx(paired_t_test(np.array(deltas)).p_value, rel=1e-6)
    assert p > 0.05 and interval.low < 0.0 < interval.high
