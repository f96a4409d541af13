"""Labelling in rounds: the next round drawn from what the earlier rounds' gold labels taught,
and after each round B - A with an interval and whether the question is answered (issue 47).

A plan file (the CSV of ``ranklens plan-labels``) holds every round's rows: round k's drawn
queries and their documents, with the round's budget and seed, the most rounds planned
(``max_rounds``) and the smallest B - A that matters (``effect``, optional), both fixed in
round 1; a plan drawn with gold judgements on hand (``plan-labels --gold-qrels`` in round 1)
also names those (query, document) pairs (``prior_gold``, `prior_gold_mark`). Nothing else is
stored: every round is made again from the runs, the proxy judgements, the judgements on hand
and the gold labels of the rounds before it, and must give the same draws. The gold file then
holds the judgements on hand and the labels of the plan's documents in one file: the pairs
the plan did not ask for must be exactly those on hand.

Round k draws among the queries not labelled in rounds 1..k-1, with probabilities set as in
`ranklens.ppi.labelling` but with each proxy grade's spread as the earlier rounds' gold labels
showed it (`grade_spreads`: the root mean square of gold minus proxy grade over the documents
judged so far, per proxy grade, shrunk towards the pooled spread and that towards the assumed
one). Its estimate counts the queries labelled earlier with their gold B - A (probability 1)
and weights its own draws by 1 / pi; the rounds are combined with weights fixed before each
round was drawn (`ranklens.stats.active_ppi.combine_rounds`).

The stopping rule: after round j the interval (of rounds 1..j combined) is at level
1 - alpha / max_rounds (Bonferroni over the rounds planned); the question is answered when it
excludes 0 (the sign of B - A) or lies within +-effect (no difference that matters). The
chance that any round's interval misses B - A is at most alpha, so stopping at the first
round that answers, or at the last planned round, is wrong with probability at most alpha.
It does not allow more rounds than planned (the rule's error rate would not hold).
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ranklens.data import Qrels, Run
from ranklens.metrics import evaluate
from ranklens.metrics.names import parse_metric
from ranklens.metrics.top_k import grades_frame
from ranklens.ppi.labelling import (
    GRADE_NOISE,
    PLAN_COLUMNS,
    PRIOR_COLUMN,
    LabelPlan,
    PlanError,
    Rounds,
    design_sentence,
    plan_labels,
    prior_gold_mark,
)
from ranklens.stats.active_ppi import (
    DesignEstimate,
    combine_rounds,
    design_estimate,
    round_weight,
)

PRIOR_DOCUMENTS = 4
"""How many documents' worth of weight the assumed spread keeps against the observed one."""


@dataclass(frozen=True)
class Look:
    """B - A after one round: the estimate of rounds 1..``round`` combined (its interval at
    level 1 - alpha / max_rounds), and ``answer``: why the question is answered, or None."""

    round: int
    max_rounds: int
    estimate: DesignEstimate
    answer: str | None
    effect: float | None


def read_design(plan: pd.DataFrame, name: str = "plan") -> pd.DataFrame:
    """A plan file's rows with its round columns (a plan without them is round 1 of 1),
    refused in words when it is not a plan of ``ranklens plan-labels`` or its rounds do not
    follow each other."""
    lacking = [c for c in PLAN_COLUMNS if c not in plan.columns]
    if lacking:
        raise PlanError(f"{name}: not a plan of 'ranklens plan-labels' (no column "
                        f"{', '.join(lacking)}); make one with ranklens plan-labels")
    if plan.empty:
        raise PlanError(f"{name}: no document to judge in the plan")
    plan = plan.assign(query_id=plan["query_id"].astype(str), doc_id=plan["doc_id"].astype(str))
    for column, default in (("round", 1), ("max_rounds", 1), ("effect", math.nan)):
        if column not in plan.columns:
            plan[column] = default
    rounds = sorted(int(r) for r in plan["round"].unique())
    if rounds != list(range(1, len(rounds) + 1)):
        raise PlanError(f"{name}: its rounds are {rounds}, not 1, 2, ...: give the plan file "
                        "plan-labels wrote for the last round (it holds every round's rows)")
    for column in ("metric", "max_rounds", "effect", PRIOR_COLUMN):
        if column in plan.columns and plan[column].astype(str).nunique() > 1:
            raise PlanError(f"{name}: the rounds disagree on {column}, set in round 1")
    if int(plan["max_rounds"].iloc[0]) < len(rounds):
        raise PlanError(f"{name}: {len(rounds)} rounds, more than the {plan['max_rounds'].iloc[0]} "
                        "planned in round 1: the stopping rule's error rate holds only for the "
                        "rounds planned")
    return plan


