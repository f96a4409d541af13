"""Sign-in in Chromium through a real OpenID Connect provider: only the team gets in, and a
share link says who shared it.

One app server with an ``[auth]`` section (``--secrets.files``) and ``RANKLENS_ALLOWED_USERS``,
one provider (``oidc-provider-mock``, its login form and signed tokens) on 127.0.0.1, and one
scenario that carries every assertion: each page load costs seconds of CPU on this machine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from ranklens.app.signin import ALLOWED_USERS_ENV
from tests.support.app_server import start_app, stop_app
from tests.support.compare_page import headline
from tests.support.oidc_provider import running_provider, write_secrets
from tests.support.share_page import (
    SHARED_BANNER,
    expect_same_report,
    share_link,
    what_the_report_says,
)
from tests.support.streamlit_page import RERUN_TIMEOUT, assert_no_error, open_app, wait_idle

ACCOUNTS = {
    "ada": {"email": "ada@team.example", "name": "Ada Lovelace", "email_verified": True},
    "grace": {"email": "grace@lab.example", "name": "Grace Hopper", "email_verified": True},
    "mallory": {"email": "mallory@elsewhere.example", "name": "Mallory"},
}
SIGN_IN = "Sign in to ranklens"


@pytest.fixture(scope="module")
def team_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app behind sign-in: ada by her address, everyone at lab.example by domain."""
    folder = tmp_path_factory.mktemp("signin")
    with running_provider(ACCOUNTS) as provider:
        secrets = write_secrets(folder / "secrets.toml", provider.metadata_url)
        url, process = start_app(folder / "reports.sqlite3", folder / "streamlit.log",
                                 ["--secrets.files", str(secrets)],
                                 env={ALLOWED_USERS_ENV: "ada@team.example, @lab.example"})
        try:
            yield url
        finally:
            stop_app(process)


def expect_sign_in_page(page: Page) -> None:
    expect(page.get_by_role("heading", name=SIGN_IN)).to_be_visible()
    expect(page.get_by_test_id("stMetric")).to_have_count(0)
    expect(page.get_by_text(SHARED_BANNER)).to_have_count(0)
    assert_no_error(page)


def sign_in(page: Page, url: str, sub: str) -> None:
    """Sign in as ``sub`` through the provider's form; back on the app's start page."""
    open_app(page, url)
    expect_sign_in_page(page)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name=sub, exact=True).click()  # the provider's login form
    page.wait_for_url(f"{url}/")
    expect(page.get_by_text("Signed in as").or_(page.get_by_text("Not allowed")).first
           ).to_be_visible(timeout=RERUN_TIMEOUT)
    wait_idle(page, timeout=RERUN_TIMEOUT)  # the start page: the demo report, computed once


def test_only_the_team_gets_in_and_a_link_says_who_shared_it(
        team_app: str, new_context: Callable[..., BrowserContext]) -> None:
    url = team_app
    visitor = new_context().new_page()
    for path in ("/", "/mde", "/ppi"):
        open_app(visitor, url + path)
        expect_sign_in_page(visitor)

    ada = new_context().new_page()
    sign_in(ada, url, "ada")
    expect(ada.get_by_test_id("stSidebar")).to_contain_text(
        "Signed in as Ada Lovelace (ada@team.example)")
    assert headline(ada).endswith(" on nDCG@10.")  # the demo report
    shown = what_the_report_says(ada)
    link = share_link(ada)

    open_app(visitor, link)  # the link, without signing in
    expect_sign_in_page(visitor)

    grace = new_context().new_page()
    sign_in(grace, url, "grace")
    open_app(grace, link)
    expect(grace.get_by_text(SHARED_BANNER)).to_be_visible()
    expect(grace.get_by_test_id("stMarkdown").filter(has_text=SHARED_BANNER)).to_contain_text(
        "Shared by ada@team.example on ")
    expect_same_report(grace, shown)

    mallory = new_context().new_page()
    sign_in(mallory, url, "mallory")
    for page_url in (url, link):
        open_app(mallory, page_url)
        expect(mallory.get_by_role("heading", name="Not allowed")).to_be_visible()
        expect(mallory.get_by_text("You are signed in as Mallory (mallory@elsewhere.example)")
               ).to_be_visible()
        expect(mallory.get_by_test_id("stMetric")).to_have_count(0)
        expect(mallory.get_by_text(SHARED_BANNER)).to_have_count(0)

    ada.get_by_role("button", name="Sign out").click()
    ada.get_by_role("button", name="End session").click()  # the provider's sign-out form
    expect(ada.get_by_role("heading", name=SIGN_IN)).to_be_visible()
    open_app(ada, link)  # the cookie is gone: the link asks to sign in again
    expect_sign_in_page(ada)
