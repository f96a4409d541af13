"""A plan's labels against a uniform gold sample of the same cost, through the library, on runs.

    .venv/bin/python bench/validity_labels_library.py [--draws 250] [--queries 1000]

The issue's worlds, as a user meets them: four worlds of `../shared/bench/make_data.py`
(``--queries`` queries, depth 30, seeds 1-4), "make_data" as made (run B differs from run A on
almost every query) and "reranker 20%" (run B is run A except on a random 20% of the queries,
where it is make_data's run B). The proxy judges every document of both top 10 lists, as an
LLM asked about them would, with one of four errors against make_data's true grades: make_data's
own proxy (off by one level for about 25% of the judged documents, unjudged documents as
grade 0), "constant" (one level too high for 30% of the documents, whatever their grade or run),
"grade" (a relevant document one level too low half of the time, a non-relevant one graded 1
for 5%), "run" (a document in run B's top 10 but not run A's one level too high for 40% of
them, the rest off by one level for 10%), "calibrated" (an LLM that says how sure it is: each
document's confidence c is 0.5 + 0.5 x Beta(6, 1), mean .93, and its grade is one level off with
probability 1 - c; the plan reads c as a judge-confidence column, `--judge-confidence`).

A row is a world kind, a proxy and a cost: the documents a uniform sample of ``labels`` queries
judges in expectation (every document of both top 10 lists of each drawn query, what a team
labelling a uniform sample for PPI++ asks for). The plan (`plan_labels` with ``budget_docs``
that cost) and the uniform sample (each query with probability labels / queries) are drawn
``--draws`` times a world (each draw with its own seed, `draw`), labelled with the true grades,
and estimated by `design_estimate` (lam tuned), the estimator `ranklens ppi --design` uses.
Coverage is of the gold B - A (nDCG@10 on the listed documents) over all queries; its Monte
Carlo error is about sqrt(.95 x .05 / (4 x draws)). "Width ratio" is the plan's mean width over
the uniform sample's at the same expected documents judged, with its Monte Carlo error;
"queries" the plan's expected labelled queries at that cost.
"""

from __future__ import annotations

import argparse
import math
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from validity_rounds import _make_worlds

from ranklens import io
from ranklens.data import Qrels, Run
from ranklens.metrics import evaluate
from ranklens.metrics.top_k import grades_frame, top_k
from ranklens.ppi.labelling import plan_labels
from ranklens.stats.active_ppi import design_estimate, draw

PROXIES = ("make_data", "constant", "grade", "run", "calibrated")
LABELS = (30, 100, 200)


def listed_grades(run_a: Run, run_b: Run, truth: Qrels) -> pd.DataFrame:
    """Every document of both top 10 lists with its true grade (unjudged: 0) and whether it is
    in run B's top 10 only."""
    top_a, top_b = top_k(run_a, 10), top_k(run_b, 10)
    both = top_a.merge(top_b, on=["query_id", "doc_id"], how="outer", suffixes=("_a", "_b"))
    both = both.merge(grades_frame(truth), on=["query_id", "doc_id"], how="left")
    both["grade"] = both["grade"].fillna(0.0)
    both["b_only"] = both["rank_a"].isna()
    return both[["query_id", "doc_id", "grade", "b_only"]]


def proxy_grades(listed: pd.DataFrame, kind: str, made: Qrels, rng: np.random.Generator
                 ) -> tuple[Qrels, dict[tuple[str, str], float] | None]:
    """The proxy's grade of every listed document under one error kind (module text), and for
    "calibrated" the judge's spread of each label (`read_judge_confidence`'s 2 (1 - c))."""
    true = listed["grade"].to_numpy()
    u = rng.random(len(true))
    spread = None
    if kind == "calibrated":
        confidence = 0.5 + 0.5 * rng.beta(6.0, 1.0, len(true))
        off = np.where(true == 0, 1.0, np.where(true == 3, -1.0,
                                                np.where(rng.random(len(true)) < 0.5, 1.0, -1.0)))
        grade = np.where(u < 1.0 - confidence, true + off, true)
        spread = dict(zip(zip(listed["query_id"], listed["doc_id"], strict=True),
                          2.0 * (1.0 - confidence), strict=True))
    elif kind == "make_data":
        own = listed[["query_id", "doc_id"]].merge(grades_frame(made), how="left")
        grade = own["grade"].fillna(0.0).to_numpy()
    elif kind == "constant":
        grade = np.where(u < 0.3, np.minimum(true + 1, 3), true)
    elif kind == "grade":
        grade = np.where(true > 0, np.where(u < 0.5, true - 1, true),
                         np.where(u < 0.05, 1.0, true))
    else:
        b_only = listed["b_only"].to_numpy()
        off = np.where(rng.random(len(true)) < 0.5, 1.0, -1.0)
        grade = np.where(b_only, np.where(u < 0.4, np.minimum(true + 1, 3), true),
                         np.where(u < 0.1, np.clip(true + off, 0, 3), true))
    return Qrels.from_columns(listed["query_id"], listed["doc_id"], grade.astype(np.int64),
                              name=f"proxy_{kind}"), spread


