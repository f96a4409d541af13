"""Files built to hurt a reader: a gzip bomb, a Parquet file with a hundred thousand columns.

Shared by the reader's tests (``tests/io``) and the upload tests (``tests/app``), which must
refuse the same files with the same words.
"""

from __future__ import annotations

import io
import zlib

import pyarrow as pa
import pyarrow.parquet as pq


def gzip_bomb(decompressed: int, line: bytes = b"q1 Q0 d1 1 1.0 run\n") -> bytes:
    """A gzip stream of ``line`` repeated to ``decompressed`` bytes (one repeated line)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = line * (1_000_000 // len(line))
    parts = [packer.compress(block) for _ in range(decompressed // len(block))]
    return b"".join([*parts, packer.flush()])


def parquet_bytes(table: pa.Table, **options: object) -> bytes:
    """``table`` as the bytes of a Parquet file (``options`` go to ``pq.write_table``)."""
    sink = io.BytesIO()
    pq.write_table(table, sink, **options)
    return sink.getvalue()


def wide_parquet(n_extra_columns: int = 100_000) -> bytes:
    """A one-row run (query_id, doc_id, score) with ``n_extra_columns`` more float columns.

    Written without statistics, dictionaries or compression: the width is the point, and
    that way building it takes about half the time (some 3 s instead of 5 for 100,000).
    """
    one = pa.array([1.0])
    names = ["query_id", "doc_id", "score", *(f"c{i}" for i in range(n_extra_columns))]
    table = pa.Table.from_arrays([pa.array(["q1"]), pa.array(["d1"]), one,
                                  *([one] * n_extra_columns)], names=names)
    return parquet_bytes(table, compression="none", write_statistics=False,
                         use_dictionary=False)
