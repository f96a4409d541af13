"""The app's inputs and its one cache: uploads as ``InputFile``s, parsed inputs and results.

``input_file`` turns an upload into the one input-file type (``ranklens.io.InputFile``),
hashing its bytes once per upload (remembered by Streamlit's upload id in the session);
``demo_files`` are the bundled demo inputs, hashed once per server process. Everything parsed
or computed from them is kept in one cache per server process, shared by all sessions and all
three pages (`app_cache`): a least-recently-used map bounded by bytes (``RANKLENS_CACHE_MB``,
see ``ranklens.app.cache``), keyed by what the value depends on, with the inputs named by the
sha256 digests of their bytes, never by hashes of DataFrames.

``cached(kind, key, compute)`` is that cache for any result; ``loaded_inputs``, ``cached_report``
and ``cached_rbo`` (Compare), ``pilot`` and ``per_query_columns`` (MDE) and ``ppi_analysis``
(PPI) name the results the pages share. Work that is not cached yet runs inside an
``st.status`` box that names the step (reading how many megabytes, scoring, comparing), so a
250 MB upload shows where it is; the box goes away when the step is done.

Memory beyond the cache's budget is what running steps need meanwhile, so: sessions asking
for the same value at once compute it once (``cache.one_flight``), and the steps on inputs of
more than ``BIG_INPUT_BYTES`` (reading, scoring, RBO, the MDE pilot and the PPI analysis) run
one at a time across sessions (`big_step`): reading two 247 MB runs needs about 850 MB beside
its result while it runs, scoring AP on them about 900 MB, and several at once on two cores
are not faster, only bigger. Errors
(``ranklens.io.InputError`` and other ``ValueError``) propagate to the page and are not
cached. It holds no statistics.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Protocol, TypeVar

import streamlit as st
from streamlit.elements.lib.mutable_status_container import StatusContainer

from ranklens.app import markup
from ranklens.app.cache import SizedLRU, cache_limit_bytes, one_flight
from ranklens.app.prepared import prepared_report
from ranklens.compare.analysis import CompareSettings, LoadedInputs, load_inputs
from ranklens.compare.family import MAX_RUNS, run_key, run_role
from ranklens.compare.pipeline import Collections, build_report
from ranklens.compare.report import Report
from ranklens.data import MetricResult, Qrels, Run
from ranklens.io import InputFile, read_qrels, read_run, sha256_hex
from ranklens.metrics import rbo
from ranklens.plan import analysis as planning
from ranklens.ppi.analysis import PPIAnalysis, analyse_ppi

RUN_ROLES = tuple(run_role(i) for i in range(MAX_RUNS))
"""run_a (the baseline), run_b, run_c, ...: the runs' roles, in order."""
ROLES = (*RUN_ROLES, "qrels", "segments", "qrels_proxy")
ROLE_NAMES = {**{run_role(i): f"run {run_key(i).upper()}" for i in range(MAX_RUNS)},
              "qrels": "judgements", "segments": "segment map",
              "qrels_proxy": "proxy judgements"}
DEMO_ROLES = {"qrels_proxy": "qrels_proxy_full"}
"""Compare-page role -> demo role, where they differ: the proxy labels of every run's top 20
(the PPI page's demo proxy file labels the judged documents only)."""
DEMO_CANDIDATES = ("run_b", "run_dense")
"""The demo's candidates against BM25, in order: the neural re-ranker (judged alike) and the
dense retriever (many documents nobody judged)."""
_DIGESTS = "_ranklens_upload_digests"  # session: {upload id: sha256 of its bytes}
InputKey = tuple[tuple[str, str, str], ...]
T = TypeVar("T")


class Upload(Protocol):
    """What the pages need of a ``streamlit.UploadedFile``."""

    file_id: str
    name: str

    def getvalue(self) -> bytes: ...


# ---- inputs -------------------------------------------------------------------------------

def input_file(role: str, upload: Upload) -> InputFile:
    """``upload`` as the ``role`` input; its bytes are hashed once per upload (per session).

    ``getvalue()`` of an upload hands out the bytes Streamlit holds without copying them
    (``io.BytesIO`` copy-on-write), so building the file on every rerun costs nothing; the
    digest is the expensive part and is remembered by the upload's id. The digest is taken
    from ``getvalue()`` too: ``getbuffer()`` would make the upload's buffer private, a copy of
    the whole file that the parsed inputs would then keep beside Streamlit's (250 MB more per
    big run).
    """
    digests: dict[str, str] = st.session_state.setdefault(_DIGESTS, {})
    if upload.file_id not in digests:
        digests[upload.file_id] = sha256_hex(upload.getvalue())
    return InputFile.with_digest(role, upload.name, upload.getvalue(), digests[upload.file_id])


