"""Where the default store file goes."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranklens.store import (
    STORE_PATH_ENV,
    SQLiteReportStore,
    default_store_path,
    open_report_store,
    redact_url,
    store_url,
)


def test_env_var_wins(tmp_path: Path) -> None:
    env = {STORE_PATH_ENV: str(tmp_path / "x.db"), "XDG_DATA_HOME": "/elsewhere"}
    assert default_store_path(env) == tmp_path / "x.db"


def test_xdg_data_home_when_absolute() -> None:
    path = default_store_path({"XDG_DATA_HOME": "/data"})
    assert path == Path("/data/ranklens/reports.sqlite3")


def test_relative_xdg_is_ignored(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    for env in ({}, {"XDG_DATA_HOME": "relative/dir"}, {STORE_PATH_ENV: "  "}):
        assert default_store_path(env) == tmp_path / ".local/share/ranklens/reports.sqlite3"


def test_store_without_path_uses_env_and_creates_directories(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    target = tmp_path / "deep" / "er" / "reports.sqlite3"
    monkeypatch.setenv(STORE_PATH_ENV, str(target))
    store = SQLiteReportStore()
    assert store.path == target
    assert target.exists()


@pytest.mark.parametrize("url", ["postgresql://u@db.internal:5432/reports",
                                 "postgres://u:pw@127.0.0.1/reports", " POSTGRESQL://h/db "])
def test_a_postgres_url_is_a_url_not_a_path(url: str) -> None:
    assert store_url({STORE_PATH_ENV: url}) == url.strip()
    with pytest.raises(ValueError, match="PostgreSQL URL"):
        default_store_path({STORE_PATH_ENV: url})


@pytest.mark.parametrize("url", ["mysql://u@h/db", "postgresq://h/db", "sqlite:///tmp/x.db"])
def test_other_urls_are_refused_not_made_into_folders(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=STORE_PATH_ENV):
        store_url({STORE_PATH_ENV: url})
    monkeypatch.setenv(STORE_PATH_ENV, url)
    with pytest.raises(ValueError, match="URL"):
        SQLiteReportStore()
    assert list(tmp_path.iterdir()) == []  # no folder named after the scheme


def test_file_paths_are_not_urls(tmp_path: Path) -> None:
    assert store_url({STORE_PATH_ENV: str(tmp_path / "r.sqlite3")}) is None
    assert store_url({}) is None
    store = open_report_store(str(tmp_path / "r.sqlite3"))
    assert isinstance(store, SQLiteReportStore)


def test_passwords_are_redacted_from_urls() -> None:
    assert redact_url("postgresql://u:pw@h:5432/db?sslmode=require") == (
        "postgresql://u:***@h:5432/db?sslmode=require")
    assert redact_url("postgresql://u@h/db") == "postgresql://u@h/db"
