"""Many comparisons at once: adjusted p-values (q-values) and the decisions they give."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Literal, TypeVar, get_args

import numpy as np
import numpy.typing as npt

from ranklens.stats.errors import check_probability
from ranklens.stats.results import ComparisonResult, PPIComparison, at_most

Comparison = TypeVar("Comparison", ComparisonResult, PPIComparison)
PValues = Sequence[float] | npt.NDArray[np.float64]


def _validated(p_values: PValues) -> npt.NDArray[np.float64]:
    values = np.asarray(p_values, dtype=np.float64)
    if values.ndim != 1:
        raise ValueError(f"p_values must be one-dimensional, got shape {values.shape}")
    if not np.all((values >= 0.0) & (values <= 1.0)):  # also rejects NaN
        raise ValueError("p_values must all lie in [0, 1]")
    return values


def benjamini_hochberg(p_values: PValues) -> tuple[float, ...]:
    """q-values of the Benjamini-Hochberg procedure, in the order of the input.

    For p-values sorted ascending, q(i) = min over j >= i of (m / j) * p(j), capped at 1.
    A comparison is a discovery at level alpha when its q-value is at most alpha (see
    `rejected`): ``q <= alpha``, the step-up rule p(k) <= k / m * alpha of Benjamini and
    Hochberg (1995) and statsmodels' ``multipletests``. The seeds' methods page writes
    ``q < alpha``; ranklens keeps ``<=``, and the two differ only for a q-value exactly at
    alpha. Controls the false discovery rate for independent or positively dependent
    p-values (segments that share no queries); for arbitrary dependence use
    `benjamini_yekutieli`.
    """
    values = _validated(p_values)
    if values.size == 0:
        return ()
    m = values.size
    ascending = np.argsort(values, kind="stable")
    ranks = np.arange(m, 0, -1)  # from m down to 1, matching the reversed order
    # walk from the largest p-value down, keeping the running minimum
    adjusted = np.minimum.accumulate(values[ascending][::-1] * m / ranks)[::-1]
    result = np.empty(m, dtype=np.float64)
    result[ascending] = np.minimum(adjusted, 1.0)
    return tuple(float(value) for value in result)


def benjamini_yekutieli(p_values: PValues) -> tuple[float, ...]:
    """q-values of the Benjamini-Yekutieli procedure: BH times sum(1/i, i=1..m), capped at 1.

    Controls the false discovery rate under any dependence between the p-values, such as
    several metrics computed on the same queries; the price is fewer discoveries than BH.
    """
    values = _validated(p_values)
    if values.size == 0:
        return ()
    harmonic = float(np.sum(1.0 / np.arange(1, values.size + 1)))
    return tuple(min(1.0, q * harmonic) for q in benjamini_hochberg(values))


def holm(p_values: PValues) -> tuple[float, ...]:
    """Holm step-down adjusted p-values, in the order of the input.

    For p-values sorted ascending, adjusted(i) = max over j <= i of (m - j + 1) * p(j), capped
    at 1. Controls the family-wise error rate (the chance of any false discovery) under any
    dependence: stricter than the FDR procedures.
    """
    values = _validated(p_values)
    if values.size == 0:
        return ()
    m = values.size
    ascending = np.argsort(values, kind="stable")
    factors = np.arange(m, 0, -1)  # m for the smallest p-value, 1 for the largest
    adjusted = np.minimum(np.maximum.accumulate(values[ascending] * factors), 1.0)
    result = np.empty(m, dtype=np.float64)
    result[ascending] = adjusted
    return tuple(float(value) for value in result)


AdjustMethod = Literal["bh", "by", "holm"]
"""A multiple-comparison adjustment: Benjamini-Hochberg, Benjamini-Yekutieli or Holm."""

ADJUST_METHODS: tuple[AdjustMethod, ...] = get_args(AdjustMethod)

METHODS: dict[str, Callable[[PValues], tuple[float, ...]]] = {
    "bh": benjamini_hochberg,
    "by": benjamini_yekutieli,
    "holm": holm,
}


def adjusted_p_values(p_values: PValues, method: str = "bh") -> tuple[float, ...]:
    """Adjusted p-values by ``method``: "bh" (default), "by" or "holm"."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {sorted(METHODS)}, got {method!r}")
    return METHODS[method](p_values)


def rejected(p_values: PValues, *, alpha: float = 0.05, method: str = "bh") -> tuple[bool, ...]:
    """Which hypotheses are discoveries at ``alpha``: adjusted p-value at most ``alpha``.

    Ties with alpha decided by floating-point noise count as discoveries, so
    ``[0.01, 0.02, 0.03, 0.04, 0.05]`` are all rejected by BH at 0.05, as the step-up rule
    p(k) <= k / m * alpha says they are.
    """
    check_probability("alpha", alpha)
    return tuple(at_most(q, alpha) for q in adjusted_p_values(p_values, method))


def adjust(results: Sequence[Comparison], method: str = "bh") -> tuple[Comparison, ...]:
    """Same comparisons with ``q_value`` filled in; ``significant`` then uses it.

    A comparison is then significant when its q-value is at most alpha (``q <= alpha``, as in
    `benjamini_hochberg`; the methods page's ``q < alpha`` differs only at equality).

    Works for `ComparisonResult` and `PPIComparison` alike: the procedures need only
    p-values. ``method`` is "bh" (Benjamini-Hochberg, default), "by" (Benjamini-Yekutieli,
    for p-values that may depend on each other, e.g. several metrics on the same queries)
    or "holm" (family-wise error).
    """
    q_values = adjusted_p_values([result.p_value for result in results], method)
    return tuple(
        dataclasses.replace(result, q_value=q_value)
        for result, q_value in zip(results, q_values, strict=True)
    )
