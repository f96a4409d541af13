"""The relative lift of B over A, with the interval of the same sign-flip test as B − A.

`relative_lift` answers "by what share of A's mean does B differ", ``mean(b) / mean(a) - 1``,
with the interval that inverts the sign-flip test: a lift ``l`` (ratio ``r = 1 + l``) is
inside when the per-query values ``b - r * a`` are not found asymmetric about 0 at ``alpha``
(the statistic is their sum over the sign patterns of `permutation_test`, the patterns the
default interval of B − A uses). At ``l = 0`` that is the test of B − A itself, so the lift's
interval excludes 0 exactly when B − A's p-value is at most ``alpha``; it answers for the
ratio what Fieller's interval answers with a t, without assuming normal errors.

How without a search: for a pattern with signed sums ``sa``, ``sb`` of ``a`` and ``b`` (``A``,
``B`` the plain sums) the pattern is at least as extreme at ``r`` when
``(B - r A)^2 <= (sb - r sa)^2``, a quadratic in ``r`` that holds between two roots (or
everywhere when ``|sa| = A``); the limits are order statistics of the roots, as in
`ranklens.stats.sign_flip`.

Beside a report's B − A, whose default interval is the skew-guarded one (wider than the
sign-flip interval where the differences are skewed), ``difference`` widens the lift's
interval to hold that interval over A's mean too: the hull of the two then excludes 0 exactly
when B − A's interval does (the skew-guarded p is at least the sign-flip p, so both parts
exclude 0 together), and it is never narrower than the ratio's own test, which accounts for
A's mean being estimated too.

It does not say anything where A's mean is near 0 (under ``near_zero``): the ratio is then
unstable and the result is None. Values are metric values (non-negative); numpy only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ranklens.stats.permutation import exact_sums, is_exact, random_sums
from ranklens.stats.results import Seed
from ranklens.stats.sign_flip import DEFAULT_PATTERNS, ends_at, p_value_from_ends
from ranklens.stats.tolerance import SUM_TIES

NEAR_ZERO = 0.01
"""A baseline mean under this is too near 0 for a relative lift to mean anything."""


@dataclass(frozen=True)
class Lift:
    """``estimate`` = mean(b) / mean(a) - 1 and its ``low``/``high`` limits at ``level``;
    ``p_value`` is the sign-flip p of "no lift", the test of B − A."""

    estimate: float
    low: float
    high: float
    level: float
    p_value: float


def relative_lift(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, *,
                  alpha: float = 0.05, n_permutations: int = DEFAULT_PATTERNS,
                  seed: Seed = 0, near_zero: float = NEAR_ZERO,
                  difference: tuple[float, float] | None = None) -> Lift | None:
    """The lift of ``b`` over ``a`` (paired per-query values) with its sign-flip interval
    (module docstring); None when ``mean(a)`` is under ``near_zero`` or there are fewer than
    two queries. ``n_permutations`` and ``seed`` are `permutation_test`'s: all 2^n patterns
    when they are no more, else that many random ones plus the observed one. ``difference``:
    the (low, high) interval of B − A printed beside the lift, which the lift's interval is
    widened to hold over A's mean (module docstring); its ``p_value`` stays the ratio test's."""
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"a and b must be paired: {x.shape} and {y.shape}")
    if x.size < 2 or not np.isfinite(x).all() or not np.isfinite(y).all():
        return None
    if float(x.mean()) < near_zero:
        return None
    total_a, total_b = float(x.sum()), float(y.sum())
    if is_exact(x.size, n_permutations):
        sa, sb, observed = exact_sums(x), exact_sums(y), 0
    else:
        sa, _ = random_sums(x, n_permutations, seed)
        sb, _ = random_sums(y, n_permutations, seed)
        observed = 1
    quadratic = total_a ** 2 - sa ** 2
    linear = -2.0 * (total_a * total_b - sa * sb)
    constant = total_b ** 2 - sb ** 2
    everywhere = quadratic <= 1e-12 * total_a ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.sqrt(np.maximum(linear ** 2 - 4.0 * quadratic * constant, 0.0))
        low_ends = (-linear - root) / (2.0 * quadratic) - 1.0
        high_ends = (-linear + root) / (2.0 * quadratic) - 1.0
    # a pattern that ties the observed sum (flipping only queries whose b - r a is 0) counts,
    # as `permutation_test` counts ties: its root is widened past float rounding
    low_ends -= SUM_TIES * np.maximum(1.0, np.abs(low_ends))
    high_ends += SUM_TIES * np.maximum(1.0, np.abs(high_ends))
    low_ends[everywhere], high_ends[everywhere] = -np.inf, np.inf
    if observed:
        low_ends = np.append(low_ends, -np.inf)
        high_ends = np.append(high_ends, np.inf)
    low, high = ends_at(low_ends, high_ends, alpha)
    p = p_value_from_ends(low_ends, high_ends, 0.0)
    # the same test at no lift as B − A's: float rounding of the roots must not make the two
    # disagree about whether 0 is inside
    if p > alpha:
        low, high = min(low, 0.0), max(high, 0.0)
    if difference is not None:
        mean_a = total_a / x.size
        low, high = min(low, difference[0] / mean_a), max(high, difference[1] / mean_a)
    return Lift(total_b / total_a - 1.0, low, high, 1.0 - alpha, p)


__all__ = ["NEAR_ZERO", "Lift", "relative_lift"]
