"""Which queries and documents to judge: a labelling plan for B - A, and its estimate.

Between MDE (how many queries) and PPI++ (correct cheap judgements with a gold sample) a team
with a labelling budget asks: *which* queries should the annotators judge? Here each query
gets a probability of being drawn that grows with how far its gold B - A may lie from its
proxy B - A (`ranklens.stats.active_ppi`), and a drawn query lists the documents to judge:
those in either run's top k (the metric's cutoff), each with why:

- a document the two runs put at different ranks of the top k (or in one top k only) moves
  B - A with its grade: "moves B - A";
- one at the same rank in both top k lists moves it only through the metric's normalisation
  (nDCG's ideal DCG): "normalisation only";
- one already in the gold judgements is not asked for again.

A query whose two top k lists are the same documents in the same order cannot move, whatever
the labels: it gets probability 0 and needs no label.

B - A is measured on the documents of both top k lists (the ideal DCG too): under the proxy
grades for every query, under the gold ones for the drawn queries, so that the two differ by
the grades alone.

How far a query's gold B - A may lie from the proxy's is scored from the documents that move
it: sqrt(sum over them of ((weight in B - weight in A) x the grade's spread)^2), divided by
the query's ideal DCG under the proxy judgements (nDCG) or by k (P). A grade's spread is the
judge's own where a judge-confidence table gives it (``judge_spread``,
``ranklens.io.read_judge_confidence``: a label's probability, or several judges' spread),
else the assumed ``grade_noise`` (in grade levels). It only ranks queries against each other
and sizes the expected widths; the estimate's validity does not rest on it.

`plan_labels` makes the plan; `design_estimate_from_gold` reads the gold labels of the drawn
queries and gives the interval (`ranklens.stats.active_ppi.design_estimate`). Metrics:
nDCG@k and P@k. It does not run rounds nor stop early (one draw per plan).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ranklens.data import Qrels, Run
from ranklens.errors import RanklensError
from ranklens.formats import format_level
from ranklens.metrics import evaluate
from ranklens.metrics.names import parse_metric
from ranklens.metrics.top_k import grades_frame, top_k
from ranklens.stats.active_ppi import (
    DesignEstimate,
    budget_for_width,
    design_estimate,
    draw,
    expected_width,
    inclusion_probabilities,
)

GRADE_NOISE = 0.5
"""Assumed spread of a proxy grade around the gold one, in grade levels."""

PLAN_COLUMNS = ("query_id", "doc_id", "probability", "reason", "rank_a", "rank_b",
                "proxy_grade", "metric", "budget", "seed")


class PlanError(RanklensError, ValueError):
    """A plan or gold file that does not fit the runs: said in words."""


@dataclass(frozen=True)
class LabelPlan:
    """The plan: every query's probability and whether it was drawn (``queries``: query_id,
    probability, drawn, uncertainty, proxy_delta, n_docs), the documents to judge of the
    drawn queries (``documents``, `PLAN_COLUMNS`), the expected widths of B - A's interval
    under this plan and under a uniform sample of the same expected number of queries, and
    the settings that reproduce it."""

    metric: str
    budget: float
    seed: int
    queries: pd.DataFrame
    documents: pd.DataFrame
    width_plan: float
    width_uniform: float
    alpha: float

    def budget_for_width(self, width: float) -> int:
        """Expected labelled queries this plan's rule needs for an interval of ``width``."""
        return budget_for_width(self.queries["uncertainty"].to_numpy(), width,
                                alpha=self.alpha)

    def summary_lines(self, target_width: float | None = None) -> list[str]:
        """What the plan says in words, as ``ranklens plan-labels`` and the PPI page print it:
        the queries that may move B - A, those drawn and the documents to judge, the
        expected widths under this plan and under a uniform sample of as many queries, and
        with ``target_width`` the labelled queries an interval that narrow needs."""
        queries = self.queries
        certain = int((queries["uncertainty"] == 0).sum())
        level = format_level(1 - self.alpha)
        lines = [
            f"{len(queries):,} queries: {len(queries) - certain:,} may move B - A, {certain:,} "
            f"cannot (the same top documents in the same order in both runs: no label needed)",
            f"drawn {int(queries['drawn'].sum()):,} queries (expected {self.budget:.1f}), "
            f"{len(self.documents):,} documents to judge",
            f"expected {level} interval width of B - A: {self.width_plan:.4f} with this plan, "
            f"{self.width_uniform:.4f} with a uniform sample of as many queries",
        ]
        if target_width:
            lines.append(f"an interval of width {target_width:g} needs about "
                         f"{self.budget_for_width(target_width):,} labelled queries")
        return lines


def _spec(metric: str) -> tuple[str, int]:
    spec = parse_metric(metric)
    if spec.family not in ("ndcg", "precision") or not spec.cutoff:
        raise PlanError(f"a labelling plan needs nDCG@k or P@k, got {metric!r}: the documents "
                        "that can move B - A are those of the top k")
    return spec.family, int(spec.cutoff)


