"""``ranklens compare``: run B against run A (or several candidates against a baseline), with
the local engine or on Spark."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ranklens import io
from ranklens.cli.common import (
    PROG,
    Command,
    Status,
    UsageError,
    add_alpha,
    add_engine_options,
    add_output,
    add_scoring,
    add_segments,
    count,
    spark_session,
    write,
)
from ranklens.cli.health import (
    add_health_options,
    health_columns,
    strict_status,
    with_report_health,
)
from ranklens.compare import inputs as compare_inputs
from ranklens.compare import seed_inputs
from ranklens.compare import text as compare_text
from ranklens.compare.analysis import DEFAULT_METRICS, CompareSettings
from ranklens.compare.choices import metrics_to_score as chosen_metrics_for_runs
from ranklens.compare.coverage import TREATMENTS
from ranklens.compare.family import Q_FAMILIES
from ranklens.compare.pipeline import Collections
from ranklens.compare.report import Report
from ranklens.compare.request import CompareRequest, report_for
from ranklens.compare.run_pieces import run_pieces
from ranklens.compare.steps import with_macro
from ranklens.compare.tie_reading import TIE_RULES, with_ties
from ranklens.io import InputFile
from ranklens.metrics import parse_metric
from ranklens.stats import ADJUST_METHODS, FAMILY_METHODS, INTERVAL_METHODS

DEFAULTS = CompareSettings()
"""The defaults the parser offers: those of the settings (declared once, in the library)."""

HELP = "is B better than A, by how much, where (per segment), how sure"
DESCRIPTION = (
    "Compare run B with run A: per metric (and per segment) the means, the "
    "difference B - A with its interval, the p-value (sign-flip test, skew-guarded) and q-values. "
    "With several candidates (BASELINE CAND CAND ...), each is compared with the baseline "
    "and its p adjusted for the number of candidates (a leaderboard, then each candidate's "
    "segments). Runs are rankings (TREC run, CSV/TSV/Parquet/JSONL) scored against "
    "--qrels, or, without --qrels, per-query metric tables (query_id + one column per "
    "metric, long form, or trec_eval -q output).")


TEXT_FILES = {
    "--queries": "query texts (TSV id<TAB>text, TREC topics, BEIR queries.jsonl, a table): "
                 "shown beside the ids of the queries B lost and won most, kept in the JSON "
                 "(each cut to 300 characters)",
    "--docs": "document texts (TSV, BEIR corpus.jsonl, a table; gzip too): the moves that "
              "explain those queries name each document's title; indexed in one pass, only "
              "the needed documents are read",
}
"""The text files ``ranklens compare`` reads beside the runs, and what each is for (the
drill-down of the queries B lost and won most, ``ranklens.compare.query_lines``)."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", nargs="+", metavar="RUN",
                   help="the baseline run first, then one or more candidates (up to 25 runs "
                        "in all). A system trained with several seeds is "
                        f"{seed_inputs.SYNTAX} (neural=n1.trec,n2.trec,n3.trec; bm25=bm25.trec "
                        "names one run): the report then gives two answers, for these trained "
                        "runs (per-query seed means) and for a new training run (seed variance "
                        "counted). A per-query table with a seed column is split by it")
    add_scoring(p, qrels="judgements; omit for per-query tables",
                metric="metric to compare, repeatable (default nDCG@10; for per-query tables "
                "every metric both tables have): ndcg@10, map, P@5, recall@100, mrr ...",
                missing="a query measured in one run only: drop it (default), score it 0 "
                "(trec_eval -c) or refuse", repeat=True)
    add_segments(p)
    p.add_argument("--collection", metavar="FILE:COLUMN",
                   help="the column that names each query's test collection (a segment map, "
                   "e.g. the --segments file): the report leads with the macro average of "
                   "B - A over collections (stratified interval), the pooled mean beside it, "
                   "and one row per collection with q-values across them")
    p.add_argument("--unjudged", choices=TREATMENTS, default=DEFAULTS.unjudged,
                   help="documents without a judgement: non-relevant (default, as trec_eval), "
                   "removed from the rankings (judged-only, trec_eval -J) or labelled by "
                   "--proxy-qrels (proxy); every report shows all three side by side")
    p.add_argument("--proxy-qrels", metavar="QRELS",
                   help="cheap judgements (an LLM judge) that fill the holes of --qrels: "
                   "adds the proxy row to the robustness view, and --unjudged proxy")
    add_alpha(p)
    p.add_argument("--n-resamples", type=count(100), default=DEFAULTS.n_resamples,
                   metavar="N", help=f"bootstrap resamples (default {DEFAULTS.n_resamples})")
    p.add_argument("--n-permutations", type=count(100), default=DEFAULTS.n_permutations,
                   metavar="N",
                   help=f"sign-flip permutations (default {DEFAULTS.n_permutations})")
    p.add_argument("--seed", type=count(0), default=DEFAULTS.seed,
                   help=f"random seed (default {DEFAULTS.seed})")
    p.add_argument("--interval", choices=INTERVAL_METHODS, default=DEFAULTS.interval,
                   help="interval of the difference (default auto: the skew-guarded interval, "
                   "i.e. the sign-flip permutation test or a skewness-corrected t-test inverted, "
                   "whichever keeps more; it excludes 0 exactly when p <= alpha; sign-flip: the "
                   "permutation test alone)")
    p.add_argument("--adjust", choices=ADJUST_METHODS, default=DEFAULTS.adjust_method,
                   help="multiple-comparison adjustment of q-values (default bh)")
    p.add_argument("--ties", choices=TIE_RULES, default="trec_eval",
                   help="how equal scores are ordered: trec_eval (default: by document id, "
                   "descending) or average (the expected value over every order of each tie "
                   "group, for nDCG, P, R, R-Prec, RBP, RR and AP; same as naming the metric "
                   "nDCG(ties=average)@10)")
    for flag, said in TEXT_FILES.items():
        p.add_argument(flag, metavar="FILE", help=said)
    p.add_argument("--all-pairs", action="store_true",
                   help="several candidates: adjust p for every pair of runs, not only each "
                   "candidate against the baseline (and show every pair)")
    p.add_argument("--family-method", choices=FAMILY_METHODS, default=DEFAULTS.family_method,
                   help="several candidates: how p is adjusted for the family (default max-t: "
                   "step-down maximum over sign flips of whole queries; holm: Holm on each "
                   "candidate's own p)")
    p.add_argument("--q-family", choices=Q_FAMILIES, default=DEFAULTS.q_family,
                   help="several candidates: segment q-values across each candidate's segments "
                   "(default) or across the segments of all candidates")
    p.add_argument("--name", action="append", metavar="NAME",
                   help="display name of each run, in order, repeatable (default: file names)")
    add_output(p, (*compare_text.FORMATS, "html", "latex"))
    add_health_options(p)
    p.add_argument("--leaderboard", action="store_true",
                   help="rank the runs (up to 500) instead: each run's simultaneous rank "
                   "interval and tier letters from every pair tested at once (all runs alike, "
                   "no baseline); text, markdown, json, latex or html")
    p.add_argument("--baseline", action="append", metavar="NAME", dest="baselines",
                   help="with --leaderboard: a baseline (a run's name), repeatable; every "
                   "other run is also tested against each baseline, one family for all of "
                   "them (several baselines at once)")
    p.add_argument("--discover", action="store_true",
                   help="also search every segment column, pairs of columns and what ranklens "
                   "knows of each query for slices where B - A differs, each half of the "
                   "queries searching and the other confirming (the first metric)")
    p.add_argument("--timings", action="store_true",
                   help="print the seconds of each stage (read, score, compare) on stderr")
    add_engine_options(p)


