"""The store the app shares links in, as configured by environment variables."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from ranklens.store import STORE_PATH_ENV, StoreLimits, StoreUnavailable
from ranklens.store.config import (
    MAX_REPORT_BYTES_ENV,
    MAX_STORE_BYTES_ENV,
    TTL_DAYS_ENV,
    open_store,
    store_config,
)


def test_defaults_without_variables(tmp_path: Path) -> None:
    config = store_config({STORE_PATH_ENV: str(tmp_path / "r.sqlite3")})
    assert config.location == tmp_path / "r.sqlite3"
    assert config.limits == StoreLimits()
    assert config.default_ttl is None


def test_limits_and_expiry_from_variables(tmp_path: Path) -> None:
    config = store_config({STORE_PATH_ENV: str(tmp_path / "r.sqlite3"),
                           MAX_REPORT_BYTES_ENV: "1_000_000", MAX_STORE_BYTES_ENV: " 5000000 ",
                           TTL_DAYS_ENV: "30"})
    assert config.limits == StoreLimits(max_report_bytes=1_000_000, max_store_bytes=5_000_000)
    assert config.default_ttl == timedelta(days=30)
    store = open_store(config)
    assert (store.limits, store.default_ttl) == (config.limits, config.default_ttl)


@pytest.mark.parametrize(("name", "value"), [(MAX_REPORT_BYTES_ENV, "1e6"),
                                             (MAX_STORE_BYTES_ENV, "-5"),
                                             (TTL_DAYS_ENV, "soon"), (TTL_DAYS_ENV, "0")])
def test_bad_values_name_the_variable(name: str, value: str) -> None:
    with pytest.raises(ValueError, match=name):
        store_config({name: value})


def test_a_postgres_url_chooses_the_server_store() -> None:
    url = "postgresql://team:pw@127.0.0.1:1/reports"
    config = store_config({STORE_PATH_ENV: url, TTL_DAYS_ENV: "90"})
    assert config.location == url
    assert config.where == "postgresql://team:***@127.0.0.1:1/reports"
    with pytest.raises(StoreUnavailable, match=r"^share links are unavailable: "):
        open_store(config)  # nothing listens on port 1


def test_an_unknown_url_scheme_names_the_variable(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=STORE_PATH_ENV):
        store_config({STORE_PATH_ENV: "postgresq://h/db"})
    assert list(tmp_path.iterdir()) == []
