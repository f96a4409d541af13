"""Result types of ranklens.stats: frozen records of what was computed and with which settings."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ranklens.data import QueryId
from ranklens.stats.distributions import t_quantile

Seed = int | np.random.SeedSequence

# Decisions compare a p- or q-value with alpha. Values such as 0.03 * 5 / 3 land a few ulps
# either side of 0.05; a mathematically tied value must count as "at most alpha".
_DECISION_SLACK = 1e-12


def at_most(value: float, alpha: float) -> bool:
    """Whether ``value <= alpha``, forgiving floating-point noise of a few ulps.

    This is the one decision rule of the package (a p- or q-value "at or below alpha" is a
    discovery), so that ``significant`` and `ranklens.stats.multiple.rejected` agree.
    """
    return value <= alpha * (1.0 + _DECISION_SLACK)


def interval_reading(low: float, high: float) -> str:
    """Where the interval ``[low, high]`` lies against 0: ``"above"`` (``low > 0``), ``"below"``
    (``high < 0``) or ``"around"`` (an end exactly at 0 includes it). The one reading of an
    interval's side, which each face then puts in its own words; it tests nothing."""
    if low > 0:
        return "above"
    if high < 0:
        return "below"
    return "around"


@dataclass(frozen=True)
class Interval:
    """An interval estimate: ``[low, high]`` at confidence ``level`` (``1 - alpha``), and the
    ``method`` that made it. The one interval type of ranklens: the comparison's interval of
    the mean difference (`MeanDifferenceInterval`), the t-interval (`TTest.interval`), the
    PPI++ interval (`PPIComparison.interval`), the proxy's bias (``ProxyBias.interval``), an
    interval read at another level (`ConfidenceCurve.interval`), the FCR-adjusted one
    (`AdjustedInterval`), the new training run's (`NewRunEstimate.interval`), the macro
    average's (`MacroComparison.interval`) and the judge check's (`AgreementEstimate.interval`).

    It says how precisely a quantity is measured; it tests nothing. An end that cannot be
    bounded is infinite, never a large finite placeholder.
    """

    low: float
    high: float
    level: float
    method: str

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high

    @property
    def width(self) -> float:
        return self.high - self.low

    @property
    def excludes_zero(self) -> bool:
        """Whether 0 lies outside the interval (an end exactly at 0 includes it)."""
        return self.reading != "around"

    @property
    def reading(self) -> str:
        """``"above"``, ``"below"`` or ``"around"`` 0 (`interval_reading`)."""
        return interval_reading(self.low, self.high)


@dataclass(frozen=True)
class MeanDifferenceInterval(Interval):
    """Confidence interval of the mean per-query difference B - A (`ComparisonResult.interval`).

    ``method`` is ``"percentile"`` or ``"studentized"`` (bootstrap-t), or ``"sign-flip"``: the
    permutation test inverted (`ranklens.stats.sign_flip`), whose ``n_resamples`` is the
    number of sign patterns (2^n with ``seed`` 0 when all are enumerated, else the test's
    ``n_permutations`` and seed); so it is not always a bootstrap, whence the name.
    ``BootstrapInterval`` (the seeds' name, returned
    by `paired_bootstrap`) is this class. ``level`` is ``1 - alpha`` unless given. Built with
    keywords (``delta=..., low=..., high=..., alpha=..., n_queries=..., n_resamples=...,
    seed=...``), as the seeds do.
    """

    level: float = math.nan
    method: str = "percentile"
    _: KW_ONLY
    delta: float
    alpha: float
    n_queries: int
    n_resamples: int
    seed: Seed

    def __post_init__(self) -> None:
        if math.isnan(self.level):
            object.__setattr__(self, "level", 1.0 - self.alpha)


BootstrapInterval = MeanDifferenceInterval
"""The seeds' name of `MeanDifferenceInterval` (what `paired_bootstrap` returns)."""


