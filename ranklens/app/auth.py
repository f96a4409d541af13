"""Sign-in for a team server: every page behind ``st.login``, and only the allowed people in.

In ``ranklens/app/main.py`` (the main script), one line after ``st.navigation`` has chosen
the page and before it runs::

    auth.gate()

Without an ``[auth]`` section in the app's secrets (``.streamlit/secrets.toml``, or the files
given with ``--secrets.files``) nothing changes: the gate returns at once. With one, a visitor
who is not signed in sees the sign-in page (one button per configured provider, calling
``st.login``: Streamlit and Authlib do the OpenID Connect); a signed-in person outside
``RANKLENS_ALLOWED_USERS`` sees a "not allowed" page naming the account; the allowed see the
app, with their name and a **Sign out** button at the top of the sidebar. Every one of those
pages ends the run (``st.stop``) before anything of the app is drawn or read.

Bad configuration (a missing key, a short cookie secret, an unreadable secrets file or allow
list, a provider that does not answer) is a page that names the key, variable or URL and lets
nobody in. ``ranklens.app.signin`` holds the checks; this module only draws.
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Mapping
from typing import Any, NoReturn

import streamlit as st

from ranklens.app import markup
from ranklens.app.signin import (
    ALLOWED_USERS_ENV,
    DEFAULT_PROVIDER,
    Account,
    AllowList,
    SignInConfig,
    SignInConfigError,
    allowed_users,
    check_auth_section,
    check_provider,
)
from ranklens.store.redact import install_log_redaction

PROVIDER_CHECK_TTL_S = 30
"""How long a provider's answer (reachable or not) is reused before it is asked again."""

logger = logging.getLogger(__name__)


def gate() -> Account | None:
    """Let this run go on only for an allowed, signed-in person; answers who it is.

    Answers None when sign-in is off (no ``[auth]`` section). Otherwise draws the sign-in,
    "not allowed" or configuration-error page and stops the run (``st.stop``), or draws the
    signed-in name and the Sign out button in the sidebar and answers the account.
    """
    install_log_redaction()  # once per process: `streamlit run app.py` masks passwords too
    try:
        config, allow = _configuration()
    except SignInConfigError as error:
        _stop_misconfigured(str(error))
    if config is None:
        return None
    _warn_if_unguarded()
    if not st.user.is_logged_in:
        _stop_at_sign_in(config)
    account = Account.from_claims(st.user.to_dict())
    if allow is None or not allow.admits(account.email):
        _stop_not_allowed(account, allow)
    with st.sidebar:
        st.markdown(f":material/account_circle: Signed in as **{markup.text(account.label)}**")
        if st.button("Sign out", key="auth_sign_out", icon=":material/logout:"):
            st.logout()
    return account


def admitted() -> bool:
    """Whether this run may show the app: sign-in is off (and the configuration says so
    consistently), or an allowed person is signed in. Draws nothing (`gate` draws)."""
    try:
        config, allow = _configuration()
    except SignInConfigError:
        return False
    if config is None:
        return True
    return bool(st.user.is_logged_in) and allow is not None and allow.admits(
        Account.from_claims(st.user.to_dict()).email)


def shared_by() -> str | None:
    """What a share link made now records as its author: the signed-in account, or None
    when sign-in is off (or nobody allowed is signed in)."""
    if not admitted():
        return None
    try:
        config, _ = _configuration()
    except SignInConfigError:
        return None
    return Account.from_claims(st.user.to_dict()).shared_by if config is not None else None


def configuration() -> tuple[SignInConfig | None, AllowList | None]:
    """The checked ``[auth]`` section (None: sign-in off) and the allow list (None: unset);
    `SignInConfigError` naming the problem. For the server's route guard
    (``ranklens.app.route_guard``), which must decide as the pages do."""
    return _configuration()


_warned_unguarded = False


def _warn_if_unguarded() -> None:
    """Once per process: sign-in is on but Streamlit's uploads, downloads and metrics are not
    behind it (the server was not started by ``ranklens app``)."""
    global _warned_unguarded
    from ranklens.app import route_guard

    if not route_guard.installed() and not _warned_unguarded:
        _warned_unguarded = True
        logger.warning("sign-in is on, but this server was not started by `ranklens app`: "
                       "Streamlit's upload, download (/media) and metrics endpoints answer "
                       "visitors who are not signed in (see SECURITY.md)")


