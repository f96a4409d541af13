"""bpref, judged-only lists (-J), RBP with its residual and ERR, each equal per query to a
reference: trec_eval 9.0.8 (pytrec_eval) for bpref and -J, ir_measures (cwl_eval's RBP,
gdeval's ERR) and plain per-query loops for RBP, its residual and ERR."""

from __future__ import annotations

import shutil

import ir_measures
import numpy as np
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.data import Qrels, Run
from ranklens.metrics import evaluate, parse_metric
from ranklens.metrics.holes import fill_holes
from tests.support.metrics_cases import random_case
from tests.support.metrics_reference import trec_order

TOLERANCE = 1e-9

# ranklens name -> trec_eval name, for the -J comparison
CONDENSED = {"nDCG@5": "ndcg_cut_5", "nDCG@10": "ndcg_cut_10", "nDCG": "ndcg", "P@5": "P_5",
             "P@10": "P_10", "AP": "map", "AP@5": "map_cut_5", "RR": "recip_rank",
             "R-Prec": "Rprec", "R@5": "recall_5", "Success@1": "success_1", "bpref": "bpref"}
TREC_CONDENSED = {"ndcg_cut.5,10", "ndcg", "P.5,10", "map", "map_cut.5", "recip_rank", "Rprec",
                  "recall.5", "success.1", "bpref"}


def scored(run, qrels, names, **options):
    evaluation = evaluate(Run.from_dict(run), Qrels.from_dict(qrels), names, **options)
    level = options.get("relevance_level", 1)
    return {name: evaluation[parse_metric(name, relevance_level=level)].per_query
            for name in names}


def numeric_ids(run, qrels):
    """The same case with numeric query ids (gdeval reads only those) and each ranking's
    dict in trec_eval's order (ir_measures hands cwl_eval the run sorted by score only,
    keeping the dict's order among ties)."""
    ids = {q: str(i + 1) for i, q in enumerate(sorted(set(run) | set(qrels)))}
    return ({ids[q]: {d: docs[d] for d in trec_order(docs)} for q, docs in run.items()},
            {ids[q]: docs for q, docs in qrels.items()})


# ---- bpref and -J against trec_eval -----------------------------------------------------------

@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("level", [1, 2, 3])
def test_bpref_equals_trec_eval(seed, level):
    run, qrels = random_case(seed, ties=seed % 3 != 0)
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"bpref"},
                                              relevance_level=level).evaluate(run)
    got = scored(run, qrels, ["bpref"], relevance_level=level)["bpref"]
    assert set(got) == set(expected)
    for query, values in expected.items():
        assert got[query] == pytest.approx(values["bpref"], abs=TOLERANCE), (query, run, qrels)


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("level", [1, 2])
def test_judged_only_lists_equal_trec_eval_minus_j(seed, level):
    run, qrels = random_case(seed, ties=seed % 2 == 0)
    expected = pytrec_eval.RelevanceEvaluator(qrels, TREC_CONDENSED, relevance_level=level,
                                              judged_docs_only_flag=True).evaluate(run)
    got = scored(run, qrels, list(CONDENSED), relevance_level=level, judged_only=True)
    for name, trec_name in CONDENSED.items():
        assert set(got[name]) == set(expected), name
        for query, values in expected.items():
            assert got[name][query] == pytest.approx(values[trec_name], abs=TOLERANCE), (
                name, query, run, qrels)


def test_judged_only_reads_past_the_cutoff_and_keeps_queries_with_nothing_judged():
    # q1: the unjudged top two leave; x and c move up into the top 2. q2: nothing judged is
    # retrieved, the query stays and scores 0 (trec_eval -J).
    run = {"q1": {"u1": 5.0, "u2": 4.0, "x": 3.0, "c": 2.0}, "q2": {"u": 1.0}}
    qrels = {"q1": {"x": 0, "c": 1, "d": -1}, "q2": {"z": 1}}
    full = scored(run, qrels, ["P@2"])["P@2"]
    condensed = scored(run, qrels, ["P@2"], judged_only=True)["P@2"]
    assert full == {"q1": 0.0, "q2": 0.0}
    assert condensed == {"q1": 0.5, "q2": 0.0}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), level=st.sampled_from([1, 2, 3]), ties=st.booleans())
def test_bpref_and_condensed_hypothesis(seed, level, ties):
    run, qrels = random_case(seed, max_queries=8, ties=ties)
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"bpref", "ndcg_cut.5", "map"},
                                              relevance_level=level,
                                              judged_docs_only_flag=True).evaluate(run)
    got = scored(run, qrels, ["bpref", "nDCG@5", "AP"], relevance_level=level,
                 judged_only=True)
    for name, trec_name in (("bpref", "bpref"), ("nDCG@5", "ndcg_cut_5"), ("AP", "map")):
        for query, values in expected.items():
            assert got[name][query] == pytest.approx(values[trec_name], abs=TOLERANCE)


# ---- RBP and its residual ---------------------------------------------------------------------

