"""What the SQLite and PostgreSQL report stores do alike, written once.

Both keep the same three tables (``blobs``: each distinct input once, keyed by sha256 and
compressed; ``reports``: parameters and metadata, found by the sha256 of the share token;
``report_inputs``: a report's roles linked to blobs) and give the same guarantees: a report is
written in one transaction under the store's single writer, so it is whole or absent and the
size limit is checked against a total no concurrent writer can change; a report is read in one
snapshot, so a concurrent delete cannot hand it back without its inputs; an older schema is
migrated when the store opens, a newer one refused in words.

`SQLReportStore` holds those steps: the put/get/delete/purge flow, the usage counts, the limit
checks and the schema's create/migrate/refuse decision. A dialect subclass says only what
differs, in small hooks: how to connect (and which driver errors become which store error),
how a write lock and a read snapshot are taken (SQLite and PostgreSQL do this differently on
purpose, see each module), where the schema version lives, and the few statements whose syntax
differs. Shared statements are written with ``?`` placeholders and ``{s}`` before each table
name; `SQLReportStore._sql` turns them into the dialect's.
"""

from __future__ import annotations

import contextlib
import hmac
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from typing import Any, ClassVar

import ranklens
from ranklens.store import codec
from ranklens.store.errors import ReportNotFound, StoreError
from ranklens.store.interface import StoreUsage
from ranklens.store.limits import StoreLimits
from ranklens.store.prepared import check_ttl, prepare_report
from ranklens.store.snapshot import Snapshot, check_shared_by
from ranklens.store.stored import InputRow, snapshot_from_rows
from ranklens.store.tokens import ReportToken, new_token, parse_token, token_digest

SCHEMA_VERSION = 2

Connection = Any
"""An open connection of the dialect's driver (``sqlite3.Connection``, ``psycopg.Connection``).

Both drivers' ``execute`` answers a cursor with ``fetchone``/``fetchall``/``rowcount``, which is
all the shared steps use."""

