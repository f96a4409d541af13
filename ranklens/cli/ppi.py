"""``ranklens ppi``: proxy judgements corrected on a gold sample (PPI++)."""

from __future__ import annotations

import argparse

from ranklens.cli.common import (
    Command,
    Status,
    add_alpha,
    add_metric,
    add_order,
    add_output,
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
    p.add_argument("run_a", metavar="RUN_A")
    p.add_argument("run_b", metavar="RUN_B")
    p.add_argument("--proxy-qrels", required=True, metavar="QRELS",
                   help="cheap judgements (LLM, one assessor) on all queries")
    p.add_argument("--gold-qrels", required=True, metavar="QRELS",
                   help="trusted judgements on a random sample of the queries")
    add_metric(p, "metric (default nDCG@10)", default=DEFAULT_METRICS[0])
    p.add_argument("--segments", metavar="FILE[:COLUMN]",
                   help="segment map (query id + segment column(s)): the judge's bias and "
                   "PPI++ per segment (segments with fewer gold queries than needed are "
                   "refused, in words); pick a column with :COLUMN")
    add_alpha(p)
    add_order(p)
    add_output(p, ("text", "json", "html"), help="")


def run_ppi(args: argparse.Namespace) -> int:
    from ranklens.cli.compare import split_segments_argument
    from ranklens.ppi.analysis import analyse_ppi
    from ranklens.ppi.text import render_ppi

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


COMMAND = Command(HELP, DESCRIPTION, add_arguments, run_ppi)
