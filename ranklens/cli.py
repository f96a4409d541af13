"""The ``ranklens`` command: ``compare``, ``evaluate``, ``mde`` and ``ppi``.

This module collects the input (arguments, file paths) and shows the results; the thinking is
in the library (``ranklens.compare``, ``ranklens.metrics``, ``ranklens.plan``, ``ranklens.ppi``),
the words in each feature's ``text`` and ``html`` modules.

Exit status: 0 on success; 2 with a one-line message on stderr on bad usage or bad input (a
file that cannot be read, an unknown metric, a missing column). Never a traceback for those.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

from ranklens import __version__, io
from ranklens.compare import text as compare_text
from ranklens.compare.analysis import DEFAULT_METRICS, CompareSettings, LoadedInputs, load_inputs
from ranklens.compare.coverage import TREATMENTS
from ranklens.compare.report import Report
from ranklens.io import InputFile
from ranklens.metrics import Evaluation, parse_metric
from ranklens.metrics.trec_eval import plan_measures, trec_eval_output
from ranklens.stats import DEFAULT_INTERVAL, INTERVAL_METHODS, MIN_POWER_QUERIES

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

PROG = "ranklens"


class UsageError(Exception):
    """Bad usage or bad input, said in one line; the command exits with status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake as one line instead of usage text + exit."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


class Status:
    """Stage names and elapsed time on stderr, rewritten in place; only on a terminal.

    Long work (reading 7M-row runs, 10,000 resamples per segment) shows what is happening;
    pipes and files get nothing, so redirected output stays clean.
    """

    def __init__(self, stream: TextIO | None = None, enabled: bool | None = None,
                 timings: bool = False) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _is_terminal(self.stream) if enabled is None else enabled
        self.timings = timings
        self.start = self.last = time.perf_counter()
        self.start_cpu = self.last_cpu = time.process_time()
        self.stages: list[tuple[str, float, float]] = []  # stage, wall s, CPU s (all threads)
        self.stage = ""

    def __call__(self, stage: str) -> None:
        now, cpu = time.perf_counter(), time.process_time()
        if self.stage:
            self.stages.append((self.stage, now - self.last, cpu - self.last_cpu))
        self.stage, self.last, self.last_cpu = stage, now, cpu
        if self.enabled and stage:
            self.stream.write(f"\r\033[K{PROG}: {stage}\u2026 ({now - self.start:.1f} s)")
            self.stream.flush()

    def clear(self) -> None:
        """Erase the status line (before the results go to the same terminal)."""
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()

    def done(self) -> None:
        """Clear the status line; with ``timings``, print each stage's wall and CPU seconds.

        CPU seconds count every thread of the process since the command started (imports
        excluded); on a busy machine they show the work done where wall time shows the wait.
        """
        self("")
        self.clear()
        if self.timings:
            parts = ", ".join(f"{stage} {wall:.2f} s (CPU {cpu:.2f} s)"
                              for stage, wall, cpu in self.stages)
            self.stream.write(f"{PROG}: timings: {parts}; total "
                              f"{time.perf_counter() - self.start:.2f} s (CPU "
                              f"{time.process_time() - self.start_cpu:.2f} s)\n")
        self.stream.flush()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# ---- argument types -------------------------------------------------------------------------

