"""``ranklens evaluate``: trec_eval's lines, with the local engine or on Spark."""

from __future__ import annotations

import argparse

from ranklens import io
from ranklens.cli.common import (
    PROG,
    Parser,
    Status,
    UsageError,
    add_engine_options,
    count,
    metric_name,
    note,
    spark_session,
    write,
)
from ranklens.compare.analysis import DEFAULT_METRICS
from ranklens.metrics import Evaluation, parse_metric
from ranklens.metrics.trec_eval import plan_measures, trec_eval_output


def add_evaluate(commands: argparse._SubParsersAction[Parser]) -> None:
    p = commands.add_parser(
        "evaluate", help="per-query and mean metric values, as trec_eval prints them",
        description="Score one run against judgements and print what trec_eval prints. "
        "Drop-in form: 'ranklens evaluate [-q] [-c] [-l N] [-J] [-n] [-m MEASURE]... QRELS RUN' "
        "(trec_eval's argument order; without -m: -m official). Also 'ranklens evaluate RUN "
        "--qrels QRELS' (without -m: nDCG@10). Measures in trec_eval syntax (map, P.5,10, "
        "ndcg_cut.10, official, all_trec, or P_5) print under trec_eval's names in trec_eval's "
        "order; ranklens spellings (nDCG@10, P@5, AP) under ranklens names.",
        usage=f"{PROG} evaluate [-q] [-c] [-l N] [-J] [-n] [-m MEASURE]... QRELS RUN\n"
        f"       {PROG} evaluate RUN --qrels QRELS [-m MEASURE]... [options]",
        epilog="lines: '%-22s<TAB>query<TAB>%.4f' as trec_eval (counts as integers); "
        "cutoffs of one measure come from its first -m, as in trec_eval")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="QRELS then RUN (trec_eval's order), or RUN alone with --qrels")
    p.add_argument("--qrels", metavar="QRELS", help="judgements (then give only RUN)")
    p.add_argument("--metric", "-m", action="append", type=metric_name, metavar="MEASURE",
                   help="measure, repeatable: trec_eval syntax (map, P.5,10, ndcg_cut.10, "
                   "official, all_trec) or a ranklens name (nDCG@10, P@5)")
    p.add_argument("--per-query", "-q", action="store_true",
                   help="also print one line per query (trec_eval -q)")
    p.add_argument("-c", dest="complete", action="store_true",
                   help="average over every query of the qrels: a judged query missing from "
                   "the run scores what an empty ranking scores (trec_eval -c)")
    p.add_argument("--missing", choices=("drop", "zero"), default=None,
                   help="judged queries missing from the run: leave out (default) or score as "
                   "an empty ranking (= -c)")
    p.add_argument("-l", "--level-for-rel", dest="level", type=count(1), default=1,
                   metavar="N", help="smallest grade that counts as relevant (trec_eval -l, "
                   "default 1)")
    p.add_argument("-J", "--judged-docs-only", dest="judged_only", action="store_true",
                   help="rank only the judged documents (trec_eval -J)")
    p.add_argument("-n", "--no-summary", dest="summary", action="store_false",
                   help="no 'all' lines (trec_eval -n)")
    p.add_argument("--digits", type=count(1), default=4,
                   help="decimals printed (default 4, as trec_eval)")
    p.add_argument("--output", "-o", metavar="PATH", help="write to PATH instead of stdout; "
                   "with --engine spark, a PATH ending in .parquet gets the per-query table "
                   "(query_id + one column per metric) that 'ranklens compare' and the app read")
    add_engine_options(p)
    p.set_defaults(handler=run_evaluate)


