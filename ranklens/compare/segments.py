"""Segments: one paired comparison per segment of traffic, plus the overall row.

``compare_segments`` answers "where is B better than A on this metric?": the overall
comparison on all paired queries, then one comparison per segment, with q-values across the
segments (the BH family is the segments of one metric). ``compare_metrics`` does that for
several metrics; without segments the family is the metrics among themselves.

Each segment row carries its marginal interval (in its result) and, when the q-values are BH's
across the metric's segments, the interval adjusted for that selection (``SegmentRow.fcr``,
`ranklens.compare.fcr`): the one the forest plot shows by default.

Each segment draws from its own random stream, derived from the seed *and the segment's
name*, so a segment's numbers do not change when another segment is added or removed, and
two segments of the same size never share resamples (the independence BH assumes).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from ranklens.compare.fcr import SegmentFCR, segment_fcr
from ranklens.data import MetricResult
from ranklens.stats import (
    ADJUST_METHODS,
    AdjustMethod,
    ComparisonResult,
    InsufficientSampleError,
    PairedOptions,
    adjust,
)
from ranklens.stats.compare import compare_with_notes
from ranklens.stats.interval import FAMILY_INTERVAL
from ranklens.stats.lift import Lift, relative_lift
from ranklens.stats.pairing import Paired, pair_quietly
from ranklens.stats.results import Interval, Seed
from ranklens.stats.shape import shape_note_text

OVERALL = "All queries"
UNSEGMENTED = "(no segment)"
MIN_SEGMENT_QUERIES = 2
INTERVALS_NOTE = (
    "Intervals are not adjusted for multiple comparisons; the q-value decides which "
    "differences are discoveries."
)


@dataclass(frozen=True)
class SegmentOptions:
    """How a comparison by segment is computed: each row's paired ``statistics``, the
    adjustment of the segments' q-values (``adjust_method``) and the column the segments come
    from (recorded in the result, ``None`` without segments).

    Raises ``ValueError`` for an unknown ``adjust_method`` (the statistics check theirs).
    """

    statistics: PairedOptions = field(default_factory=PairedOptions)
    adjust_method: AdjustMethod = "bh"
    segment_column: str | None = None

    def __post_init__(self) -> None:
        if self.adjust_method not in ADJUST_METHODS:
            raise ValueError(f"adjust_method must be one of {ADJUST_METHODS}, "
                             f"got {self.adjust_method!r}")


@dataclass(frozen=True)
class SegmentRow:
    """One row of a segmented comparison.

    ``result`` is None when the segment has fewer than two paired queries ("too small"), in
    which case ``note`` says so; a small but computable segment has a result and a note.
    ``fcr`` is the segment's interval adjusted for the BH selection of the metric's segments
    (`ranklens.compare.fcr`; None for the overall row, a too-small segment, or when no
    adjustment was made); ``result.interval`` stays the marginal one. ``shape_note`` says,
    when the segment's differences are too skewed or too tied for its number of queries, that
    its interval and p may miss their level (`ranklens.stats.shape`; "" otherwise): what a
    table marks beside the row. ``lift`` is B's relative lift over A with its interval at the
    marginal level (`row_lift`; None where A's mean is near 0, for a too-small segment, and
    in reports written before it).
    """

    segment: str
    n_queries: int
    result: ComparisonResult | None
    note: str = ""
    fcr: Interval | None = None
    shape_note: str = ""
    lift: Lift | None = None

    @property
    def too_small(self) -> bool:
        return self.result is None


@dataclass(frozen=True)
class MetricComparison:
    """Run B against run A on one metric: overall and, when segments are given, per segment.

    ``family`` names the set of comparisons whose q-values were computed together:
    ``"segments"`` (the rows of this metric), ``"candidates-segments"`` (the segment rows of
    this metric of every candidate) or ``"metrics"`` (the overall rows of all metrics in the
    report). ``warnings`` are the library's messages, in words.

    With several candidates (``ranklens.compare.family``), ``candidate`` is the index of run
    B among the report's runs (1 for the first candidate) and ``overall_family`` says in
    words what the overall row's ``q_value`` is adjusted for ("for 5 candidates"): it is
    then the family-wise adjusted p, not a q-value across metrics.
    """

    metric: str
    overall: ComparisonResult
    segments: tuple[SegmentRow, ...] = ()
    segment_column: str | None = None
    family: str = "metrics"
    adjust_method: str = "bh"
    warnings: tuple[str, ...] = ()
    candidate: int = 1
    overall_family: str = ""
    # how the segments' FCR intervals were adjusted (ranklens.compare.fcr); None without
    fcr: SegmentFCR | None = None
    # the overall row's relative lift (`row_lift`); None as SegmentRow.lift is
    overall_lift: Lift | None = None

    @property
    def rows(self) -> tuple[SegmentRow, ...]:
        """The overall row first, then the segments."""
        overall = SegmentRow(OVERALL, self.overall.n_queries, self.overall,
                             lift=self.overall_lift)
        return (overall, *self.segments)


def row_lift(paired: Paired, result: ComparisonResult, options: PairedOptions,
             seed: Seed) -> Lift | None:
    """B's relative lift over A on the queries of one row (`ranklens.stats.lift`): the
    ratio's sign-flip test with the row's own patterns (``options``' permutations and the
    row's ``seed``), widened to hold the row's interval of B − A over A's mean, so that it
    excludes 0 exactly when that interval does (the sign-flip and skew-guarded intervals, the
    default; a bootstrap interval chosen instead may disagree with the sign-flip part about 0,
    as it may with the p beside it); at the interval's level. None where A's mean is near 0."""
    interval = result.interval
    return relative_lift(paired.a, paired.b, alpha=interval.alpha,
                         n_permutations=options.n_permutations, seed=seed,
                         difference=(interval.low, interval.high), p_value=result.p_value)


def segment_seed(seed: Seed, segment: str) -> np.random.SeedSequence:
    """A random stream for one segment: a function of the seed and the segment's name only.

    Raises ``TypeError`` for a seed that is already a stream: segments derive from an integer.
    """
    if isinstance(seed, np.random.SeedSequence):
        raise TypeError("segment streams derive from an integer seed, got a SeedSequence")
    digest = hashlib.sha256(segment.encode("utf-8")).digest()
    words = np.frombuffer(digest[:16], dtype=np.uint32).tolist()
    return np.random.SeedSequence([int(seed), *words])


def _segment_of(result: MetricResult, segments: Mapping[str, str]) -> np.ndarray:
    """The segment name of each query of ``result``, aligned with its ``query_ids``."""
    return np.array([segments.get(q, UNSEGMENTED) for q in result.query_ids.tolist()],
                    dtype=object)


def compare_segments(
    result_a: MetricResult,
    result_b: MetricResult,
    segments: Mapping[str, str] | None = None,
    options: SegmentOptions | None = None,
) -> MetricComparison:
    """Overall comparison of B against A on one metric, and one per segment.

    ``segments`` maps a query id to its segment name. Queries measured but absent from the
    map form their own visible row, ``"(no segment)"``. A segment with fewer than two
    paired queries is reported as too small (no result), not dropped. Segment q-values come
    from the options' ``adjust_method`` ("bh" default, "by", "holm") over the segments that
    have a result; the overall row keeps q None (it is not a member of the family).

    The overall row uses the options' seed itself, so it equals ``ranklens.stats.compare`` on
    the same inputs; each segment uses `segment_seed`, and, with ``interval="auto"``, the
    skew-guarded test and interval (`ranklens.stats.skew_guard`: BH's small levels are where
    skewed differences make the sign-flip p too small). Warnings (unpaired queries, small
    samples) are returned in ``warnings`` rather than raised.
    """
    options = options or SegmentOptions()
    statistics, adjust_method = options.statistics, options.adjust_method
    overall, notes = compare_with_notes(result_a, result_b, statistics)
    messages = [note.text for note in notes]
    paired = pair_quietly(result_a, result_b, missing=statistics.missing, min_queries=0)
    overall_lift = row_lift(paired, overall, statistics, statistics.seed)
    if segments is None:
        return MetricComparison(result_a.metric, overall, (), None, "metrics", adjust_method,
                                tuple(messages), overall_lift=overall_lift)

    segment_a, segment_b = _segment_of(result_a, segments), _segment_of(result_b, segments)
    names = sorted(set(segment_a.tolist()) | set(segment_b.tolist()))
    measured = set(result_a.query_ids.tolist()) | set(result_b.query_ids.tolist())
    unmeasured = len(segments.keys() - measured)
    if unmeasured:
        messages.append(
            f"{unmeasured} queries of the segment map have no measurement in either run "
            "and are not in any row"
        )

    rows: list[SegmentRow] = []
    deltas = {}
    if statistics.interval == "auto":  # a BH family's small levels: ranklens.stats.skew_guard
        statistics = replace(statistics, interval=FAMILY_INTERVAL)
    for name in names:  # each segment is a mask over each run's queries
        a, b = result_a.restrict(segment_a == name), result_b.restrict(segment_b == name)
        seeded = statistics.seeded(segment_seed(statistics.seed, name))
        try:
            result, notes = compare_with_notes(a, b, seeded)
        except InsufficientSampleError as error:  # fewer than two pairs: a visible row
            rows.append(SegmentRow(name, error.n, None, f"too small: {error.n} paired "
                                   f"queries, {MIN_SEGMENT_QUERIES} or more needed"))
            continue
        small = any(note.small_sample for note in notes)
        note = (f"small sample: {result.n_queries} paired queries "
                f"(< {statistics.min_queries})"
                if small else "")
        in_segment = pair_quietly(a, b, missing=statistics.missing, min_queries=0)
        rows.append(SegmentRow(name, result.n_queries, result, note,
                               shape_note=shape_note_text(notes),
                               lift=row_lift(in_segment, result, seeded, seeded.seed)))
        deltas[name] = in_segment.deltas

    positions = [i for i, row in enumerate(rows) if row.result is not None]
    results = adjust([row.result for row in rows if row.result is not None],
                     method=adjust_method)
    fcr: SegmentFCR | None = None
    intervals: tuple[Interval | None, ...] = (None,) * len(results)
    if adjust_method == "bh":  # FCR intervals follow BH's selection (ranklens.compare.fcr)
        intervals, fcr = segment_fcr(results, [deltas[rows[i].segment] for i in positions])
    for i, result, interval in zip(positions, results, intervals, strict=True):
        rows[i] = replace(rows[i], result=result, fcr=interval)
    return MetricComparison(result_a.metric, overall, tuple(rows), options.segment_column,
                            "segments", adjust_method, tuple(messages), fcr=fcr,
                            overall_lift=overall_lift)


def compare_metrics(
    results_a: Mapping[str, MetricResult],
    results_b: Mapping[str, MetricResult],
    segments: Mapping[str, str] | None = None,
    options: SegmentOptions | None = None,
) -> tuple[MetricComparison, ...]:
    """`compare_segments` for every metric of ``results_a`` (in its order).

    With segments, each metric's segments are one family. Without, the metrics' overall rows
    are one family and get q-values together (metrics on the same queries are dependent:
    ``adjust_method="by"`` is the conservative choice there); a single metric keeps q None.
    """
    options = options or SegmentOptions()
    missing_b = [name for name in results_a if name not in results_b]
    if missing_b:
        raise ValueError(f"run B has no results for {missing_b}")
    comparisons = [
        compare_segments(results_a[name], results_b[name], segments, options)
        for name in results_a
    ]
    if segments is not None or len(comparisons) < 2:  # one metric is no family: q would be p
        return tuple(comparisons)
    adjusted = adjust([c.overall for c in comparisons], method=options.adjust_method)
    return tuple(replace(c, overall=result) for c, result in zip(comparisons, adjusted,
                                                                  strict=True))
