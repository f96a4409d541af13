"""Judged@k / Unjudged@k follow trec_eval 10's unj_k; judged-only evaluation (trec_eval -J)
equals pytrec_eval's judged_docs_only_flag; any spelling looks up its result."""

from __future__ import annotations

import pytest
import pytrec_eval

from ranklens.data import Qrels, Run
from ranklens.metrics import condense_to_judged, evaluate, parse_metric
from tests.metrics.test_trec_eval_equality import SHARED, TOLERANCE, TREC_MEASURES
from tests.support.metrics_cases import random_case
from tests.support.metrics_reference import judged_at, trec_order, unjudged_at


@pytest.mark.parametrize("seed", range(40))
def test_unjudged_and_judged_follow_trec_eval_rules(seed):
    run, qrels = random_case(seed)
    names = ["Unjudged@1", "unj_5", "unj.20", "Judged@5", "Judged@20"]
    evaluation = evaluate(Run.from_dict(run), Qrels.from_dict(qrels), names, missing="zero")
    for query in set(run) & set(qrels):
        ranking = trec_order(run[query])
        judged = qrels[query]
        for k in (1, 5, 20):
            unj = unjudged_at(ranking, judged, k)
            assert evaluation[f"Unjudged@{k}"].per_query[query] == pytest.approx(unj, abs=1e-15)
        for k in (5, 20):
            assert evaluation[f"Judged@{k}"].per_query[query] == pytest.approx(
                judged_at(ranking, judged, k), abs=1e-15)
    for query in evaluation.missing:  # an empty ranking: nothing unjudged in it
        assert evaluation["unj_5"].per_query[query] == 0.0
        assert evaluation["Judged@5"].per_query[query] == 1.0


def test_the_three_rules_on_one_query():
    run = Run.from_dict({"q": {"a": 3.0, "b": 2.0, "c": 1.0}})
    qrels = Qrels.from_dict({"q": {"a": 1, "b": -1}, "gone": {"x": 1}})
    evaluation = evaluate(run, qrels, ["Judged@5", "unj_5"], missing="zero")
    # b is negative (unjudged), c is absent (unjudged), positions 4-5 are past the end (judged)
    assert evaluation["unj_5"].per_query == {"q": 2 / 5, "gone": 0.0}
    assert evaluation["Judged@5"].per_query == {"q": 3 / 5, "gone": 1.0}


def test_any_spelling_looks_up_its_result_at_the_level_used():
    run = Run.from_dict({"q": {"a": 2.0, "b": 1.0}})
    qrels = Qrels.from_dict({"q": {"a": 1, "b": 2}})
    evaluation = evaluate(run, qrels, ["P_5", "map", "ndcg_cut.10"], relevance_level=2)
    assert evaluation["P_5"] is evaluation["P(rel=2)@5"] is evaluation["P@5"]
    assert evaluation["P_5"].per_query["q"] == pytest.approx(0.2)
    assert evaluation["map"].metric == "AP(rel=2)"
    assert evaluation["nDCG@10"] is evaluation["ndcg_cut_10"]
    assert "P.5" in evaluation and "P_10" not in evaluation
    with pytest.raises(KeyError, match="P_10"):
        evaluation["P_10"]


def test_condense_to_judged_keeps_graded_documents_in_their_order():
    run = Run.from_dict({"q": {"a": 1.0, "b": 3.0, "c": 2.0, "d": 2.0}, "x": {"a": 1.0}})
    qrels = Qrels.from_dict({"q": {"b": 0, "c": -1, "d": 2, "z": 1}})
    condensed = condense_to_judged(run, qrels)
    assert condensed.to_dict() == {"q": {"b": 3.0, "d": 2.0}}
    assert condensed.name == run.name


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("level", [1, 2])
def test_judged_only_equals_pytrec_eval_judged_docs_only(seed, level):
    run, qrels = random_case(seed)
    expected = pytrec_eval.RelevanceEvaluator(
        qrels, TREC_MEASURES, relevance_level=level, judged_docs_only_flag=True).evaluate(run)
    evaluation = evaluate(Run.from_dict(run), Qrels.from_dict(qrels), list(SHARED),
                          relevance_level=level, judged_only=True)
    for name, trec_name in SHARED.items():
        got = evaluation[parse_metric(name, relevance_level=level)].per_query
        assert set(got) == set(expected), name
        for query, values in expected.items():
            assert abs(got[query] - values[trec_name]) <= TOLERANCE, (name, query)


def test_a_query_whose_grades_are_all_below_minus_one_scores_zero():
    """trec_eval crashes on it (a rel_levels array of negative size); ranklens scores 0."""
    run = Run.from_dict({"q": {"a": 2.0, "b": 1.0}})
    qrels = Qrels.from_dict({"q": {"a": -2, "b": -3}})
    evaluation = evaluate(run, qrels, ["ndcg_cut_10", "map", "P_5", "recip_rank", "Rprec"])
    assert all(evaluation[name].per_query == {"q": 0.0} for name in
               ("ndcg_cut_10", "map", "P_5", "recip_rank", "Rprec"))
