"""The default report store: one SQLite file in WAL mode.

Layout: ``blobs`` holds each distinct input once, keyed by the sha256 of its bytes and
compressed; ``reports`` holds parameters and metadata, keyed by an integer id and found by the
sha256 of the share token; ``report_inputs`` links a report's roles to blobs. Triggers refuse
every UPDATE, so a written report cannot change; it can only be deleted. The schema version is
SQLite's ``user_version``; opening a file of an older schema migrates it in place (`MIGRATIONS`,
schema 2 added ``reports.shared_by``).

Every operation opens its own connection, so one store object is safe to share between
threads; several processes may use the same file. Writers take the write lock with
``BEGIN IMMEDIATE`` and wait up to ``busy_timeout`` for it. A report is written in one
transaction, so a process killed mid-write leaves it whole or absent.
"""

from __future__ import annotations

import contextlib
import os
import random
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import ClassVar

from ranklens.store import codec
from ranklens.store.errors import StoreError
from ranklens.store.limits import StoreLimits
from ranklens.store.location import default_store_path
from ranklens.store.sql_store import SCHEMA_VERSION, SQLReportStore

__all__ = ["SCHEMA_VERSION", "SQLITE_MAX_REPORT_BYTES", "SQLiteReportStore"]

# SQLite refuses values over SQLITE_MAX_LENGTH (1e9 bytes by default); every input is stored
# as one blob, so a report limit above this could accept inputs SQLite cannot hold.
SQLITE_MAX_REPORT_BYTES = 900_000_000

_SCHEMA = """
CREATE TABLE blobs (
    id INTEGER PRIMARY KEY,
    digest TEXT NOT NULL UNIQUE,
    raw_size INTEGER NOT NULL,
    stored_size INTEGER NOT NULL,
    codec TEXT NOT NULL,
    data BLOB NOT NULL
);
CREATE TABLE reports (
    id INTEGER PRIMARY KEY,
    token_digest BLOB NOT NULL UNIQUE,
    params_json TEXT NOT NULL,
    params_size INTEGER NOT NULL,
    ranklens_version TEXT NOT NULL,
    created_at REAL NOT NULL,
    expires_at REAL,
    shared_by TEXT
);
CREATE INDEX reports_expires_at ON reports (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE report_inputs (
    report_id INTEGER NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    digest TEXT NOT NULL REFERENCES blobs (digest),
    PRIMARY KEY (report_id, role)
);
CREATE INDEX report_inputs_digest ON report_inputs (digest);
CREATE TRIGGER blobs_immutable BEFORE UPDATE ON blobs
    BEGIN SELECT RAISE(ABORT, 'stored inputs are immutable'); END;
CREATE TRIGGER reports_immutable BEFORE UPDATE ON reports
    BEGIN SELECT RAISE(ABORT, 'reports are immutable'); END;
CREATE TRIGGER report_inputs_immutable BEFORE UPDATE ON report_inputs
    BEGIN SELECT RAISE(ABORT, 'reports are immutable'); END;
"""



