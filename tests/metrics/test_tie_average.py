"""Tie-averaged metrics equal the brute-force average over every order of the tie groups, and
trec_eval's values when nothing ties; the cutoff tie report matches a per-query loop."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.data import Qrels, Run
from ranklens.metrics import evaluate, parse_metric
from ranklens.metrics.ties import cutoff_ties, tie_marks

AVERAGED = ["nDCG@3", "nDCG", "nDCG(gain=exp)@2", "P@1", "P@3", "R@2", "R-Prec", "RR",
            "RR@2", "AP", "AP@3", "RBP(p=0.6)", "RBP(p=0.8)@2", "P(rel=2)@2", "AP(rel=2)"]


@st.composite
def tied_cases(draw):
    """Up to 3 queries of up to 5 documents with scores from {0, 1, 2} (many ties), grades from
    -1 to 3, judged documents the run misses, unjudged ones it holds."""
    run, qrels = {}, {}
    for q in range(draw(st.integers(1, 3))):
        docs = [f"d{k}" for k in range(draw(st.integers(1, 5)))]
        run[f"q{q}"] = {d: float(draw(st.integers(0, 2))) for d in docs}
        judged = draw(st.lists(st.sampled_from([*docs, "x1", "x2"]), unique=True, min_size=1))
        qrels[f"q{q}"] = {d: draw(st.integers(-1, 3)) for d in judged}
    return run, qrels


def brute_force(run: dict, qrels: dict, metric: str) -> dict[str, float]:
    """Average of trec_eval's value over every order of every tie group, query by query: one
    evaluate call over a run holding each order as its own query."""
    orders, judgements, owner = {}, {}, {}
    for query, scores in run.items():
        ranked = sorted(scores, key=lambda d: -scores[d])
        groups = [list(g) for _, g in itertools.groupby(ranked, key=lambda d: scores[d])]
        for k, combo in enumerate(itertools.product(*(itertools.permutations(g)
                                                      for g in groups))):
            flat = [d for group in combo for d in group]
            name = f"{query}#{k}"
            orders[name] = {d: float(len(flat) - i) for i, d in enumerate(flat)}
            judgements[name] = qrels[query]
            owner[name] = query
    values = evaluate(Run.from_dict(orders), Qrels.from_dict(judgements), [metric])
    per_order = values[metric].per_query
    out: dict[str, list[float]] = {}
    for name, value in per_order.items():
        out.setdefault(owner[name], []).append(value)
    return {query: float(np.mean(v)) for query, v in out.items()}


@settings(max_examples=60, deadline=None)
@given(tied_cases(), st.sampled_from(AVERAGED))
def test_tie_average_is_the_mean_over_every_order_of_the_tie_groups(case, metric):
    run, qrels = case
    averaged = evaluate(Run.from_dict(run), Qrels.from_dict(qrels), [metric], ties="average")
    expected = brute_force(run, qrels, metric)
    got = averaged[metric].per_query
    assert set(got) == set(expected)
    for query, value in expected.items():
        assert got[query] == pytest.approx(value, abs=1e-12), (query, metric)


# derandomized: pytrec_eval 0.5 spins forever on some sequences of these cases in one process
# (seed 0 then seed 4653), a fault of the reference, not of the values compared
@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_without_ties_it_is_trec_eval(seed):
    rng = np.random.default_rng(seed)
    run, qrels = {}, {}
    for q in range(int(rng.integers(1, 6))):
        docs = [f"d{k}" for k in range(int(rng.integers(1, 25)))]
        scores = rng.permutation(len(docs)).astype(float) + rng.random()
        run[f"q{q}"] = dict(zip(docs, scores.tolist(), strict=True))
        judged = rng.choice([*docs, "x"], size=int(rng.integers(1, len(docs) + 2)),
                            replace=False)
        qrels[f"q{q}"] = {str(d): int(rng.integers(-1, 4)) for d in judged}
    measures = {"ndcg_cut_10": "nDCG@10", "ndcg": "nDCG", "P_5": "P@5", "recall_10": "R@10",
                "Rprec": "R-Prec", "recip_rank": "RR", "map": "AP", "map_cut_5": "AP@5"}
    reference = pytrec_eval.RelevanceEvaluator(qrels, set(measures)).evaluate(run)
    ours = evaluate(Run.from_dict(run), Qrels.from_dict(qrels), list(measures.values()),
                    ties="average")
    for measure, name in measures.items():
        for query, values in reference.items():
            assert ours[name].per_query[query] == pytest.approx(values[measure], abs=1e-12)


def test_names_and_refusals():
    assert parse_metric("ndcg(ties=average)@10").name == "nDCG(ties=average)@10"
    assert parse_metric("map", ties="average").name == "AP(ties=average)"
    assert parse_metric("P(rel=2,ties=average)@5").name == "P(rel=2,ties=average)@5"
    assert parse_metric("nDCG(ties=trec_eval)@10").name == "nDCG@10"
    with pytest.raises(ValueError, match="no tie-averaged form"):
        parse_metric("bpref", ties="average")
    with pytest.raises(ValueError, match="ties must be"):
        parse_metric("AP", ties="random")
    run = Run.from_dict({"q1": {"a": 1.0, "b": 1.0}})
    qrels = Qrels.from_dict({"q1": {"a": 1}})
    evaluation = evaluate(run, qrels, ["P@1", "nDCG@1"], ties="average")
    assert evaluation["P@1"].per_query == {"q1": 0.5}
    assert evaluation["nDCG@1"].metric == "nDCG(ties=average)@1"
    # trec_eval puts b before a (document id descending): P@1 = 0
    assert evaluate(run, qrels, ["P@1"])["P@1"].per_query == {"q1": 0.0}


def test_cutoff_ties_worked_example():
    run = Run.from_dict({
        "q1": {"a": 3, "b": 2, "c": 2, "d": 2, "e": 1},  # ranks 2-4 tie: crosses 2 and 3
        "q2": {"a": 3, "b": 2, "c": 1},  # no tie
        "q3": {"a": 1, "b": 1},  # a tie, but the ranking is no longer than the cutoff
    }, name="bm25")
    ties = cutoff_ties(run, 3)
    assert ties.query_ids.tolist() == ["q1"]
    assert (ties.first_rank.tolist(), ties.last_rank.tolist(), ties.inside.tolist(),
            ties.score.tolist()) == ([2], [4], [2], [2.0])
    assert ties.share == pytest.approx(1 / 3)
    assert ties.describe().startswith("bm25: in 1 of 3 queries (33.3%) a group of equal "
                                      "scores crosses rank 3")
    assert cutoff_ties(run, 3, query_ids=["q2", "q3"]).n_crossing == 0
    assert cutoff_ties(run, 1).query_ids.tolist() == ["q3"]  # a and b tie at rank 1
    marks, crosses = tie_marks(np.array([3, 2, 2, 2, 1, 1]), cutoff=3)
    assert marks.tolist() == [0, 1, 1, 1, 2, 2]
    assert crosses.tolist() == [False, True, True, True, False, False]


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(st.sampled_from([f"q{k}" for k in range(5)]), st.lists(
    st.integers(0, 3), min_size=1, max_size=8), min_size=1), st.integers(1, 6))
def test_cutoff_ties_matches_a_loop(scores, cutoff):
    run = Run.from_dict({q: {f"d{i}": float(s) for i, s in enumerate(v)}
                         for q, v in scores.items()})
    expected = []
    for query in sorted(scores):
        ranked = sorted(scores[query], reverse=True)
        if len(ranked) > cutoff and ranked[cutoff - 1] == ranked[cutoff]:
            value = ranked[cutoff - 1]
            expected.append((query, ranked.index(value) + 1,
                             len(ranked) - ranked[::-1].index(value)))
    ties = cutoff_ties(run, cutoff)
    assert list(zip(ties.query_ids.tolist(), ties.first_rank.tolist(),
                    ties.last_rank.tolist(), strict=True)) == expected
