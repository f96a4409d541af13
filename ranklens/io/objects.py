"""Python objects as input files: what ``ranklens.compare_runs`` and ``ranklens.evaluate`` take.

``input_file(given, role, name)`` answers "this run, qrels or table as the one input-file type":
a path is read, an ``InputFile`` is relabelled, a pandas or polars DataFrame or a pyarrow Table
becomes Parquet bytes (its columns found by the readers' aliases, so PyTerrier's ``qid, docno,
score`` frame reads as it is), a ``{query: {doc: score}}`` dict (pytrec_eval, ranx) becomes the
JSON a file of that shape holds. The readers then check these bytes as they check a file, so
a bad object gets the same ``InputError`` as a bad file, naming the object by ``name``.

It does not parse anything itself, and imports pandas, polars or pyarrow's Parquet writer only
for an object of theirs.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ranklens.io.errors import InputError
from ranklens.io.input_file import InputFile

ACCEPTED = ("a path, an InputFile, a pandas or polars DataFrame, a pyarrow Table, or a "
            "{query: {doc: score}} dict")


def input_file(given: Any, role: str, name: str | None = None) -> InputFile:
    """``given`` as an ``InputFile`` of ``role``, named ``name`` in messages and reports
    (default: the file's name, or ``role`` for an object). ``InputError`` for anything else."""
    if isinstance(given, InputFile):
        if given.role == role and (name is None or name == given.name):
            return given
        digest = given.__dict__.get("sha256")
        label = name or given.name
        return InputFile(role, label, given.data) if digest is None else \
            InputFile.with_digest(role, label, given.data, digest)
    if isinstance(given, (str, os.PathLike)):
        return InputFile.from_path(role, Path(os.fspath(given)), name)
    label = name or role
    if isinstance(given, (bytes, bytearray, memoryview)):
        return InputFile(role, label, bytes(given))
    if isinstance(given, Mapping):
        return InputFile(role, label, _nested_json(given, label))
    table = _arrow_table(given, label)
    if table is not None:
        return InputFile(role, label, _parquet_bytes(table))
    raise InputError(label, f"is a {type(given).__module__}.{type(given).__qualname__}, which "
                     "ranklens cannot read", hint=f"give {ACCEPTED}")


def _nested_json(given: Mapping[Any, Any], label: str) -> bytes:
    """The dict as the JSON text of a ranx/BEIR file (checked by the reader afterwards)."""
    try:
        return json.dumps(given, default=_plain, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError) as error:
        raise InputError(label, f"cannot be written as {{query: {{doc: value}}}} ({error})",
                         hint="keys are query and document ids (text), values numbers"
                         ) from None


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):  # a numpy number
        return value.item()
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"a {type(value).__name__} ({str(value)[:40]!r}) is not a number")


def _arrow_table(given: Any, label: str) -> Any:
    """A pyarrow Table for a pandas/polars DataFrame or a pyarrow Table; None for others."""
    module = type(given).__module__.split(".", 1)[0]
    try:
        if module == "pyarrow":
            import pyarrow as pa

            if isinstance(given, pa.RecordBatch):
                return pa.Table.from_batches([given])
            return given if isinstance(given, pa.Table) else None
        if module == "pandas":
            import pandas as pd
            import pyarrow as pa

            if not isinstance(given, pd.DataFrame):
                return None
            # a named index (qid after a groupby) is a column; an unnamed one is row numbers
            named = any(level is not None for level in given.index.names)
            return pa.Table.from_pandas(given, preserve_index=named)
        if module == "polars" and hasattr(given, "to_arrow"):
            return given.to_arrow()
    except Exception as error:  # pyarrow's conversion errors have no common base
        raise InputError(label, f"could not be turned into a table ({type(error).__name__}: "
                         f"{error})", hint="give each column one type (ids as text or whole "
                         "numbers, scores and grades as numbers)") from None
    return None


def _parquet_bytes(table: Any) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="none")
    return bytes(sink.getvalue())
