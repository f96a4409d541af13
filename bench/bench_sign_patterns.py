"""CPU seconds of the random sign patterns (issue 50) at many queries: the permutation test,
the sign-flip test (patterns and their sums of signs) and the lift (A and B flipped
together), on differences shaped as ranking data gives them.

Usage: .venv/bin/python bench/bench_sign_patterns.py [--n 700000] [--patterns 10000]
           [--values A.npy B.npy]

Shapes: 70% zeros and the rest continuous (nDCG-like), 70% zeros and steps of 0.1 (P@10), all
continuous. ``--values`` adds the per-query values of two runs (numpy files, aligned), e.g.
nDCG@10 of ``../shared/bench/make_data.py``'s 700,000 queries x 10 documents. CPU seconds
over both threads of one call each: they move less than wall time with the other load of a
shared machine. Not a timed test: run on demand.
"""

from __future__ import annotations

import argparse
import inspect
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ranklens.stats import permutation_test
from ranklens.stats.lift import relative_lift
from ranklens.stats.sign_flip import sign_flip_test


def _cpu(call: Callable[[], Any]) -> float:
    start = time.process_time()
    call()
    return time.process_time() - start


def _shapes(n: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """(A, B) per-query values of each shape."""
    rng = np.random.default_rng(50)
    a = rng.beta(2.0, 3.0, n)
    moved = rng.random(n) >= 0.7
    continuous = np.where(moved, np.clip(a + rng.normal(0.01, 0.15, n), 0, 1), a)
    p_at_10 = rng.integers(0, 11, n) / 10
    stepped = np.where(moved, np.clip(p_at_10 + rng.integers(-3, 4, n) / 10, 0, 1), p_at_10)
    return {"70% zeros, continuous": (a, continuous),
            "70% zeros, steps of 0.1": (p_at_10, stepped),
            "all continuous": (a, np.clip(a + rng.normal(0.01, 0.15, n), 0, 1))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=700_000)
    parser.add_argument("--patterns", type=int, default=10_000)
    parser.add_argument("--values", nargs=2, metavar=("A", "B"))
    args = parser.parse_args()
    shapes = _shapes(args.n)
    if args.values:
        shapes["--values"] = (np.load(args.values[0]), np.load(args.values[1]))
    m = args.patterns
    # what `compare` passes: B − A's interval and p (older versions take the interval only)
    given: dict[str, Any] = {"difference": (0.0, 0.0)}
    if "p_value" in inspect.signature(relative_lift).parameters:
        given["p_value"] = 1.0
    print(f"{m:,} patterns; CPU seconds of one call (a shared machine: read the ratios)")
    print("| differences | n | distinct | permutation_test | sign_flip_test | relative_lift |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, (a, b) in shapes.items():
        d = b - a
        cells = [_cpu(lambda d=d: permutation_test(d, n_permutations=m)),
                 _cpu(lambda d=d: sign_flip_test(d, n_permutations=m)),
                 _cpu(lambda a=a, b=b: relative_lift(a, b, n_permutations=m, **given))]
        print(f"| {name} | {d.size:,} | {np.unique(d).size:,} | "
              + " | ".join(f"{cell:.2f}" for cell in cells) + " |")


if __name__ == "__main__":
    main()
