"""How big an input may get once read: the byte limit's companion row limit, and what an input
expands to before it is read.

Every format has a row limit beside the byte limit ``max_bytes`` (the reader's keyword; in
the app, Streamlit's ``server.maxUploadSize``): ``max_bytes // TEXT_ROW_BYTES`` rows of text,
``max_bytes // PARQUET_ROW_BYTES`` rows of Parquet, ``max_bytes // NESTED_JSON_ROW_BYTES``
pairs of a nested JSON object.
Text is counted by its lines before it is parsed (``source.load``), a nested JSON object by
its key-value separators, Parquet by its footer: a 600 kB Parquet file of 60M
dictionary-encoded rows is refused before a column is read.

`check_rows` and `check_expanded` raise the `InputError` naming the file, the limit and how to
raise it; `expanded_size` answers what an input weighs for the app's one-big-input-at-a-time
rule (gzip: the bytes it decompresses to; Parquet: from its metadata). Nothing here reads rows.
"""

from __future__ import annotations

import io
import zlib
from typing import TYPE_CHECKING

import pyarrow as pa

from ranklens.io.errors import InputError

if TYPE_CHECKING:
    import pyarrow.parquet as pq

TEXT_ROW_BYTES = 8
"""Bytes of the limit per row of text: the shortest line a table can have (``1 0 1 1`` and
its line break), so only a file padded with empty lines meets this limit before its byte
limit; counted before parsing, it keeps even that from being parsed."""
PARQUET_ROW_BYTES = 24
"""Bytes of the limit per Parquet row, which has no line to measure: a short TREC run line
(``q1 Q0 d1234 1 12.5 r``). A 300 MB limit admits 13M Parquet rows, about twice the 7M-row
runs ranklens is measured on; reading 13M rows peaked at 1.24 GB, about what the largest
text file allowed costs."""
NESTED_JSON_ROW_BYTES = 64
"""Bytes of the limit per key-value pair of a nested JSON object (``{query: {doc: score}}``):
Python's parser holds each pair as objects of some 150 bytes, 15 times its text, so a 300 MB
limit admits 4.9M pairs (about 750 MB while parsing); larger runs belong in TREC or Parquet."""
RAISE_HINT = ("split the file, or raise the limit: max_bytes= in Python, "
              "--server.maxUploadSize (MB) for ranklens app")
_GZIP_MAGIC = b"\x1f\x8b"
_PARQUET_MAGIC = b"PAR1"
_CHUNK = 1 << 22
_PIECE = 1 << 16


