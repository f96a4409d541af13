"""Blocks and their random streams."""

from __future__ import annotations

import numpy as np
import pytest

from ranklens.stats.chunking import block_generators, chunk_sizes, seed_sequence


@pytest.mark.parametrize(("total", "row_length"), [(10_000, 7), (10_000, 7000), (3, 10**7), (0, 5)])
def test_blocks_cover_every_row_within_the_budget(total: int, row_length: int) -> None:
    sizes = chunk_sizes(total, row_length, draws_per_block=1 << 20)
    assert sum(sizes) == total
    assert all(size >= 1 for size in sizes)
    assert all(size * row_length <= max(1 << 20, row_length) for size in sizes)


def test_block_streams_are_reproducible_distinct_and_leave_the_seed_untouched() -> None:
    sequence = np.random.SeedSequence(5)
    first = [g.integers(0, 2**32, 4).tolist() for g in block_generators(sequence, 1, 3)]
    assert sequence.n_children_spawned == 0
    assert first == [g.integers(0, 2**32, 4).tolist() for g in block_generators(sequence, 1, 3)]
    assert len({tuple(x) for x in first}) == 3
    other_purpose = [g.integers(0, 2**32, 4).tolist() for g in block_generators(sequence, 2, 3)]
    assert other_purpose != first
    assert first == [g.integers(0, 2**32, 4).tolist() for g in block_generators(5, 1, 3)]


def test_seed_validation() -> None:
    assert seed_sequence(np.int64(3)).entropy == 3
    with pytest.raises(ValueError):
        seed_sequence(-1)
    with pytest.raises(TypeError):
        seed_sequence(True)
