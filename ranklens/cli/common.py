"""What every ``ranklens`` subcommand shares: the usage error, the status line, argument
types, the shared options and where output goes."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

from ranklens.errors import RanklensError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

PROG = "ranklens"


class UsageError(RanklensError):
    """Bad usage or bad input, said in one line; the command exits with status 2."""


class Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake as one line instead of usage text + exit."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


@dataclass(frozen=True)
class Command:
    """A subcommand, as `ranklens.cli.build_parser` registers it: the words of its ``--help``
    (``help`` its line in the command list, ``description``, ``usage`` and ``epilog`` where
    argparse's own would not do), the function adding its arguments and the one running it
    (it answers the exit status). Each command module has one, ``COMMAND``."""

    help: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    usage: str | None = None
    epilog: str | None = None


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

def probability(text: str) -> float:
    value = number(text)
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1 (exclusive), not {text}")
    return value


def number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def positive_number(text: str) -> float:
    value = number(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0, not {text}")
    return value


def non_negative_number(text: str) -> float:
    value = number(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def count(minimum: int) -> Callable[[str], int]:
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


def metric_name(text: str) -> str:
    """Metric names are checked here only for form; per-query tables may name their own."""
    if not text.strip():
        raise argparse.ArgumentTypeError("empty metric name")
    return text

def add_engine_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", choices=("local", "spark"), default="local",
                   help="score on this machine (default) or on Apache Spark (needs "
                   "ranklens[spark]; paths may then be directories, globs or lake URLs)")
    p.add_argument("--spark-master", default="local[*]", metavar="URL",
                   help="Spark master for --engine spark (default local[*])")


def add_order(p: argparse.ArgumentParser) -> None:
    from ranklens.metrics.ordering import ORDERS  # here: `evaluate` does not pay for it

    p.add_argument("--order", choices=ORDERS, default="score",
                   help="order documents by score, ties by doc id as trec_eval does (default), "
                   "or by the run's rank column")


def add_alpha(p: argparse.ArgumentParser) -> None:
    from ranklens.stats import PairedOptions  # here: `evaluate` does not import the statistics

    default = PairedOptions().alpha
    p.add_argument("--alpha", type=probability, default=default,
                   help=f"significance level (default {default})")


def add_proxy_pair(p: argparse.ArgumentParser) -> None:
    """The two runs and the cheap judgements on all queries (``ppi``, ``plan-labels``)."""
    p.add_argument("run_a", metavar="RUN_A")
    p.add_argument("run_b", metavar="RUN_B")
    p.add_argument("--proxy-qrels", required=True, metavar="QRELS",
                   help="cheap judgements (LLM, one assessor) on all queries")


def add_gold_qrels(p: argparse.ArgumentParser, help: str, *, required: bool = False) -> None:
    """``--gold-qrels``: the trusted judgements beside the proxy's (``ppi``, ``plan-labels``)."""
    p.add_argument("--gold-qrels", required=required, metavar="QRELS", help=help)


def add_judge_confidence(p: argparse.ArgumentParser, help: str) -> None:
    """``--judge-confidence``: how sure the judge was of each label (``plan-labels``, and
    ``ppi --design``, which reads the table the plan was made with)."""
    p.add_argument("--judge-confidence", metavar="FILE", help=help)


def add_segments(p: argparse.ArgumentParser, per_segment: str = "") -> None:
    """``--segments FILE[:COLUMN]`` (read by ``compare.split_segments_argument``): the segment
    map of ``compare`` and ``ppi``; ``per_segment`` says, after the map, what the command
    gives per segment."""
    p.add_argument("--segments", metavar="FILE[:COLUMN]",
                   help=f"segment map (query id + segment column(s)){per_segment}; pick a "
                   "column with :COLUMN")


def add_qrels(p: argparse.ArgumentParser, help: str) -> None:
    """``--qrels``: the judgements the runs are scored on."""
    p.add_argument("--qrels", metavar="QRELS", help=help)


def add_metric(p: argparse.ArgumentParser, help: str, *, repeat: bool = False,
               metavar: str = "METRIC", default: str | None = None) -> None:
    """``--metric``/``-m``, checked by `metric_name`; ``repeat``: one per -m, in a list."""
    if repeat:
        p.add_argument("--metric", "-m", action="append", type=metric_name, metavar=metavar,
                       help=help)
    else:
        p.add_argument("--metric", "-m", type=metric_name, metavar=metavar, default=default,
                       help=help)


def add_output(p: argparse.ArgumentParser, formats: Sequence[str] | None = ("text", "json"),
               help: str = "write to PATH instead of stdout") -> None:
    """``--format``/``-f`` among ``formats`` (default the first; None: no --format) and, unless
    ``help`` is empty, ``--output``/``-o``."""
    if formats is not None:
        p.add_argument("--format", "-f", choices=tuple(formats), default=formats[0],
                       help=f"output format (default {formats[0]})")
    if help:
        p.add_argument("--output", "-o", metavar="PATH", help=help)


def add_missing(p: argparse.ArgumentParser, help: str) -> None:
    """``--missing``: what happens to a query measured in one run only."""
    from ranklens.stats import MISSING_POLICIES, PairedOptions

    p.add_argument("--missing", choices=MISSING_POLICIES, default=PairedOptions().missing,
                   help=help)


def add_scoring(p: argparse.ArgumentParser, *, qrels: str, metric: str, missing: str,
                repeat: bool = False) -> None:
    """``--qrels``, ``--metric``, ``--missing`` and ``--order``: how two runs (or per-query
    tables) become paired per-query values, the same for ``compare`` and ``mde``'s pilot; the
    words say what each is for in the command (``repeat`` as for `add_metric`)."""
    add_qrels(p, qrels)
    add_metric(p, metric, repeat=repeat)
    add_missing(p, missing)
    add_order(p)

def spark_session(master: str) -> tuple[SparkSession, bool]:
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


def note(message: str) -> None:
    print(f"{PROG}: note: {message}", file=sys.stderr)


def silence_stdout() -> None:
    """Point stdout at /dev/null so the exit-time flush cannot raise on a closed pipe."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
