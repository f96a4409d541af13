"""Who may use a team server: the sign-in configuration and the allow list, checked in words.

Sign-in is Streamlit's own OpenID Connect (``st.login``): it is on when the app's secrets have
an ``[auth]`` section, and off otherwise. This module answers the questions around it without
Streamlit: is that section complete (`check_auth_section`, each problem naming the key), does
the provider answer (`check_provider`, naming the URL), and may this account come in
(`AllowList`, read from ``RANKLENS_ALLOWED_USERS`` by `allowed_users`). ``ranklens.app.auth``
draws the pages around these answers; nothing here signs anyone in.

Everything fails closed: a configuration it cannot read lets nobody in, with the reason.
"""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ranklens.errors import RanklensError

ALLOWED_USERS_ENV = "RANKLENS_ALLOWED_USERS"
"""Comma-separated emails (``ada@example.org``) and domains (``@example.org``); ``*`` lets in
everyone the provider signs in."""
REQUIRED_SHARED_KEYS = ("redirect_uri", "cookie_secret")
"""Keys of ``[auth]`` itself, whatever the provider."""
REQUIRED_PROVIDER_KEYS = ("client_id", "client_secret", "server_metadata_url")
"""Keys of a provider: in ``[auth]`` for the default one, in ``[auth.NAME]`` for a named one."""
MIN_COOKIE_SECRET_CHARS = 16
"""Shorter secrets are guessable: Streamlit itself warns below 14 bytes (112 bits)."""
DEFAULT_PROVIDER = "default"
"""``st.login()``'s name for the provider configured in ``[auth]`` itself."""

_EMAIL = re.compile(r"[^@\s,]+@[^@\s,]+\.[^@\s,]+")
_DOMAIN = re.compile(r"@[^@\s,]+\.[^@\s,]+")


class SignInConfigError(RanklensError, ValueError):
    """The sign-in configuration cannot be used; the message names the key, variable or URL."""


@dataclass(frozen=True)
class AllowList:
    """Who may come in: exact emails, whole domains, or everyone (``*``).

    Matching ignores case and surrounding space; a domain entry ``@example.org`` matches
    ``ada@example.org`` but not ``ada@sub.example.org`` (list that domain too). It does not
    decide whether an email is genuine: that is the provider's claim (see `Account`).
    """

    emails: frozenset[str] = frozenset()
    domains: frozenset[str] = frozenset()
    everyone: bool = False

    def admits(self, email: str | None) -> bool:
        """Whether ``email`` is on the list (None, an account without email, never is,
        unless the list is ``*``)."""
        if self.everyone:
            return True
        if not email:
            return False
        address = email.strip().lower()
        _, at, domain = address.rpartition("@")
        return address in self.emails or (bool(at) and f"@{domain}" in self.domains)

    @property
    def empty(self) -> bool:
        """Whether the list lets nobody in."""
        return not (self.everyone or self.emails or self.domains)


def parse_allowed_users(text: str, *, source: str = ALLOWED_USERS_ENV) -> AllowList:
    """The allow list written in ``text`` (comma-separated emails, ``@domain`` entries, ``*``).

    Empty entries (a trailing comma) are skipped. Raises `SignInConfigError` naming ``source``
    and the first entry that is neither an email nor a domain, so a typo never lets someone
    in or keeps everyone out silently.
    """
    emails: set[str] = set()
    domains: set[str] = set()
    everyone = False
    for raw in text.split(","):
        entry = raw.strip().lower()
        if not entry:
            continue
        if entry == "*":
            everyone = True
        elif _DOMAIN.fullmatch(entry):
            domains.add(entry)
        elif _EMAIL.fullmatch(entry):
            emails.add(entry)
        else:
            raise SignInConfigError(
                f"{source}: {raw.strip()!r} is neither an email (name@example.org) nor a "
                "domain (@example.org); separate entries with commas")
    return AllowList(frozenset(emails), frozenset(domains), everyone)


def allowed_users(environ: Mapping[str, str] | None = None) -> AllowList | None:
    """The allow list of ``RANKLENS_ALLOWED_USERS`` (None when the variable is unset or blank).

    Raises `SignInConfigError` for an entry it cannot read.
    """
    text = (os.environ if environ is None else environ).get(ALLOWED_USERS_ENV, "")
    return parse_allowed_users(text) if text.strip() else None


@dataclass(frozen=True)
class Account:
    """The signed-in person, from the claims of their identity token (``st.user``).

    ``email`` is None when the provider sent none, or said it is not verified
    (``email_verified`` false): an unverified address must not match the allow list.
    """

    email: str | None
    name: str | None
    subject: str | None
    unverified_email: str | None = None

    @classmethod
    def from_claims(cls, claims: Mapping[str, Any]) -> Account:
        """The account these identity-token claims describe."""
        email = _text(claims.get("email"))
        verified = claims.get("email_verified", True)
        unverified = verified is False or str(verified).lower() == "false"
        return cls(email=None if unverified else email, name=_text(claims.get("name")),
                   subject=_text(claims.get("sub")),
                   unverified_email=email if unverified else None)

    @property
    def label(self) -> str:
        """How the account is named to its owner: "Name (email)", or what the token had."""
        email = self.email or self.unverified_email
        if self.name and email and self.name != email:
            return f"{self.name} ({email})"
        return email or self.name or self.subject or "an account without name or email"

    @property
    def shared_by(self) -> str:
        """What a share link records as its author: the email, else the best name we have."""
        return self.email or self.label


