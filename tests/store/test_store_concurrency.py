"""Many threads sharing at once: no error, no mixed-up reports."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ranklens.store import ReportNotFound, ReportStore
from tests.support.store_helpers import Backend, trec_run_bytes

N_THREADS = 20


def test_twenty_threads_put_and_get_at_once(store: ReportStore) -> None:
    shared_qrels = b"".join(f"q{q} 0 d{q} 1\n".encode() for q in range(2000))
    start = threading.Barrier(N_THREADS)

    def share(i: int) -> tuple[int, str, dict[str, bytes]]:
        inputs = {
            "run_a": trec_run_bytes(20, 100, seed=1000 + i),
            "run_b": trec_run_bytes(20, 100, seed=2000 + i),
            "qrels": shared_qrels,
        }
        start.wait()
        token = store.put({"thread": i}, inputs)
        # Read our own report back at once, while other threads are still writing.
        snapshot = store.get(token)
        assert snapshot.params == {"thread": i}
        assert dict(snapshot.inputs) == inputs
        return i, token, inputs

    with ThreadPoolExecutor(N_THREADS) as pool:
        results = list(pool.map(share, range(N_THREADS)))

    assert len({token for _, token, _ in results}) == N_THREADS
    for i, token, inputs in results:
        snapshot = store.get(token)
        assert snapshot.params == {"thread": i}
        assert dict(snapshot.inputs) == inputs
    usage = store.usage()
    assert usage.reports == N_THREADS
    assert usage.blobs == 2 * N_THREADS + 1  # the shared qrels once
    assert store.integrity_check() == "ok"


def test_deletes_racing_puts_of_a_shared_input_never_lose_it(store: ReportStore) -> None:
    """A put that found an input already stored must not lose it to a concurrent delete."""
    shared = trec_run_bytes(10, 100, seed=7)
    start = threading.Barrier(N_THREADS)

    def churn(i: int) -> list[str]:
        start.wait()
        kept = []
        for round_ in range(10):
            token = store.put({"i": i, "round": round_}, {"qrels": shared})
            if round_ % 2:
                kept.append(token)
            else:
                store.delete(token)
        return kept

    with ThreadPoolExecutor(N_THREADS) as pool:
        kept = [t for tokens in pool.map(churn, range(N_THREADS)) for t in tokens]

    for token in kept:
        assert store.get(token).inputs["qrels"] == shared
    assert store.usage().reports == len(kept) == N_THREADS * 5
    assert store.usage().blobs == 1
    for token in kept:
        store.delete(token)
    assert store.usage().blobs == 0
    try:
        store.get(kept[0])
    except ReportNotFound:
        pass
    else:
        raise AssertionError("deleted report still readable")
    assert store.integrity_check() == "ok"


def test_many_threads_opening_a_new_store_at_once(backend: Backend, tmp_path: Path) -> None:
    """The first users of a new file (folder included) or an empty database create it once."""
    if backend.name == "sqlite":
        backend = Backend("sqlite", str(tmp_path / "fresh" / "reports.sqlite3"))
    start = threading.Barrier(N_THREADS)

    def open_and_share(i: int) -> tuple[int, str]:
        start.wait()
        return i, backend.open().put({"i": i}, {"run_a": str(i).encode()})

    with ThreadPoolExecutor(N_THREADS) as pool:
        results = list(pool.map(open_and_share, range(N_THREADS)))
    store = backend.open()
    for i, token in results:
        assert store.get(token).inputs["run_a"] == str(i).encode()
    assert store.usage().reports == N_THREADS
    assert store.integrity_check() == "ok"
