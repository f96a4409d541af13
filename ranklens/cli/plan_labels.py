"""``ranklens plan-labels``: which queries and documents to judge, and why (a labelling plan)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from ranklens.data import Qrels, Run
    from ranklens.ppi.labelling import LabelPlan

HELP = "which queries and documents to judge for B - A: a labelling plan"
DESCRIPTION = (
    "Score both runs under cheap (proxy) judgements and draw the queries to judge, each with a "
    "probability that grows with how far its gold B - A may lie from the proxy's (0 where the "
    "two top k lists are the same: no label can move it), and list each drawn query's "
    "documents to judge with why. Label them, then 'ranklens ppi ... --design PLAN' gives B - A "
    "with a valid interval.")


# the two whole-number options of the rounds: (flag, metavar, help)
_ROUND_COUNTS = (
    ("--round", "K", "the round to draw (1 without --design, else the round after the plan's "
     "last); said to check it"),
    ("--max-rounds", "M", "round 1: the most rounds you will label (default 1); each round's "
     "interval is then at level 1 - alpha/M, so stopping at the first round that answers the "
     "question keeps the error rate alpha"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_proxy_pair(p)
    add_metric(p, "metric with a cutoff: nDCG@k or P@k (default nDCG@10)", default="nDCG@10")
    budget = p.add_mutually_exclusive_group(required=True)
    budget.add_argument("--budget-queries", type=float, metavar="N",
                        help="expected number of queries to judge")
    budget.add_argument("--budget-docs", type=float, metavar="N",
                        help="expected number of documents to judge")
    add_gold_qrels(p, "gold judgements you have already: their documents are not asked again "
                   "(the plan names them; give them with the new labels in one file to "
                   "'ranklens ppi --design'); with --design, the gold labels of its rounds "
                   "and those judgements (all in one file)")
    p.add_argument("--design", metavar="PLAN",
                   help="the plan file of the earlier rounds: draw the next round among the "
                   "queries not labelled yet, from what their gold labels (--gold-qrels) "
                   "showed; the output is the plan file of every round")
    for flag, metavar, words in _ROUND_COUNTS:
        p.add_argument(flag, type=int, metavar=metavar, help=words)
    p.add_argument("--effect", type=float, metavar="D",
                   help="round 1: the smallest B - A that matters; an interval within +-D "
                   "answers the question too (no difference that matters)")
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
    from ranklens.ppi.labelling import PlanError, plan_csv

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
        plan = _plan(args, run_a, run_b, proxy, gold, spread)
    except PlanError as error:
        raise UsageError(str(error)) from None
    status.done()
    lines = plan.summary_lines(args.target_width)
    for line in lines:
        note(line)
    write(plan_csv(plan.design), args.output)
    return 0


def _plan(args: argparse.Namespace, run_a: Run, run_b: Run, proxy: Qrels, gold: Qrels | None,
          spread: dict[tuple[str, str], float] | None) -> LabelPlan:
    """Round 1 (no --design) or the next round of the --design plan."""
    from ranklens.ppi.labelling import Rounds, plan_labels
    from ranklens.ppi.rounds import plan_next_round, read_plan_file

    budgets = {"budget_queries": args.budget_queries, "budget_docs": args.budget_docs}
    if args.design is None:
        if args.round not in (None, 1):
            raise UsageError(f"round {args.round} needs --design, the plan file of rounds 1 "
                             f"to {args.round - 1}, and --gold-qrels, their gold labels")
        if args.max_rounds is not None and args.max_rounds < 1:
            raise UsageError("--max-rounds must be at least 1")
        rounds = Rounds(max_rounds=args.max_rounds or 1, effect=args.effect)
        return plan_labels(run_a, run_b, proxy, metric=args.metric, seed=args.seed, gold=gold,
                           alpha=args.alpha, judge_spread=spread, rounds=rounds, **budgets)
    if gold is None:
        raise UsageError(f"--design {args.design} needs --gold-qrels: the gold labels of its "
                         "rounds, which the next round learns from")
    if args.max_rounds is not None or args.effect is not None:
        raise UsageError("--max-rounds and --effect are set in round 1 and kept in the plan "
                         f"file; leave them out with --design {args.design}")
    return plan_next_round(read_plan_file(args.design), run_a, run_b, proxy, gold,
                           seed=args.seed, alpha=args.alpha, round_=args.round,
                           judge_spread=spread, plan_name=args.design,
                           gold_name=args.gold_qrels, **budgets)


COMMAND = Command(HELP, DESCRIPTION, add_arguments, run_plan_labels)
