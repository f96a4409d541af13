"""Normal, Student t and noncentral t probabilities: thin wrappers over ``scipy.special``.

The names are what the rest of ranklens.stats calls; the numbers come from scipy's
Cephes/Boost routines (``ndtr``, ``ndtri``, ``stdtr``, ``stdtrit``, ``nctdtr``, ``betainc``).
Only ``scipy.special`` is used, never ``scipy.stats``, and it is imported on the first call
rather than with the package: ``import ranklens.stats`` (and so ``ranklens --help``) stays
free of scipy's start-up cost, which only the commands that compute a probability pay.
"""

from __future__ import annotations

import math
from functools import cache
from types import ModuleType

from ranklens.stats.errors import check_probability


@cache
def _special() -> ModuleType:
    import scipy.special  # deferred: see the module docstring

    return scipy.special


def _check_df(df: float) -> None:
    if not df > 0:
        raise ValueError(f"df must be > 0, got {df}")


def normal_cdf(x: float) -> float:
    """P(Z <= x) for a standard normal Z, accurate far into the lower tail."""
    return float(_special().ndtr(x))


def normal_two_sided(z: float) -> float:
    """P(|Z| >= |z|) = 2 * Phi(-|z|), without the underflow of 1 - Phi(|z|)."""
    return 2.0 * float(_special().ndtr(-abs(z)))


def normal_quantile(q: float) -> float:
    """x with P(Z <= x) = q."""
    check_probability("q", q)
    return float(_special().ndtri(q))


def regularized_beta(a: float, b: float, x: float, x_complement: float | None = None) -> float:
    """I_x(a, b), the regularized incomplete beta function.

    ``x_complement`` is 1 - x when the caller knows it more precisely than ``1 - x``; near
    x = 1 the value is then computed from it (I_x(a, b) = 1 - I_{1-x}(b, a)).
    """
    special = _special()
    if x_complement is not None and x_complement < 0.5:
        return float(special.betaincc(b, a, x_complement))
    return float(special.betainc(a, b, x))


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's T with ``df`` degrees of freedom."""
    _check_df(df)
    return 2.0 * float(_special().stdtr(df, -abs(t)))


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's T with ``df`` degrees of freedom."""
    _check_df(df)
    return float(_special().stdtr(df, t))


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's T with ``df`` degrees of freedom."""
    return t_cdf(-t, df)


def t_quantile(q: float, df: float) -> float:
    """t with P(T <= t) = q for Student's T with ``df`` degrees of freedom."""
    check_probability("q", q)
    _check_df(df)
    return float(_special().stdtrit(df, q))


def t_ends(estimate: float, standard_error: float, df: float, alpha: float
           ) -> tuple[float, float]:
    """``estimate`` -/+ the ``1 - alpha/2`` quantile of Student's t with ``df`` times
    ``standard_error``: a t-interval's ends (the estimate twice when nothing varies)."""
    if standard_error == 0.0:
        return estimate, estimate
    half = t_quantile(1.0 - alpha / 2.0, df) * standard_error
    return estimate - half, estimate + half


FAR_NONCENTRALITY = 40.0
"""From this many times the critical value (at least 1) the noncentral t's power is 1 to
below 1e-80 (`t_power`)."""


def t_power(noncentrality: float, df: float, critical: float) -> float:
    """P(|T'| > critical) for the noncentral t with ``df`` and ``noncentrality`` >= 0.

    The upper tail is 1 - F(critical), the lower tail F(-critical). scipy's ``nctdtr``
    returns NaN for a lower tail far below 1e-15 (measured here from noncentrality 7 to 9,
    depending on df and alpha). The lower tail never exceeds Phi(-noncentrality) (T' < 0
    needs Z < -noncentrality), so a NaN is taken as 0 when that bound is below 1e-9, an error
    far below any power anyone reads; a NaN nearer the centre is raised, not hidden.
    """
    _check_df(df)
    if noncentrality < 0:
        raise ValueError(f"noncentrality must be >= 0, got {noncentrality}")
    if noncentrality >= FAR_NONCENTRALITY * max(abs(critical), 1.0):
        # nctdtr gives NaN from noncentrality about 1e10 (a difference against no spread to
        # speak of). T' = (Z + nc) / S with S = sqrt(chi2_df / df): missing |critical| needs
        # Z <= -nc / 2 or S >= nc / (2 |critical|) >= 20, each below 1e-80 for every df >= 1
        return 1.0
    special = _special()
    upper = 1.0 - float(special.nctdtr(df, noncentrality, critical))
    lower = float(special.nctdtr(df, noncentrality, -critical))
    if math.isnan(lower):
        if normal_cdf(-noncentrality) > 1e-9:
            raise ArithmeticError(
                f"noncentral t tail is NaN at df={df}, noncentrality={noncentrality}"
            )
        lower = 0.0
    return float(min(1.0, max(0.0, upper + lower)))
