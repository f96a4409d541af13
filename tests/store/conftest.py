"""Fixtures for the report store tests: every ``store`` test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

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
def backend(request: pytest.FixtureRequest, store_path: Path) -> Backend:
    """A fresh, empty store location of each backend: a new file, or a new database."""
    if request.param == "sqlite":
        return Backend("sqlite", str(store_path))
    server = request.getfixturevalue("postgres_server")
    return Backend("postgres", server.new_database())


@pytest.fixture
def store(backend: Backend, clock: FakeClock) -> ReportStore:
    return backend.open(clock=clock)
