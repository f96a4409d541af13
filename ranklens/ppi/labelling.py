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
- one already in the gold judgements is not asked for again. The plan file then says which
  judgements were on hand (column ``prior_gold``: how many (query, document) pairs and a
  digest of them, `prior_gold_mark`), so that ``ranklens ppi --design`` can tell them in the
  gold file (the prior judgements and the new labels in one file) and draw the plan again.

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

`plan_labels` makes the plan (one round); `ranklens.ppi.rounds` draws later rounds from what
the earlier rounds' gold labels taught, and reads the gold labels of the drawn queries into
B - A with its interval after each round (`ranklens.stats.active_ppi`). Metrics: nDCG@k and
P@k.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

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
    draw,
    expected_width,
    inclusion_probabilities,
)

GRADE_NOISE = 0.5
"""Assumed spread of a proxy grade around the gold one, in grade levels."""

PLAN_COLUMNS = ("query_id", "doc_id", "probability", "reason", "rank_a", "rank_b",
                "proxy_grade", "metric", "budget", "seed")


ROUND_COLUMNS = ("round", "max_rounds", "effect")
"""Columns a plan of rounds adds after `PLAN_COLUMNS` (a plan without them is round 1 of 1)."""

PRIOR_COLUMN = "prior_gold"
"""Column of a plan drawn with gold judgements on hand: `prior_gold_mark` of them (a plan
without it was drawn without any)."""


class PlanError(RanklensError, ValueError):
    """A plan or gold file that does not fit the runs: said in words."""


@dataclass(frozen=True)
class Rounds:
    """Where a plan stands among rounds of labelling: its ``round`` of at most
    ``max_rounds`` (each round's interval at level 1 - alpha / max_rounds: Bonferroni over
    the rounds planned), the smallest B - A that matters (``effect``: an interval inside
    +-effect answers the question too), the queries labelled in earlier rounds (not drawn
    again, known exactly), the spread of the gold grade around each proxy grade that the
    earlier rounds' labels showed, and the earlier rounds' plan rows (``earlier``)."""

    round: int = 1
    max_rounds: int = 1
    effect: float | None = None
    labelled: frozenset[str] = frozenset()
    grade_spread: Mapping[int, float] | None = None
    earlier: pd.DataFrame | None = None

    def rule_sentence(self, alpha: float) -> str:
        """The stopping rule in words, as the plan and the estimate say it."""
        matters = ("" if self.effect is None else
                   f" or lies within +-{self.effect:g}, the smallest B - A that matters")
        return (f"round {self.round} of at most {self.max_rounds}: each round's interval is "
                f"at level {format_level(1 - alpha / self.max_rounds)} (Bonferroni over the "
                f"{self.max_rounds} rounds planned), so stopping at the first round whose "
                f"interval answers the question (it excludes 0{matters}) is wrong with "
                f"probability at most {format_level(alpha)}")


