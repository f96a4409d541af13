"""Streamlit's own endpoints behind sign-in (issue #52, holes 1, 4 and 5), as an attacker on
the network would probe them: no browser, plain HTTP and a websocket against `ranklens app`.

The decision (`verdict`, `is_guarded`) is tested on its own; then one server started by the
shipped command, with sign-in through a local OpenID Connect provider and an allow list,
answers uploads, media and metrics only to an allowed person's signed cookie: anonymous
uploads are refused before their bodies are read (the server's memory stays flat under
sixteen 20 MB uploads), while ada, on the list, uploads and reads metrics meanwhile.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ranklens.app.route_guard import (
    MISCONFIGURED,
    NOT_ALLOWED,
    NOT_SIGNED_IN,
    RouteGuard,
    is_guarded,
    verdict,
)
from ranklens.app.signin import (
    ALLOWED_USERS_ENV,
    SignInConfig,
    SignInConfigError,
    parse_allowed_users,
)
from tests.support.app_server import start_ranklens_app, stop_app
from tests.support.hostile_client import open_session, rss_mb, signed_cookie, upload
from tests.support.oidc_provider import running_provider, write_secrets

ADA = {"email": "ada@team.example", "name": "Ada Lovelace", "email_verified": True}
MALLORY = {"email": "mallory@elsewhere.example", "name": "Mallory", "email_verified": True}
ON = (SignInConfig({"default": "http://idp/.well-known/openid-configuration"}),
      parse_allowed_users("ada@team.example"))


def _run(coroutine):  # type: ignore[no-untyped-def]
    """Run ``coroutine`` to its end on a fresh event loop in a thread of its own: a browser
    test of the same worker may have left this thread's loop running (pytest-playwright)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


# ---- the decision ---------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "base", "guarded"), [
    ("/_stcore/upload_file/s/f", "", True),
    ("/media/abc.json", "", True),
    ("/_stcore/metrics", "", True),
    ("/_stcore/agent/interact", "", True),
    ("/_stcore/health", "", False),
    ("/_stcore/stream", "", False),
    ("/", "", False),
    ("/static/js/main.js", "", False),
    ("/rl/media/abc.json", "rl", True),
    ("/media/abc.json", "rl", False),  # not under the base: Streamlit answers 404 itself
])
def test_which_paths_are_guarded(path: str, base: str, guarded: bool) -> None:
    assert is_guarded(path, base) is guarded


def test_only_an_allowed_signed_in_person_passes() -> None:
    def broken() -> Any:
        raise SignInConfigError("[auth] cookie_secret is missing")

    signed = {"is_logged_in": True}
    assert verdict(None, lambda: (None, None)) is None  # sign-in off: everything open
    assert verdict(None, broken) is MISCONFIGURED
    assert verdict(None, lambda: ON) is NOT_SIGNED_IN
    assert verdict({"is_logged_in": False, **ADA}, lambda: ON) is NOT_SIGNED_IN
    assert verdict({**signed, **MALLORY}, lambda: ON) is NOT_ALLOWED
    assert verdict({**signed, **ADA, "email_verified": False}, lambda: ON) is NOT_ALLOWED
    assert verdict({**signed, **ADA}, lambda: (ON[0], None)) is NOT_ALLOWED  # no list
    assert verdict({**signed, **ADA}, lambda: ON) is None


def test_a_refusal_reads_no_body_and_never_reaches_streamlit() -> None:
    reached: list[str] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["path"])

    async def receive() -> Any:
        raise AssertionError("the body was read")

    sent: list[Any] = []

    async def send(message: Any) -> None:
        sent.append(message)

    guard = RouteGuard(inner, base_url="", signin=lambda: ON)
    scope = {"type": "http", "method": "PUT", "path": "/_stcore/upload_file/s/f",
             "headers": [(b"content-length", b"52428800")]}
    _run(guard(scope, receive, send))
    assert reached == []
    assert sent[0]["status"] == 403 and (b"connection", b"close") in sent[0]["headers"]
    assert sent[1]["body"] == b"sign in to this ranklens server first\n"
    _run(guard({"type": "http", "method": "GET", "path": "/", "headers": []},
                      receive, send))
    assert reached == ["/"]


def test_an_upload_that_would_pass_the_servers_total_is_refused_unread() -> None:
    reached: list[int] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        reached.append(guard._in_flight)

    async def receive() -> Any:
        raise AssertionError("the body was read")

    sent: list[Any] = []

    async def send(message: Any) -> None:
        sent.append(message)

    guard = RouteGuard(inner, base_url="", signin=lambda: (None, None),
                       uploads_limit=4_000_000_000, held=lambda: 3_900_000_000)

    def put(length: int) -> dict[str, Any]:
        return {"type": "http", "method": "PUT", "path": "/_stcore/upload_file/s/f",
                "headers": [(b"content-length", str(length).encode())]}

    _run(guard(put(200_000_000), receive, send))
    assert reached == [] and sent[0]["status"] == 413
    assert sent[1]["body"].startswith(b"this server holds 3,900 MB of uploads; another 200 MB "
                                      b"would pass its limit of 4,000 MB (RANKLENS_UPLOADS_MB)")
    _run(guard(put(50_000_000), receive, send))
    assert reached == [50_000_000]  # counted in flight while Streamlit reads it
    assert guard._in_flight == 0  # and released after