def run_compare(args: argparse.Namespace) -> int:
    seed_runs, system_names = _systems(args)
    if len(args.runs) < 2:
        raise UsageError(f"{PROG} compare: give a baseline run and at least one candidate "
                         "(RUN RUN [RUN ...])")
    if args.leaderboard:
        return run_leaderboard(args)
    if args.baselines:
        raise UsageError(f"{PROG} compare: --baseline goes with --leaderboard (without it, the "
                         "first run is the baseline)")
    if args.name is not None and seed_runs is None and len(args.name) != len(args.runs):
        raise UsageError(f"{PROG} compare: {len(args.name)} --name for {len(args.runs)} runs; "
                         "give one per run, in order, or none")
    if getattr(args, "engine", "local") == "spark":
        if seed_runs is not None:
            raise UsageError(f"{PROG} compare: the Spark engine compares one run per system; "
                             "use the local engine for systems with several runs")
        if len(args.runs) != 2:
            raise UsageError(f"{PROG} compare: the Spark engine compares two runs; give one "
                             "candidate, or use the local engine for several")
        args.run_a, args.run_b = args.runs
        return run_compare_spark(args)
    status = Status(timings=args.timings)
    segments_path, column = split_segments_argument(args.segments)
    if args.qrels is None and (args.proxy_qrels is not None or args.unjudged != "nonrelevant"):
        raise UsageError(f"{PROG} compare: --unjudged and --proxy-qrels need --qrels (per-query "
                         "tables carry no judgements)")
    if args.qrels is None and args.ties != "trec_eval":
        raise UsageError(f"{PROG} compare --ties {args.ties} scores runs: give --qrels "
                         "(per-query tables carry their values already)")
    if args.unjudged == "proxy" and args.proxy_qrels is None:
        raise UsageError(f"{PROG} compare: --unjudged proxy needs --proxy-qrels FILE")
    request = CompareRequest(
        tuple(args.runs), qrels=None if args.qrels is None else Path(args.qrels),
        segments=None if segments_path is None else Path(segments_path),
        segment_column=column, segment_example=f"--segments {segments_path}:{{column}}",
        proxy_qrels=None if args.proxy_qrels is None else Path(args.proxy_qrels),
        metrics=None if args.metric is None else tuple(args.metric), ties=args.ties,
        settings=settings_fields(args), seed_runs=seed_runs, system_names=system_names,
        columns=health_columns(args),
        # Several runs to score, or two of which one is big enough to be read a piece of whole
        # queries at a time: each is scored as soon as it is read and let go, so ten 7M-row
        # candidates need the memory of two and a 21M-row pair that of a few pieces. Other
        # pairs are read as they always were (their rankings kept for the report's extras).
        score_as_read=len(args.runs) > 2 or _read_by_pieces(args), queries=args.queries,
        documents=args.docs,
        collections=None if args.collection is None else read_collections(args.collection),
        discover=args.discover)
    return write_report(report_for(request, status), args, status)


