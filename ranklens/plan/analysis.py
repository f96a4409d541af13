"""How many queries: the MDE of a query set and the queries needed for given differences.

``plan_queries`` answers "what difference can N queries resolve, and how many queries would a
difference of +0.01 need", from the spread of per-query differences: given directly, or
measured on pilot data (``pilot``: two runs already scored on the same queries). The formulas
are ``ranklens.stats.power``'s; this module only assembles one plan from them.

For the MDE page it also gives the curves (``mde_curve``: MDE against the number of queries;
``power_curve``: power against the true difference), the pilot measured from rankings
(``pilot_from_runs``) or from a column of differences (``pilot_from_differences``), and the
words the page shows (``METHOD_SUMMARY``, ``METHOD_NOTE``, ``NON_SIGNIFICANT_MEANING``).

It does not compare runs (``ranklens.stats.compare``) and says nothing about a difference that
was observed: a plan is made before, or beside, a comparison. It assumes the pilot's spread
carries over to the queries that will be labelled.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, cast

import numpy as np
import pandas as pd

from ranklens import codec, io
from ranklens._lazy import imported
from ranklens.compare.choices import common_columns as common_columns  # its old home
from ranklens.compare.report import InputRecord
from ranklens.data import MetricResult, Qrels, Run
from ranklens.formats import format_delta, literal
from ranklens.io import InputFile
from ranklens.io.shared_queries import RUN_AND_QRELS_FIX, TWO_RUNS_FIX, check_shared_queries
from ranklens.methods import methods_link
from ranklens.metrics import evaluate, parse_metric
from ranklens.metrics.checks import no_relevant_warning, tied_scores_warning
from ranklens.metrics.ordering import Order
from ranklens.stats import (
    minimum_detectable_effect,
    power,
    required_queries,
    standard_deviation,
)
from ranklens.stats import power as ranklens_power
from ranklens.stats.distributions import t_quantile
from ranklens.stats.errors import InsufficientSampleError
from ranklens.stats.pairing import MissingPolicy, pair_quietly
from ranklens.stats.power import auto_method, z_kept_from

if TYPE_CHECKING:
    from ranklens.compare.analysis import LoadedInputs

DEFAULT_DELTAS = (0.02, 0.01, 0.005)
NO_SPREAD_SD = 1e-12
"""A spread below this is float noise of identical differences: no spread at all."""


@dataclass(frozen=True)
class Pilot:
    """The spread of per-query differences B - A measured on pilot data.

    ``sd`` is the sample standard deviation (n - 1) of ``n_queries`` paired differences,
    ``mean_delta`` their mean (for orientation: a plan uses only the sd). ``source`` says what
    the differences were computed from; ``left_out`` counts queries measured on one side only;
    ``warnings`` say what in the inputs makes the spread say little (judgements without a
    relevant document, a run tied on most queries). ``inputs`` are the files it was measured
    on as a Compare report lists them: what each reader read and set aside, and why (empty
    for values handed over in memory).
    """

    metric: str
    n_queries: int
    sd: float
    mean_delta: float
    source: str = "paired per-query values"
    left_out: int = 0
    warnings: tuple[str, ...] = ()
    inputs: tuple[InputRecord, ...] = ()

    @property
    def no_spread(self) -> bool:
        """True when every query moved by the same amount: there is nothing to plan from."""
        return self.sd < NO_SPREAD_SD

    @property
    def note(self) -> str:
        """Where the sd comes from, in words."""
        text = (f"sd of {self.n_queries:,} paired differences of {self.metric} "
                f"({self.source})")
        if self.left_out:
            text += f"; {self.left_out:,} queries measured on one side only were left out"
        return text


@dataclass(frozen=True)
class PlanRow:
    """One difference: the queries it needs, and the power the planned query count has for it."""

    delta: float
    queries_needed: int
    power_at_n: float | None


@dataclass(frozen=True)
class QueryPlan:
    """MDE at ``n_queries`` (when given) and one row per difference of interest.

    ``method`` is the one the MDE was computed with ("z" or "t"; "auto" when the plan has no
    number of queries and each row chose by the rule); ``method_reason`` says in words why,
    when the rule chose it ("" when a method was asked for by name)."""

    sd: float
    n_queries: int | None
    mde: float | None
    alpha: float
    power: float
    method: str
    rows: tuple[PlanRow, ...]
    pilot: Pilot | None = None
    method_reason: str = ""

    # faces are writers' (a result imports no renderer): `imported` loads each on the call

    def to_frame(self) -> pd.DataFrame:
        """One row per target difference (``ranklens.plan.frame.plan_frame``)."""
        frame: pd.DataFrame = imported("ranklens.plan.frame:plan_frame")(self)
        return frame

    def to_latex(self, *, caption: str | None = None, label: str = "") -> str:
        """A booktabs table of the queries needed (``ranklens.plan.frame.plan_latex``)."""
        latex: str = imported("ranklens.plan.frame:plan_latex")(self, caption=caption,
                                                              label=label)
        return latex


def pilot(result_a: MetricResult, result_b: MetricResult, *, missing: str = "drop",
          source: str = "paired per-query values") -> Pilot:
    """Spread of the paired per-query differences of two scored runs (sd with ddof 1).

    Queries measured in one run only are handled as ``missing`` says (see ``paired_deltas``);
    fewer than two paired queries is a ``ValueError``.
    """
    # the notes are not shown: a small pilot is still a pilot, and the plan says n
    paired = pair_quietly(result_a, result_b, missing=missing)
    if not paired.queries.size:
        raise InsufficientSampleError(0, 2)
    deltas = paired.deltas
    left_out = paired.only_a.size + paired.only_b.size if missing == "drop" else 0
    return Pilot(result_a.metric, int(deltas.size), standard_deviation(deltas),
                 float(deltas.mean()), source, left_out)


def pilot_from_runs(run_a: Run, run_b: Run, qrels: Qrels, metric: str, *,
                    order: str = "score",
                    files: tuple[str, str, str] | None = None) -> Pilot:
    """Score two pilot rankings with ``metric`` on ``qrels`` and measure the spread of B - A.

    ``metric`` is any name ``ranklens.metrics.parse_metric`` accepts (``ValueError`` if not).
    Judged queries a run did not answer are left out, as trec_eval does without ``-c``.
    ``files`` (run A, run B, qrels) name the inputs in errors and warnings: runs that share
    no query with the judgements or with each other are a ``ValueError`` showing ids of each.
    """
    name_a, name_b, name_q = files or (run_a.name, run_b.name, qrels.name)
    judged = qrels.query_ids()
    for run, name in ((run_a, name_a), (run_b, name_b)):
        check_shared_queries((name, run.query_ids()), (name_q, judged), RUN_AND_QRELS_FIX)
    result_a = evaluate(run_a, qrels, [metric], order=order)[metric]
    result_b = evaluate(run_b, qrels, [metric], order=order)[metric]
    check_shared_queries((name_a, list(result_a.per_query)),
                         (name_b, list(result_b.per_query)), TWO_RUNS_FIX)
    found = [no_relevant_warning(qrels, name_q)]
    if order == "score":
        found += [tied_scores_warning(run_a, name_a), tied_scores_warning(run_b, name_b)]
    measured = pilot(result_a, result_b, source="pilot runs scored on the qrels")
    return dataclasses.replace(measured, warnings=tuple(m for m in found if m))


def pilot_from_files(run_a: InputFile, run_b: InputFile, qrels: InputFile | None, metric: str,
                     *, order: str = "score", missing: str = "drop",
                     source: str = "pilot runs scored on the qrels") -> Pilot:
    """Read two pilot rankings and their judgements (or, without ``qrels``, two per-query
    tables), then measure the spread of ``metric``.

    The files are read by Compare's input step (``ranklens.compare.inputs.load_inputs``): the
    same formats, messages, id-column choice and input warnings. A bad file is an
    ``io.InputError`` in words, an unknown metric a ``ValueError``. ``order`` "rank" orders
    documents by the runs' rank column.
    """
    from ranklens.compare.inputs import load_inputs

    return pilot_from_inputs(load_inputs(run_a, run_b, qrels=qrels), metric, order=order,
                             missing=missing, source=source)


def pilot_from_inputs(inputs: LoadedInputs, metric: str, *, order: str = "score",
                      missing: str = "drop", source: str = "paired per-query values") -> Pilot:
    """The spread of ``metric`` between the two runs of ``inputs`` (``load_inputs``): scored
    on their judgements, or read from per-query tables; checked for shared queries, with the
    inputs' own warnings (``LoadedInputs.input_warnings``)."""
    from ranklens.compare.settings import CompareSettings

    name = parse_metric(metric).name if inputs.qrels is not None else metric
    results_a, results_b, _ = inputs.results(
        # the choices are checked by CompareSettings
        CompareSettings(metrics=(name,), missing=cast(MissingPolicy, missing),
                        order=cast(Order, order)))
    inputs.check_shared_queries([results_a, results_b], missing)
    scored = next(iter(results_a))
    measured = pilot(results_a[scored], results_b[scored], missing=missing, source=source)
    return dataclasses.replace(measured, warnings=inputs.input_warnings(order=order),
                               inputs=inputs.records)


