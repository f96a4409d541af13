"""The report store on a PostgreSQL server, for several app replicas behind a load balancer.

Same layout and guarantees as the SQLite store, in a schema ``ranklens`` of the database the
URL names: ``blobs`` holds each distinct input once, keyed by sha256 and compressed;
``reports`` holds parameters and metadata, found by the sha256 of the share token;
``report_inputs`` links a report's roles to blobs; triggers refuse every UPDATE. The schema is
created on first use and versioned in ``ranklens.schema_version``; an older schema is migrated
in place on opening (`_MIGRATIONS`; schema 2 added ``reports.shared_by``), a newer one than
this ranklens reads is refused in words.

Every operation opens its own connection (one store object is safe to share between threads,
and replicas share nothing but the server). A report is written in one transaction, so a
client killed mid-write leaves it whole or absent: the server rolls back when the connection
drops. Writers (put, delete, purge) take one transaction-scoped advisory lock, so the store's
size limit is checked against a total no concurrent writer can change, as SQLite's single
writer does; readers never wait for it.

A server that cannot be reached, refuses, or goes away mid-operation raises
:class:`~ranklens.store.errors.StoreUnavailable` ("share links are unavailable: ..."), with
the URL's password left out.
"""

from __future__ import annotations

import contextlib
import hmac
import time
from collections.abc import Callable, Iterator, Mapping
from datetime import timedelta
from typing import Any

import psycopg
from psycopg import IsolationLevel
from psycopg.conninfo import conninfo_to_dict

import ranklens
from ranklens.store import codec
from ranklens.store.errors import ReportNotFound, StoreError, StoreUnavailable
from ranklens.store.interface import StoreUsage
from ranklens.store.limits import StoreLimits
from ranklens.store.location import is_postgres_url, redact_url
from ranklens.store.prepared import check_ttl, prepare_report
from ranklens.store.snapshot import Snapshot, check_shared_by
from ranklens.store.stored import snapshot_from_rows
from ranklens.store.tokens import ReportToken, new_token, parse_token, token_digest

SCHEMA_VERSION = 2
# PostgreSQL refuses a bytea value over 1 GB; every input is one value.
POSTGRES_MAX_REPORT_BYTES = 900_000_000
DEFAULT_CONNECT_TIMEOUT_S = 5
# pg_advisory_xact_lock key of the store's single writer: "ranklens" in ASCII.
_WRITE_LOCK_KEY = 0x72616E6B6C656E73

_SCHEMA = [
    "CREATE SCHEMA IF NOT EXISTS ranklens",
    """CREATE TABLE ranklens.blobs (
        digest TEXT PRIMARY KEY,
        raw_size BIGINT NOT NULL,
        stored_size BIGINT NOT NULL,
        codec TEXT NOT NULL,
        data BYTEA NOT NULL
    )""",
    """CREATE TABLE ranklens.reports (
        id BIGSERIAL PRIMARY KEY,
        token_digest BYTEA NOT NULL UNIQUE,
        params_json TEXT NOT NULL,
        params_size BIGINT NOT NULL,
        ranklens_version TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        expires_at DOUBLE PRECISION,
        shared_by TEXT
    )""",
    "CREATE INDEX reports_expires_at ON ranklens.reports (expires_at) "
    "WHERE expires_at IS NOT NULL",
    """CREATE TABLE ranklens.report_inputs (
        report_id BIGINT NOT NULL REFERENCES ranklens.reports (id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        digest TEXT NOT NULL REFERENCES ranklens.blobs (digest),
        PRIMARY KEY (report_id, role)
    )""",
    "CREATE INDEX report_inputs_digest ON ranklens.report_inputs (digest)",
    """CREATE FUNCTION ranklens.refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'ranklens.% rows are immutable', TG_TABLE_NAME; END $$""",
    "CREATE TRIGGER blobs_immutable BEFORE UPDATE ON ranklens.blobs "
    "FOR EACH ROW EXECUTE FUNCTION ranklens.refuse_update()",
    "CREATE TRIGGER reports_immutable BEFORE UPDATE ON ranklens.reports "
    "FOR EACH ROW EXECUTE FUNCTION ranklens.refuse_update()",
    "CREATE TRIGGER report_inputs_immutable BEFORE UPDATE ON ranklens.report_inputs "
    "FOR EACH ROW EXECUTE FUNCTION ranklens.refuse_update()",
    "CREATE TABLE ranklens.schema_version (version INTEGER NOT NULL)",
]

