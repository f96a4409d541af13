"""The MDE plan as text a person reads: what ``ranklens mde`` prints.

It formats a ``QueryPlan``; it computes nothing (that is ``ranklens.plan.analysis``). Numbers
read as on the page and in its HTML export (``ranklens.formats``): power with one decimal.
"""

from __future__ import annotations

import textwrap

from ranklens.compare.sections.inputs import inputs_text
from ranklens.formats import (
    DASH,
    format_delta,
    format_percent,
    format_value,
    plain,
    plain_table,
)
from ranklens.plan.analysis import NO_SPREAD_SD, QueryPlan, no_spread_sentence


def render_plan(plan: QueryPlan, width: int = 100) -> str:
    """What ``ranklens mde`` prints: the spread used, the MDE, and the queries per difference.

    Differences without spread plan nothing: the spread and why, no table. The files the
    pilot was measured on and its warnings (judgements without a relevant document, tied
    runs) come last.
    """
    approximation = {"z": "normal approximation", "t": "paired t-test"}.get(
        plan.method, "normal approximation, or the paired t-test where that overstates power")
    settings = (f"alpha {plan.alpha:g}, power {format_percent(plan.power)}, two-sided, "
                f"{approximation}")
    out = []
    if plan.pilot is not None:
        p = plan.pilot
        out.append(f"Pilot: {p.metric} on {p.n_queries:,} paired queries; mean difference "
                   f"{format_delta(p.mean_delta)}, sd of per-query differences "
                   f"{format_value(p.sd)}.")
    else:
        out.append(f"sd of per-query differences: {format_value(plan.sd)}.")
    if plan.sd < NO_SPREAD_SD:
        out.append(plain(no_spread_sentence(plan.sd, plan.pilot)))
        lines = [line for sentence in out for line in textwrap.wrap(sentence, width)]
        return "\n".join([*lines, *_warnings(plan, width)]) + "\n"
    if plan.mde is not None and plan.n_queries is not None:
        out.append(f"Minimum detectable effect with {plan.n_queries:,} queries: "
                   f"{format_value(plan.mde)} ({settings}).")
        if plan.method_reason:
            out.append(f"Method: {plan.method_reason}.")
        out.append(f"A true difference below {format_value(plan.mde)} is under what "
                   f"{plan.n_queries:,} queries resolve: a non-significant result there is "
                   "not evidence of no effect.")
    else:
        out.append(f"Queries needed ({settings}):")
    header = ["difference", "queries needed"]
    if plan.n_queries is not None:
        header.append(f"power with {plan.n_queries:,} queries")
    rows = []
    for row in plan.rows:
        cells_ = [format_delta(row.delta), f"{row.queries_needed:,}"]
        if plan.n_queries is not None:
            cells_.append(DASH if row.power_at_n is None else format_percent(row.power_at_n))
        rows.append(cells_)
    out = [line for sentence in out for line in textwrap.wrap(sentence, width)]
    out += ["", *plain_table(header, rows, {0, 1, 2}), *_warnings(plan, width)]
    return "\n".join(out) + "\n"


def _warnings(plan: QueryPlan, width: int) -> list[str]:
    """The files the pilot was measured on (as ``ranklens compare`` lists them), then its
    warnings."""
    out = [] if plan.pilot is None or not plan.pilot.inputs else [
        "", *inputs_text(plan.pilot.inputs)]
    messages = () if plan.pilot is None else plan.pilot.warnings
    if not messages:
        return out
    out += ["", "Warnings:"]
    for message in messages:
        out.extend(textwrap.wrap(message, width, initial_indent="  - ",
                                 subsequent_indent="    "))
    return out
