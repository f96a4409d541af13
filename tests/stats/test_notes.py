"""Notes as values: the quiet variants return what the public functions warn, and warn nothing."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from ranklens.data import MetricResult
from ranklens.stats import SmallSampleWarning, compare
from ranklens.stats.compare import compare_with_notes
from ranklens.stats.options import PairedOptions


def _results() -> tuple[MetricResult, MetricResult]:
    rng = np.random.default_rng(4)
    a = {f"q{i:02d}": float(v) for i, v in enumerate(rng.random(12))}
    b = {q: min(1.0, v + 0.05) for q, v in a.items()}
    a["only_a"] = 0.5  # one query measured in A only
    return MetricResult("AP", a), MetricResult("AP", b)


def test_compare_with_notes_returns_what_compare_warns_and_warns_nothing() -> None:
    a, b = _results()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        expected = compare(a, b, n_resamples=200, n_permutations=200)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        result, notes = compare_with_notes(a, b, PairedOptions(n_resamples=200, n_permutations=200))
    assert result == expected
    assert [note.text for note in notes] == [str(w.message) for w in caught]
    assert [note.small_sample for note in notes] == [
        issubclass(w.category, SmallSampleWarning) for w in caught]
    assert notes[0].text.startswith("dropped 1 queries only in run A ('only_a')")
    assert any(note.small_sample for note in notes)  # 12 paired queries < 20


def test_no_pairs_is_still_an_error_without_a_warning() -> None:
    from ranklens.stats import InsufficientSampleError

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(InsufficientSampleError):
            compare_with_notes(MetricResult("AP", {"a": 0.1}), MetricResult("AP", {"b": 0.2}),
                               PairedOptions(missing="drop"))
