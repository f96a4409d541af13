"""The sign-flip interval: the exact permutation test turned into a confidence interval.

The interval holds every mean difference ``mu`` that the exact sign-flip test of
``deltas - mu`` does not reject at ``alpha``. Under H0 of `permutation_test` (differences
symmetric around their mean) it covers with probability at least ``1 - alpha`` at every n,
and it agrees with the exact permutation p-value by construction: it excludes 0 exactly when
that p-value is at most ``alpha``. `compare` shows it at every n (see
`ranklens.stats.interval`): its interval and its p-value are one test.

The patterns are those of `permutation_test` with the same ``n_permutations`` and ``seed``:
all 2^n when they are no more than ``n_permutations`` (exact), else the test's random patterns
plus the observed one, which counts at every ``mu`` (the p-value's ``+1``).

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

import hashlib
import math
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from ranklens.stats.errors import InsufficientSampleError, SmallSampleWarning, check_probability
from ranklens.stats.notes import Note, emitted
from ranklens.stats.pairing import Deltas, as_deltas
from ranklens.stats.permutation import exact_sums, is_exact, random_sums
from ranklens.stats.results import MeanDifferenceInterval, Seed
from ranklens.stats.tolerance import SUM_TIES

MAX_SIGN_FLIP_N = 20
"""Kept for callers of 0.2: the sign-flip interval has no upper limit on n since 0.3 (above
``log2(n_permutations)`` differences it draws the permutation test's random patterns)."""

DEFAULT_PATTERNS = 10_000
"""Sign patterns by default: `permutation_test`'s default ``n_permutations``."""

_KEPT_ENDS = 128  # (low, high) ends of 10,000 patterns: 160 KB each, 20 MB at most
_KEPT_BYTES = 32 << 20  # and never more than 32 MB of ends (a million patterns: 16 MB)
_kept_ends: OrderedDict[tuple[object, ...], tuple[Deltas, Deltas]] = OrderedDict()
_kept_lock = threading.Lock()


def bounded_from(alpha: float) -> int:
    """Fewest differences whose sign-flip interval at ``alpha`` can have finite ends.

    With n differences the smallest exact p-value is 2 / 2^n (all signs kept or all flipped),
    so below ``log2(2 / alpha)`` no difference at all can be rejected: 6 at alpha = 0.05.
    """
    check_probability("alpha", alpha)
    return max(2, math.ceil(math.log2(2.0 / alpha) - 1e-12))


def pattern_ends(
    values: Deltas, *, n_permutations: int | None = None, seed: Seed = 0
) -> tuple[Deltas, Deltas]:
    """``L_s`` and ``R_s`` of every sign pattern (module docstring), in pattern order.

    ``n_permutations`` None enumerates all 2^n patterns whatever n; a number takes the
    patterns `permutation_test` takes with it and ``seed`` (exact when 2^n is no more, else
    that many random ones plus the observed pattern, whose ends are infinite). The interval
    at any ``alpha`` is a pair of order statistics of these, so a caller that needs several
    levels (`ranklens.stats.levels`) computes them once. The last `_KEPT_ENDS` results (at
    most `_KEPT_BYTES`) are kept, read-only, by the values' bytes, ``n_permutations`` and
    ``seed``: a comparison and the FCR curves of its segments (`ranklens.stats.fcr`) read
    the same patterns of the same differences, and draw them once.
    """
    key = _ends_key(values, n_permutations, seed)
    with _kept_lock:
        kept = _kept_ends.get(key)
        if kept is not None:
            _kept_ends.move_to_end(key)
            return kept
    ends = _pattern_ends(values, n_permutations, seed)
    for array in ends:
        array.flags.writeable = False
    with _kept_lock:
        _kept_ends[key] = ends
        while len(_kept_ends) > _KEPT_ENDS or sum(
                low.nbytes + high.nbytes for low, high in _kept_ends.values()) > _KEPT_BYTES:
            _kept_ends.popitem(last=False)
    return ends


def _ends_key(values: Deltas, n_permutations: int | None, seed: Seed) -> tuple[object, ...]:
    """What `pattern_ends` depends on: the values' bytes (a digest), their number, the
    patterns' number and the seed (a SeedSequence by its entropy and spawn key)."""
    digest = hashlib.blake2b(np.ascontiguousarray(values, dtype=np.float64).tobytes(),
                             digest_size=16).digest()
    if isinstance(seed, np.random.SeedSequence):
        entropy = seed.entropy
        seed_key: object = (tuple(entropy) if isinstance(entropy, Sequence) else entropy,
                            tuple(seed.spawn_key), seed.pool_size)
    else:
        seed_key = int(seed)
    return digest, values.size, n_permutations, seed_key


def _pattern_ends(values: Deltas, n_permutations: int | None, seed: Seed
                  ) -> tuple[Deltas, Deltas]:
    """`pattern_ends`, computed."""
    n = values.size
    total = float(values.sum())
    tau = SUM_TIES * float(np.abs(values).sum())
    observed = 0
    if n_permutations is None or is_exact(n, n_permutations):
        a = exact_sums(values)
        b = exact_sums(np.ones(n))  # exact small integers
    else:
        a, signs = random_sums(values, n_permutations, seed, with_signs=True)
        assert signs is not None
        b, observed = signs, 1
    full = np.abs(b) == n  # all kept or all flipped: ties with the observed sum at every mu
    with np.errstate(divide="ignore", invalid="ignore"):
        low_ends = np.minimum((total - a - tau) / (n - b), (total + a - tau) / (n + b))
        high_ends = np.maximum((total + a + tau) / (n + b), (total - a + tau) / (n - b))
    low_ends[full], high_ends[full] = -np.inf, np.inf
    if observed:
        low_ends = np.append(low_ends, -np.inf)
        high_ends = np.append(high_ends, np.inf)
    return low_ends, high_ends


def p_value_from_ends(low_ends: Deltas, high_ends: Deltas, mu: float = 0.0) -> float:
    """The sign-flip p-value of ``deltas - mu`` read from `pattern_ends`: the share of patterns
    whose interval holds ``mu``. At ``mu = 0`` it is `permutation_test`'s p-value."""
    inside = int(np.count_nonzero((low_ends <= mu) & (mu <= high_ends)))
    return inside / int(low_ends.size)


def ends_at(low_ends: Deltas, high_ends: Deltas, alpha: float) -> tuple[float, float]:
    """The ``1 - alpha`` interval from `pattern_ends`: ``mu`` is inside when more than
    ``alpha`` of the patterns count there (``p <= alpha`` rejects)."""
    patterns = low_ends.size
    needed = math.floor(alpha * patterns) + 1
    if needed > patterns:  # alpha near 1: only the mean itself is never rejected
        needed = patterns
    low = float(np.partition(low_ends, needed - 1)[needed - 1])
    high = float(np.partition(high_ends, patterns - needed)[patterns - needed])
    return low, high


def sign_flip_interval(
    deltas: Sequence[float] | Deltas,
    *,
    alpha: float = 0.05,
    n_permutations: int = DEFAULT_PATTERNS,
    seed: Seed = 0,
) -> MeanDifferenceInterval:
    """``1 - alpha`` interval of the mean difference by inverting the sign-flip test.

    Every ``mu`` whose two-sided sign-flip p-value for ``deltas - mu`` is above ``alpha``
    lies inside (``p <= alpha`` rejects, as everywhere in ranklens.stats). The p-value at 0 is
    `permutation_test` with the same ``n_permutations`` and ``seed``, so the interval excludes
    0 exactly when that p-value is at most ``alpha``. Exact at any n when the differences are
    symmetric around their mean; for skewed or tie-heavy differences at a non-zero mean it
    covers like the t-interval, that is less than ``1 - alpha`` at small n
    (docs/validity.md). Below `bounded_from` differences nothing can be rejected: the
    interval is (-inf, inf) and a `SmallSampleWarning` says how many queries would bound it.

    The result is a `MeanDifferenceInterval` with ``method="sign-flip"``; its ``n_resamples``
    is the number of sign patterns (2^n when enumerated, else ``n_permutations``) and
    ``seed`` the seed of the random ones (0 when enumerated: nothing is random).
    Raises `InsufficientSampleError` below 2 differences.
    """
    return emitted(sign_flip_with_notes(deltas, alpha=alpha, n_permutations=n_permutations,
                                        seed=seed))


def sign_flip_with_notes(
    deltas: Sequence[float] | Deltas,
    *,
    alpha: float = 0.05,
    n_permutations: int = DEFAULT_PATTERNS,
    seed: Seed = 0,
) -> tuple[MeanDifferenceInterval, tuple[Note, ...]]:
    """`sign_flip_interval`, with what it would warn (an unbounded interval) returned as
    notes."""
    interval, _, notes = sign_flip_test(deltas, alpha=alpha, n_permutations=n_permutations,
                                        seed=seed)
    return interval, notes


def sign_flip_test(
    deltas: Sequence[float] | Deltas,
    *,
    alpha: float = 0.05,
    n_permutations: int = DEFAULT_PATTERNS,
    seed: Seed = 0,
) -> tuple[MeanDifferenceInterval, float, tuple[Note, ...]]:
    """The sign-flip interval, its p-value at 0 (`permutation_test`'s, from the same patterns)
    and its notes: one test, so ``interval`` excludes 0 exactly when ``p <= alpha``."""
    values = np.asarray(deltas, dtype=np.float64)
    if values.ndim == 1 and values.size < 2:
        raise InsufficientSampleError(values.size, 2)
    values = as_deltas(values)
    check_probability("alpha", alpha)
    if n_permutations < 1:
        raise ValueError(f"n_permutations must be >= 1, got {n_permutations}")
    n = values.size
    exact = is_exact(n, n_permutations)
    low_ends, high_ends = pattern_ends(values, n_permutations=n_permutations, seed=seed)
    patterns = low_ends.size
    low, high = ends_at(low_ends, high_ends, alpha)
    p_value = p_value_from_ends(low_ends, high_ends)
    notes: tuple[Note, ...] = ()
    if math.isinf(low) or math.isinf(high):
        smallest = 2 / patterns if exact else 1 / patterns
        notes = (Note(
            f"sign-flip interval on {n} queries is unbounded: the smallest possible p-value is "
            f"{smallest:.3g}, above alpha = {alpha:g}, so no difference can be ruled out"
            + (f"; at least {bounded_from(alpha)} queries are needed for finite ends"
               if n < bounded_from(alpha) else
               f"; {math.ceil(1 / alpha)} or more sign patterns are needed for finite ends"),
            SmallSampleWarning),)
    return MeanDifferenceInterval(
        delta=float(values.mean()),
        low=low,
        high=high,
        alpha=alpha,
        n_queries=n,
        n_resamples=patterns if exact else n_permutations,
        seed=0 if exact else seed,
        method="sign-flip",
    ), p_value, notes
