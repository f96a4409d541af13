"""``ranklens ppi``: proxy judgements corrected on a gold sample (PPI++)."""

from __future__ import annotations

import argparse

from ranklens.cli.common import (
    Command,
    Status,
    add_alpha,
    add_gold_qrels,
    add_judge_confidence,
    add_metric,
    add_order,
    add_output,
    add_proxy_pair,
    add_segments,
    write,
)
from ranklens.compare.analysis import DEFAULT_METRICS
from ranklens.io import InputFile

HELP = "proxy (cheap) judgements corrected on a gold sample: PPI++"
DESCRIPTION = (
    "Score both runs under proxy judgements (all queries) and gold judgements "
    "(a random sample of queries) and estimate B - A with PPI++, beside classic PPI, gold "
    "only and the uncorrected proxy.")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_proxy_pair(p)
    add_gold_qrels(p, "trusted judgements on a random sample of the queries", required=True)
    add_metric(p, "metric (default nDCG@10)", default=DEFAULT_METRICS[0])
    add_segments(p, ": the judge's bias and PPI++ per segment (segments with fewer gold "
                 "queries than needed are refused, in words)")
    p.add_argument("--design", metavar="PLAN",
                   help="the plan (CSV of 'ranklens plan-labels') the gold labels were drawn "
                   "by: B - A from the drawn queries, weighted by their probabilities")
    add_judge_confidence(p, "with --design: the judge-confidence table the plan was made "
                         "with (see ranklens plan-labels --judge-confidence)")
    add_alpha(p)
    add_order(p)
    add_output(p, ("text", "json", "html"), help="")


def run_ppi(args: argparse.Namespace) -> int:
    from ranklens.cli.compare import split_segments_argument
    from ranklens.ppi.analysis import analyse_ppi
    from ranklens.ppi.text import render_ppi

    if args.design:
        return _run_design(args)
    status = Status()
    status("reading and scoring under proxy and gold judgements")
    segments_path, column = split_segments_argument(args.segments)
    files = (InputFile.from_path("run_a", args.run_a), InputFile.from_path("run_b", args.run_b),
             InputFile.from_path("qrels_proxy", args.proxy_qrels),
             InputFile.from_path("qrels_gold", args.gold_qrels))
    segments = None if segments_path is None else InputFile.from_path("segments", segments_path)
    analysis = analyse_ppi(*files, args.metric, alpha=args.alpha, order=args.order,
                           segments=segments, segment_column=column)
    status.done()
    if args.format == "html":  # the page's export (ranklens.ppi.html), the budget at its default
        from ranklens.ppi import html as html_ppi
        from ranklens.ppi.export import ppi_export
        from ranklens.ppi.settings import PPISettings

        chosen = None if analysis.judge is None else analysis.judge.segment_column
        settings = PPISettings(analysis.metric, args.alpha, args.order, chosen)
        write(html_ppi.render(ppi_export(analysis, settings,
                                         (*files, *(() if segments is None else (segments,))))),
              None)
    elif args.format == "json":
        from ranklens import codec
        from ranklens.ppi.payload import result_payload

        write(codec.dumps(result_payload(analysis), indent=2) + "\n", None)  # the page's
    else:
        write(render_ppi(analysis), None)
    return 0


def _run_design(args: argparse.Namespace) -> int:
    """B - A from gold labels drawn by a labelling plan (``ranklens plan-labels``)."""
    import json

    import pandas as pd

    from ranklens import io
    from ranklens.cli.common import UsageError
    from ranklens.ppi.labelling import (
        PLAN_COLUMNS,
        PlanError,
        design_estimate_from_gold,
        design_sentence,
    )

    try:
        plan = pd.read_csv(args.design, dtype={"query_id": str, "doc_id": str})
    except (OSError, ValueError) as error:
        raise UsageError(f"{args.design}: cannot read the plan ({error})") from None
    lacking = [c for c in PLAN_COLUMNS if c not in plan.columns]
    if lacking:
        raise UsageError(f"{args.design}: not a plan of 'ranklens plan-labels' (no column "
                         f"{', '.join(lacking)}); make one with ranklens plan-labels")
    run_a, _ = io.read_run(args.run_a)
    run_b, _ = io.read_run(args.run_b)
    proxy, _ = io.read_qrels(args.proxy_qrels)
    gold, _ = io.read_qrels(args.gold_qrels)
    spread = (io.read_judge_confidence(args.judge_confidence)
              if args.judge_confidence else None)
    try:
        estimate, _plan = design_estimate_from_gold(plan, run_a, run_b, proxy, gold,
                                                    alpha=args.alpha, gold_name=args.gold_qrels,
                                                    plan_name=args.design, judge_spread=spread)
    except PlanError as error:
        raise UsageError(str(error)) from None
    if args.format == "json":
        write(json.dumps({"estimate": estimate.estimate, "ci_low": estimate.ci_low,
                          "ci_high": estimate.ci_high, "standard_error": estimate.standard_error,
                          "lambda": estimate.lam, "n_drawn": estimate.n_drawn,
                          "n_queries": estimate.n_queries, "n_certain": estimate.n_certain,
                          "level": estimate.level}, indent=2) + "\n", None)
        return 0
    write(design_sentence(estimate, plan["metric"].iloc[0]) + "\n", None)
    return 0


COMMAND = Command(HELP, DESCRIPTION, add_arguments, run_ppi)
