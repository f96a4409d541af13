"""Speed of the bootstrap's index draws against numpy's ``Generator.integers``, same run.

Usage: .venv/bin/python bench/bench_draws.py [--repeats 5]

For n = 7,000 and n = 100,000, about 10 million exactly uniform indices in 0..n-1, then the
gather and row sums the bootstrap does with them (single thread, no chunking threads):
``ranklens.stats.draws.fill_uniform_indices`` on SFC64 raw words against
``Generator.integers(0, n, dtype=intp)`` on PCG64 (what the bootstrap used before). Prints ns
per index and the ratio. Not a timed test: run on demand.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from ranklens.stats.draws import fill_uniform_indices

BLOCK = 1 << 18  # draws per call, as in the bootstrap
TOTAL = 10_000_000


def _ns_per_index(step: Callable[[], None], calls: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            step()
        best = min(best, time.perf_counter() - start)
    return best / (calls * BLOCK) * 1e9


def _measure(n: int, calls: int, repeats: int) -> str:
    values = np.random.default_rng(n).normal(size=n)
    drawn = np.empty(BLOCK)
    indices = np.empty(BLOCK, dtype=np.uint32)
    ours_gen = np.random.Generator(np.random.SFC64(1))
    peer_gen = np.random.Generator(np.random.PCG64(1))

    def ours() -> None:
        fill_uniform_indices(ours_gen, n, indices)
        np.take(values, indices, mode="wrap", out=drawn)
        drawn.sum()

    def peer() -> None:
        np.take(values, peer_gen.integers(0, n, size=BLOCK, dtype=np.intp), mode="wrap",
                out=drawn)
        drawn.sum()

    def ours_draw_only() -> None:
        fill_uniform_indices(ours_gen, n, indices)

    def peer_draw_only() -> None:
        peer_gen.integers(0, n, size=BLOCK, dtype=np.intp)

    t_ours, t_peer = (_ns_per_index(f, calls, repeats) for f in (ours, peer))
    d_ours, d_peer = (_ns_per_index(f, calls, repeats) for f in (ours_draw_only, peer_draw_only))
    return (f"n = {n:,}: draw + gather + sum {t_ours:.2f} ns/index vs integers {t_peer:.2f} "
            f"({t_peer / t_ours:.2f}x); draw only {d_ours:.2f} vs {d_peer:.2f} "
            f"({d_peer / d_ours:.2f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    calls = TOTAL // BLOCK
    print(f"{calls * BLOCK:,} indices per timing, blocks of {BLOCK:,}, best of {args.repeats}")
    for n in (7_000, 100_000):
        print(_measure(n, calls, args.repeats))


if __name__ == "__main__":
    main()
