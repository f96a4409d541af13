"""Size limits: refused with the limit named, and nothing half-stored."""

from __future__ import annotations

import pickle
import random
from datetime import timedelta

import pytest

from ranklens.store import (
    DEFAULT_MAX_REPORT_BYTES,
    ReportNotFound,
    StoreLimitError,
    StoreLimits,
    StoreUnavailable,
)
from ranklens.store.errors import format_size
from tests.support.store_helpers import Backend, FakeClock


def noise(n: int, seed: int = 0) -> bytes:
    """Incompressible bytes, so stored size == raw size."""
    return random.Random(seed).randbytes(n)


def test_default_report_limit_fits_two_250_mb_runs() -> None:
    assert DEFAULT_MAX_REPORT_BYTES >= 2 * 250_000_000 + 50_000_000


def test_oversized_report_is_refused_with_the_limit_named(backend: Backend) -> None:
    store = backend.open(limits=StoreLimits(max_report_bytes=10_000))
    store.put({}, {"run_a": noise(5_000), "run_b": noise(4_990, 1)})  # 9,990 + len("{}")
    with pytest.raises(StoreLimitError) as caught:
        store.put({}, {"run_a": noise(5_000), "run_b": noise(5_000, 1)})
    error = caught.value
    assert error.limit_name == "max_report_bytes"
    assert error.limit_bytes == 10_000
    assert error.size_bytes == 10_002
    message = str(error)
    assert "max_report_bytes" in message
    assert "10,002 bytes" in message and "10,000 bytes" in message
    assert store.usage().reports == 1


def test_full_store_refuses_with_the_limit_named(backend: Backend) -> None:
    store = backend.open(limits=StoreLimits(max_store_bytes=25_000))
    store.put({}, {"run_a": noise(10_000, 1)})
    store.put({}, {"run_a": noise(10_000, 2)})
    before = store.usage()
    with pytest.raises(StoreLimitError, match="max_store_bytes") as caught:
        store.put({}, {"run_a": noise(10_000, 3)})
    assert caught.value.size_bytes == before.stored_bytes + 10_000 + 2
    assert store.usage() == before
    # An input already stored costs nothing but its parameters, so it still fits.
    store.put({"again": True}, {"run_a": noise(10_000, 1)})
    assert store.integrity_check() == "ok"


def test_expired_reports_make_room(backend: Backend, clock: FakeClock) -> None:
    store = backend.open(limits=StoreLimits(max_store_bytes=25_000), clock=clock)
    store.put({}, {"run_a": noise(10_000, 1)}, ttl=timedelta(minutes=5))
    store.put({}, {"run_a": noise(10_000, 2)})
    with pytest.raises(StoreLimitError):
        store.put({}, {"run_a": noise(10_000, 3)})
    clock.advance(300)
    token = store.put({}, {"run_a": noise(10_000, 3)})
    assert store.get(token).inputs["run_a"] == noise(10_000, 3)
    assert store.usage().reports == 2


def test_nonsensical_limits_are_refused(backend: Backend) -> None:
    with pytest.raises(ValueError):
        StoreLimits(max_report_bytes=0)
    with pytest.raises(ValueError, match="SQLite" if backend.name == "sqlite" else "PostgreSQL"):
        backend.open(limits=StoreLimits(max_report_bytes=2_000_000_000))


def test_store_errors_survive_pickling() -> None:
    """Errors must cross process boundaries (e.g. a worker pool) intact."""
    limit = pickle.loads(pickle.dumps(StoreLimitError("max_store_bytes", 10, 12, "the store")))
    assert (limit.limit_name, limit.limit_bytes, limit.size_bytes) == ("max_store_bytes", 10, 12)
    assert "max_store_bytes" in str(limit)
    assert str(pickle.loads(pickle.dumps(ReportNotFound()))) == "report not found"
    down = pickle.loads(pickle.dumps(StoreUnavailable("server went away")))
    assert str(down) == "share links are unavailable: server went away"


@pytest.mark.parametrize(
    ("n_bytes", "text"),
    [
        (999, "999 bytes"),
        (1_202, "1.2 kB (1,202 bytes)"),
        (600_000_000, "600.0 MB (600,000,000 bytes)"),
        (5_000_000_000, "5.0 GB (5,000,000,000 bytes)"),
    ],
)
def test_sizes_in_messages_read_well(n_bytes: int, text: str) -> None:
    assert format_size(n_bytes) == text
