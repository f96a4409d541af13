"""The labelling plan's curve beside the gold-budget planner's (issue 47): the plan's expected
widths at other budgets (`LabelPlan.widths_at`) and the PPI++ curve scaled by the plan's gain
at each budget (`ranklens.ppi.analysis.with_plan`)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ranklens.ppi.analysis import VarianceModel, budget_curve, with_plan
from ranklens.ppi.charts import PLAN_CURVE, budget_chart
from ranklens.ppi.labelling import plan_labels
from ranklens.stats.active_ppi import inclusion_probabilities
from ranklens.stats.distributions import t_quantile
from tests.ppi.test_ppi_rounds import world  # noqa: F401  (the fixture)


def _width(u, pi):
    live = u > 0
    return 2 * t_quantile(0.975, 1e6) * math.sqrt(
        np.sum((1 - pi[live]) / pi[live] * u[live] ** 2)) / len(u)


def test_the_plans_widths_at_other_budgets_follow_their_definition(world):  # noqa: F811
    run_a, run_b, proxy, _truth = world
    plan = plan_labels(run_a, run_b, proxy, budget_queries=8, seed=1)
    u = plan.queries["uncertainty"].to_numpy()
    assert int((u > 0).sum()) == 30  # B swaps the top 4 of every other query
    widths = plan.widths_at([8, 4, 15, 30])
    assert widths["plan"].iloc[0] == pytest.approx(plan.width_plan, rel=1e-12)
    assert widths["uniform"].iloc[0] == pytest.approx(plan.width_uniform, rel=1e-12)
    for budget, row in zip([8, 4, 15, 30], widths.itertuples(), strict=True):
        assert row.plan == pytest.approx(_width(u, inclusion_probabilities(u, budget)))
        assert row.uniform == pytest.approx(_width(u, np.full(60, budget / 60)))
    assert widths["plan"].iloc[3] == 0.0 < widths["uniform"].iloc[3]  # all 30 that move
    assert (widths["plan"] < widths["uniform"]).iloc[:3].all()


def test_the_budget_curve_beside_it_is_ppi_times_the_plans_gain(world):  # noqa: F811
    run_a, run_b, proxy, _truth = world
    plan = plan_labels(run_a, run_b, proxy, budget_queries=6, seed=0)
    model = VarianceModel(var_gold=0.01, var_proxy=0.012, correlation=0.8, n_gold=10,
                          n_proxy_only=50, alpha=0.05, realised_width=0.05)
    curve = with_plan(budget_curve(model), plan)
    widths = plan.widths_at(curve["n_gold"])
    below = curve["n_gold"] < 30
    assert below.sum() > 10 and curve.loc[below, "plan"].notna().all()
    expected = curve["ppi"] * widths["plan"] / widths["uniform"]
    assert np.allclose(curve.loc[below, "plan"], expected[below], rtol=1e-12)
    assert (curve.loc[below, "plan"] < curve.loc[below, "ppi"]).all()
    assert curve.loc[~below, "plan"].isna().all()  # every query that can move is labelled
    chart = budget_chart(curve, 10, 0.05).to_dict()
    names = {row["estimate"] for name, rows in chart["datasets"].items() for row in rows
             if "estimate" in row}
    assert names == {"PPI++ (gold + proxy)", "gold only", PLAN_CURVE}
