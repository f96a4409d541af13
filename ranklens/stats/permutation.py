"""Sign-flip permutation test of the mean per-query difference."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ranklens.stats.chunking import block_generators, chunk_sizes, offsets, run_blocks
from ranklens.stats.errors import InsufficientSampleError
from ranklens.stats.pairing import Deltas, as_deltas
from ranklens.stats.results import Seed
from ranklens.stats.tolerance import SUM_TIES

_PERMUTATION_STREAM = 2  # purpose tag of the permutation test's random streams

_BITS = 8  # one random byte flips the signs of 8 consecutive differences
# About 320 permutations per block: a tile's index array (320 x 128 x 8 bytes) stays in
# cache, and there are few enough tiles per permutation that numpy's per-call cost is small.
# Measured on n = 7,000 and 100,000; 4x smaller or larger blocks ran slower at one of them.
_ROWS_PER_BLOCK = 320
_MIN_BYTES_PER_BLOCK = 1 << 18
_GROUPS_PER_TILE = 128  # 128 groups x 256 sums x 8 bytes = 256 KiB of table, fits in L2
# A binomial draw costs 25-75 ns here, a value through the lookup table about 0.6 ns: a row
# repeated this often is cheaper drawn as one count of kept signs.
_HEAVY = 64


def _sign_table(values: Deltas) -> npt.NDArray[np.float64]:
    """For each group of 8 consecutive values, the signed sum under each of the 256 bytes.

    Bit k of the byte set means value k of the group is negated. Values are padded with
    zeros to a multiple of 8.
    """
    n_groups = -(-values.size // _BITS)
    padded = np.zeros(n_groups * _BITS)
    padded[: values.size] = values
    bits = (np.arange(256)[:, None] >> np.arange(_BITS)[None, :]) & 1
    signs = 1.0 - 2.0 * bits  # (256, 8): +1 keeps, -1 flips
    return padded.reshape(n_groups, _BITS) @ signs.T  # (groups, 256)


def all_sums(values: Deltas) -> npt.NDArray[np.float64]:
    """Signed sums of ``values`` under all 2^len sign patterns."""
    sums = np.zeros(1)
    for value in values:
        sums = np.concatenate((sums + value, sums - value))
    return sums


def exact_sums(values: Deltas) -> npt.NDArray[np.float64]:
    """Signed sums of ``values`` under all 2^n sign patterns, each added up as `_exact_count`
    adds it (the sums of the first up to 16 values plus those of the rest), so the sign-flip
    interval and the exact p-value see the same sums to the bit."""
    head, tail = all_sums(values[:16]), all_sums(values[16:])
    return (tail[:, None] + head[None, :]).ravel()


def _exact_count(values: Deltas, threshold: float) -> tuple[int, int]:
    """Sign patterns (of all 2^n) whose |sum| reaches ``threshold``, and 2^n.

    The sums of the first up to 16 values are combined with those of the rest a slice at a
    time, so memory stays near 2^22 sums even when a large ``n_permutations`` allows
    enumerating 2^30 patterns.
    """
    head, tail = all_sums(values[:16]), all_sums(values[16:])
    step = max(1, (1 << 22) // head.size)
    extreme = 0
    for start in range(0, tail.size, step):
        sums = tail[start : start + step, None] + head[None, :]
        extreme += int(np.count_nonzero(np.abs(sums) >= threshold))
    return extreme, head.size * tail.size


def random_sums(
    values: Deltas, n_permutations: int, seed: Seed, *, with_signs: bool = False
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64] | None]:
    """Signed sums of ``values`` under the ``n_permutations`` random sign patterns of the
    permutation test with ``seed`` (the very patterns `permutation_test` counts), and with
    ``with_signs`` the sum of the signs of each pattern (the number kept minus the number
    flipped; None otherwise). The sign-flip interval (`ranklens.stats.sign_flip`) inverts the
    test from these, so the two agree to the bit. Drawn as `random_column_sums` draws them.
    """
    # drawn on the values turned to a sum of at least 0, so that negating every difference
    # mirrors the sums (and keeps the p-value) as it did when each query had its own bit
    turn = -1.0 if float(values.sum()) < 0.0 else 1.0
    sums, signs = random_column_sums(turn * values[:, None], n_permutations, seed,
                                     with_signs=with_signs)
    return turn * sums[:, 0], signs


def distinct_rows(columns: npt.NDArray[np.float64]
                  ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.intp]]:
    """The distinct rows of ``columns`` (n x k) in sorted order and how often each occurs;
    rows that are all zero are left out (their signed sums are 0 under every pattern)."""
    if columns.shape[1] == 1:
        distinct, counts = np.unique(columns[:, 0], return_counts=True)
        rows = distinct[:, None]
    elif columns.shape[1] == 2:  # as complex numbers: sorted by the first column, then the
        # second, 5x faster than np.unique(axis=0)
        pairs, counts = np.unique(columns[:, 0] + 1j * columns[:, 1], return_counts=True)
        rows = np.column_stack((pairs.real, pairs.imag))
    else:
        rows, counts = np.unique(columns, axis=0, return_counts=True)
    kept = np.any(rows != 0.0, axis=1)
    return rows[kept], counts[kept].astype(np.intp)


def random_column_sums(
    columns: npt.NDArray[np.float64], n_permutations: int, seed: Seed, *,
    with_signs: bool = False,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64] | None]:
    """Signed sums of each column of ``columns`` (n queries x k) under ``n_permutations``
    random sign patterns over the queries, one pattern flipping a query in every column at
    once: an (n_permutations x k) array, a function of the multiset of rows (not of their
    order), ``n_permutations`` and ``seed``; with ``with_signs`` also each pattern's sum of
    signs (kept minus flipped), without changing the sums to the bit.

    The patterns are drawn over the distinct rows, which is the same distribution as drawing
    a sign per query: ``m`` queries with the same row ``v`` add ``v (2 K - m)`` with
    ``K ~ Binomial(m, 1/2)``, their count of kept signs. A row seen `_HEAVY` times or more is
    drawn so, as one binomial count (numpy's exact sampler) a pattern; rarer rows get a random
    bit each through an 8-bit lookup table (their signs' sum is counted from the bits); rows
    of zeros add to the sums nothing and to the signs one binomial count, drawn last. So ties
    cost next to nothing (the queries with no difference, a metric with few values), while
    distinct continuous values cost what they did, about 0.6 ns a value and pattern here
    (on nDCG@10 of 700,000 queries of 10 documents 337,000 values stay in the table). It
    does not enumerate (`exact_sums` does).
    """
    n, width = columns.shape
    distinct, counts = distinct_rows(columns)
    zeros = n - int(counts.sum())
    heavy = counts >= _HEAVY
    light = np.repeat(distinct[~heavy], counts[~heavy], axis=0)
    heavy_rows, heavy_counts = distinct[heavy], counts[heavy]
    tables = [_sign_table(light[:, column]).ravel() for column in range(width)]
    if with_signs:
        heavy_rows = np.column_stack((heavy_rows, np.ones(heavy_counts.size)))
    n_groups = -(-light.shape[0] // _BITS)
    # the last byte's bits past the light values flip padding: not counted among the signs
    last_bits = np.uint8((1 << (light.shape[0] - _BITS * (n_groups - 1))) - 1)
    row_offsets = np.arange(n_groups, dtype=np.intp) * 256
    drawn = max(1, n_groups + heavy_counts.size)
    block_bytes = max(_ROWS_PER_BLOCK * drawn, _MIN_BYTES_PER_BLOCK)
    sizes = chunk_sizes(n_permutations, drawn, draws_per_block=block_bytes)
    spans = list(offsets(sizes))
    generators = block_generators(seed, _PERMUTATION_STREAM, len(sizes))
    sums = np.zeros((n_permutations, width + with_signs))

    def work(block: int) -> None:
        start, stop = spans[block]
        rows = stop - start
        size = rows * n_groups
        # raw 64-bit words cut into bytes: 7x faster here than Generator.bytes
        words = generators[block].bit_generator.random_raw(-(-size // 8))
        patterns = words.view(np.uint8)[:size].reshape(rows, n_groups)
        block_sums = np.zeros((width + with_signs, rows))
        for first in range(0, n_groups, _GROUPS_PER_TILE):
            last = min(first + _GROUPS_PER_TILE, n_groups)
            index = patterns[:, first:last] + row_offsets[first:last]
            for column, table in enumerate(tables):
                block_sums[column] += table[index].sum(axis=1)
        if with_signs and n_groups:  # kept minus flipped: the light values less 2 set bits
            flipped = np.bitwise_count(patterns[:, :-1]).sum(axis=1, dtype=np.int64)
            flipped += np.bitwise_count(patterns[:, -1] & last_bits)
            block_sums[-1] += light.shape[0] - 2.0 * flipped
        if heavy_counts.size:
            kept = generators[block].binomial(heavy_counts, 0.5, size=(rows, heavy_counts.size))
            signed = 2.0 * kept - heavy_counts  # kept minus flipped, per row
            for column in range(heavy_rows.shape[1]):
                block_sums[column] += (signed * heavy_rows[:, column]).sum(axis=1)
        if with_signs and zeros:
            block_sums[-1] += 2.0 * generators[block].binomial(zeros, 0.5, size=rows) - zeros
        sums[start:stop] = block_sums.T

    run_blocks(work, len(sizes), n_permutations * drawn)
    if with_signs:
        return np.ascontiguousarray(sums[:, :width]), np.ascontiguousarray(sums[:, width])
    return sums, None


def _random_count(values: Deltas, threshold: float, n_permutations: int, seed: Seed) -> int:
    """Random sign patterns (of ``n_permutations``) whose |sum| reaches ``threshold``."""
    sums, _ = random_sums(values, n_permutations, seed)
    return int(np.count_nonzero(np.abs(sums) >= threshold))


def is_exact(n: int, n_permutations: int) -> bool:
    """Whether `permutation_test` enumerates all 2^n sign patterns instead of drawing
    ``n_permutations`` of them: when they are no more."""
    return n < 63 and 2**n <= n_permutations


def permutation_test(
    deltas: Sequence[float] | Deltas,
    *,
    n_permutations: int = 10_000,
    seed: Seed = 0,
) -> float:
    """Two-sided p-value against H0: the per-query differences are symmetric around zero.

    In other words, under H0 it makes no difference for any query which run is called A
    and which B, so the sign of each difference is arbitrary. The test flips signs at
    random and counts how often the mean difference comes out at least as extreme as the
    observed one. The p-value is ``(b + 1) / (m + 1)``: the observed assignment belongs to
    the reference set, so it is never 0 — with 10k permutations the smallest reportable
    value is 1/10001. When all ``2^n`` sign patterns are no more than ``n_permutations``,
    they are enumerated instead and the p-value is exact: the share of patterns at least as
    extreme, the observed one included. "At least as extreme" forgives rounding of the sums
    relative to the scale of the differences (`ranklens.stats.tolerance.SUM_TIES`), so
    rescaling them does not change the p-value. The differences are taken as given: whether
    a difference is float noise depends on the metric values, which `compare` knows and sets
    to 0 first (`ranklens.stats.tolerance`). `sign_flip_interval` inverts this test.

    A small p-value says the mean difference of **this metric** is unlikely to be noise
    of the query sample. It says nothing about how differently the two runs order
    documents (see `ranklens.metrics.rbo`) or about the effect on users.
    """
    values = np.asarray(deltas, dtype=np.float64)
    if values.ndim == 1 and values.size < 2:
        raise InsufficientSampleError(values.size, 2)
    values = as_deltas(values)
    if n_permutations < 1:
        raise ValueError(f"n_permutations must be >= 1, got {n_permutations}")

    scale = float(np.abs(values).sum())
    if scale == 0.0:  # all differences are zero: every sign pattern ties with the observed one
        return 1.0
    threshold = abs(float(values.sum())) - SUM_TIES * scale
    if is_exact(values.size, n_permutations):
        extreme, patterns = _exact_count(values, threshold)
        return extreme / patterns
    extreme = _random_count(values, threshold, n_permutations, seed)
    return (extreme + 1) / (n_permutations + 1)