def per_query_columns(table: InputFile) -> dict[str, MetricResult]:
    """The metric columns of a per-query table (wide, long or ``trec_eval -q``), by name."""
    return dict(io.read_per_query(table.data, name=table.name).metrics)


def pilot_from_columns(column_a: MetricResult | None, column_b: MetricResult, *,
                       files: tuple[str, str] | None = None) -> Pilot:
    """Spread of B - A from two per-query columns; with ``column_a`` None, B holds B - A.

    ``files`` (the tables of A and B) name them when the columns share no query.
    """
    if column_a is None:
        return pilot_from_differences(column_b)
    name_a, name_b = files or ("column A", "column B")
    check_shared_queries((name_a, list(column_a.per_query)),
                         (name_b, list(column_b.per_query)), TWO_RUNS_FIX)
    return pilot(column_a, column_b, source="per-query tables")


def pilot_from_differences(differences: MetricResult) -> Pilot:
    """Spread of a per-query column that already holds the differences B - A."""
    values = differences.values
    return Pilot(differences.metric, int(values.size), standard_deviation(values),
                 float(values.mean()), "a column of per-query differences")


def plan_queries(
    sd: float,
    *,
    n_queries: int | None = None,
    deltas: Sequence[float] = DEFAULT_DELTAS,
    alpha: float = 0.05,
    target_power: float = 0.8,
    method: str = "auto",
    pilot: Pilot | None = None,
) -> QueryPlan:
    """The MDE of ``n_queries`` (if given) and, per difference, the queries it needs.

    ``sd`` is the standard deviation of per-query differences; ``method`` "z" is the methods
    page's normal approximation, "t" the paired t-test's noncentral t, "auto" (default) the
    rule of `ranklens.stats.power` (t below 78 queries at alpha .05 and power .8, where the z
    MDE's real power falls more than a point short): one MDE, the method it used in the
    plan's ``method`` and why in ``method_reason`` (`method_reason`). Each row's queries
    needed and power follow the same rule at their own number of queries.
    """
    used, reason = method, ""
    if method == "auto" and n_queries is not None:
        used = auto_method(n_queries, alpha=alpha, power=target_power)
        reason = method_reason(used, sd, n_queries, alpha=alpha, power=target_power)
    mde = None if n_queries is None else minimum_detectable_effect(
        sd, n_queries, alpha=alpha, power=target_power, method=used)
    rows = tuple(
        PlanRow(
            delta,
            required_queries(delta, sd, alpha=alpha, power=target_power, method=method),
            None if n_queries is None or n_queries < 2
            else power(delta, sd, n_queries, alpha=alpha, method=method),
        )
        for delta in deltas
    )
    return QueryPlan(sd, n_queries, mde, alpha, target_power, used, rows, pilot, reason)


