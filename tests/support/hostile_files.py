"""Files built to hurt a reader: a gzip bomb, a Parquet file with a hundred thousand columns.

Shared by the reader's tests (``tests/io``) and the upload tests (``tests/app``), which must
refuse the same files with the same words.
"""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
"""A gzip member's header (RFC 1952): deflate, no name or time, best compression, any OS."""


def gzip_bomb(decompressed: int, line: bytes = b"q1 Q0 d1 1 1.0 run\n") -> bytes:
    """A gzip stream of ``line`` repeated to ``decompressed`` bytes (whole blocks of about a
    megabyte: one repeated line), with its CRC-32 and size.

    Each block is compressed once and its deflate bytes repeated: a full flush after it
    resets the compressor, so every copy decodes alone to the same block. Building 1.5 GB
    takes a tenth of a second instead of compressing 1.5 GB (some 5 s)."""
    block = line * (1_000_000 // len(line))
    count = decompressed // len(block)
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate: the gzip frame is ours
    piece = packer.compress(block) + packer.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(count):
        crc = zlib.crc32(block, crc)
    size = (len(block) * count) & 0xFFFFFFFF  # ISIZE: the size modulo 2^32
    return b"".join([GZIP_HEADER, piece * count, packer.flush(), struct.pack("<II", crc, size)])


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


def parquet_bomb(rows: int, row_group_rows: int = 1_000_000) -> bytes:
    """A run of ``rows`` copies of one (query, document, score) row: dictionary-encoded, zstd,
    so 60M rows fit in well under a megabyte (issue #52). Written one row group at a time
    (one ``row_group_rows`` group in memory, never the whole table)."""
    sink = io.BytesIO()
    schema = pa.schema([("query_id", pa.dictionary(pa.int32(), pa.string())),
                        ("doc_id", pa.dictionary(pa.int32(), pa.string())),
                        ("score", pa.float64())])
    with pq.ParquetWriter(sink, schema, compression="zstd", use_dictionary=True,
                          write_statistics=False) as writer:
        done = 0
        while done < rows:
            n = min(row_group_rows, rows - done)
            zeros = pa.array(np.zeros(n, dtype="int32"))
            group = pa.Table.from_arrays(
                [pa.DictionaryArray.from_arrays(zeros, pa.array(["q1"])),
                 pa.DictionaryArray.from_arrays(zeros, pa.array(["d1"])),
                 pa.array(np.ones(n))], schema=schema)
            writer.write_table(group, row_group_size=row_group_rows)
            done += n
    return sink.getvalue()
