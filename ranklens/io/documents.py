"""Document texts: ``read_documents`` indexes a collection once; ``lookup(ids)`` reads just those.

Formats, detected from the content (``format=`` overrides):

- ``tsv`` without a header: ``id<TAB>text`` (MS MARCO passages), ``id<TAB>title<TAB>text``,
  ``id<TAB>url<TAB>title<TAB>body`` (MS MARCO documents); no quoting (MS MARCO text holds
  bare quotes);
- ``jsonl``: BEIR ``corpus.jsonl`` (``_id``, ``title``, ``text``) or any JSON Lines;
- ``csv``/``tsv`` with a header, ``parquet``: columns by alias (``text_columns``) or
  ``columns={"doc_id": ..., "title": ..., "text": ...}``.

A collection can be gigabytes (MS MARCO passages: 8.8M, about 3 GB), so it is never held in
memory: one streaming pass (32 MiB at a time) keeps a 64-bit hash of each id and the offset of
its record (``doc_index``: 16 bytes a document), and a lookup reads only the records asked
for. Text records must be one line each (JSONL, TSV, CSV without line breaks inside quoted
values). gzip works by decompressor checkpoints (``doc_sources``); Parquet by row number, a
lookup reading the row groups that hold the rows (write big collections with row groups of
at most ~100k rows). An id that occurs twice keeps its first record; the others are counted
and set aside in the summary, with lines. It does not rank or score anything.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.json as pajson
import pyarrow.parquet as pq

from ranklens.io.build import BLOCK_SIZE, ids_unified
from ranklens.io.detect import BOM
from ranklens.io.doc_index import OffsetIndex, hash_ids
from ranklens.io.doc_sources import ByteSource, GzipFile, MemoryBytes, PlainFile
from ranklens.io.doc_text import (
    Document,
    DocumentLayout,
    detect_layout,
    locate_bad_line,
    parse_record,
    resolve_roles,
)
from ranklens.io.errors import InputError
from ranklens.io.locate import Locator, line_bounds
from ranklens.io.runs import as_input_errors
from ranklens.io.source import GZIP_MAGIC, Source, display_name, load
from ranklens.io.summary import ReadSummary, SetAside
from ranklens.io.tables import id_column

DOCUMENT_FORMATS = ("auto", "tsv", "csv", "jsonl", "parquet")
_RECORD_READ = 1 << 16
_HEAD = 1 << 16  # bytes the layout is detected from


class DocumentCollection:
    """An indexed documents file: ``lookup(ids)`` returns the documents of just those ids.

    ``summary`` accounts for the read (records, distinct documents, repeated ids set aside);
    ``index_seconds`` is the time of the one streaming pass and ``index_bytes`` the memory of
    the index it keeps.
    """

    def __init__(self, source: ByteSource | None, parquet: pq.ParquetFile | None,
                 layout: DocumentLayout, index: OffsetIndex, summary: ReadSummary,
                 seconds: float) -> None:
        self._source = source
        self._parquet = parquet
        self.layout = layout
        self._index = index
        self.summary = summary
        self.index_seconds = seconds

    def __len__(self) -> int:
        return self.summary.documents or 0

    @property
    def index_bytes(self) -> int:
        return self._index.nbytes

    def lookup(self, ids: Iterable[str]) -> dict[str, Document]:
        """The documents of ``ids`` that the collection holds, in the order asked; ids it
        does not hold are absent from the result."""
        wanted = list(dict.fromkeys(map(str, ids)))
        if not wanted:
            return {}
        candidates = self._index.candidates(wanted)
        if self._parquet is not None:
            found = self._parquet_records(wanted, candidates)
        else:
            found = self._text_records(wanted, candidates)
        return {doc: found[doc] for doc in wanted if doc in found}

    def _text_records(self, wanted: list[str], candidates: list[np.ndarray]
                      ) -> dict[str, Document]:
        assert self._source is not None
        found: dict[str, Document] = {}
        for doc, offsets in zip(wanted, candidates, strict=True):
            for offset in offsets.tolist():
                record = parse_record(self.layout, self._line_at(offset))
                if record is not None and record.id == doc:
                    found[doc] = record
                    break
        return found

    def _line_at(self, offset: int) -> bytes:
        assert self._source is not None
        size = _RECORD_READ
        while True:
            data = self._source.read(offset, offset + size)
            end = data.find(b"\n")
            if end >= 0 or len(data) < size:
                return data[:end] if end >= 0 else data
            size *= 4

    def _parquet_records(self, wanted: list[str], candidates: list[np.ndarray]
                         ) -> dict[str, Document]:
        assert self._parquet is not None
        metadata = self._parquet.metadata
        bounds = np.cumsum([0] + [metadata.row_group(k).num_rows
                                  for k in range(metadata.num_row_groups)])
        rows = sorted({row for offsets in candidates for row in offsets.tolist()})
        by_group: dict[int, list[int]] = {}
        for row in rows:
            by_group.setdefault(int(np.searchsorted(bounds, row, side="right") - 1), []).append(row)
        names = self.layout.columns
        records: dict[int, Document] = {}
        for group, group_rows in by_group.items():
            table = self._parquet.read_row_group(group, columns=list(names.values()))
            local = pa.array([row - int(bounds[group]) for row in group_rows], pa.int64())
            picked = table.take(local).to_pylist()
            for row, values in zip(group_rows, picked, strict=True):
                records[row] = Document(*(_text(values.get(names.get(role, ""))) for role in
                                          ("doc_id", "title", "text", "url")))
        found: dict[str, Document] = {}
        for doc, offsets in zip(wanted, candidates, strict=True):
            for row in offsets.tolist():
                if records[row].id == doc:
                    found[doc] = records[row]
                    break
        return found


def _text(value: object) -> str:
    return "" if value is None else " ".join(str(value).split())


def read_documents(
    source: Source,
    *,
    name: str | None = None,
    format: str = "auto",
    columns: Mapping[str, str] | None = None,
) -> DocumentCollection:
    """Index a documents file (path, bytes or upload) in one streaming pass.

    A path is streamed (plain, gzip or Parquet: never held whole); bytes and uploads are
    already in memory. Raises ``InputError`` naming the file, the line and the fix for a
    file it cannot index whole.
    """
    label = display_name(source, name)
    if format not in DOCUMENT_FORMATS:
        raise InputError(label, f"unknown documents format {format!r}",
                         hint=f"use one of {', '.join(DOCUMENT_FORMATS)}")
    with as_input_errors(label):
        started = time.perf_counter()
        byte_source, parquet = _open(source, label, format)
        if parquet is not None:
            layout, index, rows, lines = _index_parquet(label, parquet, columns)
        else:
            assert byte_source is not None
            layout, index, rows, lines = _index_lines(byte_source, format, columns)
        repeated = index.repeated()
        set_aside: tuple[SetAside, ...] = ()
        if len(repeated):
            set_aside = (SetAside("document id repeated; the first record is kept",
                                  len(repeated), tuple(lines(repeated[:3]))),)
        seconds = time.perf_counter() - started
        summary = ReadSummary(
            label, layout.format, rows - len(repeated), 0, rows - len(repeated),
            compressed=byte_source.compressed if byte_source else False,
            columns=layout.columns, set_aside=set_aside, notes=tuple(layout.notes))
        return DocumentCollection(byte_source, parquet, layout, index, summary, seconds)


def _open(source: Source, label: str, format: str
          ) -> tuple[ByteSource | None, pq.ParquetFile | None]:
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if os.path.isdir(path):
            raise InputError(label, "is a folder, not a file", hint="pick a file inside it")
        try:
            with open(path, "rb") as handle:
                magic = handle.read(4)
        except FileNotFoundError:
            raise InputError(label, "file not found", hint="check the path") from None
        if magic == b"PAR1" or format == "parquet":
            return None, _parquet_file(label, path)
        if magic[:2] == GZIP_MAGIC:
            return GzipFile(path, label), None
        if not magic:
            raise InputError(label, "is empty (0 bytes)", hint="choose a file with data in it")
        return PlainFile(path, label), None
    loaded = load(source, name=label)
    assert loaded.data is not None
    if loaded.head.startswith(b"PAR1") or format == "parquet":
        return None, _parquet_file(label, pa.BufferReader(loaded.data))
    if loaded.size == 0:
        raise InputError(label, "is empty (0 bytes)", hint="choose a file with data in it")
    memory = MemoryBytes(memoryview(loaded.data), label)
    memory.compressed = loaded.compressed
    return memory, None


def _parquet_file(label: str, where: object) -> pq.ParquetFile:
    try:
        return pq.ParquetFile(where)
    except (pa.ArrowInvalid, pa.ArrowException, OSError) as error:
        raise InputError(label, f"is not a readable Parquet file ({error})",
                         hint="the file may be truncated: write it again") from None


def _index_parquet(label: str, parquet: pq.ParquetFile, columns: Mapping[str, str] | None
                   ) -> tuple[DocumentLayout, OffsetIndex, int, Callable[[np.ndarray], list[int]]]:
    names = resolve_roles(label, list(parquet.schema_arrow.names), columns)
    hashes, offsets = [], []
    row = 0
    for group in range(parquet.metadata.num_row_groups):
        ids = parquet.read_row_group(group, columns=[names["doc_id"]]).column(0)
        values = _id_values(label, ids, row)
        hashes.append(hash_ids(values))
        offsets.append(np.arange(row, row + len(values), dtype=np.int64))
        row += len(values)
    if row == 0:
        raise InputError(label, "has no rows", hint="choose a file with data in it")
    layout = DocumentLayout("parquet", dict(names), None, ())
    return layout, OffsetIndex.build(hashes, offsets), row, \
        lambda rows: [int(r) + 1 for r in rows]


class _RowsFrom(Locator):
    """Row numbers of a row group that starts at row ``first`` (0-based) of the file."""

    def __init__(self, first: int) -> None:
        self._first = first

    def __call__(self, rows: np.ndarray | list[int]) -> list[int]:
        return [self._first + int(row) + 1 for row in np.asarray(rows).ravel()]


class _LinesOf(Locator):
    """Lines of the records of a block: record ``i`` is on line ``before + records[i] + 1``."""

    unit = "line"

    def __init__(self, records: np.ndarray, lines_before: int) -> None:
        self._records = records
        self._before = lines_before

    def __call__(self, rows: np.ndarray | list[int]) -> list[int]:
        return [self._before + int(self._records[int(r)]) + 1 for r in np.asarray(rows).ravel()]


def _id_values(label: str, column: pa.ChunkedArray, first_row: int) -> pa.Array:
    text = id_column(label, column, "document id", _RowsFrom(first_row))
    ids = ids_unified(text)
    return ids.values.take(pa.array(ids.codes))


def _index_lines(source: ByteSource, format: str, columns: Mapping[str, str] | None
                 ) -> tuple[DocumentLayout, OffsetIndex, int, Callable[[np.ndarray], list[int]]]:
    """One pass over one-line records: hash each id, keep its record's offset."""
    hashes: list[np.ndarray] = []
    offsets: list[np.ndarray] = []
    block_lines: list[tuple[int, int]] = []  # (content offset, lines before it) per block
    layout: DocumentLayout | None = None
    lines_before = 0
    rows = 0
    for block_at, block in _line_blocks(source):
        if layout is None:
            layout = detect_layout(source.name, bytes(block[:_HEAD]), format, columns)
        block_lines.append((block_at, lines_before))
        skip = layout.header_line if block_at == 0 else 0
        ids, starts, line_count = _block_ids(source.name, layout, block, lines_before, skip)
        hashes.append(hash_ids(ids))
        offsets.append(block_at + starts)
        rows += len(starts)
        lines_before += line_count
    if layout is None or rows == 0:
        raise InputError(source.name, "has no document record",
                         hint="choose a file with data in it")

    def lines(found: np.ndarray) -> list[int]:
        numbers = []
        for offset in found.tolist():
            k = max(i for i, (at, _) in enumerate(block_lines) if at <= offset)
            at, before = block_lines[k]
            numbers.append(before + source.read(at, offset).count(b"\n") + 1)
        return numbers

    return layout, OffsetIndex.build(hashes, offsets), rows, lines