def demo_files() -> dict[str, InputFile]:
    """The bundled demo inputs by role (runs, qrels, proxy/gold qrels, segments), read and
    hashed once per server process."""
    return dict(_demo_files())


@st.cache_resource(show_spinner=False)
def _demo_files() -> dict[str, InputFile]:
    from ranklens.compare.analysis import demo_files as bundled

    files = bundled()
    for file in files.values():
        _ = file.sha256  # computed here, once, for every session
    return files


def demo_seed_files() -> tuple[InputFile, ...]:
    """The demo neural re-ranker's three training seeds (role "run"), read and hashed once per
    server process, as `demo_files`."""
    return _demo_seed_files()


@st.cache_resource(show_spinner=False)
def _demo_seed_files() -> tuple[InputFile, ...]:
    from ranklens import demo

    files = tuple(InputFile.from_path("run", path) for path in demo.seed_paths())
    for file in files:
        _ = file.sha256  # computed here, once, for every session
    return files


def relabelled(file: InputFile, role: str) -> InputFile:
    """``file`` under ``role``, its digest kept (not hashed again)."""
    return file if file.role == role else InputFile.with_digest(role, file.name, file.data,
                                                                  file.sha256)


def demo_compare_files(candidates: tuple[str, ...] = DEMO_CANDIDATES) -> dict[str, InputFile]:
    """The Compare page's demo inputs by its roles: BM25 as run A (the baseline), the demo
    runs ``candidates`` as runs B, C, ... (by default the neural re-ranker and the dense
    retriever with many unjudged documents), the qrels, the segment map and the proxy labels
    of every run's top 20."""
    demo = demo_files()
    chosen = {run_role(0): demo["run_a"],
              **{run_role(i + 1): demo[role] for i, role in enumerate(candidates)}}
    for role in ROLES:
        if not role.startswith("run_"):
            chosen[role] = demo[DEMO_ROLES.get(role, role)]
    return {role: (file if file.role == role
                   else InputFile.with_digest(role, file.name, file.data, file.sha256))
            for role, file in chosen.items()}


def input_key(files: Iterable[InputFile]) -> InputKey:
    """What names ``files`` in cache keys: (role, name, sha256) of each, in order."""
    return tuple(f.key for f in files)


# ---- the cache ----------------------------------------------------------------------------

def app_cache() -> SizedLRU:
    """The one cache of parsed inputs, reports and page analyses, shared by all sessions, for
    the configured ``RANKLENS_CACHE_MB``.

    A value that is not a size stops the page with the variable named (an operator's typo),
    rather than surfacing as an error about the user's inputs.
    """
    try:
        capacity = cache_limit_bytes()
    except ValueError as error:
        st.error(f"**The app is not configured correctly:** {markup.text(error)}. Tell whoever "
                 "runs this app.", icon=":material/settings_alert:")
        st.stop()
    return _shared_cache(capacity)


@st.cache_resource(show_spinner=False, max_entries=1)
def _shared_cache(capacity: int) -> SizedLRU:
    return SizedLRU(capacity)


def cached(kind: str, key: Hashable, compute: Callable[[], T], *,
           label: str | None = None, input_size: int = 0,
           files: Iterable[InputFile] = ()) -> T:
    """``compute()`` once per ``(kind, key)`` in the app's cache, inside a progress box saying
    ``label`` when given; sessions asking at once compute it once, and on inputs of
    ``input_size`` bytes over ``BIG_INPUT_BYTES`` it waits its turn (`big_step`). ``files``
    are first checked against the upload's byte and row limits (`InputFile.check_limits`),
    for readers that take no limit of their own. Exceptions are not cached."""

    def run() -> T:
        limit = upload_limit_bytes()
        for file in files:
            file.check_limits(limit)
        with big_step(input_size):
            if label is None:
                return compute()
            with progress_box(label):
                return compute()

    return once((kind, key), run)


def parsed_run(file: InputFile) -> Run:
    """``file``'s run, read once per upload (its digest) however often the settings that use
    it change; the upload's limits are checked on that read."""
    return cached("parsed-run", file.key, lambda: read_run(file.data, name=file.name)[0],
                  files=(file,))


