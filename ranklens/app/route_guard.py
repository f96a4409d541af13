"""Streamlit's own endpoints behind sign-in: uploads, downloads (media), metrics, agent API.

Sign-in (``ranklens.app.auth``) guards what a script run draws; Streamlit's web server also
answers requests no script sees: ``PUT /_stcore/upload_file/<session>/<id>`` (the server holds
the bytes for that session), ``GET /media/<hash>`` (a download button's file), ``GET
/_stcore/metrics`` and ``/_stcore/agent/…``. With sign-in on, `RouteGuard` answers those only
to a visitor whose Streamlit sign-in cookie (``_streamlit_user``, signed with the ``[auth]``
cookie secret) names a person on the allow list; anyone else gets 403 before a byte of the
request body is read, so a visitor who is not allowed cannot make the server hold anything.
Everything else (the page, its websocket, static files, health, the sign-in routes) passes
untouched: the pages' own gate answers those.

With sign-in off the guard lets everything through (a server without sign-in is open to
whoever reaches it, by design), but for one bound it keeps either way: the uploads the server
holds for all sessions together, and those in flight, stay under ``RANKLENS_UPLOADS_MB`` (an
upload that would pass it is refused with 413 before its body is read). A sign-in
configuration it cannot read refuses the guarded routes to everyone. `install` puts the guard
in front of Streamlit's middleware when ``ranklens app`` starts the server (Streamlit 1.5x's
Starlette server); `installed` tells the pages whether it is there. It does not check that a
session id belongs to its uploader.
The cookie is checked with Streamlit's own reader (a private function of its Starlette
server): should a Streamlit upgrade remove it, no cookie checks out and the guarded routes are
refused to everyone (closed, with a warning in the log), never opened.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from ranklens.app.signin import Account, SignInConfigError
from ranklens.store.config import positive_setting

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

UPLOADS_MB_ENV = "RANKLENS_UPLOADS_MB"
"""Most megabytes (10^6 bytes) of uploads the server holds for all sessions together."""
DEFAULT_UPLOADS_MB = 4_000
"""Room for the uploads of several sessions comparing big runs (two 247 MB runs and their
judgements are about 0.5 GB), yet a fixed part of the memory budget."""
UPLOAD_PREFIX = "_stcore/upload_file/"
GUARDED_PREFIXES = ("_stcore/upload_file/", "media/", "_stcore/metrics", "_stcore/agent/")
"""Paths (after ``server.baseUrlPath``) answered only to allowed people when sign-in is on."""
USER_COOKIE = "_streamlit_user"

_installed = False


@dataclass(frozen=True)
class Refusal:
    """Why a request is refused: the HTTP status and a one-line reason (no detail of the
    configuration or the account beyond what the visitor already knows)."""

    status: int
    reason: str


NOT_SIGNED_IN = Refusal(403, "sign in to this ranklens server first")
NOT_ALLOWED = Refusal(403, "this account is not on this ranklens server's list of allowed "
                           "people")
MISCONFIGURED = Refusal(403, "sign-in is not configured correctly on this server")


def uploads_limit_bytes(environ: Mapping[str, str] | None = None) -> int:
    """The total upload bytes the server may hold (``RANKLENS_UPLOADS_MB``, default
    `DEFAULT_UPLOADS_MB`); ``ValueError`` naming the variable for a value that is not a
    positive whole number."""
    import os

    env = os.environ if environ is None else environ
    return positive_setting(env, UPLOADS_MB_ENV, DEFAULT_UPLOADS_MB, "megabytes") * 1_000_000


def held_upload_bytes() -> int:
    """Bytes of uploads Streamlit holds now for all sessions (its in-memory upload manager);
    0 when there is no runtime or the manager is not the in-memory one."""
    try:
        from streamlit.runtime import Runtime

        manager = Runtime.instance().uploaded_file_mgr
    except Exception:  # no runtime (tests), or a Streamlit without one
        return 0
    total = getattr(manager, "_total_bytes", None)
    if isinstance(total, int):
        return total
    storage = getattr(manager, "file_storage", {})
    return sum(len(rec.data) for files in list(storage.values())
               for rec in list(files.values()))


def _path_under(path: str, base_url: str) -> str | None:
    base = f"/{base_url.strip('/')}/" if base_url.strip("/") else "/"
    return path[len(base):] if path.startswith(base) else None


def is_guarded(path: str, base_url: str = "") -> bool:
    """Whether ``path`` (a request's URL path) is one of `GUARDED_PREFIXES` under
    ``base_url`` (Streamlit's ``server.baseUrlPath``, without slashes at either end)."""
    rest = _path_under(path, base_url)
    if rest is None:
        return False
    return any(rest == prefix.rstrip("/") or rest.startswith(prefix)
               for prefix in GUARDED_PREFIXES)


def verdict(user: Mapping[str, Any] | None, signin: Callable[[], tuple[Any, Any]]
            ) -> Refusal | None:
    """None when a guarded request may pass, else the `Refusal`.

    ``user`` is the verified payload of the sign-in cookie (None: no valid cookie);
    ``signin`` answers ``(config, allow)`` as ``ranklens.app.auth.configuration`` does
    (config None: sign-in off) or raises `SignInConfigError`.
    """
    try:
        config, allow = signin()
    except SignInConfigError:
        return MISCONFIGURED
    if config is None:
        return None
    if not user or not user.get("is_logged_in"):
        return NOT_SIGNED_IN
    if allow is None or not allow.admits(Account.from_claims(user).email):
        return NOT_ALLOWED
    return None


def cookie_user(headers: list[tuple[bytes, bytes]]) -> dict[str, Any] | None:
    """The payload of Streamlit's signed sign-in cookie among request ``headers``; None when
    there is none, its signature or age does not check out, or it is not JSON."""
    from starlette.requests import cookie_parser  # lenient, as Streamlit reads cookies

    jar: dict[str, str] = {}
    for name, value in headers:
        if name.lower() == b"cookie":
            jar.update(cookie_parser(value.decode("latin-1")))
    if not any(key.startswith(USER_COOKIE) for key in jar):
        return None
    try:
        from streamlit.web.server.starlette.starlette_websocket import (
            _get_signed_cookie_with_chunks,
        )
        raw = _get_signed_cookie_with_chunks(jar, USER_COOKIE)
        payload = json.loads(raw) if raw else None
    except Exception:  # an unreadable cookie is no sign-in, never an error page
        logger.warning("a sign-in cookie could not be read; treated as not signed in")
        return None
    return payload if isinstance(payload, dict) else None


class RouteGuard:
    """ASGI middleware: `verdict` for every HTTP request to a guarded path, before the
    request's body is read; a refusal is a short plain-text 403 that closes the connection.

    An upload that passes is also weighed: when the uploads Streamlit holds, those in flight
    and this one's ``Content-Length`` would exceed `uploads_limit_bytes`, it is refused with
    413 before its body is read (sign-in on or off: this bound is the server's, not a
    person's)."""

    def __init__(self, app: ASGIApp, base_url: str | None = None,
                 signin: Callable[[], tuple[Any, Any]] | None = None,
                 uploads_limit: int | None = None,
                 held: Callable[[], int] = held_upload_bytes) -> None:
        self.app = app
        self._base_url = base_url
        self._signin = signin
        self._uploads_limit = uploads_limit
        self._held = held
        self._in_flight = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope.get("type") != "http" or not is_guarded(path, self._base()):
            await self.app(scope, receive, send)
            return
        refusal = verdict(cookie_user(list(scope.get("headers", []))), self._signin_state)
        if refusal is None and scope.get("method") == "PUT" and (
                _path_under(path, self._base()) or "").startswith(UPLOAD_PREFIX):
            await self._weighed_upload(scope, receive, send)
            return
        if refusal is None:
            await self.app(scope, receive, send)
            return
        await _refuse(scope, send, refusal)

    async def _weighed_upload(self, scope: Scope, receive: Receive, send: Send) -> None:
        length = _content_length(scope)
        limit = self._limit()
        held = self._held() + self._in_flight
        if held + length > limit:
            await _refuse(scope, send, Refusal(
                413, f"this server holds {held / 1e6:,.0f} MB of uploads; another "
                f"{length / 1e6:,.0f} MB would pass its limit of {limit / 1e6:,.0f} MB "
                f"({UPLOADS_MB_ENV}); remove files from other uploaders or try again later"))
            return
        self._in_flight += length
        try:
            await self.app(scope, receive, send)
        finally:
            self._in_flight -= length

    def _limit(self) -> int:
        if self._uploads_limit is None:
            try:
                self._uploads_limit = uploads_limit_bytes()
            except ValueError as error:  # `ranklens app` checks it before starting
                logger.error("%s; using %s MB", error, DEFAULT_UPLOADS_MB)
                self._uploads_limit = DEFAULT_UPLOADS_MB * 1_000_000
        return self._uploads_limit

    def _base(self) -> str:
        if self._base_url is not None:
            return self._base_url
        from streamlit import config

        return str(config.get_option("server.baseUrlPath") or "")

    def _signin_state(self) -> tuple[Any, Any]:
        if self._signin is None:  # `install` always hands one over
            raise SignInConfigError("the route guard was started without the sign-in check")
        return self._signin()


def _content_length(scope: Scope) -> int:
    """The request's declared body size; a request without one is weighed as Streamlit's
    largest upload (``server.maxUploadSize``)."""
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return max(0, int(value))
            except ValueError:
                break
    try:
        from streamlit import config

        return int(config.get_option("server.maxUploadSize")) * 1024 * 1024
    except Exception:
        return 0


async def _refuse(scope: Scope, send: Send, refusal: Refusal) -> None:
    logger.info("refused %s %s: %s", scope.get("method"), scope.get("path"), refusal.reason)
    body = f"{refusal.reason}\n".encode()
    await send({"type": "http.response.start", "status": refusal.status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store"),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def install(signin: Callable[[], tuple[Any, Any]]) -> bool:
    """Put `RouteGuard` first in the middleware of the server Streamlit is about to start
    (call before ``streamlit run``), deciding with ``signin`` (``ranklens.app.auth``'s
    ``configuration``: ``(config, allow)``, config None when sign-in is off); answers whether
    it could (False: a Streamlit without the Starlette server, whose guarded routes then stay
    open: see SECURITY.md)."""
    global _installed
    try:
        from starlette.middleware import Middleware
        from streamlit.web.server.starlette import starlette_app
    except ImportError:
        return False
    original = getattr(starlette_app, "create_streamlit_middleware", None)
    if original is None:
        return False
    if getattr(original, "ranklens_guarded", False):
        return True

    def guarded_middleware() -> list[Any]:
        return [Middleware(RouteGuard, signin=signin), *original()]

    guarded_middleware.ranklens_guarded = True  # type: ignore[attr-defined]
    starlette_app.create_streamlit_middleware = guarded_middleware
    _installed = True
    return True


def installed() -> bool:
    """Whether `install` put the guard in this process's server."""
    return _installed
