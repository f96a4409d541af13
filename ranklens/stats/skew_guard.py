"""The skew-guarded test: the sign-flip test and a skewness-corrected t-test, the more cautious.

Why. The sign-flip p-value (`ranklens.stats.permutation_test`) is exact when the per-query
differences are symmetric under no difference. Skewed differences with mean 0 are not: a few
large gains beside many small losses. At alpha = .05 that costs little, but BH over a family
of segments needs tiny levels (R alpha / m: .00125-.005 for 40 segments), and there the
sign-flip p of centred exponential differences (skewness 2) rejects 2.5 to 7 times as often as
its level, at 12 queries and still at 150 (issue 45; the grid in docs/validity.md). The false
coverage rate of the FCR intervals then came to .09-.10 instead of .05.

What. The skewness-corrected t statistic of Hall ("On the removal of skewness by
transformation", JRSS B 54, 1992, 221-228): with W = (mean - mu) / s (s: the sample standard
deviation, ddof 1) and g the sample skewness (m3 / m2^1.5),

    T(mu) = sqrt(n) * (W + g / (6 n) + g W^2 / 3 + g^2 W^3 / 27),

which removes the first-order skewness term of the Edgeworth expansion of the t statistic and
is increasing in W (its derivative is sqrt(n) (1 + g W / 3)^2), so it can be inverted in closed
form. Its two-sided p-value reads T against Student's t with n - 1 degrees of freedom.

Tied queries. A pile of exactly tied queries (difference 0) makes the sample look less skewed
and larger than the part that carries the mean: with k of n queries changed, the mean of all
is mu exactly when the mean of the changed ones is mu n / k, so Hall's test is taken on the
changed queries, with their own k, spread and skewness, and its interval scaled back by k / n
(conditional on k). Without ties it is Hall's test of all the differences.

The skew-guarded p-value is the larger of the sign-flip p and Hall's p; its interval is every
mu that either test keeps, the hull of the two intervals (both contain the mean), so it excludes
0 exactly when the guarded p is at most alpha. Where the differences are symmetric the sign-flip
test already holds and the guard costs little power (40 segments of 12-150 normal queries:
BH power .898 against .905); where they are skewed Hall's correction catches what the
sign-flip test lets through (centred exponential: false coverage .043 against .112).

What it does not do. No test can hold its level for every skewed population at small n (the
sample may not show the tail that makes the mean 0: Bahadur and Savage, 1956). With lognormal
differences (skewness 6) or 70% tied queries and a skewed rest, the guard lowers the false
coverage rate of the FCR intervals but not to alpha (docs/validity.md); `ranklens.stats.shape`
notes such samples.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ranklens.stats.distributions import t_quantile, t_two_sided
from ranklens.stats.errors import check_probability
from ranklens.stats.notes import Note
from ranklens.stats.pairing import Deltas, as_deltas, sample_sd
from ranklens.stats.results import MeanDifferenceInterval, Seed
from ranklens.stats.shape import skewness
from ranklens.stats.sign_flip import DEFAULT_PATTERNS, sign_flip_test

GUARDED = "skew-guarded"
"""The method name a skew-guarded interval records."""


def hall_statistic(estimate: float, sd: float, g: float, n: int, mu: float = 0.0) -> float:
    """Hall's skewness-corrected t statistic T(mu) (module docstring) for a sample of ``n``
    with mean ``estimate``, standard deviation ``sd`` (> 0) and skewness ``g``."""
    w = (estimate - mu) / sd
    return math.sqrt(n) * (w + g / (6.0 * n) + g * w * w / 3.0 + g * g * w**3 / 27.0)


def changed_summary(values: Deltas) -> tuple[int, float, float]:
    """The number of changed queries (difference not exactly 0), their standard deviation
    (ddof 1) and skewness: what Hall's part of the guard reads (0, 0 below two)."""
    changed = values[values != 0.0]
    if changed.size < 2:
        return int(changed.size), 0.0, 0.0
    return int(changed.size), sample_sd(changed), skewness(changed)