def rbp_reference(ranking, judged, p, level, k=None):
    """Moffat & Zobel (2008), one rank at a time: (RBP, residual)."""
    top = ranking if k is None else ranking[:k]
    score = sum((1 - p) * p ** i for i, d in enumerate(top) if judged.get(d, -1) >= level)
    unjudged = sum((1 - p) * p ** i for i, d in enumerate(top) if judged.get(d, -1) < 0)
    return score, unjudged + p ** len(top)


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize(("p", "level"), [(0.5, 1), (0.8, 1), (0.95, 2)])
def test_rbp_equals_ir_measures_cwl_eval(seed, p, level):
    run, qrels = numeric_ids(*random_case(seed, ties=seed % 2 == 0))
    measure = ir_measures.RBP(p=p, rel=level)
    expected = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}
    name = f"RBP(p={p:g})" if level == 1 else f"RBP(p={p:g},rel={level})"
    got = scored(run, qrels, [name])[name]
    compared = 0
    for query, value in expected.items():
        if query in got:  # cwl_eval also reports queries ranklens does not evaluate
            assert got[query] == pytest.approx(value, abs=TOLERANCE), (query, run, qrels)
            compared += 1
    assert compared == len(got)


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize(("p", "k"), [(0.8, None), (0.8, 3), (0.9, 5), (0.5, 1)])
def test_rbp_and_residual_equal_the_paper(seed, p, k):
    run, qrels = random_case(seed)
    name = f"RBP(p={p:g})" + ("" if k is None else f"@{k}")
    evaluation = evaluate(Run.from_dict(run), Qrels.from_dict(qrels), [name])
    assert evaluation.residuals[name].metric == f"{name}_residual"
    for query, value in evaluation[name].per_query.items():
        score, residual = rbp_reference(trec_order(run[query]), qrels[query], p, 1, k)
        assert value == pytest.approx(score, abs=TOLERANCE)
        assert evaluation.residuals[name].per_query[query] == pytest.approx(residual,
                                                                         abs=TOLERANCE)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), p=st.floats(0.05, 0.99))
def test_residual_bounds_every_completion_of_the_judgements(seed, p):
    """Whatever the unjudged documents turn out to be, the RBP of the whole ranking lies in
    [RBP, RBP + residual]; with every unjudged document relevant it reaches RBP + residual
    minus the tail p^depth."""
    run, qrels = random_case(seed, max_queries=5, ties=False)
    name = f"RBP(p={p:g})"
    spec_p = parse_metric(name).p
    base = evaluate(Run.from_dict(run), Qrels.from_dict(qrels), [name])
    completed = {q: {**docs, **{d: 1 for d in run.get(q, {}) if docs.get(d, -1) < 0}}
                 for q, docs in qrels.items()}
    best = evaluate(Run.from_dict(run), Qrels.from_dict(completed), [name])
    for query, low in base[name].per_query.items():
        residual = base.residuals[name].per_query[query]
        tail = spec_p ** len(run[query])
        assert low - 1e-12 <= best[name].per_query[query] <= low + residual + 1e-12
        assert best[name].per_query[query] == pytest.approx(low + residual - tail, abs=1e-12)


def test_rbp_residual_of_a_missing_query_is_one():
    run = {"q1": {"a": 1.0}}
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    evaluation = evaluate(Run.from_dict(run), Qrels.from_dict(qrels), ["RBP(p=0.8)"],
                          missing="zero")
    assert evaluation["RBP(p=0.8)"].per_query == {"q1": pytest.approx(0.2), "q2": 0.0}
    assert evaluation.residuals["RBP(p=0.8)"].per_query == {"q1": pytest.approx(0.8),
                                                            "q2": 1.0}


# ---- ERR ----------------------------------------------------------------------------------------

def err_reference(ranking, judged, k, max_grade=4):
    """Chapelle et al. (2009) as gdeval.pl writes it, one rank at a time."""
    score, still = 0.0, 1.0
    for i, doc in enumerate(ranking if k is None else ranking[:k]):
        grade = max(judged.get(doc, 0), 0)
        r = (2 ** grade - 1) / 2 ** max_grade
        score += r * still / (i + 1)
        still *= 1 - r
    return score


@pytest.mark.skipif(shutil.which("perl") is None, reason="gdeval.pl needs perl")
@pytest.mark.parametrize("seed", range(40))
def test_err_equals_gdeval(seed):
    run, qrels = numeric_ids(*random_case(seed, ties=seed % 2 == 0))
    for k in (1, 3, 5, 20):
        expected = {m.query_id: m.value
                    for m in ir_measures.iter_calc([ir_measures.ERR @ k], qrels, run)}
        got = scored(run, qrels, [f"ERR@{k}"])[f"ERR@{k}"]
        for query, value in expected.items():
            if query in got:
                assert got[query] == pytest.approx(value, abs=5.1e-6)  # gdeval prints 5 decimals
        for query, value in got.items():  # gdeval prints no line without a positive grade
            if query not in expected:
                assert value == 0.0


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize(("k", "max_grade"), [(None, 4), (10, 4), (5, 3), (2, 5)])
def test_err_equals_the_paper_exactly(seed, k, max_grade):
    run, qrels = random_case(seed)
    name = ("ERR" if max_grade == 4 else f"ERR(max={max_grade})") + (
        "" if k is None else f"@{k}")
    got = scored(run, qrels, [name])[name]
    for query, value in got.items():
        assert value == pytest.approx(err_reference(trec_order(run[query]), qrels[query], k,
                                                    max_grade), abs=1e-12)


