"""Segment intervals that agree with the q-values: FCR adjustment of one metric's segments.

The segments of one metric are a BH family (`ranklens.compare.segments`). A forest plot of
their marginal 95% intervals shows, over 40 segments, a couple that exclude 0 by chance while
their q-values say "no discovery". `ranklens.stats.fcr_adjust` (Benjamini and Yekutieli 2005)
gives the intervals that match the selection: the R segments BH selects of m at level alpha
are shown at level ``1 - R alpha / m``, and the unselected at the same level (the stated rule,
`ranklens.stats.fcr.UNSELECTED_RULE`). This module computes them for a metric's segment rows
(`segment_fcr`) and says in words which intervals a table or a plot shows (`fcr_caption`) and
where an interval and its q-value still read differently (`disagreement_sentence`).

The overall row is no member of the family: it keeps its marginal interval. The adjustment
follows BH selection, so it is made when the segments' q-values are BH's (``adjust_method``
"bh", across one candidate's segments); with BY or Holm q-values, or q-values across several
candidates, the rows keep their marginal intervals only and the caption says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ranklens import codec
from ranklens.formats import format_interval
from ranklens.stats import ComparisonResult
from ranklens.stats.fcr import UNSELECTED_RULE, fcr_adjust_with_notes
from ranklens.stats.pairing import Deltas
from ranklens.stats.results import Interval, at_most

if TYPE_CHECKING:
    from ranklens.compare.segments import MetricComparison, SegmentRow

IntervalChoice = Literal["fcr", "marginal"]
INTERVAL_CHOICES: tuple[IntervalChoice, ...] = ("fcr", "marginal")
"""Which segment intervals a view shows: FCR-adjusted (the default) or marginal."""


@dataclass(frozen=True)
class SegmentFCR:
    """How a metric's segment intervals were adjusted: BH at ``alpha`` selected
    ``n_selected`` of ``n_comparisons`` segments, and every segment's FCR interval is at
    ``level`` = 1 - max(R, 1) alpha / m. ``rule`` says what the unselected get."""

    alpha: float
    level: float
    n_selected: int
    n_comparisons: int
    rule: str = UNSELECTED_RULE


def segment_fcr(
    results: Sequence[ComparisonResult], deltas: Sequence[Deltas],
) -> tuple[tuple[Interval, ...], SegmentFCR | None]:
    """The FCR-adjusted interval of each of ``results`` (one metric's scored segments, with
    the per-query differences each was computed on) and the adjustment's summary.

    The intervals are the results' own method redrawn with their own seed
    (`ranklens.stats.ConfidenceCurve.for_comparison`), so the marginal interval comes back
    exactly and the adjusted one is its same-draws sibling. An end that cannot be bounded at
    the adjusted level (a sign-flip interval of a small segment) is infinite, said by the
    table as "unbounded". Nothing (empty, None) for no segment.
    """
    if not results:
        return (), None
    # its notes say an end is unbounded: the table shows that end as "unbounded" itself
    adjustment, _ = fcr_adjust_with_notes(results, deltas=deltas)
    summary = SegmentFCR(adjustment.alpha, adjustment.level, adjustment.n_selected,
                         adjustment.n_comparisons, adjustment.rule)
    shown = tuple(Interval(i.low, i.high, i.level, i.method) for i in adjustment.intervals)
    return shown, summary


def level_text(level: float) -> str:
    """A level as people read it: 0.95 -> "95%", 0.99875 -> "99.875%"."""
    return f"{100 * level:.4g}%"


def fcr_level_text(table: Any) -> str:
    """The FCR level of a `ranklens.compare.views.segment_table` as a header reads it
    ("96.67%"), empty when no row has an FCR interval."""
    levels = table["fcr_level"].dropna()
    return level_text(float(levels.iloc[0])) if len(levels) else ""


def fcr_caption(comparison: MetricComparison, shown: IntervalChoice = "fcr") -> str:
    """What the segment intervals of ``comparison`` are, in words, for the plot's caption and
    the exports (empty without segments)."""
    if not comparison.segments:
        return ""
    marginal = level_text(1 - comparison.overall.alpha)
    fcr = comparison.fcr
    if fcr is None:
        why = ("they follow BH selection, and these q-values are "
               f"{comparison.adjust_method.upper()}'s" if comparison.adjust_method != "bh"
               else "the q-values are adjusted across the segments of several candidates"
               if comparison.family == "candidates-segments"
               else "this report was written before they existed")
        return (f"Intervals are marginal {marginal} intervals, not adjusted for the "
                f"selection of segments (no FCR intervals: {why}); the q-value decides which "
                "differences are discoveries.")
    selection = (f"BH at q \u2264 {fcr.alpha:g} selected {fcr.n_selected} of "
                 f"{fcr.n_comparisons} segments")
    if shown == "marginal":
        return (f"Segment intervals are marginal {marginal} intervals, not adjusted for the "
                f"selection ({selection}); the FCR-adjusted ones are at "
                f"{level_text(fcr.level)}. The q-value decides which differences are "
                "discoveries.")
    return (f"Segment intervals are FCR-adjusted (Benjamini\u2013Yekutieli): {selection}, so "
            f"every segment is shown at {level_text(fcr.level)} = 1 \u2212 "
            f"{max(fcr.n_selected, 1)} \u00d7 {fcr.alpha:g} / {fcr.n_comparisons}; the "
            "unselected at the same level, where they contain 0 unless the interval and the "
            f"test disagree. The overall row keeps its marginal {marginal} interval.")


def disagreements(comparison: MetricComparison, shown: IntervalChoice = "fcr"
                  ) -> tuple[SegmentRow, ...]:
    """The segment rows whose shown interval reads differently from their q-value: excludes
    0 but q above alpha, or q at most alpha and the interval contains 0."""
    out = []
    for row in comparison.segments:
        result = row.result
        if result is None or result.q_value is None:
            continue
        interval = row.fcr if shown == "fcr" and row.fcr is not None else result.interval
        if interval.excludes_zero != at_most(result.q_value, result.alpha):
            out.append(row)
    return tuple(out)


def disagreement_sentence(comparison: MetricComparison, shown: IntervalChoice = "fcr") -> str:
    """A sentence naming the segments whose shown interval and q-value read differently
    (empty when none do): the interval and the test are different methods."""
    rows = disagreements(comparison, shown)
    if not rows:
        return ""
    names = ", ".join(f"{row.segment} ({_interval_words(row, shown)})" for row in rows[:5])
    more = f" and {len(rows) - 5} more" if len(rows) > 5 else ""
    which = "FCR-adjusted" if shown == "fcr" and comparison.fcr is not None else "marginal"
    return (f"The {which} interval and the q-value of {len(rows)} segment"
            f"{'' if len(rows) == 1 else 's'} read differently: {names}{more}. The "
            "interval (bootstrap) and the q-value (sign-flip permutation test, BH) are "
            "different methods and can disagree near the boundary; the q-value decides.")


def _interval_words(row: SegmentRow, shown: IntervalChoice) -> str:
    result = row.result
    assert result is not None and result.q_value is not None
    interval = row.fcr if shown == "fcr" and row.fcr is not None else result.interval
    side = "excludes 0" if interval.excludes_zero else "contains 0"
    return (f"interval {format_interval(interval.low, interval.high)} {side}, "
            f"q = {result.q_value:.3g}")


codec.register(SegmentFCR, codec.Form(order=("alpha", "level", "n_selected", "n_comparisons",
                                              "rule")))
