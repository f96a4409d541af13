"""Proxy judgements checked on a gold sample: PPI++ beside the estimates it improves on.

``analyse_ppi`` answers "my labels are cheap (an LLM, one assessor); what does a small gold
sample say about B - A?" with four estimates of the same difference side by side:

- PPI++ (the proxy weight estimated from the data, ``ranklens.stats.ppi_compare``),
- classic PPI (weight 1), gold only (weight 0),
- the proxy without correction (a paired t-test on the proxy differences of all queries),
  whose gap to PPI++ is the proxy's bias on this difference.

Beside them: the proxy's measured bias on the gold queries (``ProxyBias``) and a gold-budget
planner (``VarianceModel.width``, ``budget_curve``): the expected interval width for other
numbers of gold queries, from the spreads and the gold-proxy covariance observed so far.

It scores the runs and calls the statistics; it draws and prints nothing. Every number here
assumes the gold queries are a random sample of all queries (``RANDOM_SAMPLE_ASSUMPTION``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ranklens import codec, io
from ranklens._lazy import imported
from ranklens.compare.assemble import input_record
from ranklens.compare.report import InputRecord
from ranklens.data import MetricResult, Qrels, Run
from ranklens.io import InputFile
from ranklens.io.shared_queries import RUN_AND_QRELS_FIX, check_shared_queries, example_ids
from ranklens.metrics import parse_metric
from ranklens.metrics.checks import no_relevant_warning
from ranklens.ppi.judge import JudgeCheck, judge_check
from ranklens.stats import (
    MIN_GOLD,
    PPIComparison,
    paired_t_test,
)
from ranklens.stats.distributions import t_quantile
from ranklens.stats.errors import InsufficientSampleError
from ranklens.stats.pairing import pair_quietly
from ranklens.stats.ppi import gold_and_proxy, ppi_compare_with_notes
from ranklens.stats.results import TInterval

if TYPE_CHECKING:
    from ranklens.ppi.labelling import LabelPlan

RANDOM_SAMPLE_ASSUMPTION = (
    "The correction is unbiased only if the gold queries are a random sample of all queries. "
    "If they were chosen — hard queries, disputed ones, one segment — the corrected "
    "difference is biased, and no comparison of the two labelings can detect it."
)
"""Stated where the user picks the gold sample, and in every analysis's warnings."""


@dataclass(frozen=True)
class ProxyBias(TInterval):
    """How far the proxy's difference B - A is from gold's, measured on the gold queries.

    ``bias`` = mean proxy delta - mean gold delta over the ``n_gold`` queries that have both;
    ``low``/``high`` is its paired t-interval and ``p_value`` tests "no bias". Positive means
    the proxy overstates B's advantage. It is the bias of this difference, not of the labels.
    """

    bias: float
    low: float
    high: float
    p_value: float
    alpha: float
    n_gold: int