class TInterval:
    """What the results storing a ``1 - alpha`` t-interval as ``low``/``high`` have in common
    (a t-test, the proxy's bias): `interval` gives it as the package's one `Interval` type."""

    low: float
    high: float
    alpha: float

    @property
    def interval(self) -> Interval:
        """``[low, high]`` as the package's one interval type (method ``"t"``)."""
        return Interval(self.low, self.high, 1.0 - self.alpha, "t")


@dataclass(frozen=True)
class IntervalEstimate:
    """An estimate of B - A, its `Interval` and its two-sided ``p_value`` against no
    difference, decided at the interval's own alpha: what the new training run's estimate
    (`NewRunEstimate`) and the macro average over collections (`MacroComparison`) share.

    The interval's ends read as ``low``/``high`` too; ``alpha`` is ``1 - interval.level``;
    ``significant`` whether the p-value is at most it. How the interval and the p-value were
    computed, and whether they always agree, is the subclass's to say.
    """

    estimate: float
    interval: Interval
    p_value: float

    @property
    def low(self) -> float:
        return self.interval.low

    @property
    def high(self) -> float:
        return self.interval.high

    @property
    def alpha(self) -> float:
        return 1.0 - self.interval.level

    @property
    def significant(self) -> bool:
        """The p-value at most alpha (`at_most`)."""
        return at_most(self.p_value, self.alpha)


@dataclass(frozen=True)
class TTest(TInterval):
    """Paired t-test of the mean per-query difference: statistic, p-value and t-interval.

    ``p_value`` is two-sided against a mean difference of 0; ``low``/``high`` the
    ``1 - alpha`` t-interval of the mean difference. Both assume the mean is near normal
    (central limit theorem), which holds well for the query counts of IR test collections.

    ``statistic`` (delta over its standard error) is fixed by the interval (half-width = t
    quantile times standard error), so equality leaves it out: a t-test read back from a
    report, which stores the interval and not the statistic (`ComparisonResult.from_row`),
    equals the one computed, whose statistic it matches up to float rounding.
    """

    delta: float
    statistic: float = field(compare=False)
    df: int
    p_value: float
    low: float
    high: float
    alpha: float


class _Decided:
    """What ComparisonResult and PPIComparison share: the decision from p, or q once set."""

    p_value: float
    q_value: float | None
    if TYPE_CHECKING:  # a field of PPIComparison, a property of ComparisonResult

        @property
        def alpha(self) -> float: ...

    @property
    def significant(self) -> bool:
        """Discovery at ``alpha``: the q-value when set (after `adjust`), else the p-value.

        "At most alpha" (``<=``), as the textbook rules and statsmodels decide; the seeds'
        methods page writes ``q < alpha``. They differ only for a value exactly at alpha.
        """
        return at_most(self.p_value if self.q_value is None else self.q_value, self.alpha)


@dataclass(frozen=True)
class Outcomes:
    """How many paired queries B won, tied and lost: per-query difference B - A above 0, at 0
    (after float noise was set to 0, see `ranklens.stats.tolerance`) and below 0."""

    wins: int
    ties: int
    losses: int


ROW_KEYS = (
    "metric", "mean_a", "mean_b", "delta", "ci_low", "ci_high", "alpha", "p_value",
    "t_p_value", "t_ci_low", "t_ci_high", "n_queries", "wins", "ties", "losses",
    "effect_size", "n_resamples", "n_permutations", "seed", "interval", "n_only_a",
    "n_only_b", "missing", "q_value", "n_snapped",
)
"""The keys of `ComparisonResult.row`, in order: the fields of a result in a report's JSON
(schema 2), which the CSV, the tables and the app's data frames choose their columns from."""


