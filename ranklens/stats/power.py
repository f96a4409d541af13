"""How many queries: power, minimum detectable effect and required sample size.

``method="z"`` (default) is the normal approximation of the methods page, whose closed
forms ignore the far tail. ``method="t"`` uses the noncentral t distribution of the paired
t-test, as Sakai's topic set size design does; it asks for a few more queries, which
matters below about 30.
"""

from __future__ import annotations

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
    if method not in POWER_METHODS:
        raise ValueError(f"method must be one of {POWER_METHODS}, got {method!r}")


def _factor(alpha: float, power: float) -> float:
    return normal_quantile(1.0 - alpha / 2.0) + normal_quantile(power)


def power(
    delta: float, sd: float, n_queries: int, *, alpha: float = 0.05, method: str = "z"
) -> float:
    """Probability that a two-sided test at ``alpha`` on ``n_queries`` detects ``delta``.

    ``sd`` is the standard deviation of the per-query differences. Both tails count, so at
    ``delta = 0`` the power is ``alpha``. ``method="t"``: the paired t-test, via the
    noncentral t with ``n_queries - 1`` degrees of freedom.
    """
    check_probability("alpha", alpha)
    _check_method(method)
    if sd < 0:
        raise ValueError(f"sd must be >= 0, got {sd}")
    _check_n(n_queries)
    if sd == 0.0:
        return alpha if delta == 0.0 else 1.0
    noncentrality = abs(delta) * math.sqrt(n_queries) / sd
    if method == "t":
        critical = t_quantile(1.0 - alpha / 2.0, n_queries - 1)
        return t_power(noncentrality, n_queries - 1, critical)
    critical = normal_quantile(1.0 - alpha / 2.0)
    return normal_cdf(noncentrality - critical) + normal_cdf(-noncentrality - critical)


def minimum_detectable_effect(
    sd: float, n_queries: int, *, alpha: float = 0.05, power: float = 0.8, method: str = "z"
) -> float:
    """Smallest true difference that would be detected with probability ``power``.

    MDE = (z(1 - alpha/2) + z(power)) * sd / sqrt(n), where ``sd`` is the standard
    deviation of the per-query differences. A smaller difference is not "absent":
    it is simply below the resolution of this many queries. ``method="t"`` solves the
    noncentral-t power equation of the paired t-test instead (a larger MDE on few queries).
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
    return _solve_delta(sd, n_queries, alpha, power, start=closed_form)


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
    delta: float, sd: float, *, alpha: float = 0.05, power: float = 0.8, method: str = "z"
) -> int:
    """How many paired queries are needed to detect a difference of ``delta``.

    Never fewer than 2: below that no test can tell a difference from noise, even when
    ``sd`` is 0. ``method="t"``: the smallest n whose paired t-test reaches ``power``.
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
    while _power_t(delta, sd, n, alpha) < power:
        n += 1
    while n > MIN_POWER_QUERIES and _power_t(delta, sd, n - 1, alpha) >= power:
        n -= 1
    return n


def standard_deviation(deltas: Sequence[float] | Deltas) -> float:
    """Standard deviation of per-query differences, as the two functions above expect."""
    values = as_deltas(deltas) if len(deltas) else np.empty(0)
    if values.size < 2:
        raise ValueError("at least two differences are needed to estimate a spread")
    return float(values.std(ddof=1))
