"""From parsed arrow columns to validated ``Run`` / ``Qrels``.

Answers "are these columns a valid run (or qrels)?" with vectorised checks (missing values,
non-finite scores, non-integer grades, duplicate (query, document) pairs) and builds the table.
It does not parse text (the format readers do) and never drops a row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ranklens.data import duplicate_rows as pair_repeats
from ranklens.data.grades import GradePolicy, fractional_rule
from ranklens.data.id_keys import (
    distinct_keys,
    pair_keys,
    repeated_candidates,
    string_keys,
)
from ranklens.data.two_threads import in_two_parts
from ranklens.io.errors import InputError
from ranklens.io.locate import Locator

ID_TYPE = pa.dictionary(pa.int32(), pa.string())
# bytes per block of pyarrow's CSV reader; each block gets its own id dictionary (tests shrink it)
BLOCK_SIZE = 1 << 20


@dataclass(frozen=True)
class Ids:
    """Ids as an int32 code per row into the strings ``values``.

    With ``unique`` (the default) ``values`` holds each id once, so equal codes are equal ids.
    Without, an id may be in ``values`` more than once (the CSV reader's per-block dictionaries
    concatenated, or one string per row, ``codes`` then ``0..n-1``): compare such ids by string.
    """

    codes: np.ndarray
    values: pa.Array
    unique: bool = True


def string_values(values: pa.Array) -> pa.Array:
    if not pa.types.is_string(values.type):
        values = pc.cast(values, pa.string())
    return values


def ids_unified(column: pa.ChunkedArray | pa.Array) -> Ids:
    """One dictionary for the whole column (each id once)."""
    if isinstance(column, pa.Array):
        column = pa.chunked_array([column])
    if not pa.types.is_dictionary(column.type):
        column = pc.dictionary_encode(column)
    if column.num_chunks == 0:
        return Ids(np.empty(0, np.int32), pa.array([], pa.string()))
    if column.num_chunks > 1 and not column.null_count:
        return _one_dictionary(column)
    if column.num_chunks > 1:
        column = column.unify_dictionaries()
    codes = _concat_indices(column)
    return Ids(codes, string_values(column.chunk(0).dictionary))


def _one_dictionary(column: pa.ChunkedArray) -> Ids:
    """The chunks' dictionaries encoded as one (entries in order of first appearance, as
    ``unify_dictionaries`` orders them), and each row's code looked up in one pass: the CSV
    reader's blocks hold a few distinct query ids each, so the lookup tables are tiny."""
    dictionaries = [chunk.dictionary for chunk in column.chunks]
    sizes = np.array([len(d) for d in dictionaries], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(sizes)))
    encoded = pc.dictionary_encode(pa.concat_arrays([string_values(d) for d in dictionaries]))
    global_code = view(encoded.indices, np.int32)
    codes = np.empty(len(column), dtype=np.int32)
    row = 0
    for k, chunk in enumerate(column.chunks):
        indices = _indices(chunk)
        # mode "clip": with ``out``, the default "raise" buffers every row (several times slower)
        np.take(global_code[starts[k]:starts[k + 1]], indices, out=codes[row:row + len(indices)],
                mode="clip")
        row += len(indices)
    return Ids(codes, string_values(encoded.dictionary))


def ids_by_block(column: pa.ChunkedArray | list[pa.Array]) -> Ids:
    """Keep the reader's per-block dictionaries, concatenated (no global hash of every id).

    Given a list of chunks, empties it while copying, so each chunk's memory can go back to
    the allocator before the next one is copied (peak memory: one copy, not two).
    """
    chunks = column if isinstance(column, list) else list(column.chunks)
    if len(chunks) <= 1:
        return ids_unified(pa.chunked_array(chunks, type=ID_TYPE))
    dictionaries = [chunk.dictionary for chunk in chunks]
    sizes = np.array([len(d) for d in dictionaries], dtype=np.int64)
    entry = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    codes = np.empty(sum(len(chunk) for chunk in chunks), dtype=np.int32)
    row = 0
    for k in range(len(chunks)):
        chunk = chunks[k]
        chunks[k] = None  # type: ignore[call-overload,unused-ignore]
        np.add(_indices(chunk), entry[k], out=codes[row:row + len(chunk)], casting="unsafe")
        row += len(chunk)
        del chunk
    chunks.clear()
    return Ids(codes, concat_strings(dictionaries), unique=False)


