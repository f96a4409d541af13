"""The report store on a PostgreSQL server, for several app replicas behind a load balancer.

Same layout and guarantees as the SQLite store, in a schema ``ranklens`` of the database the
URL names: ``blobs`` holds each distinct input once, keyed by sha256 and compressed;
``reports`` holds parameters and metadata, found by the sha256 of the share token;
``report_inputs`` links a report's roles to blobs; triggers refuse every UPDATE. The schema is
created on first use and versioned in ``ranklens.schema_version``; an older schema is migrated
in place on opening (`MIGRATIONS`; schema 2 added ``reports.shared_by``), a newer one than
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
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import timedelta
from typing import Any, ClassVar

import psycopg
from psycopg import IsolationLevel
from psycopg.conninfo import conninfo_to_dict

from ranklens.store import codec
from ranklens.store.errors import StoreError, StoreUnavailable
from ranklens.store.limits import StoreLimits
from ranklens.store.location import is_postgres_url, redact_url
from ranklens.store.sql_store import SCHEMA_VERSION, SQLReportStore, fetch_one
from ranklens.store.stored import InputRow

__all__ = ["POSTGRES_MAX_REPORT_BYTES", "SCHEMA_VERSION", "PostgresReportStore"]

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



class PostgresReportStore(SQLReportStore):
    """A :class:`~ranklens.store.interface.ReportStore` in a PostgreSQL database.

    ``url`` is a ``postgresql://user:password@host:port/dbname`` URL (libpq's parameters,
    such as ``sslmode``, may follow ``?``); without ``connect_timeout`` in it, connecting gives
    up after ``DEFAULT_CONNECT_TIMEOUT_S``. The role needs to create the schema ``ranklens`` on
    first use (or own it, created beforehand). ``default_ttl`` and ``clock`` are as for
    :class:`~ranklens.store.sqlite_store.SQLiteReportStore`. Opening connects once to create
    or check the schema, so an unreachable server raises ``StoreUnavailable`` here already.
    The steps are :class:`~ranklens.store.sql_store.SQLReportStore`'s; this class says how
    PostgreSQL connects, locks and versions its schema.
    """

    DIALECT = "PostgreSQL"
    MAX_REPORT_BYTES = POSTGRES_MAX_REPORT_BYTES
    ONE_VALUE = "each input is one bytea value, at most 1 GB"
    TABLE_PREFIX = "ranklens."
    PLACEHOLDER = "%s"
    MIGRATIONS: ClassVar[Mapping[int, tuple[str, ...]]] = {
        1: ("ALTER TABLE ranklens.reports ADD COLUMN IF NOT EXISTS shared_by TEXT",),
    }

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
        super().__init__(limits=limits, default_ttl=default_ttl,
                         compression_level=compression_level, clock=clock)
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

    def _where(self) -> str:
        return redact_url(self.url)

    # -- connections, locks and schema ----------------------------------------------------

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

    @contextlib.contextmanager
    def _write_transaction(self, conn: psycopg.Connection[Any]) -> Iterator[None]:
        # Writers (put, delete, purge, opening) serialise on one transaction-scoped advisory
        # lock, released at COMMIT/ROLLBACK or when the connection drops; readers never take it.
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_WRITE_LOCK_KEY,))
            yield

    @contextlib.contextmanager
    def _read_transaction(self, conn: psycopg.Connection[Any]) -> Iterator[None]:
        # REPEATABLE READ: every statement of the transaction sees one snapshot.
        conn.isolation_level = IsolationLevel.REPEATABLE_READ
        with conn.transaction():
            yield

    def _schema_version(self, conn: psycopg.Connection[Any]) -> int | None:
        (exists,) = fetch_one(conn, "SELECT to_regclass('ranklens.schema_version') IS NOT NULL")
        if not exists:
            return None
        (version,) = fetch_one(conn, "SELECT max(version) FROM ranklens.schema_version")
        if version is None:
            raise StoreError(f"{redact_url(self.url)}: ranklens.schema_version is empty")
        return int(version)

    def _create_schema(self, conn: psycopg.Connection[Any]) -> None:
        for statement in _SCHEMA:
            conn.execute(statement)

    def _set_schema_version(self, conn: psycopg.Connection[Any], version: int, *,
                            created: bool) -> None:
        if created:
            conn.execute("INSERT INTO ranklens.schema_version (version) VALUES (%s)", (version,))
        else:
            conn.execute("UPDATE ranklens.schema_version SET version = %s", (version,))

    # -- statements whose syntax differs --------------------------------------------------

    def _existing_digests(
        self, conn: psycopg.Connection[Any], digests: Mapping[str, object]
    ) -> set[str]:
        keys = list(digests)
        if not keys:
            return set()
        rows = conn.execute(
            "SELECT digest FROM ranklens.blobs WHERE digest = ANY(%s)", (keys,)
        ).fetchall()
        return {r[0] for r in rows}

    def _insert_report(
        self, conn: psycopg.Connection[Any], sql: str, values: Sequence[object]
    ) -> int:
        row = conn.execute(sql + " RETURNING id", values).fetchone()
        assert row is not None
        return int(row[0])

    def _execute_many(self, conn: psycopg.Connection[Any], sql: str,
                      rows: list[tuple[object, ...]]) -> None:
        with conn.cursor() as cursor:
            cursor.executemany(sql, rows)

    def _select_inputs(self, conn: psycopg.Connection[Any], sql: str,
                       report_id: int) -> list[InputRow]:
        # Binary results: a bytea in text format would travel hex-encoded, twice its size.
        return list(conn.execute(sql, (report_id,), binary=True).fetchall())

    def integrity_check(self) -> str:
        """``"ok"`` when the stored rows agree with each other, else what is wrong.

        Checks what the constraints do not: every blob's stored size is its data's length, and
        the schema version is one this ranklens reads. It does not re-hash the inputs (``get``
        does that for the report it reads).
        """
        problems = []
        with self._connection() as conn:
            (bad_sizes,) = fetch_one(conn, "SELECT COUNT(*) FROM ranklens.blobs "
                                      "WHERE octet_length(data) <> stored_size")
            (version,) = fetch_one(conn, "SELECT max(version) FROM ranklens.schema_version")
        if bad_sizes:
            problems.append(f"{bad_sizes} stored inputs whose size does not match their data")
        if version != SCHEMA_VERSION:
            problems.append(f"schema version {version}, expected {SCHEMA_VERSION}")
        return "\n".join(problems) or "ok"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
