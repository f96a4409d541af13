"""Per-query equality with trec_eval 9.0.8 (pytrec_eval) for every metric both compute."""

from __future__ import annotations

import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.data import Qrels, Run
from ranklens.metrics import evaluate, parse_metric
from tests.support.metrics_cases import random_case
from tests.support.metrics_reference import truncate

CUTOFFS = [1, 2, 3, 5, 10, 50]
TOLERANCE = 1e-9

# ranklens name -> pytrec_eval key
SHARED = {"nDCG": "ndcg", "AP": "map", "RR": "recip_rank", "R-Prec": "Rprec"}
for k in CUTOFFS:
    SHARED.update({f"nDCG@{k}": f"ndcg_cut_{k}", f"P@{k}": f"P_{k}", f"R@{k}": f"recall_{k}",
                   f"AP@{k}": f"map_cut_{k}", f"Success@{k}": f"success_{k}"})
CUTS = ",".join(map(str, CUTOFFS))
TREC_MEASURES = {"ndcg", "map", "recip_rank", "Rprec", f"ndcg_cut.{CUTS}", f"P.{CUTS}",
                 f"recall.{CUTS}", f"map_cut.{CUTS}", f"success.{CUTS}"}


def trec_values(run, qrels, level=1):
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES, relevance_level=level)
    return evaluator.evaluate(run)


def assert_equal_to_trec(run, qrels, level=1):
    expected = trec_values(run, qrels, level)
    evaluation = evaluate(Run.from_dict(run), Qrels.from_dict(qrels), list(SHARED),
                          relevance_level=level)
    for name, trec_name in SHARED.items():
        got = evaluation[parse_metric(name, relevance_level=level)].per_query
        assert set(got) == set(expected), name
        for query, values in expected.items():
            assert abs(got[query] - values[trec_name]) <= TOLERANCE, (name, query, run, qrels)
    # RR@k: trec_eval's recip_rank on the run cut to its top k (in trec_eval's order)
    for k in CUTOFFS:
        expected_rr = pytrec_eval.RelevanceEvaluator(
            qrels, {"recip_rank"}, relevance_level=level
        ).evaluate(truncate(run, k))
        got = evaluate(Run.from_dict(run), Qrels.from_dict(qrels), f"RR(rel={level})@{k}"
                       )[f"RR(rel={level})@{k}"].per_query
        assert set(got) == set(expected_rr)
        for query, values in expected_rr.items():
            assert abs(got[query] - values["recip_rank"]) <= TOLERANCE


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("level", [1, 2])
def test_seeded_cases_with_ties(seed, level):
    run, qrels = random_case(seed)
    assert_equal_to_trec(run, qrels, level)


@pytest.mark.parametrize("seed", range(20))
def test_seeded_cases_without_ties(seed):
    run, qrels = random_case(1000 + seed, ties=False)
    assert_equal_to_trec(run, qrels)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), level=st.sampled_from([1, 2, 3]),
       ties=st.booleans())
def test_hypothesis_cases(seed, level, ties):
    run, qrels = random_case(seed, max_queries=8, ties=ties)
    assert_equal_to_trec(run, qrels, level)


def test_larger_runs_with_unsorted_rows():
    """Hundreds of documents per query, rows shuffled (the lexsort path), deep cutoffs."""
    import numpy as np

    rng = np.random.default_rng(7)
    run, qrels = {}, {}
    for i in range(40):
        docs = [f"doc{j}" for j in rng.choice(3000, size=int(rng.integers(1, 400)), replace=False)]
        run[f"q{i}"] = {d: float(rng.integers(0, 40)) for d in docs}
        judged = [f"doc{j}" for j in rng.choice(3000, size=300, replace=False)]
        qrels[f"q{i}"] = {d: int(rng.choice([0, 0, 0, 1, 2, -1])) for d in judged}
    items = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    rng.shuffle(items)
    shuffled = Run.from_columns(*zip(*items, strict=True))
    expected = trec_values(run, qrels)
    evaluation = evaluate(shuffled, Qrels.from_dict(qrels), list(SHARED))
    for name, trec_name in SHARED.items():
        for query, values in expected.items():
            assert abs(evaluation[name].per_query[query] - values[trec_name]) <= TOLERANCE


def test_missing_zero_scores_judged_queries_absent_from_the_run():
    run = {"q1": {"a": 1.0, "b": 2.0}, "q3": {"a": 1.0}}
    qrels = {"q1": {"a": 1}, "q2": {"a": 1, "b": 2}, "q4": {"x": 0}}
    expected = trec_values(run, qrels)
    evaluation = evaluate(Run.from_dict(run), Qrels.from_dict(qrels), ["ndcg@10", "map"],
                          missing="zero")
    assert evaluation.ignored == ("q3",)
    assert sorted(evaluation.missing) == ["q2", "q4"]
    assert dict(evaluation["ndcg_cut_10"].per_query) == {
        "q1": pytest.approx(expected["q1"]["ndcg_cut_10"]), "q2": 0.0, "q4": 0.0}
    dropped = evaluate(Run.from_dict(run), Qrels.from_dict(qrels), ["ndcg@10"])
    assert set(dropped["nDCG@10"].per_query) == {"q1"}
    assert dropped.n_missing == 2 and dropped.n_ignored == 1


def test_order_by_rank_column_ignores_scores():
    run = {"q": {"a": 0.1, "b": 0.9, "c": 0.5, "d": 0.5}}
    ranks = {"a": 1, "b": 2, "c": 3, "d": 3}
    qrels = {"q": {"a": 1, "c": 2, "d": 0}}
    rows = [("q", d, s, ranks[d]) for d, s in run["q"].items()]
    q, d, s, r = zip(*rows, strict=True)
    table = Run.from_columns(q, d, s, r)
    by_rank = {"q": {doc: -float(ranks[doc]) for doc in run["q"]}}
    expected = trec_values(by_rank, qrels)["q"]
    evaluation = evaluate(table, Qrels.from_dict(qrels), ["ndcg@2", "map", "P@1"], order="rank")
    assert evaluation["nDCG@2"].per_query["q"] == pytest.approx(expected["ndcg_cut_2"], abs=1e-12)
    assert evaluation["AP"].per_query["q"] == pytest.approx(expected["map"], abs=1e-12)
    assert evaluation["P@1"].per_query["q"] == 1.0
    with pytest.raises(ValueError, match="rank"):
        evaluate(Run.from_dict(run), Qrels.from_dict(qrels), "map", order="rank")