def row_limit(max_bytes: int | None, *, per_row: int = TEXT_ROW_BYTES) -> int | None:
    """Most rows an input under ``max_bytes`` may hold, ``per_row`` bytes of the limit per row
    (None: no limit)."""
    return None if max_bytes is None else max(1, max_bytes // per_row)


def check_rows(name: str, rows: int, max_bytes: int | None, *, counted: str = "",
               per_row: int = TEXT_ROW_BYTES) -> None:
    """Refuse ``rows`` over `row_limit` with an `InputError` naming the file, the limit and how
    to raise it; ``counted`` says how ``rows`` was counted before reading ("lines",
    "key-value separators"), when it is a bound rather than the rows themselves."""
    limit = row_limit(max_bytes, per_row=per_row)
    if limit is None or rows <= limit:
        return
    assert max_bytes is not None
    count = f"{rows:,} {counted}" if counted else f"{rows:,} rows"
    raise InputError(
        name, f"has {count}, over the limit of {limit:,} rows (one row per {per_row} "
        f"bytes of the {max_bytes:,}-byte limit)", hint=RAISE_HINT)


def check_expanded(name: str, size: int, max_bytes: int | None, *, what: str) -> None:
    """Refuse an input whose ``what`` (say, "Parquet columns") expand to ``size`` bytes over
    ``max_bytes``, with an `InputError` naming the file, the limit and how to raise it."""
    if max_bytes is not None and size > max_bytes:
        raise InputError(
            name, f"{what} expand to {size:,} bytes, over the limit of {max_bytes:,} bytes",
            hint=RAISE_HINT)


def count_lines(data: pa.Buffer | bytes | memoryview) -> int:
    """Lines of ``data`` (line breaks, plus one for a last line without one): an upper bound on
    the rows of a text table, counted without parsing."""
    view = memoryview(data)
    if len(view) == 0:
        return 0
    breaks = sum(bytes(view[i:i + _CHUNK]).count(b"\n") for i in range(0, len(view), _CHUNK))
    return breaks + (view[-1] != ord("\n"))


def parquet_rows_and_bytes(parquet: pq.ParquetFile,
                           columns: list[str] | None = None) -> tuple[int, int]:
    """(rows, bytes) a Parquet file's ``columns`` (all when None) become once read, from its
    footer alone: per column chunk, the larger of its uncompressed size and its values times
    their least width in memory (8 bytes a float, a 4-byte offset plus a byte a string).
    Dictionary and run-length encoding make the first tiny; the second is what reading them
    materialises anyway. A lower bound: nothing is read but the footer."""
    metadata = parquet.metadata
    schema = parquet.schema_arrow
    wanted = set(schema.names if columns is None else columns)
    widths = {name: _least_width(schema.field(name).type) for name in wanted
              if name in schema.names}
    total = 0
    for group in range(metadata.num_row_groups):
        row_group = metadata.row_group(group)
        for index in range(row_group.num_columns):
            chunk = row_group.column(index)
            top = chunk.path_in_schema.split(".")[0]
            if top in widths:
                total += max(chunk.total_uncompressed_size,
                             row_group.num_rows * widths[top])
    return metadata.num_rows, total


def _least_width(kind: pa.DataType) -> int:
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    if pa.types.is_string(kind) or pa.types.is_binary(kind):
        return 5
    if pa.types.is_large_string(kind) or pa.types.is_large_binary(kind):
        return 9
    try:
        return max(1, kind.bit_width // 8)
    except ValueError:  # nested and other variable-width types
        return 1


def expanded_size(data: bytes | memoryview, max_bytes: int | None = None) -> int:
    """What an input weighs once read, for the one-big-input-at-a-time rule: gzip by the bytes
    it decompresses to (counted piece by piece, nothing kept, stopping past ``max_bytes``);
    Parquet by `parquet_rows_and_bytes` (or its rows times `PARQUET_ROW_BYTES`,
    when larger); anything else by its size. Never less than the stored size; a file that
    cannot be read weighs its stored size (the reader names the problem)."""
    stored = len(data)
    head = bytes(data[:4])
    if head[:2] == _GZIP_MAGIC:
        return max(stored, _gunzipped_size(data, max_bytes))
    if head == _PARQUET_MAGIC:
        import pyarrow.parquet as pq  # the footer reader, only for Parquet

        try:
            rows, expanded = parquet_rows_and_bytes(pq.ParquetFile(io.BytesIO(data)))
        except (pa.ArrowException, OSError, ValueError):
            return stored
        return max(stored, expanded, rows * PARQUET_ROW_BYTES)
    return stored


def _gunzipped_size(data: bytes | memoryview, max_bytes: int | None) -> int:
    """Bytes every gzip member of ``data`` decompresses to, stopping past ``max_bytes``."""
    return _gunzip_scan(data, max_bytes)[0]


def _gunzip_scan(data: bytes | memoryview, max_bytes: int | None) -> tuple[int, int]:
    """(bytes, line breaks) every gzip member of ``data`` decompresses to, stopping past
    ``max_bytes``; the counts so far at the first damaged byte. The input is fed in 64 kB
    pieces (no copy of the whole file), each piece's output drained in `_CHUNK` steps and
    dropped."""
    view = memoryview(data)
    total = lines = 0
    decompressor = zlib.decompressobj(wbits=31)
    try:
        for start in range(0, len(view), _PIECE):
            pending: bytes | memoryview = view[start:start + _PIECE]
            while pending:
                out = decompressor.decompress(pending, _CHUNK)
                total += len(out)
                lines += out.count(b"\n")
                if max_bytes is not None and total > max_bytes:
                    return total, lines
                if decompressor.eof:  # the next member, if any, starts in what is left
                    pending = decompressor.unused_data.lstrip(b"\x00")
                    decompressor = zlib.decompressobj(wbits=31)
                    continue
                pending = decompressor.unconsumed_tail
                if not out and not pending:
                    break
    except zlib.error:
        pass
    return total, lines


def check_upload(name: str, data: bytes | memoryview, max_bytes: int | None) -> None:
    """Refuse, before any reader sees it, an upload that is over ``max_bytes`` stored or
    decompressed (gzip, counted without keeping the output), or holds more rows than the
    limit allows (text by its lines, Parquet from its footer). For readers that take no
    ``max_bytes`` of their own (query texts, documents collections); it does not check the
    format (the reader does), and a file it cannot make sense of passes to the reader."""
    if max_bytes is None:
        return
    if len(data) > max_bytes:
        raise InputError(name, f"is {len(data):,} bytes, over the limit of {max_bytes:,} "
                         "bytes", hint=RAISE_HINT)
    head = bytes(data[:4])
    if head[:2] == _GZIP_MAGIC:
        size, lines = _gunzip_scan(data, max_bytes)
        if size > max_bytes:
            raise InputError(name, f"decompresses to more than the limit of {max_bytes:,} "
                             "bytes", hint=RAISE_HINT)
        check_rows(name, lines, max_bytes, counted="lines")
    elif head == _PARQUET_MAGIC:
        import pyarrow.parquet as pq

        try:
            rows = pq.ParquetFile(io.BytesIO(data)).metadata.num_rows
        except (pa.ArrowException, OSError, ValueError):
            return
        check_rows(name, rows, max_bytes, per_row=PARQUET_ROW_BYTES)
    else:
        check_rows(name, count_lines(data), max_bytes, counted="lines")
