"""ranklens.compare.segments: segment rows, their random streams and the BH family."""

import numpy as np
import pytest

from ranklens.compare.segments import (
    OVERALL,
    UNSEGMENTED,
    SegmentOptions,
    compare_metrics,
    compare_segments,
)
from ranklens.data import MetricResult
from ranklens.stats import benjamini_hochberg, compare
from ranklens.stats.options import PairedOptions

FAST = dict(n_resamples=2000, n_permutations=2000)


def _options(seed: int) -> SegmentOptions:
    return SegmentOptions(PairedOptions(seed=seed, n_resamples=2000, n_permutations=2000))


def _results(n: int = 120, shift: float = 0.03, seed: int = 1, metric: str = "nDCG@10"):
    rng = np.random.default_rng(seed)
    a = rng.uniform(0, 1, n)
    b = np.clip(a + shift + rng.normal(0, 0.1, n), 0, 1)
    queries = [f"q{i:03d}" for i in range(n)]
    return (MetricResult(metric, dict(zip(queries, a, strict=True))),
            MetricResult(metric, dict(zip(queries, b, strict=True))), queries)


def _segments(queries, names=("red", "green", "blue")):
    return {q: names[i % len(names)] for i, q in enumerate(queries)}


def test_overall_row_equals_the_library_comparison_with_the_same_seed():
    a, b, queries = _results()
    result = compare_segments(a, b, _segments(queries), _options(seed=7))
    assert result.overall == compare(a, b, seed=7, **FAST)
    assert result.rows[0].segment == OVERALL
    assert [row.segment for row in result.segments] == ["blue", "green", "red"]
    assert sum(row.n_queries for row in result.segments) == 120


def test_a_segments_numbers_do_not_change_when_another_segment_is_removed():
    a, b, queries = _results()
    segments = _segments(queries)
    full = compare_segments(a, b, segments, _options(seed=3))
    kept = {q for q, s in segments.items() if s != "green"}
    a2 = MetricResult(a.metric, {q: v for q, v in a.per_query.items() if q in kept})
    b2 = MetricResult(b.metric, {q: v for q, v in b.per_query.items() if q in kept})
    reduced = compare_segments(a2, b2, {q: segments[q] for q in kept}, _options(seed=3))
    red_full = next(r for r in full.segments if r.segment == "red").result
    red_reduced = next(r for r in reduced.segments if r.segment == "red").result
    assert (red_full.interval.low, red_full.interval.high, red_full.p_value) == (
        red_reduced.interval.low, red_reduced.interval.high, red_reduced.p_value)


def test_segments_of_equal_size_draw_different_resamples():
    queries = [f"q{i:03d}" for i in range(60)]
    # two segments with identical deltas: with one shared stream they would get equal intervals
    values_a = {q: 0.5 for q in queries}
    deltas = np.linspace(-0.2, 0.3, 30)
    values_b = {q: 0.5 + deltas[i % 30] for i, q in enumerate(queries)}
    segments = {q: ("x" if i < 30 else "y") for i, q in enumerate(queries)}
    out = compare_segments(MetricResult("m", values_a), MetricResult("m", values_b), segments,
                           _options(seed=0))
    x, y = (row.result for row in out.segments)
    assert x.delta == pytest.approx(y.delta)
    assert (x.interval.low, x.interval.high) != (y.interval.low, y.interval.high)


def test_tiny_segment_is_reported_too_small_and_unsegmented_queries_get_their_own_row():
    a, b, queries = _results(n=50)
    segments = _segments(queries[:45], names=("big",))
    segments[queries[45]] = "lonely"
    out = compare_segments(a, b, segments, _options(seed=0))
    rows = {row.segment: row for row in out.segments}
    assert rows["lonely"].too_small and rows["lonely"].n_queries == 1
    assert "too small" in rows["lonely"].note
    assert rows[UNSEGMENTED].n_queries == 4
    assert rows[UNSEGMENTED].result is not None and "small sample" in rows[UNSEGMENTED].note
    assert rows["big"].note == ""


def test_segment_q_values_are_bh_over_the_segments_that_have_results():
    a, b, queries = _results(n=200, shift=0.02)
    out = compare_segments(a, b, _segments(queries, names="abcde"), _options(seed=0))
    p = [row.result.p_value for row in out.segments]
    assert [row.result.q_value for row in out.segments] == list(benjamini_hochberg(p))
    assert out.overall.q_value is None
    assert out.family == "segments"


def test_without_segments_the_metrics_form_the_family():
    a1, b1, _ = _results(metric="nDCG@10", seed=1)
    a2, b2, _ = _results(metric="AP", seed=2, shift=0.0)
    out = compare_metrics({"nDCG@10": a1, "AP": a2}, {"nDCG@10": b1, "AP": b2}, None,
                          _options(seed=0))
    p = [c.overall.p_value for c in out]
    assert [c.overall.q_value for c in out] == list(benjamini_hochberg(p))
    assert all(c.family == "metrics" and c.segments == () for c in out)


def test_unpaired_queries_become_a_warning_in_words_not_an_exception():
    a, b, queries = _results(n=40)
    b = MetricResult(b.metric, {q: v for q, v in b.per_query.items() if q != queries[0]})
    out = compare_segments(a, b, None, _options(seed=0))
    assert out.overall.n_queries == 39
    assert any("only in run A" in message for message in out.warnings)


def test_a_single_metric_without_segments_has_no_q_value():
    a, b, _ = _results()
    (only,) = compare_metrics({"nDCG@10": a}, {"nDCG@10": b}, None, _options(seed=0))
    assert only.overall.q_value is None
