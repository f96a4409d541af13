"""Round trip, deduplication, validation and immutability of stored reports."""

from __future__ import annotations

import math
import random
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import ranklens
from ranklens.store import ReportStore, SQLiteReportStore, StoreError, codec
from tests.support.store_helpers import Backend, FakeClock, trec_run_bytes

PARAMS = {
    "metric": "ndcg@10",
    "alpha": 0.05,
    "n_boot": 10_000,
    "segments": ["head", "torso", "tail"],
    "nested": {"fdr": "bh", "seed": 7, "note": "ünïcödé ✓", "none": None, "flag": True},
}


def test_store_satisfies_the_protocol(store: ReportStore) -> None:
    assert isinstance(store, ReportStore)


def test_round_trip_gives_identical_bytes_and_params(store: ReportStore) -> None:
    inputs = {
        "run_a": trec_run_bytes(50, 100, seed=1),
        "run_b": trec_run_bytes(50, 100, seed=2),
        "qrels": b"q0 0 d1 1\nq0 0 d2 0\n",
        "segments": b"",
        "binary": bytes(range(256)) * 10,
    }
    token = store.put(PARAMS, inputs)
    snapshot = store.get(token)
    assert snapshot.token == token
    assert snapshot.params == PARAMS
    assert dict(snapshot.inputs) == inputs
    assert snapshot.ranklens_version == ranklens.__version__
    assert snapshot.created_at == datetime.fromtimestamp(1_800_000_000.0, UTC)
    assert snapshot.expires_at is None


def test_snapshot_cannot_change_what_is_stored(store: ReportStore) -> None:
    token = store.put(PARAMS, {"run_a": b"abc"})
    first = store.get(token)
    first.params["metric"] = "changed"
    with pytest.raises(TypeError):
        first.inputs["run_a"] = b"other"  # type: ignore[index]
    assert store.get(token).params == PARAMS


def test_stored_rows_refuse_updates(store: ReportStore, backend: Backend) -> None:
    token = store.put(PARAMS, {"run_a": b"abc"})
    schema = "" if backend.name == "sqlite" else "ranklens."
    conn = backend.raw_connection()
    try:
        for sql in (
            f"UPDATE {schema}reports SET params_json = '{{}}'",
            f"UPDATE {schema}blobs SET codec = 'raw'",
            f"UPDATE {schema}report_inputs SET role = 'run_b'",
        ):
            with pytest.raises(Exception, match="immutable"):
                conn.execute(sql)
    finally:
        conn.close()
    assert store.get(token).params == PARAMS


def test_same_input_is_stored_once(store: ReportStore) -> None:
    run = trec_run_bytes(100, 100, seed=3)
    qrels = b"q0 0 d1 1\n" * 1000
    t1 = store.put({"n": 1}, {"run_a": run, "qrels": qrels})
    after_one = store.usage()
    # The same run under another role, in another report, and twice inside one report.
    t2 = store.put({"n": 2}, {"run_b": run, "qrels": qrels})
    t3 = store.put({"n": 3}, {"run_a": run, "run_b": run})
    usage = store.usage()
    assert usage.reports == 3
    assert usage.blobs == after_one.blobs == 2
    assert usage.unique_input_bytes == len(run) + len(qrels)
    assert usage.input_bytes == 4 * len(run) + 2 * len(qrels)
    params_growth = usage.stored_bytes - after_one.stored_bytes
    assert params_growth == len(b'{"n":2}') + len(b'{"n":3}')
    assert usage.stored_bytes < len(run) / 2  # compressed
    assert store.get(t3).inputs["run_b"] == run
    assert len({t1, t2, t3}) == 3


def test_incompressible_input_is_stored_raw_not_bigger(store: ReportStore) -> None:
    noise = random.Random(0).randbytes(100_000)
    token = store.put({}, {"run_a": noise})
    assert store.get(token).inputs["run_a"] == noise
    assert store.usage().stored_bytes <= len(noise) + len(b"{}")


