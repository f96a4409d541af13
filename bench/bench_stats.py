"""Speed and memory of ranklens.stats resampling against scipy, measured in the same run.

Usage: .venv/bin/python bench/bench_stats.py [--repeats 3] [--skip-scipy]

n = 7,000 and n = 100,000 per-query differences, 10,000 resamples / permutations.
Ours: best wall time of ``--repeats`` runs, and the CPU time of one run (over both threads:
it is less disturbed by other processes on a shared machine); scipy: one run. Peak extra
memory is tracemalloc's peak during one call (numpy reports its buffers to tracemalloc).
scipy is skipped at n = 100,000: its default BCa bootstrap needs an n x n jackknife array
(74.5 GiB) and the percentile variant and the permutation test take minutes there.
Not a timed test: run on demand; numbers depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import os
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

from ranklens.stats import paired_bootstrap, permutation_test

N_RESAMPLES = 10_000


def _best_time(call: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """Best wall time of ``repeats`` calls (and the last result)."""
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = call()
        best = min(best, time.perf_counter() - start)
    return best, result


def _cpu_time(call: Callable[[], Any]) -> float:
    """CPU seconds of one call, summed over threads: less sensitive to other load."""
    start = time.process_time()
    call()
    return time.process_time() - start


def _peak_mib(call: Callable[[], Any]) -> float:
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    call()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return (peak - base) / 2**20


def _scipy_bootstrap(deltas: np.ndarray, method: str) -> Callable[[], Any]:
    from scipy import stats

    return lambda: (
        stats.bootstrap(
            (deltas,),
            np.mean,
            n_resamples=N_RESAMPLES,
            method=method,
            random_state=0,
            vectorized=True,
        ).confidence_interval
    )


def _scipy_permutation(deltas: np.ndarray) -> Callable[[], Any]:
    from scipy import stats

    return lambda: (
        stats.permutation_test(
            (deltas,),
            np.mean,
            permutation_type="samples",
            n_resamples=N_RESAMPLES,
            vectorized=True,
            random_state=0,
        ).pvalue
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-scipy", action="store_true")
    args = parser.parse_args()

    print(f"cpus: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.2f}")
    print(f"{N_RESAMPLES:,} resamples / permutations; ours: best of {args.repeats}; scipy: 1 run")
    for n in (7_000, 100_000):
        deltas = np.random.default_rng(n).normal(0.005, 0.1, n)
        ours_boot = lambda d=deltas: paired_bootstrap(d, n_resamples=N_RESAMPLES)  # noqa: E731
        ours_perm = lambda d=deltas: permutation_test(d, n_permutations=N_RESAMPLES)  # noqa: E731
        boot_time, interval = _best_time(ours_boot, args.repeats)
        perm_time, p_value = _best_time(ours_perm, args.repeats)
        boot_mib, perm_mib = _peak_mib(ours_boot), _peak_mib(ours_perm)
        boot_cpu, perm_cpu = _cpu_time(ours_boot), _cpu_time(ours_perm)
        print(f"\nn = {n:,}")
        print(
            f"  paired_bootstrap  {boot_time:8.3f} s (cpu {boot_cpu:6.3f} s)  "
            f"peak extra {boot_mib:7.1f} MiB  "
            f"[{interval.low:.5f}, {interval.high:.5f}]"
        )
        print(
            f"  permutation_test  {perm_time:8.3f} s (cpu {perm_cpu:6.3f} s)  "
            f"peak extra {perm_mib:7.1f} MiB  "
            f"p={p_value:.5f}"
        )
        if args.skip_scipy:
            print("  scipy: skipped (--skip-scipy)")
            continue
        if n > 10_000:
            print(
                "  scipy: skipped at this n (BCa needs an n x n jackknife array, 74.5 GiB; "
                "percentile bootstrap and permutation_test take minutes)"
            )
            continue
        for method in ("percentile", "BCa"):
            scipy_time, scipy_ci = _best_time(_scipy_bootstrap(deltas, method), 1)
            print(
                f"  scipy.stats.bootstrap ({method:10s}) {scipy_time:8.3f} s  "
                f"[{scipy_ci.low:.5f}, {scipy_ci.high:.5f}]  ratio {scipy_time / boot_time:6.1f}x"
            )
        scipy_time, scipy_p = _best_time(_scipy_permutation(deltas), 1)
        print(
            f"  scipy.stats.permutation_test (samples) {scipy_time:8.3f} s  p={scipy_p:.5f}  "
            f"ratio {scipy_time / perm_time:6.1f}x"
        )
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
