"""Byte ranges of a big TREC run file that each hold whole queries, for reading it in pieces.

Answers "where can this file be cut so that no query's lines fall in two pieces, if its
lines are grouped by query?". It reads a few KiB at each cut, not the file. It does not prove
that the file is grouped by query (a query may come back in a later piece): whoever scores
the pieces checks that the pieces' queries are disjoint and reads the whole file otherwise.
"""

from __future__ import annotations

import os
from itertools import pairwise
from typing import BinaryIO

PIECE_BYTES = 32 << 20  # about 0.9M rows of the bench's runs (36 bytes a line)
_PROBE = 1 << 16
_GZIP = b"\x1f\x8b"


def query_pieces(path: str | os.PathLike[str], *,
                 piece_bytes: int | None = None) -> list[tuple[int, int]] | None:
    """``(start, stop)`` byte ranges covering the file, cut at lines where the first field
    (the query id) changes, about ``piece_bytes`` each.

    ``None`` when the file is better read whole: shorter than two pieces, compressed, with
    line ends other than LF, or with a query id that comes back after another one within its
    first 64 KiB (a file not grouped by query: cutting it would only cost a second read).
    ``piece_bytes`` of ``None`` is ``PIECE_BYTES``.
    """
    if piece_bytes is None:
        piece_bytes = PIECE_BYTES
    size = os.path.getsize(path)
    if piece_bytes <= 0 or size < 2 * piece_bytes:
        return None
    with open(path, "rb") as stream:
        head = stream.read(_PROBE)
        if head.startswith(_GZIP) or b"\r" in head or not _grouped(head):
            return None
        cuts = [0]
        for target in range(piece_bytes, size, piece_bytes):
            if target <= cuts[-1]:
                continue
            cut = _next_query_start(stream, target, size)
            if cut is None:
                break
            if cut > cuts[-1]:
                cuts.append(cut)
    cuts.append(size)
    pieces = [(start, stop) for start, stop in pairwise(cuts) if stop > start]
    return pieces if len(pieces) > 1 else None


def read_piece(path: str | os.PathLike[str], piece: tuple[int, int]) -> bytes:
    """The bytes of one piece."""
    start, stop = piece
    with open(path, "rb") as stream:
        stream.seek(start)
        return stream.read(stop - start)


def _grouped(head: bytes) -> bool:
    """Whether the whole lines of ``head`` keep each query's lines together."""
    seen: set[bytes] = set()
    previous = None
    for line in head.split(b"\n")[:-1]:
        fields = line.split(None, 1)
        if not fields or fields[0].startswith(b"#"):
            continue
        query = fields[0]
        if query != previous:
            if query in seen:
                return False
            seen.add(query)
            previous = query
    return True


def _next_query_start(stream: BinaryIO, target: int, size: int) -> int | None:
    """The offset of the first line at or after ``target``'s next line start whose query id
    differs from the line before it; ``None`` at the end of the file."""
    stream.seek(target)
    buffer = b""
    position = target
    previous: bytes | None = None
    started = False
    while True:
        chunk = stream.read(_PROBE)
        if not chunk:
            return None
        buffer += chunk
        while True:
            end = buffer.find(b"\n")
            if end < 0:
                break
            line, buffer = buffer[:end], buffer[end + 1:]
            line_start, position = position, position + end + 1
            if not started:  # the rest of the line ``target`` falls in
                started = True
                continue
            fields = line.split(None, 1)
            if not fields or fields[0].startswith(b"#"):
                continue
            if previous is not None and fields[0] != previous:
                return line_start
            previous = fields[0]
        if position >= size:
            return None
