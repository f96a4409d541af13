"""Fixtures of the share-link tests: a fresh report store per test, configured as the app's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ranklens.store import STORE_PATH_ENV, SQLiteReportStore
from ranklens.store.config import MAX_REPORT_BYTES_ENV, MAX_STORE_BYTES_ENV, TTL_DAYS_ENV
from tests.support.share_helpers import SharedCompare, shared_compare_page, shown_numbers


def _use_store(monkeypatch: pytest.MonkeyPatch, location: str | Path) -> None:
    """Make ``location`` the app's store (``RANKLENS_STORE``), with no limit set."""
    monkeypatch.setenv(STORE_PATH_ENV, str(location))
    for name in (MAX_REPORT_BYTES_ENV, MAX_STORE_BYTES_ENV, TTL_DAYS_ENV):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def store_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A new store file that the app (``RANKLENS_STORE``) and the test both use."""
    path = tmp_path / "reports.sqlite3"
    _use_store(monkeypatch, path)
    return path


@pytest.fixture
def store(store_path: Path) -> SQLiteReportStore:
    return SQLiteReportStore(store_path)


@pytest.fixture
def postgres_store_url(postgres_server: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """An empty database on the session's PostgreSQL server, set as the app's store. Not
    given back (``PostgresServer.give_back``): the app in this process keeps the store it
    opened for a URL (``st.cache_resource``), and would find that database's schema gone."""
    url: str = postgres_server.new_database()
    _use_store(monkeypatch, url)
    return url


@pytest.fixture(scope="module")
def shared_once(tmp_path_factory: pytest.TempPathFactory) -> SharedCompare:
    """The Compare page shared once per test module, for the tests that only reopen its link
    (each in a fresh session of its own; none of them writes to the store): sharing it is
    three runs of the page, the demo computed again after a test cleared the caches."""
    path = tmp_path_factory.mktemp("shared") / "reports.sqlite3"
    with pytest.MonkeyPatch.context() as monkeypatch:
        _use_store(monkeypatch, path)
        original, token = shared_compare_page()
    return SharedCompare(path, token, shown_numbers(original))


@pytest.fixture
def compare_link(shared_once: SharedCompare, monkeypatch: pytest.MonkeyPatch) -> SharedCompare:
    """`shared_once`, its store made the app's for this test."""
    _use_store(monkeypatch, shared_once.path)
    return shared_once
