"""contributions sum to evaluate's per-query value; moves sum to B - A; on hostile data."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.data import Qrels, Run
from ranklens.metrics import contributions, evaluate, explain_difference

METRICS = ["nDCG@3", "nDCG", "nDCG(gain=exp)@5", "AP", "AP@2", "RR", "RR@3", "P@1", "P@4",
           "R@3", "Success@2", "R-Prec", "ERR@20", "ERR(max=3)", "RBP(p=0.5)", "RBP(p=0.8)@3",
           "P(rel=2)@3", "AP(rel=2)"]


@st.composite
def hostile(draw):
    """A run and qrels with ties (few distinct scores), negative grades, short runs, queries
    without any relevant document, judged documents never retrieved, unjudged ones."""
    n_docs = draw(st.integers(1, 9))
    docs = [f"d{k}" for k in range(n_docs)]
    run, qrels = {}, {}
    for q in range(draw(st.integers(1, 4))):
        query = f"q{q}"
        retrieved = draw(st.lists(st.sampled_from(docs), unique=True, max_size=n_docs))
        if retrieved:
            run[query] = {d: float(draw(st.integers(0, 2))) for d in retrieved}
        judged = draw(st.lists(st.sampled_from(docs), unique=True, max_size=n_docs))
        if judged:
            qrels[query] = {d: draw(st.integers(-2, 3)) for d in judged}
    if not qrels:
        qrels["q0"] = {"d0": 1}
    if not run:
        run["q0"] = {"d0": 1.0}
    return Run.from_dict(run, name="a"), Qrels.from_dict(qrels)


@settings(max_examples=150, deadline=None)
@given(hostile(), st.sampled_from(METRICS))
def test_contributions_sum_to_the_per_query_value(data, metric):
    run, qrels = data
    values = evaluate(run, qrels, [metric], missing="zero")[metric].per_query
    for query, value in values.items():
        parts = contributions(run, qrels, metric, query)
        assert math.isclose(parts.value, value, rel_tol=0, abs_tol=1e-12), (query, metric)
        assert np.allclose(parts.cumulative[-1:], [value], rtol=0, atol=1e-12)
        assert np.allclose(parts.contribution, parts.gain * parts.discount *
                           (parts.contribution != 0), rtol=0, atol=1e-15) or \
            metric.startswith("nDCG")
        if metric.startswith("nDCG"):
            ideal = parts.ideal_contribution.sum()
            assert ideal == pytest.approx(1.0 if len(parts.ideal_grade) else 0.0, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(hostile(), hostile(), st.sampled_from(METRICS))
def test_moves_add_up_to_b_minus_a(first, second, metric):
    run_a, qrels = first
    run_b = Run.from_dict(second[0].to_dict(), name="b")
    a = evaluate(run_a, qrels, [metric], missing="zero")[metric].per_query
    b = evaluate(run_b, qrels, [metric], missing="zero")[metric].per_query
    for query in a:
        difference = explain_difference(run_a, run_b, qrels, metric, query)
        assert difference.delta == pytest.approx(b[query] - a[query], abs=1e-12)
        assert sum(m.delta for m in difference.moves) == pytest.approx(difference.delta,
                                                                        abs=1e-12)
        sizes = [abs(m.delta) for m in difference.moves]
        assert sizes == sorted(sizes, reverse=True)


def test_worked_example_ndcg_parts_and_ideal():
    run = Run.from_dict({"q1": {"a": 3, "b": 3, "c": 2, "d": 1, "e": 1}})
    qrels = Qrels.from_dict({"q1": {"a": 2, "c": 3, "e": 1, "z": 2, "b": -1}})
    parts = contributions(run, qrels, "nDCG@3", "q1")
    # ties broken by document id descending: b before a, e before d
    assert parts.doc_ids == ("b", "a", "c", "e", "d")
    assert parts.grade.tolist() == [-1, 2, 3, 1, -1]
    assert parts.judged.tolist() == [True, True, True, True, False]
    ideal_dcg = 3 + 2 / math.log2(3) + 2 / 2
    expected = [0.0, 2 / math.log2(3) / ideal_dcg, 3 / 2 / ideal_dcg, 0.0, 0.0]
    assert parts.contribution.tolist() == pytest.approx(expected, abs=1e-15)
    assert parts.ideal_grade.tolist() == [3, 2, 2]
    frame = parts.to_frame()
    assert list(frame.columns) == ["rank", "doc_id", "score", "grade", "gain", "discount",
                                   "contribution", "cumulative"]
    assert frame["grade"].isna().tolist() == [False, False, False, False, True]


def test_the_sentence_names_the_moves():
    qrels = Qrels.from_dict({"q1": {"x": 3, "y": 1}})
    a = Run.from_dict({"q1": {"x": 9, "y": 8, "n": 7}}, name="a")
    b = Run.from_dict({"q1": {"n": 9, "y": 8, "x": 1}}, name="b")
    difference = explain_difference(a, b, qrels, "RR", "q1")
    assert difference.sentence() == (
        "RR on q1: A 1.0000, B 0.5000 (B − A = −0.5000). All of it: x, grade 3, fell from 1 "
        "to 3: −1.0000; y, grade 1, stayed at 2: +0.5000 (together −0.5000).")
    assert difference.main_moves(most=1)[0].describe() == "x, grade 3, fell from 1 to 3: −1.0000"


def test_refusals():
    run = Run.from_dict({"q1": {"a": 1.0}})
    qrels = Qrels.from_dict({"q1": {"a": 1}})
    with pytest.raises(ValueError, match="not a sum over ranks"):
        contributions(run, qrels, "bpref", "q1")
    with pytest.raises(ValueError, match="has no judgements"):
        contributions(run, qrels, "AP", "q9")
    assert len(contributions(Run.from_dict({"q2": {"a": 1.0}}), qrels, "AP", "q1")) == 0


TIE_AVERAGED = ["nDCG@3", "nDCG", "nDCG(gain=exp)@5", "AP", "AP@2", "RR", "RR@3", "P@1", "P@4",
                "R@3", "R-Prec", "RBP(p=0.5)", "RBP(p=0.8)@3", "P(rel=2)@3", "AP(rel=2)"]


@settings(max_examples=120, deadline=None)
@given(hostile(), st.sampled_from(TIE_AVERAGED))
def test_tie_averaged_contributions_sum_to_the_tie_averaged_value(data, metric):
    run, qrels = data
    values = evaluate(run, qrels, [metric], missing="zero", ties="average")[metric].per_query
    for query, value in values.items():
        parts = contributions(run, qrels, metric, query, ties="average")
        assert parts.metric == evaluate(run, qrels, [metric], ties="average")[metric].metric
        assert math.isclose(parts.value, value, rel_tol=0, abs_tol=1e-12), (query, metric)
