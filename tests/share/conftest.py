"""Fixtures of the share-link tests: a fresh report store per test, configured as the app's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ranklens.store import STORE_PATH_ENV, SQLiteReportStore
from ranklens.store.config import MAX_REPORT_BYTES_ENV, MAX_STORE_BYTES_ENV, TTL_DAYS_ENV


@pytest.fixture
def store_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A new store file that the app (``RANKLENS_STORE``) and the test both use."""
    path = tmp_path / "reports.sqlite3"
    monkeypatch.setenv(STORE_PATH_ENV, str(path))
    for name in (MAX_REPORT_BYTES_ENV, MAX_STORE_BYTES_ENV, TTL_DAYS_ENV):
        monkeypatch.delenv(name, raising=False)
    return path


@pytest.fixture
def store(store_path: Path) -> SQLiteReportStore:
    return SQLiteReportStore(store_path)


@pytest.fixture
def postgres_store_url(postgres_server: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """An empty database on the session's PostgreSQL server, set as the app's store (given
    back emptied after the test)."""
    url: str = postgres_server.new_database()
    monkeypatch.setenv(STORE_PATH_ENV, url)
    for name in (MAX_REPORT_BYTES_ENV, MAX_STORE_BYTES_ENV, TTL_DAYS_ENV):
        monkeypatch.delenv(name, raising=False)
    yield url
    postgres_server.give_back(url)
