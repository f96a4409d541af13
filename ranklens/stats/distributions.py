"""Normal, Student t and noncentral t probabilities, with the standard library and numpy only.

scipy is not a runtime dependency of ranklens; these are checked against it in the tests.
The Student t goes through the regularized incomplete beta function, evaluated by its
continued fraction (modified Lentz), which keeps small tail probabilities accurate.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from ranklens.stats.errors import check_probability

_NORMAL = NormalDist()
_TINY = 1e-300
_EPS = 1e-15
_MAX_TERMS = 100_000


def normal_cdf(x: float) -> float:
    """P(Z <= x) for a standard normal Z, accurate far into the lower tail."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def normal_two_sided(z: float) -> float:
    """P(|Z| >= |z|) = 2 * Phi(-|z|), without the underflow of 1 - Phi(|z|)."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def normal_quantile(q: float) -> float:
    """x with P(Z <= x) = q."""
    return _NORMAL.inv_cdf(q)


def _continued_fraction(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (converges for x < (a+1)/(a+b+2))."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    result = d
    for m in range(1, _MAX_TERMS):
        m2 = 2 * m
        numerator = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + numerator * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + numerator / c
        c = c if abs(c) > _TINY else _TINY
        result *= d * c
        numerator = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + numerator * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + numerator / c
        c = c if abs(c) > _TINY else _TINY
        step = d * c
        result *= step
        if abs(step - 1.0) < _EPS:
            return result
    raise ArithmeticError(f"incomplete beta did not converge for a={a}, b={b}, x={x}")


def regularized_beta(a: float, b: float, x: float, x_complement: float | None = None) -> float:
    """I_x(a, b), the regularized incomplete beta function.

    ``x_complement`` is 1 - x when the caller knows it more precisely than ``1 - x``.
    """
    xc = 1.0 - x if x_complement is None else x_complement
    if x <= 0.0:
        return 0.0
    if xc <= 0.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(xc)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _continued_fraction(b, a, xc) / b


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's T with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError(f"df must be > 0, got {df}")
    if math.isinf(t):
        return 0.0
    if t == 0.0:
        return 1.0
    square = t * t
    # x = df / (df + t^2) and 1 - x = t^2 / (df + t^2), each computed without cancellation
    return regularized_beta(df / 2.0, 0.5, df / (df + square), square / (df + square))


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's T with ``df`` degrees of freedom."""
    tail = t_two_sided(t, df) / 2.0
    return tail if t < 0 else 1.0 - tail


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's T with ``df`` degrees of freedom."""
    return t_cdf(-t, df)


def _t_log_pdf(t: float, df: float) -> float:
    return (
        math.lgamma((df + 1.0) / 2.0)
        - math.lgamma(df / 2.0)
        - 0.5 * math.log(df * math.pi)
        - (df + 1.0) / 2.0 * math.log1p(t * t / df)
    )


def t_quantile(q: float, df: float) -> float:
    """t with P(T <= t) = q for Student's T with ``df`` degrees of freedom."""
    check_probability("q", q)
    if df <= 0:
        raise ValueError(f"df must be > 0, got {df}")
    if q == 0.5:
        return 0.0
    tail = min(q, 1.0 - q)
    # Newton on the upper tail, from the normal quantile: the tail is convex and decreasing
    # there and the t quantile lies beyond the normal one, so the steps approach from below
    # without overshooting.
    t = max(0.0, -normal_quantile(tail))
    previous = math.inf
    for _ in range(2_000):
        step = (t_sf(t, df) - tail) / math.exp(_t_log_pdf(t, df))
        t += step
        close = abs(step) <= 1e-9 * max(1.0, t)
        # done when the step is negligible, or when near the root it stops shrinking (the
        # rounding noise of the tail probability is all that is left)
        if abs(step) <= 1e-13 * max(1.0, t) or (close and abs(step) >= previous):
            break
        previous = abs(step)
    return t if q > 0.5 else -t


def _erfc(values: np.ndarray) -> np.ndarray:
    return np.fromiter((math.erfc(value) for value in values.ravel()), np.float64, values.size)


def t_power(noncentrality: float, df: float, critical: float, *, points: int = 4001) -> float:
    """P(|T'| > critical) for the noncentral t with ``df`` and ``noncentrality``.

    T' = (Z + ncp) / U with U = sqrt(chi2_df / df), so the probability is the average over U
    of Phi(ncp - critical * U) + Phi(-ncp - critical * U): integrated with Simpson's rule on
    the range where U has any mass.
    """
    if df <= 0:
        raise ValueError(f"df must be > 0, got {df}")
    # sd of U is about 1 / sqrt(2 df); its tails are no heavier than a normal's beyond that
    spread = 1.0 / math.sqrt(2.0 * df)
    low = max(0.0, 1.0 - 20.0 * spread)
    high = 1.0 + 20.0 * spread
    u = np.linspace(low, high, points)
    log_density = (
        math.log(2.0)
        + (df / 2.0) * math.log(df / 2.0)
        - math.lgamma(df / 2.0)
        + (df - 1.0) * np.log(np.maximum(u, _TINY))  # at u = 0 the density is 0 (or 1/df=1)
        - df * u * u / 2.0
    )
    density = np.exp(log_density)
    root2 = math.sqrt(2.0)
    inside = 0.5 * _erfc(-(noncentrality - critical * u) / root2) + 0.5 * _erfc(
        -(-noncentrality - critical * u) / root2
    )
    weights = np.ones(points)
    weights[1:-1:2], weights[2:-1:2] = 4.0, 2.0
    step = (high - low) / (points - 1)
    return float(min(1.0, np.sum(weights * density * inside) * step / 3.0))
