"""Which report store share links use, as the operator configured it in the environment.

``store_config()`` answers "where, with which limits and expiry" from environment variables:

- ``RANKLENS_STORE``: the SQLite file (default under the user's data directory), or a
  ``postgresql://user:password@host:port/dbname`` URL: a server that several app replicas
  share (needs the ``postgres`` extra);
- ``RANKLENS_STORE_MAX_REPORT_BYTES``: largest report (inputs uncompressed plus settings);
- ``RANKLENS_STORE_MAX_BYTES``: largest store (compressed, deduplicated);
- ``RANKLENS_SHARE_TTL_DAYS``: links expire after this many days (unset: never).

It opens nothing by itself; ``open_store(config)`` does. The app keeps one store per config.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from ranklens.store import (
    ReportStore,
    StoreLimits,
    default_store_path,
    open_report_store,
    redact_url,
    store_url,
)
from ranklens.store.limits import DEFAULT_MAX_REPORT_BYTES, DEFAULT_MAX_STORE_BYTES

MAX_REPORT_BYTES_ENV = "RANKLENS_STORE_MAX_REPORT_BYTES"
MAX_STORE_BYTES_ENV = "RANKLENS_STORE_MAX_BYTES"
TTL_DAYS_ENV = "RANKLENS_SHARE_TTL_DAYS"


@dataclass(frozen=True)
class StoreConfig:
    """Where share links are stored, their size limits and expiry (hashable: a cache key).

    ``location`` is a SQLite file path or a PostgreSQL URL (which may hold a password: show
    ``where`` instead).
    """

    location: Path | str
    limits: StoreLimits
    default_ttl: timedelta | None

    @property
    def where(self) -> str:
        """The location for people and logs: a path, or the URL without its password."""
        return redact_url(str(self.location))


def store_config(environ: Mapping[str, str] | None = None) -> StoreConfig:
    """The store configuration in ``environ`` (default ``os.environ``).

    Raises ``ValueError`` naming the variable when a value is not a positive number or
    ``RANKLENS_STORE`` is a URL other than ``postgresql://``.
    """
    env = os.environ if environ is None else environ
    limits = StoreLimits(
        max_report_bytes=positive_setting(env, MAX_REPORT_BYTES_ENV, DEFAULT_MAX_REPORT_BYTES),
        max_store_bytes=positive_setting(env, MAX_STORE_BYTES_ENV, DEFAULT_MAX_STORE_BYTES),
    )
    days = env.get(TTL_DAYS_ENV, "").strip()
    ttl = None
    if days:
        try:
            ttl = timedelta(days=float(days))
        except (ValueError, OverflowError):
            raise ValueError(f"{TTL_DAYS_ENV} must be a number of days, not {days!r}") from None
        if ttl <= timedelta(0):
            raise ValueError(f"{TTL_DAYS_ENV} must be positive, not {days!r}")
    location: Path | str = store_url(env) or default_store_path(env)
    return StoreConfig(location, limits, ttl)


def open_store(config: StoreConfig) -> ReportStore:
    """The store of ``config``: creates the SQLite file (and folder) or the PostgreSQL schema
    on first use; ``StoreUnavailable`` when the server cannot be reached."""
    return open_report_store(config.location, limits=config.limits,
                             default_ttl=config.default_ttl)


def positive_setting(env: Mapping[str, str], name: str, default: int,
                     unit: str = "bytes") -> int:
    """``$name`` in ``env`` as a positive whole number of ``unit`` (digits may be grouped with
    underscores: ``2_048``); ``default`` when unset or blank. ``ValueError`` naming the
    variable for anything else. The one reading of every size a server is given (the store's
    limits here, the app's cache and uploads in megabytes)."""
    text = env.get(name, "").strip().replace("_", "")
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{name} must be a whole number of {unit}, not {text!r}") from None
    if value <= 0:
        raise ValueError(f"{name} must be positive, not {value}")
    return value
