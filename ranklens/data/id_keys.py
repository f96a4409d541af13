"""64-bit keys of string ids, so that millions of ids can be checked for repeats and joined
with numpy's sort instead of a hash table of strings.

``string_keys(values)`` reads each string's length and its first and last 8 bytes straight
from the arrow buffers and mixes them into one number: equal strings always get equal keys
(the key is a function of the bytes), different strings can share one (strings longer than 16
bytes that agree in those bytes, or by chance of the mixing). So a key only ever proposes
candidates: ``repeated_candidates`` and ``matching_candidates`` return a superset of the true
repeats or matches, which the caller confirms on the strings themselves. Nothing here decodes
text or says what two ids mean.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xBF58476D1CE4E5B9)
_M3 = np.uint64(0x94D049BB133111EB)
# bytes of a string shorter than 8 that its first 8-byte read keeps (little-endian)
_LOW_BYTES = np.array([(1 << (8 * n)) - 1 for n in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def string_keys(values: pa.Array, salt: np.ndarray | None = None,
                codes: np.ndarray | None = None) -> np.ndarray:
    """One uint64 key per string of ``values`` (a string or large_string array, no nulls), or
    per code of ``codes`` (positions in ``values``); with ``salt`` (one integer per key, e.g.
    the query of a row) the key of the pair (salt, string)."""
    mixed = _mixed(values)
    if codes is not None:
        mixed = mixed[codes]
    if salt is not None:
        mixed ^= np.multiply(salt, _M3, dtype=np.uint64, casting="unsafe")
    # the top bits (the ones compared) must depend on every input bit
    mixed ^= mixed >> np.uint64(29)
    mixed *= _M1
    mixed ^= mixed >> np.uint64(32)
    return mixed


def _mixed(values: pa.Array) -> np.ndarray:
    """Length, first and last 8 bytes of each string, multiplied together (not yet mixed)."""
    n = len(values)
    if n == 0:
        return np.empty(0, dtype=np.uint64)
    width = 8 if pa.types.is_large_string(values.type) or pa.types.is_large_binary(
        values.type) else 4
    offsets: np.ndarray = np.frombuffer(values.buffers()[1],
                                        dtype=np.int32 if width == 4 else np.int64,
                                        count=n + 1, offset=values.offset * width)
    start, end = offsets[:-1], offsets[1:]
    length = end - start
    buffer = values.buffers()[2]
    data = np.frombuffer(buffer, dtype=np.uint8) if buffer is not None else \
        np.empty(0, dtype=np.uint8)
    if len(data) < 8:
        data = np.concatenate((data, np.zeros(8, dtype=np.uint8)))
    limit = len(data) - 8  # the last 8-byte window
    # every 8-byte window of the data as one (unaligned) little-endian number
    windows = np.ndarray((limit + 1,), dtype="<u8", buffer=data, strides=(1,))
    if int(start[-1]) <= limit:
        first = windows[start]
    else:  # short strings in the data's last 8 bytes: read the last window, shifted
        first = windows[np.minimum(start, limit)]
        tail = np.flatnonzero(start > limit)
        shift = (start[tail].astype(np.int64) - limit) * 8
        first[tail] = first[tail] >> shift.astype(np.uint64)
    first &= _LOW_BYTES[np.minimum(length, 8)]
    last = windows[np.maximum(end - 8, 0)]
    last[length <= 8] = 0  # the first read holds every byte of a short string
    key = first
    key *= _M1
    key ^= last
    key *= _M2
    np.add(key, length, out=key, casting="unsafe")
    return key


def _packed(keys: np.ndarray, bits: int) -> np.ndarray:
    """Sorted keys with their top ``64 - bits`` bits kept and the row in the low ``bits``:
    one value sort (fast in numpy) instead of an argsort."""
    low = np.uint64((1 << bits) - 1)
    packed = keys & ~low
    packed |= np.arange(len(keys), dtype=np.uint64)
    packed.sort()
    return packed


def repeated_candidates(keys: np.ndarray) -> np.ndarray:
    """Rows (sorted) whose key some other row shares: every row that repeats an earlier one
    is among them (rows of equal keys need not be equal)."""
    n = len(keys)
    if n < 2:
        return np.empty(0, dtype=np.int64)
    bits = max(int(n - 1).bit_length(), 1)
    packed = _packed(keys, bits)
    high = packed >> np.uint64(bits)
    same = np.flatnonzero(high[1:] == high[:-1])
    if not len(same):
        return np.empty(0, dtype=np.int64)
    rows = np.sort((packed[np.concatenate((same, same + 1))] & np.uint64((1 << bits) - 1))
                   .astype(np.int64))
    return rows[np.concatenate(([True], rows[1:] != rows[:-1]))]  # np.unique imports numpy.ma


def matching_candidates(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """For each row of ``left`` (keys), the row of ``right`` with the same key (-1: none).

    ``right`` must hold each key once: ``ValueError`` when two of its rows share a key (the
    caller then matches by string). A match only says the keys are equal.
    """
    out = np.full(len(left), -1, dtype=np.int64)
    if not len(left) or not len(right):
        return out
    if len(left) > 4 * len(right):
        # most rows of a long left side match nothing: keep those whose top bits are the top
        # bits of a right key (a table of 8+ slots per right key, so about 1 in 8 stays)
        bits = min(max(int(8 * len(right) - 1).bit_length(), 10), 26)
        seen = np.zeros(1 << bits, dtype=bool)
        seen[right >> np.uint64(64 - bits)] = True
        maybe = np.flatnonzero(seen[left >> np.uint64(64 - bits)])
        out[maybe] = _match_sorted(left[maybe], right)
    else:
        out[:] = _match_sorted(left, right)
    return out


def _match_sorted(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """``matching_candidates`` by one sort of both sides."""
    n_right, n = len(right), len(left) + len(right)
    out = np.full(len(left), -1, dtype=np.int64)
    if not len(left):
        return out
    bits = max(int(n - 1).bit_length(), 1)
    keys = np.concatenate((right, left))
    packed = _packed(keys, bits)  # in a run of equal top bits the right rows come first
    high = packed >> np.uint64(bits)
    row = (packed & np.uint64((1 << bits) - 1)).astype(np.int64)
    is_right = row < n_right
    twins = np.flatnonzero((high[1:] == high[:-1]) & is_right[1:])
    if len(twins) and np.any(keys[row[twins]] == keys[row[twins + 1]]):
        raise ValueError("two rows of the right side share a key")
    # a left row matches the nearest right row before it in the sort, if the keys are equal
    last_right = np.where(is_right, np.arange(len(packed)), -1)
    np.maximum.accumulate(last_right, out=last_right)
    left_at = np.flatnonzero(~is_right)
    partner = last_right[left_at]
    hit = np.flatnonzero(partner >= 0)
    hit = hit[high[partner[hit]] == high[left_at[hit]]]
    found, mate = row[left_at[hit]], row[partner[hit]]
    same = keys[found] == keys[mate]
    out[found[same] - n_right] = mate[same]
    return out


__all__ = ["matching_candidates", "repeated_candidates", "string_keys"]