@dataclass(frozen=True)
class LabelPlan:
    """The plan: every query's probability and whether it was drawn (``queries``: query_id,
    probability, drawn, uncertainty, proxy_delta, n_docs, labelled: in an earlier round), the
    documents to judge of the drawn queries (``documents``, `PLAN_COLUMNS` then
    `ROUND_COLUMNS`), the expected widths of B - A's interval under this plan and under a
    uniform sample of the same expected number of queries, and the settings that reproduce
    it; ``design`` is every round's rows, what ``ranklens ppi --design`` reads."""

    metric: str
    budget: float
    seed: int
    queries: pd.DataFrame
    documents: pd.DataFrame
    width_plan: float
    width_uniform: float
    alpha: float
    rounds: Rounds = field(default_factory=Rounds)

    @property
    def design(self) -> pd.DataFrame:
        """The rows of this round and the earlier ones: the plan file."""
        if self.rounds.earlier is None or self.rounds.earlier.empty:
            return self.documents
        return pd.concat([self.rounds.earlier, self.documents], ignore_index=True)

    @property
    def look_alpha(self) -> float:
        """The error rate of one round's interval: alpha over the rounds planned."""
        return self.alpha / self.rounds.max_rounds

    def widths_at(self, budgets: Iterable[float]) -> pd.DataFrame:
        """The expected widths of B - A's interval (at this round's level) with each budget of
        expected labelled queries: under this plan's rule (``plan``) and under a uniform sample
        of as many queries (``uniform``), as `width_plan` and `width_uniform` are at the plan's
        own budget. Under the plan's model of the proxy's error (its uncertainties): for
        comparing the two at one cost, not a promise about one draw."""
        u = np.where(self.queries["labelled"], 0.0, self.queries["uncertainty"])
        labelled = self.queries["labelled"].to_numpy()
        budgets = [float(b) for b in budgets]
        widths = [_widths(u, labelled, b, self.look_alpha) for b in budgets]
        return pd.DataFrame({"budget": budgets, "plan": [w[0] for w in widths],
                             "uniform": [w[1] for w in widths]})

    def budget_for_width(self, width: float) -> int:
        """Expected labelled queries this plan's rule needs for an interval of ``width``."""
        u = np.where(self.queries["labelled"], 0.0, self.queries["uncertainty"])
        return budget_for_width(u, width, alpha=self.look_alpha)

    def summary_lines(self, target_width: float | None = None) -> list[str]:
        """What the plan says in words, as ``ranklens plan-labels`` and the PPI page print it:
        the queries that may move B - A, those drawn and the documents to judge, the
        expected widths under this plan and under a uniform sample of as many queries, and
        with ``target_width`` the labelled queries an interval that narrow needs; with
        rounds, first the round and the stopping rule."""
        queries = self.queries[~self.queries["labelled"]]
        certain = int((queries["uncertainty"] == 0).sum())
        level = format_level(1 - self.look_alpha)
        known = int(self.queries["labelled"].sum())
        head = (f"{len(queries):,} queries" if not known else
                f"{len(queries):,} queries not labelled yet ({known:,} labelled in earlier "
                "rounds count with their gold B - A)")
        lines = [] if self.rounds.max_rounds == 1 else [self.rounds.rule_sentence(self.alpha)]
        own = "" if not known else " from this round alone (the look combines all rounds)"
        lines += [
            f"{head}: {len(queries) - certain:,} may move B - A, {certain:,} "
            f"cannot (the same top documents in the same order in both runs: no label needed)",
            f"drawn {int(queries['drawn'].sum()):,} queries (expected {self.budget:.1f}), "
            f"{len(self.documents):,} documents to judge",
            f"expected {level} interval width of B - A{own}: {self.width_plan:.4f} with this "
            f"plan, {self.width_uniform:.4f} with a uniform sample of as many queries",
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
                judge_spread: Mapping[tuple[str, str], float] | None = None,
                rounds: Rounds | None = None) -> LabelPlan:
    """The labelling plan for B - A on ``metric`` (see the module's text): a budget of
    expected labelled queries, or of expected documents to judge; ``judge_spread`` gives a
    (query, document) label's own spread in grade levels (others: ``grade_noise``, or with
    ``rounds`` the spread the earlier rounds' gold labels showed for the proxy grade).
    ``rounds`` makes it one round of several (`ranklens.ppi.rounds.plan_next_round` fills
    it): the queries labelled in earlier rounds are not drawn again."""
    if (budget_queries is None) == (budget_docs is None):
        raise PlanError("give one budget: of queries (budget_queries) or of documents "
                        "(budget_docs)")
    rounds = rounds or Rounds()
    family, k = _spec(metric)
    both, asked, query_ids = _listed(run_a, run_b, proxy, k, family, gold)
    queries = _query_table(both, asked, query_ids, family, k, metric, proxy, run_a, run_b,
                           _spreads(asked, judge_spread, rounds.grade_spread, grade_noise))
    queries["labelled"] = queries["query_id"].isin(set(rounds.labelled))
    u = np.where(queries["labelled"], 0.0, queries["uncertainty"].to_numpy())
    if budget_queries is not None:
        budget = float(budget_queries)
    else:
        budget = _queries_for_docs(u, queries["n_docs"].to_numpy(), float(budget_docs or 0))
    pi = inclusion_probabilities(u, budget)
    queries["probability"] = pi
    queries["drawn"] = draw(pi, seed, rounds.round)
    drawn_ids = set(queries.loc[queries["drawn"], "query_id"])
    documents = asked[asked["query_id"].isin(drawn_ids)].copy()
    documents["reason"] = np.where(documents["moves"], "moves B - A", "normalisation only")
    documents = documents.merge(queries[["query_id", "probability"]], on="query_id")
    documents["metric"], documents["budget"], documents["seed"] = metric, budget, seed
    documents["round"], documents["max_rounds"] = rounds.round, rounds.max_rounds
    documents["effect"] = math.nan if rounds.effect is None else rounds.effect
    documents = documents.sort_values(["query_id", "rank_a", "rank_b", "doc_id"])
    documents = documents[[*PLAN_COLUMNS, *ROUND_COLUMNS]].reset_index(drop=True)
    if gold is not None:
        labels = grades_frame(gold)
        documents[PRIOR_COLUMN] = prior_gold_mark(zip(labels["query_id"], labels["doc_id"],
                                                      strict=True))
    width_plan, width_uniform = _widths(u, queries["labelled"].to_numpy(), budget,
                                        alpha / rounds.max_rounds)
    return LabelPlan(metric, budget, seed, queries[["query_id", "probability", "drawn",
                                                     "uncertainty", "proxy_delta", "n_docs",
                                                     "labelled"]],
                     documents, width_plan, width_uniform, alpha, rounds)


