"""The segment intervals in words: which intervals a table or plot shows, and where an
interval and its q-value read differently.

`fcr_caption` answers "what are these segment intervals" for the forest plot's caption and the
exports; `disagreement_sentence` names the segments whose shown interval and q-value disagree;
`level_text` is ``ranklens.formats.format_level``, the one writing of a level. The intervals
themselves are computed in ``ranklens.compare.fcr``; nothing here computes a number.
"""

from __future__ import annotations

from typing import Any

from ranklens.compare.fcr import IntervalChoice
from ranklens.compare.segments import MetricComparison, SegmentRow
from ranklens.formats import format_interval
from ranklens.formats import format_level as level_text
from ranklens.stats.results import at_most


def fcr_level_text(table: Any) -> str:
    """The FCR level of a `ranklens.compare.report_tables.segment_table` as a header reads it
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
    first = rows[0].result
    method = first.interval.method if first is not None else "interval"
    test = "skew-guarded test" if method == "skew-guarded" else "sign-flip permutation test"
    return (f"The {which} interval and the q-value of {len(rows)} segment"
            f"{'' if len(rows) == 1 else 's'} read differently: {names}{more}. The "
            f"interval ({method}) and the q-value ({test}, BH across "
            "segments) can disagree near the boundary; the q-value decides.")


def _interval_words(row: SegmentRow, shown: IntervalChoice) -> str:
    result = row.result
    assert result is not None and result.q_value is not None
    interval = row.fcr if shown == "fcr" and row.fcr is not None else result.interval
    side = "excludes 0" if interval.excludes_zero else "contains 0"
    return (f"interval {format_interval(interval.low, interval.high)} {side}, "
            f"q = {result.q_value:.3g}")