# The statements that bring a store of schema N to N + 1, run under the writers' lock.
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: ("ALTER TABLE ranklens.reports ADD COLUMN IF NOT EXISTS shared_by TEXT",),
}

_DELETE_UNUSED_BLOBS = (
    "DELETE FROM ranklens.blobs WHERE NOT EXISTS "
    "(SELECT 1 FROM ranklens.report_inputs ri WHERE ri.digest = blobs.digest)"
)


class PostgresReportStore:
    """A :class:`~ranklens.store.interface.ReportStore` in a PostgreSQL database.

    ``url`` is a ``postgresql://user:password@host:port/dbname`` URL (libpq's parameters,
    such as ``sslmode``, may follow ``?``); without ``connect_timeout`` in it, connecting gives
    up after ``DEFAULT_CONNECT_TIMEOUT_S``. The role needs to create the schema ``ranklens`` on
    first use (or own it, created beforehand). ``default_ttl`` and ``clock`` are as for
    :class:`~ranklens.store.sqlite_store.SQLiteReportStore`. Opening connects once to create
    or check the schema, so an unreachable server raises ``StoreUnavailable`` here already.
    """

    def __init__(
        self,
        url: str,
        *,
        limits: StoreLimits | None = None,
        default_ttl: timedelta | None = None,
        compression_level: int = codec.DEFAULT_ZLIB_LEVEL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not is_postgres_url(url):
            raise ValueError("a PostgreSQL store needs a postgresql:// or postgres:// URL")
        self.url = url.strip()
        self.limits = limits or StoreLimits()
        if self.limits.max_report_bytes > POSTGRES_MAX_REPORT_BYTES:
            raise ValueError(
                f"max_report_bytes above {POSTGRES_MAX_REPORT_BYTES:,} is not supported by the "
                "PostgreSQL store (each input is one bytea value, at most 1 GB)"
            )
        if default_ttl is not None:
            check_ttl(default_ttl)
        self.default_ttl = default_ttl
        self._compression_level = compression_level
        self._clock = clock
        try:
            options = conninfo_to_dict(self.url)
        except psycopg.ProgrammingError as exc:
            raise ValueError(f"{redact_url(self.url)} is not a valid PostgreSQL URL") from exc
        self._connect_options: dict[str, Any] = (
            {} if "connect_timeout" in options else {"connect_timeout": DEFAULT_CONNECT_TIMEOUT_S}
        )
        self._initialize()

    def __repr__(self) -> str:
        return f"PostgresReportStore({redact_url(self.url)!r})"

    # -- connections and schema ---------------------------------------------------------

    @contextlib.contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A new autocommit connection (transactions are explicit), closed after.

        Turns the driver's errors into the store's: a server that cannot be reached or went
        away is ``StoreUnavailable``, any other database error ``StoreError``.
        """
        try:
            with psycopg.connect(self.url, autocommit=True, **self._connect_options) as conn:
                yield conn
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            raise StoreUnavailable(
                f"the PostgreSQL store at {redact_url(self.url)} cannot be used "
                f"({_first_line(exc)})") from exc
        except psycopg.Error as exc:
            raise StoreError(f"the PostgreSQL store failed: {_first_line(exc)}") from exc

    @staticmethod
    def _lock_writers(conn: psycopg.Connection[Any]) -> None:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_WRITE_LOCK_KEY,))

    def _initialize(self) -> None:
        """Create the schema if this database has none, migrate an older one; refuse a newer
        one."""
        with self._connection() as conn, conn.transaction():
            self._lock_writers(conn)  # replicas starting together create it once
            exists = conn.execute(
                "SELECT to_regclass('ranklens.schema_version') IS NOT NULL"
            ).fetchone()
            if exists is None or not exists[0]:
                for statement in _SCHEMA:
                    conn.execute(statement)
                conn.execute("INSERT INTO ranklens.schema_version (version) VALUES (%s)",
                             (SCHEMA_VERSION,))
                return
            row = conn.execute("SELECT max(version) FROM ranklens.schema_version").fetchone()
            version = row[0] if row is not None else None
            if version is None:
                raise StoreError(f"{redact_url(self.url)}: ranklens.schema_version is empty")
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{redact_url(self.url)} was written by a newer ranklens (store schema "
                    f"{version}, this version reads {SCHEMA_VERSION})")
            if version < SCHEMA_VERSION:
                for step in range(version, SCHEMA_VERSION):
                    for statement in _MIGRATIONS[step]:
                        conn.execute(statement)
                conn.execute("UPDATE ranklens.schema_version SET version = %s",
                             (SCHEMA_VERSION,))

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

        ``shared_by`` and the errors are as for
        :meth:`SQLiteReportStore.put <ranklens.store.sqlite_store.SQLiteReportStore.put>`, plus
        ``StoreUnavailable`` when the server cannot be used. Expired reports are purged first,
        so they never keep a new report out.
        """
        shared_by = check_shared_by(shared_by)
        report = prepare_report(params, inputs, self.limits)
        if ttl is not None:
            check_ttl(ttl)
        ttl = ttl if ttl is not None else self.default_ttl
        data_by_digest = report.data_by_digest
        token = new_token()

        with self._connection() as conn:
            # Compress outside the write lock; inputs already stored are not compressed again.
            already = _existing_digests(conn, data_by_digest)
            packed = {
                digest: codec.compress(data, self._compression_level)
                for digest, data in data_by_digest.items()
                if digest not in already
            }
            with conn.transaction():
                self._lock_writers(conn)
                now = self._clock()
                _delete_expired(conn, now)
                # Blobs seen before the lock may have been deleted since: pack those now.
                present = _existing_digests(conn, data_by_digest)
                for digest, data in data_by_digest.items():
                    if digest not in present and digest not in packed:
                        packed[digest] = codec.compress(data, self._compression_level)
                new_blobs = {d: p for d, p in packed.items() if d not in present}
                added = report.params_size + sum(len(s) for _, s in new_blobs.values())
                self.limits.check_store(_stored_bytes(conn) + added)
                for digest, (codec_name, stored) in new_blobs.items():
                    self._insert_blob(
                        conn, digest, len(data_by_digest[digest]), codec_name, stored
                    )
                expires_at = now + ttl.total_seconds() if ttl is not None else None
                row = conn.execute(
                    "INSERT INTO ranklens.reports (token_digest, params_json, params_size, "
                    "ranklens_version, created_at, expires_at, shared_by) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id",
                    (token_digest(token), report.params_json, report.params_size,
                     ranklens.__version__, now, expires_at, shared_by),
                ).fetchone()
                assert row is not None
                with conn.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO ranklens.report_inputs (report_id, role, digest) "
                        "VALUES (%s, %s, %s)",
                        [(row[0], role, d) for role, d in report.digest_by_role.items()],
                    )
        return token

    def _insert_blob(
        self, conn: psycopg.Connection[Any], digest: str, raw_size: int, codec_name: str,
        stored: bytes,
    ) -> None:
        """Insert one compressed input (a method so tests can interrupt a write here)."""
        conn.execute(
            "INSERT INTO ranklens.blobs (digest, raw_size, stored_size, codec, data) "
            "VALUES (%s, %s, %s, %s, %s)",
            (digest, raw_size, len(stored), codec_name, stored),
        )

    def get(self, token: str) -> Snapshot:
        """The report behind ``token``; :class:`ReportNotFound` if malformed/unknown/expired.

        Raises :class:`StoreError` (not ``ReportNotFound``) if the stored bytes no longer
        match their digest, ``StoreUnavailable`` when the server cannot be used.
        """
        valid = parse_token(token)
        key = token_digest(valid)
        with self._connection() as conn:
            # Both SELECTs see one snapshot, so a concurrent delete cannot hand back a report
            # without its inputs.
            conn.isolation_level = IsolationLevel.REPEATABLE_READ
            with conn.transaction():
                row = conn.execute(
                    "SELECT id, token_digest, params_json, ranklens_version, created_at, "
                    "expires_at, shared_by FROM ranklens.reports WHERE token_digest = %s",
                    (key,),
                ).fetchone()
                if row is None or not hmac.compare_digest(bytes(row[1]), key):
                    raise ReportNotFound()
                report_id, _, params_json, version, created_at, expires_at, shared_by = row
                if expires_at is not None and expires_at <= self._clock():
                    raise ReportNotFound()
                # Binary results: a bytea in text format would travel hex-encoded, twice its size.
                rows = conn.execute(
                    "SELECT ri.role, b.digest, b.codec, b.data FROM ranklens.report_inputs ri "
                    "JOIN ranklens.blobs b ON b.digest = ri.digest WHERE ri.report_id = %s "
                    "ORDER BY ri.role",
                    (report_id,), binary=True,
                ).fetchall()
        return snapshot_from_rows(valid, params_json, version, created_at, expires_at, rows,
                                  shared_by)

    def delete(self, token: str) -> None:
        """Remove the report behind ``token`` (expired or not) and inputs no report uses.

        :class:`ReportNotFound` if there is no such report (malformed, unknown, deleted).
        """
        key = token_digest(parse_token(token))
        with self._connection() as conn, conn.transaction():
            self._lock_writers(conn)
            row = conn.execute(
                "SELECT id, token_digest FROM ranklens.reports WHERE token_digest = %s", (key,)
            ).fetchone()
            if row is None or not hmac.compare_digest(bytes(row[1]), key):
                raise ReportNotFound()
            conn.execute("DELETE FROM ranklens.reports WHERE id = %s", (row[0],))
            conn.execute(_DELETE_UNUSED_BLOBS)

    def purge_expired(self) -> int:
        """Remove every expired report and the inputs no report uses; answers how many went."""
        with self._connection() as conn, conn.transaction():
            self._lock_writers(conn)
            return _delete_expired(conn, self._clock())

    def usage(self) -> StoreUsage:
        """Counts and sizes now stored, expired-but-not-yet-purged reports included."""
        with self._connection() as conn:
            conn.isolation_level = IsolationLevel.REPEATABLE_READ
            with conn.transaction():
                reports, params_bytes = _one(conn, "SELECT COUNT(*), COALESCE(SUM(params_size), "
                                                   "0) FROM ranklens.reports")
                blobs, unique_bytes, blob_bytes = _one(
                    conn, "SELECT COUNT(*), COALESCE(SUM(raw_size), 0), "
                          "COALESCE(SUM(stored_size), 0) FROM ranklens.blobs")
                (input_bytes,) = _one(
                    conn, "SELECT COALESCE(SUM(b.raw_size), 0) FROM ranklens.report_inputs ri "
                          "JOIN ranklens.blobs b ON b.digest = ri.digest")
        return StoreUsage(
            reports=int(reports),
            blobs=int(blobs),
            input_bytes=int(input_bytes),
            unique_input_bytes=int(unique_bytes),
            stored_bytes=int(blob_bytes) + int(params_bytes),
            max_store_bytes=self.limits.max_store_bytes,
            max_report_bytes=self.limits.max_report_bytes,
        )

    def integrity_check(self) -> str:
        """``"ok"`` when the stored rows agree with each other, else what is wrong.

        Checks what the constraints do not: every blob's stored size is its data's length, and
        the schema version is one this ranklens reads. It does not re-hash the inputs (``get``
        does that for the report it reads).
        """
        problems = []
        with self._connection() as conn:
            (bad_sizes,) = _one(conn, "SELECT COUNT(*) FROM ranklens.blobs "
                                      "WHERE octet_length(data) <> stored_size")
            (version,) = _one(conn, "SELECT max(version) FROM ranklens.schema_version")
        if bad_sizes:
            problems.append(f"{bad_sizes} stored inputs whose size does not match their data")
        if version != SCHEMA_VERSION:
            problems.append(f"schema version {version}, expected {SCHEMA_VERSION}")
        return "\n".join(problems) or "ok"