def _line_blocks(source: ByteSource) -> Iterator[tuple[int, bytes | memoryview]]:
    """(offset, bytes) of consecutive pieces of the content that end at a line break (the
    last one may not), without copying the big chunks: a line cut by a chunk's end goes into
    a small bridge piece."""
    carry, carry_at = b"", 0
    for offset, data in source.chunks():
        view = memoryview(data)
        start = 0
        if carry:
            first = data.find(b"\n")
            if first < 0:
                carry += data
                continue
            yield carry_at, carry + data[:first + 1]
            start = first + 1
        last = data.rfind(b"\n") + 1
        if last > start:
            yield offset + start, view[start:last]
            carry, carry_at = bytes(view[last:]), offset + last
        else:
            carry, carry_at = bytes(view[start:]), offset + start
    if carry:
        yield carry_at, carry


def _block_ids(name: str, layout: DocumentLayout, block: bytes | memoryview, lines_before: int,
               skip: int) -> tuple[pa.Array, np.ndarray, int]:
    """The id and the start offset (within ``block``) of every record line of ``block``, and
    the number of lines in it."""
    data = np.frombuffer(block, dtype=np.uint8)
    starts, ends = line_bounds(data)
    if lines_before == 0 and bytes(block[:len(BOM)]) == BOM:
        starts = starts.copy()
        starts[0] = min(len(BOM), int(ends[0]))
    records = np.flatnonzero(ends > starts)
    records = records[records >= skip]
    body = block[int(starts[records[0]]):] if len(records) else b""
    try:
        ids = _parse_ids(layout, body)
    except (pa.ArrowInvalid, pa.ArrowTypeError) as error:
        raise locate_bad_line(name, layout, bytes(block), lines_before, skip, error) from None
    if len(ids) != len(records):
        raise locate_bad_line(name, layout, bytes(block), lines_before, skip, None)
    text = id_column(name, pa.chunked_array([ids]) if isinstance(ids, pa.Array) else ids,
                     "document id", _LinesOf(records, lines_before))
    values = pa.concat_arrays(text.chunks) if isinstance(text, pa.ChunkedArray) else text
    if pa.types.is_dictionary(values.type):
        values = values.dictionary_decode()
    return values, starts[records].astype(np.int64), len(starts)


