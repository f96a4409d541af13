"""The default report store: one SQLite file in WAL mode.

Layout: ``blobs`` holds each distinct input once, keyed by the sha256 of its bytes and
compressed; ``reports`` holds parameters and metadata, keyed by an integer id and found by the
sha256 of the share token; ``report_inputs`` links a report's roles to blobs. Triggers refuse
every UPDATE, so a written report cannot change; it can only be deleted. The schema version is
SQLite's ``user_version``; opening a file of an older schema migrates it in place (`_MIGRATIONS`,
schema 2 added ``reports.shared_by``).

Every operation opens its own connection, so one store object is safe to share between
threads; several processes may use the same file. Writers take the write lock with
``BEGIN IMMEDIATE`` and wait up to ``busy_timeout`` for it. A report is written in one
transaction, so a process killed mid-write leaves it whole or absent.
"""

from __future__ import annotations

import contextlib
import hmac
import os
import random
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

import ranklens
from ranklens.store import codec
from ranklens.store.errors import ReportNotFound, StoreError
from ranklens.store.interface import StoreUsage
from ranklens.store.limits import StoreLimits
from ranklens.store.location import default_store_path
from ranklens.store.prepared import check_ttl, prepare_report
from ranklens.store.snapshot import Snapshot, check_shared_by
from ranklens.store.stored import snapshot_from_rows
from ranklens.store.tokens import ReportToken, new_token, parse_token, token_digest

SCHEMA_VERSION = 2
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

# The statements that bring a store of schema N to N + 1, run in the opening transaction.
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: ("ALTER TABLE reports ADD COLUMN shared_by TEXT",),
}

_DELETE_UNUSED_BLOBS = (
    "DELETE FROM blobs WHERE NOT EXISTS "
    "(SELECT 1 FROM report_inputs ri WHERE ri.digest = blobs.digest)"
)


