"""Where the default store file goes."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranklens.store import STORE_PATH_ENV, SQLiteReportStore, default_store_path


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