@pytest.mark.parametrize(
    "params",
    [
        {"alpha": math.nan},
        {"alpha": math.inf},
        {"pair": (1, 2)},
        {1: "int key"},
        {"when": datetime(2026, 1, 1)},
        {"raw": b"bytes"},
    ],
)
def test_params_that_json_would_change_are_refused(
    store: ReportStore, params: dict[object, object]
) -> None:
    with pytest.raises(ValueError, match="JSON"):
        store.put(params, {"run_a": b"x"})  # type: ignore[arg-type]
    assert store.usage().reports == 0


@pytest.mark.parametrize("role", ["", "Run_A", "run a", "../run", "1run", "r" * 65, "rün"])
def test_bad_roles_are_refused(store: ReportStore, role: str) -> None:
    with pytest.raises(ValueError, match="role"):
        store.put({}, {role: b"x"})


def test_input_values_must_be_bytes(store: ReportStore) -> None:
    with pytest.raises(TypeError, match="bytes"):
        store.put({}, {"run_a": "text, not bytes"})  # type: ignore[dict-item]
    token = store.put({}, {"run_a": bytearray(b"ok"), "run_b": memoryview(b"mv")})
    assert dict(store.get(token).inputs) == {"run_a": b"ok", "run_b": b"mv"}


def test_ttl_sets_expiry(store: ReportStore, clock: FakeClock) -> None:
    token = store.put({}, {"run_a": b"x"}, ttl=timedelta(days=30))
    expected = datetime.fromtimestamp(clock.now, UTC) + timedelta(days=30)
    assert store.get(token).expires_at == expected
    with pytest.raises(ValueError, match="ttl"):
        store.put({}, {"run_a": b"x"}, ttl=timedelta(0))


def test_new_store_object_on_same_location_sees_reports(backend: Backend) -> None:
    token = backend.open().put(PARAMS, {"run_a": b"abc"})
    assert backend.open().get(token).params == PARAMS


def test_store_file_is_private_and_in_wal_mode(store_path: Path) -> None:
    store = SQLiteReportStore(store_path)
    assert store_path.stat().st_mode & 0o077 == 0
    conn = sqlite3.connect(store_path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()
    assert store.integrity_check() == "ok"


def test_newer_schema_is_refused(backend: Backend) -> None:
    backend.open()
    conn = backend.raw_connection()
    if backend.name == "sqlite":
        conn.execute("PRAGMA user_version = 99")
    else:
        conn.execute("UPDATE ranklens.schema_version SET version = 99")
    conn.close()
    with pytest.raises(Exception, match="newer ranklens"):
        backend.open()


@pytest.mark.parametrize(("stored", "says"), [
    (codec.compress(b"other bytes" * 100), "damaged (digest mismatch)"),  # sound, but not it
    ((codec.ZLIB, b"not a zlib stream"), "damaged (Error -3 while decompressing"),
])
def test_a_damaged_input_is_a_store_error_naming_its_role(
        store: ReportStore, backend: Backend, stored: tuple[str, bytes], says: str) -> None:
    token = store.put(PARAMS, {"run_a": b"abc" * 100})
    schema = "" if backend.name == "sqlite" else "ranklens."
    conn = backend.raw_connection()
    try:  # the disk, not ranklens, changed the bytes: the triggers do not stop that
        conn.execute(f"DROP TRIGGER blobs_immutable ON {schema}blobs" if schema
                     else "DROP TRIGGER blobs_immutable")
        placeholder = "?" if backend.name == "sqlite" else "%s"
        conn.execute(f"UPDATE {schema}blobs SET codec = {placeholder}, data = {placeholder}",
                     stored)
        conn.commit()
    finally:
        conn.close()
    with pytest.raises(StoreError, match=f"stored input 'run_a' is {re.escape(says)}"):
        store.get(token)