@dataclass(frozen=True)
class VarianceModel:
    """What the PPI++ interval width would be with another number of gold queries.

    The methods page's variance with lambda*, from the spreads observed so far:
    ``var_gold`` (gold deltas on the gold queries), ``var_proxy`` (all proxy deltas, the
    lambda* denominator ``ppi_compare`` uses) and ``correlation`` (gold and proxy deltas on
    the gold queries), c = correlation * sd_gold * sd_proxy:

        Var(n, N) = lam^2 var_p / N + (var_g - 2 lam c + lam^2 var_p) / n,
        lam = clip(c / ((1 + n / N) var_p), 0, 1).

    The library estimates the proxy spread separately on gold and proxy-only queries, so the
    formula at the current sizes differs from the realised interval by sampling noise in
    those spreads; ``width`` keeps the formula's shape and pins its level to the realised
    width (``realised_width`` at ``n_gold``, ``n_proxy_only``), never above gold only. Gold
    only (lam = 0) needs no pinning: it is var_g / n in both. Not a promise: it assumes the
    spreads seen on ``n_gold`` queries hold for the larger sample.
    """

    var_gold: float
    var_proxy: float
    correlation: float
    n_gold: int
    n_proxy_only: int
    alpha: float
    realised_width: float

    @property
    def covariance(self) -> float:
        return self.correlation * math.sqrt(self.var_gold * self.var_proxy)

    def weight(self, n_gold: int, n_proxy_only: int) -> float:
        """lambda* = c / ((1 + n/N) var_p), clipped to [0, 1] as ``ppi_compare`` does."""
        if n_proxy_only < 2 or self.var_proxy <= 0:
            return 0.0
        raw = self.covariance / ((1.0 + n_gold / n_proxy_only) * self.var_proxy)
        return min(1.0, max(0.0, raw))

    def variance(self, n_gold: int, n_proxy_only: int, lam: float | None = None) -> float:
        """The methods page's Var of the estimate (unpinned) for lambda* or a given ``lam``."""
        weight = self.weight(n_gold, n_proxy_only) if lam is None else lam
        if n_proxy_only < 2:
            weight = 0.0
        rectifier = (self.var_gold - 2.0 * weight * self.covariance
                     + weight * weight * self.var_proxy)
        variance = rectifier / n_gold
        if n_proxy_only >= 2:
            variance += weight * weight * self.var_proxy / n_proxy_only
        return max(0.0, variance)

    def width(self, n_gold: int, n_proxy_only: int, lam: float | None = None) -> float:
        """Expected width of the 1 - alpha interval: PPI++ (pinned) or a fixed ``lam``.

        With the quantile ``ppi_compare`` uses: Student's t with n - 1 degrees of freedom for
        a fixed ``lam``, n - 2 for PPI++ (its weight is fitted on the gold queries). The PPI++
        width is never predicted above gold only on as many gold queries: PPI++ can always
        fall back to lambda = 0 (a pin above 1 would otherwise cross that line as the
        proxy-only part shrinks).
        """
        raw = 2.0 * self._quantile(n_gold, lam) * math.sqrt(
            self.variance(n_gold, n_proxy_only, lam))
        if lam is not None:
            return raw
        return min(raw * self._pin(), self.width(n_gold, n_proxy_only, lam=0.0))

    def _quantile(self, n_gold: int, lam: float | None) -> float:
        df = n_gold - (2 if lam is None else 1)
        return t_quantile(1.0 - self.alpha / 2.0, max(df, 1))

    def _pin(self) -> float:
        here = 2.0 * self._quantile(self.n_gold, None) * math.sqrt(
            self.variance(self.n_gold, self.n_proxy_only))
        return self.realised_width / here if here > 0 else 1.0


@dataclass(frozen=True)
class Estimate:
    """One estimate of B - A: ``key`` (ppi++, ppi, gold, proxy), a label and the numbers."""

    key: str
    label: str
    result: PPIComparison


@dataclass(frozen=True)
class PPIAnalysis:
    """The four estimates of one metric, PPI++ first, and the warnings in words. ``inputs``
    are the files read (`analyse_ppi`) as a Compare report lists them: what each reader read
    and set aside, and why (empty for values handed over in memory, `compare_ppi`)."""

    metric: str
    run_names: tuple[str, str]
    estimates: tuple[Estimate, ...]
    warnings: tuple[str, ...] = ()
    bias: ProxyBias | None = None
    model: VarianceModel | None = None
    # the judge checked on the gold queries (ranklens.ppi.judge); None in older payloads
    judge: JudgeCheck | None = None
    inputs: tuple[InputRecord, ...] = ()

    # faces are writers' (a result imports no renderer): `imported` loads each on the call

    def to_frame(self) -> pd.DataFrame:
        """One row per estimate, PPI++ first (``ranklens.ppi.frame.ppi_frame``)."""
        frame: pd.DataFrame = imported("ranklens.ppi.frame:ppi_frame")(self)
        return frame

    def to_latex(self, *, caption: str | None = None, label: str = "") -> str:
        """A booktabs table of the four estimates (``ranklens.ppi.frame.ppi_latex``)."""
        latex: str = imported("ranklens.ppi.frame:ppi_latex")(self, caption=caption, label=label)
        return latex

    def estimate(self, key: str) -> Estimate:
        for item in self.estimates:
            if item.key == key:
                return item
        raise KeyError(f"no estimate {key!r}")


