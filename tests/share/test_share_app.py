"""Share links in the app (AppTest): share, reopen in a fresh session, same numbers; bad links."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from ranklens.share.links import share
from ranklens.store import SQLiteReportStore, open_report_store
from ranklens.store.config import MAX_REPORT_BYTES_ENV
from tests.support.share_helpers import (
    ROOT,
    SharedCompare,
    app,
    ppi_files,
    ppi_result,
    run_clean,
    shared_compare_page,
    shown_link,
    shown_numbers,
    titles,
    token_of,
)

BANNER = "Shared report, read-only"


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click()
    return run_clean(at)


def markdown_text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_compare_link_reopens_with_the_same_numbers(compare_link: SharedCompare) -> None:
    reopened = run_clean(app(report=compare_link.token))
    assert titles(reopened) == ["Compare runs"]
    assert BANNER in markdown_text(reopened)
    assert shown_numbers(reopened) == compare_link.numbers
    assert len(reopened.metric) >= 5  # the verdict cards: the numbers are there


def test_reopened_compare_page_has_no_input_controls(compare_link: SharedCompare) -> None:
    reopened = run_clean(app(report=compare_link.token))
    keys = {getattr(w, "key", None) for w in reopened.sidebar}
    assert not keys & {"data_source", "seed", "alpha", "resamples", "missing"}


def test_link_survives_an_app_restart(compare_link: SharedCompare) -> None:
    script = (
        "import json, sys; "
        "from tests.support.share_helpers import app, run_clean, shown_numbers; "
        "sys.stdout.write(json.dumps(shown_numbers(run_clean(app(report=sys.argv[1])))))"
    )
    done = subprocess.run([sys.executable, "-c", script, compare_link.token],
                          capture_output=True, text=True, cwd=ROOT, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout) == json.loads(json.dumps(compare_link.numbers))


def test_leaving_a_shared_report_gives_the_controls_back(compare_link: SharedCompare) -> None:
    at = run_clean(app(report=compare_link.token))
    click(at, "shared_leave")
    assert "report" not in at.query_params
    assert BANNER not in markdown_text(at)
    assert at.radio(key="data_source").value == "Demo data"


def test_sharing_twice_in_a_session_shows_the_same_link(store_path: Path) -> None:
    at, token = shared_compare_page()
    click(at, "share:compare")
    assert token_of(shown_link(at)) == token
    assert SQLiteReportStore(store_path).usage().reports == 1


def test_ppi_link_opens_the_ppi_page_with_the_same_numbers(store_path: Path) -> None:
    at = run_clean(app())
    run_clean(at.switch_page("pages/ppi.py"))
    at.selectbox(key="ppi_alpha").set_value(0.1)
    run_clean(at)
    click(at, "share:ppi")
    token = token_of(shown_link(at))
    reopened = run_clean(app(report=token))  # opened at the app's root: Compare is the default
    assert titles(reopened) == titles(at)
    assert BANNER in markdown_text(reopened)
    assert shown_numbers(reopened)["metrics"] == shown_numbers(at)["metrics"]


def test_mde_link_opens_the_mde_page_with_the_same_numbers(store_path: Path) -> None:
    at = run_clean(app())
    run_clean(at.switch_page("pages/mde.py"))
    at.number_input(key="mde_n").set_value(1000)
    at.slider(key="mde_power").set_value(0.9)
    run_clean(at)
    click(at, "share:mde")
    token = token_of(shown_link(at))
    reopened = run_clean(app(report=token))
    assert titles(reopened) == titles(at)
    assert shown_numbers(reopened) == shown_numbers(at)
    assert "MDE with 1,000 queries" in [m.label for m in reopened.metric]


def test_oversized_report_is_refused_with_the_limit_named(
        store_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MAX_REPORT_BYTES_ENV, "1000000")  # the demo inputs are 3.9 MB
    at = run_clean(app())
    click(at, "share:compare")
    errors = [e.value for e in at.error]
    assert len(errors) == 1
    assert "too large to share" in errors[0] and "max_report_bytes" in errors[0]
    assert "1.0 MB (1,000,000 bytes)" in errors[0]
    assert not [c for c in at.code if "?report=" in c.value]
    assert SQLiteReportStore(store_path).usage().reports == 0


# ---- links that lead nowhere --------------------------------------------------------------

BAD_TOKENS = {
    "empty": "",
    "blank": "   ",
    "path traversal": "../../../../etc/passwd",
    "encoded traversal": "..%2F..%2F..%2Fetc%2Fpasswd",
    "windows traversal": "..\\..\\windows\\win.ini",
    "sql quote": "' OR '1'='1",
    "sql statement": "x'; DROP TABLE reports; --",
    "sql wildcard": "%" * 32,
    "nul byte": "A" * 16 + "\x00" + "A" * 15,
    "very long": "A" * 100_000,
    "one short": "A" * 31,
    "one long": "A" * 33,
    "unknown but well formed": "AbCdEfGhIjKlMnOpQrStUvWxYz012345",
    "html": "<script>alert(1)</script>",
}


def not_found_text(at: AppTest) -> str:
    return "\n".join([*titles(at), markdown_text(at)])


@pytest.fixture(scope="module")
def unknown_page() -> str:
    """What an unknown token shows; every bad link must show exactly this."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["report"] = "Z" * 32
    run_clean(at)
    return not_found_text(at)


