"""Notes as values: the quiet variants return what the public functions warn, and warn nothing."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TypeVar

import numpy as np
import pytest

from ranklens.data import MetricResult
from ranklens.stats import SmallSampleWarning, compare
from ranklens.stats.compare import compare_with_notes
from ranklens.stats.options import PairedOptions

T = TypeVar("T")


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


def _recorded(call: Callable[[], T]) -> tuple[T, list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = call()
    return value, caught


def _quiet(call: Callable[[], T]) -> T:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        return call()


def test_compare_seeds_with_notes_returns_what_compare_seeds_warns() -> None:
    from ranklens.stats import compare_seeds
    from ranklens.stats.seeds import compare_seeds_with_notes

    rng = np.random.default_rng(7)
    ids = np.array([f"q{i:02d}" for i in range(12)], dtype=object)
    base = rng.random(12)
    runs_a = [MetricResult.from_arrays("AP", ids, np.clip(base + rng.normal(0, .02, 12), 0, 1),
                                       run=f"a{k}") for k in range(2)]
    runs_b = [MetricResult.from_arrays("AP", ids, np.clip(base + .05 + rng.normal(0, .02, 12),
                                                          0, 1), run=f"b{k}") for k in range(3)]
    runs_b[1] = runs_b[1].restrict(np.arange(12) != 4)  # q04 not scored by b1
    expected, caught = _recorded(lambda: compare_seeds(runs_a, runs_b, n_resamples=200,
                                                       n_permutations=200))
    result, notes = _quiet(lambda: compare_seeds_with_notes(
        runs_a, runs_b, PairedOptions(n_resamples=200, n_permutations=200)))
    # per_seed's seeds are SeedSequences, equal only to themselves: compare their numbers
    assert (result.these_runs, result.new_run, result.components, result.dropped,
            result.notes) == (expected.these_runs, expected.new_run,
                              expected.components, expected.dropped, expected.notes)
    assert [(c.delta, c.interval.low, c.interval.high, c.p_value) for c in result.per_seed] == [
        (c.delta, c.interval.low, c.interval.high, c.p_value) for c in expected.per_seed]
    assert [note.text for note in notes] == [str(w.message) for w in caught]
    assert notes[0].text.startswith("dropped 1 queries not scored by every run ('q04'; "
                                    "e.g. not scored by b1)")
    assert [note.small_sample for note in notes] == [False, True]  # 11 paired queries < 20
    assert result.these_runs.n_queries == 11 and len(result.per_seed) == 3


def test_fcr_adjust_and_curve_with_notes_return_the_unbounded_end() -> None:
    from ranklens.stats import fcr_adjust
    from ranklens.stats.fcr import fcr_adjust_with_notes
    from ranklens.stats.levels import confidence_curve

    curve = confidence_curve(np.array([0.1, 0.2, 0.15, 0.05, 0.3, 0.12, 0.2]),
                             method="sign-flip")
    shown, notes = _quiet(lambda: curve.interval_with_notes(0.005))
    assert (shown.low, shown.high) == (-np.inf, np.inf)
    assert [n.small_sample for n in notes] == [True] and "infinite end" in notes[0].text
    assert _quiet(lambda: curve.interval_with_notes(0.05))[1] == ()

    rng = np.random.default_rng(3)
    deltas = [rng.normal(0.02, 0.05, 6) for _ in range(3)]
    base = MetricResult("AP", {f"q{i}": 0.5 for i in range(6)})
    comparisons = [compare_with_notes(
        base, MetricResult("AP", {f"q{i}": 0.5 + float(v) for i, v in enumerate(d)}),
        PairedOptions(n_permutations=200, min_queries=2))[0] for d in deltas]
    expected, caught = _recorded(lambda: fcr_adjust(comparisons, deltas=deltas))
    adjustment, notes = _quiet(lambda: fcr_adjust_with_notes(comparisons, deltas=deltas))
    assert adjustment == expected
    assert len(notes) == 3 and [n.text for n in notes] == [str(w.message) for w in caught]
    # 2^6 sign patterns cannot bound the level 1 - .05 / 3
    assert all(item.low == -np.inf for item in adjustment.intervals)


def test_judge_agreement_with_notes_returns_the_undefined_resamples() -> None:
    from ranklens.stats import judge_agreement
    from ranklens.stats.agreement import judge_agreement_with_notes

    args = (["q1", "q2", "q3"], [0, 1, 1], [0, 1, 1])
    expected, caught = _recorded(lambda: judge_agreement(*args, n_resamples=200))
    result, notes = _quiet(lambda: judge_agreement_with_notes(
        *args, alpha=0.05, n_resamples=200, seed=0, grades=None))
    assert result.kappa_linear == expected.kappa_linear
    assert result.kappa_quadratic == expected.kappa_quadratic
    assert [n.text for n in notes] == [str(w.message) for w in caught]
    assert notes and all(n.small_sample for n in notes)
    assert "query resamples leave the linear undefined" in notes[0].text


def test_difference_and_p_is_the_comparisons_to_the_bit() -> None:
    from ranklens.stats.compare import difference_and_p

    rng = np.random.default_rng(11)
    ids = [f"q{i:03d}" for i in range(60)]
    a = {q: float(v) for q, v in zip(ids, rng.random(60), strict=True)}
    b = {q: min(1.0, v + float(rng.normal(0.02, 0.1))) for q, v in a.items()}
    b.update({q: a[q] + 1e-9 for q in ids[:5]})  # float noise: snapped to ties
    del b[ids[-1]]  # one unpaired query
    for options in (PairedOptions(n_resamples=300, n_permutations=300, seed=3),
                    PairedOptions(n_permutations=500, min_queries=2, interval="percentile")):
        full, _ = compare_with_notes(MetricResult("AP", a), MetricResult("AP", b), options)
        assert _quiet(lambda options=options: difference_and_p(
            MetricResult("AP", a), MetricResult("AP", b), options)) == (full.delta,
                                                                       full.p_value)
        assert full.n_snapped == 5
