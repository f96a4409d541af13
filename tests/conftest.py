"""Fixtures for every test folder: a real PostgreSQL server for the report store tests."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[object]:
    """A PostgreSQL server running for the whole session (``tests/support/postgres_server.py``).

    Skipped where PostgreSQL is not installed, except under CI (``CI`` set), where a missing
    server is a failure: ``.ci/run`` installs it.
    """
    from tests.support.postgres_server import PostgresServer, find_binary

    if find_binary("initdb") is None and not os.environ.get("CI"):
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    server = PostgresServer()
    server.start()
    try:
        yield server
    finally:
        server.remove()