def _read_by_pieces(args: argparse.Namespace) -> bool:
    """Whether two runs are scored while read: one of them is a file that
    ``ranklens.compare.run_pieces`` cuts, or one over ``inputs.BIG_WHOLE_BYTES`` (read whole,
    not side by side with another such run), and nothing asked for needs the rankings kept
    (query and document texts, slice discovery)."""
    if args.discover or args.queries is not None or args.docs is not None:
        return False
    big = compare_inputs.BIG_WHOLE_BYTES
    return any(run_pieces(path, None) is not None
               or (Path(path).is_file() and Path(path).stat().st_size > big)
               for path in args.runs)


def _systems(args: argparse.Namespace) -> tuple[tuple[int, ...] | None, tuple[str, ...] | None]:
    """``NAME=FILE,FILE`` arguments and per-query tables with a seed column: ``args.runs``
    becomes the flat list of runs; returns the settings' ``seed_runs`` and system names
    (both None for runs given one per system, as ever)."""
    try:
        systems = [seed_inputs.parse_system(text) for text in args.runs]
    except ValueError as error:
        raise UsageError(f"{PROG} compare: {error}") from None
    named = any(name is not None for name, _ in systems)
    # per-query tables: a seed column gives one run per seed (the Spark engine reads no such
    # tables here: it says what it needs first)
    if args.qrels is None and getattr(args, "engine", "local") != "spark":
        files = [(name, [part for i, path in enumerate(paths) for part in
                         seed_inputs.split_seed_table(InputFile.from_path("run", path))])
                 for name, paths in systems]
        split = any(len(runs) != len(paths)
                    for (_, runs), (_, paths) in zip(files, systems, strict=True))
    else:
        split = False
    if not named and not split and all(len(paths) == 1 for _, paths in systems):
        return None, None
    if named and args.name is not None:
        raise UsageError(f"{PROG} compare: systems are named twice (NAME=FILE and --name); "
                         "use one")
    if args.qrels is not None:
        args.runs = [path for _, paths in systems for path in paths]
        seed_runs = tuple(len(paths) for _, paths in systems)
        listed = [(name, [InputFile("run", Path(p).name, b"") for p in paths])
                  for name, paths in systems]
    else:
        listed = files
        args.runs = [f for _, runs in files for f in runs]
        seed_runs = tuple(len(runs) for _, runs in files)
    _, grouped, names = seed_inputs.flatten(listed, listed=False)
    if grouped is None:  # names only (bm25=bm25.trec neural=n.trec): one run per system
        args.name = list(names) if names is not None else args.name
        return None, None
    if args.name is not None and len(args.name) != len(seed_runs):
        raise UsageError(f"{PROG} compare: {len(args.name)} --name for {len(seed_runs)} "
                         "systems; give one per system, in order, or none")
    return seed_runs, names


