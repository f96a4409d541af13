"""Reading the inputs of one comparison: ``load_inputs`` and what it needs.

``load_inputs`` reads a baseline and one or more candidate runs with their judgements (or
per-query metric tables), an optional segment map and optional proxy judgements, each file in
its own thread, and returns a ``LoadedInputs``. Given the settings up front, runs are scored one
at a time as they are read and let go (`_load_streaming`), a big run file grouped by query a
piece of whole queries at a time (``ranklens.compare.run_pieces``), so the peak grows neither
with the number of runs nor with their rows; only their per-query values (and what their
coverage, health checks and tie sentence need) are kept.

It does not compare: ``ranklens.compare.analysis.inputs_report`` does.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple, TypedDict

from ranklens import io
from ranklens.compare import coverage as cov
from ranklens.compare import scoring
from ranklens.compare.assemble import input_record
from ranklens.compare.coverage import Treatment
from ranklens.compare.family import MAX_RUNS, run_role
from ranklens.compare.loaded import LoadedInputs, relabelled
from ranklens.compare.report import InputRecord
from ranklens.compare.run_pieces import path_record, run_pieces, streamed_by_pieces
from ranklens.compare.scoring import ScoreCache, StreamedRun, score, scored_names, scoring_key
from ranklens.compare.settings import CompareSettings
from ranklens.compare.tie_reading import other_readings, ties_key
from ranklens.data import Qrels, Run
from ranklens.health import checks as health_checks
from ranklens.health.self_retrieval import without_self_retrieval
from ranklens.io import InputFile
from ranklens.io.id_columns import with_id_columns_chosen
from ranklens.io.pieces import PIECE_BYTES
from ranklens.io.shared_queries import RUN_AND_QRELS_FIX, check_shared_queries
from ranklens.metrics.checks import tied_scores
from ranklens.metrics.holes import fill_holes
from ranklens.metrics.ties import has_ties

__all__ = ["ComparisonFiles", "Input", "as_file", "load_inputs", "streamed_treatments"]

Input = InputFile | str | Path
"""An input file as given: its bytes with a role and name, or a path to read."""


class ComparisonFiles(TypedDict, total=False):
    """The keywords of `load_inputs` that name a comparison's files besides its runs
    (``qrels``, ``segments``, ``proxy_qrels``) and the runs' ``columns``, for the functions
    that pass them on to it (``ranklens.compare.analysis.build_report``); what each means and
    its default are `load_inputs`'."""

    qrels: Input | None
    segments: Input | None
    proxy_qrels: Input | None
    columns: Mapping[str, str] | None


def as_file(given: Input, role: str) -> InputFile:
    """``given`` as an InputFile of ``role`` (a path is read; a file of another role is
    relabelled, keeping its digest when it was computed)."""
    if not isinstance(given, InputFile):
        return InputFile.from_path(role, given)
    return relabelled(given, role)