def _configuration() -> tuple[SignInConfig | None, AllowList | None]:
    """The checked ``[auth]`` section (None: sign-in off) and the allow list (None: unset)."""
    section = _auth_section()
    allow = allowed_users()
    if section is None:
        if allow is not None:
            raise SignInConfigError(
                f"{ALLOWED_USERS_ENV} is set, but sign-in is off: the app's secrets have no "
                "[auth] section, so nobody's account could be checked against the list. Add "
                f"the [auth] section (see the README), or unset {ALLOWED_USERS_ENV}")
        return None, None
    if importlib.util.find_spec("authlib") is None or not hasattr(st, "login"):
        raise SignInConfigError(
            "the secrets have an [auth] section, but this installation cannot sign anyone "
            "in: install the sign-in extra, pip install 'ranklens[auth]' (Streamlit 1.42 or "
            "newer with Authlib)")
    return check_auth_section(section), allow


def _auth_section() -> Mapping[str, Any] | None:
    """The ``[auth]`` section of the app's secrets; None when there is none (or no secrets)."""
    try:
        secrets = st.secrets.to_dict()
    except FileNotFoundError as error:  # Streamlit's "no secrets" and "cannot parse" alike
        if str(error).startswith("No secrets found"):
            return None
        raise SignInConfigError(f"the app's secrets cannot be read ({error})") from None
    section = secrets.get("auth")
    if section is None:
        return None
    if not isinstance(section, Mapping):
        raise SignInConfigError("[auth] in the app's secrets must be a table ([auth] on a line "
                                "of its own, then key = \"value\" lines)")
    return section


def _stop_misconfigured(problem: str) -> NoReturn:
    logger.error("sign-in is misconfigured: %s", problem)
    st.title("Sign-in is not configured correctly")
    st.error(f"**Nobody can sign in until this is fixed:** {markup.text(problem)}.",
             icon=":material/settings_alert:")
    st.caption("Tell whoever runs this app; the README (\"Deploying for a team\", sign-in) "
               "says how to set it up.")
    st.stop()


def _stop_at_sign_in(config: SignInConfig) -> NoReturn:
    problems = [problem for url in config.providers.values()
                if (problem := _provider_problem(url)) is not None]
    if problems:
        _stop_misconfigured("; ".join(problems))
    st.title("Sign in to ranklens")
    st.markdown("This ranklens server is for its team only: sign in to see its runs, "
                "reports and share links.")
    if st.query_params.to_dict():
        st.caption("You followed a link: signing in brings you to the start page, so open "
                   "the link again once you are signed in.")
    for name in config.providers:
        label = "Sign in" if name == DEFAULT_PROVIDER else f"Sign in with {name}"
        if st.button(label, key=f"auth_sign_in:{name}", type="primary",
                     icon=":material/login:"):
            st.login(name)
    st.stop()


def _stop_not_allowed(account: Account, allow: AllowList | None) -> NoReturn:
    st.title("Not allowed")
    if allow is None or allow.empty:
        reason = (f"nobody is on this server's list of allowed people yet ({ALLOWED_USERS_ENV} "
                  "is not set). Whoever runs this app can add your email or your domain")
    elif account.email is None and account.unverified_email:
        reason = ("the sign-in provider says this account's email is not verified, so it "
                  "cannot be matched against the list of allowed people")
    elif account.email is None:
        reason = ("the sign-in provider sent no email for this account, so it cannot be "
                  "matched against the list of allowed people")
    else:
        reason = ("this account is not on this server's list of allowed people. Ask whoever "
                  "runs this app to add it, or sign in with another account")
    st.info(f"You are signed in as **{markup.text(account.label)}**, but {reason}.",
            icon=":material/person_off:")
    if st.button("Sign out", key="auth_sign_out", icon=":material/logout:"):
        st.logout()
    st.stop()


@st.cache_data(ttl=PROVIDER_CHECK_TTL_S, show_spinner="Contacting the sign-in provider…")
def _provider_problem(metadata_url: str) -> str | None:
    try:
        check_provider(metadata_url)
    except SignInConfigError as error:
        return str(error)
    return None