class SQLiteReportStore:
    """A :class:`~ranklens.store.interface.ReportStore` in one SQLite file.

    ``path`` None means :func:`~ranklens.store.location.default_store_path` (``$RANKLENS_STORE``
    or the user's data directory). ``default_ttl`` None means reports never expire unless
    ``put`` is given a ``ttl``. ``clock`` returns UNIX seconds (tests pass a fake one).
    """

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
        self.limits = limits or StoreLimits()
        if self.limits.max_report_bytes > SQLITE_MAX_REPORT_BYTES:
            raise ValueError(
                f"max_report_bytes above {SQLITE_MAX_REPORT_BYTES:,} is not supported by the "
                "SQLite store (each input is one SQLite value)"
            )
        if default_ttl is not None:
            check_ttl(default_ttl)
        self.default_ttl = default_ttl
        self._busy_timeout_s = busy_timeout.total_seconds()
        self._compression_level = compression_level
        self._clock = clock
        self._initialize()

    # -- connections and schema ---------------------------------------------------------

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
            with self._transaction(conn, "IMMEDIATE"):
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version == 0:
                    _create_schema(conn)
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                elif version < SCHEMA_VERSION:
                    for step in range(version, SCHEMA_VERSION):
                        for statement in _MIGRATIONS[step]:
                            conn.execute(statement)
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                elif version > SCHEMA_VERSION:
                    raise StoreError(
                        f"{self.path} was written by a newer ranklens (store schema {version}, "
                        f"this version reads {SCHEMA_VERSION})"
                    )

    # -- ReportStore ----------------------------------------------------------------------

    def put(
        self,
        params: Mapping[str, Any],
        inputs: Mapping[str, bytes],
        *,
        ttl: timedelta | None = None,
        shared_by: str | None = None,
    ) -> ReportToken:
        """Store a new report in one transaction and return its share token.

        ``shared_by`` records who shared it (one line, see
        :func:`~ranklens.store.snapshot.check_shared_by`). Raises
        :class:`~ranklens.store.errors.StoreLimitError` (naming the limit) when the
        report or the store would be too big, ``ValueError``/``TypeError`` for params that are
        not plain JSON or inputs that are not bytes under a valid role name. Expired reports
        are purged first, so they never keep a new report out.
        """
        shared_by = check_shared_by(shared_by)
        report = prepare_report(params, inputs, self.limits)
        if ttl is not None:
            check_ttl(ttl)
        ttl = ttl if ttl is not None else self.default_ttl
        params_json, params_size = report.params_json, report.params_size
        data_by_digest, digest_by_role = report.data_by_digest, report.digest_by_role
        token = new_token()

        with self._connection() as conn:
            # Compress outside the write lock; inputs already stored are not compressed again.
            already = _existing_digests(conn, data_by_digest)
            packed = {
                digest: codec.compress(data, self._compression_level)
                for digest, data in data_by_digest.items()
                if digest not in already
            }
            with self._transaction(conn, "IMMEDIATE"):
                now = self._clock()
                _delete_expired(conn, now)
                # Blobs seen before the lock may have been deleted since: pack those now.
                present = _existing_digests(conn, data_by_digest)
                for digest, data in data_by_digest.items():
                    if digest not in present and digest not in packed:
                        packed[digest] = codec.compress(data, self._compression_level)
                new_blobs = {d: p for d, p in packed.items() if d not in present}
                added = params_size + sum(len(stored) for _, stored in new_blobs.values())
                self.limits.check_store(_stored_bytes(conn) + added)
                for digest, (codec_name, stored) in new_blobs.items():
                    self._insert_blob(
                        conn, digest, len(data_by_digest[digest]), codec_name, stored
                    )
                expires_at = now + ttl.total_seconds() if ttl is not None else None
                cursor = conn.execute(
                    "INSERT INTO reports (token_digest, params_json, params_size, "
                    "ranklens_version, created_at, expires_at, shared_by) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (token_digest(token), params_json, params_size, ranklens.__version__,
                     now, expires_at, shared_by),
                )
                conn.executemany(
                    "INSERT INTO report_inputs (report_id, role, digest) VALUES (?, ?, ?)",
                    [(cursor.lastrowid, role, d) for role, d in digest_by_role.items()],
                )
        return token

    def _insert_blob(
        self, conn: sqlite3.Connection, digest: str, raw_size: int, codec_name: str,
        stored: bytes,
    ) -> None:
        """Insert one compressed input (a method so tests can interrupt a write here)."""
        conn.execute(
            "INSERT INTO blobs (digest, raw_size, stored_size, codec, data) "
            "VALUES (?, ?, ?, ?, ?)",
            (digest, raw_size, len(stored), codec_name, stored),
        )

    def get(self, token: str) -> Snapshot:
        """The report behind ``token``; :class:`ReportNotFound` if malformed/unknown/expired.

        Raises :class:`StoreError` (not ``ReportNotFound``) if the stored bytes no longer
        match their digest, i.e. the file is damaged.
        """
        valid = parse_token(token)
        key = token_digest(valid)
        # One read transaction: both SELECTs see the same WAL snapshot, so a concurrent
        # delete cannot hand back a report without its inputs.
        with self._connection() as conn, self._transaction(conn, "DEFERRED"):
            row = conn.execute(
                "SELECT id, token_digest, params_json, ranklens_version, created_at, "
                "expires_at, shared_by FROM reports WHERE token_digest = ?",
                (key,),
            ).fetchone()
            if row is None or not hmac.compare_digest(bytes(row[1]), key):
                raise ReportNotFound()
            report_id, _, params_json, version, created_at, expires_at, shared_by = row
            if expires_at is not None and expires_at <= self._clock():
                raise ReportNotFound()
            rows = conn.execute(
                "SELECT ri.role, b.digest, b.codec, b.data FROM report_inputs ri "
                "JOIN blobs b ON b.digest = ri.digest WHERE ri.report_id = ? ORDER BY ri.role",
                (report_id,),
            ).fetchall()
        return snapshot_from_rows(valid, params_json, version, created_at, expires_at, rows,
                                  shared_by)

    def delete(self, token: str) -> None:
        """Remove the report behind ``token`` (expired or not) and inputs no report uses.

        :class:`ReportNotFound` if there is no such report (malformed, unknown, deleted).
        """
        key = token_digest(parse_token(token))
        with self._connection() as conn:
            with self._transaction(conn, "IMMEDIATE"):
                row = conn.execute(
                    "SELECT id, token_digest FROM reports WHERE token_digest = ?", (key,)
                ).fetchone()
                if row is None or not hmac.compare_digest(bytes(row[1]), key):
                    raise ReportNotFound()
                conn.execute("DELETE FROM reports WHERE id = ?", (row[0],))
                conn.execute(_DELETE_UNUSED_BLOBS)
            conn.executescript("PRAGMA incremental_vacuum;")  # execute() frees only one page

    def purge_expired(self) -> int:
        """Remove every expired report and the inputs no report uses; answers how many went."""
        with self._connection() as conn:
            with self._transaction(conn, "IMMEDIATE"):
                removed = _delete_expired(conn, self._clock())
            conn.executescript("PRAGMA incremental_vacuum;")  # execute() frees only one page
        return removed

    def usage(self) -> StoreUsage:
        """Counts and sizes now stored, expired-but-not-yet-purged reports included."""
        with self._connection() as conn, self._transaction(conn, "DEFERRED"):
            reports, params_bytes = conn.execute(
                "SELECT COUNT(*), COALESCE(SUM(params_size), 0) FROM reports"
            ).fetchone()
            blobs, unique_bytes, blob_bytes = conn.execute(
                "SELECT COUNT(*), COALESCE(SUM(raw_size), 0), COALESCE(SUM(stored_size), 0) "
                "FROM blobs"
            ).fetchone()
            (input_bytes,) = conn.execute(
                "SELECT COALESCE(SUM(b.raw_size), 0) FROM report_inputs ri "
                "JOIN blobs b ON b.digest = ri.digest"
            ).fetchone()
        return StoreUsage(
            reports=reports,
            blobs=blobs,
            input_bytes=input_bytes,
            unique_input_bytes=unique_bytes,
            stored_bytes=blob_bytes + params_bytes,
            max_store_bytes=self.limits.max_store_bytes,
            max_report_bytes=self.limits.max_report_bytes,
        )

    def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` answer (``"ok"`` when the file is sound)."""
        with self._connection() as conn:
            rows = conn.execute("PRAGMA integrity_check").fetchall()
            fk_problems = conn.execute("PRAGMA foreign_key_check").fetchall()
        answer = "\n".join(str(r[0]) for r in rows)
        if fk_problems:
            answer += f"\nforeign key violations: {fk_problems!r}"
        return answer


def _create_schema(conn: sqlite3.Connection) -> None:
    # executescript() would COMMIT the open transaction first, so run statements one by one.
    for statement in _split_statements(_SCHEMA):
        conn.execute(statement)


def _split_statements(script: str) -> list[str]:
    statements, buffer = [], ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    return [s for s in statements if s]


def _existing_digests(conn: sqlite3.Connection, digests: Mapping[str, object]) -> set[str]:
    keys = list(digests)
    if not keys:
        return set()
    placeholders = ",".join("?" * len(keys))
    rows = conn.execute(
        f"SELECT digest FROM blobs WHERE digest IN ({placeholders})", keys
    ).fetchall()
    return {r[0] for r in rows}


def _stored_bytes(conn: sqlite3.Connection) -> int:
    (blob_bytes,) = conn.execute("SELECT COALESCE(SUM(stored_size), 0) FROM blobs").fetchone()
    (params_bytes,) = conn.execute(
        "SELECT COALESCE(SUM(params_size), 0) FROM reports"
    ).fetchone()
    return int(blob_bytes) + int(params_bytes)


def _delete_expired(conn: sqlite3.Connection, now: float) -> int:
    cursor = conn.execute(
        "DELETE FROM reports WHERE expires_at IS NOT NULL AND expires_at <= ?", (now,)
    )
    removed = cursor.rowcount
    if removed:
        conn.execute(_DELETE_UNUSED_BLOBS)
    return removed


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(exc) or "busy" in str(exc)
