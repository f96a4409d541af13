"""Files built to hurt a reader: a gzip bomb, a Parquet file with a hundred thousand columns.

Shared by the reader's tests (``tests/io``) and the upload tests (``tests/app``), which must
refuse the same files with the same words.
"""

from __future__ import annotations

import io
import zlib

import numpy as np
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
