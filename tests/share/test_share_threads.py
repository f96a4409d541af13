"""20 threads sharing at once through share(): no error, and every link opens its own page."""

from __future__ import annotations

import dataclasses
import threading
from concurrent.futures import ThreadPoolExecutor

from ranklens.compare.analysis import build_report
from ranklens.io import InputFile
from ranklens.share.links import compare_settings, reopen, share
from ranklens.store import SQLiteReportStore
from tests.support.share_helpers import SETTINGS, compare_files

THREADS = 20


def test_twenty_threads_share_at_once(store: SQLiteReportStore) -> None:
    run_a, run_b, qrels, segments = compare_files()
    report = build_report(run_a, run_b, qrels=qrels, segments=segments, settings=SETTINGS)
    start = threading.Barrier(THREADS)

    def share_one(index: int) -> tuple[int, str]:
        # Runs and qrels are the same for all (deduplicated); each thread has its own segment
        # map and seed, so a mixed-up report would show the wrong ones.
        own = InputFile("segments", f"segments-{index}.tsv",
                        segments.data + f"# thread {index}\n".encode())
        settings = dataclasses.replace(SETTINGS, seed=index)
        # the store is under test, not the statistics: one report, relabelled per thread
        result = dataclasses.replace(report, params={**report.params, "seed": index})
        start.wait()
        return index, share(store, "compare", settings, (run_a, run_b, qrels, own),
                            result=result)

    with ThreadPoolExecutor(THREADS) as pool:
        tokens = dict(pool.map(share_one, range(THREADS)))

    assert len(set(tokens.values())) == THREADS
    for index, token in tokens.items():
        shared = reopen(store, token)
        assert compare_settings(shared).seed == index
        own = shared.file("segments")
        assert own is not None and own.name == f"segments-{index}.tsv"
        assert own.data.endswith(f"# thread {index}\n".encode())
        assert shared.file("run_a") == run_a
    usage = store.usage()
    assert (usage.reports, usage.blobs) == (THREADS, 3 + 2 * THREADS)  # + own results
    assert store.integrity_check() == "ok"
