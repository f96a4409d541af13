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
deviation, ddof 1) and g the sample skewness (the adjusted G1, below),

    T(mu) = sqrt(n) * (W + g / (6 n) + g W^2 / 3 + g^2 W^3 / 27),

which removes the first-order skewness term of the Edgeworth expansion of the t statistic and
is increasing in W (its derivative is sqrt(n) (1 + g W / 3)^2), so it can be inverted in closed
form. Its two-sided p-value reads T against Student's t with n - 1 degrees of freedom.

Tied queries. A pile of exactly tied queries (difference 0) makes the sample look less skewed
and larger than the part that carries the mean: with k of n queries changed, the mean of all
is mu exactly when the mean of the changed ones is mu n / k, so Hall's test is taken on the
changed queries, with their own k, spread and skewness, and its interval scaled back by k / n
(conditional on k). That interval ignores how k itself varies from sample to sample, which
matters away from 0: with 70% tied queries and a real difference its FCR-adjusted intervals
missed the true difference too often. So Hall's test of all n differences (the tied ones
counted, with their spread and skewness) is a part of the guard too. Without ties the two are
one test.

Skewness. Hall's statistic reads the adjusted skewness G1 = g sqrt(k (k - 1)) / (k - 2) (g:
the moment ratio m3 / m2^1.5; scipy's ``skew(bias=False)``), which undoes the plug-in
skewness's shrinkage toward 0 in small samples; with g the guard let too many null segments
of 10-45 changed queries through at BH's levels.

Few changed queries among many tied. A sample of k changed queries from a skewed population
with mean 0 shows no tail with a chance the test cannot see: k draws of a centred exponential
all fall below its mean with probability (1 - 1/e)^k, and then every test above calls the
sample a clear loss. Where the queries are mostly tied (`ranklens.stats.shape`'s rule: half or
more tied, fewer than 50 changed) the guarded p of "no difference" is at least that,
``TAIL_SHARE ** k`` (.10 at 5 changed queries, .01 at 10, .001 at 15), and the interval reaches
0 when that floor is above alpha. At alpha = .05 it binds only below 7 changed queries (where
the sign-flip p alone needs 6); it matters at BH's levels, where it keeps small tied segments
from being selected on a run of same-signed changes (docs/validity.md, "FCR-adjusted segment
intervals", and ``bench/validity_fcr_tied.py``).

The skew-guarded p-value is the largest of the sign-flip p, the two Hall p and the floor;
its interval is every mu that any of the tests keeps, the hull of the intervals (all contain
the mean), so it excludes 0 exactly when the guarded p is at most alpha. Where the
differences are symmetric the sign-flip test already holds and the guard costs little power
(40 segments of 12-150 normal queries: BH power .898 against .905); where they are skewed
Hall's correction catches what the sign-flip test lets through (centred exponential: false
coverage .043 against .112).

