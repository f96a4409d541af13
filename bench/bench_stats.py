"""Speed and memory of ranklens.stats resampling against scipy, measured in the same run.

Usage: .venv/bin/python bench/bench_stats.py [--repeats 3] [--skip-scipy]

n = 7,000 and n = 100,000 per-query differences, 10,000 resamples / permutations.
Ours: best wall time of ``--repeats`` runs, and the CPU time of one run (over both threads:
it is less disturbed by other processes on a shared machine). scipy: the first call (it pays
lazy imports and first-touch memory: 2-10x slower than later calls here) and the best of
``--repeats`` later calls; the ratio is taken against that best, so both sides are warm.
Peak extra memory is tracemalloc's peak during one call (numpy reports its buffers to it).
At n = 100,000 scipy's default BCa bootstrap needs an n x n jackknife array (74.5 GiB), so
only the percentile bootstrap runs, in batches of 500 resamples (its 10,000 x 100,000
indices at once would take 8 GB); its permutation test is skipped there (about 15x its
7,000 time).
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


def _scipy_bootstrap(
    deltas: np.ndarray, method: str, batch: int | None = None
) -> Callable[[], Any]:
    from scipy import stats

    return lambda: (
        stats.bootstrap(
            (deltas,),
            np.mean,
            n_resamples=N_RESAMPLES,
            method=method,
            random_state=0,
            vectorized=True,
            batch=batch,
        ).confidence_interval
    )


def _scipy_line(name: str, call: Callable[[], Any], repeats: int, ours: float) -> Any:
    """Time scipy cold and warm, print one line with the ratio to ours; return its result."""
    first, _ = _best_time(call, 1)
    best, result = _best_time(call, repeats)
    shown = (
        f"p={float(result):.5f}"
        if np.ndim(result) == 0
        else f"[{result.low:.5f}, {result.high:.5f}]"
    )
    print(
        f"  {name:42s} first {first:7.3f} s, best {best:7.3f} s  {shown}  "
        f"ratio {best / ours:6.1f}x"
    )
    return result


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
    print(
        f"{N_RESAMPLES:,} resamples / permutations; ours: best of {args.repeats}; "
        f"scipy: first call, then best of {args.repeats}"
    )
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
            _scipy_line(
                "scipy.stats.bootstrap (percentile, batch 500)",
                _scipy_bootstrap(deltas, "percentile", batch=500),
                1,
                boot_time,
            )
            print("  scipy.stats.bootstrap (BCa) and permutation_test: skipped at this n")
            continue
        for method in ("percentile", "BCa"):
            _scipy_line(
                f"scipy.stats.bootstrap ({method})",
                _scipy_bootstrap(deltas, method),
                args.repeats,
                boot_time,
            )
        _scipy_line(
            "scipy.stats.permutation_test (samples)",
            _scipy_permutation(deltas),
            args.repeats,
            perm_time,
        )
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
