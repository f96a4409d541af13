"""The note on skewed or mostly tied differences (issue 45): when it is said and what it says."""

from __future__ import annotations

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
