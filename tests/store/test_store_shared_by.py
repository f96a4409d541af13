"""Who shared a report: kept with it in both stores, and stores of schema 1 migrated in place."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ranklens.store import ReportStore, StoreError
from ranklens.store.snapshot import MAX_SHARED_BY_CHARS
from tests.support.store_helpers import Backend, FakeClock
from tests.support.store_schema_v1 import make_v1_store

INPUTS = {"run_a": b"q1 Q0 d1 1 2.0 a\n", "qrels": b"q1 0 d1 1\n"}


def test_who_shared_comes_back_with_the_report(store: ReportStore, clock: FakeClock) -> None:
    token = store.put({"kind": "compare"}, INPUTS, shared_by="  ada@team.example ")
    anonymous = store.put({"kind": "compare"}, INPUTS)
    snapshot = store.get(token)
    assert snapshot.shared_by == "ada@team.example"
    assert snapshot.created_at == datetime.fromtimestamp(clock.now, UTC)
    assert store.get(anonymous).shared_by is None
    assert dict(snapshot.inputs) == INPUTS


@pytest.mark.parametrize("bad", ["", "   ", "ada\n@team.example", "a" * (MAX_SHARED_BY_CHARS + 1)])
def test_a_bad_author_is_refused_before_anything_is_stored(store: ReportStore, bad: str) -> None:
    with pytest.raises(ValueError, match="shared_by must be one line"):
        store.put({"kind": "compare"}, INPUTS, shared_by=bad)
    assert store.usage().reports == 0


def test_a_schema_1_store_is_migrated_and_keeps_its_reports(backend: Backend,
                                                            clock: FakeClock) -> None:
    old = make_v1_store(backend.name, backend.location, {"kind": "mde", "n": 3}, INPUTS,
                        created_at=1_700_000_000.0)
    store = backend.open(clock=clock)  # migrates
    reopened = store.get(old)
    assert reopened.params == {"kind": "mde", "n": 3}
    assert dict(reopened.inputs) == INPUTS
    assert reopened.ranklens_version == "0.1.0"
    assert reopened.created_at == datetime.fromtimestamp(1_700_000_000.0, UTC)
    assert reopened.shared_by is None  # schema 1 did not record it
    new = store.put({"kind": "mde", "n": 4}, INPUTS, shared_by="grace@team.example")
    assert store.get(new).shared_by == "grace@team.example"
    assert store.usage().blobs == 2  # the new report's inputs are the old ones, stored once
    assert store.integrity_check() == "ok"
    assert _schema_version(backend) == 2
    again = backend.open(clock=clock)  # opening a migrated store changes nothing
    assert again.get(new).shared_by == "grace@team.example"
    assert _schema_version(backend) == 2


def test_a_migrated_store_still_refuses_updates(backend: Backend) -> None:
    token = make_v1_store(backend.name, backend.location, {"kind": "ppi"}, INPUTS, 1.0e9)
    store = backend.open()
    conn = backend.raw_connection()
    try:
        with pytest.raises(Exception, match="immutable"):
            conn.execute("UPDATE " + ("reports" if backend.name == "sqlite"
                                      else "ranklens.reports") + " SET shared_by = 'mallory'")
    finally:
        conn.close()
    assert store.get(token).shared_by is None


def test_a_store_newer_than_schema_2_is_still_refused(backend: Backend) -> None:
    backend.open()
    conn = backend.raw_connection()
    try:
        if backend.name == "sqlite":
            conn.execute("PRAGMA user_version = 3")
        else:
            conn.execute("UPDATE ranklens.schema_version SET version = 3")
    finally:
        conn.close()
    with pytest.raises(StoreError, match="store schema 3, this version reads 2"):
        backend.open()


def _schema_version(backend: Backend) -> int:
    conn = backend.raw_connection()
    try:
        if backend.name == "sqlite":
            return int(conn.execute("PRAGMA user_version").fetchone()[0])
        return int(conn.execute("SELECT max(version) FROM ranklens.schema_version").fetchone()[0])
    finally:
        conn.close()
