"""Does "and where?" hold its error rate, and find a planted slice? (`discover_slices`)

    .venv/bin/python bench/validity_slices.py [--worlds 600]

Each world: 2,000 queries with three segment columns (intent: 4 values, 40/30/20/10%; locale: 5;
length: 3) and per-query differences B - A ~ N(0.02, sd). Under *no heterogeneity* the effect is
the same everywhere: the share of worlds where any slice is confirmed is the search's
family-wise error. With a *planted slice*, the 10% of queries with intent "local" have B - A
0.05 below the rest: the share of worlds where exactly that slice is confirmed, and how often
its held-out interval covers its true B - A (-0.03). Defaults of the search: the queries split
in two halves, each searching for the other (cross-fitting); each half keeps its two strongest
slices of one column and its strongest pair; the six held-out tests are one Holm family; at
least 20 queries a slice in each half. The *oracle* is what no search can beat: one two-sided
Welch test at .05 of the planted slice against the rest on all 2,000 queries, as if its place
were known beforehand. For scale: the per-query nDCG@10 B - A of `make_data.py`'s runs has sd
0.26, where even the oracle finds this slice in about .75 of worlds.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from ranklens.stats.distributions import t_two_sided
from ranklens.stats.slices import discover_slices

SDS = (0.1, 0.15, 0.2, 0.25)


def world(rng: np.random.Generator, planted: bool, sd: float, n: int = 2000):
    intent = rng.choice(["nav", "info", "trans", "local"], n, p=[0.4, 0.3, 0.2, 0.1])
    locale = rng.choice(["en", "de", "fr", "ja", "es"], n)
    length = rng.choice(["short", "mid", "long"], n)
    deltas = rng.normal(0.02, sd, n)
    if planted:
        deltas[intent == "local"] -= 0.05
    return deltas, {"intent": intent, "locale": locale, "length": length}


def oracle_rejects(deltas: np.ndarray, inside: np.ndarray) -> bool:
    """The two-sided Welch test at .05 of a slice known beforehand against the rest."""
    a, b = deltas[inside], deltas[~inside]
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    return t_two_sided((a.mean() - b.mean()) / math.sqrt(va + vb), df) <= 0.05


def table(worlds: int, seed: int = 48) -> str:
    rng = np.random.default_rng(seed)
    lines = ["| per-query sd | any slice confirmed, no heterogeneity | planted slice confirmed "
             "| its held-out interval covers | oracle: the slice known beforehand |",
             "|---:|---:|---:|---:|---:|"]
    for sd in SDS:
        false_found = found = covered = oracle = 0
        for rep in range(worlds):
            deltas, features = world(rng, False, sd)
            false_found += bool(discover_slices(deltas, features, seed=rep).confirmed)
            deltas, features = world(rng, True, sd)
            hits = [s for s in discover_slices(deltas, features, seed=rep).confirmed
                    if dict(s.columns) == {"intent": "local"}]
            found += bool(hits)
            covered += sum(s.ci_low <= -0.03 <= s.ci_high for s in hits)
            oracle += oracle_rejects(deltas, features["intent"] == "local")
        lines.append(f"| {sd} | {false_found / worlds:.3f} | {found / worlds:.3f} | "
                     f"{covered / max(found, 1):.3f} | {oracle / worlds:.3f} |")
    lines.append(f"\n{worlds:,} worlds a row; Monte Carlo error of a share near .05: "
                 f"±{math.sqrt(0.05 * 0.95 / worlds):.3f}, near .8: "
                 f"±{math.sqrt(0.8 * 0.2 / worlds):.3f}.")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--worlds", type=int, default=600)
    args = parser.parse_args()
    print(table(args.worlds))


if __name__ == "__main__":
    main()
