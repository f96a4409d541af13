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
                   help="the plan (CSV of 'ranklens plan-labels', every round's rows) the gold "
                   "labels were drawn by: B - A after each round from the drawn queries, "
                   "weighted by their probabilities, and whether the question is answered; "
                   "--gold-qrels then holds the labels of the plan's documents, and for a plan "
                   "drawn with gold judgements on hand (plan-labels --gold-qrels) those "
                   "judgements too, in one file")
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
    """B - A after each round of a labelling plan (``ranklens plan-labels``) from its gold
    labels, and whether the question is answered."""
    import json

    from ranklens import io
    from ranklens.cli.common import UsageError
    from ranklens.ppi.labelling import PlanError
    from ranklens.ppi.rounds import design_looks, look_sentence, read_plan_file

    try:
        plan = read_plan_file(args.design)
    except PlanError as error:
        raise UsageError(str(error)) from None
    run_a, _ = io.read_run(args.run_a)
    run_b, _ = io.read_run(args.run_b)
    proxy, _ = io.read_qrels(args.proxy_qrels)
    gold, _ = io.read_qrels(args.gold_qrels)
    spread = (io.read_judge_confidence(args.judge_confidence)
              if args.judge_confidence else None)
    try:
        looks, _plans = design_looks(plan, run_a, run_b, proxy, gold, alpha=args.alpha,
                                     gold_name=args.gold_qrels, plan_name=args.design,
                                     judge_spread=spread)
    except PlanError as error:
        raise UsageError(str(error)) from None
    if args.format == "json":
        def fields(look):
            e = look.estimate
            return {"estimate": e.estimate, "ci_low": e.ci_low, "ci_high": e.ci_high,
                    "standard_error": e.standard_error, "lambda": e.lam, "n_drawn": e.n_drawn,
                    "n_queries": e.n_queries, "n_certain": e.n_certain, "level": e.level,
                    "round": look.round, "max_rounds": look.max_rounds,
                    "answered": look.answer is not None, "answer": look.answer}

        write(json.dumps({**fields(looks[-1]), "rounds": [fields(look) for look in looks]},
                         indent=2) + "\n", None)
        return 0
    metric = str(plan["metric"].iloc[0])
    write("".join(look_sentence(look, metric) + "\n" for look in looks), None)
    return 0


COMMAND = Command(HELP, DESCRIPTION, add_arguments, run_ppi)
