"""One comparison of two runs on one metric: everything the verdict needs, in one record."""

from __future__ import annotations

import math

import numpy as np

from ranklens.data import MetricResult
from ranklens.stats.errors import InsufficientSampleError
from ranklens.stats.interval import (
    DEFAULT_INTERVAL,
    IntervalMethod,
    mean_interval_with_notes,
    resolve_interval,
)
from ranklens.stats.notes import Note, emitted
from ranklens.stats.options import PairedOptions
from ranklens.stats.pairing import (
    MIN_QUERIES,
    MissingPolicy,
    Paired,
    pair,
    pair_quietly,
    sample_sd,
)
from ranklens.stats.permutation import permutation_test
from ranklens.stats.results import ComparisonResult, Outcomes, Seed
from ranklens.stats.shape import shape_notes
from ranklens.stats.sign_flip import sign_flip_test
from ranklens.stats.skew_guard import GUARDED, guard_p_value, skew_guarded_test
from ranklens.stats.tolerance import no_difference_tolerance, snap
from ranklens.stats.ttest import paired_t_test


def effect_size(deltas: np.ndarray) -> float:
    """Standardized mean difference of the per-query deltas (Cohen's d_z = mean / sd).

    0 when every delta is 0; signed infinity when all deltas are the same nonzero value.
    Takes the deltas as given: `compare` passes them with float noise already set to 0
    (`ranklens.stats.tolerance`), so a comparison of equal runs gets 0, not -inf.
    """
    mean = float(deltas.mean())
    sd = sample_sd(deltas)
    if sd == 0.0:
        return 0.0 if mean == 0.0 else math.copysign(math.inf, mean)
    return mean / sd


def compare(
    result_a: MetricResult,
    result_b: MetricResult,
    *,
    alpha: float = 0.05,
    n_resamples: int = 10_000,
    n_permutations: int = 10_000,
    seed: Seed = 0,
    missing: MissingPolicy = "drop",
    interval: IntervalMethod = DEFAULT_INTERVAL,
    min_queries: int = MIN_QUERIES,
) -> ComparisonResult:
    """Is run B better than run A on this metric, by how much, and could it be noise?

    Pairs the queries (``missing`` says what happens to a query measured in one run only,
    see `paired_deltas`), then reports the means of A and B on those queries, the mean
    difference B - A with its interval, its p-value (by default the skew-guarded one: the
    sign-flip permutation p, or Hall's skewness-corrected t-test's when larger), the paired t-test
    p-value and t-interval, win/tie/loss counts and the standardized effect size. The
    bootstrap and the permutation test draw from separate streams of one ``seed``: the same
    inputs and seed give the same numbers.

    ``interval`` is "auto" by default: the skew-guarded test (`ranklens.stats.skew_guard`,
    also what segments use): the p-value is the larger of the sign-flip permutation p and
    Hall's skewness-corrected t-test's p (on the changed queries), and the interval is every
    mean difference either test keeps, so it excludes 0 exactly when ``p_value <= alpha``.
    "sign-flip" asks for the permutation test alone and its inversion with the very sign
    patterns of its p-value (the default before issue 45's grid: it lets skewed differences
    through, 7-10% at alpha .05 on centred exponential ones of 10-50 queries);
    "studentized" and "percentile" ask for a bootstrap interval beside the sign-flip p (see
    `ranklens.stats.interval`). The result's ``interval`` is the one used (its ``method`` says
    which). When the differences are too skewed or too tied for
    their number to hold any interval's level, or a clear result rests on few changed queries
    skewed away from its mean, a note says so (`ranklens.stats.shape`); when
    they are all one non-zero value the t-test is undefined (NaN) and a note says so.

    Per-query differences within float noise of 0 (`ranklens.stats.tolerance`: 1e-6 of the
    largest metric value, at least of 1) are set to exactly 0 before anything is computed, so
    equal runs tie on every query whatever the rounding of either side; ``n_snapped`` counts
    them.

    It answers for the mean of this metric over this population of queries; not whether
    the two runs order documents differently, nor whether users would notice. What it warns
    (unpaired queries, a small sample, an unbounded interval), `compare_with_notes` returns.
    """
    _check_metric(result_a, result_b)
    options = PairedOptions(alpha=alpha, n_resamples=n_resamples, n_permutations=n_permutations,
                            seed=seed, missing=missing, interval=interval,
                            min_queries=min_queries)
    paired = pair(result_a, result_b, missing=missing, min_queries=min_queries, stacklevel=2)
    return emitted(_compare_paired(result_a.metric, paired, options))


