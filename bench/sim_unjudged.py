"""When does a coverage gap flip the verdict? The simulation behind the unjudged guardrail.

    .venv/bin/python bench/sim_unjudged.py [--replicates 20] [--queries 200]

A baseline A and a candidate B rank the same queries. Judgements were made on the documents A
can retrieve (6% of them left unjudged at random, so A's top 10 is about 94% judged); B ranks a
share of "new" documents that A cannot retrieve (a dense first stage) and nobody judged. New
documents come from the same grade distribution and B scores them with the same model, so B's
unjudged documents are relevant at the rate of its judged ones (the printed rates check it).
The share of new documents sets the coverage gap; B's quality sets the true effect. A second
world makes the new documents half as often relevant (``--hole-relevance``; pools usually
found most relevant documents), to count banners raised on verdicts that were right.

For every cell (effect x share of new documents) and replicate it compares B with A three
ways on nDCG@10 and P@10: with complete judgements (the truth on these queries), with the
pooled judgements and unjudged = non-relevant (what trec_eval reports), and with judged-only
lists; and it asks the guardrail (``ranklens.compare.coverage``). A verdict is "B better",
"B worse" or "no difference" (permutation p <= 0.05). It prints, per cell, the mean coverage
gap, how often the reported verdict differs from the truth ("flipped"), how often the
guardrail fired, and at the end how well each candidate rule separates flipped from kept
verdicts. Seeds are fixed: the same command prints the same numbers.

``tests/test_coverage_simulation.py`` runs a small grid of the same simulation.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from dataclasses import dataclass

import numpy as np

from ranklens.compare.coverage import (
    MIN_GAP,
    interval_reading,
    same_rate_shift,
)
from ranklens.data import Qrels, Run
from ranklens.metrics import evaluate
from ranklens.stats import compare

CANDIDATES = 60  # documents each run can rank per query
UNJUDGED_OLD = 0.06  # documents A can retrieve that were left unjudged, at random
GRADE_SHARES = np.array([0.5, 0.3, 0.2])  # grades 1, 2, 3 among relevant documents
METRICS = ("nDCG@10", "P@10")
SEED = 20260518


@dataclass(frozen=True)
class Outcome:
    """One replicate of one cell, for one metric."""

    metric: str
    effect: float  # B's quality boost (model parameter)
    new_share: float  # share of B's candidates that A cannot retrieve
    hole_relevance: float  # new documents are relevant this many times as often as shared ones
    true_delta: float
    reported_delta: float
    gap: float  # judged@10 of A minus B (pooled judgements)
    truth: str
    reported: str
    judged_only: str
    shift: float
    changes: bool  # the interval moved by the shift reads differently
    fired: bool  # what ranklens does: changes and a gap of at least MIN_GAP
    hole_rate: float  # relevant share of B's unjudged top-10 documents (truth)
    judged_rate: float  # relevant share of B's judged top-10 documents


def verdict(p: float, delta: float, alpha: float = 0.05) -> str:
    if p > alpha or delta == 0:
        return "none"
    return "better" if delta > 0 else "worse"


def simulate(rng: np.random.Generator, n_queries: int, effect: float, new_share: float,
             hole_relevance: float = 1.0) -> tuple[Run, Run, Qrels, Qrels]:
    """Runs A and B, the complete qrels (truth) and the judged qrels (A's documents, 94%)."""
    relevant_share = rng.beta(2.0, 5.0, size=(n_queries, 1))

    def grades(n: int, factor: float = 1.0) -> np.ndarray:
        rel = rng.random((n_queries, n)) < relevant_share * factor
        levels = rng.choice(3, size=(n_queries, n), p=GRADE_SHARES) + 1
        return np.where(rel, levels, 0)

    shared = grades(CANDIDATES)  # documents both runs can retrieve
    n_new = round(new_share * CANDIDATES)
    new = grades(n_new, hole_relevance)  # documents only B retrieves
    noise_a = rng.normal(size=(n_queries, CANDIDATES))
    score_a = shared * 0.8 + noise_a
    # B sees CANDIDATES documents too: the last n_new shared ones are replaced by new ones
    b_grades = np.concatenate([shared[:, :CANDIDATES - n_new], new], axis=1)
    # B's noise has the same spread on every document; on shared ones it follows A's
    noise_b = 0.6 * np.concatenate([noise_a[:, :CANDIDATES - n_new],
                                    rng.normal(size=(n_queries, n_new))], axis=1)
    score_b = b_grades * 0.8 * (1.0 + effect) + noise_b + 0.8 * rng.normal(
        size=(n_queries, CANDIDATES))

    queries = np.repeat([f"q{i}" for i in range(n_queries)], CANDIDATES)
    shared_ids = np.array([[f"s{j}" for j in range(CANDIDATES)]] * n_queries)
    new_ids = np.array([[f"n{j}" for j in range(n_new)]] * n_queries).reshape(n_queries, n_new)
    b_ids = np.concatenate([shared_ids[:, :CANDIDATES - n_new], new_ids], axis=1)
    run_a = Run.from_columns(queries, shared_ids.ravel(), np.round(score_a, 6).ravel(), name="A")
    run_b = Run.from_columns(queries, b_ids.ravel(), np.round(score_b, 6).ravel(), name="B")

    all_ids = np.concatenate([shared_ids, new_ids], axis=1)
    all_grades = np.concatenate([shared, new], axis=1)
    q_all = np.repeat([f"q{i}" for i in range(n_queries)], all_ids.shape[1])
    truth = Qrels.from_columns(q_all, all_ids.ravel(), all_grades.ravel(), name="complete")
    judged = rng.random((n_queries, CANDIDATES)) >= UNJUDGED_OLD
    pooled = Qrels.from_columns(queries[judged.ravel()], shared_ids[judged], shared[judged],
                                name="judged")
    return run_a, run_b, truth, pooled


def hole_rates(run_b: Run, truth: Qrels, pooled: Qrels) -> tuple[float, float]:
    """Relevant share of B's unjudged and of its judged top-10 documents (truth labels)."""
    frame = run_b.to_frame()
    frame["rank"] = frame.groupby("query_id", observed=True)["score"].rank(
        ascending=False, method="first")
    top = frame[frame["rank"] <= 10]
    grades = truth.to_dict()
    judged = pooled.to_dict()
    rel = np.array([grades[q].get(d, 0) > 0 for q, d in zip(top["query_id"], top["doc_id"],
                                                              strict=True)])
    is_judged = np.array([d in judged.get(q, {}) for q, d in zip(top["query_id"], top["doc_id"],
                                                                   strict=True)])
    hole = float(rel[~is_judged].mean()) if (~is_judged).any() else float("nan")
    return hole, float(rel[is_judged].mean())


def replicate(seed: np.random.SeedSequence, n_queries: int, effect: float, new_share: float,
              n_resamples: int, hole_relevance: float = 1.0) -> list[Outcome]:
    rng = np.random.default_rng(seed)
    run_a, run_b, truth, pooled = simulate(rng, n_queries, effect, new_share, hole_relevance)
    names = [*METRICS, "Judged@10"]
    full = [evaluate(run, truth, names) for run in (run_a, run_b)]
    seen = [evaluate(run, pooled, names) for run in (run_a, run_b)]
    condensed = [evaluate(run, pooled, list(METRICS), judged_only=True) for run in (run_a, run_b)]
    hole, judged = hole_rates(run_b, truth, pooled)
    options = dict(n_resamples=n_resamples, n_permutations=n_resamples, seed=0)
    outcomes = []
    for metric in METRICS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            true = compare(full[0][metric], full[1][metric], **options)
            reported = compare(seen[0][metric], seen[1][metric], **options)
            only = compare(condensed[0][metric], condensed[1][metric], **options)
        cov_a, cov_b = seen[0]["Judged@10"].mean, seen[1]["Judged@10"].mean
        shift = same_rate_shift(reported.mean_a, reported.mean_b, cov_a, cov_b)
        low, high = reported.interval.low, reported.interval.high
        changes = interval_reading(low, high) != interval_reading(low + shift, high + shift)
        outcomes.append(Outcome(
            metric, effect, new_share, hole_relevance, true.delta, reported.delta, cov_a - cov_b,
            verdict(true.p_value, true.delta), verdict(reported.p_value, reported.delta),
            verdict(only.p_value, only.delta), shift, changes,
            bool(changes and abs(cov_a - cov_b) >= MIN_GAP), hole, judged))
    return outcomes


def run_grid(effects: tuple[float, ...], shares: tuple[float, ...], replicates: int,
             n_queries: int, n_resamples: int = 2000, seed: int = SEED,
             hole_relevance: float = 1.0) -> list[Outcome]:
    """Every cell of the grid, ``replicates`` times, each from its own spawned seed."""
    root = np.random.SeedSequence([seed, round(100 * hole_relevance)])
    cells = [(e, s) for e in effects for s in shares]
    seeds = root.spawn(len(cells) * replicates)
    outcomes: list[Outcome] = []
    for i, (effect, share) in enumerate(cells):
        for r in range(replicates):
            outcomes += replicate(seeds[i * replicates + r], n_queries, effect, share,
                                  n_resamples, hole_relevance)
    return outcomes


def rule_scores(outcomes: list[Outcome], fires) -> tuple[float, float, int, int]:
    """(share of flipped verdicts the rule flags, share of kept verdicts it flags, n flipped,
    n kept)."""
    flipped = [o for o in outcomes if o.reported != o.truth]
    kept = [o for o in outcomes if o.reported == o.truth]
    hit = sum(fires(o) for o in flipped) / max(1, len(flipped))
    false = sum(fires(o) for o in kept) / max(1, len(kept))
    return hit, false, len(flipped), len(kept)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=20)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--hole-relevance", type=float, default=1.0,
                        help="new documents are relevant this many times as often (default 1)")
    parser.add_argument("--summary-only", action="store_true")
    args = parser.parse_args(argv)
    effects = (0.0, 0.1, 0.2, 0.35)
    shares = (0.0, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3)
    start = time.perf_counter()
    outcomes = run_grid(effects, shares, args.replicates, args.queries,
                        hole_relevance=args.hole_relevance)
    print(f"{len(outcomes)} outcomes in {time.perf_counter() - start:.0f} s "
          f"({args.replicates} replicates x {len(effects) * len(shares)} cells x "
          f"{len(METRICS)} metrics, {args.queries} queries, unjudged documents relevant "
          f"{args.hole_relevance:g} times as often as shared ones)")
    for metric in () if args.summary_only else METRICS:
        print(f"\n{metric}: effect, new share -> true delta, reported delta, shift, gap "
              "(points), flipped, guardrail fired, judged-only flipped, relevant rate of "
              "holes / judged")
        for effect in effects:
            for share in shares:
                cell = [o for o in outcomes if o.metric == metric and o.effect == effect
                        and o.new_share == share]
                flipped = np.mean([o.reported != o.truth for o in cell])
                fired = np.mean([o.fired for o in cell])
                only = np.mean([o.judged_only != o.truth for o in cell])
                holes = np.nanmean([o.hole_rate for o in cell]) if share else float("nan")
                true_delta = np.mean([o.true_delta for o in cell])
                print(f"  {effect:4.2f} {share:4.2f} -> {true_delta:+.4f}"
                      f" {np.mean([o.reported_delta for o in cell]):+.4f}"
                      f" {np.mean([o.shift for o in cell]):+.4f}"
                      f" {100 * np.mean([o.gap for o in cell]):5.1f}"
                      f"  flipped {flipped:4.0%}  fired {fired:4.0%}  judged-only {only:4.0%}"
                      f"  rates {holes:.2f} / {np.mean([o.judged_rate for o in cell]):.2f}")
    print("\nRules (share of flipped verdicts flagged / share of kept verdicts flagged):")
    rules = {f"shift rule, min gap {100 * MIN_GAP:.0f} points (ranklens)": lambda o: o.fired}
    for g in (0.0, 0.01, 0.03, 0.05):
        rules[f"shift rule, min gap {100 * g:.0f} points"] = (
            lambda o, g=g: o.changes and abs(o.gap) >= g)
    for g in (0.03, 0.05, 0.10, 0.15, 0.20):
        rules[f"gap >= {100 * g:.0f} points, whatever the effect"] = (
            lambda o, g=g: abs(o.gap) >= g)
    for name, fires in rules.items():
        hit, false, n_flip, n_kept = rule_scores(outcomes, fires)
        print(f"  {name:48s} {hit:5.0%} / {false:5.0%}  (of {n_flip} flipped, {n_kept} kept)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
