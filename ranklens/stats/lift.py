"""The relative lift of B over A, with the interval of the same sign-flip test as B − A.

`relative_lift` answers "by what share of A's mean does B differ", ``mean(b) / mean(a) - 1``,
with the interval that inverts the sign-flip test: a lift ``l`` (ratio ``r = 1 + l``) is
inside when the per-query values ``b - r * a`` are not found asymmetric about 0 at ``alpha``
(the statistic is their sum over random sign patterns that flip a query's ``a`` and ``b``
together, drawn over the distinct (a, b) pairs by `ranklens.stats.permutation.random_column_sums`;
all 2^n patterns when `permutation_test` enumerates them). At ``l = 0`` that is a sign-flip
test of B − A; it answers for the ratio what Fieller's interval answers with a t, without
assuming normal errors.

B − A's own test draws its patterns over the distinct values of B − A, so at random the two
are two draws of one test and may disagree about no lift by Monte Carlo error. The lift
follows B − A: 0 is inside exactly when B − A's interval (``difference``) holds it, or, without
one, when B − A's p is above ``alpha``; where the ratio's own draw holds 0 and B − A's test
rejects it, the ratio's interval is cut at 0 on the estimate's side at its first pattern end
beyond 0 (the ratio's interval at the level where its own draw rejects no lift).

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

from ranklens.stats.permutation import (
    exact_sums,
    is_exact,
    permutation_test,
    random_column_sums,
)
from ranklens.stats.results import Seed
from ranklens.stats.sign_flip import DEFAULT_PATTERNS, ends_at
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
                  difference: tuple[float, float] | None = None,
                  p_value: float | None = None) -> Lift | None:
    """The lift of ``b`` over ``a`` (paired per-query values) with its sign-flip interval
    (module docstring); None when ``mean(a)`` is under ``near_zero`` or there are fewer than
    two queries. ``n_permutations`` and ``seed`` are `permutation_test`'s: all 2^n patterns
    when they are no more, else that many random ones plus the observed one. ``difference``:
    the (low, high) interval of B − A printed beside the lift, which the lift's interval is
    widened to hold over A's mean (module docstring). ``p_value``: B − A's p printed beside
    the lift, the `Lift`'s p; None takes `permutation_test` of ``b - a`` with these
    ``n_permutations`` and ``seed``. Whether 0 is inside follows ``difference`` when given,
    else that p (module docstring: the ratio's random patterns are not B − A's)."""
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
    else:  # one pattern flips a query's a and b together: drawn over the distinct (a, b)
        sums, _ = random_column_sums(np.column_stack((x, y)), n_permutations, seed)
        sa, sb, observed = sums[:, 0], sums[:, 1], 1
    low_ends, high_ends = _ratio_ends(total_a, total_b, sa, sb, observed)
    low, high = ends_at(low_ends, high_ends, alpha)
    estimate = total_b / total_a - 1.0
    if p_value is None:
        p_value = permutation_test(y - x, n_permutations=n_permutations, seed=seed)
    no_change = (p_value > alpha if difference is None
                 else difference[0] <= 0.0 <= difference[1])
    if no_change:  # float rounding of the roots must not put 0 outside
        low, high = min(low, 0.0), max(high, 0.0)
    elif low <= 0.0 <= high:  # the ratio's own draw holds 0 where B − A's test rejects it
        low, high = _cut_at_zero(low_ends, high_ends, low, high, estimate)
    if difference is not None:
        mean_a = total_a / x.size
        low, high = min(low, difference[0] / mean_a), max(high, difference[1] / mean_a)
    return Lift(estimate, low, high, 1.0 - alpha, p_value)


def _ratio_ends(total_a: float, total_b: float, sa: np.ndarray, sb: np.ndarray,
                observed: int) -> tuple[np.ndarray, np.ndarray]:
    """Each pattern's interval of lifts at which it is at least as extreme as the observed
    one (module docstring), and the observed pattern's (-inf, inf) when ``observed``."""
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
    return low_ends, high_ends


def _cut_at_zero(low_ends: np.ndarray, high_ends: np.ndarray, low: float, high: float,
                 estimate: float) -> tuple[float, float]:
    """The ratio's interval cut at no lift, on the estimate's side: its end at 0 moved to the
    first pattern end beyond 0, which is the ratio's interval at the level where its own draw
    rejects no lift (every pattern's interval holds the estimate, so the lifts on the other
    side of 0 are the ones it rejects there). Used where B − A's test rejects no lift and the
    ratio's draw, another draw of the same test, does not: a Monte Carlo disagreement."""
    if estimate > 0.0:
        beyond = low_ends[low_ends > 0.0]
        return (float(beyond.min()) if beyond.size else estimate), high
    beyond = high_ends[high_ends < 0.0]
    return low, (float(beyond.max()) if beyond.size else estimate)


__all__ = ["NEAR_ZERO", "Lift", "relative_lift"]
