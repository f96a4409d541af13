"""The one tolerance for "no difference": float noise never counts as a difference (issue 15)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from ranklens.data import MetricResult
from ranklens.stats import NO_DIFFERENCE, compare
from ranklens.stats.tolerance import no_difference_tolerance, snap
from tests.support.stats_helpers import results_from

IDS = [f"q{i:02d}" for i in range(25)]


def _quiet_compare(a: MetricResult, b: MetricResult, **kwargs: object):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 25 queries: no small-sample or dropped-query warning
        # what compare says of the differences' shape (issue 45) is not the point here
        warnings.filterwarnings("ignore", message="the per-query differences are")
        warnings.filterwarnings("ignore", message=".*the t-test is undefined")
        return compare(a, b, **kwargs)  # type: ignore[arg-type]


def _assert_no_difference(result) -> None:  # type: ignore[no-untyped-def]
    assert (result.outcomes.wins, result.outcomes.ties, result.outcomes.losses) == (0, 25, 0)
    assert result.delta == 0.0 and result.effect_size == 0.0
    assert result.p_value == 1.0 and result.t_test.p_value == 1.0
    assert not result.significant
    assert result.interval.low == result.interval.high == 0.0


def test_rounding_of_the_same_value_is_no_difference() -> None:
    # issue 15: 0.1 + 0.2 against 0.3 gave delta -5.6e-17, p 1e-4, t-test p 0, W/T/L 0/0/25,
    # effect size -inf: "significant"
    result = _quiet_compare(
        MetricResult("m", {q: 0.1 + 0.2 for q in IDS}), MetricResult("m", {q: 0.3 for q in IDS})
    )
    _assert_no_difference(result)
    assert result.n_snapped == 25


def test_the_same_run_stored_as_float32_is_no_difference() -> None:
    # issue 15: identical runs, one side float32, gave W/T/L 11/0/14
    values = np.random.default_rng(0).uniform(0.0, 1.0, 25)
    a = MetricResult("m", dict(zip(IDS, map(float, values), strict=True)))
    b = MetricResult("m", dict(zip(IDS, map(float, values.astype(np.float32)), strict=True)))
    deltas = b.values - a.values
    assert np.count_nonzero(deltas) == 25 and np.abs(deltas).max() < 6e-8
    # the 1e-12 tolerance the issue first suggested would have left all 25 as differences
    assert snap(deltas, 1e-12 * max(1.0, values.max()))[1] == 0
    result = _quiet_compare(a, b)
    _assert_no_difference(result)
    assert result.n_snapped == 25


def test_a_real_constant_shift_stays_significant() -> None:
    values = np.random.default_rng(1).uniform(0.0, 0.9, 25)
    a, b = results_from(values, values + 0.01)
    deltas = b.values - a.values
    assert np.ptp(deltas) > 0  # rounding makes the shift 0.01 +- a few ulps
    result = _quiet_compare(a, b)
    outcomes = result.outcomes
    assert (outcomes.wins, outcomes.ties, outcomes.losses, result.n_snapped) == (25, 0, 0, 0)
    assert result.significant and result.p_value == 1 / 10_001
    assert result.delta == pytest.approx(0.01, abs=1e-15)
    # the ulp spread is no spread either: as for an exact constant shift, the t-test is
    # undefined (0.3: NaN, not p = 0) and the sign-flip interval is the shift, to its ties
    # tolerance (1e-9 of the sum of |differences| over n)
    assert result.effect_size == np.inf and np.isnan(result.t_test.p_value)
    assert result.interval.low == pytest.approx(result.delta, abs=1e-10)
    assert result.interval.high == pytest.approx(result.delta, abs=1e-10)
    assert result.interval.low <= result.delta <= result.interval.high


def test_differences_just_above_the_tolerance_are_kept() -> None:
    values = np.random.default_rng(2).uniform(0.0, 1.0, 25)
    signs = np.where(np.arange(25) % 2, 1.0, -1.0)
    a, b = results_from(values, values + signs * 3 * NO_DIFFERENCE)
    result = _quiet_compare(a, b, interval="percentile")
    outcomes = result.outcomes
    assert (outcomes.wins, outcomes.ties, outcomes.losses, result.n_snapped) == (12, 0, 13, 0)


def test_snapped_deltas_feed_every_part_of_the_comparison() -> None:
    # ten real differences, fifteen noise ones: the noise counts as ties everywhere
    rng = np.random.default_rng(3)
    a_values = rng.uniform(0.2, 0.8, 25)
    b_values = a_values.copy()
    b_values[:10] += rng.normal(0.05, 0.05, 10)
    b_values[10:] += rng.choice([-1.0, 1.0], 15) * 1e-9
    a, b = results_from(a_values, b_values)
    result = _quiet_compare(a, b)
    assert result.n_snapped == 15 and result.outcomes.ties == 15
    clean = _quiet_compare(*results_from(a_values, np.r_[b_values[:10], a_values[10:]]))
    assert clean.n_snapped == 0 and clean.outcomes.ties == 15
    for field in ("delta", "p_value", "t_p_value", "ci_low", "ci_high", "effect_size", "wins"):
        assert result.row()[field] == clean.row()[field], field


def test_tolerance_scales_with_the_largest_value_and_never_goes_below_one() -> None:
    assert no_difference_tolerance(np.array([0.2, 0.9])) == NO_DIFFERENCE
    assert no_difference_tolerance(np.array([1e-9])) == NO_DIFFERENCE
    assert no_difference_tolerance(np.array([3.0]), np.array([-40.0])) == 40 * NO_DIFFERENCE
    assert no_difference_tolerance(np.array([])) == NO_DIFFERENCE


def test_snap_counts_only_what_it_changed_and_leaves_the_input_alone() -> None:
    deltas = np.array([0.0, 1e-7, -1e-7, 0.5, -2e-6])
    snapped, count = snap(deltas, 1e-6)
    assert count == 2
    np.testing.assert_array_equal(snapped, [0.0, 0.0, 0.0, 0.5, -2e-6])
    assert deltas[1] == 1e-7
    with pytest.raises(ValueError, match="tolerance"):
        snap(deltas, -1.0)
