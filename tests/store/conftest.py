"""Fixtures for the report store tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranklens.store import SQLiteReportStore
from tests.support.store_helpers import FakeClock


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "reports.sqlite3"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(store_path: Path, clock: FakeClock) -> SQLiteReportStore:
    return SQLiteReportStore(store_path, clock=clock)
