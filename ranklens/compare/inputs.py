"""Reading the inputs of one comparison: ``load_inputs`` and what it needs.

``load_inputs`` reads a baseline and one or more candidate runs with their judgements (or
per-query metric tables), an optional segment map and optional proxy judgements, each file in
its own thread, and returns a ``LoadedInputs``. Given the settings up front, runs are scored one
at a time as they are read and let go (`_load_streaming`), so ten 7M-row candidates need the
memory of about two; only their per-query values (and what their coverage needs) are kept.

It does not compare: ``ranklens.compare.analysis.inputs_report`` does.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypedDict

from ranklens import io
from ranklens.compare import coverage as cov
from ranklens.compare import scoring
from ranklens.compare.assemble import input_record
from ranklens.compare.coverage import Treatment
from ranklens.compare.family import MAX_RUNS, run_role
from ranklens.compare.loaded import LoadedInputs, relabelled
from ranklens.compare.scoring import ScoreCache, StreamedRun, score, scored_names, scoring_key
from ranklens.compare.settings import CompareSettings
from ranklens.data import Qrels, Run
from ranklens.health import checks as health_checks
from ranklens.health.self_retrieval import without_self_retrieval
from ranklens.io import InputFile
from ranklens.io.id_columns import with_id_columns_chosen
from ranklens.io.shared_queries import RUN_AND_QRELS_FIX, check_shared_queries
from ranklens.metrics.checks import tied_scores
from ranklens.metrics.holes import fill_holes

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


def _load_streaming(given: Sequence[Input], qrels: Input, segments: Input | None,
                    proxy_qrels: Input | None, max_bytes: int | None,
                    settings: CompareSettings,
                    columns: Mapping[str, str] | None = None) -> LoadedInputs:
    """`load_inputs` scoring each run as it is read: two runs in memory at a time.

    The judgements, the segment map and the proxy judgements are read on a thread of their own
    meanwhile; a run waits for the judgements only to be scored. Besides the settings' metrics
    each run keeps what its judgement coverage needs: judged@k, residuals, the documents
    retrieved per query, and the robustness view's treatments when they would be shown
    (`_streamed_treatments`).
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

        def read_and_score(index: int) -> StreamedRun:
            file = as_file(given[index], run_role(index))
            run, summary = io.read_run(file.data, name=file.name, max_bytes=max_bytes,
                                       keep_ranks=True, columns=columns)
            if summary.id_samples and reads["qrels"].exception() is None:
                run, summary = _id_columns_chosen((run, summary), reads["qrels"].result()[0],
                                                  file, max_bytes, columns)
            record = input_record(file, summary)
            del file  # the bytes go as soon as the run is parsed
            if reads["qrels"].exception() is not None:
                # raised below, after every run's error
                return StreamedRun(None, summary, record, None, {})
            judged: Qrels = reads["qrels"].result()[0]
            health_checks.remember(facts, record.sha256, health_checks.run_facts(run, judged))
            if settings.drop_self_retrieval:
                run = without_self_retrieval(run)
            # what LoadedInputs checks on runs it keeps, checked while this one is here
            check_shared_queries((record.name, run.query_ids()),
                                 (qrels_name, judged.query_ids()), RUN_AND_QRELS_FIX)
            tied = tied_scores(run) if settings.order == "score" else None
            scored = {}
            for treatment in streamed_treatments(settings, len(run), filled is not None):
                names = scored_names(settings.metrics, treatment)
                key = scoring_key(names, settings.missing, settings.order, settings.gain,
                                   settings.relevance_level, treatment)
                labels = (filled.result().qrels if treatment == "proxy" and filled is not None
                          else judged)
                scored[key] = score(run, labels, names, settings.missing, settings.order,
                                     settings.gain, settings.relevance_level, treatment)
            return StreamedRun(scored, summary, record, tied, cov.ranking_depths(run))

        qrels_name = next(f.name for f in extra if f.role == "qrels")
        facts: dict[str, Any] = {}  # the health checks' counts of each run, by digest

        futures = [pool.submit(read_and_score, i) for i in range(len(given))]
        try:  # errors in the order of the arguments: the runs, then qrels and the others
            done = [future.result() for future in futures]
            side_results = {role: future.result() for role, future in reads.items()}
            filled_qrels = None if filled is None else filled.result()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            side.shutdown(wait=False, cancel_futures=True)
            raise
    summaries: dict[str, io.ReadSummary] = {run_role(i): streamed.summary
                                            for i, streamed in enumerate(done)}
    summaries.update({role: summary for role, (_, summary) in side_results.items()})
    segment_maps = (dict(side_results["segments"][0].by_column) if segments is not None
                    else {})
    # a key every run was scored for (runs of other sizes may have more treatments)
    keys = [key for key in (done[0].scored or {})
            if all(key in (d.scored or {}) for d in done)]
    derived: dict[str, Any] = {"depths": tuple(d.depths for d in done), **facts,
                               health_checks.DROPPED: settings.drop_self_retrieval}
    if filled_qrels is not None:
        derived["filled"] = filled_qrels
    proxy = side_results.get("qrels_proxy")

    return LoadedInputs(
        extra, summaries, runs=(None,) * len(given), qrels=side_results["qrels"][0],
        segment_maps=segment_maps, proxy_qrels=None if proxy is None else proxy[0],
        cache=ScoreCache({key: tuple((d.scored or {})[key] for d in done) for key in keys},
                         derived),
        streamed=tuple(d.record for d in done),
        streamed_checks=tuple((index, d.tied) for index, d in enumerate(done)
                              if d.tied is not None and d.tied.warns))
