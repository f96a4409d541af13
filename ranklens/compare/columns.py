"""The columns of the comparison tables, declared once for text, Markdown, HTML and the page.

A `Column` (``ranklens.document.columns``, the document's table vocabulary) says what a cell
holds and how it reads and aligns. The tables:

- `SEGMENT_COLUMNS`: one metric of two runs, the overall row and one row per segment;
- `LEADERBOARD_COLUMNS`: one metric of several candidates against the baseline;
- `PAIR_COLUMNS`: every pair of candidates, when the family is all pairs;
- `MACRO_COLUMNS`: several collections, one row per collection;
- `ROBUSTNESS_COLUMNS` and `JUDGED_COLUMNS`: one metric under each treatment of unjudged
  documents, and judged@k per row (the coverage view).

Records are the dicts of ``ranklens.compare.report_tables`` (``segment_table``,
``leaderboard_table``, ``pairs_table``) or `ranklens.compare.report.result_row`. A key the
record lacks is an empty cell (the baseline's row of a leaderboard has no difference); a value
that is None or NaN is a dash (a segment too small to compare). An ``interval`` column reads
``<key>_low`` and ``<key>_high`` (``ci``: the marginal interval, ``fcr``: the FCR-adjusted
one), a ``wtl`` column ``wins``, ``ties`` and ``losses``. Nothing here computes a statistic.
"""

from __future__ import annotations

# the column vocabulary is the document's; its names stay importable from here
from ranklens.document.columns import (
    MARK,
    PARTS,
    Column,
    Kind,
    cell,
    cells,
    display_frame,
    headers,
    narrow,
    number_keys,
    parts,
    pick,
    right,
    wide,
    win_tie_loss,
)

__all__ = [
    "JUDGED_COLUMNS", "LEADERBOARD_COLUMNS", "LEADERBOARD_HTML", "LEADERBOARD_TEXT",
    "MACRO_COLUMNS", "MARK", "PAIR_COLUMNS", "PAIR_HTML", "PAIR_TEXT", "PARTS",
    "ROBUSTNESS_COLUMNS", "SEGMENT_COLUMNS", "SEGMENT_HTML",
    "SEGMENT_TEXT", "Column", "Kind", "cell", "cells", "display_frame", "headers",
    "narrow", "number_keys", "parts", "pick", "right", "win_tie_loss",
]

# the columns every table of differences has
_N = Column("n_queries", "n", "count", "Queries")
_DELTA = Column("delta", "B \u2212 A", "delta")
_CI = Column("ci", "{level}% CI", "interval", "Interval")
_LIFT = Column("lift", "Lift ({level}% CI)", "lift", "Lift")  # B − A over A's mean
_FCR = Column("fcr", "FCR {fcr_level} CI", "interval", "FCR-adjusted {fcr_level} interval")
_P = Column("p_value", "p", "p")  # its test is named in the settings line and the notes
_T_P = Column("t_p_value", "p (t-test)", "p", detail=True)
_ADJUSTED = Column("adjusted_p", "adj. p", "p", "Adjusted p")
_WTL = Column("wtl", "W / T / L", "wtl")
_MARK = Column("significant", "", "mark")
_FINDING = Column("finding", "finding", "text", "Finding", detail=True)

# the two runs' means and their difference, headed by the runs' names in the wide faces
_MEANS = (Column("mean_a", "A: {a}", "value", "Mean {a}"),
          Column("mean_b", "B: {b}", "value", "Mean {b}"),
          Column("delta", "B \u2212 A", "delta", "{b} \u2212 {a}"))

SEGMENT_COLUMNS: tuple[Column, ...] = (
    Column("segment", "{segment}", "label", "{rows}"), _N, *_MEANS, _CI,
    _LIFT, _FCR, _P, _T_P,
    Column("q_value", "q", "p"), _MARK, Column("wtl", "W / T / L", "wtl", detail=True),
    _FINDING, Column("note", "note", "text", "Note"),
)
"""One metric of two runs: the overall row, then a row per segment (``fcr``: the segment's
FCR-adjusted interval, `ranklens.compare.fcr`; headers name its level, ``{fcr_level}``; the
first column is headed by the segment column, else ``{segment}`` in text and ``{rows}`` in
the wide faces: ``ranklens.compare.sections.segments``; ``lift``: B − A over A's mean with its
interval at the marginal level, `ranklens.compare.segments.row_lift`)."""


