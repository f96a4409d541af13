"""Where the report store lives: a SQLite file on disk, or a PostgreSQL server's URL.

``RANKLENS_STORE`` holds either a file path (the embedded SQLite store, the default) or a
``postgresql://`` / ``postgres://`` URL (a server several app replicas share). Anything else
that looks like a URL (``scheme://...``) is refused rather than taken as a relative path: a
mistyped URL must not silently become a folder named ``postgresql:`` in the working directory.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from ranklens.store.redact import redact_url

STORE_PATH_ENV = "RANKLENS_STORE"
STORE_FILENAME = "reports.sqlite3"
POSTGRES_SCHEMES = ("postgresql", "postgres")

_URL_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_KEY_VALUE_DSN = re.compile(r"^\s*[a-z_]+\s*=", re.IGNORECASE)

__all__ = ["STORE_PATH_ENV", "default_store_path", "is_postgres_url", "redact_url", "store_url"]


def is_postgres_url(location: str) -> bool:
    """Whether ``location`` is a ``postgresql://`` or ``postgres://`` URL (case-insensitive)."""
    text = location.strip()
    return _URL_PATTERN.match(text) is not None and (
        text.split("://", 1)[0].lower() in POSTGRES_SCHEMES
    )


def store_url(environ: Mapping[str, str] | None = None) -> str | None:
    """The PostgreSQL URL in ``$RANKLENS_STORE``, or None when the store is a SQLite file.

    Raises ``ValueError`` naming the variable for a URL of any other scheme.
    """
    env = os.environ if environ is None else environ
    explicit = env.get(STORE_PATH_ENV, "").strip()
    if is_postgres_url(explicit):
        return explicit
    _refuse_other_urls(explicit)
    return None


def default_store_path(environ: Mapping[str, str] | None = None) -> Path:
    """The SQLite store file: ``$RANKLENS_STORE`` if set, else under the user's data directory.

    The data directory is ``$XDG_DATA_HOME`` when it is an absolute path (the XDG spec says to
    ignore relative ones), ``%LOCALAPPDATA%`` on Windows, else ``~/.local/share``. Answers only
    the path; it creates nothing. Raises ``ValueError`` when ``$RANKLENS_STORE`` is a URL
    (a PostgreSQL one is answered by :func:`store_url`, not here).
    """
    env = os.environ if environ is None else environ
    explicit = env.get(STORE_PATH_ENV, "").strip()
    if is_postgres_url(explicit):
        raise ValueError(f"{STORE_PATH_ENV} is a PostgreSQL URL, not a SQLite file path")
    _refuse_other_urls(explicit)
    if explicit:
        return Path(explicit).expanduser()
    xdg = env.get("XDG_DATA_HOME", "")
    if xdg and Path(xdg).is_absolute():
        base = Path(xdg)
    elif os.name == "nt" and env.get("LOCALAPPDATA"):
        base = Path(env["LOCALAPPDATA"])
    else:
        base = Path.home() / ".local" / "share"
    return base / "ranklens" / STORE_FILENAME


def _refuse_other_urls(text: str) -> None:
    if _KEY_VALUE_DSN.match(text):
        raise ValueError(
            f"{STORE_PATH_ENV} looks like a libpq key=value string ({redact_url(text)}); "
            "the report store is either a file path (SQLite) or a postgresql:// URL, such as "
            "postgresql://user@host:5432/dbname (give the password in PGPASSWORD or "
            "~/.pgpass)")
    if _URL_PATTERN.match(text):
        scheme = text.split("://", 1)[0]
        raise ValueError(
            f"{STORE_PATH_ENV} is a {scheme}:// URL; the report store is either a file path "
            "(SQLite) or a postgresql:// URL")