def read_plan_file(source: str | bytes, name: str | None = None) -> pd.DataFrame:
    """A plan file (CSV: a path, or its bytes as the page receives an upload) as
    `read_design` gives it, refused in words naming ``name`` (else the path) when
    unreadable."""
    name = name or (source if isinstance(source, str) else "plan")
    try:
        plan = pd.read_csv(io.BytesIO(source) if isinstance(source, bytes) else source,
                           dtype={"query_id": str, "doc_id": str})
    except (OSError, ValueError) as error:  # UnicodeDecodeError is a ValueError
        raise PlanError(f"{name}: cannot read the plan ({error}); give the CSV that "
                        "ranklens plan-labels wrote") from None
    return read_design(plan, name)


def grade_spreads(rows: pd.DataFrame, gold: Qrels,
                  grade_noise: float = GRADE_NOISE) -> dict[int, float]:
    """How far the gold grade lies from each proxy grade, from the documents of ``rows``
    (plan rows: proxy_grade, a missing one 0) with their gold grades (a missing one 0, as B - A
    counts it): per proxy grade sqrt((sum (gold - proxy)^2 + m s^2) / (n + m)), with s the
    pooled spread found the same way around ``grade_noise`` and m = `PRIOR_DOCUMENTS`; always
    above 0, so no query that can move is left out of a later round."""
    labels = grades_frame(gold).rename(columns={"grade": "gold_grade"})
    judged = rows[["query_id", "doc_id", "proxy_grade"]].merge(labels, on=["query_id", "doc_id"],
                                                               how="left")
    proxy_grade = judged["proxy_grade"].fillna(0).astype(int)
    squared = (judged["gold_grade"].fillna(0) - proxy_grade) ** 2
    m = PRIOR_DOCUMENTS
    pooled = (float(squared.sum()) + m * grade_noise**2) / (len(squared) + m)
    by_grade = squared.groupby(proxy_grade).agg(["sum", "count"])
    return {int(g): math.sqrt((s + m * pooled) / (n + m))
            for g, s, n in zip(by_grade.index, by_grade["sum"], by_grade["count"], strict=True)}


def replay(plan: pd.DataFrame, run_a: Run, run_b: Run, proxy: Qrels, gold: Qrels, *,
           alpha: float = 0.05, judge_spread: Mapping[tuple[str, str], float] | None = None,
           plan_name: str = "plan", gold_name: str = "gold") -> list[LabelPlan]:
    """Every round of ``plan`` (`read_design`'s rows) made again from the runs, the proxy
    judgements and the gold labels of the rounds before it; refused in words when a round's
    draws differ, when ``gold`` judges a document no round asked for, or leaves a round
    without any label."""
    labels = grades_frame(gold)
    prior = prior_gold(plan, gold, plan_name=plan_name, gold_name=gold_name)
    judged = set(zip(labels["query_id"], labels["doc_id"], strict=True))
    first = plan.iloc[0]
    effect = None if pd.isna(first["effect"]) else float(first["effect"])
    plans: list[LabelPlan] = []
    for k in range(1, int(plan["round"].max()) + 1):
        rows, earlier = plan[plan["round"] == k], plan[plan["round"] < k]
        if not judged & set(zip(rows["query_id"], rows["doc_id"], strict=True)):
            raise PlanError(f"{gold_name}: no gold label for round {k}'s {len(rows)} documents "
                            f"in {plan_name}: label them (and give all rounds' labels in one "
                            "file) before the estimate or the next round")
        rounds = Rounds(k, int(first["max_rounds"]), effect, frozenset(earlier["query_id"]),
                        grade_spreads(earlier, gold) if k > 1 else None, earlier)
        again = plan_labels(run_a, run_b, proxy, metric=str(first["metric"]),
                            budget_queries=float(rows["budget"].iloc[0]),
                            seed=int(rows["seed"].iloc[0]), alpha=alpha, gold=prior,
                            judge_spread=judge_spread, rounds=rounds)
        drawn = set(rows["query_id"])
        drawn_again = set(again.queries.loc[again.queries["drawn"], "query_id"])
        if drawn != drawn_again:
            which = "its" if k == 1 else f"round {k}'s"
            raise PlanError(f"{plan_name}: {which} drawn queries are not those the runs and "
                            "proxy judgements give"
                            f"{'' if k == 1 else ' with the earlier rounds gold labels'} "
                            f"({len(drawn ^ drawn_again)} differ): make the plan again from "
                            "these files, or give the files it was made from (and the "
                            "judge-confidence table, if the plan used one)")
        plans.append(again)
    return plans


