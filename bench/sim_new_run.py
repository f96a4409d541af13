"""Candidate new-run intervals when the seed variance sits in one system (issue 45, part 2).

Run from the repository root (prints Markdown; about a minute on one shared core):

    nice -n 5 .venv/bin/python bench/sim_new_run.py [--replications 2000]

Each replication draws two systems on n queries: Y_ik = mu + q_i + r_k + e_ik, the query effects
shared in part (the pairing), seed effects r_k (variance ``seed``) and query x seed noise e_ik
(variance ``qs``) per system. Cells: a one-run baseline (BM25: K = 1, no seed variance) against
a 3- or 5-seed system; a stable system (small seed variance) against an unstable one; equal
seed variance. Every candidate sees the same draws:

- ``satterthwaite``: 0.2's interval, t with Satterthwaite's df estimated from the components;
- ``gpq``: the generalized pivotal quantity (Weerahandi 1993; Krishnamoorthy & Mathew 2004):
  each mean square replaced by its chi-square pivot, the interval the quantiles of
  D - Z sqrt(V*), the p-value 2 E[Phi(-|D| / sqrt(V*))] from the same 4,000 draws (so the
  interval excludes 0 exactly when p <= alpha);
- ``oracle``: D +- z sqrt(Var D) with the true variance components (the width to beat).

Type-I: true difference 0, share of p <= .05. Coverage: true difference 0.02.
"""

from __future__ import annotations

import argparse

import numpy as np
from scipy import stats as sps

from ranklens.stats.random_effects import new_run_moments
from ranklens.stats.seed_interval import generalized_intervals

ALPHA = 0.05

# (name, K_a, K_b, seed_a, seed_b, qs_a, qs_b) in units of the per-query difference variance
CELLS = [
    ("one-run baseline vs 3 seeds, seed = 0.5 query", 1, 3, 0.0, 0.5, 0.0, 0.5),
    ("one-run baseline vs 3 seeds, seed = 2 query", 1, 3, 0.0, 2.0, 0.0, 0.5),
    ("one-run baseline vs 3 seeds, seed = 0.1 query", 1, 3, 0.0, 0.1, 0.0, 0.5),
    ("one-run baseline vs 5 seeds, seed = 0.5 query", 1, 5, 0.0, 0.5, 0.0, 0.5),
    ("one-run baseline vs 5 seeds, seed = 2 query", 1, 5, 0.0, 2.0, 0.0, 0.5),
    ("stable (3) vs unstable (3), 0 vs 1", 3, 3, 0.0, 1.0, 0.2, 0.5),
    ("stable (3) vs unstable (5), 0.05 vs 1", 3, 5, 0.05, 1.0, 0.2, 0.5),
    ("equal seed variance (3 vs 3), 0.5", 3, 3, 0.5, 0.5, 0.5, 0.5),
    ("equal seed variance (5 vs 5), 2", 5, 5, 2.0, 2.0, 0.5, 0.5),
    ("no seed variance (3 vs 3)", 3, 3, 0.0, 0.0, 0.5, 0.5),
]
SIZES = (50, 200)
SCALE = 0.01  # the per-query difference variance: sd 0.1
N_DRAWS = 1000  # pivot draws per sample (the library's 4,000 is for one comparison)


def draw(rng, reps, n, k_a, k_b, seed_a, seed_b, qs_a, qs_b, delta):
    q = rng.normal(0.0, np.sqrt(SCALE), (reps, n, 1))  # the part of the query effect not shared
    sa = rng.normal(0.0, np.sqrt(seed_a * SCALE / n * 50), (reps, 1, k_a))
    sb = rng.normal(0.0, np.sqrt(seed_b * SCALE / n * 50), (reps, 1, k_b))
    a = sa + rng.normal(0.0, np.sqrt(qs_a * SCALE), (reps, n, k_a))
    b = delta + q + sb + rng.normal(0.0, np.sqrt(qs_b * SCALE), (reps, n, k_b))
    true_var = (SCALE + qs_a * SCALE / k_a + qs_b * SCALE / k_b) / n + (
        seed_a * SCALE / n * 50 / k_a + seed_b * SCALE / n * 50 / k_b)
    return a, b, true_var


def run(replications: int) -> None:
    print("| cell | n | method | coverage | type-I | mean width | width / oracle | MC err |")
    print("|---|---|---|---|---|---|---|---|")
    for c_index, (name, k_a, k_b, s_a, s_b, qs_a, qs_b) in enumerate(CELLS):
        for n in SIZES:
            rng = np.random.default_rng([45, 2, c_index, n])
            rows = {}
            for delta in (0.0, 0.02):
                a, b, true_var = draw(rng, replications, n, k_a, k_b, s_a, s_b, qs_a, qs_b,
                                      delta)
                est, se, df, _, _ = new_run_moments(a, b)
                tq = sps.t.ppf(1 - ALPHA / 2, df)
                sat = (est - tq * se, est + tq * se, 2 * sps.t.sf(np.abs(est / se), df))
                gpq = generalized_intervals(a, b, alpha=ALPHA, n_draws=N_DRAWS,
                                            seed=c_index * 1000 + n + int(delta * 100))
                z = sps.norm.ppf(1 - ALPHA / 2) * np.sqrt(true_var)
                oracle = (est - z, est + z, 2 * sps.norm.sf(np.abs(est) / np.sqrt(true_var)))
                for method, (lo, hi, p) in (("satterthwaite", sat), ("gpq", gpq),
                                            ("oracle", oracle)):
                    row = rows.setdefault(method, {})
                    if delta == 0.0:
                        row["type1"] = float(np.mean(p <= ALPHA))
                    else:
                        row["coverage"] = float(np.mean((lo <= delta) & (delta <= hi)))
                        row["width"] = float(np.mean(hi - lo))
            mc = np.sqrt(0.95 * 0.05 / replications)
            for method, row in rows.items():
                print(f"| {name} | {n} | {method} | {row['coverage']:.3f} | {row['type1']:.3f} | "
                      f"{row['width']:.4f} | {row['width'] / rows['oracle']['width']:.2f} | "
                      f"{mc:.3f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--replications", type=int, default=2000)
    run(parser.parse_args().replications)


if __name__ == "__main__":
    main()
