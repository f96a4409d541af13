"""What only a server store has: restarts, outages, URLs with passwords, replicas sharing it."""

from __future__ import annotations

from typing import Any

import pytest

from ranklens.store import StoreUnavailable, open_report_store
from tests.support.postgres_server import free_port
from tests.support.store_helpers import trec_run_bytes

psycopg = pytest.importorskip("psycopg")
from ranklens.store.postgres_store import SCHEMA_VERSION, PostgresReportStore  # noqa: E402


def test_report_survives_a_server_restart_between_write_and_read(postgres_server: Any) -> None:
    url = postgres_server.new_database()
    inputs = {"run_a": trec_run_bytes(50, 100, seed=1), "qrels": b"q0 0 d1 1\n"}
    token = PostgresReportStore(url).put({"alpha": 0.05}, inputs)
    postgres_server.restart()
    snapshot = PostgresReportStore(url).get(token)
    assert snapshot.params == {"alpha": 0.05}
    assert dict(snapshot.inputs) == inputs


def test_stopped_server_is_unavailable_in_words_and_comes_back(postgres_server: Any) -> None:
    url = postgres_server.new_database()
    store = PostgresReportStore(url)
    token = store.put({}, {"run_a": b"kept"})
    postgres_server.stop()
    try:
        for call in (lambda: store.get(token), lambda: store.put({}, {"run_a": b"new"}),
                     store.usage, lambda: PostgresReportStore(url)):
            with pytest.raises(StoreUnavailable) as caught:
                call()
            assert str(caught.value).startswith("share links are unavailable: ")
            assert "Connection refused" in str(caught.value)
    finally:
        postgres_server.start()
    # The same store object works again once the server is back: nothing is cached broken.
    assert store.get(token).inputs["run_a"] == b"kept"
    assert store.usage().reports == 1


def test_unreachable_server_message_leaves_the_password_out() -> None:
    url = f"postgresql://ranklens:s3cret-pw@127.0.0.1:{free_port()}/reports"
    with pytest.raises(StoreUnavailable) as caught:
        open_report_store(url)
    message = str(caught.value)
    assert message.startswith("share links are unavailable: ")
    assert "s3cret-pw" not in message and "ranklens:***@127.0.0.1" in message


def test_two_store_objects_on_one_database_act_as_replicas(postgres_server: Any) -> None:
    url = postgres_server.new_database()
    first, second = open_report_store(url), open_report_store("postgres" + url[10:])
    token = first.put({"from": "first"}, {"run_a": b"shared"})
    assert second.get(token).params == {"from": "first"}
    second.delete(token)
    assert first.usage().reports == 0


def test_schema_is_versioned_in_its_own_table(postgres_server: Any) -> None:
    url = postgres_server.new_database()
    PostgresReportStore(url)
    PostgresReportStore(url)  # opening again creates nothing twice
    with psycopg.connect(url) as conn:
        versions = conn.execute("SELECT version FROM ranklens.schema_version").fetchall()
        tables = {r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'ranklens'")}
    assert versions == [(SCHEMA_VERSION,)]
    assert tables == {"blobs", "reports", "report_inputs", "schema_version"}
