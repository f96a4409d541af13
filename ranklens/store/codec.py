"""Compression of stored inputs.

zlib level 1 by default: on a synthetic 75 MB TREC run (``bench/store_compression.py``) it
stored 3.0x smaller at ~137 MB/s, against 3.24x at ~30 MB/s for level 6 and 4.9x at ~1 MB/s
for lzma preset 6 — a 250 MB run would take seconds, not minutes, to share. Each blob records
its codec, so the level (or codec) can change later without rewriting old reports.
"""

from __future__ import annotations

import zlib

ZLIB = "zlib"
RAW = "raw"
DEFAULT_ZLIB_LEVEL = 1


def compress(data: bytes, level: int = DEFAULT_ZLIB_LEVEL) -> tuple[str, bytes]:
    """``(codec, stored bytes)`` for ``data``; stored raw when compressing would not shrink it."""
    packed = zlib.compress(data, level)
    if len(packed) >= len(data):
        return RAW, data
    return ZLIB, packed


def decompress(codec: str, stored: bytes) -> bytes:
    """The original bytes of a blob stored with ``codec``; ``ValueError`` for an unknown codec
    or bytes that are not a stream of it (zlib's own error, carried as the cause)."""
    if codec == ZLIB:
        try:
            return zlib.decompress(stored)
        except zlib.error as exc:
            raise ValueError(str(exc)) from exc
    if codec == RAW:
        return stored
    raise ValueError(f"unknown codec {codec!r}")
