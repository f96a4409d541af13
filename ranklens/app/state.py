"""The app's caches: parsed inputs and reports, keyed by the content digest of the input bytes.

``loaded_inputs`` answers "the parsed inputs of these files", reading each distinct set of bytes
once per server process (all sessions share it, within the byte budget ``RANKLENS_CACHE_MB``
of the one least-recently-used cache every page uses, `app_cache`); ``cached_report`` answers
"the report of these inputs with these settings", so that switching back to a metric or
segment column already seen costs nothing. Keys are sha256 digests of the bytes, never hashes
of DataFrames; an uploaded file is hashed once per upload (remembered by its upload id in the
session).

Work that is not cached yet runs inside an ``st.status`` box that names the step (reading how
many megabytes, scoring, comparing), so a 250 MB upload shows where it is; the box goes away
when the step is done. Errors
(``ranklens.io.InputError`` and other ``ValueError``) propagate to the page and are not cached.
It holds no statistics.
"""

from __future__ import annotations

import hashlib
import os
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np
import pyarrow as pa
import streamlit as st
from streamlit.elements.lib.mutable_status_container import StatusContainer

from ranklens.compare.analysis import CompareSettings, LoadedInputs, load_inputs
from ranklens.compare.report import Report
from ranklens.data import MetricResult
from ranklens.io import InputFile
from ranklens.metrics import rbo

ROLES = ("run_a", "run_b", "qrels", "segments")
ROLE_NAMES = {"run_a": "run A", "run_b": "run B", "qrels": "judgements",
              "segments": "segment map"}
_DIGESTS = "_ranklens_upload_digests"
InputKey = tuple[tuple[str, str, str], ...]
V = TypeVar("V")


class Upload(Protocol):
    """What the page needs of a ``streamlit.UploadedFile``."""

    file_id: str
    name: str
    size: int

    def getbuffer(self) -> Any: ...
    def getvalue(self) -> bytes: ...


@dataclass(frozen=True)
class Source:
    """One input before it is read: role, display name, content digest, its bytes and size."""

    role: str
    name: str
    sha256: str
    read: Callable[[], bytes]
    size: int | None = None

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.role, self.name, self.sha256)


DEFAULT_CACHE_MB = 2048
CACHE_MB_ENV = "RANKLENS_CACHE_MB"


def cache_limit_bytes(environ: Mapping[str, str] | None = None) -> int:
    """The byte budget of the app's cache: ``$RANKLENS_CACHE_MB`` megabytes (default 2048).

    2 GB holds one comparison of two 250 MB runs parsed (about 1.5 GB with their bytes) plus
    the demo and reports. ``ValueError`` naming the variable for a value that is not a positive
    whole number.
    """
    env = os.environ if environ is None else environ
    text = env.get(CACHE_MB_ENV, "").strip()
    if not text:
        return DEFAULT_CACHE_MB * 1_000_000
    try:
        megabytes_ = int(text)
    except ValueError:
        raise ValueError(f"{CACHE_MB_ENV} must be a whole number of megabytes, not {text!r}"
                         ) from None
    if megabytes_ <= 0:
        raise ValueError(f"{CACHE_MB_ENV} must be positive, not {megabytes_}")
    return megabytes_ * 1_000_000


def estimated_bytes(value: object) -> int:
    """Bytes held by ``value``'s arrays, buffers and strings, each object counted once.

    Walks containers, dataclasses and plain objects; counts numpy ``nbytes``, arrow
    ``nbytes``/``size``, ``bytes`` and ``str`` lengths. It answers the size of the data, not
    Python's per-object overhead (small next to 10^6-row arrays).
    """
    seen: set[int] = set()
    total = 0
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen or item is None or isinstance(item, (int, float, bool)):
            continue
        seen.add(id(item))
        if isinstance(item, np.ndarray):
            total += item.nbytes  # a view counts as much as its base: errs on the safe side
        elif isinstance(item, (pa.Array, pa.ChunkedArray, pa.Table, pa.RecordBatch)):
            total += item.nbytes
        elif isinstance(item, pa.Buffer):
            total += item.size
        elif isinstance(item, (bytes, bytearray, memoryview, str)):
            total += len(item)
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif hasattr(item, "__dict__"):
            stack.extend(vars(item).values())
        elif hasattr(item, "__slots__"):
            stack.extend(getattr(item, name, None) for name in item.__slots__)
    return total