@dataclass(frozen=True)
class ComparisonResult(_Decided):
    """Run B against run A on one metric: means, interval, p-values and effect sizes.

    ``interval`` is the interval of the mean difference (``interval.low``/``interval.high``)
    and its ``method`` ("skew-guarded", the default, "sign-flip", "studentized" or
    "percentile"; `ranklens.stats.interval_description` says it in words). ``p_value`` is the
    sign-flip permutation p-value, for "skew-guarded" the larger of it and Hall's
    skewness-corrected t-test's; ``t_test`` the paired t-test beside it (its own ``p_value`` and
    t-interval). ``outcomes`` counts the queries B won, tied and lost. ``effect_size`` is the
    standardized mean difference of the per-query deltas (mean / sd, Cohen's d_z).
    ``n_resamples``, ``n_permutations`` and ``seed`` are the settings the comparison was asked
    for (a sign-flip interval enumerates its own 2^n patterns and draws nothing: its
    ``interval.n_resamples`` and ``interval.seed`` say so). ``n_only_a``/``n_only_b`` count
    queries measured in one run only, handled as ``missing`` says. ``n_snapped`` counts
    per-query differences within float noise of 0 that were set to exactly 0
    (`ranklens.stats.tolerance`). ``q_value`` is None until `adjust`.

    ``delta``, ``alpha`` and ``n_queries`` are the interval's (the t-test has the same).
    `row` is the result as one flat record and `from_row` reads it back.
    """

    metric: str
    mean_a: float
    mean_b: float
    interval: MeanDifferenceInterval
    p_value: float
    t_test: TTest
    outcomes: Outcomes
    effect_size: float
    n_resamples: int
    n_permutations: int
    seed: Seed
    n_only_a: int
    n_only_b: int
    missing: str = "drop"
    q_value: float | None = None
    n_snapped: int = 0

    @property
    def delta(self) -> float:
        """Mean per-query difference B - A."""
        return self.interval.delta

    @property
    def alpha(self) -> float:
        """Significance level: the intervals are ``1 - alpha``, decisions at ``alpha``."""
        return self.interval.alpha

    @property
    def n_queries(self) -> int:
        """Paired queries the comparison was computed on."""
        return self.interval.n_queries

    def row(self) -> dict[str, Any]:
        """The result as one flat record with the keys of `ROW_KEYS`, in that order.

        Numbers as the result holds them (``seed`` may be a ``SeedSequence``; ``q_value``
        None until `adjust`); ``interval`` is the interval's method name. It is what a report's
        JSON stores per result, and what the CSV and the tables pick their columns from.
        """
        interval, t_test, outcomes = self.interval, self.t_test, self.outcomes
        return {
            "metric": self.metric, "mean_a": self.mean_a, "mean_b": self.mean_b,
            "delta": interval.delta, "ci_low": interval.low, "ci_high": interval.high,
            "alpha": interval.alpha, "p_value": self.p_value, "t_p_value": t_test.p_value,
            "t_ci_low": t_test.low, "t_ci_high": t_test.high, "n_queries": interval.n_queries,
            "wins": outcomes.wins, "ties": outcomes.ties, "losses": outcomes.losses,
            "effect_size": self.effect_size, "n_resamples": self.n_resamples,
            "n_permutations": self.n_permutations, "seed": self.seed,
            "interval": interval.method, "n_only_a": self.n_only_a, "n_only_b": self.n_only_b,
            "missing": self.missing, "q_value": self.q_value, "n_snapped": self.n_snapped,
        }

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> ComparisonResult:
        """The result whose `row` is ``row``; ``n_snapped`` is 0 when absent (schema-1 reports).

        A row holds everything but the t statistic: ``t_test.statistic`` is recomputed from
        the stored t-interval (the mean difference over the standard error the interval
        implies), equal to the computed one up to float rounding; its ``df`` is n - 1. The
        interval's ``n_resamples`` and ``seed`` are the row's, except for a sign-flip
        interval: its sign patterns are the permutation test's (2^n and seed 0 when they are
        enumerated, ``n_permutations`` and the row's seed when drawn), as
        `ranklens.stats.sign_flip_interval` sets them.
        """
        # values as stored, not coerced: a report read back writes the same bytes
        method, n, alpha, delta = row["interval"], row["n_queries"], row["alpha"], row["delta"]
        sign_flip = method in ("sign-flip", "skew-guarded")  # the patterns are the test's
        enumerated = sign_flip and n < 63 and 2**n <= row["n_permutations"]
        interval = MeanDifferenceInterval(
            delta=delta, low=row["ci_low"], high=row["ci_high"], alpha=alpha, n_queries=n,
            n_resamples=2**n if enumerated else
            (row["n_permutations"] if sign_flip else row["n_resamples"]),
            seed=0 if enumerated else row["seed"], method=method)
        low, high = row["t_ci_low"], row["t_ci_high"]
        t_test = TTest(delta=delta, statistic=_t_statistic(delta, low, high, alpha, n - 1),
                       df=n - 1, p_value=row["t_p_value"], low=low, high=high, alpha=alpha)
        return cls(
            metric=row["metric"], mean_a=row["mean_a"], mean_b=row["mean_b"],
            interval=interval, p_value=row["p_value"], t_test=t_test,
            outcomes=Outcomes(row["wins"], row["ties"], row["losses"]),
            effect_size=row["effect_size"], n_resamples=row["n_resamples"],
            n_permutations=row["n_permutations"], seed=row["seed"], n_only_a=row["n_only_a"],
            n_only_b=row["n_only_b"], missing=row.get("missing", "drop"),
            q_value=row.get("q_value"), n_snapped=row.get("n_snapped", 0))


