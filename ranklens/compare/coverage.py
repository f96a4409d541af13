"""Judgement coverage of a comparison, and the guardrail on its verdict.

Judgements are usually pooled from older systems. A new run that retrieves documents nobody
judged is scored as if they were all non-relevant (trec_eval's rule, and ranklens' default), and
looks worse than it is. This module answers, for every metric of a comparison:

- **how much of each run's top k is judged**: ``Judged@k`` (1 - trec_eval's ``unj_k``: the
  share of the top k positions whose relevance is known; a negative grade is unjudged) at the
  metric's cutoff, overall and per segment (`coverage_depth` says which k for metrics without
  one);
- **could the coverage gap change the verdict?** The guardrail imputes the less-judged run's
  *extra* unjudged documents as relevant at the rate of its judged ones: its mean is scaled
  by the ratio of the two runs' coverage (judged share of the documents retrieved in the top
  k, ``coverage``), which is exact in expectation for P@k and close for other top-heavy
  metrics. The shift of B - A moves the bootstrap interval by the same amount; when the
  shifted interval reads differently (above 0, below 0, or around 0) the verdict could
  change, and the faces show a banner before the result (`MetricCoverage.alert`).

The rule, and the evidence for it (``bench/sim_unjudged.py``; a smaller grid runs in
``tests/test_coverage_simulation.py``). 200 queries; A's documents judged (94% of them), B
ranks a share of new documents nobody judged, relevant at the rate of its judged ones
(measured: 0.64-0.74 for both); 20 fixed-seed replicates per cell; a verdict is B better / B
worse / no difference at p <= 0.05, compared with the verdict under complete judgements:

1. There is no one coverage gap at which verdicts flip: it depends on the effect and its
   interval. On nDCG@10 (about 0.45), a null comparison was reported as "B worse" in 25% of
   replicates at a 1.7-point gap, 50% at 3.2 points and 95% at 4.9 points; a true +0.038 was
   lost in 45% at 1.5 points and 95% at 3.1 points; a true +0.066 in 20% at 4.7 points, 75%
   at 6.3 and always from 9.5; a true +0.11 in 25% at 9.4 points and always from 14. The
   shift this module computes matched the bias it stands for (e.g. +0.070 predicted against
   +0.073 measured at a 9-point gap).
2. So the guardrail tests the shift against the interval, not the gap against a constant. Over
   1,600 outcomes (nDCG@10 and P@10) it flagged 98% of the flipped verdicts and 3% of the kept
   ones; a fixed threshold flagged 81% / 12% at 5 points and 54% / 1% at 10 points. Where
   unjudged documents are half as often relevant (``--hole-relevance 0.5``: the scenario then
   overstates) it flagged 96% of flips and 18% of kept verdicts (among them the cells with
   gaps of 10-22 points, where the reported difference was three or more times the true one),
   a 5-point threshold 71% / 22%.
3. ``MIN_GAP`` = 3 points of judged@k. Over the same outcomes a 1-point minimum (the sampling
   noise of coverage between runs judged alike at 200 queries) flagged 98% of flips and 3% of
   kept verdicts; 3 points flag 92% / 1% (87% / 18% in the half-relevant world), 5 points
   81% / 1%. 3 points was chosen because a warning that fires on small gaps is read as noise:
   on the bundled demo, whose pool holds every relevant document, a 2.1-point gap moved
   +0.030 [+0.015, +0.045] across zero under the same-rate scenario and raised a false alarm
   on first visit.

The shift is an upper-end scenario (unjudged documents as relevant as judged ones; pools
usually found most relevant documents), not an estimate of the truth: the banner says "could",
and points to the robustness view (judged-only lists, proxy labels) for a second opinion. It is
not applied to bpref, Judged@k and Unjudged@k (they do not score unjudged documents as
non-relevant) nor to judged-only lists (they hold no unjudged document).

Segments get the same test on their own means, coverage and (unadjusted) bootstrap interval;
their verdict is the q-value's, so a flagged segment is a warning to look, not a recomputed q.
Metrics without a cutoff are checked at judged@10 (RBP at the depth holding 90% of its
weight): a proxy for where those metrics put their weight, not their exact coverage.

Coverage needs rankings and judgements: a comparison of per-query tables has none.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

import numpy as np
import numpy.typing as npt

from ranklens import codec
from ranklens.compare.segments import OVERALL, UNSEGMENTED, MetricComparison
from ranklens.data import MetricResult, Run
from ranklens.metrics import parse_metric
from ranklens.metrics.arrow import take
from ranklens.stats import ComparisonResult
from ranklens.stats.results import interval_reading

Treatment = Literal["nonrelevant", "judged-only", "proxy"]
"""How unjudged documents are treated: as non-relevant (trec_eval's default), removed from the
rankings (judged-only / condensed lists, trec_eval -J), or labelled by a proxy judge."""

TREATMENTS: tuple[Treatment, ...] = get_args(Treatment)

TREATMENT_NAMES = {
    "nonrelevant": "Unjudged = non-relevant (trec_eval default)",
    "judged-only": "Judged-only lists (trec_eval -J, condensed)",
    "proxy": "Holes filled with proxy labels",
}
TREATMENT_SHORT = {
    "nonrelevant": "Non-relevant (default)",
    "judged-only": "Judged-only (-J)",
    "proxy": "Proxy labels",
}
"""Names of the treatments in tables (``TREATMENT_NAMES`` in settings and sentences)."""

MIN_GAP = 0.03
"""Smallest judged@k gap (3 points) that can raise the guardrail; see the module docstring."""

DEFAULT_DEPTH = 10
"""Coverage depth of metrics without a cutoff (AP, nDCG, RR, R-Prec, bpref, ERR)."""

RBP_WEIGHT = 0.9
"""RBP's coverage depth holds this share of the weight: the smallest d with p^d <= 0.1."""

_NOT_GUARDED = {"bpref": "bpref skips unjudged documents instead of scoring them",
                "judged": "Judged@k measures coverage itself",
                "unjudged": "Unjudged@k measures coverage itself"}


def coverage_depth(metric: str) -> int:
    """The k at which a metric's coverage is measured: its cutoff; for RBP without one the
    depth holding 90% of its weight; 10 for other metrics without a cutoff."""
    spec = parse_metric(metric)
    if spec.cutoff is not None:
        return spec.cutoff
    if spec.family == "RBP" and spec.p is not None:
        return max(1, math.ceil(math.log(1.0 - RBP_WEIGHT) / math.log(spec.p) - 1e-9))
    return DEFAULT_DEPTH


def judged_name(depth: int) -> str:
    """The judged@k metric measured at ``depth``: ``Judged@10``."""
    return f"Judged@{depth}"


def ranking_depths(run: Run) -> dict[str, int]:
    """Documents retrieved per query of ``run``."""
    counts = np.bincount(run.query_codes, minlength=len(run.queries))
    present = np.flatnonzero(counts)
    ids = take(run.queries, present).to_pylist()
    return dict(zip(ids, counts[present].tolist(), strict=True))


def same_rate_shift(mean_a: float, mean_b: float, coverage_a: float, coverage_b: float,
                    ceiling: float = 1.0) -> float:
    """Change of B - A if the less-judged run's extra unjudged documents were relevant at the
    rate of its judged ones: its mean scaled by the coverage ratio (capped at ``ceiling``).

    Positive when B is the less-judged run (B would gain), negative when A is; 0 when the
    coverage is equal or a run has no judged document to take a rate from.
    """
    if coverage_b < coverage_a and coverage_b > 0:
        return min(ceiling, mean_b * coverage_a / coverage_b) - mean_b
    if coverage_a < coverage_b and coverage_a > 0:
        return -(min(ceiling, mean_a * coverage_b / coverage_a) - mean_a)
    return 0.0


@dataclass(frozen=True)
class CoverageRow:
    """Judgement coverage of one row of a comparison (overall or a segment).

    ``judged_a``/``judged_b`` are mean judged@k over the row's queries; ``coverage_a``/
    ``coverage_b`` the judged share of the documents retrieved in the top k (equal to judged@k
    when every ranking has k documents). ``shift`` is `same_rate_shift` of B - A and
    ``could_change`` whether the interval moved by it reads differently; both are 0/False
    where the guardrail does not apply. ``residual_a``/``residual_b`` are mean RBP residuals
    (None for other metrics).
    """

    segment: str
    n_queries: int
    judged_a: float
    judged_b: float
    coverage_a: float
    coverage_b: float
    shift: float = 0.0
    could_change: bool = False
    residual_a: float | None = None
    residual_b: float | None = None

    @property
    def gap(self) -> float:
        """judged@k of A minus judged@k of B: positive when B is less judged."""
        return self.judged_a - self.judged_b


@dataclass(frozen=True)
class MetricCoverage:
    """Coverage of one metric's comparison: judged@k per row, the guardrail, residuals.

    ``rows`` are the overall row then the comparison's segments (same names). ``guarded`` is
    False where the guardrail does not apply (``note`` says why). ``per_query`` holds the
    per-query values the rows summarise: ``judged_a``/``judged_b`` (judged@k) and, for RBP,
    ``residual_a``/``residual_b``. ``min_gap`` is the `MIN_GAP` the coverage was computed
    with: kept with the report, so a stored report raises the banner its author saw even
    after a later version changes the rule (it did once: 1 point, then 3).
    """

    metric: str
    depth: int
    rows: tuple[CoverageRow, ...]
    guarded: bool = True
    note: str = ""
    per_query: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    min_gap: float = field(default_factory=lambda: MIN_GAP)  # the rule of the reading version

    @property
    def judged_metric(self) -> str:
        return judged_name(self.depth)

    @property
    def overall(self) -> CoverageRow:
        return self.rows[0]

    def at_risk(self, row: CoverageRow) -> bool:
        """The one rule of "unjudged documents could change this row's verdict", which the
        banner, the card, the sections and every table say: the guardrail applies, the
        row's judged@k gap is at least ``min_gap``, and its same-rate shift moves the
        interval to read differently (``row.could_change`` alone is that last test)."""
        return self.guarded and abs(row.gap) >= self.min_gap and row.could_change

    @property
    def alert(self) -> bool:
        """Whether the verdict needs the banner: `at_risk` of the overall row."""
        return self.at_risk(self.overall)

    @property
    def flagged_segments(self) -> tuple[CoverageRow, ...]:
        """Segments whose own verdict could change (`at_risk`, as `alert`)."""
        return tuple(row for row in self.rows[1:] if self.at_risk(row))


@dataclass(frozen=True)
class TreatmentResult:
    """One metric's overall comparison under one treatment of unjudged documents.

    ``informative`` is False when the treatment changed nothing (proxy labels that fill no
    hole of these runs): the row is shown, but does not count as a second opinion.
    """

    treatment: str
    result: ComparisonResult
    note: str = ""
    informative: bool = True


@dataclass(frozen=True)
class Coverage:
    """Coverage of a whole report: the treatment used, one `MetricCoverage` per metric, and the
    robustness view (metric -> the overall comparison under each treatment available)."""

    treatment: str
    metrics: tuple[MetricCoverage, ...]
    robustness: Mapping[str, tuple[TreatmentResult, ...]] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def metric(self, name: str) -> MetricCoverage | None:
        return next((m for m in self.metrics if m.metric == name), None)

    @property
    def alerts(self) -> tuple[MetricCoverage, ...]:
        return tuple(m for m in self.metrics if m.alert)


# ---- building ------------------------------------------------------------------------------

def metric_coverage(
    comparison: MetricComparison,
    judged_a: MetricResult,
    judged_b: MetricResult,
    depths_a: Mapping[str, int],
    depths_b: Mapping[str, int],
    *,
    segments: Mapping[str, str] | None = None,
    missing: str = "drop",
    residual_a: MetricResult | None = None,
    residual_b: MetricResult | None = None,
    guarded: bool = True,
    note: str = "",
) -> MetricCoverage:
    """Coverage of ``comparison`` from the runs' per-query judged@k at the metric's depth.

    ``depths_a``/``depths_b`` are the documents each run retrieved per query
    (`ranking_depths`). Each row covers the queries its comparison paired (both runs under
    ``missing="drop"``, either under ``"zero"``, where a missing ranking counts as no document
    retrieved). ``guarded=False`` switches the guardrail off for this metric.
    """
    metric = comparison.metric
    depth = coverage_depth(metric)
    family = parse_metric(metric).family
    if family in _NOT_GUARDED:
        guarded, note = False, _NOT_GUARDED[family]
    queries = _paired_queries(judged_a.per_query, judged_b.per_query, missing)
    columns = _QueryColumns.of(queries, judged_a, judged_b, depths_a, depths_b, depth,
                               residual_a, residual_b)
    groups: dict[str, npt.NDArray[np.intp]] = {OVERALL: np.arange(len(queries))}
    if segments is not None:
        labels = [segments.get(query, UNSEGMENTED) for query in queries]
        names, codes = np.unique(np.array(labels, dtype=object), return_inverse=True)
        order = np.argsort(codes, kind="stable")  # each segment's queries in id order
        bounds = np.searchsorted(codes[order], np.arange(len(names) + 1))
        for k, name in enumerate(names.tolist()):
            groups.setdefault(name, order[bounds[k]:bounds[k + 1]])
    rows = []
    for row in comparison.rows:
        members = groups.get(row.segment, np.zeros(0, dtype=np.intp))
        rows.append(_row(row.segment, columns.taken(members), row.result, depth, guarded))
    per_query: dict[str, Mapping[str, float]] = {
        "judged_a": dict(judged_a.per_query), "judged_b": dict(judged_b.per_query)}
    if residual_a is not None and residual_b is not None:
        per_query.update(residual_a=dict(residual_a.per_query),
                         residual_b=dict(residual_b.per_query))
    return MetricCoverage(metric, depth, tuple(rows), guarded, note, per_query,
                          min_gap=MIN_GAP)  # read now: the rule of the version computing


def _paired_queries(a: Mapping[str, float], b: Mapping[str, float], missing: str) -> list[str]:
    keys = (a.keys() | b.keys()) if missing == "zero" else (a.keys() & b.keys())
    return sorted(keys)


@dataclass(frozen=True)
class _QueryColumns:
    """What the coverage rows need of each paired query, as arrays in the queries' order:
    judged@k of each run (1 where a run has no value), the documents each retrieved up to the
    depth, the residuals when there are any (empty arrays when not)."""

    judged_a: npt.NDArray[np.float64]
    judged_b: npt.NDArray[np.float64]
    retrieved_a: npt.NDArray[np.float64]
    retrieved_b: npt.NDArray[np.float64]
    residual_a: npt.NDArray[np.float64] | None
    residual_b: npt.NDArray[np.float64] | None

    @classmethod
    def of(cls, queries: list[str], judged_a: MetricResult, judged_b: MetricResult,
           depths_a: Mapping[str, int], depths_b: Mapping[str, int], depth: int,
           residual_a: MetricResult | None, residual_b: MetricResult | None) -> _QueryColumns:
        def values(result: MetricResult | None) -> npt.NDArray[np.float64] | None:
            if result is None:
                return None
            get = result.per_query.get
            return np.fromiter((get(q, 1.0) for q in queries), dtype=np.float64,
                               count=len(queries))

        def retrieved(depths: Mapping[str, int]) -> npt.NDArray[np.float64]:
            get = depths.get
            return np.minimum(np.fromiter((get(q, 0) for q in queries), dtype=np.float64,
                                          count=len(queries)), depth)

        ja, jb = values(judged_a), values(judged_b)
        assert ja is not None and jb is not None
        return cls(ja, jb, retrieved(depths_a), retrieved(depths_b), values(residual_a),
                   values(residual_b))

    def taken(self, members: npt.NDArray[np.intp]) -> _QueryColumns:
        """The columns of the queries at ``members`` (positions, in order)."""
        return _QueryColumns(self.judged_a[members], self.judged_b[members],
                             self.retrieved_a[members], self.retrieved_b[members],
                             None if self.residual_a is None else self.residual_a[members],
                             None if self.residual_b is None else self.residual_b[members])


def _row(segment: str, columns: _QueryColumns, result: ComparisonResult | None, depth: int,
         guarded: bool) -> CoverageRow:
    # Judged@k counts the positions past the end of a short ranking as judged (trec_eval's
    # unj_k), so the unjudged documents are k (1 - judged@k); an empty ranking has none
    ja, jb = columns.judged_a, columns.judged_b
    cov_a = _judged_share(depth * (1.0 - ja).sum(), columns.retrieved_a.sum())
    cov_b = _judged_share(depth * (1.0 - jb).sum(), columns.retrieved_b.sum())
    shift, changes = 0.0, False
    if guarded and result is not None:
        shift = same_rate_shift(result.mean_a, result.mean_b, cov_a, cov_b)
        changes = (interval_reading(result.interval.low, result.interval.high)
                   != interval_reading(result.interval.low + shift, result.interval.high + shift))
    res_a = None if columns.residual_a is None else _mean(columns.residual_a)
    res_b = None if columns.residual_b is None else _mean(columns.residual_b)
    return CoverageRow(segment, len(ja), _mean(ja), _mean(jb), cov_a, cov_b, shift,
                       changes, res_a, res_b)


def _mean(values: np.ndarray) -> float:
    return float(values.mean()) if len(values) else math.nan


def _judged_share(unjudged: float, retrieved: float) -> float:
    """Judged share of the documents retrieved in the top k (1 when none were retrieved)."""
    return float(1.0 - unjudged / retrieved) if retrieved > 0 else 1.0


# ---- JSON ----------------------------------------------------------------------------------

# How coverage is written (`ranklens.codec.Form`): the key orders of the JSON reports have
# carried since coverage existed. Coverage written before ``min_gap`` was kept reads with this
# version's `MIN_GAP` (the rule it was computed with is not known).
codec.register(MetricCoverage, codec.Form(
    order=("metric", "depth", "guarded", "note", "min_gap", "rows", "per_query")))
codec.register(TreatmentResult, codec.Form(order=("treatment", "note", "informative", "result")))