def method_reason(method: str, sd: float, n_queries: int, *, alpha: float = 0.05,
                  power: float = 0.8) -> str:
    """Why the "auto" rule answers the MDE of ``n_queries`` with ``method`` ("z" or "t"), in
    one sentence for the page and the CLI: the threshold at these alpha and power
    (`ranklens.stats.power.z_kept_from`) and, for t, the real power the z MDE would have.
    It explains the choice; it does not check that ``method`` is the rule's."""
    start = z_kept_from(alpha=alpha, power=power)
    level = f"alpha {alpha:g} and {power:.0%} power"
    if method == "z":
        return (f"z-based (normal approximation): from {start:,} queries on, at {level}, "
                "its power is within one point of what the paired t-test achieves")
    real = ""
    if sd > 0.0:
        z_mde = minimum_detectable_effect(sd, n_queries, alpha=alpha, power=power, method="z")
        real = (f" (the normal approximation's MDE, {z_mde:.4g}, would have "
                f"{ranklens_power(z_mde, sd, n_queries, alpha=alpha, method='t'):.0%} real "
                "power)")
    return (f"t-based (paired t-test): below {start:,} queries, at {level}, the normal "
            f"approximation overstates power{real}")


codec.register(Pilot, codec.Form(omit_default=("inputs",)))  # older pilots' JSON as it was


