"""``ranklens evaluate``: trec_eval's lines, with the local engine or on Spark."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from ranklens import io
from ranklens.cli.common import (
    PROG,
    Command,
    Status,
    UsageError,
    add_engine_options,
    add_metric,
    add_output,
    add_qrels,
    count,
    note,
    spark_session,
    write,
)
from ranklens.io.pieces import query_pieces
from ranklens.metrics.names import parse_metric
from ranklens.metrics.trec_eval import as_metrics, plan_measures
from ranklens.metrics.trec_lines import TrecOptions, TrecOutput, render_text, trec_eval_output
from ranklens.metrics.trec_ranking import PLACEHOLDER_DOCNO, MissingQueries

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ranklens.data import Qrels, Run
    from ranklens.data.grades import GradePolicy
    from ranklens.io.summary import ReadSummary
    from ranklens.metrics import Evaluation
    from ranklens.metrics.trec_eval import MeasurePlan

HELP = "per-query and mean metric values, as trec_eval prints them"
DESCRIPTION = (
    "Score one run against judgements and print what trec_eval prints. "
    "Drop-in form: 'ranklens evaluate [-q] [-c] [-l N] [-J] [-n] [-M N] [-N N] "
    "[-m MEASURE]... QRELS RUN' (trec_eval 10.0's argument order and rules; without -m: "
    "-m official). Also 'ranklens evaluate RUN "
    "--qrels QRELS' (without -m: nDCG@10). Measures in trec_eval syntax (map, P.5,10, "
    "ndcg_cut.10, official, all_trec, or P_5) print under trec_eval's names in trec_eval's "
    "order; ranklens spellings (nDCG@10, P@5, AP) under ranklens names.")
USAGE = (
    f"{PROG} evaluate [-q] [-c] [-l N] [-J] [-n] [-M N] [-N N] [-m MEASURE]... "
    "QRELS RUN\n"
    f"       {PROG} evaluate RUN --qrels QRELS [-m MEASURE]... [options]")
EPILOG = (
    "lines: '%-22s<TAB>query<TAB>%.4f' as trec_eval (counts as integers); "
    "cutoffs of one measure come from its first -m, as in trec_eval")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="QRELS then RUN (trec_eval's order), or RUN alone with --qrels")
    add_qrels(p, "judgements (then give only RUN)")
    add_metric(p, "measure, repeatable: trec_eval syntax (map, P.5,10, ndcg_cut.10, official, "
               "all_trec) or a ranklens name (nDCG@10, P@5)", repeat=True, metavar="MEASURE")
    p.add_argument("--per-query", "-q", action="store_true",
                   help="also print one line per query (trec_eval -q)")
    p.add_argument("-c", dest="complete", action="store_true",
                   help="average over every query of the qrels: a judged query missing from "
                   "the run scores what an empty ranking scores (trec_eval -c)")
    p.add_argument("--missing", choices=("error", "drop", "zero"), default=None,
                   help="judged queries missing from the run: an error (default, as trec_eval "
                   "10.0), left out (trec_eval 9.0.8) or averaged in (= -c)")
    p.add_argument("-l", "--level-for-rel", dest="level", type=count(0), default=1,
                   metavar="N", help="smallest grade that counts as relevant (trec_eval -l, "
                   "default 1; 0 makes grade 0 relevant too)")
    p.add_argument("-M", "--max-retrieved", dest="max_docs", type=count(0), default=None,
                   metavar="N", help="read only the first N documents of each ranking "
                   "(trec_eval -M)")
    p.add_argument("-N", "--docs-in-collection", dest="num_docs", type=count(0), default=0,
                   metavar="N", help="documents in the collection, for utility's fourth "
                   "coefficient (trec_eval -N, default 0)")
    p.add_argument("--truncate-grades", action="store_true",
                   help="read a fractional grade (0.73, 2.5) as trec_eval does, truncated toward "
                   "zero by C's atol (default: refused, naming the line; 'ranklens compare' reads "
                   "them as gains)")
    p.add_argument("-R", dest="rel_format", default="qrels", metavar="FORMAT",
                   help="judgements format: only trec_eval's 'qrels'")
    p.add_argument("-T", dest="results_format", default="trec_results", metavar="FORMAT",
                   help="run format: only trec_eval's 'trec_results'")
    p.add_argument("-J", "--judged-docs-only", dest="judged_only", action="store_true",
                   help="rank only the judged documents (trec_eval -J)")
    p.add_argument("-n", "--no-summary", dest="summary", action="store_false",
                   help="no 'all' lines (trec_eval -n)")
    p.add_argument("--digits", type=count(1), default=4,
                   help="decimals printed (default 4, as trec_eval)")
    add_output(p, None, "write to PATH instead of stdout; with --engine spark, a PATH ending "
               "in .parquet gets the per-query table (query_id + one column per metric) that "
               "'ranklens compare' and the app read")
    add_engine_options(p)


def run_evaluate(args: argparse.Namespace) -> int:
    if getattr(args, "engine", "local") == "spark":
        return run_evaluate_spark(args)
    qrels_path, run_path = _evaluate_files(args)
    measures = list(args.metric or (["official"] if args.qrels is None else _default_metrics()))
    try:
        plan = plan_measures(measures)
    except ValueError as error:
        raise UsageError(f"{PROG} evaluate: {error} (see {PROG} evaluate --help)") from None
    if args.rel_format != "qrels" or args.results_format != "trec_results":
        raise UsageError(f"{PROG} evaluate: ranklens reads trec_eval's 'qrels' judgements and "
                         "'trec_results' runs only (-R prefs / qrels_jg are not supported)")
    if plan.metrics and args.level < 1:
        raise UsageError(f"{PROG} evaluate: -l 0 applies to trec_eval measures only; "
                         f"{plan.metrics[0]!r} needs a relevance level >= 1")
    status = Status()
    status("reading the inputs")
    grades: GradePolicy = "truncate" if args.truncate_grades else "integer"
    read_qrels: tuple[Qrels, ReadSummary] | None = None
    pieces = query_pieces(run_path)
    if pieces is not None:  # a big run grouped by query: the judgements first, then piece by piece
        read_qrels = io.read_qrels(qrels_path, grades=grades)
        output = _by_pieces(args, run_path, pieces, read_qrels[0], plan, status)
        if output is not None:
            return _printed(output, plan, read_qrels[1], args)
    run, run_summary = io.read_run(run_path)
    qrels, qrels_summary = read_qrels or io.read_qrels(qrels_path, grades=grades)
    status("scoring")
    options = trec_options(args)
    try:
        output = trec_eval_output(run, qrels, plan, options, run_tag=run_summary.run_tag)
    except MissingQueries as error:
        status.done()
        if args.per_query:
            judged_lines = replace(options, complete=False, summary=False, missing="drop")
            write(_lines_before(error.missing[0], trec_eval_output(
                run, qrels, plan, judged_lines, run_tag=run_summary.run_tag).text),
                args.output)
        return _missing_queries(error, run_path)
    except ValueError as error:
        raise UsageError(f"{PROG} evaluate: {error}") from None
    status.done()
    return _printed(output, plan, qrels_summary, args)


def trec_options(args: argparse.Namespace) -> TrecOptions:
    """trec_eval's flags as given (``--missing zero`` is ``-c``)."""
    return TrecOptions(relevance_level=args.level,
                       complete=args.complete or args.missing == "zero",
                       judged_only=args.judged_only, per_query=args.per_query,
                       summary=args.summary, digits=args.digits, max_docs=args.max_docs,
                       num_docs=args.num_docs, missing=args.missing or "error")


