"""TREC text as trec_eval splits it, rewritten so that one separator byte splits it the same way.

trec_eval reads its files field by field: any run of blanks (space, tab, vertical tab, form
feed) separates two fields, blanks at the start and end of a line belong to no field, and a
line whose first field starts with ``#`` is a comment (trec_eval 10.0). Lines end at LF, CR LF
or a lone CR (as pyarrow's CSV reader and ``bytes.splitlines`` end them).

``canonical_text`` rewrites such text so that exactly one space separates two fields, no line
starts or ends with a blank, and comment lines are empty: a single-separator CSV reader then
reads the same fields as ``line.split()`` would, line for line. Line breaks are kept, so every
physical line keeps its number. It answers "what are the fields"; whether there are the right
number of them, and what they mean, is the format reader's business.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ranklens.io.detect import BOM

# bytes of a chunk: whole lines, at most this many bytes unless one line is longer
CHUNK_BYTES = 1 << 22
_SPACE, _TAB, _VT, _FF, _LF, _CR, _HASH = 32, 9, 11, 12, 10, 13, 35


@dataclass(frozen=True)
class Canonical:
    """The rewritten bytes, how many comment lines were emptied, and whether any blank changed."""

    data: np.ndarray
    comment_lines: int
    blanks_changed: bool


def canonical_text(data: np.ndarray) -> Canonical:
    """``data`` (UTF-8 bytes, BOM allowed) with single-space separators and comments emptied."""
    if bytes(data[:3]) == BOM:
        data = data[3:]
    pieces: list[np.ndarray] = []
    comments = 0
    changed = False
    start = 0
    while start < len(data):
        stop = _chunk_end(data, start)
        piece, chunk_comments, chunk_changed = _canonical_chunk(data[start:stop])
        changed = changed or chunk_changed
        pieces.append(piece)
        comments += chunk_comments
        start = stop
    out = np.concatenate(pieces) if pieces else np.empty(0, dtype=np.uint8)
    return Canonical(out, comments, changed)


def _chunk_end(data: np.ndarray, start: int) -> int:
    """End of the chunk that starts at ``start``: just after a LF, so chunks hold whole lines."""
    at = start + CHUNK_BYTES
    while at < len(data):
        window = data[at:at + (1 << 16)]
        breaks = np.flatnonzero(window == _LF)
        if len(breaks):
            return at + int(breaks[0]) + 1
        at += len(window)
    return len(data)


def _canonical_chunk(chunk: np.ndarray) -> tuple[np.ndarray, int, bool]:
    carriage = chunk == _CR
    if carriage.any():
        # a lone CR ends a line: write it as LF, so that emptying the line after it cannot
        # join it with a following LF into one CR LF break
        lone = carriage.copy()
        lone[:-1] &= chunk[1:] != _LF
        if lone.any():
            chunk = np.where(lone, np.uint8(_LF), chunk)
    blank = (chunk == _SPACE) | (chunk == _TAB) | (chunk == _VT) | (chunk == _FF)
    # one space per run of blanks
    keep = ~blank
    keep[1:] |= blank[1:] & ~blank[:-1]
    if len(chunk):
        keep[0] |= blank[0]
    squeezed = np.where(blank, np.uint8(_SPACE), chunk)[keep]
    # no space at the start or end of a line
    space = squeezed == _SPACE
    end_of_line = (squeezed == _LF) | (squeezed == _CR)
    edge = np.zeros(len(squeezed), dtype=bool)
    if len(squeezed):
        edge[0] = edge[-1] = True
        edge[1:] |= end_of_line[:-1]
        edge[:-1] |= end_of_line[1:]
    dropped = space & edge
    stripped = squeezed[~dropped]
    changed = len(squeezed) < len(chunk) or bool(dropped.any()) or bool(
        (blank & (chunk != _SPACE)).any())
    text, comments = _empty_comments(stripped)
    return text, comments, changed


def _empty_comments(text: np.ndarray) -> tuple[np.ndarray, int]:
    """``text`` with every line that starts with ``#`` emptied (its line break kept)."""
    hashes = np.flatnonzero(text == _HASH)
    if not len(hashes):
        return text, 0
    end_of_line = (text == _LF) | (text == _CR)
    at_start = hashes[(hashes == 0) | end_of_line[np.maximum(hashes - 1, 0)]]
    if not len(at_start):
        return text, 0
    breaks = np.flatnonzero(end_of_line)
    ends = np.append(breaks, len(text))[np.searchsorted(breaks, at_start)]
    inside = np.zeros(len(text) + 1, dtype=np.int64)
    np.add.at(inside, at_start, 1)
    np.add.at(inside, ends, -1)
    return text[np.cumsum(inside[:-1]) == 0], len(at_start)
