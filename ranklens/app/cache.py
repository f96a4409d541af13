"""The app's one cache: parsed inputs and computed results, bounded by their size in memory.

``SizedLRU`` answers "this value, if it was computed before and is still kept": a
least-recently-used map shared by every session and page (guarded by a lock) that keeps at
most ``capacity`` bytes, as measured by ``estimated_bytes`` when a value is put.
``cache_limit_bytes`` reads the budget from ``RANKLENS_CACHE_MB`` (default
``DEFAULT_CACHE_MB``).

The measure counts what dominates a parsed input or a result: numpy arrays, Arrow arrays and
tables, pandas frames, raw bytes and text, each object once. It is taken when the value is
put: a value that grows later (the scores a parsed input memoizes) is not measured again, and
an array shared by two kept values counts in both, so the cache errs towards evicting early.
``one_flight(key)`` makes sessions that ask for the same value at once compute it once: the
others wait and then find it in the cache. This module does not import Streamlit; the app holds
one instance per server process (``ranklens.app.state.app_cache``).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import numpy as np
import pyarrow as pa

from ranklens.store.config import positive_setting

CACHE_MB_ENV = "RANKLENS_CACHE_MB"
DEFAULT_CACHE_MB = 2048
"""2 GB holds one comparison of two 250 MB runs parsed (about 1.5 GB with their bytes) plus
the demo and the reports."""


def cache_limit_bytes(environ: Mapping[str, str] | None = None) -> int:
    """The byte budget of the app's cache: ``$RANKLENS_CACHE_MB`` megabytes in ``environ``
    (default ``os.environ``; ``DEFAULT_CACHE_MB`` when unset).

    ``ValueError`` naming the variable for a value that is not a positive whole number.
    """
    env = os.environ if environ is None else environ
    return positive_setting(env, CACHE_MB_ENV, DEFAULT_CACHE_MB, "megabytes") * 1_000_000


def estimated_bytes(value: object) -> int:
    """Bytes held by ``value``'s arrays, tables, buffers and text, each object counted once.

    Walks containers, dataclasses and plain objects; counts numpy and Arrow ``nbytes``, pandas
    frames by ``memory_usage``, ``bytes`` and ``str`` by length and 8 bytes per number. It
    answers the size of the data, not Python's per-object overhead: small next to 10^6-row
    arrays, but the demo's Compare report (400 queries) is estimated at 13 kB while it holds
    about 42 kB (tracemalloc).
    """
    seen: set[int] = set()
    total = 0
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if item is None or isinstance(item, bool):
            continue
        if isinstance(item, int | float):  # per number, not per object: small ints are shared
            total += 8
            continue
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, np.ndarray):
            total += item.nbytes  # a view counts as much as its base: errs on the safe side
        elif isinstance(item, pa.Array | pa.ChunkedArray | pa.Table | pa.RecordBatch):
            total += item.nbytes
        elif isinstance(item, pa.Buffer):
            total += item.size
        elif isinstance(item, bytes | bytearray | memoryview | str):
            total += len(item)
        elif _is_pandas(item):
            total += int(np.sum(item.memory_usage(index=True, deep=False)))  # type: ignore[attr-defined]
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif hasattr(item, "__dict__"):  # dataclasses, with their cached properties
            stack.extend(vars(item).values())
        elif hasattr(item, "__slots__"):
            stack.extend(getattr(item, name, None) for name in item.__slots__)
    return total


def _is_pandas(item: object) -> bool:
    return type(item).__module__.startswith("pandas") and hasattr(item, "memory_usage")


class SizedLRU:
    """One least-recently-used cache for every session and page, bounded in bytes.

    ``put`` measures the value (`estimated_bytes`, unless a size is given) and evicts the
    least recently used entries until the total fits ``capacity``; a value bigger than the
    whole budget is not kept (the caller still has it). Evicted values stay alive while a
    session still uses them: the bound is on what the cache keeps, the in-flight work of
    running sessions comes on top. Kept values are shared: their users must not change them.
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    @property
    def bytes(self) -> int:
        """Bytes the cache holds now (as measured when each value was put)."""
        return self._bytes

    def get(self, key: Hashable) -> Any | None:
        """The value under ``key`` (now the most recently used), or None."""
        with self._lock:
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key][0]

    def find(self, matches: Callable[[Hashable], bool]) -> Any | None:
        """The most recently used value whose key ``matches``, if any (not marked as used)."""
        with self._lock:
            for key in reversed(self._items):
                if matches(key):
                    return self._items[key][0]
        return None

    def put(self, key: Hashable, value: Any, size: int | None = None) -> bool:
        """Keep ``value`` under ``key``; answers whether it was kept (False: over the budget)."""
        size = estimated_bytes(value) if size is None else size
        with self._lock:
            if key in self._items:
                self._bytes -= self._items.pop(key)[1]
            if size > self.capacity:
                return False
            self._items[key] = (value, size)
            self._bytes += size
            while self._bytes > self.capacity:
                _, (_, evicted) = self._items.popitem(last=False)
                self._bytes -= evicted
            return True

    def keys(self) -> list[Hashable]:
        """The keys, least recently used first."""
        with self._lock:
            return list(self._items)


_FLIGHTS_LOCK = threading.Lock()
_FLIGHTS: dict[Hashable, list[Any]] = {}  # key -> [its lock, threads holding or waiting]


@contextmanager
def one_flight(key: Hashable) -> Iterator[None]:
    """Hold ``key``'s lock: a second session computing the same ``key`` waits for the first
    (then finds the value in the cache, or computes it if it was not kept). The lock of a key
    nobody holds or waits for is dropped."""
    with _FLIGHTS_LOCK:
        entry = _FLIGHTS.setdefault(key, [threading.Lock(), 0])
        entry[1] += 1
    try:
        with entry[0]:
            yield
    finally:
        with _FLIGHTS_LOCK:
            entry[1] -= 1
            if entry[1] == 0:
                _FLIGHTS.pop(key, None)
