"""Segment rows say when their interval cannot be trusted (issue 45): the shape note of
`ranklens.stats.shape` (too skewed or too tied for the number of queries) kept per row."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np

from ranklens import codec
from ranklens.compare import report  # noqa: F401  (registers how a report writes its rows)
from ranklens.compare.segments import SegmentRow, compare_segments
from ranklens.data import MetricResult
from ranklens.stats.pairing import as_deltas
from ranklens.stats.shape import ShapeWarning, shape_notes


def test_a_skewed_small_segment_carries_the_note_and_a_symmetric_one_does_not() -> None:
    rng = np.random.default_rng(45)
    ids = [f"q{i:03d}" for i in range(140)]
    a = rng.uniform(0.2, 0.8, 140)
    # "skewed": 20 queries, 17 tiny losses and 3 big gains; "even": 120 normal differences
    skewed = np.r_[np.full(17, -0.01), [0.3, 0.25, 0.35]]
    even = rng.normal(0.01, 0.1, 120)
    b = a + np.r_[skewed, even]
    segments = {q: "skewed" if i < 20 else "even" for i, q in enumerate(ids)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = compare_segments(MetricResult.from_arrays("m", ids, a),
                               MetricResult.from_arrays("m", ids, b), segments)
    rows = {row.segment: row for row in out.segments}
    expected = shape_notes(as_deltas(b[:20] - a[:20]))
    assert len(expected) == 1 and expected[0].category is ShapeWarning
    assert rows["skewed"].shape_note == expected[0].text
    assert "skewed (skewness" in rows["skewed"].shape_note
    assert rows["even"].shape_note == ""
    assert shape_notes(as_deltas(b[20:] - a[20:])) == ()
    # written in the report's JSON only where there is one, and read back (the row's codec
    # form; the result, whose seed is a segment stream, is the report's to write)
    plain = codec.plain(dataclasses.replace(rows["skewed"], result=None))
    assert plain["shape_note"] == rows["skewed"].shape_note
    assert "shape_note" not in codec.plain(dataclasses.replace(rows["even"], result=None))
    assert codec.rebuild(SegmentRow, plain).shape_note == rows["skewed"].shape_note


def test_the_shape_warning_is_still_a_user_warning() -> None:
    note = shape_notes(as_deltas(np.r_[np.zeros(17), [-0.012, -0.093, -0.034]]))[0]
    assert issubclass(note.category, UserWarning) and note.category is ShapeWarning
    assert "mostly tied (17 of 20 queries" in note.text
