"""How fast is a leaderboard of many runs (every pair tested, rank intervals, tiers)?

    .venv/bin/python bench/bench_leaderboard.py [--runs 20 50 200] [--queries 1000]
        [--ranx-python /path/to/python-with-ranx]

Ours: `ranklens.stats.ranks.leaderboard` on a (queries x runs) matrix of per-query values:
every pair of runs by step-down max-t over 10,000 sign flips of whole queries (the
family-wise error held over all pairs at once), then rank intervals and letters.

The peer, where a Python with ranx is given (ranx is not a dependency of ranklens: install it
in a venv of its own, ``python -m venv /tmp/ranxenv && /tmp/ranxenv/bin/pip install ranx``),
on the same matrix, in one process of that Python:

- ranx's ``tukey`` test (``ranx.statistical_tests.tukey_hsd_test``: scipy's ``tukey_hsd``,
  a one-way ANOVA's Tukey HSD, which treats the runs' values as independent groups, not as
  paired on queries);
- ranx's ``fisher`` randomization test (``fisher_randomization_test``, 1,000 permutations,
  its default) in a loop over every pair, as elinor-style scripts do: paired, but each pair
  at its own alpha (no family-wise correction).

Prints seconds, pairs per second and how many times faster ours is than each peer. Not a test: run
on demand, on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time

import numpy as np

from ranklens.stats.ranks import leaderboard

PEER = """
import json, sys, time
import numpy as np
from ranx.statistical_tests.tukey_hsd_test import tukey_hsd_test
from ranx.statistical_tests.fisher_randomization_test import fisher_randomization_test
values = np.load(sys.argv[1])
runs = values.shape[1]
names = [f"r{i}" for i in range(runs)]
scores = [values[:, i].copy() for i in range(runs)]
fisher_randomization_test(scores[0], scores[1], 1000, 0.05, 42)  # numba compiles first
started = time.perf_counter()
tukey_hsd_test(names, scores, 0.05)
tukey = time.perf_counter() - started
fisher = None
if runs <= int(sys.argv[2]):
    started = time.perf_counter()
    for i in range(runs):
        for j in range(i + 1, runs):
            fisher_randomization_test(scores[i], scores[j], 1000, 0.05, 42)
    fisher = time.perf_counter() - started
print(json.dumps({"tukey": tukey, "fisher": fisher}))
"""


def matrix(runs: int, queries: int, seed: int = 0) -> np.ndarray:
    """Per-query values in [0, 1]: a query effect, run means 0.002 apart, run noise."""
    rng = np.random.default_rng(seed)
    values = (rng.normal(0.4, 0.2, (queries, 1)) + np.linspace(0, 0.002 * runs, runs)
              + rng.normal(0, 0.1, (queries, runs)))
    return np.clip(values, 0.0, 1.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, nargs="+", default=[20, 50, 200])
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--permutations", type=int, default=10_000)
    parser.add_argument("--ranx-python")
    parser.add_argument("--fisher-up-to", type=int, default=50,
                        help="runs up to which the per-pair Fisher loop is timed")
    args = parser.parse_args()
    print("| runs | pairs | ours s | pairs/s | ranx tukey s | ours faster by | "
          "ranx fisher loop s | ours faster by |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for runs in args.runs:
        values = matrix(runs, args.queries)
        pairs = runs * (runs - 1) // 2
        started = time.perf_counter()
        board = leaderboard(values, n_permutations=args.permutations)
        ours = time.perf_counter() - started
        assert len(board.family.pairs) == pairs
        tukey = fisher = None
        if args.ranx_python:
            path = f"/tmp/bench_leaderboard_{runs}.npy"
            np.save(path, values)
            done = subprocess.run([args.ranx_python, "-c", PEER, path, str(args.fisher_up_to)],
                                  capture_output=True, text=True, check=True)
            peer = json.loads(done.stdout.strip().splitlines()[-1])
            tukey, fisher = peer["tukey"], peer["fisher"]
        print(f"| {runs} | {pairs:,} | {ours:.2f} | {pairs / ours:,.0f} | "
              f"{'-' if tukey is None else f'{tukey:.2f}'} | "
              f"{'-' if tukey is None else f'{tukey / ours:.1f}x'} | "
              f"{'-' if fisher is None else f'{fisher:.2f}'} | "
              f"{'-' if fisher is None else f'{fisher / ours:.1f}x'} |")


if __name__ == "__main__":
    main()
