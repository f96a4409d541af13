"""The app's report store and reopened share links, one per server process.

``report_store()`` answers "the store this server shares links in", configured by the
environment (``ranklens.store.config``) and opened once per configuration; ``reopened(token)``
answers "the page behind this token", kept for a few minutes so that reruns and page switches
do not decompress the inputs again. A cached link is still served for up to ``REOPEN_TTL_S``
after it was deleted or expired; that is the price of not reading the store on every rerun.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import streamlit as st

from ranklens.share.links import Shared, reopen
from ranklens.store import ReportStore, StoreLimits
from ranklens.store.config import StoreConfig, open_store, store_config

REOPEN_TTL_S = 600


def report_store() -> ReportStore:
    """The store of the current configuration (``RANKLENS_STORE`` and friends)."""
    return _store_for(*_config_key(store_config()))


def reopened(token: str) -> Shared:
    """The shared page behind ``token``; ``ReportNotFound`` / ``SharedFormatError`` as reopen."""
    return _reopen(token, *_config_key(store_config()))


def _config_key(config: StoreConfig) -> tuple[str, bool, int, int, float | None]:
    ttl = None if config.default_ttl is None else config.default_ttl.total_seconds()
    return (str(config.location), isinstance(config.location, str),
            config.limits.max_report_bytes, config.limits.max_store_bytes, ttl)


@st.cache_resource(show_spinner=False, max_entries=4)
def _store_for(location: str, is_url: bool, max_report_bytes: int, max_store_bytes: int,
               ttl_seconds: float | None) -> ReportStore:
    # Exceptions are not cached: a server that was down is tried again on the next use.
    limits = StoreLimits(max_report_bytes=max_report_bytes, max_store_bytes=max_store_bytes)
    ttl = None if ttl_seconds is None else timedelta(seconds=ttl_seconds)
    return open_store(StoreConfig(location=location if is_url else Path(location),
                                  limits=limits, default_ttl=ttl))


@st.cache_resource(show_spinner="Opening the shared report…", max_entries=4, ttl=REOPEN_TTL_S)
def _reopen(token: str, location: str, is_url: bool, max_report_bytes: int,
            max_store_bytes: int, ttl_seconds: float | None) -> Shared:
    # Exceptions are not cached: an unknown token is looked up again next time.
    store = _store_for(location, is_url, max_report_bytes, max_store_bytes, ttl_seconds)
    return reopen(store, token)
