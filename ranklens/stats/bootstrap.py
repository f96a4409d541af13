"""Paired bootstrap: how precisely the mean per-query difference is measured."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ranklens.stats.chunking import block_generators, chunk_sizes, offsets, run_blocks
from ranklens.stats.draws import MAX_N, fill_uniform_indices
from ranklens.stats.errors import InsufficientSampleError, SmallSampleWarning, check_probability
from ranklens.stats.notes import Note, emitted
from ranklens.stats.pairing import Deltas, as_deltas, sample_sd
from ranklens.stats.results import BootstrapInterval, Seed

INTERVAL_METHODS = ("percentile", "studentized")
_BOOTSTRAP_STREAM = 1  # purpose tag of the bootstrap's random streams, see block_generators
# One random stream per block of about this many draws. Measured here against 2**16 and
# 2**17: fewer, larger blocks cost less Python and GIL hand-over than they lose in cache.
_DRAWS_PER_BLOCK = 1 << 18


def _resample(
    values: Deltas, n_resamples: int, seed: Seed, *, with_sd: bool
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64] | None]:
    """Means (and standard deviations when asked) of resamples of ``values`` with replacement."""
    n = values.size
    if n > MAX_N:
        raise ValueError(f"cannot resample more than 2**32 values, got {n}")
    center = float(values.mean())
    # Resampled as deviations from the mean, so a large common level costs no precision.
    # (float32 deviations would halve the gather's memory traffic, but their rounding moved
    # interval ends off exact values such as 0 by ~1e-8, enough to flip "excludes zero".)
    centered = values - center
    sizes = chunk_sizes(n_resamples, n, draws_per_block=_DRAWS_PER_BLOCK)
    generators = block_generators(seed, _BOOTSTRAP_STREAM, len(sizes), np.random.SFC64)
    sums = np.empty(n_resamples, dtype=np.float64)
    squares = np.empty(n_resamples, dtype=np.float64) if with_sd else None
    spans = list(offsets(sizes))
    block_size = sizes[0] * n if sizes else 0
    # Scratch buffers live as long as their thread: allocating them per block made the
    # allocator hand the memory back and fault it in again, block after block (2-4x slower
    # without threads here).
    scratch = threading.local()

    def work(block: int) -> None:
        if not hasattr(scratch, "indices"):
            scratch.indices = np.empty(block_size, dtype=np.uint32)
            scratch.drawn = np.empty(block_size, dtype=np.float64)
        start, stop = spans[block]
        rows = stop - start
        size = rows * n
        positions = fill_uniform_indices(generators[block], n, scratch.indices[:size])
        # in range by construction: mode="wrap" skips the bounds check
        drawn = np.take(centered, positions, mode="wrap", out=scratch.drawn[:size])
        by_row = drawn.reshape(rows, n)
        sums[start:stop] = by_row.sum(axis=1)
        if squares is not None:
            np.multiply(by_row, by_row, out=by_row)
            squares[start:stop] = by_row.sum(axis=1)

    run_blocks(work, len(sizes), n_resamples * n)
    means = sums / n
    if squares is None:
        return means + center, None
    if n < 2:
        return means + center, np.zeros(n_resamples)
    variances = np.maximum(squares / n - means * means, 0.0) * (n / (n - 1))
    return means + center, np.sqrt(variances)


def resample_means(values: Sequence[float] | Deltas, *, n_resamples: int, seed: Seed = 0) -> Deltas:
    """Means of ``n_resamples`` resamples of ``values`` drawn with replacement.

    Drawn in memory-bounded blocks with one random stream per block (see
    `ranklens.stats.chunking`): the same values, count and seed give the same means.
    """
    means, _ = _resample(as_deltas(values), n_resamples, seed, with_sd=False)
    return means


def _check(alpha: float, n_resamples: int, interval: str) -> None:
    check_probability("alpha", alpha)
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    if interval not in INTERVAL_METHODS:
        raise ValueError(f"interval must be one of {INTERVAL_METHODS}, got {interval!r}")


def paired_bootstrap(
    deltas: Sequence[float] | Deltas,
    *,
    n_resamples: int = 10_000,
    alpha: float = 0.05,
    seed: Seed = 0,
    interval: str = "percentile",
) -> BootstrapInterval:
    """Confidence interval of the mean difference, by resampling queries.

    What it warns, `bootstrap_with_notes` returns as notes instead.

    Queries are resampled with replacement ``n_resamples`` times. ``interval="percentile"``
    (default): the interval is the ``alpha/2`` and ``1 - alpha/2`` quantiles of the resampled
    means. ``interval="studentized"`` (bootstrap-t): the quantiles of the resampled
    t-statistics ``(mean* - mean) / (sd* / sqrt(n))`` scale the observed standard error; on
    small, skewed samples, where the percentile interval comes out too narrow, it covers
    closer to the nominal level. Resampling happens in memory-bounded blocks (see
    `ranklens.stats.chunking`). (Since 0.3 `compare` shows the sign-flip interval by default
    and this one by name, ``interval="studentized"``: see `ranklens.stats.interval`.)

    A resample that repeats one value has no spread, so its t-statistic is infinite. When more
    than ``alpha/2`` of the resamples are such on one side (fewer than 4 queries, or most
    differences tied), that end of the studentized interval is infinite and a
    `SmallSampleWarning` says so; the studentized interval needs at least 2 differences
    (`InsufficientSampleError`).

    The interval says how precisely the mean is measured if the queries are a sample of a
    larger population of queries; it is not a test and is not adjusted for multiplicity.
    """
    return emitted(bootstrap_with_notes(deltas, n_resamples, alpha, seed, interval))


def bootstrap_with_notes(deltas: Sequence[float] | Deltas, n_resamples: int, alpha: float,
                         seed: Seed, interval: str
                         ) -> tuple[BootstrapInterval, tuple[Note, ...]]:
    """`paired_bootstrap`, with what it would warn returned as notes (every argument given:
    the defaults are `paired_bootstrap`'s)."""
    values = as_deltas(deltas)
    _check(alpha, n_resamples, interval)
    notes: tuple[Note, ...] = ()
    n = values.size
    delta = float(values.mean())
    if interval == "percentile":
        means, _ = _resample(values, n_resamples, seed, with_sd=False)
        low, high = np.quantile(means, [alpha / 2, 1.0 - alpha / 2])
    else:
        low, high, notes = _studentized(values, delta, n_resamples, alpha, seed)
    return BootstrapInterval(
        delta=delta,
        low=float(low),
        high=float(high),
        alpha=alpha,
        n_queries=n,
        n_resamples=n_resamples,
        seed=seed,
        method=interval,
    ), notes


def _studentized(
    values: Deltas, delta: float, n_resamples: int, alpha: float, seed: Seed
) -> tuple[float, float, tuple[Note, ...]]:
    n = values.size
    if n < 2:
        raise InsufficientSampleError(n, 2, unit="differences for a studentized interval")
    standard_error = sample_sd(values) / np.sqrt(n)
    if standard_error == 0.0:  # every difference is the same: nothing varies under resampling
        return delta, delta, ()
    means, sds = _resample(values, n_resamples, seed, with_sd=True)
    assert sds is not None
    t_stats = studentized_draws(means - delta, sds / np.sqrt(n))
    low, high = studentized_ends(t_stats, delta, standard_error, alpha)
    if math.isinf(low) or math.isinf(high):
        share = float(np.mean(sds == 0))
        return low, high, (Note(
            f"studentized interval on {n} differences has an infinite end: {share:.1%} of the "
            "resamples repeat a single value (no spread), so more than alpha/2 = "
            f"{alpha / 2:g} of their t-statistics are infinite on one side; this needs more "
            "queries (4 or more at alpha 0.05) or fewer tied differences, or "
            "interval='sign-flip' / 'percentile'",
            SmallSampleWarning),)
    return low, high, ()


def studentized_draws(
    shift: npt.NDArray[np.float64], resampled_se: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """The bootstrap-t statistics: each resample's mean minus the estimate (``shift``) over its
    own standard error. A resample with no spread (one repeated value) gets +-infinity, or 0
    when it sits on the estimate."""
    with np.errstate(divide="ignore", invalid="ignore"):
        t_stats = shift / resampled_se
    no_spread = np.where(shift > 0, np.inf, np.where(shift < 0, -np.inf, 0.0))
    return np.where(resampled_se > 0, t_stats, no_spread)


def studentized_ends(
    t_stats: npt.NDArray[np.float64], estimate: float, standard_error: float, alpha: float
) -> tuple[float, float]:
    """The ``1 - alpha`` bootstrap-t interval read from ``studentized_draws``: the upper t
    quantile sets the low end and the lower one the high end; an end reaching an infinite
    statistic is infinite (`_quantile`)."""
    t_low, t_high = (_quantile(t_stats, q) for q in (alpha / 2, 1.0 - alpha / 2))
    return estimate - t_high * standard_error, estimate - t_low * standard_error


def _quantile(values: npt.NDArray[np.float64], q: float) -> float:
    """numpy's default (linear) quantile, but infinite when it would interpolate an infinity.

    np.quantile would give inf - inf = NaN, or a finite number next to an infinite neighbour;
    a quantile that reaches an infinite resample is itself unbounded.
    """
    position = q * (values.size - 1)
    below, above = math.floor(position), math.ceil(position)
    neighbours = np.partition(values, (below, above))[[below, above]]
    if np.isinf(neighbours[0]) and neighbours[0] < 0:
        return -math.inf
    if np.isinf(neighbours[1]) and neighbours[1] > 0:
        return math.inf
    return float(np.quantile(values, q))