What it does not do. No test can hold its level for every skewed population at small n (the
sample may not show the tail that makes the mean 0: Bahadur and Savage, 1956). With lognormal
differences (skewness 6) the guard lowers the false coverage rate of the FCR intervals but not
to alpha (docs/validity.md); `ranklens.stats.shape` notes such samples. Bounded-mean tests
valid at any n (betting, empirical Bernstein: per-query differences lie in [-1, 1]) were
tried as a third guard and selected almost nothing: a range of 2 beside differences of spread
0.1 leaves them no power at segment sizes (``bench/validity_fcr_tied.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ranklens.stats.distributions import t_quantile, t_two_sided
from ranklens.stats.errors import check_probability
from ranklens.stats.notes import Note
from ranklens.stats.pairing import Deltas, as_deltas, sample_sd
from ranklens.stats.results import MeanDifferenceInterval, Seed
from ranklens.stats.shape import adjusted_skewness, mostly_tied
from ranklens.stats.sign_flip import DEFAULT_PATTERNS, sign_flip_test

GUARDED = "skew-guarded"
"""The method name a skew-guarded interval records."""


def hall_statistic(estimate: float, sd: float, g: float, n: int, mu: float = 0.0) -> float:
    """Hall's skewness-corrected t statistic T(mu) (module docstring) for a sample of ``n``
    with mean ``estimate``, standard deviation ``sd`` (> 0) and skewness ``g``."""
    w = (estimate - mu) / sd
    return math.sqrt(n) * (w + g / (6.0 * n) + g * w * w / 3.0 + g * g * w**3 / 27.0)


TAIL_SHARE = 1.0 - math.exp(-1.0)
"""The share of a centred exponential below its mean (1 - 1/e): the floor of the guarded p at
k changed queries is ``TAIL_SHARE ** k`` (module docstring, "Few changed queries")."""


@dataclass(frozen=True)
class GuardSummary:
    """What Hall's part of the guard reads off the differences: their number ``n``, the ``k``
    changed ones' (difference not exactly 0) standard deviation (ddof 1) and adjusted skewness
    (`adjusted_skewness`), and the same of all ``n``. Spread and skewness are 0 below two
    (three for the skewness)."""

    n: int
    k: int
    changed_sd: float
    changed_skewness: float
    sd: float
    skewness: float

    @property
    def floor(self) -> float:
        """The smallest guarded p-value of "no difference": ``TAIL_SHARE ** k`` when the
        queries are mostly tied (`ranklens.stats.shape.mostly_tied`), else 0; 1 with no
        changed query."""
        if not self.k:
            return 1.0
        return TAIL_SHARE**self.k if mostly_tied(self.n, self.k) else 0.0


def _spread(values: Deltas) -> tuple[float, float]:
    if values.size < 2:
        return 0.0, 0.0
    return sample_sd(values), adjusted_skewness(values)


def guard_summary(deltas: Sequence[float] | Deltas) -> GuardSummary:
    """`GuardSummary` of ``deltas``."""
    values = as_deltas(deltas)
    changed = values[values != 0.0]
    return GuardSummary(values.size, int(changed.size), *_spread(changed), *_spread(values))


def _hall_p(mean: float, sd: float, g: float, n: int, tested: float) -> float:
    """Hall's two-sided p of "the mean is ``tested``" for a sample of ``n`` (mean, sd, skewness
    given); with no spread 1 when the mean is the one tested, else 0."""
    if n < 2 or sd == 0.0:
        return 1.0 if mean == tested else 0.0
    return t_two_sided(hall_statistic(mean, sd, g, n, tested), n - 1.0)


def hall_p_value(deltas: Sequence[float] | Deltas, mu: float = 0.0) -> float:
    """Two-sided p-value of Hall's statistic for "the mean of ``deltas`` is ``mu``", computed on
    the changed queries (module docstring): with k of n changed, the mean of all is ``mu``
    exactly when the mean of the changed ones is ``mu n / k``, and Hall's correction is read
    with their own n, spread and adjusted skewness (Student's t with k - 1 df). Without ties
    this is Hall's test of all the differences. Changed queries with no spread (fewer than two,
    or all one value) have no such p: 1 when their mean is the one tested, else 0 (nothing to
    add to the sign-flip p, which the guard keeps)."""
    values = as_deltas(deltas)
    n = values.size
    summary = guard_summary(values)
    if summary.k == 0:
        return 1.0 if mu == 0.0 else 0.0
    k = summary.k
    return _hall_p(float(values.mean()) * n / k, summary.changed_sd, summary.changed_skewness,
                   k, mu * n / k)


def guard_p_value(deltas: Sequence[float] | Deltas) -> float:
    """The Hall part of the guarded p-value of "no difference": the larger of Hall's p on the
    changed queries (`hall_p_value`), Hall's p on all the differences (the tied ones counted)
    and the floor ``TAIL_SHARE ** k`` (module docstring). 1 when no query changed."""
    values = as_deltas(deltas)
    summary = guard_summary(values)
    if summary.k == 0:
        return 1.0
    all_p = _hall_p(float(values.mean()), summary.sd, summary.skewness, summary.n, 0.0)
    return max(hall_p_value(values), all_p, summary.floor)


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


def guard_ends(estimate: float, summary: GuardSummary, alpha: float) -> tuple[float, float]:
    """The Hall part of the guarded ``1 - alpha`` interval of the mean of all the differences
    (mean ``estimate``, `GuardSummary` ``summary``): the hull of Hall's interval of the changed
    ones' mean times k / n and Hall's interval of all of them, widened to 0 when the floor
    ``TAIL_SHARE ** k`` is above ``alpha`` (so it excludes 0 exactly when `guard_p_value` is at
    most ``alpha``). A Hall interval whose sample has no spread is the point ``estimate``."""
    check_probability("alpha", alpha)
    n, k = summary.n, summary.k
    low = high = estimate
    if k >= 2 and summary.changed_sd > 0.0:
        c_low, c_high = hall_ends(estimate * n / k, summary.changed_sd / math.sqrt(k),
                                  summary.changed_skewness, k, alpha)
        low, high = min(low, c_low * k / n), max(high, c_high * k / n)
    if summary.sd > 0.0:
        a_low, a_high = hall_ends(estimate, summary.sd / math.sqrt(n), summary.skewness, n,
                                  alpha)
        low, high = min(low, a_low), max(high, a_high)
    if summary.floor > alpha:
        low, high = min(low, 0.0), max(high, 0.0)
    return low, high


def skew_guarded_test(
    deltas: Sequence[float] | Deltas,
    *,
    alpha: float = 0.05,
    n_permutations: int = DEFAULT_PATTERNS,
    seed: Seed = 0,
) -> tuple[MeanDifferenceInterval, float, tuple[Note, ...]]:
    """The skew-guarded interval, its p-value at 0 and its notes (module docstring).

    The p-value is ``max(sign-flip p, guard_p_value)``, the sign-flip one from
    `permutation_test`'s patterns with the same ``n_permutations`` and ``seed``; the interval
    is the hull of the sign-flip interval (`ranklens.stats.sign_flip_interval`) and
    `guard_ends`, so it excludes 0 exactly when the p-value is at most ``alpha``. It answers "is
    the mean difference told apart from 0, with skewed differences not let through at small levels";
    it is no exact test for every skewed population (module docstring). The result records
    ``method="skew-guarded"``; its ``n_resamples`` and ``seed`` are the sign-flip part's.
    """
    flip, flip_p, notes = sign_flip_test(deltas, alpha=alpha, n_permutations=n_permutations,
                                         seed=seed)
    values = as_deltas(deltas)
    n = values.size
    low, high = guard_ends(flip.delta, guard_summary(values), alpha)
    interval = MeanDifferenceInterval(
        delta=flip.delta, low=min(flip.low, low), high=max(flip.high, high), alpha=alpha,
        n_queries=n, n_resamples=flip.n_resamples, seed=flip.seed, method=GUARDED)
    return interval, max(flip_p, guard_p_value(values)), notes
