"""Other processes: a restart sees reports; a process killed mid-write leaves the store sound."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from ranklens.store import ReportNotFound, SQLiteReportStore

REPO_ROOT = Path(__file__).resolve().parents[2]


def python(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO_ROOT,
    )


def run_python(code: str, *args: str) -> str:
    proc = python(code, *args)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return out.strip()


def test_report_written_by_one_process_is_read_by_another(store_path: Path) -> None:
    token = run_python(
        """
        import sys
        from ranklens.store import SQLiteReportStore
        store = SQLiteReportStore(sys.argv[1])
        print(store.put({"alpha": 0.05}, {"run_a": b"written elsewhere", "qrels": b"q 0 d 1"}))
        """,
        str(store_path),
    )
    snapshot = SQLiteReportStore(store_path).get(token)
    assert snapshot.params == {"alpha": 0.05}
    assert dict(snapshot.inputs) == {"run_a": b"written elsewhere", "qrels": b"q 0 d 1"}

    mine = SQLiteReportStore(store_path).put({"beta": [1]}, {"run_b": b"written here"})
    seen = run_python(
        """
        import sys
        from ranklens.store import SQLiteReportStore
        snap = SQLiteReportStore(sys.argv[1]).get(sys.argv[2])
        print(snap.params, snap.inputs["run_b"].decode())
        """,
        str(store_path),
        mine,
    )
    assert seen == "{'beta': [1]} written here"


# The child writes one small report, prints its token, then writes a big report and stops
# inside that transaction, after its first input row, to be killed there.
KILLED_WRITER = """
import sys, time
from pathlib import Path
from ranklens.store import sqlite_store
from ranklens.store.sqlite_store import SQLiteReportStore

path, marker = sys.argv[1], Path(sys.argv[2])

class StallingStore(SQLiteReportStore):
    stall = False

    def _insert_blob(self, conn, digest, raw_size, codec_name, stored):
        super()._insert_blob(conn, digest, raw_size, codec_name, stored)
        if self.stall:
            marker.write_text("in transaction")
            time.sleep(600)

store = StallingStore(path)
print(store.put({"kept": True}, {"run_a": b"before the crash"}), flush=True)
sqlite_store.new_token = lambda: "K" * 32
store.stall = True
store.put({"kept": False}, {"run_a": b"a" * 5_000_000, "run_b": b"b" * 5_000_000})
"""


def wait_for(path: Path, proc: subprocess.Popen[str], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if proc.poll() is not None:
            raise AssertionError(f"child exited early: {proc.communicate()[1]}")
        if time.monotonic() > deadline:
            raise AssertionError("child never reached the marker")
        time.sleep(0.01)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_process_killed_inside_the_write_transaction_leaves_no_trace(
    store_path: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "marker"
    proc = python(KILLED_WRITER, str(store_path), str(marker))
    wait_for(marker, proc)
    os.kill(proc.pid, signal.SIGKILL)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    kept_token = out.strip()

    store = SQLiteReportStore(store_path)
    assert store.integrity_check() == "ok"
    with pytest.raises(ReportNotFound):
        store.get("K" * 32)
    assert store.get(kept_token).inputs["run_a"] == b"before the crash"
    usage = store.usage()
    assert (usage.reports, usage.blobs) == (1, 1)  # the half-written input is gone too
    # The store still takes writes after the crash.
    token = store.put({}, {"run_a": b"after"})
    assert store.get(token).inputs["run_a"] == b"after"


# The child writes big reports in a loop; every token is printed after its put returns.
BUSY_WRITER = """
import hashlib, random, sys
from ranklens.store import SQLiteReportStore

store = SQLiteReportStore(sys.argv[1])
for i in range(1000):
    data = random.Random(i).randbytes(2_000_000) * 4
    token = store.put({"i": i}, {"run_a": data, "run_b": data[::-1]})
    print(token, i, hashlib.sha256(data).hexdigest(), flush=True)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("kill_after", [0.3, 0.7, 1.1, 1.6])
def test_process_killed_at_any_moment_leaves_reports_whole_or_absent(
    store_path: Path, kill_after: float
) -> None:
    SQLiteReportStore(store_path)  # create the file before the clock starts
    proc = python(BUSY_WRITER, str(store_path))
    time.sleep(kill_after)
    os.kill(proc.pid, signal.SIGKILL)
    out, _ = proc.communicate(timeout=30)

    store = SQLiteReportStore(store_path)
    assert store.integrity_check() == "ok"
    confirmed = [line.split() for line in out.splitlines()]
    for token, i, digest in confirmed:
        snapshot = store.get(token)
        assert snapshot.params == {"i": int(i)}
        assert hashlib.sha256(snapshot.inputs["run_a"]).hexdigest() == digest
        assert snapshot.inputs["run_b"] == snapshot.inputs["run_a"][::-1]
    # At most the one report whose put had committed but not yet printed its token.
    usage = store.usage()
    print(f"killed after {kill_after}s: {len(confirmed)} confirmed, {usage.reports} stored")
    assert usage.reports in (len(confirmed), len(confirmed) + 1)
    assert usage.blobs == 2 * usage.reports
