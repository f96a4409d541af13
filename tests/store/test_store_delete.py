"""Deleting a report frees the inputs no other report uses, and only those."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ranklens.store import ReportStore, SQLiteReportStore
from tests.support.store_helpers import trec_run_bytes


def test_delete_frees_unshared_blobs_and_keeps_shared_ones(store: ReportStore) -> None:
    shared_qrels = b"q0 0 d1 1\n" * 500
    run_a, run_b = trec_run_bytes(30, 100, seed=1), trec_run_bytes(30, 100, seed=2)
    first = store.put({"n": 1}, {"run_a": run_a, "qrels": shared_qrels})
    second = store.put({"n": 2}, {"run_a": run_b, "qrels": shared_qrels})
    assert store.usage().blobs == 3

    store.delete(first)
    usage = store.usage()
    assert (usage.reports, usage.blobs) == (1, 2)
    assert usage.unique_input_bytes == len(run_b) + len(shared_qrels)
    assert dict(store.get(second).inputs) == {"run_a": run_b, "qrels": shared_qrels}

    store.delete(second)
    usage = store.usage()
    assert (usage.reports, usage.blobs, usage.stored_bytes, usage.input_bytes) == (0, 0, 0, 0)
    assert store.integrity_check() == "ok"


def test_delete_shrinks_the_sqlite_file(store_path: Path) -> None:
    store = SQLiteReportStore(store_path)
    big = trec_run_bytes(200, 1000, seed=5)
    token = store.put({}, {"run_a": big})
    store.delete(token)
    conn = sqlite3.connect(store.path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages, free = (conn.execute(f"PRAGMA {p}").fetchone()[0]
                       for p in ("page_count", "freelist_count"))
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()
    assert free == 0
    assert pages * page_size < 200_000
