"""The sign-flip interval: the exact permutation test turned into a confidence interval.

The interval holds every mean difference ``mu`` that the exact sign-flip test of
``deltas - mu`` does not reject at ``alpha``. Under H0 of `permutation_test` (differences
symmetric around their mean) it covers with probability at least ``1 - alpha`` at every n,
and it agrees with the exact permutation p-value by construction: it excludes 0 exactly when
that p-value is at most ``alpha``. `compare` shows it below `MIN_QUERIES` queries, where the
bootstrap intervals are too narrow (see `ranklens.stats.interval`).

How it is computed without a search over ``mu``. For a sign pattern ``s`` let
``a = sum(s * deltas)`` and ``b = sum(s)``; with ``D = sum(deltas)`` the pattern is at least as
extreme as the observed one at ``mu`` when

    |D - n mu| - |a - b mu| <= tau        (tau: the test's tie tolerance, `SUM_TIES`).

The left side falls until ``mu = D / n`` and rises after it (|b| < n), so each pattern counts
on one interval ``[L_s, R_s]`` around the mean, in closed form. The p-value at ``mu`` is the
share of those intervals that contain ``mu``; the confidence limits are order statistics of
the ``L_s`` and ``R_s``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ranklens.stats.errors import InsufficientSampleError, SmallSampleWarning, check_probability
from ranklens.stats.notes import Note, emitted
from ranklens.stats.pairing import Deltas, as_deltas
from ranklens.stats.permutation import all_sums
from ranklens.stats.results import MeanDifferenceInterval
from ranklens.stats.tolerance import SUM_TIES

MAX_SIGN_FLIP_N = 20
"""All 2^n sign patterns are enumerated: 20 differences are a million patterns (~0.2 s)."""


def bounded_from(alpha: float) -> int:
    """Fewest differences whose sign-flip interval at ``alpha`` can have finite ends.

    With n differences the smallest exact p-value is 2 / 2^n (all signs kept or all flipped),
    so below ``log2(2 / alpha)`` no difference at all can be rejected: 6 at alpha = 0.05.
    """
    check_probability("alpha", alpha)
    return max(2, math.ceil(math.log2(2.0 / alpha) - 1e-12))


def pattern_ends(values: Deltas) -> tuple[Deltas, Deltas]:
    """``L_s`` and ``R_s`` of every sign pattern (module docstring), in pattern order.

    The interval at any ``alpha`` is a pair of order statistics of these, so a caller that
    needs several levels (`ranklens.stats.levels`) computes them once.
    """
    n = values.size
    total = float(values.sum())
    tau = SUM_TIES * float(np.abs(values).sum())
    a = all_sums(values)
    b = all_sums(np.ones(n))  # exact small integers
    full = np.abs(b) == n  # all kept or all flipped: ties with the observed sum at every mu
    with np.errstate(divide="ignore", invalid="ignore"):
        low_ends = np.minimum((total - a - tau) / (n - b), (total + a - tau) / (n + b))
        high_ends = np.maximum((total + a + tau) / (n + b), (total - a + tau) / (n - b))
    low_ends[full], high_ends[full] = -np.inf, np.inf
    return low_ends, high_ends


def sign_flip_interval(
    deltas: Sequence[float] | Deltas, *, alpha: float = 0.05
) -> MeanDifferenceInterval:
    """Exact ``1 - alpha`` interval of the mean difference by inverting the sign-flip test.

    Every ``mu`` whose exact two-sided sign-flip p-value for ``deltas - mu`` is above ``alpha``
    lies inside (``p <= alpha`` rejects, as everywhere in ranklens.stats). Valid at any n when
    the differences are symmetric around their mean; for skewed differences it behaves like the
    t-interval. Below `bounded_from` differences nothing can be rejected: the interval is
    (-inf, inf) and a `SmallSampleWarning` says how many queries would bound it.

    The result is a `MeanDifferenceInterval` with ``method="sign-flip"``; its ``n_resamples`` is the
    number of sign patterns enumerated (2^n) and ``seed`` is 0: nothing here is random.
    Raises `InsufficientSampleError` below 2 differences and ValueError above
    `MAX_SIGN_FLIP_N` (use the bootstrap there).
    """
    return emitted(sign_flip_with_notes(deltas, alpha=alpha))


def sign_flip_with_notes(
    deltas: Sequence[float] | Deltas, *, alpha: float = 0.05
) -> tuple[MeanDifferenceInterval, tuple[Note, ...]]:
    """`sign_flip_interval`, with what it would warn (an unbounded interval) returned as
    notes."""
    values = np.asarray(deltas, dtype=np.float64)
    if values.ndim == 1 and values.size < 2:
        raise InsufficientSampleError(values.size, 2)
    values = as_deltas(values)
    check_probability("alpha", alpha)
    n = values.size
    if n > MAX_SIGN_FLIP_N:
        raise ValueError(
            f"the sign-flip interval enumerates 2^n sign patterns: at most {MAX_SIGN_FLIP_N} "
            f"differences, got {n}; use paired_bootstrap for more"
        )
    low_ends, high_ends = pattern_ends(values)
    patterns = low_ends.size
    # mu is inside when more than alpha * 2^n patterns count there, i.e. at least `needed`
    needed = math.floor(alpha * patterns) + 1
    low = float(np.partition(low_ends, needed - 1)[needed - 1])
    high = float(np.partition(high_ends, patterns - needed)[patterns - needed])
    notes: tuple[Note, ...] = ()
    if math.isinf(low) or math.isinf(high):
        notes = (Note(
            f"sign-flip interval on {n} queries is unbounded: the smallest possible p-value is "
            f"2/2^{n} = {2 / patterns:.3g}, above alpha = {alpha:g}, so no difference can be "
            f"ruled out; at least {bounded_from(alpha)} queries are needed for finite ends",
            SmallSampleWarning),)
    return MeanDifferenceInterval(
        delta=float(values.mean()),
        low=low,
        high=high,
        alpha=alpha,
        n_queries=n,
        n_resamples=patterns,
        seed=0,
        method="sign-flip",
    ), notes
