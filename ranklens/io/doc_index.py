"""An index from document id to where its record starts, built in one streaming pass.

Answers "where in the content is the record of document X" for collections too big to hold:
per record it keeps a 64-bit hash of the id and the record's offset (16 bytes; 8.8M MS MARCO
passages: 141 MB), sorted by hash. A lookup hashes the ids asked for, finds their candidates
by binary search and reads only those records; the caller checks the id in the record (a hash
collision between two ids is then harmless). It does not parse records (``documents`` does).

The hash is FNV-1a over the id's UTF-8 bytes followed by a murmur3 finaliser, computed for
all ids of a block at once with numpy (one pass per byte position, ids sorted by length).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)
_MIX_1 = np.uint64(0xFF51AFD7ED558CCD)
_MIX_2 = np.uint64(0xC4CEB9FE1A85EC53)


def hash_ids(ids: pa.Array | list[str]) -> np.ndarray:
    """64-bit hash (uint64) of each id of a string array (no nulls)."""
    values = ids if isinstance(ids, pa.Array) else _large_strings(ids)
    if not pa.types.is_large_string(values.type):
        values = pc.cast(values, pa.large_string())
    n = len(values)
    offsets = np.frombuffer(values.buffers()[1], dtype=np.int64, count=n + 1,
                            offset=values.offset * 8)
    data = np.frombuffer(values.buffers()[2], dtype=np.uint8) if n and offsets[-1] > \
        offsets[0] else np.zeros(1, dtype=np.uint8)
    lengths = np.diff(offsets)
    order = np.argsort(-lengths, kind="stable")
    starts = offsets[:-1][order]
    descending = -lengths[order]  # ascending negated lengths, for searchsorted
    hashes = np.full(n, _FNV_OFFSET, dtype=np.uint64)
    longest = int(lengths.max()) if n else 0
    for position in range(longest):
        active = int(np.searchsorted(descending, -position, side="left"))
        part = hashes[:active]
        np.bitwise_xor(part, data[starts[:active] + position], out=part)
        np.multiply(part, _FNV_PRIME, out=part)
    hashes ^= lengths[order].astype(np.uint64)
    out = np.empty(n, dtype=np.uint64)
    out[order] = _finalise(hashes)
    return out


def _large_strings(ids: list[str]) -> pa.Array:
    """An arrow large_string array of ``ids`` (``pa.array`` of a list would import pandas)."""
    encoded = [doc.encode("utf-8", errors="surrogatepass") for doc in ids]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(item) for item in encoded], out=offsets[1:])
    return pa.Array.from_buffers(pa.large_string(), len(encoded),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])


def _finalise(h: np.ndarray) -> np.ndarray:
    h = h ^ (h >> np.uint64(33))
    h *= _MIX_1
    h ^= h >> np.uint64(33)
    h *= _MIX_2
    return h ^ (h >> np.uint64(33))


@dataclass(frozen=True)
class OffsetIndex:
    """Sorted id hashes and the offset (or row number) of the record of each.

    Among equal hashes the offsets ascend, so the first candidate is the earliest record.
    """

    hashes: np.ndarray
    offsets: np.ndarray

    @classmethod
    def build(cls, hashes: list[np.ndarray], offsets: list[np.ndarray]) -> OffsetIndex:
        all_hashes = np.concatenate(hashes) if hashes else np.empty(0, np.uint64)
        all_offsets = np.concatenate(offsets) if offsets else np.empty(0, np.int64)
        hashes.clear()
        offsets.clear()
        order = np.lexsort((all_offsets, all_hashes))
        return cls(all_hashes[order], all_offsets[order])

    def __len__(self) -> int:
        return len(self.hashes)

    @property
    def nbytes(self) -> int:
        return int(self.hashes.nbytes + self.offsets.nbytes)

    def repeated(self) -> np.ndarray:
        """Offsets of the records whose id hash an earlier record has (repeated ids), sorted."""
        same = np.flatnonzero(self.hashes[1:] == self.hashes[:-1]) + 1
        return np.sort(self.offsets[same])

    def candidates(self, ids: list[str]) -> list[np.ndarray]:
        """Per id, the offsets of the records whose id hash matches, earliest first."""
        wanted = hash_ids(ids)
        low = np.searchsorted(self.hashes, wanted, side="left")
        high = np.searchsorted(self.hashes, wanted, side="right")
        return [self.offsets[a:b] for a, b in zip(low.tolist(), high.tolist(), strict=True)]