def _keys(shown: tuple[Column, ...]) -> tuple[str, ...]:
    """The keys of ``shown`` but the health column (its place is the report's to choose:
    ``ranklens.health.check_words.with_health_column``)."""
    return tuple(c.key for c in shown if c.key != "health")


SEGMENT_TEXT = _keys(narrow(SEGMENT_COLUMNS))
"""The `SEGMENT_COLUMNS` the text and Markdown tables show, in order (``fcr`` only when a
segment has an FCR interval)."""

SEGMENT_HTML = _keys(wide(SEGMENT_COLUMNS))
"""The `SEGMENT_COLUMNS` the HTML export shows, in order."""

LEADERBOARD_COLUMNS: tuple[Column, ...] = (
    Column("run", "run", "label", "Run"), Column("n_queries", "n", "count", "Queries",
                                                 detail=True),
    Column("mean", "mean", "value", "Mean"), _DELTA, _CI, _LIFT, _P, _ADJUSTED, _T_P, _WTL,
    _FINDING,
    Column("health", "health", "text", "Health"),  # each run's health checks (ranklens.health)
    _MARK,
)
"""One metric of several candidates: the baseline first, then each candidate against it (the
health column, when shown, after the finding in the wide faces and before the mark in the
narrow ones: ``ranklens.health.check_words.with_health_column``)."""

LEADERBOARD_TEXT = _keys(narrow(LEADERBOARD_COLUMNS))
LEADERBOARD_HTML = _keys(wide(LEADERBOARD_COLUMNS))

PAIR_COLUMNS: tuple[Column, ...] = (
    Column("run_b", "B", "label"), Column("run_a", "A", "label"), _DELTA, _CI, _P, _ADJUSTED,
    _WTL, _MARK,
)
"""Every pair of the family (all-pairs reports)."""

MACRO_COLUMNS: tuple[Column, ...] = (
    Column("collection", "{collection}", "label", "{collection}"), _N, *_MEANS, _CI, _P,
    Column("q_value", "q", "p"), _MARK,
)
"""Several collections, BEIR-style: one row per collection, the macro average last
(``ranklens.compare.sections.collections.macro_records``)."""

ROBUSTNESS_COLUMNS: tuple[Column, ...] = (
    Column("treatment", "unjudged documents", "text", "Unjudged documents"),
    Column("mean_a", "A", "text", "Mean {a}"),
    Column("mean_b", "B", "text", "Mean {b}"),
    Column("delta", "B \u2212 A", "text", "{b} \u2212 {a}"),
    Column("interval", "interval", "text", "Interval"),
    Column("p", "p", "text"),
    Column("reads", "reads", "text", "Reads"),
    Column("note", "note", "text", "Note"),
)
"""The robustness view: one row per treatment of unjudged documents; its rows are display
texts already (``ranklens.compare.coverage_words.treatment_rows``;
``ranklens.compare.sections.metric.robustness_section``)."""

JUDGED_COLUMNS: tuple[Column, ...] = (
    Column("segment", "rows", "label", "Rows"), _N,
    Column("judged_a", "A", "value", "{judged} {a}"),
    Column("judged_b", "B", "value", "{judged} {b}"),
    Column("gap", "A \u2212 B", "delta", "A \u2212 B"),
    Column("shift", "shift", "delta", "Same-rate shift of B \u2212 A"),
    Column("could_change", "could change", "text", "Verdict could change"),
)
"""Judged@k of both runs per row, the gap, the same-rate shift of B - A and whether the
row's verdict could change (``ranklens.compare.sections.metric.judged_table``)."""

PAIR_TEXT = _keys(narrow(PAIR_COLUMNS))
PAIR_HTML = _keys(wide(PAIR_COLUMNS))