_SELECT_REPORT = (
    "SELECT id, token_digest, params_json, ranklens_version, created_at, expires_at, shared_by "
    "FROM {s}reports WHERE token_digest = ?"
)
_SELECT_REPORT_ID = "SELECT id, token_digest FROM {s}reports WHERE token_digest = ?"
_SELECT_INPUTS = (
    "SELECT ri.role, b.digest, b.codec, b.data FROM {s}report_inputs ri "
    "JOIN {s}blobs b ON b.digest = ri.digest WHERE ri.report_id = ? ORDER BY ri.role"
)
_INSERT_BLOB = (
    "INSERT INTO {s}blobs (digest, raw_size, stored_size, codec, data) VALUES (?, ?, ?, ?, ?)"
)
_INSERT_REPORT = (
    "INSERT INTO {s}reports (token_digest, params_json, params_size, ranklens_version, "
    "created_at, expires_at, shared_by) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_INPUT = "INSERT INTO {s}report_inputs (report_id, role, digest) VALUES (?, ?, ?)"
_DELETE_REPORT = "DELETE FROM {s}reports WHERE id = ?"
_DELETE_EXPIRED = "DELETE FROM {s}reports WHERE expires_at IS NOT NULL AND expires_at <= ?"
_DELETE_UNUSED_BLOBS = (
    "DELETE FROM {s}blobs WHERE NOT EXISTS "
    "(SELECT 1 FROM {s}report_inputs ri WHERE ri.digest = blobs.digest)"
)
_STORED_BLOB_BYTES = "SELECT COALESCE(SUM(stored_size), 0) FROM {s}blobs"
_STORED_PARAMS_BYTES = "SELECT COALESCE(SUM(params_size), 0) FROM {s}reports"
_REPORT_TOTALS = "SELECT COUNT(*), COALESCE(SUM(params_size), 0) FROM {s}reports"
_BLOB_TOTALS = (
    "SELECT COUNT(*), COALESCE(SUM(raw_size), 0), COALESCE(SUM(stored_size), 0) FROM {s}blobs"
)
_INPUT_TOTAL = (
    "SELECT COALESCE(SUM(b.raw_size), 0) FROM {s}report_inputs ri "
    "JOIN {s}blobs b ON b.digest = ri.digest"
)


class SQLReportStore:
    """The dialect-independent half of a SQL :class:`~ranklens.store.interface.ReportStore`.

    Not usable alone: a subclass sets the class attributes below (``TABLE_PREFIX`` and
    ``PLACEHOLDER`` only where its SQL differs from SQLite's) and implements the hooks
    (the methods that raise ``NotImplementedError``), then calls ``super().__init__`` and
    ``self._initialize()`` from its own ``__init__``.
    """

    DIALECT: ClassVar[str]  # "SQLite", "PostgreSQL": named in messages
    MAX_REPORT_BYTES: ClassVar[int]  # the largest report the dialect can hold
    ONE_VALUE: ClassVar[str]  # why: "each input is one SQLite value"
    # The shared statements are written as SQLite reads them: tables without a schema, "?"
    # for a parameter. A dialect that reads them otherwise sets its own.
    TABLE_PREFIX: ClassVar[str] = ""  # what stands before a table name ("ranklens.")
    PLACEHOLDER: ClassVar[str] = "?"  # the driver's parameter marker ("%s")
    # The statements that bring a store of schema N to N + 1, run in the opening write
    # transaction.
    MIGRATIONS: ClassVar[Mapping[int, tuple[str, ...]]]

    def __init__(
        self,
        *,
        limits: StoreLimits | None,
        default_ttl: timedelta | None,
        compression_level: int,
        clock: Callable[[], float],
    ) -> None:
        self.limits = limits or StoreLimits()
        if self.limits.max_report_bytes > self.MAX_REPORT_BYTES:
            raise ValueError(
                f"max_report_bytes above {self.MAX_REPORT_BYTES:,} is not supported by the "
                f"{self.DIALECT} store ({self.ONE_VALUE})"
            )
        if default_ttl is not None:
            check_ttl(default_ttl)
        self.default_ttl = default_ttl
        self._compression_level = compression_level
        self._clock = clock

    # -- dialect hooks --------------------------------------------------------------------

    def _where(self) -> str:
        """The store's location as messages name it (without credentials)."""
        raise NotImplementedError

    def _connection(self) -> contextlib.AbstractContextManager[Connection]:
        """A new connection in autocommit mode (transactions are explicit), closed after."""
        raise NotImplementedError

    def _write_transaction(self, conn: Connection) -> contextlib.AbstractContextManager[None]:
        """A transaction holding the store's single write lock; rolled back if the block raises."""
        raise NotImplementedError

    def _read_transaction(self, conn: Connection) -> contextlib.AbstractContextManager[None]:
        """A transaction whose statements all see one snapshot, taking no write lock."""
        raise NotImplementedError

    def _existing_digests(self, conn: Connection, digests: Mapping[str, object]) -> set[str]:
        """Which of ``digests`` have a stored blob."""
        raise NotImplementedError

    def _insert_report(self, conn: Connection, sql: str, values: Sequence[object]) -> int:
        """Run the report's INSERT ``sql`` and answer the new row's id."""
        raise NotImplementedError

    def _execute_many(self, conn: Connection, sql: str, rows: list[tuple[object, ...]]) -> None:
        """Run ``sql`` once per row."""
        raise NotImplementedError

    def _select_inputs(self, conn: Connection, sql: str, report_id: int) -> list[InputRow]:
        """The (role, digest, codec, stored bytes) rows ``sql`` selects for ``report_id``."""
        return list(conn.execute(sql, (report_id,)).fetchall())

    def _after_removal(self, conn: Connection) -> None:
        """Run after a delete or purge has committed (SQLite gives the freed pages back)."""

    def _schema_version(self, conn: Connection) -> int | None:
        """The stored schema version; None when the store has no schema yet."""
        raise NotImplementedError

    def _create_schema(self, conn: Connection) -> None:
        """Create every table, index and trigger of the current schema."""
        raise NotImplementedError

    def _set_schema_version(self, conn: Connection, version: int, *, created: bool) -> None:
        """Record ``version``; ``created`` when the schema was created just now."""
        raise NotImplementedError

    # -- schema ---------------------------------------------------------------------------

    def _initialize(self) -> None:
        """Create the schema if the store has none, migrate an older one; refuse a newer one."""
        with self._connection() as conn, self._write_transaction(conn):
            self._ensure_schema(conn)

    def _ensure_schema(self, conn: Connection) -> None:
        """The create/migrate/refuse decision, inside the caller's write transaction (so
        openers starting together create or migrate the schema once)."""
        version = self._schema_version(conn)
        if version is None:
            self._create_schema(conn)
            self._set_schema_version(conn, SCHEMA_VERSION, created=True)
        elif version > SCHEMA_VERSION:
            raise StoreError(
                f"{self._where()} was written by a newer ranklens (store schema {version}, "
                f"this version reads {SCHEMA_VERSION})"
            )
        elif version < SCHEMA_VERSION:
            for step in range(version, SCHEMA_VERSION):
                for statement in self.MIGRATIONS[step]:
                    conn.execute(statement)
            self._set_schema_version(conn, SCHEMA_VERSION, created=False)

    def _sql(self, template: str) -> str:
        """A shared statement in this dialect: table prefix and placeholders filled in."""
        return template.replace("{s}", self.TABLE_PREFIX).replace("?", self.PLACEHOLDER)

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
        not plain JSON or inputs that are not bytes under a valid role name (and
        ``StoreUnavailable`` when a server cannot be used). Expired reports are purged first,
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
            already = self._existing_digests(conn, data_by_digest)
            packed = {
                digest: codec.compress(data, self._compression_level)
                for digest, data in data_by_digest.items()
                if digest not in already
            }
            with self._write_transaction(conn):
                now = self._clock()
                self._delete_expired(conn, now)
                # Blobs seen before the lock may have been deleted since: pack those now.
                present = self._existing_digests(conn, data_by_digest)
                for digest, data in data_by_digest.items():
                    if digest not in present and digest not in packed:
                        packed[digest] = codec.compress(data, self._compression_level)
                new_blobs = {d: p for d, p in packed.items() if d not in present}
                added = report.params_size + sum(len(s) for _, s in new_blobs.values())
                self.limits.check_store(self._stored_bytes(conn) + added)
                for digest, (codec_name, stored) in new_blobs.items():
                    self._insert_blob(
                        conn, digest, len(data_by_digest[digest]), codec_name, stored
                    )
                expires_at = now + ttl.total_seconds() if ttl is not None else None
                report_id = self._insert_report(
                    conn, self._sql(_INSERT_REPORT),
                    (token_digest(token), report.params_json, report.params_size,
                     ranklens.__version__, now, expires_at, shared_by),
                )
                self._execute_many(
                    conn, self._sql(_INSERT_INPUT),
                    [(report_id, role, d) for role, d in report.digest_by_role.items()],
                )
        return token

    def _insert_blob(
        self, conn: Connection, digest: str, raw_size: int, codec_name: str, stored: bytes
    ) -> None:
        """Insert one compressed input (a method so tests can interrupt a write here)."""
        conn.execute(self._sql(_INSERT_BLOB), (digest, raw_size, len(stored), codec_name, stored))

    def get(self, token: str) -> Snapshot:
        """The report behind ``token``; :class:`ReportNotFound` if malformed/unknown/expired.

        Raises :class:`StoreError` (not ``ReportNotFound``) if the stored bytes no longer
        match their digest, i.e. the store is damaged (``StoreUnavailable`` when a server
        cannot be used).
        """
        valid = parse_token(token)
        key = token_digest(valid)
        # One read transaction: both SELECTs see the same snapshot, so a concurrent delete
        # cannot hand back a report without its inputs.
        with self._connection() as conn, self._read_transaction(conn):
            row = conn.execute(self._sql(_SELECT_REPORT), (key,)).fetchone()
            if row is None or not hmac.compare_digest(bytes(row[1]), key):
                raise ReportNotFound()
            report_id, _, params_json, version, created_at, expires_at, shared_by = row
            if expires_at is not None and expires_at <= self._clock():
                raise ReportNotFound()
            rows = self._select_inputs(conn, self._sql(_SELECT_INPUTS), report_id)
        return snapshot_from_rows(valid, params_json, version, created_at, expires_at, rows,
                                  shared_by)

    def delete(self, token: str) -> None:
        """Remove the report behind ``token`` (expired or not) and inputs no report uses.

        :class:`ReportNotFound` if there is no such report (malformed, unknown, deleted).
        """
        key = token_digest(parse_token(token))
        with self._connection() as conn:
            with self._write_transaction(conn):
                row = conn.execute(self._sql(_SELECT_REPORT_ID), (key,)).fetchone()
                if row is None or not hmac.compare_digest(bytes(row[1]), key):
                    raise ReportNotFound()
                conn.execute(self._sql(_DELETE_REPORT), (row[0],))
                conn.execute(self._sql(_DELETE_UNUSED_BLOBS))
            self._after_removal(conn)

    def purge_expired(self) -> int:
        """Remove every expired report and the inputs no report uses; answers how many went."""
        with self._connection() as conn:
            with self._write_transaction(conn):
                removed = self._delete_expired(conn, self._clock())
            self._after_removal(conn)
        return removed

    def usage(self) -> StoreUsage:
        """Counts and sizes now stored, expired-but-not-yet-purged reports included."""
        with self._connection() as conn, self._read_transaction(conn):
            reports, params_bytes = fetch_one(conn, self._sql(_REPORT_TOTALS))
            blobs, unique_bytes, blob_bytes = fetch_one(conn, self._sql(_BLOB_TOTALS))
            (input_bytes,) = fetch_one(conn, self._sql(_INPUT_TOTAL))
        return StoreUsage(
            reports=int(reports),
            blobs=int(blobs),
            input_bytes=int(input_bytes),
            unique_input_bytes=int(unique_bytes),
            stored_bytes=int(blob_bytes) + int(params_bytes),
            max_store_bytes=self.limits.max_store_bytes,
            max_report_bytes=self.limits.max_report_bytes,
        )

    # -- steps inside a write transaction -------------------------------------------------

    def _stored_bytes(self, conn: Connection) -> int:
        """What the store-wide size limit counts now: compressed blobs plus parameters."""
        (blob_bytes,) = fetch_one(conn, self._sql(_STORED_BLOB_BYTES))
        (params_bytes,) = fetch_one(conn, self._sql(_STORED_PARAMS_BYTES))
        return int(blob_bytes) + int(params_bytes)

    def _delete_expired(self, conn: Connection, now: float) -> int:
        """Delete reports expired at ``now`` and the blobs left unused; answers how many."""
        removed = int(conn.execute(self._sql(_DELETE_EXPIRED), (now,)).rowcount)
        if removed:
            conn.execute(self._sql(_DELETE_UNUSED_BLOBS))
        return removed


def fetch_one(conn: Connection, sql: str) -> tuple[Any, ...]:
    """The one row an aggregate ``sql`` answers."""
    row = conn.execute(sql).fetchone()
    assert row is not None  # aggregates always answer one row
    return tuple(row)