def settings_from_args(args: argparse.Namespace, metrics: Sequence[str],
                       segment_column: str | None = None) -> CompareSettings:
    """The settings of ``ranklens compare``'s arguments, for either engine.

    ``metrics`` and ``segment_column`` are the ones chosen from the arguments and the inputs;
    raises ``ValueError`` for a choice the settings refuse (argparse has checked them).
    """
    if getattr(args, "ties", "trec_eval") != "trec_eval":
        metrics = with_ties(metrics, args.ties)
    return CompareSettings(metrics=tuple(metrics), segment_column=segment_column,
                           **settings_fields(args))


def settings_fields(args: argparse.Namespace) -> dict[str, Any]:
    """The ``CompareSettings`` fields ``ranklens compare``'s arguments set, other than the
    metrics and the segment column (chosen from the inputs too)."""
    return dict(
        alpha=args.alpha, n_resamples=args.n_resamples, n_permutations=args.n_permutations,
        seed=args.seed, missing=args.missing, interval=args.interval, adjust_method=args.adjust,
        order=args.order, unjudged=args.unjudged,
        run_names=None if args.name is None else tuple(args.name),
        family="all-pairs" if args.all_pairs else "baseline",
        family_method=args.family_method, q_family=args.q_family,
        drop_self_retrieval=args.drop_self_retrieval,
        doc_column=args.doc_column or None,
        query_column=args.query_column or None)


def run_leaderboard(args: argparse.Namespace) -> int:
    """``ranklens compare RUN... --leaderboard``: the runs ranked with rank intervals and
    tiers (``ranklens.compare.leaderboard``), in ``args.format``."""
    from ranklens.compare.leaderboard import leaderboard_report, score_runs
    from ranklens.compare.leaderboard_export import leaderboard_document

    if args.format == "csv":
        raise UsageError(f"{PROG} compare --leaderboard writes text, markdown, json, latex "
                         "or html")
    metrics = chosen_metrics_for_runs(args.metric)
    names = args.name or [Path(run).stem for run in args.runs]
    if len(names) != len(args.runs):
        raise UsageError(f"{PROG} compare: {len(names)} --name for {len(args.runs)} runs")
    status = Status(timings=args.timings)
    scored = score_runs(args.runs, args.qrels, metrics, progress=status)
    status("testing every pair")
    try:
        report = leaderboard_report(scored, names, metrics, alpha=args.alpha,
                                    n_permutations=args.n_permutations, seed=args.seed,
                                    baselines=tuple(args.baselines or ()))
    except ValueError as error:
        raise UsageError(f"{PROG} compare --leaderboard: {error}") from None
    status.clear()
    text = leaderboard_document(report, args.format)
    write(text, args.output)
    status.done()
    return 0


def write_report(report: Report, args: argparse.Namespace, status: Status) -> int:
    """Write ``report`` in ``args.format`` to ``args.output`` (stdout by default), with the
    status line saying so; the exit code (3 under ``--strict`` when a health check failed)."""
    status("writing")
    text = render_report(report, args.format)
    status.clear()
    write(text, args.output)
    status.done()
    return strict_status(report, args.strict)


