"""numpy <-> arrow without detours: ``pa.array(ndarray)``, ``fill_null`` and boolean
``to_numpy`` import pandas on first use (about a second), which a 7M-row evaluation should not
pay; so does ``pa.array`` of a list of strings (``texts``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


def arrow_indices(values: np.ndarray) -> pa.Array:
    """Zero-copy arrow view of an int32/int64 numpy array."""
    values = np.ascontiguousarray(values)
    kind = {4: pa.int32(), 8: pa.int64()}[values.dtype.itemsize]
    return pa.Array.from_buffers(kind, len(values), [None, pa.py_buffer(values)])


def texts(strings: Sequence[str], type: pa.DataType | None = None) -> pa.Array:
    """A large_string (or ``type``: string) array of ``strings`` (``pa.array`` of a list
    imports pandas)."""
    kind = pa.large_string() if type is None else type
    encoded = [s.encode() for s in strings]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64 if kind == pa.large_string()
                       else np.int32)
    np.cumsum([len(b) for b in encoded], out=offsets[1:])
    return pa.Array.from_buffers(kind, len(encoded), [
        None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])


def take(values: pa.Array, indices: np.ndarray) -> pa.Array:
    """``values[indices]`` for integer numpy ``indices``."""
    return values.take(arrow_indices(indices))


def codes_in(values: pa.Array, dictionary: pa.Array) -> np.ndarray:
    """Position of each of ``values`` in ``dictionary`` (int64, -1 when absent)."""
    found = pc.index_in(values, value_set=dictionary)
    validity, data = found.buffers()
    start, stop = found.offset, found.offset + len(found)
    codes = np.frombuffer(data, dtype=np.int32, count=stop)[start:].astype(np.int64)
    if found.null_count:
        bits = np.unpackbits(np.frombuffer(validity, dtype=np.uint8), bitorder="little")
        codes[bits[start:stop] == 0] = -1
    return codes


def integers(values: pa.Array) -> np.ndarray:
    """A null-free integer arrow array as numpy (a view of its buffer)."""
    dtype = np.dtype(values.type.to_pandas_dtype())
    data = values.buffers()[1]
    return np.frombuffer(data, dtype=dtype, count=values.offset + len(values))[values.offset:]


def view_bool(mask: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """A null-free boolean arrow array as a numpy bool array (unpacks its bits)."""
    if isinstance(mask, pa.ChunkedArray):
        mask = mask.combine_chunks()
    bits = np.unpackbits(np.frombuffer(mask.buffers()[1], dtype=np.uint8), bitorder="little")
    return bits[mask.offset:mask.offset + len(mask)].view(bool)
