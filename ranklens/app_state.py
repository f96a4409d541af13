"""The app's caches: parsed inputs and reports, keyed by the content digest of the input bytes.

``loaded_inputs`` answers "the parsed inputs of these files", reading each distinct set of bytes
once per server process (all sessions share it); ``cached_report`` answers "the report of these
inputs with these settings", so that switching back to a metric or segment column already seen
costs nothing. Keys are sha256 digests of the bytes, never hashes of DataFrames; an uploaded
file is hashed once per upload (remembered by its upload id in the session).

It holds no statistics and draws nothing; errors (``ranklens.io.InputError`` and other
``ValueError``) propagate to the page, uncached.
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import streamlit as st

from ranklens.analysis import CompareSettings, InputFile, LoadedInputs, load_inputs
from ranklens.report import Report

ROLES = ("run_a", "run_b", "qrels", "segments")
_DIGESTS = "_ranklens_upload_digests"


class Upload(Protocol):
    """What the page needs of a ``streamlit.UploadedFile``."""

    file_id: str
    name: str

    def getbuffer(self) -> Any: ...
    def getvalue(self) -> bytes: ...


@dataclass(frozen=True)
class Source:
    """One input before it is read: role, display name, content digest and how to get bytes."""

    role: str
    name: str
    sha256: str
    read: Callable[[], bytes]

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.role, self.name, self.sha256)


def upload_source(role: str, upload: Upload) -> Source:
    """A `Source` for an uploaded file; its digest is computed once per upload."""
    memo: dict[str, str] = st.session_state.setdefault(_DIGESTS, {})
    if upload.file_id not in memo:
        memo[upload.file_id] = hashlib.sha256(upload.getbuffer()).hexdigest()
    return Source(role, upload.name, memo[upload.file_id], upload.getvalue)


@st.cache_resource(show_spinner=False)
def _demo_digests() -> dict[str, tuple[str, str]]:
    from ranklens import demo

    return {role: (str(path), hashlib.sha256(path.read_bytes()).hexdigest())
            for role, path in demo.paths().items()}


def demo_sources() -> dict[str, Source]:
    """The bundled demo inputs of the Compare page (runs, qrels, segments) as `Source`s."""
    digests = _demo_digests()
    sources = {}
    for role in ROLES:
        path, digest = digests[role]
        sources[role] = Source(role, Path(path).name, digest, Path(path).read_bytes)
    return sources


def loaded_inputs(sources: Mapping[str, Source]) -> LoadedInputs:
    """Parsed inputs for ``sources`` (roles run_a, run_b and optionally qrels, segments)."""
    ordered = tuple(sources[role] for role in ROLES if role in sources)
    return _load(tuple(s.key for s in ordered), ordered)


@st.cache_resource(max_entries=3, show_spinner="Reading and checking the files…")
def _load(key: tuple[tuple[str, str, str], ...], _sources: tuple[Source, ...]) -> LoadedInputs:
    files = {s.role: InputFile(s.role, s.name, s.read()) for s in _sources}
    return load_inputs(files["run_a"], files["run_b"], qrels=files.get("qrels"),
                       segments=files.get("segments"))


def input_key(inputs: LoadedInputs) -> tuple[tuple[str, str, str], ...]:
    """The digest key of parsed inputs (role, name, sha256 of each file)."""
    return tuple((f.role, f.name, f.sha256) for f in inputs.files)


def cached_report(inputs: LoadedInputs, settings: CompareSettings) -> Report:
    """The report of ``inputs`` under ``settings``, computed once per (digests, settings)."""
    return _report(input_key(inputs), repr(settings), inputs, settings)


@st.cache_resource(max_entries=16, show_spinner="Scoring the runs and comparing…")
def _report(key: tuple[tuple[str, str, str], ...], settings_key: str, _inputs: LoadedInputs,
            _settings: CompareSettings) -> Report:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the report carries every warning in words
        return _inputs.report(_settings)
