"""Share links: a page's inputs and settings frozen in a report store, and given back.

``share(store, kind, settings, files)`` answers "which token reopens exactly this page";
``reopen(store, token)`` gives the page kind, every setting and the input files back, byte for
byte, so that the page recomputes the same report (``compare_report`` does it for the Compare
page: its ``Report.to_json()`` is identical to the shared one's).

What a snapshot holds (the store's ``params``)::

    {"format": 1, "kind": "compare" | "mde" | "ppi",
     "settings": {...every setting of the page...},
     "files": [{"role": "run_a", "name": "bm25.trec", "sha256": "..."}, ...]}

and the input bytes under their roles (the store deduplicates them by digest and compresses
them). No results are stored: numbers are recomputed from inputs and settings, which is what
makes a link trustworthy. It does not know about Streamlit or URLs (``ranklens.app`` does).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ranklens.compare.analysis import CompareSettings, load_inputs
from ranklens.compare.report import Report
from ranklens.io import InputFile, sha256_hex
from ranklens.store import ReportStore, ReportToken

SNAPSHOT_FORMAT = 1
PAGE_KINDS = ("compare", "mde", "ppi")
"""The pages a link can reopen; each is also the page's ``url_path`` in ``app.py``."""


class SharedFormatError(ValueError):
    """A stored snapshot this version of ranklens cannot turn back into a page.

    Raised for snapshots written by a newer ranklens (another format or unknown settings) or
    damaged ones; the message says which, without any internals.
    """


@dataclass(frozen=True)
class Shared:
    """A reopened share link: the page kind, its settings and its input files.

    ``settings`` is the page's plain settings dict (for ``compare``, `compare_settings` turns
    it back into ``CompareSettings``); ``files`` are in the order they were shared;
    ``version`` is the ranklens version that shared them.
    """

    token: ReportToken
    kind: str
    settings: dict[str, Any]
    files: tuple[InputFile, ...]
    version: str
    created_at: datetime
    expires_at: datetime | None

    def file(self, role: str) -> InputFile | None:
        """The input shared under ``role``, or None."""
        return next((f for f in self.files if f.role == role), None)


def share(
    store: ReportStore,
    kind: str,
    settings: CompareSettings | Mapping[str, Any],
    files: Iterable[InputFile],
    *,
    ttl: timedelta | None = None,
) -> ReportToken:
    """Store ``files`` and ``settings`` of a ``kind`` page; answers the token of the new link.

    ``settings`` must survive JSON unchanged (lists, not tuples; string keys). Every call
    makes a new, immutable report, even for the same inputs (their bytes are stored once).
    Raises ``StoreLimitError`` when the report or the store would be too big, ``ValueError``
    for an unknown kind, duplicate roles or settings that are not plain JSON.
    """
    if kind not in PAGE_KINDS:
        raise ValueError(f"unknown page kind {kind!r}; expected one of {PAGE_KINDS}")
    plain = _plain_settings(kind, settings)
    files = tuple(files)
    roles = [f.role for f in files]
    if len(set(roles)) != len(roles):
        raise ValueError(f"each input needs its own role; got {roles}")
    params = {
        "format": SNAPSHOT_FORMAT,
        "kind": kind,
        "settings": plain,
        "files": [{"role": f.role, "name": f.name, "sha256": f.sha256} for f in files],
    }
    return store.put(params, {f.role: f.data for f in files}, ttl=ttl)


def reopen(store: ReportStore, token: str) -> Shared:
    """The page behind ``token``.

    Raises ``ReportNotFound`` (always the same message) for a malformed, unknown, expired or
    deleted token, and `SharedFormatError` for a snapshot this version cannot read.
    """
    snapshot = store.get(token)
    params = snapshot.params
    version = snapshot.ranklens_version
    if params.get("format") != SNAPSHOT_FORMAT or params.get("kind") not in PAGE_KINDS:
        raise SharedFormatError(
            f"this report was shared by ranklens {version} in a format this version cannot "
            "open; open it with that version or newer")
    settings, listed = params.get("settings"), params.get("files")
    if not isinstance(settings, dict) or not isinstance(listed, list):
        raise SharedFormatError("this shared report is damaged (settings or file list missing)")
    files = []
    for entry in listed:
        role, name = entry.get("role"), entry.get("name")
        data = snapshot.inputs.get(role) if isinstance(role, str) else None
        digest = entry.get("sha256")
        if data is None or not isinstance(name, str) or sha256_hex(data) != digest:
            raise SharedFormatError("this shared report is damaged (an input does not match "
                                    "its digest)")
        files.append(InputFile.with_digest(role, name, data, digest))  # checked: no second hash
    shared = Shared(token=snapshot.token, kind=params["kind"], settings=settings,
                    files=tuple(files), version=version, created_at=snapshot.created_at,
                    expires_at=snapshot.expires_at)
    if shared.kind == "compare":
        compare_settings(shared)  # refuse settings this version does not know, now
    return shared


def compare_settings(shared: Shared) -> CompareSettings:
    """The ``CompareSettings`` of a shared Compare page (lists back to tuples).

    Raises `SharedFormatError` when a setting is unknown to this version (a newer ranklens
    shared it): applying only the known ones would show other numbers than the link's.
    """
    if shared.kind != "compare":
        raise ValueError(f"a {shared.kind!r} link has no compare settings")
    return _compare_settings_from_dict(shared.settings, shared.version)


def compare_report(shared: Shared) -> Report:
    """The Compare page's report, recomputed from the shared inputs and settings.

    Reads and scores the inputs (seconds for large runs); the app caches this by digest.
    """
    files = {f.role: f for f in shared.files}
    inputs = load_inputs(files["run_a"], files["run_b"], qrels=files.get("qrels"),
                         segments=files.get("segments"), proxy_qrels=files.get("qrels_proxy"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the report carries every warning in words
        return inputs.report(compare_settings(shared))


def _plain_settings(kind: str, settings: CompareSettings | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(settings, CompareSettings):
        if kind != "compare":
            raise ValueError(f"CompareSettings given for a {kind!r} page")
        return settings.to_dict()
    if not isinstance(settings, Mapping):
        raise TypeError(f"settings must be a mapping, not {type(settings).__name__}")
    plain = dict(settings)
    if kind == "compare":
        _compare_settings_from_dict(plain, "this")  # fail at share time, not at reopen
    return plain


def _compare_settings_from_dict(data: Mapping[str, Any], version: str) -> CompareSettings:
    try:
        return CompareSettings.from_dict(data, written_by=version)
    except ValueError as error:  # a newer ranklens shared settings this one does not know
        raise SharedFormatError(str(error)) from None
