"""The health-check options of ``ranklens compare``: which id columns to read, dropping
self-retrieved documents, and ``--strict`` (exit status 3 when a check fails)."""

from __future__ import annotations

import argparse
import sys

from ranklens.cli.common import PROG, UsageError
from ranklens.compare.health_step import with_results_health
from ranklens.compare.report import Report

STRICT_STATUS = 3
"""Exit status of ``ranklens compare --strict`` when a health check fails (the report is still
written: a pipeline can keep it and stop the deployment)."""


def add_health_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--doc-column", metavar="COLUMN",
                   help="the runs' document id column (default: the one whose values occur "
                   "in the qrels, e.g. PyTerrier's docno rather than its docid)")
    p.add_argument("--query-column", metavar="COLUMN",
                   help="the runs' query id column (default: the one whose values occur in "
                   "the qrels)")
    p.add_argument("--drop-self-retrieval", action="store_true",
                   help="drop documents whose id is the query's before scoring, as BEIR does "
                   "(ArguAna, Quora); off by default, the health check counts them")
    p.add_argument("--strict", action="store_true",
                   help=f"exit with status {STRICT_STATUS} when a health check fails (the "
                   "report is written all the same), to gate a deployment on the comparison")


def health_columns(args: argparse.Namespace) -> dict[str, str] | None:
    """The id columns named on the command line, as ``load_inputs(columns=...)`` takes them."""
    columns = {role: name for role, name in (("doc_id", args.doc_column),
                                             ("query_id", args.query_column)) if name}
    if columns and args.qrels is None:
        raise UsageError(f"{PROG} compare: --doc-column and --query-column name the columns of "
                         "rankings; give --qrels (per-query tables name their query column "
                         "themselves)")
    return columns or None


def strict_status(report: Report, strict: bool) -> int:
    """0, or `STRICT_STATUS` with a line on stderr when ``strict`` and a check failed."""
    health = report.health
    if not strict or health is None or not health.failed:
        return 0
    names = "; ".join(c.title + (f" ({c.subject})" if c.subject else "") for c in health.failed)
    print(f"{PROG}: {len(health.failed)} health check(s) failed: {names} (--strict: exit "
          f"status {STRICT_STATUS})", file=sys.stderr)
    return STRICT_STATUS


def with_report_health(report: Report) -> Report:
    """A report built elsewhere (Spark) with the checks a report alone allows
    (``ranklens.compare.health_step.with_results_health``)."""
    return with_results_health(report)