def ids_per_row(chunks: list[pa.Array]) -> Ids:
    """Plain string chunks as ids without any hashing: one entry per row (``unique`` False),
    except for one chunk (a small file), which is cheap to encode: each id once.

    Empties ``chunks`` while copying (see ``concat_strings``).
    """
    if len(chunks) <= 1:
        return ids_unified(pa.chunked_array(chunks, type=pa.string()))
    values = concat_strings(chunks)
    return Ids(np.arange(len(values), dtype=np.int32), values, unique=False)


def concat_strings(arrays: list[pa.Array]) -> pa.Array:
    """The strings of ``arrays`` (no nulls) as one string array, large_string when they need
    64-bit offsets. Empties the list while copying: each array can be freed once copied, so
    the peak is about one copy, not two."""
    strings = [string_values(array) for array in arrays]
    arrays.clear()
    if len(strings) <= 1:
        return strings[0] if strings else pa.array([], pa.string())
    spans = [_string_offsets(s) for s in strings]
    data_sizes = np.array([int(o[-1] - o[0]) for o in spans], dtype=np.int64)
    total_bytes = int(data_sizes.sum())
    if total_bytes >= 2**31:
        return pa.concat_arrays([pc.cast(s, pa.large_string()) for s in strings])
    counts = np.array([len(s) for s in strings], dtype=np.int64)
    entries = np.concatenate(([0], np.cumsum(counts)))
    bytes_at = np.concatenate(([0], np.cumsum(data_sizes)))
    offsets = np.empty(int(entries[-1]) + 1, dtype=np.int32)
    data = np.empty(total_bytes, dtype=np.uint8)
    offsets[0] = 0

    def copy(first: int, last: int) -> None:
        for k in range(first, last):
            values, local = strings[k], spans[k]
            strings[k] = spans[k] = None  # type: ignore[call-overload]
            entry, byte = int(entries[k]), int(bytes_at[k])
            np.subtract(local[1:], int(local[0]) - byte,
                        out=offsets[entry + 1:entry + len(values) + 1], casting="unsafe")
            if data_sizes[k]:
                raw = np.frombuffer(values.buffers()[2], dtype=np.uint8)
                data[byte:byte + data_sizes[k]] = raw[local[0]:local[-1]]
            del values, local
            _release(k)

    in_two_parts(entries, copy)  # numpy lets go of the GIL while it copies
    return pa.Array.from_buffers(pa.string(), len(offsets) - 1,
                                 [None, pa.py_buffer(offsets), pa.py_buffer(data)])


def arrow_indices(values: np.ndarray) -> pa.Array:
    """Zero-copy arrow view of an integer numpy array (``pa.array`` would import pandas)."""
    values = np.ascontiguousarray(values)
    kind = {4: pa.int32(), 8: pa.int64()}[values.dtype.itemsize]
    return pa.Array.from_buffers(kind, len(values), [None, pa.py_buffer(values)])


SORTED_UNIQUE_BELOW = 1 << 31  # codes are int32: every id table the readers make


