"""Benchmark: the pairing step of ``ranklens.stats.compare`` on 1,000,000 queries.

Two `MetricResult`s of 1,000,000 queries each, built from arrays (as the metrics hand them
over), compared with 200 bootstrap resamples and 200 sign flips. Prints, for two cases (the
same queries in both runs; 1% of each run's queries missing from the other):

- the pairing step as ``compare`` runs it (``ranklens.stats.pairing.pair`` on the results),
- the whole ``compare()`` call,
- numpy's floor for the same work: ``numpy.intersect1d(..., return_indices=True)`` on the
  stored id arrays plus the two ``take`` of the values, and the ratio of pairing to it.

Target (issue 26): pairing <= 0.2 s on this 2-core machine (2.7 s before, when ``pair`` went
through ``per_query`` dicts, sets and sorted tuples). The machine's load average is printed
first: other work on the two cores inflates every wall time here.

    .venv/bin/python bench/bench_pairing.py [--queries N] [--repeat N]

Not a timed test: it prints, it does not assert the target.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from collections.abc import Callable

import numpy as np

from ranklens.data import MetricResult
from ranklens.stats import compare
from ranklens.stats.pairing import pair

TARGET_SECONDS = 0.2


def results(n: int, gap: bool) -> tuple[MetricResult, MetricResult]:
    """Two runs' values on ``n`` query ids (fresh string objects on each side, as two files
    read separately give); with ``gap``, every 100th query only in A, every 100th+1 only in B."""
    rng = np.random.default_rng(0)
    values_a = rng.random(n)
    values_b = np.clip(values_a + rng.normal(0.01, 0.1, n), 0.0, 1.0)
    keep_a = np.ones(n, dtype=bool)
    keep_b = np.ones(n, dtype=bool)
    if gap:
        keep_a[1::100] = False
        keep_b[::100] = False
    ids_a = np.array([f"q{i:07d}" for i in np.flatnonzero(keep_a)], dtype=object)
    ids_b = np.array([f"q{i:07d}" for i in np.flatnonzero(keep_b)], dtype=object)
    return (MetricResult.from_arrays("nDCG@10", ids_a, values_a[keep_a]),
            MetricResult.from_arrays("nDCG@10", ids_b, values_b[keep_b]))


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def floor(a: MetricResult, b: MetricResult) -> None:
    _, rows_a, rows_b = np.intersect1d(a.query_ids, b.query_ids, assume_unique=True,
                                       return_indices=True)
    a.values.take(rows_a)
    b.values.take(rows_b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; {args.queries:,} queries, "
          f"best of {args.repeat}")
    warnings.simplefilter("ignore")  # the gap case warns about the dropped queries
    for gap in (False, True):
        a, b = results(args.queries, gap)
        pairing = best(lambda: pair(a, b, stacklevel=1), args.repeat)  # noqa: B023
        whole = best(lambda: compare(a, b, n_resamples=200, n_permutations=200),  # noqa: B023
                     1)
        numpy_floor = best(lambda: floor(a, b), args.repeat)  # noqa: B023
        case = "1% of queries in one run only" if gap else "same queries in both runs"
        print(f"{case}:\n  pairing {pairing:.3f} s (target <= {TARGET_SECONDS} s: "
              f"{'met' if pairing <= TARGET_SECONDS else 'missed'}); whole compare() "
              f"{whole:.3f} s; numpy floor (intersect1d + take) {numpy_floor:.3f} s; "
              f"pairing / floor {pairing / numpy_floor:.2f}")


if __name__ == "__main__":
    main()
