"""The MDE plan as text a person reads: what ``ranklens mde`` prints.

It formats a ``QueryPlan``; it computes nothing (that is ``ranklens.plan.analysis``).
"""

from __future__ import annotations

import textwrap

from ranklens.formats import DASH, format_delta, plain_table
from ranklens.plan.analysis import QueryPlan


def render_plan(plan: QueryPlan, width: int = 100) -> str:
    """What ``ranklens mde`` prints: the spread used, the MDE, and the queries per difference."""
    approximation = "normal approximation" if plan.method == "z" else "paired t-test"
    settings = (f"alpha {plan.alpha:g}, power {plan.power:.0%}, two-sided, {approximation}")
    out = []
    if plan.pilot is not None:
        p = plan.pilot
        out.append(f"Pilot: {p.metric} on {p.n_queries:,} paired queries; mean difference "
                   f"{format_delta(p.mean_delta)}, sd of per-query differences {p.sd:.4f}.")
    else:
        out.append(f"sd of per-query differences: {plan.sd:g}.")
    if plan.mde is not None and plan.n_queries is not None:
        out.append(f"Minimum detectable effect with {plan.n_queries:,} queries: "
                   f"{plan.mde:.4f} ({settings}).")
        out.append(f"A true difference below {plan.mde:.4f} is under what {plan.n_queries:,} "
                   "queries resolve: a non-significant result there is not evidence of no "
                   "effect.")
    else:
        out.append(f"Queries needed ({settings}):")
    header = ["difference", "queries needed"]
    if plan.n_queries is not None:
        header.append(f"power with {plan.n_queries:,} queries")
    rows = []
    for row in plan.rows:
        cells_ = [format_delta(row.delta), str(row.queries_needed)]
        if plan.n_queries is not None:
            cells_.append(DASH if row.power_at_n is None else f"{row.power_at_n:.1%}")
        rows.append(cells_)
    out = [line for sentence in out for line in textwrap.wrap(sentence, width)]
    out += ["", *plain_table(header, rows, {0, 1, 2})]
    return "\n".join(out) + "\n"
