"""Do the leaderboard's rank intervals hold, and how wide are they? (`ranklens.stats.ranks`)

    .venv/bin/python bench/validity_ranks.py                      # the table in docs/validity.md
    .venv/bin/python bench/validity_ranks.py --worlds 100 --runs 30

Each world draws per-query values of R runs on Q queries: a query effect shared by all runs
(queries differ in difficulty), true run means with ties (groups of equal means), and
per-query noise that is skewed (centred exponential) and correlated between runs (half of
it shared, as checkpoints of one model share their errors). Per world: whether every true
rank (1 + the runs truly above) lies in its interval (simultaneous coverage), whether any
pair of equal true means was separated (family-wise error), and the mean interval width,
beside an oracle that knows the noise: it separates a pair when its mean difference exceeds
the 95% quantile of the largest standardized difference under the true model, each pair
standardized by its true standard error.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from ranklens.stats.ranks import leaderboard, rank_intervals


def world(rng: np.random.Generator, truth: np.ndarray, queries: int) -> np.ndarray:
    runs = len(truth)
    query = rng.normal(0.4, 0.15, (queries, 1))
    shared = rng.exponential(0.05, (queries, 1)) - 0.05
    own = rng.exponential(0.05, (queries, runs)) - 0.05
    return query + truth + 0.5 * own + 0.5 * shared


def oracle_critical(rng: np.random.Generator, truth: np.ndarray, queries: int,
                    draws: int = 400) -> float:
    """95% quantile of max |mean difference - true difference| / true se over all pairs."""
    runs = len(truth)
    se = math.sqrt(2 * 0.25 * 0.05**2 / queries)  # own noise 0.5 * Exp(0.05): var 0.25 * 0.05^2
    maxima = []
    for _ in range(draws):
        means = world(rng, truth, queries).mean(axis=0) - truth
        gaps = np.abs(means[:, None] - means[None, :])[np.triu_indices(runs, 1)]
        maxima.append(gaps.max() / se)
    return float(np.quantile(maxima, 0.95)) * se


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, nargs="+", default=[30, 200])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--worlds", type=int, nargs="+", default=[400, 40])
    parser.add_argument("--permutations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print("| runs | queries | worlds | true-mean groups | all ranks covered | FWER (tied pairs "
          "separated) | mean width | oracle width | seconds per world |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for runs, worlds in zip(args.runs, args.worlds * len(args.runs), strict=False):
        rng = np.random.default_rng(args.seed)
        groups = max(2, runs // 5)
        truth = np.repeat(np.linspace(0.0, 0.004 * groups, groups),
                          -(-runs // groups))[:runs]
        true_rank = 1 + (truth[None, :] > truth[:, None]).sum(axis=1)
        tied = truth[:, None] == truth[None, :]
        critical = oracle_critical(rng, truth, args.queries)
        covered = fwer = 0
        widths, oracle_widths = [], []
        started = time.perf_counter()
        for _ in range(worlds):
            values = world(rng, truth, args.queries)
            board = leaderboard(values, n_permutations=args.permutations,
                                seed=int(rng.integers(1 << 31)))
            low, high = np.array(board.rank_low), np.array(board.rank_high)
            covered += bool(((low <= true_rank) & (true_rank <= high)).all())
            fwer += bool((board.separated & tied).any())
            widths.append(float((high - low).mean()))
            means = values.mean(axis=0)
            o_low, o_high = rank_intervals(means, np.abs(means[:, None] - means[None, :])
                                           > critical)
            oracle_widths.append(float((o_high - o_low).mean()))
        seconds = (time.perf_counter() - started) / worlds
        mc = math.sqrt(0.95 * 0.05 / worlds)
        print(f"| {runs} | {args.queries} | {worlds} | {groups} | {covered / worlds:.3f} "
              f"(± {mc:.3f}) | {fwer / worlds:.3f} | {np.mean(widths):.2f} | "
              f"{np.mean(oracle_widths):.2f} | {seconds:.1f} |")


if __name__ == "__main__":
    main()