def parsed_qrels(file: InputFile) -> Qrels:
    """``file``'s judgements, read once per upload (its digest), as `parsed_run`."""
    return cached("parsed-qrels", file.key, lambda: read_qrels(file.data, name=file.name)[0],
                  files=(file,))


def once(key: Hashable, compute: Callable[[], T]) -> T:
    """The value the app's cache holds under ``key``, else ``compute()``'s, then stored under
    it. Sessions asking at once compute it once: the second looks again once the first's
    flight (``cache.one_flight``) is over. Exceptions are not cached."""
    cache = app_cache()
    found: T | None = cache.get(key)
    if found is not None:
        return found
    with one_flight(key):
        found = cache.get(key)  # another session may have computed it meanwhile
        if found is not None:
            return found
        value = compute()
        cache.put(key, value)
        return value


BIG_INPUT_BYTES = 50_000_000
"""Inputs (all files of one step) over this many bytes are read and scored one step at a
time across sessions (`big_step`)."""

_BIG_STEP = threading.Semaphore(1)


@contextmanager
def big_step(size: int) -> Iterator[None]:
    """One step on inputs of more than ``BIG_INPUT_BYTES`` at a time across sessions; a
    session that has to wait says so in a status box. Steps on smaller inputs pass at once.

    Never enter it while holding it (it is not reentrant), nor wait inside it for a
    ``one_flight`` key another session may hold while waiting here.
    """
    if size <= BIG_INPUT_BYTES:
        yield
        return
    if not _BIG_STEP.acquire(blocking=False):
        with progress_box("Waiting for another session's work on large files to finish…"):
            _BIG_STEP.acquire()
    try:
        yield
    finally:
        _BIG_STEP.release()


def files_size(files: Iterable[InputFile]) -> int:
    """Bytes ``files`` expand to together (what `big_step` weighs): a gzip file by what it
    decompresses to, a Parquet file from its footer (``InputFile.expanded_size``), so a small
    upload that expands to a big input waits its turn like a big one."""
    limit = upload_limit_bytes()
    return sum(f.expanded_size(limit) for f in files)


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


# ---- Compare ------------------------------------------------------------------------------

def loaded_inputs(files: Mapping[str, InputFile],
                  columns: Mapping[str, str] | None = None) -> LoadedInputs:
    """Parsed inputs for ``files`` (roles run_a, run_b, optionally run_c ... and qrels,
    segments, qrels_proxy); ``columns`` names the runs' id columns (``load_inputs``)."""
    ordered = tuple(files[role] for role in ROLES if role in files)
    key = ("inputs", input_key(ordered) + _columns_key(columns))
    return once(key, lambda: _read_inputs(files, ordered, key, columns))


def _columns_key(columns: Mapping[str, str] | None) -> InputKey:
    return tuple(("columns", role, name) for role, name in sorted((columns or {}).items()))


def _read_inputs(files: Mapping[str, InputFile], ordered: tuple[InputFile, ...],
                 key: tuple[str, InputKey],
                 columns: Mapping[str, str] | None = None) -> LoadedInputs:
    cache = app_cache()
    same_runs = _without_segments(key[1])
    base: LoadedInputs | None = cache.find(
        lambda other: isinstance(other, tuple) and len(other) == 2 and other[0] == "inputs"
        and _without_segments(other[1]) == same_runs)
    max_bytes = upload_limit_bytes()
    if base is not None:  # only the segment map changed: read just that file
        with progress_box("Reading the segment map…"):
            return base.with_segments(files.get("segments"), max_bytes=max_bytes)
    sizes = ", ".join(f"{ROLE_NAMES[f.role]} {megabytes(f.size)}" for f in ordered)
    with big_step(files_size(ordered)), progress_box(f"Reading {sizes}…"):
        runs = [files[role] for role in RUN_ROLES if role in files]
        return load_inputs(*runs, qrels=files.get("qrels"), segments=files.get("segments"),
                           proxy_qrels=files.get("qrels_proxy"), max_bytes=max_bytes,
                           columns=columns)


def upload_limit_bytes() -> int:
    """Most bytes one input may hold once decompressed: Streamlit's ``server.maxUploadSize``.

    A gzip upload counts by what it expands to, so a 10 MB upload that would decompress to
    1.5 GB is refused as soon as it passes this size, not after.
    """
    return int(st.get_option("server.maxUploadSize")) * 1024 * 1024