def _probability(text: str) -> float:
    value = _number(text)
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1 (exclusive), not {text}")
    return value


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def _positive_number(text: str) -> float:
    value = _number(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0, not {text}")
    return value


def _non_negative_number(text: str) -> float:
    value = _number(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def _count(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {text}")
        return value

    parse.__name__ = "whole number"
    return parse


def _metric(text: str) -> str:
    """Metric names are checked here only for form; per-query tables may name their own."""
    if not text.strip():
        raise argparse.ArgumentTypeError("empty metric name")
    return text


# ---- the parser ------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Is ranking run B really better than run A, and "
                     "where? trec_eval-exact metrics per query, then paired statistics.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                     parser_class=_Parser)
    _add_compare(commands)
    _add_evaluate(commands)
    _add_mde(commands)
    _add_ppi(commands)
    return parser


def _add_compare(commands: argparse._SubParsersAction[_Parser]) -> None:
    p = commands.add_parser(
        "compare", help="is B better than A, by how much, where (per segment), how sure",
        description="Compare run B with run A: per metric (and per segment) the means, the "
        "difference B - A with its interval, the permutation p-value and q-values. "
        "With several candidates (BASELINE CAND CAND ...), each is compared with the baseline "
        "and its p adjusted for the number of candidates (a leaderboard, then each candidate's "
        "segments). Runs are rankings (TREC run, CSV/TSV/Parquet/JSONL) scored against "
        "--qrels, or, without --qrels, per-query metric tables (query_id + one column per "
        "metric, long form, or trec_eval -q output).")
    p.add_argument("runs", nargs="+", metavar="RUN",
                   help="the baseline run first, then one or more candidates (up to 25)")
    p.add_argument("--qrels", metavar="QRELS", help="judgements; omit for per-query tables")
    p.add_argument("--metric", "-m", action="append", type=_metric, metavar="METRIC",
                   help="metric to compare, repeatable (default nDCG@10; for per-query tables "
                   "every metric both tables have): ndcg@10, map, P@5, recall@100, mrr ...")
    p.add_argument("--segments", metavar="FILE[:COLUMN]",
                   help="segment map (query id + segment column(s)); pick a column with :COLUMN")
    p.add_argument("--unjudged", choices=TREATMENTS, default="nonrelevant",
                   help="documents without a judgement: non-relevant (default, as trec_eval), "
                   "removed from the rankings (judged-only, trec_eval -J) or labelled by "
                   "--proxy-qrels (proxy); every report shows all three side by side")
    p.add_argument("--proxy-qrels", metavar="QRELS",
                   help="cheap judgements (an LLM judge) that fill the holes of --qrels: "
                   "adds the proxy row to the robustness view, and --unjudged proxy")
    _add_alpha(p)
    p.add_argument("--n-resamples", type=_count(100), default=10_000, metavar="N",
                   help="bootstrap resamples (default 10000)")
    p.add_argument("--n-permutations", type=_count(100), default=10_000, metavar="N",
                   help="sign-flip permutations (default 10000)")
    p.add_argument("--seed", type=_count(0), default=0, help="random seed (default 0)")
    p.add_argument("--missing", choices=("drop", "zero", "error"), default="drop",
                   help="a query measured in one run only: drop it (default), score it 0 "
                   "(trec_eval -c) or refuse")
    p.add_argument("--interval", choices=INTERVAL_METHODS, default=DEFAULT_INTERVAL,
                   help="interval of the difference (default auto: bootstrap-t from 20 queries, "
                   "the sign-flip interval, i.e. the exact permutation test inverted, below)")
    p.add_argument("--adjust", choices=("bh", "by", "holm"), default="bh",
                   help="multiple-comparison adjustment of q-values (default bh)")
    _add_order(p)
    p.add_argument("--all-pairs", action="store_true",
                   help="several candidates: adjust p for every pair of runs, not only each "
                   "candidate against the baseline (and show every pair)")
    p.add_argument("--family-method", choices=("max-t", "holm"), default="max-t",
                   help="several candidates: how p is adjusted for the family (default max-t: "
                   "step-down maximum over sign flips of whole queries; holm: Holm on each "
                   "candidate's own p)")
    p.add_argument("--q-family", choices=("segments", "candidates-segments"),
                   default="segments",
                   help="several candidates: segment q-values across each candidate's segments "
                   "(default) or across the segments of all candidates")
    p.add_argument("--name", action="append", metavar="NAME",
                   help="display name of each run, in order, repeatable (default: file names)")
    p.add_argument("--format", "-f", choices=(*compare_text.FORMATS, "html"), default="text",
                   help="output format (default text)")
    p.add_argument("--output", "-o", metavar="PATH", help="write to PATH instead of stdout")
    p.add_argument("--timings", action="store_true",
                   help="print the seconds of each stage (read, score, compare) on stderr")
    _add_engine_options(p)
    p.set_defaults(handler=run_compare)


def _add_engine_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", choices=("local", "spark"), default="local",
                   help="score on this machine (default) or on Apache Spark (needs "
                   "ranklens[spark]; paths may then be directories, globs or lake URLs)")
    p.add_argument("--spark-master", default="local[*]", metavar="URL",
                   help="Spark master for --engine spark (default local[*])")


def _add_order(p: argparse.ArgumentParser) -> None:
    p.add_argument("--order", choices=("score", "rank"), default="score",
                   help="order documents by score, ties by doc id as trec_eval does (default), "
                   "or by the run's rank column")


def _add_alpha(p: argparse.ArgumentParser) -> None:
    p.add_argument("--alpha", type=_probability, default=0.05,
                   help="significance level (default 0.05)")


def _add_evaluate(commands: argparse._SubParsersAction[_Parser]) -> None:
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
    p.add_argument("--metric", "-m", action="append", type=_metric, metavar="MEASURE",
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
    p.add_argument("-l", "--level-for-rel", dest="level", type=_count(1), default=1,
                   metavar="N", help="smallest grade that counts as relevant (trec_eval -l, "
                   "default 1)")
    p.add_argument("-J", "--judged-docs-only", dest="judged_only", action="store_true",
                   help="rank only the judged documents (trec_eval -J)")
    p.add_argument("-n", "--no-summary", dest="summary", action="store_false",
                   help="no 'all' lines (trec_eval -n)")
    p.add_argument("--digits", type=_count(1), default=4,
                   help="decimals printed (default 4, as trec_eval)")
    p.add_argument("--output", "-o", metavar="PATH", help="write to PATH instead of stdout; "
                   "with --engine spark, a PATH ending in .parquet gets the per-query table "
                   "(query_id + one column per metric) that 'ranklens compare' and the app read")
    _add_engine_options(p)
    p.set_defaults(handler=run_evaluate)


def _add_mde(commands: argparse._SubParsersAction[_Parser]) -> None:
    p = commands.add_parser(
        "mde", help="minimum detectable effect and queries needed",
        description="How small a difference can N queries resolve, and how many queries does "
        "a difference need? Give the sd of per-query differences (--sd), or measure it on "
        "pilot data (--runs A B --qrels Q --metric M; without --qrels A and B are per-query "
        "tables).",
        epilog="examples: ranklens mde --sd 0.1 --queries 200 | ranklens mde --delta 0.01 "
        "--sd 0.1 | ranklens mde --runs A.trec B.trec --qrels qrels.txt --metric ndcg@10")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--sd", type=_non_negative_number,
                        help="standard deviation of the per-query differences B - A")
    source.add_argument("--runs", nargs=2, metavar=("RUN_A", "RUN_B"),
                        help="pilot runs (or per-query tables) to measure the sd on")
    p.add_argument("--qrels", metavar="QRELS", help="judgements for --runs")
    p.add_argument("--metric", "-m", type=_metric, help="metric for --runs (default nDCG@10)")
    p.add_argument("--queries", "-n", type=_count(MIN_POWER_QUERIES),
                   help="number of queries to plan for (default with --runs: the pilot's)")
    p.add_argument("--delta", action="append", type=_positive_number, metavar="DELTA",
                   help="difference of interest, repeatable (default +0.02, +0.01, +0.005)")
    _add_alpha(p)
    p.add_argument("--power", type=_probability, default=0.8, help="power (default 0.8)")
    p.add_argument("--method", choices=("z", "t"), default="z",
                   help="normal approximation (default) or the paired t-test's noncentral t")
    p.add_argument("--missing", choices=("drop", "zero", "error"), default="drop",
                   help="pilot queries measured in one run only (default drop)")
    _add_order(p)
    p.add_argument("--format", "-f", choices=("text", "json"), default="text")
    p.set_defaults(handler=run_mde)


def _add_ppi(commands: argparse._SubParsersAction[_Parser]) -> None:
    p = commands.add_parser(
        "ppi", help="proxy (cheap) judgements corrected on a gold sample: PPI++",
        description="Score both runs under proxy judgements (all queries) and gold judgements "
        "(a random sample of queries) and estimate B - A with PPI++, beside classic PPI, gold "
        "only and the uncorrected proxy.")
    p.add_argument("run_a", metavar="RUN_A")
    p.add_argument("run_b", metavar="RUN_B")
    p.add_argument("--proxy-qrels", required=True, metavar="QRELS",
                   help="cheap judgements (LLM, one assessor) on all queries")
    p.add_argument("--gold-qrels", required=True, metavar="QRELS",
                   help="trusted judgements on a random sample of the queries")
    p.add_argument("--metric", "-m", type=_metric, default=DEFAULT_METRICS[0],
                   help="metric (default nDCG@10)")
    _add_alpha(p)
    _add_order(p)
    p.add_argument("--format", "-f", choices=("text", "json"), default="text")
    p.set_defaults(handler=run_ppi)


# ---- commands --------------------------------------------------------------------------------

def run_compare(args: argparse.Namespace) -> int:
    if len(args.runs) < 2:
        raise UsageError(f"{PROG} compare: give a baseline run and at least one candidate "
                         "(RUN RUN [RUN ...])")
    if args.name is not None and len(args.name) != len(args.runs):
        raise UsageError(f"{PROG} compare: {len(args.name)} --name for {len(args.runs)} runs; "
                         "give one per run, in order, or none")
    if getattr(args, "engine", "local") == "spark":
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
    if args.unjudged == "proxy" and args.proxy_qrels is None:
        raise UsageError(f"{PROG} compare: --unjudged proxy needs --proxy-qrels FILE")
    qrels = None if args.qrels is None else Path(args.qrels)
    segments = None if segments_path is None else Path(segments_path)
    proxy_qrels = None if args.proxy_qrels is None else Path(args.proxy_qrels)
    if qrels is not None and len(args.runs) > 2:
        # Several runs to score: each is scored as soon as it is read and let go, so ten
        # 7M-row candidates need the memory of two. Two runs are read as they always were.
        metrics = chosen_metrics_for_runs(args.metric)
        status("reading and scoring the runs")
        inputs = load_inputs(*args.runs, qrels=qrels, segments=segments,
                             proxy_qrels=proxy_qrels,
                             settings=CompareSettings(metrics=metrics, missing=args.missing,
                                                      order=args.order,
                                                      unjudged=args.unjudged))
    else:
        status("reading the inputs")
        inputs = load_inputs(*args.runs, qrels=qrels, segments=segments,
                             proxy_qrels=proxy_qrels)
        metrics = chosen_metrics(inputs, args.metric)
    settings = CompareSettings(
        metrics=metrics,
        segment_column=None if segments_path is None else
        chosen_segment_column(inputs, segments_path, column),
        alpha=args.alpha, n_resamples=args.n_resamples, n_permutations=args.n_permutations,
        seed=args.seed, missing=args.missing, interval=args.interval, adjust_method=args.adjust,
        order=args.order, unjudged=args.unjudged,
        run_names=None if args.name is None else tuple(args.name),
        family="all-pairs" if args.all_pairs else "baseline",
        family_method=args.family_method, q_family=args.q_family)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the report carries every warning in words
        report = inputs.report(settings, progress=status)
    status("writing")
    text = render_report(report, args.format)
    status.clear()
    write(text, args.output)
    status.done()
    return 0


def render_report(report: Report, fmt: str) -> str:
    """The report in ``fmt``: text, JSON, CSV, Markdown or one self-contained HTML file."""
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


def chosen_segment_column(inputs: LoadedInputs, path: str, column: str | None) -> str:
    """The segment column to compare by: the one asked for, or the file's only one."""
    columns = inputs.segment_columns
    if column is not None:
        if column not in columns:
            raise UsageError(f"{Path(path).name} has no segment column {column!r}; its "
                             f"columns: {', '.join(columns)}")
        return column
    if len(columns) == 1:
        return columns[0]
    example = f"{path}:{columns[0]}"
    raise UsageError(f"{Path(path).name} has {len(columns)} segment columns "
                     f"({', '.join(columns)}): pick one, e.g. --segments {example}")


def chosen_metrics_for_runs(asked: Sequence[str] | None) -> tuple[str, ...]:
    """Metrics to score runs on: the names asked (default nDCG@10), each checked now, before
    any file is read."""
    names = tuple(asked) if asked else DEFAULT_METRICS
    for name in names:
        parse_metric(name)  # an unknown name fails here
    return names


def chosen_metrics(inputs: LoadedInputs, asked: Sequence[str] | None) -> tuple[str, ...]:
    """Metrics to compare. Runs: the names asked (default nDCG@10). Per-query tables: each
    name matched to the tables' own column, exactly or by meaning (ndcg_cut_10 = nDCG@10);
    default every metric both tables have."""
    available = inputs.available_metrics
    if available is None:
        return chosen_metrics_for_runs(asked)
    if not available:
        from ranklens.plan.analysis import common_columns

        common_columns((inputs.file_name("run_a"), list(inputs.tables_a or ())),
                       (inputs.file_name("run_b"), list(inputs.tables_b or ())))
    if not asked:
        return available
    return tuple(_table_metric(name, available) for name in asked)


def _table_metric(name: str, available: Sequence[str]) -> str:
    if name in available:
        return name
    wanted = _canonical(name)
    matches = [a for a in available if wanted is not None and _canonical(a) == wanted]
    if len(matches) == 1:
        return matches[0]
    raise UsageError(f"the per-query tables have no metric {name!r}; they have "
                     f"{', '.join(available)}")


def _canonical(name: str) -> str | None:
    try:
        return parse_metric(name).name
    except ValueError:
        return None


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
    for note in plan.notes:
        _note(note)
    if output.ignored:
        _note(f"{len(output.ignored)} queries of the run have no judgements and are not scored "
              "(as trec_eval does)")
    if output.missing:
        verb = "averaged in as empty rankings (-c)" if complete else \
            "left out (-c averages them in as empty rankings)"
        _note(f"{len(output.missing)} judged queries are not in the run: {verb}")
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


def run_mde(args: argparse.Namespace) -> int:
    from ranklens.plan.analysis import DEFAULT_DELTAS, pilot, plan_queries

    deltas = tuple(args.delta) if args.delta else DEFAULT_DELTAS
    if args.runs is None:
        for option in ("qrels", "metric"):
            if getattr(args, option) is not None:
                raise UsageError(f"{PROG} mde: --{option} goes with --runs")
        plan = plan_queries(args.sd, n_queries=args.queries, deltas=deltas, alpha=args.alpha,
                            target_power=args.power, method=args.method)
    else:
        status = Status()
        status("reading and scoring the pilot runs")
        inputs = load_inputs(
            InputFile.from_path("run_a", args.runs[0]), InputFile.from_path("run_b", args.runs[1]),
            qrels=None if args.qrels is None else InputFile.from_path("qrels", args.qrels))
        metrics = chosen_metrics(inputs, None if args.metric is None else [args.metric])
        if len(metrics) != 1:
            raise UsageError(f"{PROG} mde: the tables have several metrics "
                             f"({', '.join(metrics)}); pick one with --metric")
        results_a, results_b, _ = inputs.results(
            CompareSettings(metrics=metrics, missing=args.missing, order=args.order))
        inputs.check_shared_queries([results_a, results_b], args.missing)
        name = next(iter(results_a))
        measured = dataclasses.replace(
            pilot(results_a[name], results_b[name], missing=args.missing),
            warnings=inputs.input_warnings(order=args.order))
        status.done()
        plan = plan_queries(measured.sd, n_queries=args.queries or measured.n_queries,
                            deltas=deltas, alpha=args.alpha, target_power=args.power,
                            method=args.method, pilot=measured)
    if args.format == "json":
        write(json.dumps(dataclasses.asdict(plan), indent=2) + "\n", None)
    else:
        from ranklens.plan.text import render_plan

        write(render_plan(plan), None)
    return 0


def run_ppi(args: argparse.Namespace) -> int:
    from ranklens.ppi.analysis import analyse_ppi
    from ranklens.ppi.text import render_ppi

    status = Status()
    status("reading and scoring under proxy and gold judgements")
    analysis = analyse_ppi(
        InputFile.from_path("run_a", args.run_a), InputFile.from_path("run_b", args.run_b),
        InputFile.from_path("proxy_qrels", args.proxy_qrels),
        InputFile.from_path("gold_qrels", args.gold_qrels), args.metric, alpha=args.alpha,
        order=args.order)
    status.done()
    if args.format == "json":
        write(json.dumps(dataclasses.asdict(analysis), indent=2) + "\n", None)
    else:
        write(render_ppi(analysis), None)
    return 0


# ---- the Spark engine (ranklens[spark]) ------------------------------------------------------

def _spark_session(master: str) -> tuple[SparkSession, bool]:
    """The Spark session for --engine spark, and whether this command created it."""
    try:
        from pyspark.sql import SparkSession

        from ranklens import spark as ranklens_spark
    except ImportError:
        raise UsageError("--engine spark needs pyspark and Java 17+: pip install "
                         "'ranklens[spark]'") from None
    existing = SparkSession.getActiveSession()
    session = ranklens_spark.session(master, config={"spark.ui.showConsoleProgress": "false"})
    if existing is None:
        session.sparkContext.setLogLevel("FATAL")  # failed tasks: our own message says it
    return session, existing is None


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
    session, created = _spark_session(args.spark_master)
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
    if evaluation.n_ignored:
        _note(f"{evaluation.n_ignored} queries of the run have no judgements and are not scored "
              "(as trec_eval does)")
    if evaluation.n_missing:
        verb = "averaged in as empty rankings (-c)" if complete else \
            "left out (-c averages them in as empty rankings)"
        _note(f"{evaluation.n_missing} judged queries are not in the run: {verb}")
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


def run_compare_spark(args: argparse.Namespace) -> int:
    """``ranklens compare --engine spark``: runs scored on Spark, the report built here."""
    if args.qrels is None:
        raise UsageError(f"{PROG} compare --engine spark scores runs: give --qrels (per-query "
                         "tables need no Spark: leave --engine out)")
    if args.order != "score":
        raise UsageError(f"{PROG} compare --engine spark orders documents by score only: "
                         "leave --order out, or use the local engine for --order rank")
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
    session, created = _spark_session(args.spark_master)
    from ranklens import spark as ranklens_spark  # importable: _spark_session checked

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the report carries every warning in words
            report = ranklens_spark.compare(
                session, args.run_a, args.run_b, args.qrels,
                metrics=metrics, segments=segments_path, segment_column=column,
                alpha=args.alpha, n_resamples=args.n_resamples,
                n_permutations=args.n_permutations, seed=args.seed, missing=args.missing,
                interval=args.interval, adjust_method=args.adjust, progress=status)
    finally:
        if created:
            session.stop()
    status("writing")
    text = render_report(report, args.format)
    status.clear()
    write(text, args.output)
    status.done()
    return 0


# ---- output ----------------------------------------------------------------------------------

def write(text: str, path: str | None) -> None:
    """``text`` to ``path``, or to stdout."""
    if path is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


def _note(message: str) -> None:
    print(f"{PROG}: note: {message}", file=sys.stderr)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the exit-time flush cannot raise on a closed pipe."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 success, 2 bad usage or input)."""
    try:
        args = build_parser().parse_args(argv)
        code: int = args.handler(args)
        return code
    except SystemExit as done:  # --help, --version
        return done.code if isinstance(done.code, int) else 0
    except BrokenPipeError:  # `ranklens ... | head`: the reader has what it wanted
        _silence_stdout()
        return 0
    except (UsageError, io.InputError, ValueError, OSError) as error:
        message = " ".join(str(error).split()) or type(error).__name__
        prefix = "" if isinstance(error, UsageError) and message.startswith(PROG) else \
            f"{PROG}: error: "
        print(f"{prefix}{message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
