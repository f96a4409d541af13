"""How many queries: the MDE of a query set and the queries needed for given differences.

``plan_queries`` answers "what difference can N queries resolve, and how many queries would a
difference of +0.01 need", from the spread of per-query differences: given directly, or
measured on pilot data (``pilot``: two runs already scored on the same queries). The formulas
are ``ranklens.stats.power``'s; this module only assembles one plan from them.

It does not compare runs (``ranklens.stats.compare``) and says nothing about a difference that
was observed: a plan is made before, or beside, a comparison.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from ranklens.metric_result import MetricResult
from ranklens.stats import (
    minimum_detectable_effect,
    paired_deltas,
    power,
    required_queries,
    standard_deviation,
)

DEFAULT_DELTAS = (0.02, 0.01, 0.005)


@dataclass(frozen=True)
class Pilot:
    """The spread of per-query differences B - A measured on pilot data."""

    metric: str
    n_queries: int
    sd: float
    mean_delta: float


@dataclass(frozen=True)
class PlanRow:
    """One difference: the queries it needs, and the power the planned query count has for it."""

    delta: float
    queries_needed: int
    power_at_n: float | None


@dataclass(frozen=True)
class QueryPlan:
    """MDE at ``n_queries`` (when given) and one row per difference of interest."""

    sd: float
    n_queries: int | None
    mde: float | None
    alpha: float
    power: float
    method: str
    rows: tuple[PlanRow, ...]
    pilot: Pilot | None = None


def pilot(result_a: MetricResult, result_b: MetricResult, *, missing: str = "drop") -> Pilot:
    """Spread of the paired per-query differences of two scored runs (sd with ddof 1).

    Queries measured in one run only are handled as ``missing`` says (see ``paired_deltas``);
    fewer than two paired queries is a ``ValueError``.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a small pilot is still a pilot; the plan says n
        _, deltas = paired_deltas(result_a.per_query, result_b.per_query, missing=missing)
    return Pilot(result_a.metric, int(deltas.size), standard_deviation(deltas),
                 float(deltas.mean()))


def plan_queries(
    sd: float,
    *,
    n_queries: int | None = None,
    deltas: Sequence[float] = DEFAULT_DELTAS,
    alpha: float = 0.05,
    target_power: float = 0.8,
    method: str = "z",
    pilot: Pilot | None = None,
) -> QueryPlan:
    """The MDE of ``n_queries`` (if given) and, per difference, the queries it needs.

    ``sd`` is the standard deviation of per-query differences; ``method`` "z" is the methods
    page's normal approximation, "t" the paired t-test's noncentral t.
    """
    mde = None if n_queries is None else minimum_detectable_effect(
        sd, n_queries, alpha=alpha, power=target_power, method=method)
    rows = tuple(
        PlanRow(
            delta,
            required_queries(delta, sd, alpha=alpha, power=target_power, method=method),
            None if n_queries is None or n_queries < 2
            else power(delta, sd, n_queries, alpha=alpha, method=method),
        )
        for delta in deltas
    )
    return QueryPlan(sd, n_queries, mde, alpha, target_power, method, rows, pilot)
