"""A table's columns, declared once for every face: text, Markdown, HTML, CSV and the page.

A `Column` says what a cell holds: the record key it reads, its header (short, for text and
Markdown; ``title`` the long form the HTML export and the page use), whether it is a detail
(`narrow`: text and Markdown leave it out; `wide`: what the HTML export and the page draw),
and its ``kind``, which
fixes how the number is written (through ``ranklens.formats``, so a p, a difference or an
interval reads the same everywhere) and how it aligns (numbers right, words left). `cell`
writes a record's value of a column; `headers` fills the names in the headers.

A key the record lacks is an empty cell (the baseline's row of a leaderboard has no
difference); a value that is None or NaN is a dash (a row too small to compare). An
``interval`` column reads ``<key>_low`` and ``<key>_high``, a ``wtl`` column ``wins``, ``ties``
and ``losses``. Nothing here computes a statistic or knows a feature: the features declare
their tables' columns (``ranklens.compare.columns``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ranklens.formats import (
    DASH,
    format_delta,
    format_interval,
    format_lift_interval,
    format_p,
    format_value,
)

Kind = Literal["label", "text", "count", "value", "delta", "p", "interval", "lift", "wtl",
               "mark"]
"""What a cell holds: a name (label) or words (text), a whole number (count), a quantity
(value), a signed difference (delta), a p- or q-value (p), an interval of differences, a
relative lift with its interval (lift: ``<key>``, ``<key>_low``, ``<key>_high``), the
won / tied / lost counts (wtl), or the significance mark (mark)."""

MARK = "*"
"""The mark of a row whose q (or adjusted p, else p) is at most alpha."""

_RIGHT: frozenset[Kind] = frozenset({"count", "value", "delta", "p", "wtl"})


@dataclass(frozen=True)
class Column:
    """One column: the record ``key`` it reads, its ``header`` (text and Markdown) and
    ``title`` (HTML and the page; the header when empty), its `Kind`, and whether it is a
    ``detail`` (drawn by the wide faces only).

    Headers may name the runs and the level: ``{a}``, ``{b}``, ``{level}`` (see `headers`).
    """

    key: str
    header: str
    kind: Kind
    title: str = ""
    detail: bool = False
    """A column only the wide faces draw (`wide`: the HTML export, the page), such as the
    t-test's p or the finding in words; text and Markdown leave it out (`narrow`)."""

    @property
    def align(self) -> Literal["left", "right"]:
        """Numbers and counts right, names, words, intervals and marks left."""
        return "right" if self.kind in _RIGHT else "left"


def narrow(columns: Sequence[Column]) -> tuple[Column, ...]:
    """The columns text and Markdown draw, in order: every one but the details."""
    return tuple(c for c in columns if not c.detail)


def wide(columns: Sequence[Column]) -> tuple[Column, ...]:
    """The columns the HTML export draws in its tables of differences (segments, leaderboard,
    pairs), in order: every one but the mark, which their finding column says in words. The
    writers' `Table` (``ranklens.document.html``, the page) draws every column, marks too."""
    return tuple(c for c in columns if c.kind != "mark")


def literal_header(text: str) -> str:
    """``text`` as a header that `headers` shows as it is: its braces are not ``{names}`` (a
    run or metric named ``{x}``)."""
    return text.replace("{", "{{").replace("}", "}}")


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
    if kind == "lift":
        if column.key not in record:
            return ""
        lift, low, high = (record[key] for key in parts(column))
        return missing if _blank(lift) else format_lift_interval(lift, low, high)
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
    if column.kind == "lift":
        return (column.key, f"{column.key}_low", f"{column.key}_high")
    return PARTS.get(column.kind, (column.key,))


def number_keys(shown: Sequence[Column]) -> list[str]:
    """The record keys of the numbers of ``shown``, one per number, in order: what the HTML
    export writes one cell each (an interval two, W/T/L three)."""
    return [key for c in shown if c.kind not in ("label", "text", "mark") for key in parts(c)]


def display_frame(table: Any, shown: Sequence[Column], missing: str = "") -> Any:
    """``table`` (a data frame of records) with, for each column of ``shown`` that is an
    interval, a lift, a p or W/T/L, its display text in ``<key>_text`` (``ci_text``,
    ``lift_text``, ``p_value_text``, ``wtl_text``): what the page shows where one cell holds
    several numbers or a p. The numeric columns stay, for sorting and for the downloads."""
    records = table.to_dict("records")
    texts = {f"{c.key}_text": [cell(c, r, missing) for r in records]
             for c in shown if c.kind in ("interval", "lift", "p", "wtl")}
    return table.assign(**texts)


def win_tie_loss(wins: Any, ties: Any, losses: Any) -> str:
    """``"190 / 50 / 160"``; empty when the counts are missing (a too-small row)."""
    if any(_blank(v) for v in (wins, ties, losses)):
        return ""
    return f"{int(wins):,} / {int(ties):,} / {int(losses):,}"


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))
