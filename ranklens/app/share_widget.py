"""Share links in the app: the Share action on a page, and opening ``?report=<token>``.

In ``app.py``::

    link = share_widget.resolve_shared()            # before st.navigation
    page = st.navigation(menu)
    if share_widget.enter_shared(link, page, pages_by_kind):
        page.run()

``resolve_shared`` reads the token and remembers the open report in the session, so it stays
open while the user switches pages (switching clears the URL's query); ``enter_shared`` shows
the "Report not found" page, switches to the page the report was shared from, or shows the
read-only banner. A page asks ``shared_for(kind)`` whether to take its inputs and settings
from a shared report, and calls ``share_action(kind, settings, files, result)`` to offer the
link (``result``: what the page shows, stored with the link).

A link keeps its numbers: the banner says which ranklens version computed them and offers
"Recompute with ranklens X" (``recompute_wanted``); the page then shows this version's numbers
and ``show_recomputed`` says what differs. Nothing here computes a report; ``ranklens.share.links``
stores and reopens, the pages draw.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

import streamlit as st

from ranklens import __version__
from ranklens.app import auth, markup
from ranklens.app.report_store import reopened, report_store
from ranklens.compare.report import Report
from ranklens.io import InputFile
from ranklens.share.links import PageSettings, Shared, SharedFormatError, share
from ranklens.store import ReportNotFound, StoreError, StoreLimitError, StoreUnavailable

QUERY_PARAM = "report"
PAGE_TITLES = {"compare": "Compare runs", "mde": "How many queries (MDE)",
               "ppi": "Cheap labels (PPI++)"}

_OPEN_TOKEN = "_ranklens_shared_token"  # session: the token of the report being viewed
_LINKS = "_ranklens_share_links"  # session: {what was shared: token}, to show a link again

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SharedLink:
    """What this run's URL and session say about share links.

    ``status``: ``none`` (no link), ``open`` (``shared`` is the report), ``not_found``
    (malformed, unknown, expired or deleted: one answer for all), ``unreadable`` (a snapshot
    this version cannot open; ``message`` says why) or ``unavailable`` (the store failed).
    ``just_opened`` is True on the run where the link was followed.
    """

    status: Literal["none", "open", "not_found", "unreadable", "unavailable"]
    shared: Shared | None = None
    message: str = ""
    just_opened: bool = False


# ---- opening a link -----------------------------------------------------------------------

def resolve_shared() -> SharedLink:
    """The share link of this run, from ``?report=`` or the session (call before navigation).

    A token in the URL replaces whatever report the session had open. Never raises for a bad
    token; store failures are logged and answered with ``unavailable``. Under sign-in, a
    visitor who is not an allowed, signed-in person gets ``none``: the store is not read.
    """
    if not auth.admitted():
        return SharedLink("none")  # app.py's auth.gate() shows the sign-in page instead
    if QUERY_PARAM not in st.query_params:
        token = st.session_state.get(_OPEN_TOKEN)
        shared = _still_there(token) if token is not None else None
        return SharedLink("open", shared) if shared is not None else SharedLink("none")
    token = st.query_params.get(QUERY_PARAM, "").strip()
    already = st.session_state.get(_OPEN_TOKEN) == token
    st.session_state.pop(_OPEN_TOKEN, None)
    try:
        shared = reopened(token)
    except ReportNotFound:
        return SharedLink("not_found")
    except SharedFormatError as error:
        return SharedLink("unreadable", message=str(error))
    except StoreUnavailable as error:
        logger.warning("%s", error)
        return SharedLink("unavailable", message=_sentence(str(error)))
    except (StoreError, OSError, sqlite3.Error, ValueError):
        logger.exception("the report store could not be read")
        return SharedLink("unavailable")
    st.session_state[_OPEN_TOKEN] = shared.token
    return SharedLink("open", shared, just_opened=not already)


def enter_shared(link: SharedLink, page: Any, pages_by_kind: Mapping[str, Any]) -> bool:
    """Show what ``link`` needs around ``page``; answers whether the page should run.

    ``pages_by_kind`` maps "compare", "mde", "ppi" to the ``st.Page`` objects given to
    ``st.navigation`` (``page`` is one of them). A link to another page switches there once,
    keeping ``?report=`` in the URL; after that the user may switch pages freely.
    """
    if link.status in ("not_found", "unreadable", "unavailable"):
        _show_not_found(link)
        return False
    if link.status == "none" or link.shared is None:
        return True
    shared = link.shared
    target = pages_by_kind.get(shared.kind)
    if page is not target and link.just_opened and target is not None:
        st.switch_page(target, query_params={QUERY_PARAM: shared.token})
    if page is target:
        _show_banner(shared)
    else:
        _show_sidebar_note(shared, target)
    return True


def shared_for(kind: str) -> Shared | None:
    """The shared report this session views, if it was shared from a ``kind`` page."""
    token = st.session_state.get(_OPEN_TOKEN)
    shared = _still_there(token) if token is not None else None
    return shared if shared is not None and shared.kind == kind else None


def leave_shared() -> None:
    """Close the shared report: the pages take the user's own inputs again."""
    st.session_state.pop(_OPEN_TOKEN, None)
    st.query_params.clear()


