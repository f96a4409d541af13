"""Segment intervals that agree with the q-values: FCR adjustment of one metric's segments.

The segments of one metric are a BH family (`ranklens.compare.segments`). A forest plot of
their marginal 95% intervals shows, over 40 segments, a couple that exclude 0 by chance while
their q-values say "no discovery". `ranklens.stats.fcr_adjust` (Benjamini and Yekutieli 2005)
gives the intervals that match the selection: the R segments BH selects of m at level alpha
are shown at level ``1 - R alpha / m``, and the unselected at the same level (the stated rule,
`ranklens.stats.fcr.UNSELECTED_RULE`). This module computes them for a metric's segment rows
(`segment_fcr`); ``ranklens.compare.fcr_words`` says in words which intervals a table or a plot
shows (`fcr_caption`) and where an interval and its q-value still read differently
(`disagreement_sentence`); their old names here still work.

The overall row is no member of the family: it keeps its marginal interval. The adjustment
follows BH selection, so it is made when the segments' q-values are BH's (``adjust_method``
"bh", across one candidate's segments); with BY or Holm q-values, or q-values across several
candidates, the rows keep their marginal intervals only and the caption says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ranklens import codec
from ranklens._lazy import lazy_names
from ranklens.stats import ComparisonResult
from ranklens.stats.fcr import UNSELECTED_RULE, fcr_adjust_with_notes
from ranklens.stats.pairing import Deltas
from ranklens.stats.results import Interval

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


# the words moved to ranklens.compare.fcr_words (they read segment rows, which import this
# module): the old names keep working, imported on first use
__getattr__, __dir__ = lazy_names(__name__, globals(), {
    name: "ranklens.compare.fcr_words" for name in (
        "level_text", "fcr_level_text", "fcr_caption", "disagreements", "disagreement_sentence")})

codec.register(SegmentFCR, codec.Form(order=("alpha", "level", "n_selected", "n_comparisons",
                                              "rule")))