def _one(conn: psycopg.Connection[Any], sql: str) -> tuple[Any, ...]:
    row = conn.execute(sql).fetchone()
    assert row is not None  # aggregates always answer one row
    return tuple(row)


def _existing_digests(conn: psycopg.Connection[Any], digests: Mapping[str, object]) -> set[str]:
    keys = list(digests)
    if not keys:
        return set()
    rows = conn.execute(
        "SELECT digest FROM ranklens.blobs WHERE digest = ANY(%s)", (keys,)
    ).fetchall()
    return {r[0] for r in rows}


def _stored_bytes(conn: psycopg.Connection[Any]) -> int:
    (blob_bytes,) = _one(conn, "SELECT COALESCE(SUM(stored_size), 0) FROM ranklens.blobs")
    (params_bytes,) = _one(conn, "SELECT COALESCE(SUM(params_size), 0) FROM ranklens.reports")
    return int(blob_bytes) + int(params_bytes)


def _delete_expired(conn: psycopg.Connection[Any], now: float) -> int:
    cursor = conn.execute(
        "DELETE FROM ranklens.reports WHERE expires_at IS NOT NULL AND expires_at <= %s", (now,)
    )
    removed = cursor.rowcount
    if removed:
        conn.execute(_DELETE_UNUSED_BLOBS)
    return removed


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
