"""Share links: a page's inputs, settings and numbers frozen in a report store, and given back.

``share(store, kind, settings, files, result=...)`` answers "which token reopens exactly this
page"; ``reopen(store, token)`` gives the page kind, every setting, the input files (byte for
byte) and the numbers the author saw back.

What a snapshot holds (the store's ``params``), format 2::

    {"format": 2, "kind": "compare" | "mde" | "ppi",
     "settings": {...every setting of the page, resolved: no default left implicit...},
     "files": [{"role": "run_a", "name": "bm25.trec", "sha256": "..."}, ...],
     "result": {"role": "computed_result", "sha256": "...", "computed_by": "0.4.0"}}

and the input bytes under their roles, plus the computed result as UTF-8 JSON under the role
``computed_result`` (the store deduplicates blobs by digest and compresses them). The result is
``Report.to_dict()`` for the Compare page and the page's export payload for MDE and PPI
(``ranklens.plan.html.payload``, ``ranklens.ppi.html.payload``).

Why the numbers are stored: a link is opened by whatever ranklens serves it later, and defaults
and methods change between versions. A reopened link shows the stored numbers and says which
version computed them (``stored_report`` for Compare, ``Shared.result`` for the others);
``compare_report`` recomputes from the stored inputs and settings with this version, a separate
view the page labels as such. Format-1 snapshots (settings and inputs only) are still read:
their ``result`` is None and the pages recompute, saying so. It does not know about Streamlit
or URLs (``ranklens.app`` does).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeAlias

from ranklens.compare.analysis import CompareSettings, load_inputs
from ranklens.compare.family import MAX_RUNS, run_role
from ranklens.compare.report import Report
from ranklens.errors import RanklensError
from ranklens.io import InputFile, sha256_hex
from ranklens.plan.settings import PlanSettings
from ranklens.ppi.settings import PPISettings
from ranklens.store import ReportStore, ReportToken

SNAPSHOT_FORMAT = 2
READABLE_FORMATS = (1, 2)
"""Format 1 (before links kept their numbers): settings and inputs only."""
PAGE_KINDS = ("compare", "mde", "ppi")
"""The pages a link can reopen; each is also the page's ``url_path`` in ``app.py``."""
RESULT_ROLE = "computed_result"
"""The blob role of a snapshot's computed result; no input file may use it."""
PageSettings: TypeAlias = CompareSettings | PlanSettings | PPISettings
"""Every setting of a page: ``to_dict`` is what a link stores, ``from_dict`` reads it back."""
SETTINGS_TYPES: dict[str, type[PageSettings]] = {
    "compare": CompareSettings, "mde": PlanSettings, "ppi": PPISettings}


class SharedFormatError(RanklensError, ValueError):
    """A stored snapshot this version of ranklens cannot turn back into a page.

    Raised for snapshots written by a newer ranklens (another format or unknown settings) or
    damaged ones; the message says which, without any internals.
    """


@dataclass(frozen=True)
class Shared:
    """A reopened share link: the page kind, its settings, its input files and its numbers.

    ``settings`` is the page's plain settings dict (for ``compare``, `compare_settings` turns
    it back into ``CompareSettings``; the MDE and PPI pages read theirs with
    ``PlanSettings.from_dict`` and ``PPISettings.from_dict``); ``files`` are in the order
    they were shared; ``version`` is the ranklens version that shared them. ``result`` is the
    computed result stored with the link (plain JSON, see the module docstring) and
    ``computed_by`` the version that computed it; both None for a format-1 link, which stored
    no numbers. ``shared_by`` is who shared it (the signed-in account), None when sign-in was
    off; ``created_at`` is when.
    """

    token: ReportToken
    kind: str
    settings: dict[str, Any]
    files: tuple[InputFile, ...]
    version: str
    created_at: datetime
    expires_at: datetime | None
    result: dict[str, Any] | None = None
    computed_by: str | None = None
    format: int = SNAPSHOT_FORMAT
    shared_by: str | None = None

    def file(self, role: str) -> InputFile | None:
        """The input shared under ``role``, or None."""
        return next((f for f in self.files if f.role == role), None)

    @property
    def keeps_numbers(self) -> bool:
        """Whether the link stored the numbers its author saw (format 2 and later)."""
        return self.result is not None