def _still_there(token: str) -> Shared | None:
    try:
        return reopened(token)
    except (StoreError, SharedFormatError, OSError, sqlite3.Error, ValueError):
        st.session_state.pop(_OPEN_TOKEN, None)
        return None


def _show_not_found(link: SharedLink) -> None:
    st.title("Report not found")
    if link.status == "unreadable":
        st.warning(link.message, icon=":material/history:")
    elif link.status == "unavailable":
        reason = f"{link.message} " if link.message else ""
        st.error(f"Shared reports cannot be opened right now: the report store could not be "
                 f"read. {reason}Try again in a minute; if it persists, tell whoever runs this "
                 "app.", icon=":material/cloud_off:")
    else:
        st.markdown("This link does not lead to a report. It may be incomplete (check that "
                    "the whole link was copied), or the report may have expired or been "
                    "deleted. Ask whoever sent it for a new link.")
    st.button("Start my own analysis", on_click=leave_shared, key="shared_not_found_leave",
              icon=":material/arrow_forward:")


def _show_banner(shared: Shared) -> None:
    created = shared.created_at.strftime("%Y-%m-%d %H:%M UTC")
    by = f" by {markup.text(shared.shared_by)}" if shared.shared_by else ""
    expiry = ("" if shared.expires_at is None
              else f" The link expires {shared.expires_at.strftime('%Y-%m-%d %H:%M UTC')}.")
    with st.container(border=True, key="shared_banner"):
        if not shared.keeps_numbers:
            st.markdown(
                f":material/lock: **Shared report, read-only.** The inputs and settings someone "
                f"shared on {created} with ranklens {shared.version}, recomputed here by "
                f"ranklens {__version__} (links of that version did not store their numbers); "
                f"the controls that would change them are hidden.{expiry}")
            if shared.version != __version__:
                st.caption(f"Numbers can differ from what ranklens {shared.version} showed if "
                           "a method or a default changed since.")
        else:
            recomputing = recompute_wanted(shared)
            shown = (f"recomputed now by ranklens {__version__} from the stored inputs and "
                     "settings (not the numbers the link stored)" if recomputing
                     else f"the numbers ranklens {shared.computed_by} computed then, stored "
                          "with the link")
            st.markdown(
                f":material/lock: **Shared report, read-only.** Shared{by} on {created}. Shown: "
                f"{shown}; the controls that would change the inputs and settings are hidden."
                f"{expiry}")
            st.toggle(f"Recompute with ranklens {__version__}", key=_recompute_key(shared),
                      help="Show the numbers this version of ranklens computes from the same "
                           "inputs and settings, and what differs from the stored ones. Turn "
                           "off to see the stored numbers again.")
        with st.expander("Link, inputs and settings of this report"):
            st.code(share_url(shared.token), language=None)
            st.markdown("\n".join(f"- **{f.role.replace('_', ' ')}**: {markup.text(f.name)} "
                                  f"({len(f.data):,} bytes, sha256 `{f.sha256[:16]}…`)"
                                  for f in shared.files))
            st.code(json.dumps(shared.settings, indent=2, ensure_ascii=False), language="json")
        st.button("Start my own analysis", on_click=leave_shared, key="shared_leave",
                  icon=":material/edit:", help="Close this shared report and choose your own "
                                               "inputs and settings.")


def recompute_wanted(shared: Shared) -> bool:
    """Whether the viewer asked to see ``shared`` recomputed by this version (the banner's
    toggle); always True for a link that stored no numbers (format 1)."""
    return not shared.keeps_numbers or bool(st.session_state.get(_recompute_key(shared)))


def show_recomputed(shared: Shared, changes: Sequence[str] | None) -> None:
    """The label of a recomputed view: by which version, and what differs from the stored
    numbers (``changes`` from the library; None when the link stored none to compare)."""
    if changes is None:
        return
    stored_by = f"ranklens {shared.computed_by}"
    with st.container(border=True, key="shared_recomputed"):
        if not changes:
            st.markdown(f":material/check_circle: **Recomputed with ranklens {__version__}:** "
                        f"every number is the same as the ones {stored_by} stored.")
            return
        st.markdown(f":material/difference: **Recomputed with ranklens {__version__}:** these "
                    f"numbers differ from the ones {stored_by} stored with the link "
                    f"({len(changes)} differences). Turn off **Recompute** in the banner to "
                    "see the stored numbers.")
        st.markdown("\n".join(f"- {markup.text(line)}" for line in changes))


