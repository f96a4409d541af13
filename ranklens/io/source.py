"""Turn what the caller handed us (a path, bytes, an upload) into readable bytes and a name.

Answers "where are the bytes, what are they called, were they gzip-compressed, are they within
the size limit". It does not look at the format (that is ``detect``).
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any, TypedDict

import pyarrow as pa

from ranklens.io.errors import InputError
from ranklens.io.limits import RAISE_HINT, check_rows, count_lines

Source = str | os.PathLike[str] | bytes | bytearray | memoryview | IO[bytes] | Any


class ReadOptions(TypedDict, total=False):
    """The keywords every file reader takes (``read_run``, ``read_qrels``, ``read_per_query``,
    ``read_segments``, ``read_queries``), each optional, declared once here:

    - ``name``: what messages and the summary call the input (default: the path, or the
      upload's name); a run's or judgements' name comes from it;
    - ``format``: read as this format instead of detecting it from the content (``"auto"``,
      the default; the reader's docstring lists its formats);
    - ``columns``: roles (``query_id``, ``doc_id``, ``score``, ...) -> column names, for a
      table whose columns the aliases do not find;
    - ``max_bytes``: refuse a file larger than this, stored or decompressed (default: none).
    """

    name: str | None
    format: str
    columns: Mapping[str, str] | None
    max_bytes: int | None


def read_options(options: ReadOptions, reader: str
                 ) -> tuple[str | None, str, Mapping[str, str] | None, int | None]:
    """``options`` as (name, format, columns, max_bytes), the defaults filled in; a keyword
    that is none of them is a ``TypeError`` naming ``reader``, as Python's own."""
    for key in options:
        if key not in ReadOptions.__optional_keys__:
            raise TypeError(f"{reader}() got an unexpected keyword argument {key!r}")
    return (options.get("name"), options.get("format", "auto"), options.get("columns"),
            options.get("max_bytes"))


HEAD_BYTES = 1 << 16
GZIP_MAGIC = b"\x1f\x8b"
PARQUET_MAGIC = b"PAR1"
_CHUNK = 1 << 24


@dataclass(frozen=True)
class Loaded:
    """Readable input: either a path on disk (read lazily, streamed) or bytes in memory."""

    name: str
    path: str | None
    data: pa.Buffer | None
    compressed: bool
    head: bytes
    size: int
    max_bytes: int | None = None
    """The reader's byte limit, which the table readers also apply to what the content expands
    to and turn into a row limit (``ranklens.io.limits``)."""

    def open(self) -> pa.NativeFile:
        """A fresh stream over the (decompressed) content."""
        if self.data is not None:
            return pa.BufferReader(self.data)
        assert self.path is not None
        return pa.OSFile(self.path, "rb")

    def read_all(self) -> pa.Buffer:
        """The whole (decompressed) content in memory."""
        if self.data is not None:
            return self.data
        with self.open() as stream:
            return stream.read_buffer()


_NAME_SUFFIXES = (".gz", ".trec", ".txt", ".run", ".csv", ".tsv", ".parquet", ".jsonl", ".json",
                  ".qrels")


def file_stem(name: str) -> str:
    """A run's name from its file name: no folders, no format or compression suffixes
    (``runs/bm25.trec.gz`` -> ``bm25``); the name itself when nothing would be left."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    for suffix in _NAME_SUFFIXES:
        base = base.removesuffix(suffix)
    return base or name


def display_name(source: Source, name: str | None) -> str:
    if name:
        return name
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    upload_name = getattr(source, "name", None)
    if isinstance(upload_name, str) and upload_name:
        return upload_name
    return "<upload>"


def load(source: Source, *, name: str | None = None, max_bytes: int | None = None) -> Loaded:
    """Open ``source`` and decompress it if it is gzip (by magic bytes, not by file name).

    ``max_bytes`` limits both the stored size and the decompressed size.
    """
    label = display_name(source, name)
    if isinstance(source, (str, os.PathLike)):
        return replace(_load_path(Path(source), label, max_bytes), max_bytes=max_bytes)
    if isinstance(source, (bytes, bytearray, memoryview)):
        raw = bytes(source)
    elif hasattr(source, "getvalue"):
        raw = bytes(source.getvalue())
    elif hasattr(source, "read"):
        raw = source.read()
        if isinstance(raw, str):
            raw = raw.encode("utf-8")
    else:
        raise InputError(label, f"cannot read a {type(source).__name__}",
                         hint="pass a file path, bytes or a binary file object")
    _check_size(label, len(raw), max_bytes)
    if raw[:2] == GZIP_MAGIC:
        data = _gunzip(raw, label, max_bytes)
        _check_lines(label, data, max_bytes)
        return Loaded(label, None, pa.py_buffer(data), True, data[:HEAD_BYTES], len(data),
                      max_bytes)
    _check_lines(label, raw, max_bytes)
    return Loaded(label, None, pa.py_buffer(raw), False, raw[:HEAD_BYTES], len(raw), max_bytes)


def _check_lines(label: str, data: bytes, max_bytes: int | None) -> None:
    """Text bounded by its lines before any reader parses it (``limits.check_rows``); Parquet
    (binary) is counted from its footer by the table reader instead."""
    if max_bytes is not None and data[:4] != PARQUET_MAGIC:
        check_rows(label, count_lines(data), max_bytes, counted="lines")


def _load_path(path: Path, label: str, max_bytes: int | None) -> Loaded:
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise InputError(label, "is a folder, not a file", hint="pick a file inside it")
        _check_size(label, size, max_bytes)
        with path.open("rb") as handle:
            head = handle.read(HEAD_BYTES)
            if head[:2] == GZIP_MAGIC:
                handle.seek(0)
                data = _gunzip(handle.read(), label, max_bytes)
                _check_lines(label, data, max_bytes)
                return Loaded(label, None, pa.py_buffer(data), True, data[:HEAD_BYTES], len(data))
            if max_bytes is not None and head[:4] != PARQUET_MAGIC:
                handle.seek(0)
                lines = sum(piece.count(b"\n") for piece in iter(lambda: handle.read(1 << 22), b""))
                check_rows(label, lines + (size > 0 and not _ends_with_newline(handle)),
                           max_bytes, counted="lines")
    except FileNotFoundError:
        raise InputError(label, "file not found", hint="check the path") from None
    except PermissionError:
        raise InputError(label, "permission denied", hint="check the file's permissions") from None
    except IsADirectoryError:
        raise InputError(label, "is a folder, not a file", hint="pick a file inside it") from None
    return Loaded(label, str(path), None, False, head, size)


def _check_size(label: str, size: int, max_bytes: int | None) -> None:
    if max_bytes is not None and size > max_bytes:
        raise InputError(
            label, f"is {size:,} bytes, over the limit of {max_bytes:,} bytes",
            hint=RAISE_HINT)


def _gunzip(raw: bytes, label: str, max_bytes: int | None) -> bytes:
    """Decompress every gzip member; a stream that stops before its end marker is an error."""
    out: list[bytes] = []
    total = 0
    rest = raw
    try:
        while rest:
            decompressor = zlib.decompressobj(wbits=31)
            pending = rest
            while True:
                chunk = decompressor.decompress(pending, _CHUNK)
                total += len(chunk)
                if max_bytes is not None and total > max_bytes:
                    raise InputError(
                        label, f"decompresses to more than the limit of {max_bytes:,} bytes",
                        hint=RAISE_HINT)
                out.append(chunk)
                pending = decompressor.unconsumed_tail
                if decompressor.eof or (not pending and not chunk):
                    break
            if not decompressor.eof:
                raise InputError(
                    label, "the gzip stream is truncated (it ends before its end marker)",
                    hint="the file was cut short: download or copy it again")
            rest = decompressor.unused_data.lstrip(b"\x00")
    except zlib.error as error:
        raise InputError(label, f"is not valid gzip data ({error})",
                         hint="check that the file was compressed with gzip and copied whole"
                         ) from None
    return b"".join(out)


def _ends_with_newline(handle: IO[bytes]) -> bool:
    handle.seek(-1, os.SEEK_END)
    return handle.read(1) == b"\n"
