"""``ranklens mde``: the minimum detectable effect and the queries a difference needs."""

from __future__ import annotations

import argparse
import dataclasses
from typing import TYPE_CHECKING

from ranklens.cli.common import (
    PROG,
    Command,
    Status,
    UsageError,
    add_alpha,
    add_output,
    add_scoring,
    count,
    non_negative_number,
    positive_number,
    probability,
    write,
)
from ranklens.compare.choices import metrics_to_compare as chosen_metrics
from ranklens.compare.inputs import load_inputs
from ranklens.io import InputFile
from ranklens.stats import MIN_POWER_QUERIES, POWER_METHODS

if TYPE_CHECKING:
    from ranklens.plan.analysis import QueryPlan

HELP = "minimum detectable effect and queries needed"
DESCRIPTION = (
    "How small a difference can N queries resolve, and how many queries does "
    "a difference need? Give the sd of per-query differences (--sd), or measure it on "
    "pilot data (--runs A B --qrels Q --metric M; without --qrels A and B are per-query "
    "tables).")
EPILOG = (
    "examples: ranklens mde --sd 0.1 --queries 200 | ranklens mde --delta 0.01 "
    "--sd 0.1 | ranklens mde --runs A.trec B.trec --qrels qrels.txt --metric ndcg@10")


def add_arguments(p: argparse.ArgumentParser) -> None:
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--sd", type=non_negative_number,
                        help="standard deviation of the per-query differences B - A")
    source.add_argument("--runs", nargs=2, metavar=("RUN_A", "RUN_B"),
                        help="pilot runs (or per-query tables) to measure the sd on")
    add_scoring(p, qrels="judgements for --runs", metric="metric for --runs (default nDCG@10)",
                missing="pilot queries measured in one run only (default drop)")
    p.add_argument("--queries", "-n", type=count(MIN_POWER_QUERIES),
                   help="number of queries to plan for (default with --runs: the pilot's)")
    p.add_argument("--delta", action="append", type=positive_number, metavar="DELTA",
                   help="difference of interest, repeatable (default +0.02, +0.01, +0.005)")
    add_alpha(p)
    p.add_argument("--power", type=probability, default=0.8, help="power (default 0.8)")
    p.add_argument("--method", choices=("auto", *POWER_METHODS), default="auto",
                   help="auto (default: the paired t-test's noncentral t where the normal "
                        "approximation overstates power, below 78 queries at alpha 0.05 and "
                        "power 0.8; z from there on), z (normal approximation) or t")
    add_output(p, ("text", "json", "html"), help="")


def run_mde(args: argparse.Namespace) -> int:
    from ranklens.plan.analysis import DEFAULT_DELTAS, pilot_from_inputs, plan_queries

    deltas = tuple(args.delta) if args.delta else DEFAULT_DELTAS
    if args.runs is None:
        for option in ("qrels", "metric"):
            if getattr(args, option) is not None:
                raise UsageError(f"{PROG} mde: --{option} goes with --runs")
        plan = plan_queries(args.sd, n_queries=args.queries, deltas=deltas, alpha=args.alpha,
                            target_power=args.power, method=args.method)
        files: tuple[InputFile, ...] = ()
    else:
        status = Status()
        status("reading and scoring the pilot runs")
        run_a = InputFile.from_path("run_a", args.runs[0])
        run_b = InputFile.from_path("run_b", args.runs[1])
        qrels = None if args.qrels is None else InputFile.from_path("qrels", args.qrels)
        files = (run_a, run_b, *(() if qrels is None else (qrels,)))
        inputs = load_inputs(run_a, run_b, qrels=qrels)
        metrics = chosen_metrics(inputs, None if args.metric is None else [args.metric])
        if len(metrics) != 1:
            raise UsageError(f"{PROG} mde: the tables have several metrics "
                             f"({', '.join(metrics)}); pick one with --metric")
        measured = pilot_from_inputs(inputs, metrics[0], order=args.order,
                                     missing=args.missing)
        status.done()
        plan = plan_queries(measured.sd, n_queries=args.queries or measured.n_queries,
                            deltas=deltas, alpha=args.alpha, target_power=args.power,
                            method=args.method, pilot=measured)
    if args.format == "html":
        write(_html(plan, args, deltas, files), None)
    elif args.format == "json":
        from ranklens import codec
        from ranklens.plan.payload import result_payload

        # the page's shape: the pilot under "spread", the plan without it
        numbers = result_payload(dataclasses.replace(plan, pilot=None), plan.pilot)
        write(codec.dumps(numbers, indent=2) + "\n", None)
    else:
        from ranklens.plan.text import render_plan

        write(render_plan(plan), None)
    return 0


def _html(plan: QueryPlan, args: argparse.Namespace, deltas: tuple[float, ...],
          files: tuple[InputFile, ...]) -> str:
    """The page's HTML export of ``plan`` (``ranklens.plan.html``): its headline reads the
    first --delta, else the page's default target (+0.01)."""
    from ranklens.plan import html as html_plan
    from ranklens.plan.export import mde_export
    from ranklens.plan.settings import PlanSettings, SpreadSource

    if plan.n_queries is None:
        raise UsageError(f"{PROG} mde --format html plans for a number of queries: give "
                         "--queries N (or --runs, whose pilot has one)")
    target = args.delta[0] if args.delta else PAGE_TARGET
    pilot = plan.pilot
    spread = (SpreadSource("typed", sd=args.sd) if pilot is None
              else SpreadSource("tables", metric=pilot.metric) if args.qrels is None
              else SpreadSource("pilot", metric=pilot.metric, order=args.order))
    settings = PlanSettings(spread, plan.n_queries, args.alpha, args.power, args.method,
                            target, deltas)
    html: str = html_plan.render(mde_export(plan, target, pilot, settings, files))
    return html


PAGE_TARGET = 0.01
"""The target difference the MDE page starts from (its headline's row)."""

COMMAND = Command(HELP, DESCRIPTION, add_arguments, run_mde, epilog=EPILOG)