def _by_pieces(args: argparse.Namespace, run_path: str, pieces: list[tuple[int, int]],
               qrels: Qrels, plan: MeasurePlan, status: Status) -> TrecOutput | None:
    """The output of a big run file grouped by query, read and scored a piece of whole
    queries at a time (``ranklens.io.pieces``): memory bounded by a piece and the qrels.
    ``None`` when a piece cannot stand for its part (a query in two pieces, a judged query
    missing without ``-c``, any input error: the whole-file read then reports it with its
    line)."""
    from ranklens.io.pieces import read_piece
    from ranklens.metrics.trec_pieces import trec_eval_output_by_pieces

    def runs() -> Iterator[tuple[Run, str | None]]:
        for number, piece in enumerate(pieces, 1):
            status(f"scoring piece {number} of {len(pieces)}")
            run, summary = io.read_run(read_piece(run_path, piece), name=run_path)
            yield run, summary.run_tag

    try:
        output = trec_eval_output_by_pieces(runs(), qrels, plan, trec_options(args))
    except (io.InputError, ValueError):
        return None
    if output is not None:
        status.done()
    return output


def _printed(output: TrecOutput, plan: MeasurePlan, qrels_summary: ReadSummary,
             args: argparse.Namespace) -> int:
    for message in plan.notes + [n for n in qrels_summary.notes if "truncated" in n]:
        note(message)
    if output.ignored:
        note(f"{len(output.ignored)} queries of the run have no judgements and are not scored "
              "(as trec_eval does)")
    if output.missing:
        note(f"{len(output.missing)} judged queries are not in the run: averaged in (-c) as "
             "trec_eval 10.0 does, each scored on a one-document placeholder ranking "
             f"('{PLACEHOLDER_DOCNO}', not relevant unless the qrels judge that id)")
    write(output.text, args.output)
    return 0


