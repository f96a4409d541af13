"""Memory-bounded blocks of resamples, each with its own random stream.

Resampling 10,000 times over 100,000 queries is a billion draws: it cannot be materialised at
once. The work is cut into blocks of about ``DRAWS_PER_BLOCK`` random draws. Each block draws
from its own stream spawned from the caller's seed, so the numbers depend only on the data,
the number of resamples and the seed: not on how many blocks run at a time or on which thread.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ranklens.stats.results import Seed

DRAWS_PER_BLOCK = 1 << 20
"""Default random draws per block (callers pick their own size for their memory layout)."""

PARALLEL_MIN_DRAWS = 1 << 23
"""Below this many draws in all, threads cost more than they save."""


def chunk_sizes(
    total: int, row_length: int, *, draws_per_block: int = DRAWS_PER_BLOCK
) -> list[int]:
    """Rows per block so that one block holds about ``draws_per_block`` values.

    ``total`` rows (resamples, permutations) of ``row_length`` values each; every block has
    at least one row, the sizes add up to ``total``.
    """
    if total < 0 or row_length < 1:
        raise ValueError(f"need total >= 0 and row_length >= 1, got {total}, {row_length}")
    rows = max(1, draws_per_block // row_length)
    full, rest = divmod(total, rows)
    return [rows] * full + ([rest] if rest else [])


def seed_sequence(seed: Seed) -> np.random.SeedSequence:
    """The caller's seed as a SeedSequence (an int seeds a new one; a SeedSequence is kept)."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise TypeError(f"seed must be an int or a numpy SeedSequence, got {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    return np.random.SeedSequence(int(seed))


def block_generators(
    seed: Seed,
    purpose: int,
    count: int,
    bit_generator: Callable[[np.random.SeedSequence], np.random.BitGenerator] = np.random.PCG64,
) -> list[np.random.Generator]:
    """``count`` independent generators for the blocks of one computation.

    ``purpose`` separates computations that share a seed (the bootstrap and the permutation
    test of one comparison must not reuse each other's draws). Unlike
    ``SeedSequence.spawn`` this does not change the caller's SeedSequence, so passing the
    same one twice gives the same numbers twice. ``bit_generator`` is PCG64 by default; the
    bootstrap takes SFC64, whose raw words come about 25% faster here.
    """
    root = seed_sequence(seed)
    return [
        np.random.Generator(
            bit_generator(
                np.random.SeedSequence(
                    root.entropy,
                    spawn_key=(*root.spawn_key, purpose, block),
                    pool_size=root.pool_size,
                )
            )
        )
        for block in range(count)
    ]


def purpose_generator(seed: Seed, purpose: int) -> np.random.Generator:
    """One generator (PCG64) for a computation that draws in one piece, separated by
    ``purpose`` from the others that share ``seed``; like `block_generators`, it leaves the
    caller's SeedSequence as it was."""
    root = seed_sequence(seed)
    return np.random.default_rng(np.random.SeedSequence(
        root.entropy, spawn_key=(*root.spawn_key, purpose), pool_size=root.pool_size))


def run_blocks(work: Callable[[int], None], n_blocks: int, total_draws: int) -> None:
    """Call ``work(block)`` for every block, on two threads when the job is large.

    ``work`` must write only to its own block's slice of the output; numpy releases the GIL
    in the random fills, gathers and reductions that do the work.
    """
    workers = min(2, os.cpu_count() or 1)
    if workers < 2 or n_blocks < 2 or total_draws < PARALLEL_MIN_DRAWS:
        for block in range(n_blocks):
            work(block)
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for _ in pool.map(work, range(n_blocks)):
            pass


def offsets(sizes: Sequence[int]) -> Iterator[tuple[int, int]]:
    """(start, stop) of each block in the concatenated output."""
    start = 0
    for size in sizes:
        yield start, start + size
        start += size