def prior_gold(plan: pd.DataFrame, gold: Qrels, *, plan_name: str = "plan",
               gold_name: str = "gold") -> Qrels | None:
    """The judgements that were on hand when ``plan`` (`read_design`'s rows) was drawn, out of
    ``gold``: its judgements of documents the plan did not ask for, which must be exactly the
    pairs its ``prior_gold`` column names (None for a plan drawn without any, whose gold file
    must then judge the plan's documents only). Refused in words otherwise."""
    labels = grades_frame(gold)
    asked = set(zip(plan["query_id"], plan["doc_id"], strict=True))
    outside = [(q, d) not in asked for q, d in zip(labels["query_id"], labels["doc_id"],
                                                    strict=True)]
    extra = labels[outside]
    marks = plan[PRIOR_COLUMN].dropna() if PRIOR_COLUMN in plan.columns else plan["query_id"][:0]
    if marks.empty:
        if not extra.empty:
            q, d = extra["query_id"].iloc[0], extra["doc_id"].iloc[0]
            raise PlanError(f"{gold_name}: {len(extra)} judgement(s) the plan did not ask for "
                            f"(first: query {q!r}, document {d!r}); give the labels of the "
                            "plan's documents only, so that the queries stay those drawn by "
                            "chance")
        return None
    mark = str(marks.iloc[0])
    got = prior_gold_mark(zip(extra["query_id"], extra["doc_id"], strict=True))
    if got != mark:
        which = ("the new labels alone?" if extra.empty else
                 f"{got}: not the same pairs")
        raise PlanError(
            f"{plan_name}: drawn with {mark.split(' ')[0]} (query, document) pairs judged "
            f"before the plan was drawn ({mark}), but {gold_name} judges {len(extra)} the "
            f"plan did not ask for ({which}); give the judgements on hand when the plan was "
            "drawn and the labels of the plan's documents in one file (the drawn queries' "
            "gold B - A needs both), and no other")
    return Qrels.from_columns(extra["query_id"], extra["doc_id"], extra["grade"],
                              name=gold.name)


def plan_next_round(plan: pd.DataFrame, run_a: Run, run_b: Run, proxy: Qrels, gold: Qrels, *,
                    budget_queries: float | None = None, budget_docs: float | None = None,
                    seed: int = 0, alpha: float = 0.05, round_: int | None = None,
                    judge_spread: Mapping[tuple[str, str], float] | None = None,
                    plan_name: str = "plan", gold_name: str = "gold") -> LabelPlan:
    """The next round of ``plan`` (a plan file's rows) given the gold labels of its rounds:
    drawn among the queries not labelled yet, with the grade spreads those labels showed.
    ``round_``, when given, must be the next round's number. Its ``design`` is the new plan
    file (every round's rows). Refused in words beyond the rounds planned in round 1."""
    plan = read_design(plan, plan_name)
    done = int(plan["round"].max())
    if round_ is not None and round_ != done + 1:
        raise PlanError(f"{plan_name}: holds rounds 1 to {done}, so the next round is "
                        f"{done + 1}, not {round_}")
    most = int(plan["max_rounds"].iloc[0])
    if done >= most:
        raise PlanError(f"{plan_name}: all {most} rounds planned are drawn; the stopping "
                        "rule's error rate holds only for them (plan again from round 1 with "
                        "more rounds, on labels not seen yet, for more)")
    replay(plan, run_a, run_b, proxy, gold, alpha=alpha, judge_spread=judge_spread,
           plan_name=plan_name, gold_name=gold_name)
    effect = None if pd.isna(plan["effect"].iloc[0]) else float(plan["effect"].iloc[0])
    rounds = Rounds(done + 1, most, effect, frozenset(plan["query_id"]),
                    grade_spreads(plan, gold), plan)
    prior = prior_gold(plan, gold, plan_name=plan_name, gold_name=gold_name)
    again = plan_labels(run_a, run_b, proxy, metric=str(plan["metric"].iloc[0]),
                        budget_queries=budget_queries, budget_docs=budget_docs, seed=seed,
                        gold=prior,
                        alpha=alpha, judge_spread=judge_spread, rounds=rounds)
    if again.documents.empty:
        raise PlanError(f"round {done + 1} drew no query: raise the budget or change the seed")
    return again