def load_inputs(
    run_a: Input,
    run_b: Input,
    *candidates: Input,
    qrels: Input | None = None,
    segments: Input | None = None,
    proxy_qrels: Input | None = None,
    max_bytes: int | None = None,
    settings: CompareSettings | None = None,
    columns: Mapping[str, str] | None = None,
) -> LoadedInputs:
    """Read the inputs of one comparison; every problem is an ``io.InputError`` in words.

    ``run_a`` is the baseline, ``run_b`` and any further ``candidates`` are compared with it
    (a baseline and up to 25 candidates; their roles become run_a, run_b, run_c, ...). Each
    input is an ``InputFile`` or a path. With ``qrels`` the runs are rankings; without, they
    are per-query metric tables (query id + one column per metric, or long form).
    ``segments`` is a segment map with one or more segment columns. ``proxy_qrels`` (role
    ``qrels_proxy``) are cheap judgements that can fill the holes of ``qrels``; they need
    ``qrels``.

    With ``settings`` (and ``qrels``), each run is scored for those settings' metrics (and
    what their judgement coverage needs) as soon as it is read, and its ranking and bytes are
    let go: memory holds about two runs however many there are. Such inputs cannot be scored
    again for other metrics or options.

    ``columns`` maps roles to the runs' column names (``{"doc_id": "docno"}``); without it a
    run table with several id columns (``docid`` and ``docno``) is read by the one whose values
    occur in the qrels (``ranklens.io.id_columns``), and its summary says which and why.
    """
    given = (run_a, run_b, *candidates)
    if len(given) > MAX_RUNS:
        run_role(len(given) - 1)  # raises, in words
    if columns is None and settings is not None:
        columns = settings.id_columns()
    named = _named_id_columns(columns)
    if proxy_qrels is not None and qrels is None:
        name = proxy_qrels.name if isinstance(proxy_qrels, InputFile) else str(proxy_qrels)
        raise io.InputError(name, "proxy judgements fill the holes of the judgements, and "
                            "there are none", hint="Give the judgements (qrels) too.")
    # runs keep their rank column: order="rank" is offered when scores are tied
    read = functools.partial(io.read_run, keep_ranks=True, columns=columns) \
        if qrels is not None else io.read_per_query

    if settings is not None and qrels is not None:
        return dataclasses.replace(
            _load_streaming(given, qrels, segments, proxy_qrels, max_bytes,
                            settings.canonical(), columns), id_columns=named)
    files = tuple(as_file(f, run_role(i)) for i, f in enumerate(given))
    extra = _extra_files(qrels, segments, proxy_qrels)
    summaries: dict[str, io.ReadSummary] = {}
    loaded: dict[str, Any] = {}
    # Every file is parsed in its own thread and the digests computed meanwhile (arrow, numpy
    # and hashlib release the GIL): on two cores the single-threaded phases of one read
    # overlap another. Errors surface in the order of a sequential read (A, B, ..., qrels).
    with ThreadPoolExecutor(max_workers=5) as pool:
        reads = {f.role: pool.submit(read, f.data, name=f.name, max_bytes=max_bytes)
                 for f in files}
        for f in extra:
            reader = io.read_segments if f.role == "segments" else io.read_qrels
            reads[f.role] = pool.submit(reader, f.data, name=f.name, max_bytes=max_bytes)
        digests = pool.submit(lambda: [f.sha256 for f in (*files, *extra)])
        try:
            for role, future in reads.items():
                loaded[role], summaries[role] = future.result()
            digests.result()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    segment_maps = dict(loaded.pop("segments").by_column) if segments is not None else {}
    for f in files if qrels is not None else ():  # several id columns: the qrels' ones
        loaded[f.role], summaries[f.role] = _id_columns_chosen(
            (loaded[f.role], summaries[f.role]), loaded["qrels"], f, max_bytes, columns)
    values = tuple(loaded[f.role] for f in files)
    if qrels is not None:
        return LoadedInputs((*files, *extra), summaries, runs=values, qrels=loaded["qrels"],
                            segment_maps=segment_maps, proxy_qrels=loaded.get("qrels_proxy"),
                            id_columns=named)
    return LoadedInputs((*files, *extra), summaries, tables=values, segment_maps=segment_maps)


def _named_id_columns(columns: Mapping[str, str] | None) -> tuple[tuple[str, str], ...]:
    """The id roles of ``columns`` (what a report's settings name), in a fixed order."""
    return tuple((role, columns[role]) for role in ("doc_id", "query_id")
                 if columns and columns.get(role))


def _extra_files(qrels: Input | None, segments: Input | None,
                 proxy_qrels: Input | None) -> tuple[InputFile, ...]:
    return tuple(as_file(f, role) for f, role in ((qrels, "qrels"), (segments, "segments"),
                                                   (proxy_qrels, "qrels_proxy"))
                 if f is not None)


def _id_columns_chosen(read: tuple[Run, io.ReadSummary], qrels: Qrels, file: InputFile,
                       max_bytes: int | None, columns: Mapping[str, str] | None
                       ) -> tuple[Run, io.ReadSummary]:
    """The run as read, or read again by the id columns whose values the qrels hold."""
    return with_id_columns_chosen(read, qrels, lambda chosen: io.read_run(
        file.data, name=file.name, max_bytes=max_bytes, keep_ranks=True,
        columns={**(columns or {}), **chosen}))


def streamed_scorings(settings: CompareSettings, rows: int, proxy: bool, runs: int
                      ) -> tuple[tuple[Treatment, tuple[str, ...]], ...]:
    """What one of ``runs`` runs of ``rows`` rows scored while read is scored for: under each
    of its `streamed_treatments`, the settings' metrics and the judged@k of their coverage
    (``scoring.scored_names``); with two runs, under the settings' own treatment the metrics
    under the other tie rule too, which the tie sentence reads (``tie_reading.tie_notes``)."""
    others = other_readings(settings) if runs == 2 else ()
    return tuple((t, tuple(dict.fromkeys((*scored_names(settings.metrics, t),
                                          *(others if t == settings.unjudged else ())))))
                 for t in streamed_treatments(settings, rows, proxy))


def streamed_treatments(settings: CompareSettings, rows: int, proxy: bool
                         ) -> tuple[Treatment, ...]:
    """Treatments a run scored while read is scored under: the settings' own; non-relevant
    too under judged-only (coverage is measured on the lists as retrieved); and every
    treatment where the coverage step (``ranklens.compare.comparison``) would show the
    robustness view without knowing the verdict (a small run, or a treatment other than the
    default)."""
    every = cov.TREATMENTS if proxy else cov.TREATMENTS[:2]
    if settings.unjudged != "nonrelevant" or 2 * rows <= scoring.ROBUSTNESS_EAGER_ROWS:
        return every
    return ("nonrelevant",)


