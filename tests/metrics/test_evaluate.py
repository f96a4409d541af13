"""evaluate(): exponential gain and Judged@k against plain Python, the Evaluation object, input
errors, and runs whose document dictionary repeats ids (as ranklens.io builds them)."""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa
import pytest

from ranklens.data import Qrels, Run
from ranklens.metrics import MetricResult, evaluate
from tests.support.metrics_cases import random_case
from tests.support.metrics_reference import judged_at, ndcg, trec_order


@pytest.mark.parametrize("seed", range(40))
def test_exponential_gain_and_judged_match_a_plain_implementation(seed):
    run, qrels = random_case(seed)
    names = ["nDCG(gain=exp)@3", "nDCG(gain=exp)", "nDCG@5", "Judged@1", "Judged@5", "Judged@20"]
    evaluation = evaluate(Run.from_dict(run), Qrels.from_dict(qrels), names)
    for query in set(run) & set(qrels):
        ranking = trec_order(run[query])
        judged = qrels[query]
        expected = {
            "nDCG(gain=exp)@3": ndcg(ranking, judged, 3, "exp"),
            "nDCG(gain=exp)": ndcg(ranking, judged, None, "exp"),
            "nDCG@5": ndcg(ranking, judged, 5, "linear"),
            "Judged@1": judged_at(ranking, judged, 1),
            "Judged@5": judged_at(ranking, judged, 5),
            "Judged@20": judged_at(ranking, judged, 20),
        }
        for name, value in expected.items():
            assert evaluation[name].per_query[query] == pytest.approx(value, abs=1e-12), name


def test_gain_argument_applies_to_ndcg_names():
    run = Run.from_dict({"q": {"a": 2.0, "b": 1.0}})
    qrels = Qrels.from_dict({"q": {"a": 1, "b": 3}})
    evaluation = evaluate(run, qrels, ["ndcg@2"], gain="exp")
    dcg = 1 + 7 / math.log2(3)
    ideal = 7 + 1 / math.log2(3)
    assert evaluation["nDCG(gain=exp)@2"].per_query["q"] == pytest.approx(dcg / ideal)
    assert list(evaluation) == ["nDCG(gain=exp)@2"]


def test_one_pass_equals_separate_calls():
    run, qrels = random_case(11, max_queries=8)
    names = ["ndcg@3", "map", "P@5", "Rprec", "mrr", "judged@2", "R@10", "AP@2"]
    together = evaluate(Run.from_dict(run), Qrels.from_dict(qrels), names)
    for name in names:
        alone = evaluate(Run.from_dict(run), Qrels.from_dict(qrels), name)[name]
        assert dict(together[name].per_query) == dict(alone.per_query)


def test_evaluation_object():
    run = Run.from_dict({"q1": {"a": 1.0}, "q2": {"b": 1.0}, "q9": {"a": 1.0}}, name="bm25")
    qrels = Qrels.from_dict({"q1": {"a": 1}, "q2": {"a": 1}, "q3": {"a": 2}})
    evaluation = evaluate(run, qrels, ["ndcg_cut_10", "P_1"])
    assert isinstance(evaluation["nDCG@10"], MetricResult)
    assert evaluation["ndcg@10"] is evaluation["nDCG@10"]
    assert evaluation["nDCG@10"].run == "bm25"
    assert evaluation.means() == {"nDCG@10": 0.5, "P@1": 0.5}
    assert (evaluation.ignored, evaluation.missing) == (("q9",), ("q3",))
    frame = evaluation.to_frame()
    assert list(frame.columns) == ["query_id", "nDCG@10", "P@1"]
    assert frame["query_id"].tolist() == ["q1", "q2"]


def test_input_errors():
    qrels = Qrels.from_dict({"q": {"a": 1}})
    duplicated = Run.from_columns(["q", "q"], ["a", "a"], [1.0, 2.0], name="dup")
    with pytest.raises(ValueError, match=r"'dup' lists document 'a' twice for query 'q'"):
        evaluate(duplicated, qrels, "map")
    twice = Qrels.from_columns(["q", "q"], ["a", "a"], [1, 0])
    with pytest.raises(ValueError, match="twice"):
        evaluate(Run.from_dict({"q": {"a": 1.0}}), twice, "map")
    with pytest.raises(ValueError, match="NaN"):
        evaluate(Run.from_columns(["q"], ["a"], [float("nan")]), qrels, "map")
    with pytest.raises(ValueError, match="missing"):
        evaluate(Run.from_dict({"q": {"a": 1.0}}), qrels, "map", missing="skip")
    with pytest.raises(ValueError, match="valid forms"):
        evaluate(Run.from_dict({"q": {"a": 1.0}}), qrels, "bleu")


def test_run_with_repeated_ids_in_its_document_dictionary():
    """ranklens.io keeps per-block dictionaries: one id may sit under several codes."""
    run, qrels = random_case(5, max_queries=8)
    reference = Run.from_dict(run)
    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    queries, docs, scores = zip(*rows, strict=True)
    encoded = Run.from_columns(queries, docs, scores)
    # one dictionary entry per row: ids repeat across queries under different codes
    blocky = Run(encoded.query_codes, encoded.queries, np.arange(len(docs), dtype=np.int32),
                 pa.array(list(docs)), scores=np.asarray(scores))
    names = ["ndcg@3", "map", "P@2", "judged@3", "Rprec"]
    expected = evaluate(reference, Qrels.from_dict(qrels), names)
    got = evaluate(blocky, Qrels.from_dict(qrels), names)
    for name in expected:
        assert dict(got[name].per_query) == pytest.approx(dict(expected[name].per_query))


def test_empty_rankings_and_single_documents():
    qrels = Qrels.from_dict({"q": {"a": 2, "b": 1}})
    single = evaluate(Run.from_dict({"q": {"b": 0.0}}), qrels, ["ndcg@10", "P@10", "mrr"])
    assert single["P@10"].per_query["q"] == pytest.approx(0.1)
    assert single["RR"].per_query["q"] == 1.0
    nothing = evaluate(Run.from_dict({"x": {"b": 0.0}}), qrels, ["ndcg@10"], missing="zero")
    assert dict(nothing["nDCG@10"].per_query) == {"q": 0.0}
    assert nothing.n_ignored == 1 and nothing.n_missing == 1
