"""Who may come in (the allow list), whether ``[auth]`` is complete, whether the provider
answers: ``ranklens.app.signin``, checked against a real OpenID Connect provider where it calls
one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ranklens.app.signin import (
    ALLOWED_USERS_ENV,
    Account,
    AllowList,
    SignInConfigError,
    allowed_users,
    check_auth_section,
    check_provider,
    parse_allowed_users,
)
from tests.support.oidc_provider import Provider, running_provider
from tests.support.postgres_server import free_port

COMPLETE = {
    "redirect_uri": "https://ranklens.team.example/oauth2callback",
    "cookie_secret": "f" * 64,
    "client_id": "ranklens",
    "client_secret": "s3cret",
    "server_metadata_url": "https://idp.team.example/.well-known/openid-configuration",
}


@pytest.fixture(scope="module")
def provider() -> Iterator[Provider]:
    with running_provider({"ada": {"email": "ada@team.example"}}) as running:
        yield running


# ---- the allow list -------------------------------------------------------------------------

def test_emails_and_domains_are_read_and_matched_without_case() -> None:
    allow = parse_allowed_users(" Ada@Team.example, @partner.example ,, grace@lab.example ")
    assert allow == AllowList(frozenset({"ada@team.example", "grace@lab.example"}),
                              frozenset({"@partner.example"}))
    assert allow.admits("ADA@team.example")
    assert allow.admits("anyone@Partner.example")
    assert allow.admits(" grace@lab.example ")
    assert not allow.admits("bob@team.example")  # the address, not its domain, is listed
    assert not allow.admits("eve@sub.partner.example")  # a domain is not its subdomains
    assert not allow.admits("eve@evilpartner.example")
    assert not allow.admits("partner.example")
    assert not allow.admits(None)
    assert not allow.admits("")


def test_an_address_ending_in_a_listed_domain_text_is_not_that_domain() -> None:
    allow = parse_allowed_users("@team.example")
    assert not allow.admits("mallory@team.example.attacker.example")
    assert not allow.admits("mallory@xteam.example")
    assert allow.admits("x@team.example")


def test_a_star_lets_in_everyone_the_provider_signs_in() -> None:
    allow = parse_allowed_users("*")
    assert allow.everyone and allow.admits("anyone@anywhere.example")
    assert allow.admits(None)
    assert not allow.empty
    assert parse_allowed_users(" , ").empty


@pytest.mark.parametrize("entry", ["ada", "team.example", "ada@", "@", "a@b@c.example",
                                   "ada @team.example", "@localhost"])
def test_an_entry_that_is_neither_email_nor_domain_is_named(entry: str) -> None:
    with pytest.raises(SignInConfigError) as caught:
        parse_allowed_users(f"grace@team.example, {entry}")
    assert str(caught.value).startswith(f"{ALLOWED_USERS_ENV}: {entry!r} is neither an email")


def test_the_variable_unset_or_blank_is_no_list() -> None:
    assert allowed_users({}) is None
    assert allowed_users({ALLOWED_USERS_ENV: "  "}) is None
    assert allowed_users({ALLOWED_USERS_ENV: "@team.example"}) == AllowList(
        domains=frozenset({"@team.example"}))


# ---- the account ----------------------------------------------------------------------------

def test_an_unverified_email_never_matches() -> None:
    account = Account.from_claims({"email": "ada@team.example", "email_verified": False,
                                   "name": "Ada", "sub": "1"})
    assert account.email is None
    assert account.unverified_email == "ada@team.example"
    assert account.label == "Ada (ada@team.example)"
    assert not parse_allowed_users("ada@team.example").admits(account.email)


def test_the_account_is_named_by_what_the_token_has() -> None:
    full = Account.from_claims({"email": "ada@team.example", "name": "Ada Lovelace",
                                "email_verified": True, "sub": "7"})
    assert (full.label, full.shared_by) == ("Ada Lovelace (ada@team.example)", "ada@team.example")
    assert Account.from_claims({"email": "ada@team.example"}).label == "ada@team.example"
    nameless = Account.from_claims({"sub": "u-42", "name": "  "})
    assert (nameless.email, nameless.label, nameless.shared_by) == (None, "u-42", "u-42")


# ---- the [auth] section ---------------------------------------------------------------------

def test_a_complete_section_gives_its_default_provider() -> None:
    config = check_auth_section(COMPLETE)
    assert config.providers == {"default": COMPLETE["server_metadata_url"]}


def test_named_providers_are_offered_in_order() -> None:
    okta = {"client_id": "a", "client_secret": "b",
            "server_metadata_url": "https://team.okta.example/.well-known/openid-configuration"}
    entra = {**okta, "server_metadata_url": "https://login.example/t/v2.0/.well-known/"
                                            "openid-configuration"}
    section = {"redirect_uri": COMPLETE["redirect_uri"], "cookie_secret": "x" * 32,
               "okta": okta, "microsoft": entra}
    assert list(check_auth_section(section).providers) == ["okta", "microsoft"]


def test_every_missing_key_is_named() -> None:
    with pytest.raises(SignInConfigError) as caught:
        check_auth_section({"client_id": "ranklens"})
    assert str(caught.value) == ("[auth] redirect_uri is missing; [auth] cookie_secret is "
                                 "missing; [auth] client_secret is missing; [auth] "
                                 "server_metadata_url is missing")
    with pytest.raises(SignInConfigError, match=r"^\[auth.okta\] client_secret is missing$"):
        check_auth_section({"redirect_uri": COMPLETE["redirect_uri"], "cookie_secret": "x" * 32,
                            "okta": {"client_id": "a", "server_metadata_url":
                                     COMPLETE["server_metadata_url"]}})


@pytest.mark.parametrize(("change", "says"), [
    ({"cookie_secret": "short"}, "[auth] cookie_secret is 5 characters; use a random one of "
                                 "at least 16"),
    ({"redirect_uri": "/oauth2callback"}, "[auth] redirect_uri must be an absolute http(s) URL"),
    ({"redirect_uri": "https://ranklens.team.example/"}, "[auth] redirect_uri must end with "
                                                         "/oauth2callback"),
    ({"server_metadata_url": "idp.team.example"}, "[auth] server_metadata_url must be an "
                                                  "absolute http(s) URL, not 'idp.team.example'"),
    ({"client_id": "  "}, "[auth] client_id is missing"),
])
def test_unusable_values_are_named(change: dict[str, str], says: str) -> None:
    with pytest.raises(SignInConfigError) as caught:
        check_auth_section({**COMPLETE, **change})
    assert str(caught.value).startswith(says)


def test_a_provider_name_with_an_underscore_is_refused() -> None:
    with pytest.raises(SignInConfigError, match=r"\[auth.my_idp\]: a provider name cannot"):
        check_auth_section({"redirect_uri": COMPLETE["redirect_uri"], "cookie_secret": "x" * 32,
                            "my_idp": {k: COMPLETE[k] for k in ("client_id", "client_secret",
                                                                "server_metadata_url")}})


# ---- the provider ---------------------------------------------------------------------------

def test_a_running_provider_passes(provider: Provider) -> None:
    check_provider(provider.metadata_url)


def test_an_unreachable_provider_is_named_by_its_url() -> None:
    url = f"http://127.0.0.1:{free_port()}/.well-known/openid-configuration"
    with pytest.raises(SignInConfigError) as caught:
        check_provider(url, timeout_s=2)
    assert str(caught.value).startswith(f"the sign-in provider at {url} cannot be reached (")
    assert "[auth] server_metadata_url" in str(caught.value)


def test_a_url_that_is_not_an_openid_configuration_is_named(provider: Provider) -> None:
    with pytest.raises(SignInConfigError, match="answered HTTP 404"):
        check_provider(f"{provider.url}/no-such-page")
    with pytest.raises(SignInConfigError, match="is not an OpenID Connect configuration"):
        check_provider(f"{provider.url}/jwks")  # JSON, but a key set