class _Judgements(NamedTuple):
    """What the runs' reads share: the reads of the judgements (and the other files) that a
    run waits for to be scored, how many runs there are, and where each run keeps its health
    facts (by its file's digest) and whether it has ties (by its index); ``big`` is held by
    the run read whole whose file is big (`BIG_WHOLE_BYTES`): two such runs are not parsed at
    once, so their peaks do not add up."""

    reads: dict[str, Future[Any]]
    filled: Future[Any] | None
    name: str
    runs: int
    facts: dict[str, Any]
    ties: dict[int, bool]
    big: threading.Lock

    def failed(self) -> bool:
        """Whether the judgements failed to read (their error is raised after the runs')."""
        return self.reads["qrels"].exception() is not None

    def labels(self, treatment: Treatment) -> Qrels:
        """The judgements a run is scored against under ``treatment``."""
        if treatment == "proxy" and self.filled is not None:
            filled: Qrels = self.filled.result().qrels
            return filled
        judged: Qrels = self.reads["qrels"].result()[0]
        return judged


def _load_streaming(given: Sequence[Input], qrels: Input, segments: Input | None,
                    proxy_qrels: Input | None, max_bytes: int | None,
                    settings: CompareSettings,
                    columns: Mapping[str, str] | None = None) -> LoadedInputs:
    """`load_inputs` scoring each run as it is read: two runs in memory at a time, or two
    pieces of runs read by pieces (`_read_and_score`).

    The judgements, the segment map and the proxy judgements are read on a thread of their own
    meanwhile; a run waits for the judgements only to be scored.
    """
    extra = _extra_files(qrels, segments, proxy_qrels)
    with ThreadPoolExecutor(max_workers=1) as side, ThreadPoolExecutor(max_workers=2) as pool:
        reads: dict[str, Future[Any]] = {
            f.role: side.submit(io.read_segments if f.role == "segments" else io.read_qrels,
                                f.data, name=f.name, max_bytes=max_bytes) for f in extra}
        filled: Future[Any] | None = None
        if proxy_qrels is not None:
            filled = side.submit(lambda: fill_holes(reads["qrels"].result()[0],
                                                    reads["qrels_proxy"].result()[0]))
        judgements = _Judgements(reads, filled, next(f.name for f in extra if f.role == "qrels"),
                                 len(given), {}, {}, threading.Lock())
        futures = [pool.submit(_read_and_score, given[i], i, judgements, settings, max_bytes,
                               columns) for i in range(len(given))]
        try:  # errors in the order of the arguments: the runs, then qrels and the others
            done = [future.result() for future in futures]
            side_results = {role: future.result() for role, future in reads.items()}
            filled_qrels = None if filled is None else filled.result()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            side.shutdown(wait=False, cancel_futures=True)
            raise
    derived: dict[str, Any] = {"depths": tuple(d.depths for d in done), **judgements.facts,
                               health_checks.DROPPED: settings.drop_self_retrieval,
                               ties_key(settings.order): any(judgements.ties.values())}
    if filled_qrels is not None:
        derived["filled"] = filled_qrels
    return _streamed_inputs(extra, done, side_results, derived)


def _streamed_inputs(extra: tuple[InputFile, ...], done: Sequence[StreamedRun],
                     side_results: Mapping[str, Any], derived: dict[str, Any]) -> LoadedInputs:
    """The `LoadedInputs` of runs scored while read (``done``, in role order) and of the
    other files' reads (``side_results``, by role)."""
    summaries: dict[str, io.ReadSummary] = {run_role(i): streamed.summary
                                            for i, streamed in enumerate(done)}
    summaries.update({role: summary for role, (_, summary) in side_results.items()})
    segments = side_results.get("segments")
    proxy = side_results.get("qrels_proxy")
    # a key every run was scored for (runs of other sizes may have more treatments)
    keys = [key for key in (done[0].scored or {})
            if all(key in (d.scored or {}) for d in done)]
    return LoadedInputs(
        extra, summaries, runs=(None,) * len(done), qrels=side_results["qrels"][0],
        segment_maps={} if segments is None else dict(segments[0].by_column),
        proxy_qrels=None if proxy is None else proxy[0],
        cache=ScoreCache({key: tuple((d.scored or {})[key] for d in done) for key in keys},
                         derived),
        streamed=tuple(d.record for d in done),
        streamed_checks=tuple((index, d.tied) for index, d in enumerate(done)
                              if d.tied is not None and d.tied.warns))