def design_looks(plan: pd.DataFrame, run_a: Run, run_b: Run, proxy: Qrels, gold: Qrels, *,
                 alpha: float = 0.05, plan_name: str = "plan", gold_name: str = "gold",
                 judge_spread: Mapping[tuple[str, str], float] | None = None
                 ) -> tuple[list[Look], list[LabelPlan]]:
    """B - A after each round of ``plan`` from the gold labels of its drawn queries (see the
    module's text): one `Look` per round, and the rounds made again. Each drawn query's gold
    B - A is the metric under its gold labels (a listed document without one counts as not
    relevant)."""
    plan = read_design(plan, plan_name)
    plans = replay(plan, run_a, run_b, proxy, gold, alpha=alpha, judge_spread=judge_spread,
                   plan_name=plan_name, gold_name=gold_name)
    names = [parse_metric(str(plan["metric"].iloc[0])).name]
    scores = {side: evaluate(run, gold, names, missing="zero")[names[0]].per_query
              for side, run in (("a", run_a), ("b", run_b))}
    estimates: list[DesignEstimate] = []
    weights: list[float] = []
    for k, round_plan in enumerate(plans):
        queries = round_plan.queries
        known = queries["labelled"].to_numpy()
        drawn = queries["drawn"].to_numpy() | known
        gold_delta = np.array([scores["b"].get(q, 0.0) - scores["a"].get(q, 0.0) if seen
                               else math.nan for q, seen in zip(queries["query_id"], drawn,
                                                                strict=True)])
        pi = np.where(known, 1.0, queries["probability"].to_numpy())
        estimates.append(design_estimate(queries["proxy_delta"].to_numpy(), gold_delta, drawn,
                                         pi, alpha=round_plan.look_alpha))
        weights.append(_weight(plans, k, weights))
    looks = []
    for k, round_plan in enumerate(plans):
        estimate = combine_rounds(estimates[:k + 1], weights[:k + 1],
                                  alpha=round_plan.look_alpha)
        looks.append(Look(k + 1, round_plan.rounds.max_rounds, estimate,
                          _answer(estimate, round_plan.rounds.effect), round_plan.rounds.effect))
    return looks, plans


def _weight(plans: list[LabelPlan], k: int, weights: list[float]) -> float:
    """Round k's weight (`round_weight`; round 1: 1), under round k's grade spreads."""
    if k == 0:
        return 1.0
    return round_weight(weights[-1], plans[k].queries["uncertainty"],
                        plans[k - 1].queries["probability"], plans[k].queries["probability"])


def _answer(estimate: DesignEstimate, effect: float | None) -> str | None:
    if estimate.ci_low > 0:
        return "the interval excludes 0: B is better"
    if estimate.ci_high < 0:
        return "the interval excludes 0: B is worse"
    if effect is not None and -effect < estimate.ci_low and estimate.ci_high < effect:
        return f"the interval lies within +-{effect:g}: no difference that matters"
    return None


def design_estimate_from_gold(plan: pd.DataFrame, run_a: Run, run_b: Run, proxy: Qrels,
                              gold: Qrels, *, alpha: float = 0.05, gold_name: str = "gold",
                              plan_name: str = "plan",
                              judge_spread: Mapping[tuple[str, str], float] | None = None
                              ) -> tuple[DesignEstimate, LabelPlan]:
    """B - A's estimate and interval after the plan's last round (`design_looks`), and that
    round made again."""
    looks, plans = design_looks(plan, run_a, run_b, proxy, gold, alpha=alpha,
                                plan_name=plan_name, gold_name=gold_name,
                                judge_spread=judge_spread)
    return looks[-1].estimate, plans[-1]


def look_sentence(look: Look, metric: str) -> str:
    """B - A after one round in one sentence, as ``ranklens ppi --design`` and the PPI page
    say it: a plan of one round without an effect in `design_sentence`'s words; with rounds,
    which round of how many, whether the question is answered and why, and what to do."""
    if look.max_rounds == 1 and look.effect is None:
        return design_sentence(look.estimate, metric)
    words = design_sentence(look.estimate, metric).rsplit(";", 1)[0]
    matters = "" if look.effect is None else f" and reaches beyond +-{look.effect:g}"
    if look.answer is not None:
        then = f"answered: {look.answer}; stop here"
    elif look.round < look.max_rounds:
        then = f"not answered: the interval includes 0{matters}; label round {look.round + 1}"
    else:
        then = (f"not answered after the last round planned: the interval includes 0"
                f"{matters}; the rule allows no more rounds at its error rate")
    return f"after round {look.round} of at most {look.max_rounds}: {words}; {then}"


__all__ = ["Look", "design_estimate_from_gold", "design_looks", "grade_spreads",
           "look_sentence", "plan_next_round", "prior_gold", "read_design", "read_plan_file",
           "replay"]
