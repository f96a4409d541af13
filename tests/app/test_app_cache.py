"""The app's one cache: bounded in bytes, least recently used first, sizes measured."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pytest

from ranklens.app.state import (
    CACHE_MB_ENV,
    DEFAULT_CACHE_MB,
    SizedLRU,
    cache_limit_bytes,
    estimated_bytes,
)


@dataclass
class Parsed:
    scores: np.ndarray
    ids: pa.Array
    raw: bytes
    name: str


def test_sizes_count_arrays_buffers_and_text_once() -> None:
    scores = np.zeros(1_000_000)  # 8 MB
    parsed = Parsed(scores, pa.array(np.arange(1000, dtype=np.int64)), b"x" * 5000, "run")
    assert estimated_bytes(parsed) == 8_000_000 + 8000 + 5000 + 3
    # The same array reached twice is one array.
    assert estimated_bytes({"a": parsed, "b": [parsed, scores]}) == estimated_bytes(parsed) + 2


def test_least_recently_used_goes_first_when_the_budget_is_passed() -> None:
    cache = SizedLRU(capacity=100)
    cache.put("a", "A", size=40)
    cache.put("b", "B", size=40)
    assert cache.get("a") == "A"  # a is now more recent than b
    cache.put("c", "C", size=40)
    assert cache.keys() == ["a", "c"] and cache.bytes == 80
    assert cache.get("b") is None


def test_a_value_over_the_whole_budget_is_not_kept() -> None:
    cache = SizedLRU(capacity=100)
    cache.put("a", "A", size=60)
    assert cache.put("huge", "H", size=101) is False
    assert cache.keys() == ["a"] and cache.bytes == 60


def test_putting_a_key_again_replaces_its_size() -> None:
    cache = SizedLRU(capacity=100)
    cache.put("a", "A", size=60)
    cache.put("a", "A2", size=30)
    assert cache.bytes == 30 and cache.get("a") == "A2"


def test_measured_sizes_bound_the_cache() -> None:
    cache = SizedLRU(capacity=20_000_000)
    for i in range(5):
        cache.put(i, np.zeros(1_000_000))  # 8 MB each
    assert cache.keys() == [3, 4] and cache.bytes == 16_000_000


def test_cache_limit_from_the_environment() -> None:
    assert cache_limit_bytes({}) == DEFAULT_CACHE_MB * 1_000_000
    assert cache_limit_bytes({CACHE_MB_ENV: " 512 "}) == 512_000_000
    for bad in ("lots", "0", "-3", "1.5"):
        with pytest.raises(ValueError, match=CACHE_MB_ENV):
            cache_limit_bytes({CACHE_MB_ENV: bad})