def _read_and_score(given: Input, index: int, judgements: _Judgements,
                    settings: CompareSettings, max_bytes: int | None,
                    columns: Mapping[str, str] | None) -> StreamedRun:
    """Run ``index`` read and scored for ``settings``, its health facts and ties kept in
    ``judgements``: a big file grouped by query a piece at a time
    (``ranklens.compare.run_pieces``), any other read whole (`_read_whole_and_score`)."""
    pieces = run_pieces(given, max_bytes)
    if pieces is not None and not judgements.failed():
        found = streamed_by_pieces(
            Path(str(given)), pieces, (run_role(index), Path(str(given)).name),
            judgements.labels, settings,
            lambda rows: streamed_scorings(settings, rows, judgements.filled is not None,
                                           judgements.runs),
            columns)
        if found is not None:
            streamed, facts, judgements.ties[index] = found
            health_checks.remember(judgements.facts, streamed.record.sha256, facts)
            return streamed
    whole = _WholeRun.of(given, run_role(index))
    with judgements.big if whole.size > BIG_WHOLE_BYTES else contextlib.nullcontext():
        return _read_whole_and_score(whole, index, judgements, settings, max_bytes, columns)


BIG_WHOLE_BYTES = 2 * PIECE_BYTES
"""A run read whole from a file over this size (one not grouped by query, or given as bytes)
is parsed and scored while no other such run is: a shuffled 7M-row run costs about 0.8 GB at
its peak, and two side by side cost both."""


class _WholeRun(NamedTuple):
    """A run to read whole: a file on disk by its path (its bytes are never held whole, its
    digest is streamed), anything else as an `InputFile` (its bytes)."""

    source: InputFile | Path
    name: str

    @classmethod
    def of(cls, given: Input, role: str) -> _WholeRun:
        if isinstance(given, (str, Path)) and Path(given).is_file():
            return cls(Path(given), Path(given).name)
        file = as_file(given, role)
        return cls(file, file.name)

    @property
    def size(self) -> int:
        """The file's size in bytes."""
        if isinstance(self.source, InputFile):
            return self.source.size
        return self.source.stat().st_size

    def read(self, max_bytes: int | None, columns: Mapping[str, str] | None
             ) -> tuple[Run, io.ReadSummary]:
        data = self.source.data if isinstance(self.source, InputFile) else self.source
        return io.read_run(data, name=self.name, max_bytes=max_bytes, keep_ranks=True,
                           columns=columns)

    def record(self, role: str, summary: io.ReadSummary) -> InputRecord:
        if isinstance(self.source, InputFile):
            return input_record(self.source, summary)
        return path_record((role, self.name), self.source, summary)


def _read_whole_and_score(whole: _WholeRun, index: int, judgements: _Judgements,
                          settings: CompareSettings, max_bytes: int | None,
                          columns: Mapping[str, str] | None) -> StreamedRun:
    """``whole`` read and scored, then let go: what `StreamedRun` keeps of it. Besides the
    settings' metrics it keeps what its judgement coverage needs: judged@k, residuals, the
    documents retrieved per query, and the robustness view's treatments when they would be
    shown (`streamed_treatments`)."""
    run, summary = whole.read(max_bytes, columns)
    if summary.id_samples and not judgements.failed():
        reread = functools.partial(_WholeRun.read, whole, max_bytes)
        run, summary = with_id_columns_chosen((run, summary), judgements.labels("nonrelevant"),
                                              lambda chosen: reread({**(columns or {}), **chosen}))
        del reread
    record = whole.record(run_role(index), summary)
    del whole  # the bytes go as soon as the run is parsed
    if judgements.failed():
        return StreamedRun(None, summary, record, None, {})  # raised after every run's error
    judged = judgements.labels("nonrelevant")
    health_checks.remember(judgements.facts, record.sha256,
                           health_checks.run_facts(run, judged))
    if settings.drop_self_retrieval:
        run = without_self_retrieval(run)
    # what LoadedInputs checks on runs it keeps, checked while this one is here
    check_shared_queries((record.name, run.query_ids()),
                         (judgements.name, judged.query_ids()), RUN_AND_QRELS_FIX)
    tied = tied_scores(run) if settings.order == "score" else None
    judgements.ties[index] = has_ties(run, settings.order)
    scored = {}
    for treatment, names in streamed_scorings(settings, len(run), judgements.filled is not None,
                                              judgements.runs):
        key = scoring_key(names, settings.missing, settings.order, settings.gain,
                          settings.relevance_level, treatment)
        scored[key] = score(run, judgements.labels(treatment), names, settings.missing,
                            settings.order, settings.gain, settings.relevance_level, treatment)
    return StreamedRun(scored, summary, record, tied, cov.ranking_depths(run))
