"""Labels drawn by a plan (`ranklens.stats.active_ppi`): coverage and width against uniform.

    .venv/bin/python bench/validity_labels.py [--worlds 1000]

Each world has 1,000 queries; a share of them (20% or 60%) is moved by the reranker, the
rest has the same top documents in both runs (gold and proxy B - A exactly 0: no label can
move them). Moved queries have a gold B - A ~ N(0.02, 0.15) and a proxy B - A off by noise of
a per-query scale (0.02-0.12) plus a systematic error: constant (+0.02 on every moved query),
grade-dependent (30% of the gold difference) or run-dependent (0.03 against the sign of the
difference). The plan knows each query's error scale only up to a lognormal(0, 0.3) factor.
For a budget of n expected labelled queries the plan draws by `inclusion_probabilities`;
the uniform sample draws every query with n / 1,000 (PPI++ on a uniform gold sample of the
same cost). Both are estimated by `design_estimate` (lam tuned). Coverage is of the gold mean
over all 1,000 queries; its Monte Carlo error is about sqrt(.95 x .05 / worlds).
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from ranklens.stats.active_ppi import design_estimate, draw, inclusion_probabilities


def world(rng: np.random.Generator, changed: float, kind: str):
    n = 1000
    moved = rng.random(n) < changed
    gold = np.where(moved, rng.normal(0.02, 0.15, n), 0.0)
    scale = np.where(moved, rng.uniform(0.02, 0.12, n), 0.0)
    error = rng.normal(0, 1, n) * scale
    error += np.where(moved, {"constant": 0.02 + 0 * gold, "grade": 0.3 * gold,
                              "run": -0.03 * np.sign(gold)}[kind], 0.0)
    return gold, gold - error, scale * rng.lognormal(0, 0.3, n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--worlds", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"| proxy error | queries moved | labels | plan coverage | uniform coverage | "
          f"plan width / uniform width |  (worlds {args.worlds}, MC error "
          f"{math.sqrt(0.95 * 0.05 / args.worlds):.3f})")
    print("|---|---:|---:|---:|---:|---:|")
    for kind in ("constant", "grade", "run"):
        for changed in (0.2, 0.6):
            for budget in (30, 100, 200):
                covered = {"plan": 0, "uniform": 0}
                widths: dict[str, list[float]] = {"plan": [], "uniform": []}
                for _ in range(args.worlds):
                    gold, proxy, score = world(rng, changed, kind)
                    plans = {"plan": inclusion_probabilities(score, budget),
                             "uniform": np.full(len(gold), budget / len(gold))}
                    for name, pi in plans.items():
                        got = design_estimate(proxy, gold, draw(pi, int(rng.integers(1 << 31))),
                                              pi)
                        covered[name] += (got.ci_low - 1e-12 <= gold.mean()
                                          <= got.ci_high + 1e-12)
                        widths[name].append(got.ci_high - got.ci_low)
                ratio = np.mean(widths["plan"]) / np.mean(widths["uniform"])
                print(f"| {kind} | {changed:.0%} | {budget} | "
                      f"{covered['plan'] / args.worlds:.3f} | "
                      f"{covered['uniform'] / args.worlds:.3f} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
