"""How many queries: power, minimum detectable effect and required sample size.

``method="z"`` is the normal approximation of the methods page, whose closed forms ignore the
far tail and treat the spread as known. ``method="t"`` uses the noncentral t distribution of
the paired t-test, as Sakai's topic set size design does; it asks for a few more queries.

``method="auto"`` (the default since 0.3, issue 45) answers with z where the reader could not
tell the difference and with t where they could. The rule: the z answer is kept when its real
power under the paired t-test falls short of the asked power by at most `AUTO_TOLERANCE`
(0.01, one point of power); otherwise the t answer is given. At alpha 0.05 and power 0.8 that
is t below about 80 queries (an MDE computed with z for 80% power has 70% real power at 10
queries, 56% at 5) and z from there on, where the two MDEs differ by less than 1.3%: the
methods page's worked examples (sd 0.1: MDE 0.0198 at 200 queries; 197 / 785 / 3,140 queries
for +0.02 / +0.01 / +0.005) keep their z numbers. For `power` itself, auto gives the t power
when it differs from the z one by more than that tolerance.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Literal, get_args

import numpy as np

from ranklens.stats.distributions import normal_cdf, normal_quantile, t_power, t_quantile
from ranklens.stats.errors import check_probability
from ranklens.stats.pairing import Deltas, as_deltas

PowerMethod = Literal["z", "t"]
"""How power and the MDE are computed: the normal approximation or the t distribution."""

POWER_METHODS: tuple[PowerMethod, ...] = get_args(PowerMethod)
"""The methods a caller picks by name ("auto", the default of the functions here, chooses one
of them by the module docstring's rule)."""

AUTO_TOLERANCE = 0.01
"""``method="auto"`` keeps the z answer while its real (t-test) power is at most this short of
the asked power (module docstring)."""

MIN_POWER_QUERIES = 2
"""The fewest queries `power` and `minimum_detectable_effect` accept and `required_queries`
returns: on one query no test can tell a difference from noise (there is no spread to
measure it against)."""


def _check_n(n_queries: int) -> None:
    if n_queries < MIN_POWER_QUERIES:
        raise ValueError(
            f"n_queries must be >= {MIN_POWER_QUERIES}, got {n_queries}: on fewer queries no "
            "test can tell a difference from noise"
        )


def _check(alpha: float, power: float) -> None:
    check_probability("alpha", alpha)
    check_probability("power", power)


def _check_method(method: str) -> None:
    if method != "auto" and method not in POWER_METHODS:
        raise ValueError(f"method must be one of {('auto', *POWER_METHODS)}, got {method!r}")


def _factor(alpha: float, power: float) -> float:
    return normal_quantile(1.0 - alpha / 2.0) + normal_quantile(power)


def power(
    delta: float, sd: float, n_queries: int, *, alpha: float = 0.05, method: str = "auto"
) -> float:
    """Probability that a two-sided test at ``alpha`` on ``n_queries`` detects ``delta``.

    ``sd`` is the standard deviation of the per-query differences. Both tails count, so at
    ``delta = 0`` the power is ``alpha``. ``method="t"``: the paired t-test, via the
    noncentral t with ``n_queries - 1`` degrees of freedom; "auto" (default): the t power
    when it differs from the z one by more than `AUTO_TOLERANCE`, else the z one.
    """
    check_probability("alpha", alpha)
    _check_method(method)
    if sd < 0:
        raise ValueError(f"sd must be >= 0, got {sd}")
    _check_n(n_queries)
    if sd == 0.0:
        return alpha if delta == 0.0 else 1.0
    noncentrality = abs(delta) * math.sqrt(n_queries) / sd
    if method == "auto":
        z_power = power(delta, sd, n_queries, alpha=alpha, method="z")
        t_power_ = power(delta, sd, n_queries, alpha=alpha, method="t")
        return t_power_ if abs(t_power_ - z_power) > AUTO_TOLERANCE else z_power
    if method == "t":
        critical = t_quantile(1.0 - alpha / 2.0, n_queries - 1)
        return t_power(noncentrality, n_queries - 1, critical)
    critical = normal_quantile(1.0 - alpha / 2.0)
    return normal_cdf(noncentrality - critical) + normal_cdf(-noncentrality - critical)


def minimum_detectable_effect(
    sd: float, n_queries: int, *, alpha: float = 0.05, power: float = 0.8, method: str = "auto"
) -> float:
    """Smallest true difference that would be detected with probability ``power``.

    MDE = (z(1 - alpha/2) + z(power)) * sd / sqrt(n), where ``sd`` is the standard
    deviation of the per-query differences. A smaller difference is not "absent":
    it is simply below the resolution of this many queries. ``method="t"`` solves the
    noncentral-t power equation of the paired t-test instead (a larger MDE on few queries);
    "auto" (default) the t one where the z one's real power falls more than `AUTO_TOLERANCE`
    short of ``power`` (below about 80 queries at the defaults), else the z formula above.
    Needs ``n_queries >= 2``, like `power` (`MIN_POWER_QUERIES`).
    """
    _check(alpha, power)
    _check_method(method)
    if sd < 0:
        raise ValueError(f"sd must be >= 0, got {sd}")
    _check_n(n_queries)
    closed_form = float(_factor(alpha, power) * sd / np.sqrt(n_queries))
    if method == "z" or sd == 0.0:
        return closed_form
    if method == "auto" and _power_t(closed_form, sd, n_queries, alpha) >= power - AUTO_TOLERANCE:
        return closed_form
    return _solve_delta(sd, n_queries, alpha, power, start=closed_form)


def auto_method(n_queries: int, *, alpha: float = 0.05, power: float = 0.8) -> PowerMethod:
    """The method ``minimum_detectable_effect(..., method="auto")`` answers with at
    ``n_queries``: "z" when the z MDE's real power under the paired t-test is at most
    `AUTO_TOLERANCE` short of ``power``, else "t" (the module docstring's rule; it does not
    depend on the spread). It says which formula, not whether the plan's spread is right."""
    _check(alpha, power)
    _check_n(n_queries)
    closed_form = float(_factor(alpha, power) / np.sqrt(n_queries))  # sd 1: the rule is in sd
    return "z" if _power_t(closed_form, 1.0, n_queries, alpha) >= power - AUTO_TOLERANCE else "t"


@functools.lru_cache(maxsize=256)
def z_kept_from(*, alpha: float = 0.05, power: float = 0.8) -> int:
    """Fewest queries from which `auto_method` keeps z (78 at alpha .05 and power .8): below
    it ``method="auto"`` gives the t MDE. Found by counting up from 2 (the rule moves to z once
    and stays: the t-test's loss against z shrinks as n grows); at most 1,000,000."""
    _check(alpha, power)
    n = MIN_POWER_QUERIES
    while n < 1_000_000 and auto_method(n, alpha=alpha, power=power) == "t":
        n += 1
    return n


def _solve_delta(sd: float, n_queries: int, alpha: float, target: float, start: float) -> float:
    """Smallest delta whose t-test power reaches ``target`` (bisection; power rises with delta)."""
    low, high = 0.0, start
    while _power_t(high, sd, n_queries, alpha) < target:
        low, high = high, high * 2.0
    for _ in range(200):
        middle = (low + high) / 2.0
        if _power_t(middle, sd, n_queries, alpha) < target:
            low = middle
        else:
            high = middle
        if high - low <= 1e-12 * high:
            break
    return high


def _power_t(delta: float, sd: float, n_queries: int, alpha: float) -> float:
    return power(delta, sd, n_queries, alpha=alpha, method="t")


def required_queries(
    delta: float, sd: float, *, alpha: float = 0.05, power: float = 0.8, method: str = "auto"
) -> int:
    """How many paired queries are needed to detect a difference of ``delta``.

    Never fewer than 2: below that no test can tell a difference from noise, even when
    ``sd`` is 0. ``method="t"``: the smallest n whose paired t-test reaches ``power``;
    "auto" (default): the z count unless its real power falls more than `AUTO_TOLERANCE`
    short of ``power``, then the t count.
    """
    _check(alpha, power)
    _check_method(method)
    if delta <= 0:
        raise ValueError(f"delta must be > 0, got {delta}")
    if sd < 0:
        raise ValueError(f"sd must be >= 0, got {sd}")
    n = max(MIN_POWER_QUERIES, math.ceil((_factor(alpha, power) * sd / delta) ** 2))
    if method == "z" or sd == 0.0:
        return n
    if method == "auto" and _power_t(delta, sd, n, alpha) >= power - AUTO_TOLERANCE:
        return n
    return _smallest_t_n(delta, sd, alpha, power, n)


def _smallest_t_n(delta: float, sd: float, alpha: float, target: float, start: int) -> int:
    """Fewest queries (at least `MIN_POWER_QUERIES`) whose paired t-test has power ``target``
    for ``delta``: steps up from ``start`` by doubling strides until one passes, then bisects
    (power rises with n). Logarithmic in n: a plan of millions of queries (a tiny difference
    against a wide spread) takes some 50 power evaluations, not millions."""
    failing, passing, stride = MIN_POWER_QUERIES - 1, start, 1
    while _power_t(delta, sd, passing, alpha) < target:
        failing, passing, stride = passing, passing + stride, stride * 2
    while passing - failing > 1:
        middle = (failing + passing) // 2
        if _power_t(delta, sd, middle, alpha) >= target:
            passing = middle
        else:
            failing = middle
    return passing


def standard_deviation(deltas: Sequence[float] | Deltas) -> float:
    """Standard deviation of per-query differences, as the two functions above expect."""
    values = as_deltas(deltas) if len(deltas) else np.empty(0)
    if values.size < 2:
        raise ValueError("at least two differences are needed to estimate a spread")
    return float(values.std(ddof=1))