def share(
    store: ReportStore,
    kind: str,
    settings: PageSettings | Mapping[str, Any],
    files: Iterable[InputFile],
    *,
    result: Report | Mapping[str, Any],
    ttl: timedelta | None = None,
    shared_by: str | None = None,
) -> ReportToken:
    """Store ``files``, ``settings`` and the computed ``result`` of a ``kind`` page; answers the
    token of the new link.

    ``result`` is what the page shows: the ``Report`` for ``compare`` (its ``params`` are the
    settings resolved, and are what the link stores: run names and canonical metric names
    filled in), the page's export payload (a plain JSON mapping) for ``mde`` and ``ppi``.
    ``settings`` is the page's settings type (`SETTINGS_TYPES`), stored as its ``to_dict``,
    or a plain mapping that must survive JSON unchanged (lists, not tuples; string keys),
    stored as it is (a Compare page's is checked as ``CompareSettings``). Every call
    makes a new, immutable report, even for the same inputs (their bytes are stored once).
    ``shared_by`` (who shares it, when someone is signed in) is stored with it. Raises
    ``StoreLimitError`` when the report or the store would be too big, ``ValueError`` for an
    unknown kind, duplicate roles, settings that are not plain JSON, or a Compare report
    computed with other settings than ``settings``.
    """
    if kind not in PAGE_KINDS:
        raise ValueError(f"unknown page kind {kind!r}; expected one of {PAGE_KINDS}")
    plain = _plain_settings(kind, settings)
    files = tuple(files)
    roles = [f.role for f in files]
    if len(set(roles)) != len(roles):
        raise ValueError(f"each input needs its own role; got {roles}")
    if RESULT_ROLE in roles:
        raise ValueError(f"the role {RESULT_ROLE!r} is the computed result's; name the input "
                         "file's role otherwise")
    computed, plain = _result_json(kind, plain, result)
    encoded = computed.encode("utf-8")
    params = {
        "format": SNAPSHOT_FORMAT,
        "kind": kind,
        "settings": plain,
        "files": [{"role": f.role, "name": f.name, "sha256": f.sha256} for f in files],
        "result": {"role": RESULT_ROLE, "sha256": sha256_hex(encoded),
                   "computed_by": _computed_by(result)},
    }
    return store.put(params, {**{f.role: f.data for f in files}, RESULT_ROLE: encoded},
                     ttl=ttl, shared_by=shared_by)


def reopen(store: ReportStore, token: str) -> Shared:
    """The page behind ``token``.

    Raises ``ReportNotFound`` (always the same message) for a malformed, unknown, expired or
    deleted token, and `SharedFormatError` for a snapshot this version cannot read.
    """
    snapshot = store.get(token)
    params = snapshot.params
    version = snapshot.ranklens_version
    form = params.get("format")
    if form not in READABLE_FORMATS or params.get("kind") not in PAGE_KINDS:
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
    result, computed_by = (None, None) if form == 1 else _stored_result(params, snapshot.inputs)
    shared = Shared(token=snapshot.token, kind=params["kind"], settings=settings,
                    files=tuple(files), version=version, created_at=snapshot.created_at,
                    expires_at=snapshot.expires_at, result=result, computed_by=computed_by,
                    format=int(form), shared_by=snapshot.shared_by)
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


def stored_report(shared: Shared) -> Report | None:
    """The Compare page's report as its author saw it, read back from the link; None for a
    format-1 link (it stored no numbers).

    Computes nothing. Raises `StoredResultError` when the stored report is in a form this
    version cannot read (the page then shows the recomputation, saying why).
    """
    if shared.kind != "compare":
        raise ValueError(f"a {shared.kind!r} link has no compare report")
    if shared.result is None:
        return None
    try:
        return Report.from_dict(shared.result)
    except (ValueError, KeyError, TypeError, IndexError) as error:
        raise StoredResultError(
            f"the numbers stored with this link (computed by ranklens {shared.computed_by}) "
            f"cannot be read by this version ({error})") from None