MISSING_STATUS = 4  # trec_eval 10.0's exit status for a judged query missing from the run


def _lines_before(query_id: str, per_query_text: str) -> str:
    """The ``-q`` lines that trec_eval 10.0 prints before it stops at a judged query missing
    from the run: those of the queries whose ids sort (bytes) before ``query_id``.

    trec_eval walks the qrels' queries in byte order and exits at the first one without a
    ranking; str order is the byte order of UTF-8, so comparing str ids is the same test.
    """
    kept = [line for line in per_query_text.splitlines(keepends=True)
            if line.split("\t", 2)[1] < query_id]
    return "".join(kept)


def _missing_queries(error: MissingQueries, run_path: str) -> int:
    """trec_eval 10.0's stop for judged queries without a ranking: stderr and exit status 4."""
    missing = error.missing
    more = f" (and {len(missing) - 1:,} more judged queries)" if len(missing) > 1 else ""
    print(f"{PROG} evaluate: judged query {missing[0]!r}{more} has no ranking in {run_path}; "
          "trec_eval 10.0 stops here too ('result qid not found in qrels', exit status 4). "
          "Add -c to average it in (scored on trec_eval's placeholder ranking), or "
          "--missing drop to evaluate only the queries the run answers (trec_eval 9.0.8)",
          file=sys.stderr)
    return MISSING_STATUS


def _default_metrics() -> list[str]:
    from ranklens.compare.analysis import DEFAULT_METRICS

    return list(DEFAULT_METRICS)


def _evaluate_files(args: argparse.Namespace) -> tuple[str, str]:
    """(qrels, run) from 'QRELS RUN' (trec_eval's order) or 'RUN --qrels QRELS'."""
    files = list(args.files)
    if args.qrels is not None:
        if len(files) != 1:
            raise UsageError(f"{PROG} evaluate: with --qrels give one RUN, not {len(files)} "
                             f"files (see {PROG} evaluate --help)")
        return args.qrels, files[0]
    if len(files) != 2:
        raise UsageError(f"{PROG} evaluate: give QRELS then RUN (trec_eval's order), or RUN "
                         f"--qrels QRELS (see {PROG} evaluate --help)")
    return files[0], files[1]