def _widths(u: np.ndarray, labelled: np.ndarray, budget: float, alpha: float
            ) -> tuple[float, float]:
    """The expected widths with ``budget`` expected labelled queries: drawn by the plan's
    rule (`inclusion_probabilities`), and uniformly among the queries not labelled yet."""
    open_ = max(len(u) - int(labelled.sum()), 1)
    uniform = np.where(labelled, 0.0, min(1.0, budget / open_))
    return (expected_width(u, inclusion_probabilities(u, budget), alpha=alpha),
            expected_width(u, uniform, alpha=alpha))


def prior_gold_mark(pairs: Iterable[tuple[str, str]]) -> str:
    """Which (query, document) pairs were judged before a plan was drawn, in a few characters:
    their number and the first 16 hex digits of the sha256 of the sorted pairs. It names the
    pairs only, not their grades (the draw does not read the grades of prior judgements)."""
    unique = sorted(set(pairs))
    text = "".join(f"{q}\t{d}\n" for q, d in unique)
    return f"{len(unique)} pairs, sha256 {hashlib.sha256(text.encode()).hexdigest()[:16]}"


def _listed(run_a: Run, run_b: Run, proxy: Qrels, k: int, family: str, gold: Qrels | None
            ) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """The documents of both top k lists (``both``: ranks, whether they move B - A, their
    weight shift, proxy grade), those of them to ask (not in ``gold``), and the queries."""
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
    return both, asked, sorted(set(top_a["query_id"]) | set(top_b["query_id"]))


def _spreads(asked: pd.DataFrame, judge_spread: Mapping[tuple[str, str], float] | None,
             grade_spread: Mapping[int, float] | None, grade_noise: float) -> np.ndarray:
    """Each asked document's grade spread: the judge's own, else the spread of its proxy
    grade (a document without one: grade 0) that earlier rounds showed, else ``grade_noise``."""
    spread = np.full(len(asked), grade_noise)
    if grade_spread:
        proxy_grade = asked["proxy_grade"].fillna(0).astype(int)
        spread = proxy_grade.map(lambda g: grade_spread.get(g, grade_noise)).to_numpy(float)
    if judge_spread:
        spread = np.array([judge_spread.get((q, d), s) for q, d, s in
                           zip(asked["query_id"], asked["doc_id"], spread, strict=True)])
    return spread


def _query_table(both: pd.DataFrame, asked: pd.DataFrame, query_ids: list[str], family: str,
                 k: int, metric: str, proxy: Qrels, run_a: Run, run_b: Run,
                 spread: np.ndarray) -> pd.DataFrame:
    """Every query's uncertainty, proxy B - A and number of documents to ask."""
    # B - A under the proxy grades of the listed documents only: the gold B - A of a drawn
    # query is measured on the same documents, so the two differ by the grades alone
    listed = both.dropna(subset=["proxy_grade"])
    listed_qrels = Qrels.from_columns(listed["query_id"], listed["doc_id"],
                                      listed["proxy_grade"].astype(np.int64), name=proxy.name)
    names = [parse_metric(metric).name]
    scores = {side: evaluate(run, listed_qrels, names, missing="zero")[names[0]].per_query
              for side, run in (("a", run_a), ("b", run_b))}
    scale = _scale(family, k, listed_qrels, query_ids)
    moves = asked["moves"].to_numpy()
    moving = (asked["shift"].to_numpy()[moves] * spread[moves]) ** 2
    moving = pd.Series(moving, index=asked.index[moves]).groupby(
        asked["query_id"][moves]).sum() ** 0.5
    n_docs = asked.groupby("query_id").size()
    queries = pd.DataFrame({"query_id": query_ids})
    queries["uncertainty"] = [float(moving.get(q, 0.0)) / scale[q] for q in query_ids]
    queries["proxy_delta"] = [scores["b"].get(q, 0.0) - scores["a"].get(q, 0.0)
                              for q in query_ids]
    queries["n_docs"] = [int(n_docs.get(q, 0)) for q in query_ids]
    return queries


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


def plan_csv(rows: pd.DataFrame) -> str:
    """A plan file's text (its ``design`` or ``documents`` rows): what ``ranklens plan-labels``
    writes and the PPI page offers, and what ``ranklens ppi --design`` reads back."""
    return rows.to_csv(index=False, float_format="%.6g")


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


__all__ = ["GRADE_NOISE", "PLAN_COLUMNS", "PRIOR_COLUMN", "ROUND_COLUMNS", "LabelPlan",
           "PlanError", "Rounds", "design_sentence", "plan_csv", "plan_labels",
           "prior_gold_mark"]