def _without_segments(key: InputKey) -> InputKey:
    return tuple(entry for entry in key if entry[0] != "segments")


def report_key(inputs: LoadedInputs, settings: CompareSettings) -> Hashable:
    """The app cache's key of the report of ``inputs`` under ``settings``: the inputs'
    digests (by role: whichever order they were read in), the settings and the columns each
    file was read by."""
    # the columns read name the inputs too: the same files read by other id columns
    read = tuple((role, tuple(summary.columns.items()))
                 for role, summary in sorted(inputs.summaries.items()))
    files = tuple(sorted(input_key(inputs.files)))
    return ("report", (files, repr(settings), read))  # (kind, key), as `cached` makes them


def cached_report(inputs: LoadedInputs, settings: CompareSettings) -> Report:
    """The report of ``inputs`` under ``settings``, computed once per (digests, settings);
    the demo's at the page's defaults is the one prepared ahead (`ranklens.app.prepared`)."""
    key = report_key(inputs, settings)
    return once(key, lambda: prepared_report(repr(key)) or compute_report(inputs, settings))


def compute_report(inputs: LoadedInputs, settings: CompareSettings) -> Report:
    """The report of ``inputs`` under ``settings`` without its drill-down, computed now."""
    with big_step(files_size(inputs.files)), progress_box("Scoring and comparing…") as status:

        def progress(step: str) -> None:
            status.update(label=f"{step[:1].upper()}{step[1:]}…")

        column = settings.collection_column
        collections = (Collections(inputs.segment_maps[column], column)
                       if column is not None and column in inputs.segment_maps else None)
        # the drill-down waits for the reader's texts (``ranklens.app.compare_texts``)
        return build_report(inputs, settings, collections=collections, drilldown=False,
                            progress=progress)


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
    run_a, run_b = inputs.run_a, inputs.run_b
    if run_a is None or run_b is None:
        return None
    key = (input_key(f for f in inputs.files if f.role in ("run_a", "run_b")), order, RBO_P)
    found: MetricResult | None = app_cache().get(("rbo", key))
    if found is not None or not compute:
        return found
    return cached("rbo", key, lambda: rbo(run_a, run_b, p=RBO_P, order=order),
                  label="Comparing the two runs' orderings of every query (RBO)…",
                  input_size=files_size(inputs.files))


# ---- MDE and PPI --------------------------------------------------------------------------

def pilot(run_a: InputFile, run_b: InputFile, qrels: InputFile, metric: str,
          order: str = "score") -> planning.Pilot:
    """The MDE page's pilot: ``metric`` scored on two runs (documents ordered by ``order``),
    once per (digests, metric, order)."""
    return cached("mde_pilot", (input_key((run_a, run_b, qrels)), metric, order),
                  lambda: planning.pilot_from_files(run_a, run_b, qrels, metric, order=order),
                  label="Scoring the pilot runs…", input_size=files_size((run_a, run_b, qrels)),
                  files=(run_a, run_b, qrels))


def per_query_columns(table: InputFile) -> dict[str, MetricResult]:
    """The metric columns of a per-query table, read once per digest."""
    return cached("mde_columns", input_key((table,)),
                  lambda: planning.per_query_columns(table),
                  label=f"Reading the per-query table ({megabytes(table.size)})…",
                  files=(table,))


def ppi_analysis(run_a: InputFile, run_b: InputFile, proxy: InputFile, gold: InputFile,
                 metric: str, alpha: float, order: str = "score",
                 segments: InputFile | None = None,
                 segment_column: str | None = None) -> PPIAnalysis:
    """The PPI page's analysis, once per (digests, metric, alpha, order, segments)."""
    files = (run_a, run_b, proxy, gold, *(() if segments is None else (segments,)))
    return cached("ppi", (input_key(files), metric, alpha, order, segment_column),
                  lambda: analyse_ppi(run_a, run_b, proxy, gold, metric, alpha=alpha,
                                      order=order, segments=segments,
                                      segment_column=segment_column),
                  label="Scoring both runs under proxy and gold labels…",
                  input_size=files_size(files), files=files)


def megabytes(size: int) -> str:
    """A file size for people: ``247 MB``, ``1.6 MB``, ``98 kB``."""
    if size >= 10_000_000:
        return f"{size / 1e6:.0f} MB"
    if size >= 1_000_000:
        return f"{size / 1e6:.1f} MB"
    return f"{max(size / 1e3, 0.1):.0f} kB" if size >= 1_000 else f"{size} bytes"
