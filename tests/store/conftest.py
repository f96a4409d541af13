"""Fixtures for the report store tests: every ``store`` test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ranklens.store import ReportStore
from tests.support.store_helpers import Backend, FakeClock


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "reports.sqlite3"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, store_path: Path) -> Iterator[Backend]:
    """A fresh, empty store location of each backend: a new file, or an empty database
    (given back emptied after the test, see ``PostgresServer.give_back``)."""
    if request.param == "sqlite":
        yield Backend("sqlite", str(store_path))
        return
    server = request.getfixturevalue("postgres_server")
    url = server.new_database()
    yield Backend("postgres", url)
    server.give_back(url)


@pytest.fixture
def store(backend: Backend, clock: FakeClock) -> ReportStore:
    return backend.open(clock=clock)
