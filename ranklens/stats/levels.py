"""Intervals of one mean difference at any level, from one set of draws.

A comparison shows its interval at ``1 - alpha``. Adjusting for selection
(`ranklens.stats.fcr_adjust`) asks for the same interval at another level, ``1 - R alpha / m``,
and a page may switch between the two. Redrawing 10,000 resamples per segment for every level
would cost as much as the comparison itself and, with another seed, would not give back the
interval shown. A `ConfidenceCurve` keeps what the interval is read from:

- bootstrap percentile: the resampled means;
- bootstrap-t (studentized): the resampled t statistics and the observed standard error;
- sign-flip: the ends ``L_s``/``R_s`` of every sign pattern (`ranklens.stats.sign_flip`);
- t: the t-test's standard error and degrees of freedom (what a report read back still holds);
- skew-guarded: the sign-flip ends, and what Hall's part reads (`ranklens.stats.skew_guard`'s
  `GuardSummary`: the changed queries' count, spread and skewness, and those of all).

`ConfidenceCurve.interval` then reads the interval at any ``alpha`` with no new draws. With the
same deltas, method, resample count and seed as a comparison, the interval at the comparison's
``alpha`` is the comparison's interval, to the last bit (the draws are the same streams).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ranklens.stats.bootstrap import _resample, studentized_draws, studentized_ends
from ranklens.stats.distributions import t_ends, t_quantile
from ranklens.stats.errors import InsufficientSampleError, SmallSampleWarning, check_probability
from ranklens.stats.notes import Note, emitted
from ranklens.stats.pairing import Deltas, as_deltas, sample_sd
from ranklens.stats.results import ComparisonResult, Interval, Seed
from ranklens.stats.sign_flip import bounded_from, pattern_ends
from ranklens.stats.skew_guard import GUARDED, GuardSummary, guard_ends, guard_summary

CURVE_METHODS = ("percentile", "studentized", "sign-flip", "t", "skew-guarded")
"""The intervals a curve can be read from: those of `compare`, and the t-interval."""


@dataclass(frozen=True, eq=False)
class ConfidenceCurve:
    """What the interval of one mean difference is read from, at any level (module docstring).

    Build it with `confidence_curve` (from deltas), `ConfidenceCurve.for_comparison` (the
    comparison's own settings) or `t_curve` (a comparison's t-test alone).
    """

    estimate: float
    method: str
    n_queries: int
    n_resamples: int
    seed: Seed
    standard_error: float
    df: float = math.inf
    guard: GuardSummary | None = None
    draws: npt.NDArray[np.float64] = field(default_factory=lambda: np.empty(0), repr=False)
    draws_high: npt.NDArray[np.float64] = field(default_factory=lambda: np.empty(0), repr=False)

    def interval(self, alpha: float) -> Interval:
        """The ``1 - alpha`` interval of ``estimate``, read from the stored draws (nothing is
        drawn); ``method`` is the curve's, one of `CURVE_METHODS`.

        An end that cannot be bounded at this level is infinite, with a `SmallSampleWarning`,
        as the interval functions themselves do (`interval_with_notes` returns it instead).
        """
        return emitted(self.interval_with_notes(alpha))

    def interval_with_notes(self, alpha: float) -> tuple[Interval, tuple[Note, ...]]:
        """`interval`, with what it would warn (an infinite end) returned as a note."""
        check_probability("alpha", alpha)
        low, high = _ends(self, alpha)
        notes: tuple[Note, ...] = ()
        if math.isinf(low) or math.isinf(high):
            notes = (Note(
                f"{self.method} interval on {self.n_queries} differences at level "
                f"{1 - alpha:.6g} has an infinite end: at that level the draws cannot bound it"
                + (f" (sign-flip needs {bounded_from(alpha)} queries)"
                   if self.method in ("sign-flip", GUARDED) else ""),
                SmallSampleWarning),)
        return Interval(low, high, 1.0 - alpha, self.method), notes

    @classmethod
    def for_comparison(
        cls, comparison: ComparisonResult, deltas: Sequence[float] | Deltas
    ) -> ConfidenceCurve:
        """The curve of ``comparison``'s own interval: its method, resample count and seed.

        ``deltas`` are the per-query differences the comparison was computed on (after
        `compare` set float noise to 0, `ranklens.stats.tolerance`); ValueError when their
        count or mean is not the comparison's.
        """
        values = _as_compared(as_deltas(deltas), comparison)
        interval = comparison.interval
        if values.size != interval.n_queries or not math.isclose(
            float(values.mean()), interval.delta, rel_tol=1e-9, abs_tol=1e-12
        ):
            raise ValueError(
                f"these {values.size} differences (mean {float(values.mean()):.6g}) are not "
                f"the comparison's ({interval.n_queries} queries, mean {interval.delta:.6g}); "
                "pass the per-query differences the comparison was computed on"
            )
        return confidence_curve(
            values, method=interval.method, n_resamples=interval.n_resamples, seed=interval.seed
        )


def _as_compared(values: Deltas, comparison: ComparisonResult) -> Deltas:
    """``values`` as `compare` used them: its ``n_snapped`` float-noise differences set to 0.

    Deltas passed as ``b - a`` still hold the differences `compare` set to 0
    (`ranklens.stats.tolerance`); those are the ``n_snapped`` nonzero ones nearest 0. Deltas
    passed already snapped have the comparison's mean exactly and are kept as they are.
    """
    n_snapped = comparison.n_snapped
    if not n_snapped or float(values.mean()) == comparison.delta:
        return values
    nonzero = np.flatnonzero(values != 0.0)
    nearest = nonzero[np.argsort(np.abs(values[nonzero]), kind="stable")[:n_snapped]]
    snapped = values.copy()
    snapped[nearest] = 0.0
    return snapped


def confidence_curve(
    deltas: Sequence[float] | Deltas,
    *,
    method: str = "studentized",
    n_resamples: int = 10_000,
    seed: Seed = 0,
) -> ConfidenceCurve:
    """Draw once what ``method``'s interval of the mean of ``deltas`` is read from.

    ``method`` is "studentized", "percentile", "sign-flip" or "t". The draws are those of
    `paired_bootstrap` with the same ``n_resamples`` and ``seed`` (for "sign-flip": the sign
    patterns of `permutation_test` with ``n_permutations = n_resamples``), so
    ``curve.interval(alpha)`` equals ``mean_interval(deltas, interval=method, alpha=alpha,
    ...)`` at every ``alpha``.
    """
    if method not in CURVE_METHODS:
        raise ValueError(f"method must be one of {CURVE_METHODS}, got {method!r}")
    values = as_deltas(deltas)
    n = values.size
    if n < 2:
        raise InsufficientSampleError(n, 2, unit="differences for an interval")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    estimate = float(values.mean())
    standard_error = sample_sd(values) / math.sqrt(n)
    empty = np.empty(0)

    guard = guard_summary(values) if method == GUARDED else None

    def curve(n_draws: int, seed: Seed, draws: npt.NDArray[np.float64] = empty,
              draws_high: npt.NDArray[np.float64] = empty) -> ConfidenceCurve:
        return ConfidenceCurve(estimate, method, n, n_draws, seed, standard_error,
                               df=n - 1.0, draws=draws, draws_high=draws_high, guard=guard)

    if method == "t":
        return curve(0, 0)
    if method in ("sign-flip", GUARDED):
        low_ends, high_ends = pattern_ends(values, n_permutations=n_resamples, seed=seed)
        exact = low_ends.size == 2**n
        return curve(low_ends.size if exact else n_resamples, 0 if exact else seed,
                     np.sort(low_ends), np.sort(high_ends))
    if method == "percentile":
        means, _ = _resample(values, n_resamples, seed, with_sd=False)
        return curve(n_resamples, seed, means)
    if standard_error == 0.0:  # no spread: the studentized interval is the point itself
        return curve(n_resamples, seed)
    means, sds = _resample(values, n_resamples, seed, with_sd=True)
    assert sds is not None
    return curve(n_resamples, seed, studentized_draws(means - estimate, sds / np.sqrt(n)))


def t_curve(comparison: ComparisonResult) -> ConfidenceCurve:
    """The t-interval of ``comparison`` at any level, from its t-test alone.

    The standard error is what the stored t-interval implies (half-width over the t quantile);
    this works on a comparison read back from a report, which keeps no per-query values.
    """
    t_test = comparison.t_test
    quantile = t_quantile(1.0 - t_test.alpha / 2.0, t_test.df)
    standard_error = (t_test.high - t_test.low) / 2.0 / quantile
    return ConfidenceCurve(
        estimate=t_test.delta, method="t", n_queries=comparison.n_queries, n_resamples=0,
        seed=0, standard_error=standard_error, df=t_test.df,
    )


def _ends(curve: ConfidenceCurve, alpha: float) -> tuple[float, float]:
    estimate, method = curve.estimate, curve.method
    if method == "t":
        return t_ends(estimate, curve.standard_error, curve.df, alpha)
    if method in ("sign-flip", GUARDED):
        patterns = curve.draws.size
        needed = min(math.floor(alpha * patterns) + 1, patterns)
        low, high = float(curve.draws[needed - 1]), float(curve.draws_high[patterns - needed])
        if method == "sign-flip":
            return low, high
        assert curve.guard is not None
        hall_low, hall_high = guard_ends(estimate, curve.guard, alpha)
        return min(low, hall_low), max(high, hall_high)
    if method == "percentile":
        low, high = np.quantile(curve.draws, [alpha / 2, 1.0 - alpha / 2])
        return float(low), float(high)
    if curve.standard_error == 0.0:
        return estimate, estimate
    return studentized_ends(curve.draws, estimate, curve.standard_error, alpha)
