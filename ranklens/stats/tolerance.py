"""When two metric values are "the same": the one tolerance for "no difference" of ranklens.stats.

A per-query difference ``b - a`` is floating-point noise, not a difference, when

    |b - a| <= NO_DIFFERENCE * max(1, largest |metric value| of the comparison).

`compare` sets such differences to exactly 0 (`snap`) before anything is computed from them, so
win/tie/loss, the permutation test, the t-test, the bootstrap interval and the effect size all
see the same zeros, and the result counts them (``ComparisonResult.n_snapped``).

Why 1e-6 of the values' scale:

- It must cover float32. A per-query table stored as float32 (Parquet, numpy exports) rounds
  each value by up to 2**-24 of its magnitude (6e-8 at 1.0); two float32 sides, or a metric
  computed in float32 arithmetic over a handful of terms, differ by a few float32 ulps
  (2**-23 = 1.2e-7 each). 1e-6 is about 8 float32 ulps at the scale: identical runs stored
  once as float64 and once as float32 tie on every query. The 1e-12 first suggested for this
  covers float64 rounding (``0.1 + 0.2 - 0.3`` = 5.6e-17) but not float32 (measured: the
  float32 reproduction of issue 15 keeps 25 of 25 "differences" at 1e-12, 0 at 1e-6).
- It is far below any difference anyone reads: ranklens and trec_eval print 4 decimals, so a
  difference of 1e-6 is invisible in every output. The price is that a genuine per-query
  difference below it (1 / 1000 - 1 / 1001 = 1e-6 in reciprocal rank; deep-cutoff NDCG) counts
  as a tie; ``n_snapped`` says how many queries that touched.
- The scale is the comparison's largest metric value, never below 1, because rounding noise is
  relative to the magnitudes the values were computed from: metrics in [0, 1] get an absolute
  1e-6, DCG-like metrics in the tens get proportionally more. Scaling the deltas of a metric
  that lives below 1 does not shrink the tolerance, on purpose: the noise comes from the
  arithmetic of values around 1 (``1 - 0.9999999``), not from the size of the difference.

`SUM_TIES` is the other, narrower question of the permutation test and the sign-flip interval:
whether a sum of differences under a sign pattern ties with the observed sum up to rounding.
Sums are float64 arithmetic on differences that are already snapped, so it is relative to the
sum of their magnitudes and much tighter.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

NO_DIFFERENCE = 1e-6
"""Per-query differences within this share of the values' scale (at least 1) are exactly 0."""

SUM_TIES = 1e-9
"""Signed sums within this share of the sum of |differences| of each other tie (see above)."""

Values = npt.NDArray[np.float64]


def no_difference_tolerance(*values: Values) -> float:
    """Largest |b - a| that is noise for metric values like ``values`` (arrays of either run).

    ``NO_DIFFERENCE * max(1, largest |value|)`` over all given arrays; empty arrays count as 0.
    """
    largest = max((float(np.max(np.abs(array))) for array in values if array.size), default=0.0)
    return NO_DIFFERENCE * max(1.0, largest)


def snap(deltas: Values, tolerance: float) -> tuple[Values, int]:
    """``deltas`` with every value within ``tolerance`` of 0 set to exactly 0, and their count.

    The count is of differences that were not already exactly 0: how many "differences" were
    noise. By the same rule, differences that all lie within ``tolerance`` of each other are
    one difference: each is set to their mean, so a constant shift computed with rounding
    noise (0.31 - 0.3 next to 0.21 - 0.2) has no spread, as an exact one has (effect size
    infinite, t-interval a point), instead of a spread of 1e-18. The input is not modified.
    """
    if tolerance < 0:
        raise ValueError(f"tolerance must be >= 0, got {tolerance}")
    noise = (np.abs(deltas) <= tolerance) & (deltas != 0.0)
    n_snapped = int(np.count_nonzero(noise))
    snapped = np.where(noise, 0.0, deltas) if n_snapped else deltas
    if snapped.size > 1 and 0.0 < float(np.ptp(snapped)) <= tolerance:
        snapped = np.full_like(snapped, float(snapped.mean()))
    return snapped, n_snapped


def snap_columns(deltas: Values, largest: Values) -> Values:
    """`snap` of every column of ``deltas`` (queries x pairs) at once, each column at the
    tolerance of `no_difference_tolerance` for values whose largest |value| is its entry of
    ``largest``: differences within it set to 0, a column whose differences all lie within it
    of each other set to their mean. A new array; ``deltas`` is not modified. (The family
    test's thousands of pairs; `snap` is the rule for one.)"""
    tolerance = NO_DIFFERENCE * np.maximum(1.0, largest)
    snapped = deltas.copy()
    snapped[np.abs(deltas) <= tolerance[None, :]] = 0.0
    if snapped.shape[0] > 1:
        spread = np.ptp(snapped, axis=0)
        constant = (spread > 0.0) & (spread <= tolerance)
        if constant.any():
            snapped[:, constant] = snapped[:, constant].mean(axis=0)[None, :]
    return snapped