def hall_p_value(deltas: Sequence[float] | Deltas, mu: float = 0.0) -> float:
    """Two-sided p-value of Hall's statistic for "the mean of ``deltas`` is ``mu``", computed on
    the changed queries (module docstring): with k of n changed, the mean of all is ``mu``
    exactly when the mean of the changed ones is ``mu n / k``, and Hall's correction is read
    with their own n, spread and skewness (Student's t with k - 1 df). Without ties this is
    Hall's test of all the differences. Changed queries with no spread (fewer than two, or all
    one value) have no such p: 1 when their mean is the one tested, else 0 (nothing to add to
    the sign-flip p, which the guard keeps)."""
    values = as_deltas(deltas)
    n = values.size
    k, sd, g = changed_summary(values)
    if k == 0:
        return 1.0 if mu == 0.0 else 0.0
    mean_changed = float(values.mean()) * n / k
    tested = mu * n / k
    if sd == 0.0:
        return 1.0 if mean_changed == tested else 0.0
    return t_two_sided(hall_statistic(mean_changed, sd, g, k, tested), k - 1.0)


def hall_ends(estimate: float, standard_error: float, g: float, n: int, alpha: float
              ) -> tuple[float, float]:
    """The ``1 - alpha`` interval of Hall's test inverted: every mu with |T(mu)| below the t
    quantile, for a sample of ``n`` with mean ``estimate``, standard error ``standard_error``
    (sd / sqrt(n)) and skewness ``g``. Closed form (T is a cubic in W = (estimate - mu) / sd,
    increasing); the point ``estimate`` when the standard error is 0."""
    check_probability("alpha", alpha)
    if standard_error == 0.0:
        return estimate, estimate
    sd = standard_error * math.sqrt(n)
    c = t_quantile(1.0 - alpha / 2.0, n - 1.0)

    def w_at(t: float) -> float:  # W with T = t
        r = t / math.sqrt(n) - g / (6.0 * n)
        # W = 3 (c - 1) / g with c = cbrt(1 + g r), written as 3 r / (c^2 + c + 1) (c^3 - 1 =
        # (c - 1)(c^2 + c + 1)): no cancellation when g is tiny (a symmetric sample's skewness
        # is float noise, 1e-16, and 1 + g r rounds to 1), and W = r at g = 0
        c = float(np.cbrt(1.0 + g * r))
        return 3.0 * r / (c * c + c + 1.0)

    return estimate - sd * w_at(c), estimate - sd * w_at(-c)


def guard_ends(estimate: float, n: int, k: int, sd: float, g: float, alpha: float
               ) -> tuple[float, float]:
    """Hall's ``1 - alpha`` interval of the mean of all ``n`` differences (mean ``estimate``)
    from their ``k`` changed ones (standard deviation ``sd``, skewness ``g``,
    `changed_summary`): Hall's interval of the changed ones' mean, times k / n. The point
    ``estimate`` when the changed ones have no spread."""
    check_probability("alpha", alpha)
    if k < 2 or sd == 0.0:
        return estimate, estimate
    low, high = hall_ends(estimate * n / k, sd / math.sqrt(k), g, k, alpha)
    return low * k / n, high * k / n


def skew_guarded_test(
    deltas: Sequence[float] | Deltas,
    *,
    alpha: float = 0.05,
    n_permutations: int = DEFAULT_PATTERNS,
    seed: Seed = 0,
) -> tuple[MeanDifferenceInterval, float, tuple[Note, ...]]:
    """The skew-guarded interval, its p-value at 0 and its notes (module docstring).

    The p-value is ``max(sign-flip p, Hall's p)``, the sign-flip one from
    `permutation_test`'s patterns with the same ``n_permutations`` and ``seed``; the interval
    is the hull of the sign-flip interval (`ranklens.stats.sign_flip_interval`) and Hall's, so
    it excludes 0 exactly when the p-value is at most ``alpha``. It answers "is the mean
    difference told apart from 0, with skewed differences not let through at small levels";
    it is no exact test for every skewed population (module docstring). The result records
    ``method="skew-guarded"``; its ``n_resamples`` and ``seed`` are the sign-flip part's.
    """
    flip, flip_p, notes = sign_flip_test(deltas, alpha=alpha, n_permutations=n_permutations,
                                         seed=seed)
    values = as_deltas(deltas)
    n = values.size
    k, sd, g = changed_summary(values)
    low, high = guard_ends(flip.delta, n, k, sd, g, alpha)
    interval = MeanDifferenceInterval(
        delta=flip.delta, low=min(flip.low, low), high=max(flip.high, high), alpha=alpha,
        n_queries=n, n_resamples=flip.n_resamples, seed=flip.seed, method=GUARDED)
    return interval, max(flip_p, hall_p_value(values)), notes
