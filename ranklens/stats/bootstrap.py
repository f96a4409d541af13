"""Paired bootstrap: how precisely the mean per-query difference is measured."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ranklens.stats.chunking import block_generators, chunk_sizes, offsets, run_blocks
from ranklens.stats.draws import MAX_N, fill_uniform_indices
from ranklens.stats.errors import check_probability
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

    Queries are resampled with replacement ``n_resamples`` times. ``interval="percentile"``
    (default): the interval is the ``alpha/2`` and ``1 - alpha/2`` quantiles of the resampled
    means. ``interval="studentized"`` (bootstrap-t): the quantiles of the resampled
    t-statistics ``(mean* - mean) / (sd* / sqrt(n))`` scale the observed standard error; on
    small, skewed samples, where the percentile interval comes out too narrow, it covers
    closer to the nominal level. Resampling happens in memory-bounded blocks (see
    `ranklens.stats.chunking`).

    The interval says how precisely the mean is measured if the queries are a sample of a
    larger population of queries; it is not a test and is not adjusted for multiplicity.
    """
    values = as_deltas(deltas)
    _check(alpha, n_resamples, interval)
    n = values.size
    delta = float(values.mean())
    if interval == "percentile":
        means, _ = _resample(values, n_resamples, seed, with_sd=False)
        low, high = np.quantile(means, [alpha / 2, 1.0 - alpha / 2])
    else:
        low, high = _studentized(values, delta, n_resamples, alpha, seed)
    return BootstrapInterval(
        delta=delta,
        low=float(low),
        high=float(high),
        alpha=alpha,
        n_queries=n,
        n_resamples=n_resamples,
        seed=seed,
        method=interval,
    )


def _studentized(
    values: Deltas, delta: float, n_resamples: int, alpha: float, seed: Seed
) -> tuple[float, float]:
    n = values.size
    if n < 2:
        raise ValueError("a studentized interval needs at least two differences")
    standard_error = sample_sd(values) / np.sqrt(n)
    if standard_error == 0.0:  # every difference is the same: nothing varies under resampling
        return delta, delta
    means, sds = _resample(values, n_resamples, seed, with_sd=True)
    assert sds is not None
    shift = means - delta
    with np.errstate(divide="ignore", invalid="ignore"):
        t_stats = shift / (sds / np.sqrt(n))
    # A resample of one repeated value has no spread: its t is +-infinite (0 when it sits on the
    # mean). The largest finite float keeps the quantile interpolation free of inf - inf.
    huge = np.finfo(np.float64).max
    t_stats = np.where(sds > 0, t_stats, np.sign(shift) * huge)
    t_low, t_high = np.quantile(np.clip(t_stats, -huge, huge), [alpha / 2, 1.0 - alpha / 2])
    return delta - float(t_high) * standard_error, delta - float(t_low) * standard_error