def _t_statistic(delta: float, low: float, high: float, alpha: float, df: int) -> float:
    """The t statistic that `ranklens.stats.paired_t_test` computed for this t-interval."""
    standard_error = (high - low) / 2.0 / t_quantile(1.0 - alpha / 2.0, df)
    if standard_error == 0.0:  # paired_t_test's "no spread" case
        return 0.0 if delta == 0.0 else math.copysign(math.inf, delta)
    return delta / standard_error


@dataclass(frozen=True)
class PPIComparison(_Decided):
    """Difference B - A measured on proxy judgements and corrected on a gold sample (PPI++).

    ``lam`` is the weight that was used for the proxy part (0: gold only, 1: classic PPI);
    ``n_proxy`` counts proxy-only queries, ``n_gold`` gold queries. The interval and p-value
    use Student's t with ``df`` degrees of freedom (``inf``: the normal approximation);
    ``method`` says how (`ranklens.stats.ppi.PPI_METHODS`). ``unpaired_gold_a``/``_b`` are
    the gold queries measured in run A (B) only and ``unpaired_proxy_a``/``_b`` the same under
    proxy judgements: left out, and warned about. ``q_value`` is None until `adjust`.
    """

    metric: str
    mean_a: float
    mean_b: float
    delta: float
    ci_low: float
    ci_high: float
    alpha: float
    p_value: float
    lam: float
    n_proxy: int
    n_gold: int
    q_value: float | None = None
    df: float = math.inf
    method: str = "asymptotic"
    unpaired_gold_a: tuple[QueryId, ...] = ()
    unpaired_gold_b: tuple[QueryId, ...] = ()
    unpaired_proxy_a: tuple[QueryId, ...] = ()
    unpaired_proxy_b: tuple[QueryId, ...] = ()

    @property
    def interval(self) -> Interval:
        """``[ci_low, ci_high]`` as the package's one interval type; its method says the
        distribution (``"ppi-t"`` for the finite-sample rule, ``"ppi-normal"`` otherwise)."""
        return Interval(self.ci_low, self.ci_high, 1.0 - self.alpha,
                        "ppi-t" if math.isfinite(self.df) else "ppi-normal")

    @property
    def n_unpaired_gold(self) -> int:
        """Gold queries left out because only one of the runs was measured on them."""
        return len(self.unpaired_gold_a) + len(self.unpaired_gold_b)