@pytest.mark.parametrize("token", list(BAD_TOKENS.values()), ids=list(BAD_TOKENS))
def test_bad_token_shows_report_not_found(store_path: Path, token: str,
                                          unknown_page: str) -> None:
    at = run_clean(app(report=token))
    assert titles(at) == ["Report not found"]
    assert not_found_text(at) == unknown_page  # no hint about this token or similar ones
    assert not at.metric and not at.dataframe


def test_near_miss_of_a_real_token_shows_report_not_found(store_path: Path,
                                                          unknown_page: str) -> None:
    token = share(SQLiteReportStore(store_path), "ppi", {"metric": "AP", "alpha": 0.05},
                  ppi_files(), result=ppi_result())
    for near in (token[:-1] + ("A" if token[-1] != "A" else "B"), token.lower(), token[:-1],
                 token + "A", f" {token}x"):
        at = run_clean(app(report=near))
        assert titles(at) == ["Report not found"]
        assert not_found_text(at) == unknown_page


def test_expired_link_shows_report_not_found(store_path: Path, unknown_page: str) -> None:
    an_hour_ago = SQLiteReportStore(store_path, clock=lambda: time.time() - 3600)
    token = share(an_hour_ago, "ppi", {"metric": "AP", "alpha": 0.05}, ppi_files(),
                  result=ppi_result(), ttl=timedelta(minutes=1))
    at = run_clean(app(report=token))
    assert not_found_text(at) == unknown_page


def test_deleted_link_shows_report_not_found(store_path: Path, unknown_page: str) -> None:
    store = SQLiteReportStore(store_path)
    token = share(store, "ppi", {"metric": "AP", "alpha": 0.05}, ppi_files(),
                  result=ppi_result())
    store.delete(token)
    at = run_clean(app(report=token))
    assert not_found_text(at) == unknown_page


def test_not_found_page_leads_to_a_fresh_start(store_path: Path) -> None:
    at = run_clean(app(report="nope"))
    click(at, "shared_not_found_leave")
    assert "report" not in at.query_params
    assert titles(at) == ["Compare runs"]


def test_unreadable_snapshot_says_why_without_a_traceback(store_path: Path) -> None:
    token = SQLiteReportStore(store_path).put(
        {"format": 99, "kind": "compare", "settings": {}, "files": []}, {})
    at = run_clean(app(report=token))
    assert titles(at) == ["Report not found"]
    assert any("format this version cannot open" in w.value for w in at.warning)


def test_whitespace_around_a_pasted_token_is_ignored(store_path: Path) -> None:
    token = share(SQLiteReportStore(store_path), "ppi", {"metric": "AP", "alpha": 0.05},
                  ppi_files(), result=ppi_result())
    at = run_clean(app(report=f"  {token}\n"))
    assert BANNER in markdown_text(at)


# ---- a store that cannot be used ----------------------------------------------------------

def test_unusable_store_is_said_in_words(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RANKLENS_STORE", str(tmp_path))  # a folder, not a database file
    at = run_clean(app(report="A" * 32))
    assert titles(at) == ["Report not found"]
    assert any("could not be read" in e.value for e in at.error)
    at = run_clean(app())
    click(at, "share:compare")
    assert any("could not be stored" in e.value for e in at.error)


def test_misconfigured_limit_names_the_variable(store_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RANKLENS_STORE_MAX_BYTES", "lots")
    at = run_clean(app())
    click(at, "share:compare")
    assert any("RANKLENS_STORE_MAX_BYTES" in e.value for e in at.error)


# ---- a PostgreSQL store (what replicas share) ---------------------------------------------

def test_compare_link_reopens_from_a_postgres_store(postgres_store_url: str) -> None:
    original, token = shared_compare_page()
    reopened = run_clean(app(report=token))
    assert BANNER in markdown_text(reopened)
    assert shown_numbers(reopened) == shown_numbers(original)
    assert open_report_store(postgres_store_url).usage().reports == 1


def test_stopped_server_share_button_says_unavailable_and_the_page_works(
        postgres_store_url: str, postgres_server: Any) -> None:
    at = run_clean(app())
    numbers = shown_numbers(at)
    assert len(at.metric) >= 5
    postgres_server.stop()
    try:
        click(at, "share:compare")
        errors = [e.value for e in at.error]
        assert len(errors) == 1 and "Share links are unavailable:" in errors[0], errors
        assert "Connection refused" in errors[0]
        assert not [c for c in at.code if "?report=" in c.value]
        assert shown_numbers(at) == numbers  # the verdict and tables are still there
        # Another control still works while the store is down.
        at.number_input(key="seed").set_value(11)
        run_clean(at)
        assert len(at.metric) >= 5
        # A link followed while the server is down says so, instead of "not found".
        down = run_clean(app(report="A" * 32))
        assert titles(down) == ["Report not found"]
        assert any("share links are unavailable" in e.value for e in down.error)
    finally:
        postgres_server.start()
    click(at, "share:compare")  # the server is back: sharing works again, no restart needed
    assert open_report_store(postgres_store_url).get(token_of(shown_link(at)))