# --- what the MDE page adds: words, curves --------------------------------------------------

Method = Literal["z", "t"]

NON_SIGNIFICANT_MEANING = (
    "A non-significant result on a small sample does not mean “there is no effect”: "
    "it means the effect is below the resolution of this sample."
)
"""The Methods page's words, shown wherever a number of queries is chosen."""

METHOD_SUMMARY = (
    "**auto** (default): one MDE, t where the reader could tell the two apart (below 78 "
    "queries at alpha 0.05 and 80% power), z from there on; the page says which and why. "
    f"**z**: the normal-approximation formula of the {methods_link('mde')}; it "
    "treats the spread as known. **t**: what a paired t-test achieves when the spread is "
    "estimated from the same queries; it asks for a slightly larger difference on small "
    "samples and agrees with z from a few hundred queries on."
)
METHOD_NOTE = (
    "**auto (default)** gives the t MDE where the z one's real power under the paired t-test "
    "falls more than one point short of the asked power (below 78 queries at alpha 0.05 and "
    "80% power: a z MDE at 10 queries has 70% real power), and the z MDE from there on. "
    "**z** is the normal approximation, MDE = (z₁₋α/₂ + z_power) · sd / √n "
    f"({methods_link('mde')}). It treats the spread as known, which is accurate from a few "
    "dozen queries on. "
    "**t** (noncentral t, as in Sakai's topic set size design) is what the paired t-test "
    "actually achieves when the spread is itself estimated from the same n queries: the "
    "critical value is Student's t with n − 1 degrees of freedom and the power comes from the "
    "noncentral t. On small samples it asks for a larger difference, or a few more queries "
    "(about 12% larger MDE at 10 queries, 1% at 100); from a few hundred queries the two agree "
    "to the third digit."
)
"""Why there are two methods and when they differ, for the page."""


def no_spread_sentence(sd: float, pilot: Pilot | None) -> str:
    """Why nothing can be planned from differences without spread (the Markdown dialect)."""
    if pilot is None:
        return (f"A spread of {sd:g} means every query moves by the same amount: there is "
                "nothing to plan. Type the sd of per-query differences B − A you expect.")
    if pilot.mean_delta == 0:
        moved = "both runs score the same on every query"
    else:
        moved = f"every query moved by the same {format_delta(pilot.mean_delta)}"
    return (f"The {pilot.n_queries:,} paired differences of {literal(pilot.metric)} have no "
            f"spread (sd 0: {moved}), so nothing can be planned from them: the MDE and the "
            "queries a difference needs come from how much the difference varies across "
            "queries. Measure the spread on two runs that differ, or type in one from an "
            "earlier comparison.")