def compare_with_notes(
    result_a: MetricResult,
    result_b: MetricResult,
    options: PairedOptions | None = None,
) -> tuple[ComparisonResult, tuple[Note, ...]]:
    """`compare` with ``options`` (default `PairedOptions()`), and what it would warn returned
    as notes (the feature layer shows them in its reports; nobody has to catch warnings).
    Errors are raised as `compare` raises them.
    """
    options = options or PairedOptions()
    paired = _paired_quietly(result_a, result_b, options)
    result, notes = _compare_paired(result_a.metric, paired, options)
    return result, paired.notes + notes


def difference_and_p(
    result_a: MetricResult,
    result_b: MetricResult,
    options: PairedOptions | None = None,
) -> tuple[float, float]:
    """The mean difference B - A and the p-value of `compare_with_notes` with ``options``, to
    the bit, without the interval, the t-test or the counts: what a verdict reads, at the cost
    of the permutation test (and, for the skew-guarded default, Hall's closed-form p) alone
    (the interval's resampling is most of a comparison's time). Errors as
    `compare_with_notes`; what it would note is not returned (the full comparison of the same
    results says it).
    """
    options = options or PairedOptions()
    deltas, _ = _snapped(_paired_quietly(result_a, result_b, options))
    p_value = permutation_test(deltas, n_permutations=options.n_permutations, seed=options.seed)
    if resolve_interval(options.interval, deltas.size) == GUARDED:
        p_value = max(p_value, guard_p_value(deltas))
    return float(deltas.mean()), p_value


def _paired_quietly(result_a: MetricResult, result_b: MetricResult, options: PairedOptions
                    ) -> Paired:
    """The two results paired as ``options`` say, what it would warn kept in the notes; no
    pair at all (or another metric on each side) is an error."""
    _check_metric(result_a, result_b)
    paired = pair_quietly(result_a, result_b, missing=options.missing,
                          min_queries=options.min_queries)
    if not paired.queries.size:
        raise InsufficientSampleError(0, 2)
    return paired


def _snapped(paired: Paired) -> tuple[np.ndarray, int]:
    """The per-query differences with float noise set to 0, and how many were; fewer than
    two is `InsufficientSampleError`."""
    deltas, n_snapped = snap(paired.deltas, no_difference_tolerance(paired.a, paired.b))
    if deltas.size < 2:
        raise InsufficientSampleError(deltas.size, 2)
    return deltas, n_snapped


def _t_notes(deltas: np.ndarray, t_test: object) -> tuple[Note, ...]:
    """A note when the t-test is undefined: every difference the same non-zero value."""
    if not math.isnan(getattr(t_test, "p_value", 0.0)):
        return ()
    return (Note(
        f"all {deltas.size} per-query differences are {float(deltas[0]):.6g}: with no spread the "
        "t-test is undefined (its p-value and interval are left empty); the permutation "
        "p-value and the sign-flip interval are the ones to read"),)


def _check_metric(result_a: MetricResult, result_b: MetricResult) -> None:
    if result_a.metric != result_b.metric:
        raise ValueError(
            f"both results must be of one metric, got {result_a.metric!r} and {result_b.metric!r}"
        )


def _compare_paired(metric: str, paired: Paired, options: PairedOptions
                    ) -> tuple[ComparisonResult, tuple[Note, ...]]:
    """The comparison on paired values, and what the interval has to say about itself."""
    deltas, n_snapped = _snapped(paired)
    method = resolve_interval(options.interval, deltas.size)
    if method in ("sign-flip", GUARDED):
        # one test: the interval and the p-value from the same sign patterns
        bootstrap, p_value, interval_notes = (sign_flip_test if method == "sign-flip" else
                                              skew_guarded_test)(
            deltas, alpha=options.alpha, n_permutations=options.n_permutations,
            seed=options.seed)
    else:
        bootstrap, interval_notes = mean_interval_with_notes(
            deltas, options.interval, options.alpha, options.n_resamples, options.seed)
        p_value = permutation_test(deltas, n_permutations=options.n_permutations,
                                   seed=options.seed)
    t_test = paired_t_test(deltas, alpha=options.alpha)
    interval_notes = (interval_notes + shape_notes(deltas, rejected=p_value <= options.alpha)
                      + _t_notes(deltas, t_test))
    return ComparisonResult(
        metric=metric,
        mean_a=float(paired.a.mean()),
        mean_b=float(paired.b.mean()),
        interval=bootstrap,
        p_value=p_value,
        t_test=t_test,
        outcomes=Outcomes(
            wins=int(np.count_nonzero(deltas > 0)),
            ties=int(np.count_nonzero(deltas == 0)),
            losses=int(np.count_nonzero(deltas < 0)),
        ),
        effect_size=effect_size(deltas),
        n_resamples=options.n_resamples,
        n_permutations=options.n_permutations,
        seed=options.seed,
        n_only_a=len(paired.only_a),
        n_only_b=len(paired.only_b),
        missing=options.missing,
        n_snapped=n_snapped,
    ), interval_notes