def test_the_uploads_limit_is_read_in_words() -> None:
    from ranklens.app.route_guard import UPLOADS_MB_ENV, uploads_limit_bytes

    assert uploads_limit_bytes({}) == 4_000_000_000
    assert uploads_limit_bytes({UPLOADS_MB_ENV: "500"}) == 500_000_000
    for bad in ("lots", "0"):
        with pytest.raises(ValueError, match=UPLOADS_MB_ENV):
            uploads_limit_bytes({UPLOADS_MB_ENV: bad})


# ---- the shipped server ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def team_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("guard")
    with running_provider({"ada": ADA, "mallory": MALLORY}) as provider:
        secrets = write_secrets(folder / "secrets.toml", provider.metadata_url)
        url, process = start_ranklens_app(
            folder / "reports.sqlite3", folder / "server.log",
            ["--secrets.files", str(secrets)], env={ALLOWED_USERS_ENV: "ada@team.example"})
        secret = tomllib.loads(secrets.read_text())["auth"]["cookie_secret"]
        try:
            yield {"url": url, "pid": process.pid, "log": folder / "server.log",
                   "ada": signed_cookie(secret, url, ADA),
                   "mallory": signed_cookie(secret, url, MALLORY)}
        finally:
            stop_app(process)


def test_anonymous_uploads_are_refused_and_hold_nothing(team_server: dict[str, Any]) -> None:
    url, pid = team_server["url"], team_server["pid"]
    with open_session(url) as (session, xsrf):
        assert upload(url, session, xsrf, 1_000_000) == 403  # on main: 204, held for session
        before = rss_mb(pid)
        for _ in range(16):
            assert upload(url, session, xsrf, 20_000_000) in (0, 403)
            assert httpx.get(f"{url}/_stcore/health").text == "ok"
        grown = rss_mb(pid) - before
        assert grown < 40, (before, grown)
        assert upload(url, session, xsrf, 1_000_000, user=team_server["mallory"]) == 403
        assert upload(url, session, xsrf, 1_000_000, user=team_server["ada"]) == 204


def test_media_urls_need_an_allowed_cookie(team_server: dict[str, Any]) -> None:
    url = team_server["url"]
    copied = f"{url}/media/{'0' * 56}.json"  # the shape of a download button's URL
    assert httpx.get(copied).status_code == 403  # on main: Streamlit serves (or 404s) it
    assert httpx.get(copied, cookies={"_streamlit_user": team_server["mallory"]}
                     ).status_code == 403
    # ada passes the guard; Streamlit itself then answers (404: no such file in any session)
    assert httpx.get(copied, cookies={"_streamlit_user": team_server["ada"]}
                     ).status_code == 404


def test_metrics_answer_only_allowed_people(team_server: dict[str, Any]) -> None:
    url = team_server["url"]
    refused = httpx.get(f"{url}/_stcore/metrics")
    assert refused.status_code == 403 and "session" not in refused.text
    assert httpx.get(f"{url}/_stcore/metrics",
                     cookies={"_streamlit_user": team_server["mallory"]}).status_code == 403
    forged = team_server["ada"][:-4] + "AAAA"  # a cookie whose signature does not check out
    assert httpx.get(f"{url}/_stcore/metrics", cookies={"_streamlit_user": forged}
                     ).status_code == 403
    allowed = httpx.get(f"{url}/_stcore/metrics", cookies={"_streamlit_user": team_server["ada"]})
    assert allowed.status_code == 200 and "session" in allowed.text


def test_without_sign_in_only_the_total_of_uploads_is_bounded(tmp_path: Path) -> None:
    url, process = start_ranklens_app(tmp_path / "reports.sqlite3", tmp_path / "server.log",
                                      env={"RANKLENS_UPLOADS_MB": "3"})
    try:
        assert httpx.get(f"{url}/_stcore/metrics").status_code == 200
        assert httpx.get(f"{url}/media/{'0' * 32}.json").status_code == 404  # Streamlit's
        with open_session(url) as (session, xsrf):
            assert upload(url, session, xsrf, 100_000) == 204
            assert upload(url, session, xsrf, 2_000_000) == 204
            assert upload(url, session, xsrf, 2_000_000) in (0, 413)  # 4.1 MB > 3 MB
    finally:
        stop_app(process)


def test_other_cookies_with_odd_values_do_not_hide_the_sign_in_cookie(
        team_server: dict[str, Any]) -> None:
    url = team_server["url"]
    header = f'theme="{{\\"a\\": 1}}"; x=a,b; _streamlit_user={team_server["ada"]}; y=1'
    assert httpx.get(f"{url}/_stcore/metrics", headers={"Cookie": header}).status_code == 200


def test_sign_in_without_the_guard_says_so_once_in_the_log(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from ranklens.app import auth, route_guard

    monkeypatch.setattr(route_guard, "_installed", False)
    monkeypatch.setattr(auth, "_warned_unguarded", False)
    with caplog.at_level("WARNING", logger="ranklens.app.auth"):
        auth._warn_if_unguarded()
        auth._warn_if_unguarded()
    warnings = [r.getMessage() for r in caplog.records if "not started by" in r.getMessage()]
    assert len(warnings) == 1 and "SECURITY.md" in warnings[0]


@pytest.mark.parametrize("path", ["/_stcore/metrics/", "/_stcore/%6Detrics", "/%6Dedia/x.json",
                                  "/_stcore/./metrics"])
def test_spellings_of_a_guarded_path_are_guarded_too(team_server: dict[str, Any],
                                                     path: str) -> None:
    response = httpx.get(team_server["url"] + path, follow_redirects=True)
    assert response.status_code in (403, 404), (path, response.status_code)
    assert "session" not in response.text
