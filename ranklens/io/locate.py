"""Where is data row ``i`` in the source? Physical line numbers for text, row numbers otherwise.

Only computed when a message needs it: the happy path never scans for line ends.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa


class Locator:
    """Maps 0-based data-row indices to 1-based positions; ``unit`` is "line" or "row"."""

    unit = "row"

    def __call__(self, rows: np.ndarray | list[int]) -> list[int]:
        return [int(row) + 1 for row in np.asarray(rows).ravel()]


class KnownLines(Locator):
    """The line of every row is already known (the line-by-line reader records it)."""

    unit = "line"

    def __init__(self, line_numbers: np.ndarray) -> None:
        self._lines = line_numbers

    def __call__(self, rows: np.ndarray | list[int]) -> list[int]:
        return [int(line) for line in self._lines[np.asarray(rows, dtype=np.int64)]]


class NonBlankLines(Locator):
    """Row ``i`` is the ``i``-th non-blank line after ``skip`` non-blank lines (a header).

    Matches a reader that skips empty lines and has no values spanning lines.
    """

    unit = "line"

    def __init__(self, content: Callable[[], pa.Buffer], skip: int = 0) -> None:
        self._content = content
        self._skip = skip
        self._lines: np.ndarray | None = None

    def __call__(self, rows: np.ndarray | list[int]) -> list[int]:
        if self._lines is None:
            self._lines = nonblank_line_numbers(self._content())
        index = np.asarray(rows, dtype=np.int64) + self._skip
        return [int(line) for line in self._lines[np.minimum(index, len(self._lines) - 1)]]


def line_bounds(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end (exclusive, without the line break) of every physical line.

    A line ends at LF, CR LF or a lone CR, as pyarrow's CSV reader (and ``bytes.splitlines``)
    split lines: every reader of ranklens counts lines the same way.
    """
    breaks = np.flatnonzero(data == 10)
    carriages = np.flatnonzero(data == 13)
    if len(carriages):
        after = np.minimum(carriages + 1, len(data) - 1)
        lone = carriages[(carriages == len(data) - 1) | (data[after] != 10)]
        if len(lone):
            breaks = np.union1d(breaks, lone)
    starts = np.concatenate(([0], breaks + 1))
    ends = np.concatenate((breaks, [len(data)]))
    if len(breaks) and breaks[-1] == len(data) - 1:  # a final break does not open a new line
        starts, ends = starts[:-1], ends[:-1]
    carriage = (ends > starts) & (data[np.maximum(ends - 1, 0)] == 13)
    return starts, ends - carriage


def nonblank_line_numbers(buffer: pa.Buffer) -> np.ndarray:
    """1-based numbers of the lines that hold anything besides a line break."""
    data = np.frombuffer(buffer, dtype=np.uint8)
    starts, ends = line_bounds(data)
    if len(data) >= 3 and bytes(data[:3]) == b"\xef\xbb\xbf":
        starts = starts.copy()
        starts[0] = min(3, int(ends[0]))
    return np.flatnonzero(ends > starts) + 1