def unique_ids(ids: Ids) -> Ids:
    """The same ids with one dictionary entry per distinct id, in the order of first use.

    The ids are grouped by their 64-bit keys (``ranklens.data.id_keys.distinct_keys``, one
    sort) and each row that repeats an earlier key is confirmed on the strings: 0.07 s for
    630,000 distinct ids where pyarrow's hash encoding takes 0.2 s; for the 4.5M distinct
    document ids of a 50M-row case's qrels 1.0 CPU-s and a 550 MB peak for the whole read,
    where the hash encoding took 2.0-2.7 CPU-s and 1.0 GB (its table costs about 170 bytes an
    id). pyarrow encodes only when the strings have nulls or two distinct ids share a key.
    The keys read every byte of an id (``every_byte``): long ids that share a prefix and
    differ in the middle (``doc-collection-2026-shard-07-q000606_d782``) would otherwise share
    keys, and their 1.9M in the 21M-row case's qrels went to the hash table (+1 CPU-s and
    +190 MB at the peak of ``evaluate``).
    """
    if ids.unique:
        return ids
    values = string_values(ids.values)
    if not values.null_count and len(values) < SORTED_UNIQUE_BELOW:
        entry_codes, first = distinct_keys(string_keys(values, every_byte=True))
        if len(first) == len(values):  # distinct keys are distinct strings
            return Ids(ids.codes, values)
        # only a row that repeats an earlier key needs its string confirmed
        repeats = np.flatnonzero(first[entry_codes] != np.arange(len(values)))
        if pc.all(pc.equal(values.take(arrow_indices(repeats)), values.take(
                arrow_indices(first[entry_codes[repeats]])))).as_py() is not False:
            return Ids(entry_codes[ids.codes], values.take(arrow_indices(first)))
    encoded = pc.dictionary_encode(values)
    return Ids(view(encoded.indices, np.int32)[ids.codes], string_values(encoded.dictionary))


def _string_offsets(array: pa.Array) -> np.ndarray:
    width = 8 if pa.types.is_large_string(array.type) else 4
    return np.frombuffer(array.buffers()[1], dtype=np.int32 if width == 4 else np.int64,
                         count=len(array) + 1, offset=array.offset * width)


# return freed chunks to the OS every this many chunks while copying (see ``_release``)
RELEASE_EVERY = 32


def _release(k: int) -> None:
    """Hand memory freed by copied chunks back to the OS now, not after the allocator's delay.

    Without it mimalloc keeps freed pages for a while, and a fast copy of a 7M-row table
    holds both the old chunks and the new arrays at once (about 100 MB more at the peak).
    """
    if k % RELEASE_EVERY == RELEASE_EVERY - 1:
        pa.default_memory_pool().release_unused()


def view(array: pa.Array, dtype: type) -> np.ndarray:
    """Zero-copy numpy view of a fixed-width arrow array without nulls.

    (``Array.to_numpy`` would import pandas on first use: half a second we do not need.)
    """
    width = np.dtype(dtype).itemsize
    if array.null_count or pa.types.is_boolean(array.type) or array.type.bit_width != width * 8:
        return np.asarray(array.to_numpy(zero_copy_only=False), dtype=dtype)
    return np.frombuffer(array.buffers()[1], dtype=dtype, count=len(array),
                         offset=array.offset * width)


def _concat_indices(column: pa.ChunkedArray) -> np.ndarray:
    codes = np.empty(len(column), dtype=np.int32)
    position = 0
    for chunk in column.chunks:
        indices = _indices(chunk)
        codes[position:position + len(indices)] = indices
        position += len(indices)
    return codes


def _indices(chunk: pa.DictionaryArray) -> np.ndarray:
    """A dictionary chunk's indices as numpy (a view when they are int32)."""
    return view(chunk.indices, np.int32) if chunk.indices.type == pa.int32() else \
        chunk.indices.to_numpy(zero_copy_only=False)


def to_numpy(column: pa.ChunkedArray | pa.Array | np.ndarray | list[pa.Array],
             dtype: type) -> np.ndarray:
    """One numpy array from a column (nulls must have been ruled out).

    A list of chunks is emptied while copying (see ``ids_by_block``).
    """
    if isinstance(column, np.ndarray):
        return column.astype(dtype, copy=False)
    if isinstance(column, pa.Array):
        return view(column, dtype) if _same_width(column, dtype) else \
            np.asarray(column.to_numpy(zero_copy_only=False), dtype=dtype)
    chunks = column if isinstance(column, list) else list(column.chunks)
    if len(chunks) == 1:
        return to_numpy(chunks.pop(), dtype)
    out: np.ndarray = np.empty(sum(len(chunk) for chunk in chunks), dtype=dtype)
    position = 0
    for k in range(len(chunks)):
        chunk = chunks[k]
        chunks[k] = None  # type: ignore[call-overload,unused-ignore]
        out[position:position + len(chunk)] = view(chunk, dtype) if _same_width(chunk, dtype) \
            else chunk.to_numpy(zero_copy_only=False)
        position += len(chunk)
        del chunk
        _release(k)
    chunks.clear()
    return out