def _weights(family: str, k: int, ranks: pd.Series) -> np.ndarray:
    r = ranks.to_numpy(dtype=np.float64)
    present = np.isfinite(r)
    if family == "precision":
        return np.where(present, 1.0 / k, 0.0)
    return np.where(present, 1.0 / np.log2(np.where(present, r, 1.0) + 1.0), 0.0)


def plan_labels(run_a: Run, run_b: Run, proxy: Qrels, *, metric: str = "nDCG@10",
                budget_queries: float | None = None, budget_docs: float | None = None,
                seed: int = 0, gold: Qrels | None = None, grade_noise: float = GRADE_NOISE,
                alpha: float = 0.05,
                judge_spread: Mapping[tuple[str, str], float] | None = None) -> LabelPlan:
    """The labelling plan for B - A on ``metric`` (see the module's text): a budget of
    expected labelled queries, or of expected documents to judge; ``judge_spread`` gives a
    (query, document) label's own spread in grade levels (others: ``grade_noise``)."""
    if (budget_queries is None) == (budget_docs is None):
        raise PlanError("give one budget: of queries (budget_queries) or of documents "
                        "(budget_docs)")
    family, k = _spec(metric)
    top_a, top_b = top_k(run_a, k), top_k(run_b, k)
    both = top_a.merge(top_b, on=["query_id", "doc_id"], how="outer", suffixes=("_a", "_b"))
    both["moves"] = both["rank_a"].ne(both["rank_b"]) & ~(both["rank_a"].isna()
                                                          & both["rank_b"].isna())
    both["shift"] = _weights(family, k, both["rank_b"]) - _weights(family, k, both["rank_a"])
    grades = grades_frame(proxy).rename(columns={"grade": "proxy_grade"})
    both = both.merge(grades, on=["query_id", "doc_id"], how="left")
    asked = both
    if gold is not None:
        known = grades_frame(gold)[["query_id", "doc_id"]].assign(known=True)
        asked = both.merge(known, on=["query_id", "doc_id"], how="left")
        asked = asked[asked["known"].isna()].drop(columns="known")
    # B - A under the proxy grades of the listed documents only: the gold B - A of a drawn
    # query is measured on the same documents, so the two differ by the grades alone
    listed = both.dropna(subset=["proxy_grade"])
    listed_qrels = Qrels.from_columns(listed["query_id"], listed["doc_id"],
                                      listed["proxy_grade"].astype(np.int64), name=proxy.name)
    names = [parse_metric(metric).name]
    scores = {side: evaluate(run, listed_qrels, names, missing="zero")[names[0]].per_query
              for side, run in (("a", run_a), ("b", run_b))}
    query_ids = sorted(set(top_a["query_id"]) | set(top_b["query_id"]))
    scale = _scale(family, k, listed_qrels, query_ids)
    moves = asked[asked["moves"]]
    spread = np.full(len(moves), grade_noise)
    if judge_spread:
        spread = np.array([judge_spread.get((q, d), grade_noise) for q, d in
                           zip(moves["query_id"], moves["doc_id"], strict=True)])
    moving = (moves["shift"].to_numpy() * spread) ** 2
    moving = pd.Series(moving, index=moves.index).groupby(moves["query_id"]).sum() ** 0.5
    n_docs = asked.groupby("query_id").size()
    queries = pd.DataFrame({"query_id": query_ids})
    queries["uncertainty"] = [float(moving.get(q, 0.0)) / scale[q] for q in query_ids]
    queries["proxy_delta"] = [scores["b"].get(q, 0.0) - scores["a"].get(q, 0.0)
                              for q in query_ids]
    queries["n_docs"] = [int(n_docs.get(q, 0)) for q in query_ids]
    u = queries["uncertainty"].to_numpy()
    if budget_queries is not None:
        budget = float(budget_queries)
    else:
        budget = _queries_for_docs(u, queries["n_docs"].to_numpy(), float(budget_docs or 0))
    pi = inclusion_probabilities(u, budget)
    queries["probability"] = pi
    queries["drawn"] = draw(pi, seed)
    drawn_ids = set(queries.loc[queries["drawn"], "query_id"])
    documents = asked[asked["query_id"].isin(drawn_ids)].copy()
    documents["reason"] = np.where(documents["moves"], "moves B - A", "normalisation only")
    documents = documents.merge(queries[["query_id", "probability"]], on="query_id")
    documents["metric"], documents["budget"], documents["seed"] = metric, budget, seed
    documents = documents.sort_values(["query_id", "rank_a", "rank_b", "doc_id"])
    documents = documents[list(PLAN_COLUMNS)].reset_index(drop=True)
    uniform = np.full(len(u), min(1.0, budget / max(len(u), 1)))
    return LabelPlan(metric, budget, seed, queries[["query_id", "probability", "drawn",
                                                     "uncertainty", "proxy_delta", "n_docs"]],
                     documents, expected_width(u, pi, alpha=alpha),
                     expected_width(u, uniform, alpha=alpha), alpha)