class SizedLRU:
    """One least-recently-used cache for every session and page, bounded in bytes.

    ``put`` measures the value (`estimated_bytes`) and evicts the least recently used entries
    until the total fits ``capacity``; a value bigger than the whole budget is not kept (the
    caller still has it). Evicted values stay alive while a session still uses them: the
    bound is on what the cache keeps, the in-flight work of running sessions comes on top.
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def bytes(self) -> int:
        """Bytes the cache holds now (as measured when each value was put)."""
        return self._bytes

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key][0]

    def find(self, matches: Callable[[Hashable], bool]) -> Any | None:
        """The most recently used value whose key ``matches``, if any."""
        with self._lock:
            for key in reversed(self._items):
                if matches(key):
                    return self._items[key][0]
        return None

    def put(self, key: Hashable, value: Any, size: int | None = None) -> bool:
        """Keep ``value`` under ``key``; answers whether it was kept (False: over the budget)."""
        size = estimated_bytes(value) if size is None else size
        with self._lock:
            if key in self._items:
                self._bytes -= self._items.pop(key)[1]
            if size > self.capacity:
                return False
            self._items[key] = (value, size)
            self._bytes += size
            while self._bytes > self.capacity:
                _, (_, evicted) = self._items.popitem(last=False)
                self._bytes -= evicted
            return True

    def keys(self) -> list[Hashable]:
        with self._lock:
            return list(self._items)


@st.cache_resource(show_spinner=False)
def _shared_cache(capacity: int) -> SizedLRU:
    return SizedLRU(capacity)


def app_cache() -> SizedLRU:
    """The one cache of parsed inputs, reports and page analyses, shared by all sessions."""
    return _shared_cache(cache_limit_bytes())


def cached(kind: str, key: Hashable, compute: Callable[[], V]) -> V:
    """``compute()`` once per ``(kind, key)`` in the app's cache (pages' analyses use this)."""
    cache = app_cache()
    found = cache.get((kind, key))
    if found is not None:
        return found
    value = compute()
    cache.put((kind, key), value)
    return value


def upload_source(role: str, upload: Upload) -> Source:
    """A `Source` for an uploaded file; its digest is computed once per upload."""
    memo: dict[str, str] = st.session_state.setdefault(_DIGESTS, {})
    if upload.file_id not in memo:
        memo[upload.file_id] = hashlib.sha256(upload.getbuffer()).hexdigest()
    return Source(role, upload.name, memo[upload.file_id], upload.getvalue, upload.size)


@st.cache_resource(show_spinner=False)
def _demo_digests() -> dict[str, tuple[str, str, int]]:
    from ranklens import demo

    return {role: (str(path), hashlib.sha256(path.read_bytes()).hexdigest(),
                   path.stat().st_size) for role, path in demo.paths().items()}


def demo_sources() -> dict[str, Source]:
    """The bundled demo inputs of the Compare page (runs, qrels, segments) as `Source`s."""
    digests = _demo_digests()
    sources = {}
    for role in ROLES:
        path, digest, size = digests[role]
        sources[role] = Source(role, Path(path).name, digest, Path(path).read_bytes, size)
    return sources


def loaded_inputs(sources: Mapping[str, Source]) -> LoadedInputs:
    """Parsed inputs for ``sources`` (roles run_a, run_b and optionally qrels, segments)."""
    ordered = tuple(sources[role] for role in ROLES if role in sources)
    key: InputKey = tuple(s.key for s in ordered)
    cache = app_cache()
    found = cache.get(("inputs", key))
    if found is not None:
        return found
    same_runs = _without_segments(key)
    base = cache.find(lambda other: isinstance(other, tuple) and other[0] == "inputs"
                      and _without_segments(other[1]) == same_runs)
    max_bytes = upload_limit_bytes()
    if base is not None:  # only the segment map changed: read just that file
        segments = sources.get("segments")
        with progress_box("Reading the segment map…"):
            inputs = base.with_segments(None if segments is None else _input_file(segments),
                                        max_bytes=max_bytes)
        cache.put(("inputs", key), inputs)
        return inputs
    sizes = ", ".join(ROLE_NAMES[s.role] + ("" if s.size is None else f" {megabytes(s.size)}")
                      for s in ordered)
    with progress_box(f"Reading {sizes}…"):
        files = {s.role: _input_file(s) for s in ordered}
        inputs = load_inputs(files["run_a"], files["run_b"], qrels=files.get("qrels"),
                             segments=files.get("segments"), max_bytes=max_bytes)
    cache.put(("inputs", key), inputs)
    return inputs


def upload_limit_bytes() -> int:
    """Most bytes one input may hold once decompressed: Streamlit's ``server.maxUploadSize``.

    A gzip upload counts by what it expands to, so a 10 MB upload that would decompress to
    1.5 GB is refused as soon as it passes this size, not after.
    """
    return int(st.get_option("server.maxUploadSize")) * 1024 * 1024


def _without_segments(key: InputKey) -> InputKey:
    return tuple(entry for entry in key if entry[0] != "segments")


@contextmanager
def progress_box(label: str) -> Iterator[StatusContainer]:
    """An ``st.status`` box while a long step runs; it disappears when the step is done (the
    page then shows the result, or the error in words)."""
    slot = st.empty()
    try:
        with slot.status(label) as status:
            yield status
    finally:
        slot.empty()


def _input_file(source: Source) -> InputFile:
    file = InputFile(source.role, source.name, source.read())
    # The digest is known already: seed InputFile.sha256 (a cached_property, stored in the
    # instance __dict__) instead of hashing 250 MB again.
    file.__dict__["sha256"] = source.sha256
    return file


def input_key(inputs: LoadedInputs) -> InputKey:
    """The digest key of parsed inputs (role, name, sha256 of each file)."""
    return tuple((f.role, f.name, f.sha256) for f in inputs.files)


def cached_report(inputs: LoadedInputs, settings: CompareSettings) -> Report:
    """The report of ``inputs`` under ``settings``, computed once per (digests, settings)."""
    key = ("report", input_key(inputs), repr(settings))
    cache = app_cache()
    found = cache.get(key)
    if found is not None:
        return found
    with progress_box("Scoring and comparing…") as status:

        def progress(step: str) -> None:
            status.update(label=f"{step[:1].upper()}{step[1:]}…")

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the report carries every warning in words
            report = inputs.report(settings, progress=progress)
    cache.put(key, report)
    return report


RBO_P = 0.9
"""Persistence of the rank-biased overlap the app shows (about 86% of the weight on the top 10)."""

EAGER_RBO_ROWS = 2_000_000
"""Up to this many rows in the two runs, RBO over every query is computed without asking."""


def cached_rbo(inputs: LoadedInputs, *, order: str = "score",
               compute: bool = True) -> MetricResult | None:
    """Per-query RBO between run A and run B over every query both rank, once per inputs.

    With ``compute=False`` only a result computed before is returned (else None): over two
    7M-row runs it takes tens of seconds, so the page asks first.
    """
    if inputs.run_a is None or inputs.run_b is None:
        return None
    key = ("rbo", input_key(inputs), order, RBO_P)
    cache = app_cache()
    found = cache.get(key)
    if found is not None or not compute:
        return found
    with progress_box("Comparing the two runs' orderings of every query (RBO)…"):
        result = rbo(inputs.run_a, inputs.run_b, p=RBO_P, order=order)
    cache.put(key, result)
    return result


def megabytes(size: int) -> str:
    """A file size for people: ``247 MB``, ``1.6 MB``, ``98 kB``."""
    if size >= 10_000_000:
        return f"{size / 1e6:.0f} MB"
    if size >= 1_000_000:
        return f"{size / 1e6:.1f} MB"
    return f"{max(size / 1e3, 0.1):.0f} kB" if size >= 1_000 else f"{size} bytes"