def _same_width(array: pa.Array, dtype: type) -> bool:
    kind = np.dtype(dtype).kind
    matches = (pa.types.is_floating(array.type) and kind == "f") or (
        pa.types.is_integer(array.type) and kind in "iu")
    return matches and not array.null_count and array.type.bit_width == np.dtype(dtype).itemsize * 8


# ---- checks -------------------------------------------------------------------------------

def check_no_nulls(name: str, column: pa.ChunkedArray | pa.Array | np.ndarray, what: str,
                   locate: Locator) -> None:
    if not isinstance(column, np.ndarray) and column.null_count:
        first = _first_true(pc.is_null(column))
        raise InputError(name, f"{what} is missing", **_where(locate, first),
                         hint=f"fill in the {what} or remove the row")


def has_empty_string(values: pa.Array) -> bool:
    """Whether one of the strings ``values`` is empty (two equal offsets in a row), read in
    64K-string chunks: no temporary as long as the array (7M one-per-row ids)."""
    if not len(values):
        return False
    offsets = _string_offsets(values)
    n, step = len(offsets) - 1, 1 << 16
    return any(bool(np.any(offsets[a + 1:min(a + step, n) + 1] == offsets[a:min(a + step, n)]))
               for a in range(0, n, step))


def check_ids(name: str, ids: Ids, what: str, locate: Locator) -> None:
    """Ids must be non-empty strings."""
    if has_empty_string(ids.values):
        lengths = np.diff(_string_offsets(ids.values))
        bad_codes = np.flatnonzero(lengths == 0)
        first = int(np.flatnonzero(np.isin(ids.codes, bad_codes))[0])
        raise InputError(name, f"{what} is empty", **_where(locate, first),
                         hint=f"every row needs a {what}")


def check_finite(name: str, values: np.ndarray, locate: Locator) -> None:
    finite = np.isfinite(values)
    if not finite.all():
        bad = np.flatnonzero(~finite)
        raise InputError(
            name, f"score {float(values[bad[0]])!r} is not a finite number"
                  f"{_more(len(bad), 'non-finite score')}",
            **_where(locate, int(bad[0])),
            hint="write a real number for every score (NaN and infinity cannot be ranked)")


TRUNCATE_HINT = ("trec_eval reads a grade with C's atol, which keeps the digits before the "
                 "point (0.73 -> 0, 2.5 -> 2): 'ranklens evaluate --truncate-grades' does the "
                 "same and says how many it truncated")