def proxy_only(proxy_a: MetricResult, proxy_b: MetricResult, *, alpha: float) -> PPIComparison:
    """The proxy difference taken at face value: paired t-test over every query it measures."""
    paired = pair_quietly(proxy_a, proxy_b, min_queries=2)  # its notes: compare_ppi's own
    if not paired.queries.size:
        raise InsufficientSampleError(0, 2)
    test = paired_t_test(paired.deltas, alpha=alpha)
    n = int(paired.queries.size)
    mean_a = sum(paired.a.tolist()) / n  # summed in query order, as before
    return PPIComparison(proxy_a.metric, mean_a, mean_a + test.delta, test.delta, test.low,
                         test.high, alpha, test.p_value, lam=1.0, n_proxy=n,
                         n_gold=0, df=float(test.df), method="finite-sample")


def compare_ppi(
    proxy_a: MetricResult, proxy_b: MetricResult, gold_a: MetricResult, gold_b: MetricResult,
    *, run_names: tuple[str, str] = ("A", "B"), alpha: float = 0.05,
) -> PPIAnalysis:
    """The four estimates of B - A from per-query values under proxy and gold judgements."""
    messages: list[str] = []

    def corrected(lam: float | None) -> PPIComparison:
        result, notes = ppi_compare_with_notes(proxy_a, proxy_b, gold_a, gold_b, lam, alpha,
                                               True, "finite-sample")
        messages.extend(note.text for note in notes)
        return result

    estimates = (
        Estimate("ppi++", "PPI++ (weight from the data)", corrected(None)),
        Estimate("ppi", "classic PPI (weight 1)", corrected(1.0)),
        Estimate("gold", "gold only (weight 0)", corrected(0.0)),
        Estimate("proxy", "proxy, uncorrected", proxy_only(proxy_a, proxy_b, alpha=alpha)),
    )
    messages.append(RANDOM_SAMPLE_ASSUMPTION)
    return PPIAnalysis(proxy_a.metric, run_names, estimates, tuple(dict.fromkeys(messages)),
                       bias=proxy_bias(proxy_a, proxy_b, gold_a, gold_b, alpha=alpha),
                       model=variance_model(proxy_a, proxy_b, gold_a, gold_b, alpha=alpha))