def n_grid(n_queries: int, largest_needed: int = 0, points: int = 60) -> np.ndarray:
    """Query counts to draw the MDE curve at: log-spaced, always including ``n_queries``.

    Spans from 5 (fewer if ``n_queries`` is smaller, never below 2) to beyond both
    ``n_queries`` and ``largest_needed`` (the most queries a target difference needs), so the
    chosen point and every target's crossing are on the chart; capped at 100 000.
    """
    low = max(2, min(5, n_queries))
    high = min(100_000, max(4 * n_queries, int(1.5 * largest_needed), 50))
    grid = np.geomspace(low, high, points).round().astype(int)
    return np.unique(np.append(grid, n_queries))


def mde_curve(
    sd: float,
    n_values: Sequence[int] | np.ndarray,
    *,
    alpha: float = 0.05,
    target_power: float = 0.8,
    method: Method = "z",
) -> pd.DataFrame:
    """MDE at each query count: columns ``n_queries`` and ``mde``, decreasing in n.

    The z-based curve is the closed form of ``minimum_detectable_effect``. The t-based curve
    solves the same noncentral-t power equation as ``minimum_detectable_effect(method="t")``
    with a bracketed secant from a close approximation (about three power evaluations per
    point instead of bisection to 1e-12); the two agree to ~1e-9 relative. The t solution
    is cached per (n, alpha, power), so changing the spread redraws at once.
    """
    counts = np.asarray(n_values, dtype=int)
    if method == "t" and sd > 0:
        values = [_mde_t(sd, int(n), alpha, target_power) for n in counts]
    else:
        values = [minimum_detectable_effect(sd, int(n), alpha=alpha, power=target_power,
                                            method="z") for n in counts]
    return pd.DataFrame({"n_queries": counts, "mde": np.asarray(values, dtype=np.float64)})


def power_curve(
    sd: float,
    n_queries: int,
    *,
    alpha: float = 0.05,
    method: Method = "z",
    up_to: float | None = None,
    points: int = 81,
) -> pd.DataFrame:
    """Power of the two-sided test on ``n_queries`` against true differences 0 .. ``up_to``.

    Columns ``true_difference`` and ``power``; increasing, equal to alpha at 0 (a false
    alarm). ``up_to`` defaults to three times the z-based MDE at 80% power.
    """
    if up_to is None:
        up_to = 3.0 * minimum_detectable_effect(sd, n_queries, alpha=alpha, method="z") or 0.01
    differences = np.linspace(0.0, up_to, points)
    values = [power(float(d), sd, n_queries, alpha=alpha, method=method) for d in differences]
    return pd.DataFrame({"true_difference": differences,
                         "power": np.asarray(values, dtype=np.float64)})


def _mde_t(sd: float, n_queries: int, alpha: float, target: float) -> float:
    # power depends on delta only through delta * sqrt(n) / sd: solve once per n for sd = 1
    return sd * _mde_t_unit(n_queries, alpha, target)


@functools.lru_cache(maxsize=4096)
def _mde_t_unit(n_queries: int, alpha: float, target: float) -> float:
    """t-based MDE for sd = 1: smallest delta whose paired t-test power reaches ``target``.

    Secant steps from the close approximation (t(1 - alpha/2, n - 1) + t(power, n - 1)) /
    sqrt(n): power is smooth and rises with delta, so two or three steps reach 1e-9. Falls
    back to the library's bisection if the steps do not settle.
    """

    def gap(delta: float) -> float:
        return power(delta, 1.0, n_queries, alpha=alpha, method="t") - target

    df = n_queries - 1
    previous = (t_quantile(1.0 - alpha / 2.0, df) + t_quantile(target, df)) / math.sqrt(n_queries)
    current = previous * 1.001
    f_previous, f_current = gap(previous), gap(current)
    for _ in range(20):
        if f_current == f_previous:
            break
        step = f_current * (current - previous) / (f_current - f_previous)
        previous, f_previous = current, f_current
        current -= step
        if abs(step) <= 1e-9 * abs(current):
            return float(current)
        f_current = gap(current)
    return minimum_detectable_effect(1.0, n_queries, alpha=alpha, power=target, method="t")