def read_grades(name: str, values: pa.ChunkedArray | pa.Array | np.ndarray,
                locate: Locator, *, policy: GradePolicy = "real",
                notes: list[str] | None = None) -> np.ndarray:
    """Relevance grades as ``Qrels`` stores them (``ranklens.data.grades``): int64 when every
    grade is whole (``2.0`` is 2), else by ``policy``: "real" keeps float64 grades and appends
    the rule that reads them to ``notes``; "integer" refuses the first fractional grade with
    its line; "truncate" cuts toward zero as trec_eval's atol does (how many, to ``notes``).
    A grade that is not a finite number is always an error naming its line."""
    if isinstance(values, np.ndarray):
        if values.dtype.kind in "iu":
            return values.astype(np.int64, copy=False)
        values = pa.array(values)
    if pa.types.is_integer(values.type):
        return to_numpy(values, np.int64)
    kind, more = ("a grade as a number", " or 0.73") if policy == "real" else \
        ("an integer grade", "")
    if pa.types.is_string(values.type) or pa.types.is_large_string(values.type):
        try:
            values = pc.cast(values, pa.float64())
        except pa.ArrowInvalid:
            bad = _first_true(pc.invert(pc.match_substring_regex(
                values, r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$")))
            text = values[bad].as_py() if isinstance(values, pa.Array) else \
                pa.concat_arrays(values.chunks)[bad].as_py()
            raise InputError(name, f"relevance {text!r} is not a number",
                             **_where(locate, bad),
                             hint=f"write {kind} (0, 1, 2, ...{more}); trec_eval's atol "
                                  "would read the digits it starts with, or 0 if none") from None
    floats = to_numpy(values, np.float64)
    finite = np.isfinite(floats)
    if not finite.all():
        bad = int(np.flatnonzero(~finite)[0])
        raise InputError(name, f"relevance {float(floats[bad])!r} is not a finite number",
                         **_where(locate, bad),
                         hint="write a finite grade (0, 1, 2, ... or 0.73) on every line")
    whole = floats == np.round(floats)
    if whole.all():
        return floats.astype(np.int64)
    if policy == "truncate":
        if notes is not None:
            notes.append(f"{int(np.count_nonzero(~whole)):,} fractional grade(s) truncated "
                         "toward zero, as trec_eval's atol reads them (e.g. 2.5 -> 2)")
        return np.trunc(floats).astype(np.int64)
    if policy == "integer":
        bad = int(np.flatnonzero(~whole)[0])
        raise InputError(name, f"relevance {float(floats[bad])!r} is not an integer grade",
                         **_where(locate, bad),
                         hint=f"write an integer grade (0, 1, 2, ...); {TRUNCATE_HINT}; "
                              "'ranklens compare' and the library read fractional grades as "
                              "gains")
    if notes is not None:
        notes.append(str(fractional_rule(floats)))
    return floats


def check_unique_pairs(name: str, queries: Ids, docs: Ids, locate: Locator,
                       what: str = "run", keys: np.ndarray | None = None) -> None:
    """Each (query, document) pair at most once; names the first repeated pair and its lines.
    ``keys``: the rows' ``pair_keys``, when the caller has them."""
    repeated = duplicate_rows(queries.codes, docs, keys)
    if not len(repeated):
        return
    first = int(repeated[0])
    query = queries.values[int(queries.codes[first])].as_py()
    doc = docs.values[int(docs.codes[first])].as_py()
    same = np.flatnonzero(queries.codes == queries.codes[first])
    same_docs = docs.values.take(arrow_indices(docs.codes[same]))
    rows = same[pc.equal(same_docs, doc).to_numpy(zero_copy_only=False)]
    places = locate(rows[:5])
    unit = "lines" if locate.unit == "line" else "rows"
    listed = ", ".join(map(str, places)) + (", ..." if len(rows) > 5 else "")
    raise InputError(
        name,
        f"query {query!r} lists document {doc!r} {len(rows)} times ({unit} {listed}); "
        f"{len(repeated):,} duplicate (query, document) row(s) in all",
        hint=f"keep one row per (query, document) in the {what}: ranklens will not guess which "
             "one to keep")


def duplicate_rows(query_codes: np.ndarray, docs: Ids,
                   keys: np.ndarray | None = None) -> np.ndarray:
    """Rows whose (query, document) pair occurred on an earlier row, in row order.

    Ids that are not unique are compared by string, only for the rows whose 64-bit key
    (``ranklens.data.id_keys.pair_keys``, or ``keys`` when given) another row shares: one
    sort, no hash table of strings.
    """
    n = len(query_codes)
    if docs.unique:
        if len(docs.values) >= n:  # every dictionary entry is used, so each exactly once
            return np.empty(0, dtype=np.int64)
        return pair_repeats(query_codes, docs.codes, len(docs.values))
    if keys is None:
        keys = pair_keys(query_codes, docs.values, docs.codes)
    rows = repeated_candidates(keys, query_codes)
    if not len(rows):
        return rows
    encoded = pc.dictionary_encode(docs.values.take(arrow_indices(docs.codes[rows])))
    return rows[pair_repeats(query_codes[rows], view(encoded.indices, np.int32),
                             len(encoded.dictionary))]


def _first_true(mask: pa.ChunkedArray | pa.Array) -> int:
    if isinstance(mask, pa.ChunkedArray):
        mask = pa.concat_arrays(mask.chunks) if mask.num_chunks else pa.array([], pa.bool_())
    return int(np.flatnonzero(mask.to_numpy(zero_copy_only=False))[0])


def _where(locate: Locator, row: int) -> dict[str, int]:
    return {locate.unit: locate([row])[0]}


def _more(count: int, what: str) -> str:
    return f" ({count:,} {what}s in all)" if count > 1 else ""