def _gold_and_proxy(
    proxy_a: MetricResult, proxy_b: MetricResult, gold_a: MetricResult, gold_b: MetricResult
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gold deltas and proxy deltas on the gold queries, and proxy deltas elsewhere.

    The same query sets ``ppi_compare`` uses: queries measured in both runs on each side.
    """
    split = gold_and_proxy(proxy_a, proxy_b, gold_a, gold_b)
    split.check_proxy_covers_gold()  # the same words as ppi_compare
    return split.gold, split.proxy_gold, split.proxy_only


def proxy_bias(
    proxy_a: MetricResult, proxy_b: MetricResult, gold_a: MetricResult, gold_b: MetricResult,
    *, alpha: float = 0.05,
) -> ProxyBias:
    """The proxy's bias on B - A, measured where both judgements exist (the gold queries)."""
    gold, proxy_gold, _ = _gold_and_proxy(proxy_a, proxy_b, gold_a, gold_b)
    test = paired_t_test(proxy_gold - gold, alpha=alpha)
    return ProxyBias(test.delta, test.low, test.high, test.p_value, alpha, int(gold.size))


def variance_model(
    proxy_a: MetricResult, proxy_b: MetricResult, gold_a: MetricResult, gold_b: MetricResult,
    *, alpha: float = 0.05,
) -> VarianceModel:
    """The spreads and correlation behind the PPI++ interval, for the gold-budget planner."""
    gold, proxy_gold, proxy_only = _gold_and_proxy(proxy_a, proxy_b, gold_a, gold_b)
    if gold.size < 2:
        raise ValueError(f"{gold.size} gold queries: at least 2 are needed to plan a budget")
    # its notes (the small-sample one) are compare_ppi's to report
    realised, _ = ppi_compare_with_notes(proxy_a, proxy_b, gold_a, gold_b, None, alpha, True,
                                         "finite-sample")
    spread = math.sqrt(float(gold.var(ddof=1)) * float(proxy_gold.var(ddof=1)))
    covariance = float(np.cov(gold, proxy_gold, ddof=1)[0, 1])
    return VarianceModel(
        var_gold=float(gold.var(ddof=1)),
        var_proxy=float(np.concatenate((proxy_gold, proxy_only)).var(ddof=1)),
        correlation=covariance / spread if spread > 0 else 0.0,
        n_gold=int(gold.size),
        n_proxy_only=int(proxy_only.size),
        alpha=alpha,
        realised_width=realised.ci_high - realised.ci_low,
    )


def budget_curve(
    model: VarianceModel, n_values: Sequence[int] | np.ndarray | None = None,
    *, total_queries: int | None = None,
) -> pd.DataFrame:
    """Expected interval width against the number of gold queries, out of a fixed pool.

    The pool is ``total_queries`` (default: the queries measured now, gold + proxy-only);
    labelling n of them leaves N = pool - n proxy-only. Columns: ``n_gold``, ``ppi`` (PPI++
    width with lambda* re-estimated for each n) and ``gold_only`` (lambda = 0). Both
    decrease in n; at the current n the PPI++ width is the realised one. A prediction: it
    assumes the spreads and covariance seen so far hold for the larger sample.
    """
    pool = total_queries or model.n_gold + model.n_proxy_only
    if n_values is None:
        n_values = budget_grid(model.n_gold, pool)
    counts = np.asarray(n_values, dtype=int)
    return pd.DataFrame({
        "n_gold": counts,
        "ppi": [model.width(int(n), pool - int(n)) for n in counts],
        "gold_only": [model.width(int(n), pool - int(n), lam=0.0) for n in counts],
    })


def with_plan(curve: pd.DataFrame, plan: LabelPlan) -> pd.DataFrame:
    """``curve`` (`budget_curve`) with a column ``plan``: the expected PPI++ width if the
    n_gold queries were drawn by the labelling ``plan``'s rule instead of uniformly, i.e. the
    PPI++ width times the ratio of the plan's expected width to a uniform sample's of as
    many queries (`LabelPlan.widths_at`: under the plan's model of the proxy's error). NaN
    where the ratio is not a number or is 0 (every query that can move is labelled: no
    width left to draw on a log scale)."""
    widths = plan.widths_at(curve["n_gold"])
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = widths["plan"].to_numpy() / widths["uniform"].to_numpy()
    ratio = np.where(np.isfinite(ratio) & (ratio > 0), ratio, np.nan)
    return curve.assign(plan=curve["ppi"].to_numpy() * ratio)


def budget_grid(n_gold: int, pool: int, points: int = 60) -> np.ndarray:
    """Gold sample sizes to plan over: from 5 (or MIN_GOLD / 3) up to the whole pool."""
    low = max(2, min(n_gold, 5, MIN_GOLD // 3))
    high = max(pool, low)
    grid = np.geomspace(low, high, points).round().astype(int)
    return np.unique(np.append(grid, n_gold))


def analyse_ppi(
    run_a: InputFile, run_b: InputFile, proxy_qrels: InputFile, gold_qrels: InputFile,
    metric: str, *, alpha: float = 0.05, run_names: tuple[str, str] | None = None,
    order: str = "score", segments: InputFile | None = None, segment_column: str | None = None,
) -> PPIAnalysis:
    """Read both runs and both judgement sets, score ``metric`` four ways, compare (PPI++).

    Every problem with a file is an ``io.InputError``; an unknown metric a ``ValueError``;
    judgements that share no query with the runs (or gold queries without proxy judgements)
    a ``ValueError`` naming the files with example ids. ``order`` "rank" orders documents by
    the runs' rank column. The analysis's warnings say which judgements mark no document
    relevant and which run is tied on most queries. The judge check (``analysis.judge``,
    `ranklens.ppi.judge`) is made on the same judgements, per segment of ``segment_column`` of
    the ``segments`` map (its first segment column by default) when one is given.
    """
    from ranklens.compare.inputs import load_inputs
    from ranklens.compare.scoring import score

    name = parse_metric(metric).name
    # Compare's input step: the runs read (id columns chosen) against the proxy judgements,
    # which cover every query the way Compare's judgements do
    inputs = load_inputs(run_a, run_b, qrels=proxy_qrels)
    gold, gold_read = io.read_qrels(gold_qrels.data, name=gold_qrels.name)
    records = [*(dataclasses.replace(r, role=proxy_qrels.role) if r.role == "qrels" else r
                 for r in inputs.records), input_record(gold_qrels, gold_read)]
    runs = tuple(run for run in inputs.runs if run is not None)
    proxy = inputs.qrels
    assert proxy is not None and len(runs) == 2
    check_judged_queries((run_a.name, runs[0]), (run_b.name, runs[1]),
                         (proxy_qrels.name, proxy), (gold_qrels.name, gold))
    scored = [score(run, qrels, [name], "drop", order, "linear", 1, "nonrelevant").results[name]
              for qrels in (proxy, gold) for run in runs]
    names = run_names or inputs.default_run_names
    analysis = compare_ppi(*scored, run_names=(names[0], names[1]), alpha=alpha)
    segment_map = None
    if segments is not None:
        read = io.read_segments(segments.data, name=segments.name, column=segment_column)
        segment_map, segment_column = read.segments.mapping, read.segments.column
        records.append(input_record(segments, read.summary))
    judge = judge_check(proxy, gold, (scored[0], scored[1], scored[2], scored[3]),
                        segments=segment_map, segment_column=segment_column, alpha=alpha)
    found = [*inputs.input_warnings(order=order, run_names=names),
             no_relevant_warning(gold, gold_qrels.name)]
    extra = tuple(message for message in found if message)
    return dataclasses.replace(analysis, warnings=(*extra, *analysis.warnings), judge=judge,
                               inputs=tuple(records))


def check_judged_queries(run_a: tuple[str, Run], run_b: tuple[str, Run],
                         proxy: tuple[str, Qrels], gold: tuple[str, Qrels]) -> None:
    """Refuse, naming the files with example ids, inputs that cannot be paired: a run and the
    proxy judgements without a common query, gold judgements on no query of the runs, or gold
    queries that have no proxy judgements."""
    (proxy_name, proxy_qrels), (gold_name, gold_qrels) = proxy, gold
    proxy_ids = proxy_qrels.query_ids()
    run_ids = {}
    for name, run in (run_a, run_b):
        run_ids[name] = run.query_ids()
        check_shared_queries((name, run_ids[name]), (proxy_name, proxy_ids), RUN_AND_QRELS_FIX)
    gold_ids = gold_qrels.query_ids()
    both = sorted(set(run_ids[run_a[0]]) & set(run_ids[run_b[0]]))
    check_shared_queries((gold_name, gold_ids), (f"{run_a[0]} and {run_b[0]}", both),
                         "The gold judgements must use the runs' query ids: the same "
                         "spelling, case and prefix; the correction needs gold labels on "
                         "queries both runs answer.")
    unjudged = sorted(set(gold_ids) - set(proxy_ids))
    if unjudged:
        raise ValueError(
            f"{len(unjudged):,} queries of {gold_name} have no judgements in {proxy_name}, "
            f"e.g. {example_ids(unjudged)}: each gold query needs proxy judgements too, "
            "because the correction compares the two labelings on the same queries.")



def segment_columns(segments: InputFile) -> tuple[str, ...]:
    """The segment columns of a segment map (for the page's choice), in file order; an
    ``io.InputError`` for a file that is no segment map."""
    return io.read_segments(segments.data, name=segments.name).segments.columns


codec.register(PPIAnalysis, codec.Form(omit_default=("inputs",)))  # older analyses' JSON as it was