class SQLiteReportStore(SQLReportStore):
    """A :class:`~ranklens.store.interface.ReportStore` in one SQLite file.

    ``path`` None means :func:`~ranklens.store.location.default_store_path` (``$RANKLENS_STORE``
    or the user's data directory). ``default_ttl`` None means reports never expire unless
    ``put`` is given a ``ttl``. ``clock`` returns UNIX seconds (tests pass a fake one).
    The steps are :class:`~ranklens.store.sql_store.SQLReportStore`'s; this class says how
    SQLite connects, locks, versions its schema and frees pages.
    """

    DIALECT = "SQLite"
    MAX_REPORT_BYTES = SQLITE_MAX_REPORT_BYTES
    ONE_VALUE = "each input is one SQLite value"
    # SQLite has no ADD COLUMN IF NOT EXISTS; the opening IMMEDIATE transaction runs it once.
    MIGRATIONS: ClassVar[Mapping[int, tuple[str, ...]]] = {
        1: ("ALTER TABLE reports ADD COLUMN shared_by TEXT",),
    }

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        limits: StoreLimits | None = None,
        default_ttl: timedelta | None = None,
        busy_timeout: timedelta = timedelta(seconds=30),
        compression_level: int = codec.DEFAULT_ZLIB_LEVEL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = Path(path) if path is not None else default_store_path()
        super().__init__(limits=limits, default_ttl=default_ttl,
                         compression_level=compression_level, clock=clock)
        self._busy_timeout_s = busy_timeout.total_seconds()
        self._initialize()

    def _where(self) -> str:
        return str(self.path)

    # -- connections, locks and schema ----------------------------------------------------

    @contextlib.contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        """A new connection in autocommit mode (transactions are begun explicitly), closed after."""
        conn = sqlite3.connect(
            self.path, timeout=self._busy_timeout_s, isolation_level=None
        )
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            yield conn
        finally:
            conn.close()

    @contextlib.contextmanager
    def _transaction(self, conn: sqlite3.Connection, mode: str) -> Iterator[None]:
        """``BEGIN <mode>`` … ``COMMIT``, or ``ROLLBACK`` if the block raises."""
        conn.execute(f"BEGIN {mode}")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _write_transaction(
        self, conn: sqlite3.Connection
    ) -> contextlib.AbstractContextManager[None]:
        # IMMEDIATE takes SQLite's one write lock at BEGIN (waiting up to busy_timeout), so
        # the size check and the inserts see a total no other writer can change.
        return self._transaction(conn, "IMMEDIATE")

    def _read_transaction(
        self, conn: sqlite3.Connection
    ) -> contextlib.AbstractContextManager[None]:
        # DEFERRED takes no lock until the first read; in WAL mode it then reads one snapshot
        # and never waits for writers.
        return self._transaction(conn, "DEFERRED")

    def _initialize(self) -> None:
        """Create the file and schema if needed, retrying while other openers hold locks.

        SQLite does not call the busy handler for every lock that switching to WAL needs
        (it answers "database is locked" at once to avoid deadlocks), so when many threads
        or processes open a new file together some must retry, up to the busy timeout.
        """
        deadline = time.monotonic() + self._busy_timeout_s
        while True:
            try:
                self._initialize_once()
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(random.uniform(0.005, 0.05))

    def _initialize_once(self) -> None:
        if not self.path.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            # Reports may hold unpublished runs: keep the file (and its -wal/-shm, which
            # SQLite creates with the same mode) readable by the owner only.
            with contextlib.suppress(FileExistsError):
                os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        with self._connection() as conn:
            # auto_vacuum only takes effect before the first table exists; later it is a no-op.
            conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
            if str(mode).lower() != "wal":
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"could not switch {self.path} to WAL mode (got {mode!r})")
            with self._write_transaction(conn):
                self._ensure_schema(conn)

    def _schema_version(self, conn: sqlite3.Connection) -> int | None:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        return version or None  # a new file's user_version is 0

    def _create_schema(self, conn: sqlite3.Connection) -> None:
        # executescript() would COMMIT the open transaction first, so run statements one by one.
        for statement in _split_statements(_SCHEMA):
            conn.execute(statement)

    def _set_schema_version(self, conn: sqlite3.Connection, version: int, *,
                            created: bool) -> None:
        conn.execute(f"PRAGMA user_version = {int(version)}")

    # -- statements whose syntax differs ----------------------------------------------------

    def _existing_digests(
        self, conn: sqlite3.Connection, digests: Mapping[str, object]
    ) -> set[str]:
        keys = list(digests)
        if not keys:
            return set()
        placeholders = ",".join("?" * len(keys))
        rows = conn.execute(
            f"SELECT digest FROM blobs WHERE digest IN ({placeholders})", keys
        ).fetchall()
        return {r[0] for r in rows}

    def _insert_report(self, conn: sqlite3.Connection, sql: str, values: Sequence[object]) -> int:
        cursor = conn.execute(sql, values)
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def _execute_many(self, conn: sqlite3.Connection, sql: str,
                      rows: list[tuple[object, ...]]) -> None:
        conn.executemany(sql, rows)

    def _after_removal(self, conn: sqlite3.Connection) -> None:
        conn.executescript("PRAGMA incremental_vacuum;")  # execute() frees only one page

    def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` answer (``"ok"`` when the file is sound)."""
        with self._connection() as conn:
            rows = conn.execute("PRAGMA integrity_check").fetchall()
            fk_problems = conn.execute("PRAGMA foreign_key_check").fetchall()
        answer = "\n".join(str(r[0]) for r in rows)
        if fk_problems:
            answer += f"\nforeign key violations: {fk_problems!r}"
        return answer


def _split_statements(script: str) -> list[str]:
    statements, buffer = [], ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    return [s for s in statements if s]


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(exc) or "busy" in str(exc)
