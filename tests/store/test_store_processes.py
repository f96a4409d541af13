"""Other processes: a restart sees reports; a process killed mid-write leaves the store sound.

Each test runs on both backends: a SQLite file, and a database on the session's PostgreSQL
server (whose client is killed, so the server rolls the open transaction back).
"""

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

from ranklens.store import ReportNotFound
from tests.support.store_helpers import Backend

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


def test_report_written_by_one_process_is_read_by_another(backend: Backend) -> None:
    token = run_python(
        """
        import sys
        from ranklens.store import open_report_store
        store = open_report_store(sys.argv[1])
        print(store.put({"alpha": 0.05}, {"run_a": b"written elsewhere", "qrels": b"q 0 d 1"}))
        """,
        backend.location,
    )
    snapshot = backend.open().get(token)
    assert snapshot.params == {"alpha": 0.05}
    assert dict(snapshot.inputs) == {"run_a": b"written elsewhere", "qrels": b"q 0 d 1"}

    mine = backend.open().put({"beta": [1]}, {"run_b": b"written here"})
    seen = run_python(
        """
        import sys
        from ranklens.store import open_report_store
        snap = open_report_store(sys.argv[1]).get(sys.argv[2])
        print(snap.params, snap.inputs["run_b"].decode())
        """,
        backend.location,
        mine,
    )
    assert seen == "{'beta': [1]} written here"


# The child writes one small report, prints its token, then writes a big report and stops
# inside that transaction, after its first input row, to be killed there.
KILLED_WRITER = """
import sys, time
from pathlib import Path
from ranklens.store import is_postgres_url, sql_store

location, marker = sys.argv[1], Path(sys.argv[2])
if is_postgres_url(location):
    from ranklens.store import postgres_store as module
    Base = module.PostgresReportStore
else:
    from ranklens.store import sqlite_store as module
    Base = module.SQLiteReportStore

class StallingStore(Base):
    stall = False

    def _insert_blob(self, conn, digest, raw_size, codec_name, stored):
        super()._insert_blob(conn, digest, raw_size, codec_name, stored)
        if self.stall:
            marker.write_text("in transaction")
            time.sleep(600)

store = StallingStore(location)
print(store.put({"kept": True}, {"run_a": b"before the crash"}), flush=True)
sql_store.new_token = lambda: "K" * 32  # put (shared by both stores) draws it there
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
    backend: Backend, tmp_path: Path
) -> None:
    marker = tmp_path / "marker"
    proc = python(KILLED_WRITER, backend.location, str(marker))
    wait_for(marker, proc)
    os.kill(proc.pid, signal.SIGKILL)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    kept_token = out.strip()

    store = backend.open()  # on PostgreSQL this waits for the dead writer's lock to go
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
from ranklens.store import open_report_store

store = open_report_store(sys.argv[1])
print("ready", flush=True)
for i in range(1000):
    data = random.Random(i).randbytes(2_000_000) * 4
    token = store.put({"i": i}, {"run_a": data, "run_b": data[::-1]})
    print(token, i, hashlib.sha256(data).hexdigest(), flush=True)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("kill_after", [0.3, 0.7, 1.1, 1.6])
def test_process_killed_at_any_moment_leaves_reports_whole_or_absent(
    backend: Backend, kill_after: float
) -> None:
    backend.open()  # create the file or schema before the clock starts
    proc = python(BUSY_WRITER, backend.location)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"  # imported and connected: start the clock
    time.sleep(kill_after)
    os.kill(proc.pid, signal.SIGKILL)
    out, _ = proc.communicate(timeout=30)

    store = backend.open()
    assert store.integrity_check() == "ok"
    confirmed = [line.split() for line in out.splitlines()]
    for token, i, digest in confirmed:
        snapshot = store.get(token)
        assert snapshot.params == {"i": int(i)}
        assert hashlib.sha256(snapshot.inputs["run_a"]).hexdigest() == digest
        assert snapshot.inputs["run_b"] == snapshot.inputs["run_a"][::-1]
    # At most the one report whose put had committed but not yet printed its token.
    usage = store.usage()
    print(f"{backend.name} killed after {kill_after}s: {len(confirmed)} confirmed, "
          f"{usage.reports} stored")
    assert usage.reports in (len(confirmed), len(confirmed) + 1)
    assert usage.blobs == 2 * usage.reports