def run_evaluate_spark(args: argparse.Namespace) -> int:
    """``ranklens evaluate --engine spark``: per-query metrics scored on Spark.

    Same files and ``-q -c -l -J -n --digits`` as the local engine, and the same lines: the
    trec_eval measures that are ranklens metrics (``map``, ``P.5,10``, ``ndcg_cut.10``,
    ``recip_rank`` ...) print under trec_eval's names in trec_eval's order, ranklens spellings
    (``nDCG@10``) under theirs; with ``-c`` the judged queries missing from the run get their
    lines (what an empty ranking scores). Counts and the other measures of ``all_trec`` need
    the whole rankings on one machine: the local engine. ``--output X.parquet`` writes the
    per-query table.
    """
    qrels_path, run_path = _evaluate_files(args)
    try:
        plan = plan_measures(list(args.metric or (["official"] if args.qrels is None
                                                  else _default_metrics())))
        pairs = as_metrics(plan) + [(parse_metric(m, relevance_level=max(args.level, 1)).name, m)
                                    for m in plan.metrics]
        if args.level < 1:
            raise ValueError("-l 0 needs the local engine")
    except ValueError as error:
        raise UsageError(f"{PROG} evaluate --engine spark: {error}; trec_eval's counts "
                         "(num_ret ...) and measures such as iprec_at_recall need the local "
                         "engine") from None
    complete = args.complete or args.missing == "zero"
    status = Status()
    status("starting Spark")
    session, created = spark_session(args.spark_master)
    from ranklens import spark as ranklens_spark  # importable: _spark_session checked

    try:
        status("scoring on Spark")
        evaluation = ranklens_spark.evaluate(
            ranklens_spark.read_run(session, run_path),
            ranklens_spark.read_qrels(session, qrels_path), [m for _, m in pairs],
            missing="zero" if complete else "drop", relevance_level=args.level,
            judged_only=args.judged_only).collect()
    finally:
        if created:
            session.stop()
    status.done()
    if evaluation.n_missing and not complete and args.missing != "drop":
        return _missing_queries(MissingQueries(sorted(evaluation.missing)), run_path)
    if args.output is not None and args.output.lower().endswith(".parquet"):
        write_per_query_parquet(evaluation, args.output)
    else:
        write(_metric_text(evaluation, pairs, args), args.output)
    if evaluation.n_ignored:
        note(f"{evaluation.n_ignored} queries of the run have no judgements and are not scored "
              "(as trec_eval does)")
    if evaluation.n_missing and complete:
        note(f"{evaluation.n_missing} judged queries are not in the run: averaged in (-c) as "
             "trec_eval 10.0 does (what an empty ranking scores)")
    return 0


def _metric_text(evaluation: Evaluation, pairs: list[tuple[str, str]],
                 args: argparse.Namespace) -> str:
    """trec_eval's lines: per query (``-q``, ids in byte order; with ``-c`` the missing
    queries too), then ``all``, the values added in query order as trec_eval adds them."""
    queries = sorted({q for r in evaluation.results.values() for q in r.per_query},
                     key=lambda q: q.encode())
    columns: list[tuple[str, str, object]] = []
    for printed, metric in pairs:
        values = evaluation[metric].per_query
        columns.append((printed, "value", [values[q] for q in queries]))
    return render_text(columns, queries, per_query=args.per_query, summary=args.summary,
                        run_tag="", digits=args.digits)


def write_per_query_parquet(evaluation: Evaluation, path: str) -> None:
    """One Parquet file: ``query_id`` + one double column per metric, one row per query."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    queries = sorted({q for r in evaluation.results.values() for q in r.per_query})
    columns: dict[str, pa.Array] = {"query_id": pa.array(queries, pa.string())}
    for name, result in evaluation.results.items():
        columns[name] = pa.array([result.per_query.get(q) for q in queries], pa.float64())
    try:
        pq.write_table(pa.table(columns), path)
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error}") from None


COMMAND = Command(HELP, DESCRIPTION, add_arguments, run_evaluate, usage=USAGE, epilog=EPILOG)
