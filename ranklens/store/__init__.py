"""Immutable, content-addressed report snapshots behind unguessable share tokens.

``put(params, inputs) -> token`` stores a report once and for all; ``get(token)`` gives it back
byte for byte, also from another process or after a restart. Inputs are deduplicated by sha256
and zlib-compressed. Anything wrong with a token raises :class:`ReportNotFound`; a store that
cannot be reached raises :class:`StoreUnavailable`. Two backends: SQLite, one file (the
default), and PostgreSQL (``ranklens.store.postgres_store``, needs the ``postgres`` extra),
which several app replicas share; ``open_report_store`` picks one by location.
No Streamlit, no pandas: pages and the Report object build on this.
"""

from ranklens.store.backends import open_report_store
from ranklens.store.errors import ReportNotFound, StoreError, StoreLimitError, StoreUnavailable
from ranklens.store.interface import ReportStore, StoreUsage
from ranklens.store.limits import DEFAULT_MAX_REPORT_BYTES, DEFAULT_MAX_STORE_BYTES, StoreLimits
from ranklens.store.location import (
    STORE_PATH_ENV,
    default_store_path,
    is_postgres_url,
    redact_url,
    store_url,
)
from ranklens.store.snapshot import Snapshot
from ranklens.store.sqlite_store import SQLiteReportStore
from ranklens.store.tokens import ReportToken, new_token, parse_token, token_digest

__all__ = [
    "DEFAULT_MAX_REPORT_BYTES",
    "DEFAULT_MAX_STORE_BYTES",
    "STORE_PATH_ENV",
    "ReportNotFound",
    "ReportStore",
    "ReportToken",
    "SQLiteReportStore",
    "Snapshot",
    "StoreError",
    "StoreLimitError",
    "StoreLimits",
    "StoreUnavailable",
    "StoreUsage",
    "default_store_path",
    "is_postgres_url",
    "new_token",
    "open_report_store",
    "parse_token",
    "redact_url",
    "store_url",
    "token_digest",
]
