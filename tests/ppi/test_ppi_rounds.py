"""Labelling in rounds from Python (`ranklens.ppi.rounds`, issue 47): the next round draws
among the queries not labelled yet with the grade spreads the labels showed, and the look
after each round is the rounds' estimates combined as the module says, recomputed here from
their definitions."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ranklens.data import Qrels, Run
from ranklens.metrics import evaluate
from ranklens.ppi.labelling import PlanError, Rounds, plan_labels
from ranklens.ppi.rounds import (
    design_estimate_from_gold,
    design_looks,
    grade_spreads,
    look_sentence,
    plan_next_round,
)
from ranklens.stats.active_ppi import (
    combine_rounds,
    design_estimate,
    draw,
    planned_variance,
)
from ranklens.stats.distributions import t_quantile


@pytest.fixture(scope="module")
def world():
    """60 queries x 20 documents; B swaps ranks 1-4 of every other query; true grades 0-3,
    proxy grades one level off for a third of the documents."""
    rng = np.random.default_rng(7)
    rows_a, rows_b, truth, proxy = [], [], [], []
    for q in range(60):
        query = f"q{q:02d}"
        order = list(range(20))
        if q % 2 == 0:
            order[:4] = [3, 2, 1, 0]
        for rank in range(20):
            rows_a.append((query, f"d{rank}", 20.0 - rank))
            rows_b.append((query, f"d{order[rank]}", 20.0 - rank))
            grade = int(rng.choice([0, 0, 1, 2, 3]))
            off = rng.random() < 1 / 3
            truth.append((query, f"d{rank}", grade))
            proxy.append((query, f"d{rank}", min(3, max(0, grade + int(rng.choice([-1, 1]))
                                                        * off))))

    def run(rows):
        frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
        return Run.from_frame(frame)

    def qrels(rows):
        frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "grade"])
        return Qrels.from_columns(frame["query_id"], frame["doc_id"], frame["grade"]), frame

    return run(rows_a), run(rows_b), *qrels(proxy)[:1], qrels(truth)[1]


def _gold(truth: pd.DataFrame, design: pd.DataFrame) -> Qrels:
    asked = truth.merge(design[["query_id", "doc_id"]], on=["query_id", "doc_id"])
    return Qrels.from_columns(asked["query_id"], asked["doc_id"], asked["grade"])


def test_the_next_round_draws_among_the_unlabelled_with_the_spreads_the_labels_showed(world):
    run_a, run_b, proxy, truth = world
    first = plan_labels(run_a, run_b, proxy, budget_queries=8, seed=3,
                        rounds=Rounds(max_rounds=2))
    gold = _gold(truth, first.documents)
    second = plan_next_round(first.design, run_a, run_b, proxy, gold, budget_queries=8, seed=4)
    drawn_1 = set(first.queries.loc[first.queries["drawn"], "query_id"])
    queries = second.queries
    assert set(queries.loc[queries["labelled"], "query_id"]) == drawn_1
    assert not drawn_1 & set(queries.loc[queries["drawn"], "query_id"])
    assert queries.loc[queries["labelled"], "probability"].eq(0).all()
    assert queries["probability"].sum() == pytest.approx(8.0)
    assert second.rounds.round == 2 and len(second.design) == len(first.documents) + len(
        second.documents)
    # the spread of proxy grade 2: sqrt((sum (gold - 2)^2 + 4 s^2) / (n + 4)), s the pooled
    # spread around the assumed 0.5, from round 1's documents and their true grades
    rows = first.documents.merge(truth, on=["query_id", "doc_id"])
    diff2 = (rows["grade"] - rows["proxy_grade"]) ** 2
    pooled = (diff2.sum() + 4 * 0.25) / (len(diff2) + 4)
    two = diff2[rows["proxy_grade"] == 2]
    assert grade_spreads(first.documents, gold)[2] == pytest.approx(
        math.sqrt((two.sum() + 4 * pooled) / (len(two) + 4)))
    assert second.rounds.grade_spread == grade_spreads(first.documents, gold)
    with pytest.raises(PlanError, match="all 2 rounds planned are drawn"):
        plan_next_round(second.design, run_a, run_b, proxy, _gold(truth, second.design),
                        budget_queries=8)


def test_the_look_after_each_round_is_the_rounds_combined_by_their_definition(world):
    run_a, run_b, proxy, truth = world
    first = plan_labels(run_a, run_b, proxy, budget_queries=8, seed=3,
                        rounds=Rounds(max_rounds=2, effect=0.5))
    second = plan_next_round(first.design, run_a, run_b, proxy,
                             _gold(truth, first.documents), budget_queries=8, seed=4)
    gold = _gold(truth, second.design)
    looks, plans = design_looks(second.design, run_a, run_b, proxy, gold)
    scores = {side: evaluate(run, gold, ["nDCG@10"], missing="zero")["nDCG@10"].per_query
              for side, run in (("a", run_a), ("b", run_b))}
    parts = []
    for plan in plans:
        q = plan.queries
        known = q["labelled"].to_numpy()
        drawn = q["drawn"].to_numpy() | known
        g = np.array([scores["b"].get(x, 0.0) - scores["a"].get(x, 0.0) for x in q["query_id"]])
        parts.append(design_estimate(q["proxy_delta"], np.where(drawn, g, np.nan), drawn,
                                     np.where(known, 1.0, q["probability"]), alpha=0.025))
    u = plans[1].queries["uncertainty"]
    a2 = (planned_variance(u, plans[0].queries["probability"])
          / planned_variance(u, plans[1].queries["probability"]))
    estimate = (parts[0].estimate + a2 * parts[1].estimate) / (1 + a2)
    se = math.sqrt(parts[0].standard_error**2 + a2**2 * parts[1].standard_error**2) / (1 + a2)
    v = [parts[0].standard_error**2, a2**2 * parts[1].standard_error**2]
    df = round(sum(v) ** 2 / (v[0] ** 2 / parts[0].df + v[1] ** 2 / parts[1].df))
    assert 1 <= df <= parts[0].df + parts[1].df
    assert looks[0].estimate.estimate == pytest.approx(parts[0].estimate, abs=1e-12)
    assert looks[0].estimate.ci_low == pytest.approx(parts[0].ci_low, abs=1e-12)
    assert looks[1].estimate.estimate == pytest.approx(estimate, abs=1e-12)
    assert looks[1].estimate.standard_error == pytest.approx(se, abs=1e-12)
    assert looks[1].estimate.ci_high == pytest.approx(estimate + t_quantile(0.9875, df) * se,
                                                      abs=1e-12)
    assert looks[1].estimate.level == pytest.approx(0.975)
    assert design_estimate_from_gold(second.design, run_a, run_b, proxy, gold)[0] == \
        looks[1].estimate
    sentence = look_sentence(looks[1], "nDCG@10")
    assert sentence.startswith("after round 2 of at most 2: nDCG@10: B - A = ")
    assert ("stop here" in sentence) == (looks[1].answer is not None)


def test_one_round_combined_is_that_round_and_a_later_round_draws_afresh():
    rng = np.random.default_rng(2)
    p, g = rng.normal(0, 0.1, 40), rng.normal(0.03, 0.1, 40)
    pi = np.full(40, 0.3)
    one = design_estimate(p, g, draw(pi, 5), pi)
    assert combine_rounds([one], [1.0]) == one
    assert not np.array_equal(draw(pi, 5), draw(pi, 5, round_=2))
    assert np.array_equal(draw(pi, 5, round_=2), draw(pi, 5, round_=2))
    exact = design_estimate(p, g, np.ones(40, bool), np.ones(40))
    both = combine_rounds([one, exact], [1.0, math.inf])
    assert both.estimate == pytest.approx(g.mean()) and both.standard_error == 0.0
    with pytest.raises(ValueError, match="one positive weight per round"):
        combine_rounds([one], [0.0])