def _parse_ids(layout: DocumentLayout, body: bytes | memoryview) -> pa.Array:
    if not body:
        return pa.array([], pa.string())
    key = layout.columns["doc_id"]
    if layout.format == "jsonl":
        schema = pa.schema([(key, layout.id_type or pa.string())])
        options = pajson.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore",
                                      newlines_in_values=False)
        table = pajson.read_json(pa.BufferReader(pa.py_buffer(body)), parse_options=options,
                                 read_options=pajson.ReadOptions(
                                     block_size=max(BLOCK_SIZE, 1 << 24)))
        return table.column(0).combine_chunks()
    assert layout.header is not None
    table = pacsv.read_csv(
        pa.BufferReader(pa.py_buffer(body)),
        read_options=pacsv.ReadOptions(column_names=list(layout.header),
                                       block_size=max(BLOCK_SIZE, 1 << 24)),
        parse_options=pacsv.ParseOptions(delimiter=layout.delimiter or "\t",
                                          quote_char=layout.quote or False,
                                          newlines_in_values=False),
        convert_options=pacsv.ConvertOptions(include_columns=[key],
                                             column_types={key: pa.string()},
                                             strings_can_be_null=False))
    return table.column(0).combine_chunks()


__all__ = ["DOCUMENT_FORMATS", "Document", "DocumentCollection", "read_documents"]
