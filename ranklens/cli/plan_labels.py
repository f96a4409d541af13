"""``ranklens plan-labels``: which queries and documents to judge, and why (a labelling plan)."""

from __future__ import annotations

import argparse

from ranklens import io
from ranklens.cli.common import (
    Command,
    Status,
    UsageError,
    add_alpha,
    add_gold_qrels,
    add_judge_confidence,
    add_metric,
    add_proxy_pair,
    note,
    write,
)

HELP = "which queries and documents to judge for B - A: a labelling plan"
DESCRIPTION = (
    "Score both runs under cheap (proxy) judgements and draw the queries to judge, each with a "
    "probability that grows with how far its gold B - A may lie from the proxy's (0 where the "
    "two top k lists are the same: no label can move it), and list each drawn query's "
    "documents to judge with why. Label them, then 'ranklens ppi ... --design PLAN' gives B - A "
    "with a valid interval.")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_proxy_pair(p)
    add_metric(p, "metric with a cutoff: nDCG@k or P@k (default nDCG@10)", default="nDCG@10")
    budget = p.add_mutually_exclusive_group(required=True)
    budget.add_argument("--budget-queries", type=float, metavar="N",
                        help="expected number of queries to judge")
    budget.add_argument("--budget-docs", type=float, metavar="N",
                        help="expected number of documents to judge")
    add_gold_qrels(p, "gold judgements you have already: their documents are not asked again")
    add_judge_confidence(p, "how sure the judge was of each label: a table (it may be the "
                         "proxy qrels as CSV) with query_id, doc_id and 'confidence' (the "
                         "label's probability, 0.5-1) or 'spread' (several judges' grade "
                         "spread): a query's probability then follows its own labels' doubt")
    p.add_argument("--seed", type=int, default=0, help="seed of the draw (default 0)")
    p.add_argument("--target-width", type=float, metavar="W",
                   help="also say how many queries an interval of width W needs")
    add_alpha(p)
    p.add_argument("--output", "-o", metavar="PATH",
                   help="write the plan (CSV: query_id, doc_id, probability, reason, ...) here; "
                   "without it the CSV goes to stdout")


def run_plan_labels(args: argparse.Namespace) -> int:
    from ranklens.ppi.labelling import PlanError, plan_labels

    status = Status()
    status("reading the runs and the proxy judgements")
    run_a, _ = io.read_run(args.run_a)
    run_b, _ = io.read_run(args.run_b)
    proxy, _ = io.read_qrels(args.proxy_qrels)
    gold = io.read_qrels(args.gold_qrels)[0] if args.gold_qrels else None
    spread = (io.read_judge_confidence(args.judge_confidence)
              if args.judge_confidence else None)
    status("planning")
    try:
        plan = plan_labels(run_a, run_b, proxy, metric=args.metric,
                           budget_queries=args.budget_queries, budget_docs=args.budget_docs,
                           seed=args.seed, gold=gold, alpha=args.alpha, judge_spread=spread)
    except PlanError as error:
        raise UsageError(str(error)) from None
    status.done()
    lines = plan.summary_lines(args.target_width)
    for line in lines:
        note(line)
    write(plan.documents.to_csv(index=False, float_format="%.6g"), args.output)
    return 0


COMMAND = Command(HELP, DESCRIPTION, add_arguments, run_plan_labels)
