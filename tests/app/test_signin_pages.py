"""Sign-in in the app (AppTest, ``at.user`` as Streamlit's own test of a signed-in person): the
pages a visitor sees before the app, and share links that say who shared them.

The browser test (``tests/browser/test_browser_signin.py``) signs in through a real provider;
these check every branch of the gate cheaply, each run stopping before the app draws anything.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from ranklens.app.signin import ALLOWED_USERS_ENV
from ranklens.share.links import reopen
from ranklens.store import STORE_PATH_ENV, SQLiteReportStore
from tests.support.oidc_provider import CLIENT_ID, Provider, running_provider
from tests.support.postgres_server import free_port
from tests.support.share_helpers import app, run_clean, shown_link, token_of

ADA = {"is_logged_in": True, "email": "ada@team.example", "name": "Ada Lovelace",
       "email_verified": True, "sub": "ada"}
GRACE = {"is_logged_in": True, "email": "grace@team.example", "name": "Grace Hopper",
         "sub": "grace"}
MALLORY = {"is_logged_in": True, "email": "mallory@elsewhere.example", "name": "Mallory",
           "sub": "mallory"}
ANONYMOUS = {"is_logged_in": False}


@pytest.fixture(scope="module")
def provider() -> Iterator[Provider]:
    with running_provider({"ada": {"email": ADA["email"]}}) as running:
        yield running


@pytest.fixture
def store_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "reports.sqlite3"
    monkeypatch.setenv(STORE_PATH_ENV, str(path))
    monkeypatch.setenv(ALLOWED_USERS_ENV, "@team.example")
    return path


def auth_section(metadata_url: str, **change: Any) -> dict[str, Any]:
    section = {"redirect_uri": "http://127.0.0.1:8501/oauth2callback",
               "cookie_secret": "0123456789abcdef" * 4, "client_id": CLIENT_ID,
               "client_secret": "test", "server_metadata_url": metadata_url, **change}
    return {key: value for key, value in section.items() if value is not None}


def visit(user: dict[str, Any], section: dict[str, Any] | None, **query: str) -> AppTest:
    at = app(**query)
    at.user = dict(user)
    if section is not None:
        at.secrets["auth"] = section
    return run_clean(at)


def titles(at: AppTest) -> list[str]:
    return [t.value for t in at.title]


def plain(markdown: str) -> str:
    """``markdown`` without the backslashes that escape user strings (``markup.text``)."""
    return markdown.replace("\\", "")


def text_of(at: AppTest) -> str:
    return "\n".join([m.value for m in at.markdown] + [i.value for i in at.info]
                     + [e.value for e in at.error] + [c.value for c in at.caption])


def shows_no_app(at: AppTest) -> None:
    """Nothing of a page: no verdict cards, no share button, no banner, no uploader."""
    assert len(at.metric) == 0
    assert "Shared report, read-only" not in text_of(at)
    assert not [b for b in at.button if b.key and b.key.startswith("share:")]
    assert not at.sidebar.markdown or "ranklens" not in at.sidebar.markdown[0].value


def test_an_anonymous_visitor_is_asked_to_sign_in(provider: Provider, store_path: Path) -> None:
    at = visit(ANONYMOUS, auth_section(provider.metadata_url))
    assert titles(at) == ["Sign in to ranklens"]
    assert [b.label for b in at.button] == ["Sign in"]
    shows_no_app(at)


def test_named_providers_each_get_a_button(provider: Provider, store_path: Path) -> None:
    keys = {"client_id": CLIENT_ID, "client_secret": "x",
            "server_metadata_url": provider.metadata_url}
    section = {"redirect_uri": "http://127.0.0.1:8501/oauth2callback",
               "cookie_secret": "0123456789abcdef" * 4, "okta": keys, "microsoft": keys}
    at = visit(ANONYMOUS, section)
    assert [b.label for b in at.button] == ["Sign in with okta", "Sign in with microsoft"]


def test_someone_outside_the_list_sees_a_calm_refusal(provider: Provider,
                                                      store_path: Path) -> None:
    at = visit(MALLORY, auth_section(provider.metadata_url))
    assert titles(at) == ["Not allowed"]
    assert plain(at.info[0].value).startswith(
        "You are signed in as **Mallory (mallory@elsewhere.example)**, but this account is not "
        "on this server's list of allowed people.")
    assert [b.label for b in at.button] == ["Sign out"]
    assert not at.error
    shows_no_app(at)


def test_with_no_list_nobody_is_let_in(provider: Provider, store_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ALLOWED_USERS_ENV)
    at = visit(ADA, auth_section(provider.metadata_url))
    assert titles(at) == ["Not allowed"]
    assert f"({ALLOWED_USERS_ENV} is not set)" in plain(at.info[0].value)
    shows_no_app(at)


@pytest.mark.parametrize(("change", "says"), [
    ({"cookie_secret": None}, "[auth] cookie_secret is missing"),
    ({"redirect_uri": "http://127.0.0.1:8501/"}, "[auth] redirect_uri must end with "
                                                 "/oauth2callback"),
    ({"server_metadata_url": "http://127.0.0.1:{dead}/.well-known/openid-configuration"},
     "the sign-in provider at http://127.0.0.1:{dead}/.well-known/openid-configuration cannot "
     "be reached"),
])
def test_bad_configuration_names_the_key_or_url_and_opens_nothing(
        provider: Provider, store_path: Path, change: dict[str, Any], says: str) -> None:
    dead = str(free_port())
    change = {k: v.replace("{dead}", dead) if v else v for k, v in change.items()}
    for user in (ANONYMOUS, ADA):  # a signed-in person is not let in on a broken setup either
        at = visit(user, auth_section(provider.metadata_url, **change))
        if user is ADA and "cannot be reached" in says:
            continue  # the provider is asked only on the sign-in page
        assert titles(at) == ["Sign-in is not configured correctly"]
        assert says.replace("{dead}", dead) in plain(at.error[0].value)
        shows_no_app(at)


def test_an_allow_list_without_sign_in_is_refused(store_path: Path) -> None:
    at = visit({}, None)
    assert titles(at) == ["Sign-in is not configured correctly"]
    assert (f"{ALLOWED_USERS_ENV} is set, but sign-in is off"
            in plain(at.error[0].value))
    shows_no_app(at)


def test_a_misspelt_allow_list_is_named(provider: Provider, store_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ALLOWED_USERS_ENV, "@team.example, grace")
    at = visit(ADA, auth_section(provider.metadata_url))
    assert f"{ALLOWED_USERS_ENV}: 'grace' is neither an email" in plain(at.error[0].value)
    shows_no_app(at)


def test_a_link_shared_signed_in_says_who_shared_it(provider: Provider,
                                                    store_path: Path) -> None:
    section = auth_section(provider.metadata_url)
    ada = visit(ADA, section)
    signed_in = plain(ada.sidebar.markdown[0].value)
    assert "Signed in as **Ada Lovelace (ada@team.example)**" in signed_in
    assert len(ada.metric) >= 5  # the demo report
    ada.button(key="share:compare").click()
    token = token_of(shown_link(run_clean(ada)))
    stored = reopen(SQLiteReportStore(store_path), token)
    assert stored.shared_by == "ada@team.example"

    grace = visit(GRACE, section, report=token)
    banner = plain(text_of(grace))
    assert "Shared report, read-only.** Shared by ada@team.example on " in banner
    assert stored.created_at.strftime("%Y-%m-%d %H:%M UTC") in banner

    anonymous = visit(ANONYMOUS, section, report=token)
    assert titles(anonymous) == ["Sign in to ranklens"]
    assert "You followed a link" in text_of(anonymous)
    shows_no_app(anonymous)
    outsider = visit(MALLORY, section, report=token)
    assert titles(outsider) == ["Not allowed"]
    shows_no_app(outsider)


def test_without_the_auth_extra_nobody_gets_in_and_the_extra_is_named(
        provider: Provider, store_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "authlib" else real(name, *a))
    at = visit(ADA, auth_section(provider.metadata_url))
    assert titles(at) == ["Sign-in is not configured correctly"]
    assert "pip install 'ranklens[auth]'" in plain(at.error[0].value)
    shows_no_app(at)
