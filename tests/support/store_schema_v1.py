"""The report store's schema 1, frozen as ranklens 0.1.0 created it, to test migrations.

Copied verbatim from ``ranklens/store/sqlite_store.py`` and ``postgres_store.py`` before
schema 2 (who shared a report); `make_v1_store` builds a store of that schema holding one
report written as 0.1.0's ``put`` wrote it, so a test can open it with today's code.
"""

# The DDL below repeats the stores' on purpose (`duplicates` lists it): a frozen copy of schema 1.
from __future__ import annotations

import sqlite3
import zlib
from typing import Any

from ranklens.store.snapshot import content_digest, encode_params
from ranklens.store.tokens import ReportToken, new_token, token_digest

SQLITE_SCHEMA_V1 = """
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
    expires_at REAL
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

POSTGRES_SCHEMA_V1 = [
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
        expires_at DOUBLE PRECISION
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


def make_v1_store(backend: str, location: str, params: dict[str, Any],
                  inputs: dict[str, bytes], created_at: float) -> ReportToken:
    """A store of schema 1 at ``location`` (a SQLite path or a PostgreSQL URL of an empty
    database) holding one report, inserted with 0.1.0's statements; answers its token."""
    token = new_token()
    params_json = encode_params(params)
    rows = [(content_digest(data), len(data), zlib.compress(data, 1)) for data in inputs.values()]
    report = (token_digest(token), params_json, len(params_json.encode()), "0.1.0", created_at)
    links = [(role, content_digest(data)) for role, data in inputs.items()]
    if backend == "sqlite":
        conn = sqlite3.connect(location, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("BEGIN")
            buffer = ""
            for line in SQLITE_SCHEMA_V1.splitlines(keepends=True):
                buffer += line
                if sqlite3.complete_statement(buffer):
                    conn.execute(buffer)
                    buffer = ""
            conn.execute("PRAGMA user_version = 1")
            conn.executemany("INSERT INTO blobs (digest, raw_size, stored_size, codec, data) "
                             "VALUES (?, ?, ?, 'zlib', ?)",
                             [(d, n, len(z), z) for d, n, z in rows])
            cursor = conn.execute("INSERT INTO reports (token_digest, params_json, params_size, "
                                  "ranklens_version, created_at, expires_at) "
                                  "VALUES (?, ?, ?, ?, ?, NULL)", report)
            conn.executemany("INSERT INTO report_inputs (report_id, role, digest) "
                             "VALUES (?, ?, ?)", [(cursor.lastrowid, r, d) for r, d in links])
            conn.execute("COMMIT")
        finally:
            conn.close()
        return token
    import psycopg

    with psycopg.connect(location, autocommit=True) as pg, pg.transaction():
        for statement in POSTGRES_SCHEMA_V1:
            pg.execute(statement)
        pg.execute("INSERT INTO ranklens.schema_version (version) VALUES (1)")
        with pg.cursor() as cursor:
            cursor.executemany("INSERT INTO ranklens.blobs (digest, raw_size, stored_size, "
                               "codec, data) VALUES (%s, %s, %s, 'zlib', %s)",
                               [(d, n, len(z), z) for d, n, z in rows])
        row = pg.execute("INSERT INTO ranklens.reports (token_digest, params_json, params_size, "
                         "ranklens_version, created_at, expires_at) "
                         "VALUES (%s, %s, %s, %s, %s, NULL) RETURNING id", report).fetchone()
        assert row is not None
        with pg.cursor() as cursor:
            cursor.executemany("INSERT INTO ranklens.report_inputs (report_id, role, digest) "
                               "VALUES (%s, %s, %s)", [(row[0], r, d) for r, d in links])
    return token