def _scale(family: str, k: int, proxy: Qrels, query_ids: list[str]) -> dict[str, float]:
    """What a query's B - A is divided by: k (P@k), the ideal DCG@k under the proxy grades
    (nDCG@k, at least the DCG of one grade-1 document at rank 1)."""
    if family == "precision":
        return {q: 1.0 for q in query_ids}  # the weights already divide by k
    grades = grades_frame(proxy)
    grades = grades[grades["grade"] > 0].sort_values(["query_id", "grade"],
                                                     ascending=[True, False])
    grades["rank"] = grades.groupby("query_id").cumcount() + 1
    grades = grades[grades["rank"] <= k]
    ideal = (grades["grade"] / np.log2(grades["rank"] + 1.0)).groupby(grades["query_id"]).sum()
    return {q: max(float(ideal.get(q, 0.0)), 1.0) for q in query_ids}


def _queries_for_docs(u: np.ndarray, cost: np.ndarray, docs: float) -> float:
    """The expected number of queries whose plan costs ``docs`` documents in expectation."""
    low, high = 0.0, float((u > 0).sum())
    for _ in range(60):
        middle = (low + high) / 2
        if float(np.sum(inclusion_probabilities(u, middle) * cost)) <= docs:
            low = middle
        else:
            high = middle
    return low


def design_estimate_from_gold(plan: pd.DataFrame, run_a: Run, run_b: Run, proxy: Qrels,
                              gold: Qrels, *, alpha: float = 0.05, gold_name: str = "gold",
                              plan_name: str = "plan",
                              judge_spread: Mapping[tuple[str, str], float] | None = None
                              ) -> tuple[DesignEstimate, LabelPlan]:
    """B - A's estimate and interval from the gold labels of a plan's drawn queries.

    The plan is made again from the runs, the proxy judgements and its settings (metric,
    budget, seed: columns of ``plan``), and must give the same draws and probabilities:
    otherwise the runs or judgements are not those the plan was made from. The gold file may
    judge only the drawn queries' listed documents. Each drawn query's gold B - A is the
    metric under its gold labels (a listed document without one counts as not relevant)."""
    if plan.empty:
        raise PlanError(f"{plan_name}: no document to judge in the plan")
    metric, budget, seed = (plan["metric"].iloc[0], float(plan["budget"].iloc[0]),
                            int(plan["seed"].iloc[0]))
    again = plan_labels(run_a, run_b, proxy, metric=metric, budget_queries=budget, seed=seed,
                        alpha=alpha, judge_spread=judge_spread)
    drawn = set(plan["query_id"].astype(str))
    drawn_again = set(again.queries.loc[again.queries["drawn"], "query_id"])
    if drawn != drawn_again:
        raise PlanError(f"{plan_name}: its drawn queries are not those the runs and proxy "
                        f"judgements give ({len(drawn ^ drawn_again)} differ): make the plan "
                        "again from these files, or give the files it was made from (and "
                        "the judge-confidence table, if the plan used one)")
    labels = grades_frame(gold)
    asked = set(zip(plan["query_id"].astype(str), plan["doc_id"].astype(str), strict=True))
    extra = [(q, d) for q, d in zip(labels["query_id"], labels["doc_id"], strict=True)
             if (q, d) not in asked]
    if extra:
        q, d = extra[0]
        raise PlanError(f"{gold_name}: {len(extra)} judgement(s) the plan did not ask for "
                        f"(first: query {q!r}, document {d!r}); give the labels of the plan's "
                        "documents only, so that the queries stay those drawn by chance")
    names = [parse_metric(metric).name]
    gold_scores = {side: evaluate(run, gold, names, missing="zero")[names[0]].per_query
                   for side, run in (("a", run_a), ("b", run_b))}
    queries = again.queries
    gold_delta = np.array([gold_scores["b"].get(q, 0.0) - gold_scores["a"].get(q, 0.0)
                           if q in drawn else math.nan for q in queries["query_id"]])
    estimate = design_estimate(queries["proxy_delta"].to_numpy(), gold_delta,
                               queries["drawn"].to_numpy(), queries["probability"].to_numpy(),
                               alpha=alpha)
    return estimate, again


def design_sentence(estimate: DesignEstimate, metric: str) -> str:
    """B - A from a plan's gold labels in one sentence, as ``ranklens ppi --design`` and the PPI
    page say it: the estimate, its interval, how many queries were labelled, and whether the
    interval answers the question yet (it excludes 0)."""
    answered = ("the interval excludes 0" if estimate.ci_low > 0 or estimate.ci_high < 0
                else "the interval includes 0: not answered yet at this budget")
    return (f"{metric}: B - A = {estimate.estimate:+.4f} ({format_level(estimate.level)} CI "
            f"{estimate.ci_low:+.4f} to {estimate.ci_high:+.4f}) over {estimate.n_queries:,} "
            f"queries, from gold labels of {estimate.n_drawn:,} drawn by the plan "
            f"({estimate.n_certain:,} needed none; proxy weight lambda {estimate.lam:.2f}); "
            f"{answered}")


__all__ = ["GRADE_NOISE", "PLAN_COLUMNS", "LabelPlan", "PlanError", "design_estimate_from_gold",
           "design_sentence",
           "plan_labels"]
