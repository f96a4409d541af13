"""The columns of the comparison tables, declared once for text, Markdown, HTML and the page.

A `Column` says what a cell holds: the record key it reads, its header (short, for text and
Markdown; ``title`` the long form the HTML export and the page use), and its ``kind``, which
fixes how the number is written (through ``ranklens.formats``, so a p, a difference or an
interval reads the same everywhere) and how it aligns (numbers right, words left). The tables:

- `SEGMENT_COLUMNS`: one metric of two runs, the overall row and one row per segment;
- `LEADERBOARD_COLUMNS`: one metric of several candidates against the baseline;
- `PAIR_COLUMNS`: every pair of candidates, when the family is all pairs.

Records are the dicts of ``ranklens.compare.views`` (``segment_table``, ``leaderboard_table``,
``pairs_table``) or `ranklens.compare.report.result_row`. A key the record lacks is an empty
cell (the baseline's row of a leaderboard has no difference); a value that is None or NaN is a
dash (a segment too small to compare). An ``interval`` column reads ``<key>_low`` and
``<key>_high`` (``ci``: the marginal interval, ``fcr``: the FCR-adjusted one), a ``wtl`` column
``wins``, ``ties`` and ``losses``. Nothing here computes a statistic.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ranklens.formats import DASH, format_delta, format_interval, format_p, format_value

Kind = Literal["label", "text", "count", "value", "delta", "p", "interval", "wtl", "mark"]
"""What a cell holds: a name (label) or words (text), a whole number (count), a quantity
(value), a signed difference (delta), a p- or q-value (p), an interval of differences, the
won / tied / lost counts (wtl), or the significance mark (mark)."""

MARK = "*"
"""The mark of a row whose q (or adjusted p, else p) is at most alpha."""

_RIGHT: frozenset[Kind] = frozenset({"count", "value", "delta", "p", "wtl"})


@dataclass(frozen=True)
class Column:
    """One column: the record ``key`` it reads, its ``header`` (text and Markdown) and
    ``title`` (HTML and the page; the header when empty), and its `Kind`.

    Headers may name the runs and the level: ``{a}``, ``{b}``, ``{level}`` (see `headers`).
    """

    key: str
    header: str
    kind: Kind
    title: str = ""

    @property
    def align(self) -> Literal["left", "right"]:
        """Numbers and counts right, names, words, intervals and marks left."""
        return "right" if self.kind in _RIGHT else "left"


# the columns every table of differences has
_N = Column("n_queries", "n", "count", "Queries")
_DELTA = Column("delta", "B \u2212 A", "delta")
_CI = Column("ci", "{level}% CI", "interval", "Interval")
_FCR = Column("fcr", "FCR {fcr_level} CI", "interval", "FCR-adjusted {fcr_level} interval")
_P = Column("p_value", "p", "p", "p (permutation)")
_T_P = Column("t_p_value", "p (t-test)", "p")
_ADJUSTED = Column("adjusted_p", "adj. p", "p", "Adjusted p")
_WTL = Column("wtl", "W / T / L", "wtl")
_MARK = Column("significant", "", "mark")
_FINDING = Column("finding", "finding", "text", "Finding")

SEGMENT_COLUMNS: tuple[Column, ...] = (
    Column("segment", "{segment}", "label", "{segment}"), _N,
    Column("mean_a", "A: {a}", "value", "Mean {a}"),
    Column("mean_b", "B: {b}", "value", "Mean {b}"),
    Column("delta", "B \u2212 A", "delta", "{b} \u2212 {a}"), _CI, _FCR, _P, _T_P,
    Column("q_value", "q", "p"), _MARK, _WTL, _FINDING, Column("note", "note", "text", "Note"),
)
"""One metric of two runs: the overall row, then a row per segment (``fcr``: the segment's
FCR-adjusted interval, `ranklens.compare.fcr`; headers name its level, ``{fcr_level}``)."""

SEGMENT_TEXT = ("segment", "n_queries", "mean_a", "mean_b", "delta", "ci", "fcr", "p_value",
                "q_value", "significant", "note")
"""The `SEGMENT_COLUMNS` the text and Markdown tables show, in order (``fcr`` only when a
segment has an FCR interval)."""

SEGMENT_HTML = ("segment", "n_queries", "mean_a", "mean_b", "delta", "ci", "fcr", "p_value",
                "t_p_value", "q_value", "wtl", "finding", "note")
"""The `SEGMENT_COLUMNS` the HTML export shows, in order."""

LEADERBOARD_COLUMNS: tuple[Column, ...] = (
    Column("run", "run", "label", "Run"), _N, Column("mean", "mean", "value", "Mean"), _DELTA,
    _CI, _P, _ADJUSTED, _T_P, _WTL, _MARK, _FINDING,
    Column("health", "health", "text", "Health"),  # each run's health checks (ranklens.health)
)
"""One metric of several candidates: the baseline first, then each candidate against it."""

LEADERBOARD_TEXT = ("run", "mean", "delta", "ci", "p_value", "adjusted_p", "wtl", "significant")
LEADERBOARD_HTML = ("run", "n_queries", "mean", "delta", "ci", "p_value", "adjusted_p",
                    "t_p_value", "wtl", "finding")

PAIR_COLUMNS: tuple[Column, ...] = (
    Column("run_b", "B", "label"), Column("run_a", "A", "label"), _DELTA, _CI, _P, _ADJUSTED,
    _WTL, _MARK,
)
"""Every pair of the family (all-pairs reports)."""

MACRO_COLUMNS: tuple[Column, ...] = (
    Column("collection", "{collection}", "label", "{collection}"), _N,
    Column("mean_a", "A: {a}", "value", "Mean {a}"),
    Column("mean_b", "B: {b}", "value", "Mean {b}"),
    Column("delta", "B \u2212 A", "delta", "{b} \u2212 {a}"), _CI, _P,
    Column("q_value", "q", "p"), _MARK,
)
"""Several collections, BEIR-style: one row per collection, the macro average last
(``ranklens.compare.macro_views.macro_records``)."""

PAIR_TEXT = tuple(c.key for c in PAIR_COLUMNS)
PAIR_HTML = ("run_b", "run_a", "delta", "ci", "p_value", "adjusted_p", "wtl")


def pick(columns: Sequence[Column], keys: Sequence[str]) -> tuple[Column, ...]:
    """The ``columns`` named by ``keys``, in the order of ``keys``."""
    by_key = {c.key: c for c in columns}
    return tuple(by_key[key] for key in keys)


def headers(columns: Sequence[Column], names: Mapping[str, object], *,
            long: bool = False) -> list[str]:
    """The headers (``long``: the titles) with ``{a}``, ``{b}``, ``{level}``, ``{segment}``
    filled from ``names``."""
    return [((c.title or c.header) if long else c.header).format(**names) for c in columns]


def right(columns: Sequence[Column]) -> set[int]:
    """Indices of the right-aligned columns (for ``ranklens.formats.plain_table``)."""
    return {i for i, c in enumerate(columns) if c.align == "right"}


def cell(column: Column, record: Mapping[Any, Any], missing: str = DASH) -> str:
    """``record``'s value of ``column`` as people read it (see the module docstring);
    ``missing`` is written for a None or NaN number (the page leaves those blank)."""
    kind = column.kind
    if kind == "interval":
        low_key, high_key = parts(column)
        if low_key not in record:
            return ""
        low, high = record[low_key], record[high_key]
        return missing if _blank(low) or _blank(high) else format_interval(low, high)
    if kind == "wtl":
        if "wins" not in record:
            return ""
        return win_tie_loss(record["wins"], record["ties"], record["losses"])
    if column.key not in record:
        return ""
    value = record[column.key]
    if kind == "mark":
        return MARK if value is True else ""
    if kind in ("label", "text"):
        return "" if value is None else str(value)
    if _blank(value):
        return missing
    if kind == "count":
        return f"{int(value):,}"
    if kind == "value":
        return format_value(float(value))
    if kind == "delta":
        return format_delta(float(value))
    return format_p(float(value))


def cells(columns: Sequence[Column], records: Sequence[Mapping[Any, Any]]) -> list[list[str]]:
    """Each record as the display strings of ``columns``."""
    return [[cell(c, record) for c in columns] for record in records]


PARTS: dict[str, tuple[str, ...]] = {"interval": ("ci_low", "ci_high"),
                                     "wtl": ("wins", "ties", "losses")}
"""The record keys of a column that holds several numbers (by kind; an interval column's are
named by its key, `parts`)."""


def parts(column: Column) -> tuple[str, ...]:
    """The record keys of ``column``'s numbers: ``<key>_low``/``<key>_high`` for an interval,
    the W/T/L counts, else the key itself."""
    if column.kind == "interval":
        return (f"{column.key}_low", f"{column.key}_high")
    return PARTS.get(column.kind, (column.key,))


def number_keys(shown: Sequence[Column]) -> list[str]:
    """The record keys of the numbers of ``shown``, one per number, in order: what the HTML
    export writes one cell each (an interval two, W/T/L three)."""
    return [key for c in shown if c.kind not in ("label", "text", "mark") for key in parts(c)]


def display_frame(table: Any, shown: Sequence[Column], missing: str = "") -> Any:
    """``table`` (a data frame of records) with, for each column of ``shown`` that is an
    interval, a p or W/T/L, its display text in ``<key>_text`` (``ci_text``, ``p_value_text``,
    ``wtl_text``): what the page shows where one cell holds several numbers or a p. The
    numeric columns stay, for sorting and for the downloads."""
    records = table.to_dict("records")
    texts = {f"{c.key}_text": [cell(c, r, missing) for r in records]
             for c in shown if c.kind in ("interval", "p", "wtl")}
    return table.assign(**texts)


def win_tie_loss(wins: Any, ties: Any, losses: Any) -> str:
    """``"190 / 50 / 160"``; empty when the counts are missing (a too-small row)."""
    if any(_blank(v) for v in (wins, ties, losses)):
        return ""
    return f"{int(wins):,} / {int(ties):,} / {int(losses):,}"


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))