def read_collections(argument: str) -> Collections:
    """The collections of ``FILE[:COLUMN]`` (``--collection``) for the macro average; the
    file's only segment column when no column is named, else a usage error naming its
    columns."""
    from ranklens.compare.assemble import input_record

    path, column = split_segments_argument(argument)
    assert path is not None
    file = InputFile.from_path("collections", path)
    read = io.read_segments(file.data, name=Path(path).name, column=column)
    columns = read.segments.columns
    if column is None and len(columns) > 1:
        raise UsageError(f"{Path(path).name} has {len(columns)} segment columns "
                         f"({', '.join(columns)}): name the collection column, e.g. "
                         f"--collection {path}:{columns[0]}")
    return Collections(read.segments.mapping, read.segments.column,
                       input_record(file, read.summary))


def render_report(report: Report, fmt: str) -> str:
    """The report in ``fmt``: text, JSON, CSV, Markdown, LaTeX (booktabs, as papers print
    it: ``ranklens.compare.latex``) or one self-contained HTML file."""
    if fmt == "latex":
        from ranklens.compare.latex import report_latex

        return report_latex(report)
    if fmt != "html":
        return compare_text.render(report, fmt)
    from ranklens.compare import html as html_report  # Altair and vl-convert load only here

    html: str = html_report.render(report)
    return html


def split_segments_argument(text: str | None) -> tuple[str | None, str | None]:
    """``FILE[:COLUMN]`` -> (file, column); a path that exists as given wins over a split."""
    if text is None:
        return None, None
    if Path(text).exists():
        return text, None
    path, colon, column = text.rpartition(":")
    if colon and path and Path(path).exists():
        return path, column or None
    return text, None  # reading it says "file not found"


def run_compare_spark(args: argparse.Namespace) -> int:
    """``ranklens compare --engine spark``: runs scored on Spark, the report built here."""
    if args.qrels is None:
        raise UsageError(f"{PROG} compare --engine spark scores runs: give --qrels (per-query "
                         "tables need no Spark: leave --engine out)")
    if args.doc_column or args.query_column or args.drop_self_retrieval:
        raise UsageError(f"{PROG} compare --engine spark reads the usual id columns and keeps "
                         "every row: leave --doc-column, --query-column and "
                         "--drop-self-retrieval out, or use the local engine")
    if args.ties != "trec_eval" or args.queries is not None or args.docs is not None:
        raise UsageError(f"{PROG} compare --engine spark breaks ties as trec_eval does and "
                         "shows no texts: leave --ties, --queries and --docs out, or use the "
                         "local engine")
    if args.order != "score":
        raise UsageError(f"{PROG} compare --engine spark orders documents by score only: "
                         "leave --order out, or use the local engine for --order rank")
    if args.unjudged != "nonrelevant" or args.proxy_qrels is not None:
        raise UsageError(f"{PROG} compare --engine spark scores unjudged documents as "
                         "non-relevant: leave --unjudged and --proxy-qrels out, or use the "
                         "local engine")
    status = Status(timings=args.timings)
    segments_path, column = split_segments_argument(args.segments)
    if segments_path is not None:
        columns = io.read_segments(InputFile.from_path("segments", segments_path).data,
                                   name=Path(segments_path).name).segments.columns
        if column is None and len(columns) > 1:
            raise UsageError(f"{Path(segments_path).name} has {len(columns)} segment columns "
                             f"({', '.join(columns)}): pick one, e.g. --segments "
                             f"{segments_path}:{columns[0]}")
    metrics = tuple(args.metric) if args.metric else DEFAULT_METRICS
    for name in metrics:
        parse_metric(name)  # an unknown name fails here, before Spark starts
    status("starting Spark")
    session, created = spark_session(args.spark_master)
    from ranklens import spark as ranklens_spark  # importable: _spark_session checked

    try:
        report = ranklens_spark.compare(
            session, args.run_a, args.run_b, args.qrels,
            settings_from_args(args, metrics, column), segments=segments_path,
            progress=status)
    finally:
        if created:
            session.stop()
    report = with_report_health(report)  # what a report alone allows: identical runs
    if args.collection is not None:
        status("the macro average over collections")
        collections = read_collections(args.collection)
        report = with_macro(report, collections.mapping, collections.column,
                            collections.record)
    return write_report(report, args, status)


COMMAND = Command(HELP, DESCRIPTION, add_arguments, run_compare)
