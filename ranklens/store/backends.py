"""Which store class serves a location: a SQLite file, or a PostgreSQL server by URL."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from ranklens.store.errors import StoreError
from ranklens.store.interface import ReportStore
from ranklens.store.limits import StoreLimits
from ranklens.store.location import is_postgres_url
from ranklens.store.sqlite_store import SQLiteReportStore


def open_report_store(
    location: str | os.PathLike[str],
    *,
    limits: StoreLimits | None = None,
    default_ttl: timedelta | None = None,
) -> ReportStore:
    """The store at ``location``: a ``postgresql://`` URL, else a SQLite file path.

    Opening creates the file or the schema on first use. Raises ``StoreUnavailable`` when a
    PostgreSQL server cannot be reached, and ``StoreError`` when the PostgreSQL driver
    (the ``postgres`` extra) is not installed.
    """
    if isinstance(location, str) and is_postgres_url(location):
        try:
            from ranklens.store.postgres_store import PostgresReportStore
        except ImportError as exc:
            raise StoreError(
                "the report store is a PostgreSQL URL but its driver is missing: "
                "pip install 'ranklens[postgres]'") from exc
        return PostgresReportStore(location, limits=limits, default_ttl=default_ttl)
    return SQLiteReportStore(Path(location), limits=limits, default_ttl=default_ttl)
