"""An MDE plan as a table: ``QueryPlan.to_frame()`` and ``QueryPlan.to_latex()``.

Answers "the plan for my notes or paper": one row per difference of interest with the queries
it needs at the plan's alpha and power, and the power the planned number of queries has for it,
beside the plan's spread, MDE and method. Numbers as the plan holds them in the frame, written
by ``ranklens.formats`` in the LaTeX table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ranklens.document.latex import booktabs, math_text
from ranklens.formats import format_delta, format_percent, format_value

if TYPE_CHECKING:
    import pandas as pd

    from ranklens.plan.analysis import QueryPlan


def plan_frame(plan: QueryPlan) -> pd.DataFrame:
    """One row per target difference: ``delta``, ``queries_needed``, ``power_at_n`` (None
    without a planned number of queries), then the plan's ``sd``, ``n_queries``, ``mde``,
    ``alpha``, ``power`` and ``method`` on every row."""
    import pandas as pd

    return pd.DataFrame([
        {"delta": row.delta, "queries_needed": row.queries_needed, "power_at_n": row.power_at_n,
         "sd": plan.sd, "n_queries": plan.n_queries, "mde": plan.mde, "alpha": plan.alpha,
         "power": plan.power, "method": plan.method}
        for row in plan.rows],
        columns=["delta", "queries_needed", "power_at_n", "sd", "n_queries", "mde", "alpha",
                 "power", "method"])


def plan_latex(plan: QueryPlan, *, caption: str | None = None, label: str = "") -> str:
    """The plan as a booktabs table: difference, queries needed, power at the planned n."""
    planned = plan.n_queries is not None
    header = [r"Difference $\delta$", "Queries needed",
              *([f"Power with {plan.n_queries:,} queries".replace(",", "{,}")] if planned
                else [])]
    rows = [[math_text(format_delta(row.delta)), f"{row.queries_needed:,}".replace(",", "{,}"),
             *([] if not planned else ["" if row.power_at_n is None else
                                       format_percent(row.power_at_n).replace("%", r"\%")])]
            for row in plan.rows]
    mde = "" if plan.mde is None else (
        f" The MDE with {plan.n_queries:,} queries is {math_text(format_value(plan.mde))}."
        .replace(",", "{,}"))
    power = format_percent(plan.power).replace("%", r"\%")
    text = caption if caption is not None else (
        f"Queries needed to detect each difference ({plan.method} test, "
        f"$\\alpha = {plan.alpha:g}$, power {power}, spread of the per-query differences "
        f"{math_text(format_value(plan.sd))}).{mde}")
    return booktabs(header, rows, align="r" * len(header), caption=text, label=label)
