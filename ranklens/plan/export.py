"""The MDE plan's HTML export as it first reads: what ``ranklens mde --format html`` writes
and the page offers.

`curves` answers "the two charts' points of this plan" (the MDE against the number of queries,
the power against the true difference at the plan's n), as the page draws them; `mde_export`
puts a plan, its pilot, settings and files and those curves together for
``ranklens.plan.html.render``. Nothing here draws or reads a file.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ranklens.io import InputFile
from ranklens.plan import views as plan_views
from ranklens.plan.analysis import (
    NO_SPREAD_SD,
    Method,
    Pilot,
    QueryPlan,
    mde_curve,
    n_grid,
    power_curve,
)
from ranklens.plan.payload import MdeExport
from ranklens.plan.settings import PlanSettings


def curves(plan: QueryPlan) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The MDE curve over the number of queries (up to the most any row needs) and the power
    curve at ``plan.n_queries`` (up to well past the MDE and the largest target), with the
    page's numbers of points (fewer for the t-method, whose quantiles cost more)."""
    assert plan.mde is not None and plan.n_queries is not None
    method: Method = "t" if plan.method == "t" else "z"
    largest = max(row.queries_needed for row in plan.rows)
    up_to = max(2.5 * plan.mde, 1.2 * max(row.delta for row in plan.rows))
    grid = n_grid(plan.n_queries, largest, points=60 if method == "z" else 36)
    return (mde_curve(plan.sd, grid, alpha=plan.alpha, target_power=plan.power, method=method),
            power_curve(plan.sd, plan.n_queries, alpha=plan.alpha, method=method, up_to=up_to,
                        points=81 if method == "z" else 41))


def mde_export(plan: QueryPlan, target: float, pilot: Pilot | None, settings: PlanSettings,
               files: Sequence[InputFile]) -> MdeExport:
    """The export of ``plan`` read at ``target`` (one of its rows' differences): with its
    curves, or none when the differences have no spread (nothing is planned then)."""
    export = MdeExport(plan, target, plan_views.other_method_mde(plan), pilot, settings,
                       tuple(files))
    if plan.sd < NO_SPREAD_SD:
        return export
    mde, power = curves(plan)
    return MdeExport(plan, target, export.other_mde, pilot, settings, tuple(files), mde, power)