def _text(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


# ---- the [auth] section ---------------------------------------------------------------------

@dataclass(frozen=True)
class SignInConfig:
    """A usable ``[auth]`` section: the providers to offer and where their metadata lives.

    ``providers`` maps the name ``st.login`` takes (``"default"`` for the keys in ``[auth]``
    itself) to its ``server_metadata_url``, in the order they were written.
    """

    providers: dict[str, str]


def check_auth_section(section: Mapping[str, Any]) -> SignInConfig:
    """The providers of a complete ``[auth]`` section; `SignInConfigError` listing every
    problem (each naming its key, as ``[auth] cookie_secret``) otherwise.

    Checks what ``st.login`` would only find when someone clicks: the shared keys, at least one
    provider with ``client_id``, ``client_secret`` and ``server_metadata_url``, absolute
    http(s) URLs, a redirect URI ending in ``/oauth2callback``, a cookie secret long enough
    to be unguessable. It does not contact the provider (`check_provider` does).
    """
    problems: list[str] = []
    for key in REQUIRED_SHARED_KEYS:
        if not _text(section.get(key)):
            problems.append(f"[auth] {key} is missing")
    redirect = _text(section.get("redirect_uri"))
    if redirect:
        problem = _url_problem(redirect)
        if problem:
            problems.append(f"[auth] redirect_uri {problem}")
        elif not urlsplit(redirect).path.endswith("/oauth2callback"):
            problems.append(f"[auth] redirect_uri must end with /oauth2callback "
                            f"(the app's own address, such as "
                            f"https://ranklens.example.org/oauth2callback), not {redirect!r}")
    secret = _text(section.get("cookie_secret"))
    if secret and len(secret) < MIN_COOKIE_SECRET_CHARS:
        problems.append(f"[auth] cookie_secret is {len(secret)} characters; use a random one of "
                        f"at least {MIN_COOKIE_SECRET_CHARS} (python -c \"import secrets; "
                        "print(secrets.token_hex(32))\")")
    named = {name: value for name, value in section.items() if isinstance(value, Mapping)
             and name != "client_kwargs"}
    sections: dict[str, tuple[str, Mapping[str, Any]]] = {
        name: (f"[auth.{name}]", value) for name, value in named.items()}
    if any(key in section for key in REQUIRED_PROVIDER_KEYS) or not named:
        sections = {DEFAULT_PROVIDER: ("[auth]", section), **sections}
    providers: dict[str, str] = {}
    for name, (where, keys) in sections.items():
        if "_" in name:
            problems.append(f"{where}: a provider name cannot contain '_' (Streamlit refuses "
                            "it); rename the section")
        missing = [key for key in REQUIRED_PROVIDER_KEYS if not _text(keys.get(key))]
        problems.extend(f"{where} {key} is missing" for key in missing)
        url = _text(keys.get("server_metadata_url"))
        if url:
            problem = _url_problem(url)
            if problem:
                problems.append(f"{where} server_metadata_url {problem}")
            elif not missing:
                providers[name] = url
    if problems:
        raise SignInConfigError("; ".join(problems))
    return SignInConfig(providers)


def _url_problem(url: str) -> str | None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return f"must be an absolute http(s) URL, not {url!r}"
    return None


# ---- the provider ---------------------------------------------------------------------------

def check_provider(metadata_url: str, *, timeout_s: float = 5.0) -> None:
    """Fetch the provider's OpenID configuration; `SignInConfigError` naming ``metadata_url``
    when it cannot be reached or is not one (no ``issuer`` / ``authorization_endpoint``).

    One GET with a timeout; it checks that sign-in can start, not that the client id and
    secret are right (only the provider knows, at the first sign-in).
    """
    request = urllib.request.Request(metadata_url, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            body = response.read(1_000_000)
    except urllib.error.HTTPError as error:
        raise SignInConfigError(f"the sign-in provider at {metadata_url} answered HTTP "
                                f"{error.code}; check [auth] server_metadata_url") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        raise SignInConfigError(f"the sign-in provider at {metadata_url} cannot be reached "
                                f"({reason}); check [auth] server_metadata_url and that this "
                                "server can reach it") from None
    try:
        metadata = json.loads(body)
    except ValueError:
        metadata = None
    if not isinstance(metadata, dict) or not all(
            isinstance(metadata.get(key), str) for key in ("issuer", "authorization_endpoint")):
        raise SignInConfigError(f"{metadata_url} is not an OpenID Connect configuration (no "
                                "issuer and authorization_endpoint); check [auth] "
                                "server_metadata_url (it usually ends in "
                                "/.well-known/openid-configuration)")