def compare_report(shared: Shared) -> Report:
    """The Compare page's report, recomputed from the shared inputs and settings by this
    version of ranklens (not the stored numbers: `stored_report` gives those).

    Reads and scores the inputs (seconds for large runs); the app caches this by digest. With
    the drill-down the page adds (`ranklens.compare.drilldown`: the tie sentence and, when the
    link kept a queries or documents file, the texts and moves), so it equals what the page
    shows when it recomputes.
    """
    from ranklens.compare.drilldown import with_drilldown
    from ranklens.compare.query_texts import DOCUMENTS_ROLE, QUERIES_ROLE, read_texts, run_queries

    files = {f.role: f for f in shared.files}
    runs = [files[run_role(i)] for i in range(MAX_RUNS) if run_role(i) in files]
    settings = compare_settings(shared)
    inputs = load_inputs(*runs, qrels=files.get("qrels"), segments=files.get("segments"),
                         proxy_qrels=files.get("qrels_proxy"), columns=settings.id_columns())
    report = inputs.report(settings)
    queries, documents = files.get(QUERIES_ROLE), files.get(DOCUMENTS_ROLE)
    texts = (None if queries is None and documents is None else
             read_texts(queries, documents, query_ids=run_queries(inputs.runs)))
    return with_drilldown(report, inputs, settings, texts)


class StoredResultError(SharedFormatError):
    """The numbers stored with a link cannot be read by this version (a newer report schema,
    or damage); the inputs and settings still can, so the page can recompute."""


def _plain_settings(kind: str, settings: PageSettings | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(settings, (CompareSettings, PlanSettings, PPISettings)):
        if not isinstance(settings, SETTINGS_TYPES[kind]):
            raise ValueError(f"{type(settings).__name__} given for a {kind!r} page")
        return settings.to_dict()
    if not isinstance(settings, Mapping):
        raise TypeError(f"settings must be a mapping, not {type(settings).__name__}")
    plain = dict(settings)
    if kind == "compare":
        _compare_settings_from_dict(plain, "this")  # fail at share time, not at reopen
    return plain


def _result_json(kind: str, settings: dict[str, Any],
                 result: Report | Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The result as JSON text, and the settings to store (for Compare: the report's own)."""
    if kind == "compare":
        if not isinstance(result, Report):
            raise TypeError(f"a Compare link stores its Report, not {type(result).__name__}")
        resolved = CompareSettings.from_dict(result.params)
        if not _agrees(CompareSettings.from_dict(settings), resolved):
            raise ValueError("the report was computed with other settings than the ones "
                             "shared; share the report of these settings")
        return result.to_json(indent=None), resolved.to_dict()
    if not isinstance(result, Mapping) or result.get("kind") != kind:
        raise ValueError(f"a {kind!r} link stores the page's payload (a mapping with kind "
                         f"{kind!r})")
    try:
        text = json.dumps(dict(result), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise ValueError(f"the {kind} result is not plain JSON: {error}") from None
    return text, settings


def _agrees(chosen: CompareSettings, resolved: CompareSettings) -> bool:
    """Whether ``resolved`` is ``chosen`` with only the implicit parts filled in (run names
    from the files, metric names in canonical form)."""
    try:
        canonical = chosen.canonical().metrics
    except ValueError:  # metric columns of per-query tables keep their own names
        canonical = chosen.metrics
    return (chosen.run_names in (None, resolved.run_names)
            and resolved.metrics in (chosen.metrics, canonical)
            and dataclasses.replace(chosen, metrics=resolved.metrics,
                                    run_names=resolved.run_names) == resolved)


def _computed_by(result: Report | Mapping[str, Any]) -> str:
    if isinstance(result, Report):
        return result.version
    return str(result.get("ranklens_version", "unknown"))


def _stored_result(params: Mapping[str, Any],
                   blobs: Mapping[str, bytes]) -> tuple[dict[str, Any], str]:
    entry = params.get("result")
    role = entry.get("role") if isinstance(entry, dict) else None
    data = blobs.get(role) if isinstance(role, str) else None
    if data is None or sha256_hex(data) != entry.get("sha256"):  # type: ignore[union-attr]
        raise SharedFormatError("this shared report is damaged (its stored numbers are "
                                "missing or do not match their digest)")
    try:
        result = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        result = None
    if not isinstance(result, dict):
        raise SharedFormatError("this shared report is damaged (its stored numbers are not "
                                "readable JSON)")
    return result, str(entry.get("computed_by", "unknown"))  # type: ignore[union-attr]


def _compare_settings_from_dict(data: Mapping[str, Any], version: str) -> CompareSettings:
    try:
        return CompareSettings.from_dict(data, written_by=version)
    except ValueError as error:  # a newer ranklens shared settings this one does not know
        raise SharedFormatError(str(error)) from None
