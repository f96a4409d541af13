"""A PostgreSQL password never reaches a message or a log, whichever form it was given in:
the URL's user part, a ``password=`` query parameter (also with ``host=`` in the query),
``PGPASSWORD``, or a libpq key=value string. Issue #52, hole 3."""

from __future__ import annotations

import io
import logging

import pytest

from ranklens.store import StoreUnavailable, open_report_store, redact_url
from ranklens.store.config import store_config
from ranklens.store.location import STORE_PATH_ENV
from ranklens.store.redact import RedactingFilter, known_secrets, redact
from tests.support.postgres_server import free_port

SECRET = "QueryPW777"


def test_user_part_password_is_masked() -> None:
    assert redact_url(f"postgresql://rl:{SECRET}@h:5432/db?sslmode=require") == (
        "postgresql://rl:***@h:5432/db?sslmode=require")


def test_query_password_is_masked() -> None:
    shown = redact_url(f"postgresql://rl@127.0.0.1:15433/postgres?password={SECRET}")
    assert SECRET not in shown
    assert shown == "postgresql://rl@127.0.0.1:15433/postgres?password=***"


def test_query_password_beside_a_host_in_the_query_is_masked() -> None:
    shown = redact_url(f"postgresql:///db?host=/run/pg&password={SECRET}&sslpassword=K3yPass")
    assert SECRET not in shown and "K3yPass" not in shown
    assert "host=/run/pg" in shown and "password=***" in shown


def test_key_value_string_passwords_are_masked_quoted_or_not() -> None:
    assert redact_url(f"host=db.example password={SECRET} dbname=r") == (
        "host=db.example password=*** dbname=r")
    assert redact_url("host=h password='with space' user=u") == "host=h password=*** user=u"


def test_a_key_value_store_setting_is_refused_without_its_password() -> None:
    with pytest.raises(ValueError) as caught:
        store_config({STORE_PATH_ENV: f"host=127.0.0.1 password={SECRET} dbname=r"})
    message = str(caught.value)
    assert SECRET not in message
    assert "key=value" in message and "postgresql://" in message


def test_pgpassword_value_is_masked_wherever_it_appears() -> None:
    env = {"PGPASSWORD": SECRET}
    assert known_secrets(env) == [SECRET]
    assert redact(f"FATAL: password {SECRET} rejected", env) == "FATAL: password *** rejected"


def test_the_store_setting_passwords_are_masked_in_free_text() -> None:
    env = {STORE_PATH_ENV: f"postgresql://rl@h/db?password={SECRET}"}
    assert redact(f"the driver said {SECRET!r}", env) == "the driver said '***'"


def test_unreachable_server_with_query_password_says_nothing_of_it() -> None:
    pytest.importorskip("psycopg")
    url = f"postgresql://rl@127.0.0.1:{free_port()}/postgres?password={SECRET}"
    with pytest.raises(StoreUnavailable) as caught:
        open_report_store(url)
    assert SECRET not in str(caught.value) and SECRET not in caught.value.reason
    assert "password=***" in str(caught.value)


def test_unavailable_reasons_are_masked_against_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PGPASSWORD", SECRET)
    assert SECRET not in str(StoreUnavailable(f"server said {SECRET}"))


def test_log_records_and_tracebacks_are_masked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PGPASSWORD", SECRET)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactingFilter())
    logger = logging.getLogger("ranklens.tests.redaction")
    logger.addHandler(handler)
    try:
        logger.warning("store at %s", f"postgresql://rl@h/db?password={SECRET}")
        try:
            raise RuntimeError(f"connect failed with {SECRET}")
        except RuntimeError:
            logger.exception("the store failed")
    finally:
        logger.removeHandler(handler)
    written = stream.getvalue()
    assert SECRET not in written
    assert "password=***" in written and "connect failed with ***" in written


def test_installed_redaction_masks_records_of_every_logger(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from ranklens.store.redact import install_log_redaction

    monkeypatch.setenv("PGPASSWORD", SECRET)
    previous = logging.getLogRecordFactory()
    try:
        install_log_redaction()
        assert not install_log_redaction()  # once
        record = logging.getLogger("streamlit.anything").makeRecord(
            "streamlit.anything", logging.ERROR, __file__, 1, "url %s",
            (f"postgresql://u:{SECRET}@h/db",), None)
        assert SECRET not in record.getMessage()
    finally:
        logging.setLogRecordFactory(previous)