def run_evaluate(args: argparse.Namespace) -> int:
    if getattr(args, "engine", "local") == "spark":
        return run_evaluate_spark(args)
    qrels_path, run_path = _evaluate_files(args)
    measures = list(args.metric or (["official"] if args.qrels is None else DEFAULT_METRICS))
    try:
        plan = plan_measures(measures)
    except ValueError as error:
        raise UsageError(f"{PROG} evaluate: {error} (see {PROG} evaluate --help)") from None
    status = Status()
    status("reading the inputs")
    run, run_summary = io.read_run(run_path)
    qrels, _ = io.read_qrels(qrels_path)
    status("scoring")
    complete = args.complete or args.missing == "zero"
    try:
        output = trec_eval_output(
            run, qrels, plan, relevance_level=args.level, complete=complete,
            judged_only=args.judged_only, per_query=args.per_query, summary=args.summary,
            run_tag=run_summary.run_tag, digits=args.digits)
    except ValueError as error:
        raise UsageError(f"{PROG} evaluate: {error}") from None
    status.done()
    for message in plan.notes:
        note(message)
    _note_unscored(len(output.ignored), len(output.missing), complete)
    write("".join(line + "\n" for line in output.lines), args.output)
    return 0


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

    Same files and ``-q -c -l -J -n --digits`` as the local engine; the measures are metrics
    with a value per query (``nDCG@10``, ``map``, ``P_5``, ``ndcg_cut_10`` ...), printed under
    their ranklens names. trec_eval's nicknames and counts (``official``, ``num_ret`` ...) need
    the run on one machine: the local engine. ``--output X.parquet`` writes the per-query table.
    """
    qrels_path, run_path = _evaluate_files(args)
    metrics = list(args.metric or DEFAULT_METRICS)
    for name in metrics:
        try:
            parse_metric(name)
        except ValueError:
            raise UsageError(f"{PROG} evaluate --engine spark: {name!r} is not a per-query "
                             "metric (nDCG@10, map, P_5, ndcg_cut_10, ...); trec_eval's "
                             "nicknames and counts need the local engine") from None
    complete = args.complete or args.missing == "zero"
    status = Status()
    status("starting Spark")
    session, created = spark_session(args.spark_master)
    from ranklens import spark as ranklens_spark  # importable: _spark_session checked

    try:
        status("scoring on Spark")
        evaluation = ranklens_spark.evaluate(
            ranklens_spark.read_run(session, run_path),
            ranklens_spark.read_qrels(session, qrels_path), metrics,
            missing="zero" if complete else "drop", relevance_level=args.level,
            judged_only=args.judged_only).collect()
    finally:
        if created:
            session.stop()
    status.done()
    if args.output is not None and args.output.lower().endswith(".parquet"):
        write_per_query_parquet(evaluation, args.output)
    else:
        write("".join(line + "\n" for line in _metric_lines(evaluation, args)), args.output)
    _note_unscored(evaluation.n_ignored, evaluation.n_missing, complete)
    return 0


def _metric_lines(evaluation: Evaluation, args: argparse.Namespace) -> list[str]:
    """trec_eval-shaped lines: per evaluated query (``-q``, ids in byte order), then ``all``
    (with ``-c`` the mean counts the missing queries, which get no line of their own)."""
    lines = []
    if args.per_query:
        absent = set(evaluation.missing)
        queries = sorted({q for r in evaluation.results.values() for q in r.per_query} - absent,
                         key=lambda q: q.encode())
        for query in queries:
            for name, result in evaluation.results.items():
                if query in result.per_query:
                    lines.append(f"{name:<22}\t{query}\t{result.per_query[query]:.{args.digits}f}")
    if args.summary:
        lines += [f"{name:<22}\tall\t{mean:.{args.digits}f}"
                  for name, mean in evaluation.means().items()]
    return lines


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


def _note_unscored(n_ignored: int, n_missing: int, complete: bool) -> None:
    """Say how many queries were left out of the scores, and why (as trec_eval does)."""
    if n_ignored:
        note(f"{n_ignored} queries of the run have no judgements and are not scored "
             "(as trec_eval does)")
    if n_missing:
        verb = "averaged in as empty rankings (-c)" if complete else \
            "left out (-c averages them in as empty rankings)"
        note(f"{n_missing} judged queries are not in the run: {verb}")