def test_err_refuses_grades_above_its_scale():
    run, qrels = {"q": {"a": 1.0}}, {"q": {"a": 5}}
    with pytest.raises(ValueError, match=r"ERR\(max=5\)@20"):
        scored(run, qrels, ["ERR@20"])
    assert scored(run, qrels, ["ERR(max=5)@20"])["ERR(max=5)@20"]["q"] == pytest.approx(31 / 32)


def test_err_on_long_rankings_keeps_precision():
    """Thousands of queries with long relevant runs: the running product stays exact."""
    rng = np.random.default_rng(3)
    run = {f"q{i}": {f"d{j}": float(-j) for j in range(60)} for i in range(2000)}
    qrels = {q: {d: int(rng.integers(0, 5)) for d in docs} for q, docs in run.items()}
    got = scored(run, qrels, ["ERR"])["ERR"]
    for query in list(run)[-5:]:
        assert got[query] == pytest.approx(err_reference(trec_order(run[query]), qrels[query],
                                                         None), abs=1e-13)


# ---- names ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("typed", "canonical"), [
    ("bpref", "bpref"), ("BPREF", "bpref"), ("bpref(rel=2)", "bpref(rel=2)"),
    ("RBP(p=0.8)", "RBP(p=0.8)"), ("rbp", "RBP(p=0.8)"), ("RBP(p=0.95)@20", "RBP(p=0.95)@20"),
    ("rbp(p=0.5,rel=2)", "RBP(p=0.5,rel=2)"), ("ERR@20", "ERR@20"), ("err_20", "ERR@20"),
    ("ERR(max=3)@10", "ERR(max=3)@10"), ("ERR(max=4)@10", "ERR@10"), ("ERR", "ERR"),
])
def test_new_names_as_users_type_them(typed, canonical):
    spec = parse_metric(typed)
    assert spec.name == canonical
    assert parse_metric(spec.name) == spec


@pytest.mark.parametrize("typed", ["bpref@10", "RBP(p=1)", "RBP(p=0)", "RBP(p=x)",
                                   "ERR(max=0)@5", "ERR(rel=2)@5", "RBP(gain=exp)"])
def test_malformed_new_names_are_refused(typed):
    with pytest.raises(ValueError):
        parse_metric(typed)


# ---- holes filled with proxy labels ------------------------------------------------------------

def test_fill_holes_keeps_gold_fills_holes_and_counts_what_it_left_out():
    gold = Qrels.from_dict({"q1": {"a": 2, "b": 0, "c": -1}, "q2": {"x": 1}})
    proxy = Qrels.from_dict({"q1": {"a": 0, "b": 3, "c": 1, "d": 2}, "q3": {"y": 1}})
    filled = fill_holes(gold, proxy)
    assert filled.qrels.to_dict() == {"q1": {"a": 2, "b": 0, "c": 1, "d": 2}, "q2": {"x": 1}}
    assert filled.n_filled == 2  # c (a negative gold grade is a hole) and d
    assert filled.n_proxy_only_queries == 1


def test_fill_holes_is_the_identity_without_new_labels():
    gold = Qrels.from_dict({"q1": {"a": 2, "b": 0}})
    filled = fill_holes(gold, Qrels.from_dict({"q1": {"a": 0}}))
    assert filled.qrels.to_dict() == gold.to_dict()
    assert filled.n_filled == 0


def test_judged_only_reads_deeper_where_the_judged_rows_lie_deep():
    """A ranking whose first judged documents sit below 4k unjudged ones: the prefix grows
    until it holds k judged rows (or the ranking ends), and equals trec_eval -J."""
    rng = np.random.default_rng(9)
    run, qrels = {}, {}
    for i, unjudged in enumerate((0, 7, 39, 41, 170, 600)):
        docs = [f"u{j}" for j in range(unjudged)] + [f"j{j}" for j in range(12)]
        run[f"q{i}"] = {d: float(len(docs) - r) for r, d in enumerate(docs)}
        qrels[f"q{i}"] = {f"j{j}": int(rng.integers(0, 3)) for j in range(12)}
    qrels["q5"] = {"j0": 2}  # only one judged document: the prefix reaches the end
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "P.5"},
                                              judged_docs_only_flag=True).evaluate(run)
    got = scored(run, qrels, ["nDCG@10", "P@5"], judged_only=True)
    for query, values in expected.items():
        assert got["nDCG@10"][query] == pytest.approx(values["ndcg_cut_10"], abs=TOLERANCE)
        assert got["P@5"][query] == pytest.approx(values["P_5"], abs=TOLERANCE)
