"""Labels drawn in rounds with a stopping rule (`ranklens.ppi.rounds`): coverage, rule's error.

    .venv/bin/python bench/validity_rounds.py [--worlds 1000] [--draws 100] [--part both]

Three rounds are planned (M = 3), each look's interval at level 1 - .05/3 (Bonferroni over the
rounds; "at 95%": the interval of the three rounds combined at level .95); the question is
answered when the interval excludes 0 or lies within +-0.01 (the
effect that matters), and the rule stops at the first round that answers (else after round 3).
The rule errs when its claim is wrong: "B is better" (worse) when the gold B - A is not above
(below) 0, "no difference that matters" when |gold B - A| >= 0.01. "Naive" is the same rule
with every look at level .95 (no correction for looking three times).

Stats worlds (`--worlds` a row): `validity_labels.world` (1,000 queries, 20% or 60% moved by
the reranker, constant, grade-dependent or run-dependent proxy error); each round draws its
share of the budget among the queries not labelled yet by `inclusion_probabilities` of the
same noisy uncertainty score, and the rounds are combined by `combine_rounds` with
`round_weight`. One-shot: a single plan of the same total budget (interval at the same level).
Gold B - A "as drawn" is the world's; "0" and "0.01" shift the moved queries' gold and proxy
differences alike so that the mean over all queries is exactly 0 (every sign claim is wrong)
or exactly the effect that matters ("no difference that matters" is wrong).

Library worlds (`--draws` plans a row, over 4 worlds of `../shared/bench/make_data.py`, 200
queries, seeds 1-4): the CLI's path in Python (`plan_labels`, `plan_next_round`, `design_looks`)
with 15 expected queries a round, labelled with make_data's true grades; "make_data" as made,
"reranker 20%": run B is run A except on a random 20% of the queries, where it is make_data's
run B. Coverage is of the gold B - A over all queries (nDCG@10 on both top 10 lists); its Monte
Carlo error is about sqrt(.95 x .05 / rows).
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from ranklens.stats.active_ppi import (
    DesignEstimate,
    combine_rounds,
    design_estimate,
    draw,
    inclusion_probabilities,
    round_weight,
)
from ranklens.stats.distributions import t_quantile

ALPHA, ROUNDS, EFFECT = 0.05, 3, 0.01
MAKE_DATA = next((path for path in (
    Path(__file__).resolve().parents[2] / "shared" / "bench" / "make_data.py",
    Path("/work/shared/bench/make_data.py")) if path.exists()),
    Path("/work/shared/bench/make_data.py"))


def claim(low: float, high: float) -> str | None:
    if low > 0:
        return "better"
    if high < 0:
        return "worse"
    if low > -EFFECT and high < EFFECT:
        return "none"
    return None


def wrong(said: str | None, truth: float) -> bool:
    return {"better": truth <= 0, "worse": truth >= 0, "none": abs(truth) >= EFFECT,
            None: False}[said]


def naive(estimate: DesignEstimate) -> tuple[float, float]:
    half = t_quantile(1 - ALPHA / 2, estimate.df) * estimate.standard_error
    return estimate.estimate - half, estimate.estimate + half


class Tally:
    """Per-look coverage, the rule's and the naive rule's error, labels at the stop."""

    def __init__(self) -> None:
        self.n = 0
        self.covered = np.zeros(ROUNDS)
        self.width = np.zeros(ROUNDS)
        self.errors = {"rule": 0, "naive": 0}
        self.labels_at_stop = 0.0
        self.one_shot_width = 0.0
        self.covered_95 = 0

    def add(self, looks: list[DesignEstimate], truth: float) -> None:
        self.n += 1
        for j, look in enumerate(looks):
            self.covered[j] += look.ci_low - 1e-12 <= truth <= look.ci_high + 1e-12
            self.width[j] += look.ci_high - look.ci_low
        low, high = naive(looks[-1])
        self.covered_95 += low - 1e-12 <= truth <= high + 1e-12
        for rule, bounds in (("rule", [(e.ci_low, e.ci_high) for e in looks]),
                             ("naive", [naive(e) for e in looks])):
            said = next((claim(*b) for b in bounds if claim(*b)), None)
            self.errors[rule] += wrong(said, truth)
            if rule == "rule":
                stop = next((j for j, b in enumerate(bounds) if claim(*b)), ROUNDS - 1)
                self.labels_at_stop += looks[stop].n_drawn

    def cells(self) -> str:
        n = self.n
        return (" | ".join(f"{c / n:.3f}" for c in self.covered) + " | "
                + f"{self.covered_95 / n:.3f} | "
                + " | ".join(f"{w / n:.4f}" for w in self.width) + " | "
                + f"{self.errors['rule'] / n:.3f} | {self.errors['naive'] / n:.3f} | "
                + f"{self.labels_at_stop / n:.1f}")


def stats_rounds(proxy, gold, score, budget, rng) -> tuple[list[DesignEstimate], float]:
    labelled = np.zeros(len(gold), dtype=bool)
    estimates, weights, looks = [], [], []
    previous = np.zeros(len(gold))
    for k in range(1, ROUNDS + 1):
        pi = inclusion_probabilities(np.where(labelled, 0.0, score), budget / ROUNDS)
        drawn = draw(pi, int(rng.integers(1 << 31)), round_=k)
        estimates.append(design_estimate(proxy, gold, labelled | drawn,
                                         np.where(labelled, 1.0, pi), alpha=ALPHA / ROUNDS))
        weights.append(1.0 if k == 1 else round_weight(weights[-1], score, previous, pi))
        looks.append(combine_rounds(estimates, weights, alpha=ALPHA / ROUNDS))
        labelled |= drawn
        previous = pi
    pi = inclusion_probabilities(score, budget)
    one = design_estimate(proxy, gold, draw(pi, int(rng.integers(1 << 31))), pi,
                          alpha=ALPHA / ROUNDS)
    return looks, one.ci_high - one.ci_low


def print_stats(worlds: int, seed: int) -> None:
    from validity_labels import world

    rng = np.random.default_rng(seed)
    print(f"| proxy error | queries moved | gold B - A | labels (3 rounds) | coverage after "
          f"round 1 | 2 | 3 | at 95% after 3 | width 1 | 2 | 3 | rule's error | naive error | "
          f"labels at stop | width 3 / one-shot |  (worlds {worlds})")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    cells = [(kind, changed, truth, budget) for kind in ("constant", "grade", "run")
             for changed in (0.2, 0.6) for truth in (None, 0.0, EFFECT)
             for budget in ((30, 99, 201) if truth is None else (99,))]
    for kind, changed, truth, budget in cells:
        tally = Tally()
        for _ in range(worlds):
            gold, proxy, score = world(rng, changed, kind)
            if truth is not None:
                moved = score > 0
                shift = (truth * len(gold) - gold.sum()) / max(int(moved.sum()), 1)
                gold, proxy = gold + shift * moved, proxy + shift * moved
            looks, one = stats_rounds(proxy, gold, score, budget, rng)
            tally.add(looks, float(gold.mean()))
            tally.one_shot_width += one
        ratio = tally.width[-1] / tally.one_shot_width
        said = "as drawn" if truth is None else f"{truth:g}"
        print(f"| {kind} | {changed:.0%} | {said} | {budget} | {tally.cells()} | {ratio:.2f} |")


def _make_worlds(folder: Path, n_queries: int = 200) -> list[tuple[str, Path]]:
    import pandas as pd

    out = []
    for seed in (1, 2, 3, 4):
        made = folder / f"m{seed}"
        subprocess.run([sys.executable, str(MAKE_DATA), str(made), "--queries", str(n_queries),
                        "--depth", "30", "--judged", "10", "--seed", str(seed)], check=True,
                       capture_output=True)
        out.append(("make_data", made))
        rerank = folder / f"r{seed}"
        rerank.mkdir()
        names = ["q", "z", "d", "rank", "s", "t"]
        run_a = pd.read_csv(made / "run_a.trec", sep=" ", header=None, names=names, dtype=str)
        run_b = pd.read_csv(made / "run_b.trec", sep=" ", header=None, names=names, dtype=str)
        queries = sorted(set(run_a["q"]))
        moved = set(np.random.default_rng(seed).choice(queries, len(queries) // 5,
                                                       replace=False))
        both = pd.concat([run_a[~run_a["q"].isin(moved)], run_b[run_b["q"].isin(moved)]])
        both.to_csv(rerank / "run_b.trec", sep=" ", header=False, index=False)
        for name in ("run_a.trec", "qrels.trec", "qrels_proxy.trec"):
            (rerank / name).write_bytes((made / name).read_bytes())
        out.append(("reranker 20%", rerank))
    return out


def library_draws(path: Path, draws: int, first_seed: int, tally: Tally) -> None:
    import pandas as pd

    from ranklens import io
    from ranklens.data import Qrels
    from ranklens.metrics import evaluate
    from ranklens.metrics.top_k import grades_frame, top_k
    from ranklens.ppi.labelling import Rounds, plan_labels
    from ranklens.ppi.rounds import design_looks, plan_next_round

    run_a, run_b = (io.read_run(path / f"run_{s}.trec")[0] for s in "ab")
    proxy, truth = (io.read_qrels(path / n)[0] for n in ("qrels_proxy.trec", "qrels.trec"))
    grades = grades_frame(truth)
    listed = pd.concat([top_k(r, 10) for r in (run_a, run_b)])[["query_id", "doc_id"]]
    listed = listed.drop_duplicates()

    def label(rows):
        m = grades.merge(rows[["query_id", "doc_id"]], on=["query_id", "doc_id"])
        return Qrels.from_columns(m["query_id"], m["doc_id"], m["grade"].astype(int))

    scores = {s: evaluate(r, label(listed), ["nDCG@10"], missing="zero")["nDCG@10"].per_query
              for s, r in (("a", run_a), ("b", run_b))}
    queries = sorted(set(listed["query_id"]))
    true = float(np.mean([scores["b"].get(q, 0.0) - scores["a"].get(q, 0.0) for q in queries]))
    for s in range(first_seed, first_seed + draws):
        plan = plan_labels(run_a, run_b, proxy, budget_queries=15, seed=s,
                           rounds=Rounds(max_rounds=ROUNDS, effect=EFFECT))
        for _ in range(ROUNDS - 1):
            plan = plan_next_round(plan.design, run_a, run_b, proxy, label(plan.design),
                                   budget_queries=15, seed=s)
        looks, _ = design_looks(plan.design, run_a, run_b, proxy, label(plan.design))
        tally.add([look.estimate for look in looks], true)


def print_library(draws: int) -> None:
    print(f"| world | coverage after round 1 | 2 | 3 | at 95% after 3 | width 1 | 2 | 3 | "
          f"rule's error | naive error | labels at stop |  (plans {draws} a row)")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        worlds = _make_worlds(Path(folder))
        for name in ("make_data", "reranker 20%"):
            tally = Tally()
            paths = [path for kind, path in worlds if kind == name]
            for i, path in enumerate(paths):
                share = draws // len(paths) + (i < draws % len(paths))
                library_draws(path, share, 1000 * i, tally)
            print(f"| {name} | {tally.cells()} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--worlds", type=int, default=1000)
    parser.add_argument("--draws", type=int, default=100)
    parser.add_argument("--part", choices=("stats", "library", "both"), default="both")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Monte Carlo error of a share near .95: stats rows "
          f"+-{math.sqrt(0.95 * 0.05 / args.worlds):.3f}, library rows "
          f"+-{math.sqrt(0.95 * 0.05 / args.draws):.3f}.\n")
    if args.part in ("stats", "both"):
        print_stats(args.worlds, args.seed)
        print()
    if args.part in ("library", "both"):
        print_library(args.draws)


if __name__ == "__main__":
    main()