def gold_deltas(run_a: Run, run_b: Run, listed: pd.DataFrame, queries: list[str]
                ) -> np.ndarray:
    """Each query's gold B - A (nDCG@10 under the true grades of the listed documents)."""
    judged = listed[listed["grade"] > 0]
    qrels = Qrels.from_columns(judged["query_id"], judged["doc_id"],
                               judged["grade"].astype(np.int64), name="gold")
    score = {side: evaluate(run, qrels, ["nDCG@10"], missing="zero")["nDCG@10"].per_query
             for side, run in (("a", run_a), ("b", run_b))}
    return np.array([score["b"].get(q, 0.0) - score["a"].get(q, 0.0) for q in queries])


class Row:
    """Coverage and widths of the plan and the uniform sample over the draws of one row."""

    def __init__(self) -> None:
        self.covered = {"plan": 0, "uniform": 0}
        self.widths: dict[str, list[float]] = {"plan": [], "uniform": []}
        self.queries: list[float] = []
        self.draws = 0

    def add(self, name: str, proxy: np.ndarray, gold: np.ndarray, drawn: np.ndarray,
            pi: np.ndarray) -> None:
        got = design_estimate(proxy, gold, drawn, pi)
        self.covered[name] += got.ci_low - 1e-12 <= gold.mean() <= got.ci_high + 1e-12
        self.widths[name].append(got.ci_high - got.ci_low)

    def cells(self) -> str:
        plan, uniform = (float(np.mean(self.widths[n])) for n in ("plan", "uniform"))
        # the ratio's Monte Carlo error (delta method; the two designs draw independently); a
        # plan that labels every query that can move has width 0 in every draw: no error
        spread = math.sqrt(sum(float(np.var(self.widths[n])) / (len(self.widths[n]) * m * m)
                               for n, m in (("plan", plan), ("uniform", uniform)) if m > 0))
        ratio = (f"{plan / uniform:.2f} +- {plan / uniform * spread:.3f}" if uniform > 0
                 else "-")
        return (f"{self.covered['plan'] / self.draws:.3f} | "
                f"{self.covered['uniform'] / self.draws:.3f} | {plan:.4f} | {uniform:.4f} | "
                f"{ratio} | {np.mean(self.queries):.0f}")


def world_rows(path: Path, draws: int, seed: int, rows: dict[tuple[str, int], Row]) -> None:
    """Adds ``draws`` plans and uniform samples of one world to every (proxy, labels) row."""
    run_a, run_b = (io.read_run(path / f"run_{s}.trec")[0] for s in "ab")
    made = io.read_qrels(path / "qrels_proxy.trec")[0]
    truth = io.read_qrels(path / "qrels.trec")[0]
    listed = listed_grades(run_a, run_b, truth)
    docs_per_query = float(listed.groupby("query_id").size().mean())
    world_queries = sorted(set(listed["query_id"]))
    gold_of = dict(zip(world_queries, gold_deltas(run_a, run_b, listed, world_queries),
                       strict=True))  # the world's truth: one evaluation, whatever the proxy
    rng = np.random.default_rng(seed)
    for kind in PROXIES:
        proxy, spread = proxy_grades(listed, kind, made, rng)
        for labels in LABELS:
            plan = plan_labels(run_a, run_b, proxy, budget_docs=labels * docs_per_query,
                               seed=0, judge_spread=spread)
            queries = plan.queries["query_id"].tolist()
            gold = np.array([gold_of[q] for q in queries])
            proxy_delta = plan.queries["proxy_delta"].to_numpy()
            pi_plan = plan.queries["probability"].to_numpy()
            pi_uniform = np.full(len(queries), labels / len(queries))
            row = rows.setdefault((kind, labels), Row())
            row.queries.append(float(pi_plan.sum()))
            for d in range(draws):
                s = seed * 100_003 + d
                row.add("plan", proxy_delta, gold, draw(pi_plan, s), pi_plan)
                row.add("uniform", proxy_delta, gold, draw(pi_uniform, s + (1 << 20)), pi_uniform)
                row.draws += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--draws", type=int, default=250)
    parser.add_argument("--queries", type=int, default=1000)
    args = parser.parse_args()
    mc = math.sqrt(0.95 * 0.05 / (4 * args.draws))
    print(f"| world | proxy | labels (uniform) | plan coverage | uniform coverage | plan width | "
          f"uniform width | width ratio | plan's queries |  (draws {4 * args.draws} a row, "
          f"MC error {mc:.3f})")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        worlds = _make_worlds(Path(folder), n_queries=args.queries)
        for name in ("make_data", "reranker 20%"):
            rows: dict[tuple[str, int], Row] = {}
            for i, (_, path) in enumerate(w for w in worlds if w[0] == name):
                world_rows(path, args.draws, i + 1, rows)
            for (kind, labels), row in rows.items():
                print(f"| {name} | {kind} | {labels} | {row.cells()} |")


if __name__ == "__main__":
    main()
