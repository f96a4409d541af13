"""The note on skewed or mostly tied differences (issue 45): when it is said and what it says."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from ranklens.stats.shape import shape_notes, skewness


def test_skewness_is_the_moment_ratio() -> None:
    values = np.random.default_rng(3).exponential(1.0, 200)
    assert skewness(values) == pytest.approx(stats.skew(values, bias=True), rel=1e-12)
    assert skewness(np.full(5, 0.3)) == 0.0


def test_symmetric_differences_get_no_note() -> None:
    values = np.random.default_rng(4).normal(0.02, 0.1, 30)
    assert abs(skewness(values)) < 1.0 and shape_notes(values) == ()
    assert shape_notes(np.zeros(10)) == ()  # nothing differs: nothing to say about a shape


def test_skewed_differences_are_noted_with_cochrans_count() -> None:
    values = np.random.default_rng(5).lognormal(0.0, 1.0, 40) - np.exp(0.5)
    g = skewness(values)
    (note,) = shape_notes(values)
    assert f"25 x skewness^2 = {int(np.ceil(25 * g * g))} queries" in note.text
    assert not note.small_sample  # not the small-sample mark of a segment row
    # the same shape with enough queries for its skewness: no note
    assert shape_notes(np.tile(values, int(np.ceil(25 * g * g / 40)) + 1)) == ()


def test_mostly_tied_differences_are_noted_below_fifty_changed() -> None:
    deltas = np.array([0.0] * 17 + [-0.012, -0.093, -0.034])  # issue 45's reproduction
    (note,) = shape_notes(deltas)
    assert "mostly tied (17 of 20 queries" in note.text and "only 3 differ" in note.text
    rng = np.random.default_rng(6)
    many = np.concatenate([np.zeros(120), rng.normal(0.0, 0.1, 60)])  # 60 changed: enough
    assert not any("mostly tied" in n.text for n in shape_notes(many))


def test_shape_brief_names_the_reasons_of_the_note() -> None:
    from ranklens.stats.shape import shape_brief

    tied = shape_notes(np.r_[np.zeros(17), [0.05, -0.02, 0.04]])[0].text
    assert shape_brief(tied) == "approximate: skewed for its size and mostly tied"
    only_tied = shape_notes(np.r_[np.zeros(30), np.tile([0.05, -0.05], 10)])[0].text
    assert shape_brief(only_tied) == "approximate: mostly tied"
    assert shape_brief("") == ""


# a clear loss of 10 changed queries with a right tail of one: what a right-skewed population
# with mean 0 gives when the sample misses its tail (issue 45, bench/validity_small_skew.py)
SHORT_OF_TAIL = np.array([-0.1, -0.2] * 4 + [-0.1, 0.4])


def test_skewness_se_is_the_normal_theory_standard_error_of_g1() -> None:
    from ranklens.stats.shape import skewness_se

    assert skewness_se(10) == pytest.approx(math.sqrt(540 / 1144), rel=1e-15)
    draws = np.random.default_rng(8).normal(size=(20_000, 15))
    assert skewness_se(15) == pytest.approx(np.std(stats.skew(draws, axis=1, bias=False)),
                                            rel=0.03)


def test_a_clear_result_skewed_away_from_its_mean_is_noted() -> None:
    from ranklens.stats.shape import adjusted_skewness, shape_brief, skewed_away

    g1 = adjusted_skewness(SHORT_OF_TAIL)
    assert g1 == pytest.approx(stats.skew(SHORT_OF_TAIL, bias=False), rel=1e-12)
    assert skewed_away(SHORT_OF_TAIL) == (10, g1) and g1 == pytest.approx(2.7111, abs=1e-4)
    (note,) = shape_notes(SHORT_OF_TAIL, rejected=True)
    assert ("likely short of a right tail (the 10 changed queries have adjusted skewness 2.7 "
            "but a mean below 0" in note.text)
    assert shape_brief(note.text) == "approximate: skewed for its size and short of a tail"
    # only beside a clear result: a result that keeps 0 gets the first reason alone
    (kept,) = shape_notes(SHORT_OF_TAIL)
    assert "short of" not in kept.text and "skewed (skewness 2.3" in kept.text
    # the mirror image: a left tail missing from a clear gain
    (mirror,) = shape_notes(-SHORT_OF_TAIL, rejected=True)
    assert "short of a left tail" in mirror.text and "a mean above 0" in mirror.text
    # ties do not count: the same changed queries among 5 tied ones
    assert skewed_away(np.r_[np.zeros(5), SHORT_OF_TAIL]) == (10, g1)


def test_no_short_tail_when_the_skew_points_to_the_mean_or_the_sample_is_large() -> None:
    from ranklens.stats.shape import skewed_away

    assert skewed_away(SHORT_OF_TAIL + 0.1) is None  # mean above 0, right-skewed: no tail missing
    assert skewed_away(np.tile(SHORT_OF_TAIL, 3)) is None  # 30 changed queries: from 25, none
    assert skewed_away(np.r_[np.tile(SHORT_OF_TAIL, 2), SHORT_OF_TAIL[:4]]) is not None  # 24
    # a mean below 0 and a right skew within half its standard error (0.32 at 12) of 0: not
    # clear enough (G1 0.26); a longer right tail makes it clear (G1 0.41)
    base = np.array([-0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.4, -0.25, -0.15, 0.15, 0.25, 0.0]) - 0.06
    assert skewed_away(base) is None
    base[6] = 0.45 - 0.06
    assert skewed_away(base) == (12, pytest.approx(0.4084, abs=1e-4))


def test_compare_notes_a_false_loss_of_lognormal_differences() -> None:
    from ranklens.data import MetricResult
    from ranklens.stats.compare import compare_with_notes

    # 15 draws of 0.1 (lognormal(0, 1) - e^0.5), mean 0, rounded: no draw from the long right
    # tail, so the default calls it a clear loss (p .013); the note says why it may not be
    deltas = np.array([-0.102, -0.111, -0.05, 0.068, -0.079, -0.035, 0.005, 0.034, -0.124,
                       -0.005, -0.067, -0.11, -0.114, -0.085, -0.128])
    ids = [f"q{i:02d}" for i in range(15)]
    a = np.full(15, 0.5)
    result, notes = compare_with_notes(MetricResult.from_arrays("m", ids, a),
                                       MetricResult.from_arrays("m", ids, a + deltas))
    assert result.p_value == pytest.approx(0.0135, abs=5e-4) and result.interval.high < 0
    (note,) = [n for n in notes if "per-query differences" in n.text]
    assert note.text.startswith("the per-query differences are likely short of a right tail "
                                "(the 15 changed queries have adjusted skewness 0.83 but a "
                                "mean below 0")
