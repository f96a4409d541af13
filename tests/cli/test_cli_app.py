"""``ranklens app``: what it hands to Streamlit, and the mistakes it refuses in one line.

The server itself is started from an installed wheel in ``tests/test_wheel.py``; here
``streamlit run`` is replaced by a recorder, so nothing listens on a port.
"""

from __future__ import annotations

import logging
import os
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from ranklens import __version__
from ranklens.app.cache import CACHE_MB_ENV
from ranklens.cli.app import MAIN_SCRIPT
from ranklens.store.location import STORE_PATH_ENV
from tests.support.cli_helpers import Runner

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def streamlit_run(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, object]]]:
    """Calls of ``streamlit run``: the arguments and the variables the server would see."""
    from streamlit.web import cli as streamlit_cli

    calls: list[dict[str, object]] = []

    def record(args: list[str], prog_name: str) -> None:
        calls.append({"args": args, "prog": prog_name,
                      "store": os.environ.get(STORE_PATH_ENV),
                      "cache": os.environ.get(CACHE_MB_ENV)})

    monkeypatch.setattr(streamlit_cli, "main", record)
    monkeypatch.delenv(STORE_PATH_ENV, raising=False)
    monkeypatch.delenv(CACHE_MB_ENV, raising=False)
    # what `ranklens app` installs in its own process is undone after each test
    from streamlit.web.server.starlette import starlette_app

    from ranklens.app import route_guard

    monkeypatch.setattr(starlette_app, "create_streamlit_middleware",
                        starlette_app.create_streamlit_middleware)
    monkeypatch.setattr(route_guard, "_installed", False)
    factory = logging.getLogRecordFactory()
    yield calls
    logging.setLogRecordFactory(factory)


def test_app_serves_the_packaged_main_script_with_its_options(
        ranklens: Runner, streamlit_run: list[dict[str, object]], tmp_path: Path) -> None:
    store = tmp_path / "links.sqlite3"
    outcome = ranklens("app", "--port", 8612, "--host", "0.0.0.0", "--store", store,
                       "--cache-mb", 512, "--server.maxUploadSize", 500, "--theme.base=dark")
    assert outcome.code == 0, outcome.err
    [call] = streamlit_run
    assert call["args"] == ["run", str(MAIN_SCRIPT), "--server.port", "8612",
                            "--server.address", "0.0.0.0", "--server.maxUploadSize", "500",
                            "--theme.base=dark"]
    assert call["store"] == str(store) and call["cache"] == "512"
    assert MAIN_SCRIPT.is_file() and (MAIN_SCRIPT.parent / ".streamlit" / "config.toml").is_file()


def test_app_defaults_to_localhost_8501(ranklens: Runner,
                                        streamlit_run: list[dict[str, object]]) -> None:
    assert ranklens("app").code == 0
    args = streamlit_run[0]["args"]
    assert isinstance(args, list)
    assert args[2:] == ["--server.port", "8501", "--server.address", "localhost"]
    assert streamlit_run[0]["store"] is None  # the store's own default, not ours


@pytest.mark.parametrize(("args", "said"), [
    (("--prot", "1"), "unrecognized argument '--prot'"),
    (("--server.port",), "Streamlit option '--server.port' needs a value"),
    (("--port", "70000"), "a port is at most 65535"),
    (("--cache-mb", "0"), "expected a positive number, not 0"),
    (("--store", "mysql://db/links"), "RANKLENS_STORE"),
    (("--store", "host=db password=Secret123"), "key=value"),
])
def test_app_refuses_bad_options_in_one_line(ranklens: Runner,
                                             streamlit_run: list[dict[str, object]],
                                             args: tuple[str, ...], said: str) -> None:
    outcome = ranklens("app", *args)
    assert outcome.code == 2
    assert said in outcome.err and outcome.err.count("\n") == 1
    assert "Secret123" not in outcome.err
    assert not streamlit_run  # nothing started


def test_app_refuses_a_bad_uploads_limit_in_one_line(
        ranklens: Runner, streamlit_run: list[dict[str, object]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RANKLENS_UPLOADS_MB", "lots")
    outcome = ranklens("app")
    assert outcome.code == 2 and "RANKLENS_UPLOADS_MB" in outcome.err
    assert not streamlit_run


def test_app_guards_streamlits_endpoints_and_masks_its_log(
        ranklens: Runner, streamlit_run: list[dict[str, object]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.web.server.starlette import starlette_app

    from ranklens.app import route_guard

    assert ranklens("app").code == 0
    assert route_guard.installed()
    first = starlette_app.create_streamlit_middleware()[0]
    assert first.cls is route_guard.RouteGuard  # in front of Streamlit's own middleware
    monkeypatch.setenv("PGPASSWORD", "Secret123")
    record = logging.getLogger("streamlit.any").makeRecord(
        "streamlit.any", logging.ERROR, __file__, 1, "said %s", ("Secret123",), None)
    assert record.getMessage() == "said ***"


def test_version_is_pyprojects(ranklens: Runner) -> None:
    # one source: pyproject.toml's version, read back through the installed metadata
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert __version__ == declared != "0.1.0"
    outcome = ranklens("--version")
    assert (outcome.code, outcome.out.strip()) == (0, f"ranklens {declared}")