def show_unreadable_result(message: str) -> None:
    """The stored numbers cannot be read by this version: say so above the recomputation."""
    st.warning(f"{markup.text(message)}. Shown instead: the numbers this version "
               f"(ranklens {__version__}) computes from the stored inputs and settings.",
               icon=":material/history:")


def _recompute_key(shared: Shared) -> str:
    return f"shared_recompute:{shared.token}"


def _show_sidebar_note(shared: Shared, target: Any) -> None:
    with st.sidebar:
        st.info(f"A shared report is open on **{PAGE_TITLES.get(shared.kind, shared.kind)}**; "
                "this page shows your own inputs.", icon=":material/lock:")
        if target is not None:
            st.page_link(target, label="Back to the shared report", icon=":material/undo:")


# ---- sharing ------------------------------------------------------------------------------

def share_action(kind: str, settings: PageSettings | Mapping[str, Any],
                 files: Iterable[InputFile], result: Report | Mapping[str, Any]) -> None:
    """The Share button of a ``kind`` page and, once shared, the link in a copyable block.

    ``result`` is what the page shows (the Compare page's ``Report``, the MDE and PPI pages'
    export payload): stored with the link, so that it shows these numbers whatever version
    of ranklens opens it later. While a shared report is open the link is its own (nothing is
    stored again). The same inputs and settings shared twice in a session give the same link.
    A report over the store's limits is refused with the limit in words.
    """
    shared = shared_for(kind)
    if shared is not None:
        return  # the banner shows this report's link
    files = tuple(files)
    identity = _identity(kind, settings, files)
    links: dict[str, str] = st.session_state.setdefault(_LINKS, {})
    clicked = st.button("Share", key=f"share:{kind}", icon=":material/share:",
                        help="Store these inputs and settings and get a link that opens this "
                             "page, with the same numbers, for anyone who can reach this app.")
    if clicked and identity not in links:
        token = _store_snapshot(kind, settings, files, result)
        if token is not None:
            links[identity] = token
    if identity in links:
        st.code(share_url(links[identity]), language=None)
        st.caption("Anyone with this link sees this page read-only, with the same inputs, "
                   "settings and numbers.")


def _store_snapshot(kind: str, settings: PageSettings | Mapping[str, Any],
                    files: tuple[InputFile, ...],
                    result: Report | Mapping[str, Any]) -> str | None:
    """Store the page and answer its token, or show in words why not and answer None."""
    try:
        store = report_store()
    except ValueError as error:  # a RANKLENS_STORE_* variable the operator mistyped
        st.error(f"**Sharing is not configured correctly:** {error}. Tell whoever runs this "
                 "app.", icon=":material/settings_alert:")
        return None
    except StoreUnavailable as error:
        _show_unavailable(error)
        return None
    except (StoreError, OSError, sqlite3.Error):
        logger.exception("the report store could not be opened")
        st.error(_NOT_STORED, icon=":material/cloud_off:")
        return None
    try:
        return share(store, kind, settings, files, result=result, shared_by=auth.shared_by())
    except StoreLimitError as error:
        st.error(f"**This report is too large to share:** {error}. Share fewer or smaller "
                 "files, or ask whoever runs this app to raise the limit.",
                 icon=":material/block:")
    except StoreUnavailable as error:
        _show_unavailable(error)
    except (StoreError, OSError, sqlite3.Error):
        logger.exception("the report store could not be written")
        st.error(_NOT_STORED, icon=":material/cloud_off:")
    return None


def _show_unavailable(error: StoreUnavailable) -> None:
    """The store's server is down: say so; everything else on the page keeps working."""
    logger.warning("%s", error)
    st.error(f"**Share links are unavailable:** {_sentence(error.reason)} Everything else on "
             "this page works; try sharing again later, or tell whoever runs this app.",
             icon=":material/cloud_off:")


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith(".") else f"{text}."


_NOT_STORED = ("**The report could not be stored.** The report store is not writable right "
               "now; try again, or tell whoever runs this app.")


def share_url(token: str) -> str:
    """The link that opens ``token`` on this page (a relative ``?report=`` without a browser)."""
    base = st.context.url or ""
    if base and not urlsplit(base).path:
        base += "/"  # the app's root: http://host:8501/?report=...
    return f"{base}?{QUERY_PARAM}={token}"


def _identity(kind: str, settings: PageSettings | Mapping[str, Any],
              files: tuple[InputFile, ...]) -> str:
    plain = dict(settings) if isinstance(settings, Mapping) else settings.to_dict()
    return json.dumps([kind, plain, [(f.role, f.name, f.sha256) for f in files]],
                      sort_keys=True, default=str)
