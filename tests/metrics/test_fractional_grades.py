"""Fractional grades (an LLM judge's 0.73, 2.5) against a direct computation of every measure.

The rule (``ranklens.data.grades``): graded measures read the grade as a gain (nDCG: g, or
2^g - 1 with exp gain; ERR: (2^g - 1) / 2^max), binary ones count a document relevant when
g >= the relevance level. Each measure is written out here in plain Python over one ranking at a
time, and ``evaluate`` must agree to 1e-12 on every query.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from ranklens.data import Qrels, Run
from ranklens.data.grades import fractional_rule, grade_array
from ranklens.metrics import contributions, evaluate
from ranklens.metrics.trec_eval import plan_measures
from ranklens.metrics.trec_lines import trec_eval_output

GRADES = (-1.0, 0.0, 0.25, 0.73, 0.99, 1.0, 1.5, 2.0, 2.5, 3.0)


def _collection(seed: int = 29) -> tuple[Run, Qrels, dict, dict]:
    """Twelve queries: judged and unjudged documents, fractional and whole grades, distinct
    scores (so the order is the scores' alone)."""
    rng = np.random.default_rng(seed)
    run: dict[str, dict[str, float]] = {}
    qrels: dict[str, dict[str, float]] = {}
    for q in range(12):
        docs = [f"d{q}_{i:02d}" for i in range(int(rng.integers(3, 25)))]
        scores = rng.permutation(len(docs)) + rng.random()
        run[f"q{q}"] = {d: float(s) for d, s in zip(docs, scores, strict=True)}
        judged = rng.choice(len(docs), size=max(1, len(docs) * 2 // 3), replace=False)
        qrels[f"q{q}"] = {docs[i]: float(rng.choice(GRADES)) for i in judged}
        qrels[f"q{q}"][f"d{q}_unretrieved"] = float(rng.choice(GRADES[3:]))
    qrels["q0"]["d0_00"] = 0.99  # at least one of each at the level's edge
    qrels["q0"][next(iter(run["q0"]))] = 1.0
    return Run.from_dict(run), Qrels.from_dict(qrels), run, qrels


def _ranking(run: dict, q: str) -> list[str]:
    return sorted(run[q], key=lambda d: (-run[q][d], d), reverse=False)


def _grade(qrels: dict, q: str, d: str) -> float:
    return qrels[q].get(d, 0.0)


def _judged(qrels: dict, q: str, d: str) -> bool:
    return d in qrels[q] and qrels[q][d] >= 0


def _dcg(gains: list[float]) -> float:
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains))


def direct(name: str, run: dict, qrels: dict, q: str) -> float:
    """``name`` on query ``q``, computed from its definition."""
    ranked = _ranking(run, q)
    g = [_grade(qrels, q, d) for d in ranked]
    level = 2 if "rel=2" in name else 1
    rel = [1.0 if _judged(qrels, q, d) and _grade(qrels, q, d) >= level else 0.0
           for d in ranked]
    n_rel = sum(1 for v in qrels[q].values() if v >= level)
    k = int(name.rsplit("@", 1)[1]) if "@" in name else len(ranked)
    if name.startswith("nDCG"):
        gain = (lambda x: 2.0 ** max(x, 0.0) - 1) if "exp" in name else (lambda x: max(x, 0.0))
        ideal = sorted((v for v in qrels[q].values() if v > 0), reverse=True)[:k]
        idcg = _dcg([gain(v) for v in ideal])
        return _dcg([gain(x) for x in g[:k]]) / idcg if idcg else 0.0
    if name.startswith("ERR"):
        top = 3 if "max=3" in name else 4
        value, still = 0.0, 1.0
        for i, x in enumerate(g[:k]):
            stop = (2.0 ** max(x, 0.0) - 1) / 2.0 ** top
            value += still * stop / (i + 1)
            still *= 1 - stop
        return value
    if name.startswith("P"):
        return sum(rel[:k]) / k
    if name.startswith("R@"):
        return sum(rel[:k]) / n_rel if n_rel else 0.0
    if name.startswith("Success"):
        return float(any(rel[:k]))
    if name.startswith("AP"):
        hits, total = 0, 0.0
        for i, r in enumerate(rel[:k]):
            if r:
                hits += 1
                total += hits / (i + 1)
        return total / n_rel if n_rel else 0.0
    if name.startswith("RR"):
        return next((1 / (i + 1) for i, r in enumerate(rel[:k]) if r), 0.0)
    if name == "R-Prec":
        return sum(rel[:n_rel]) / n_rel if n_rel else 0.0
    if name.startswith("RBP"):
        return sum(0.2 * 0.8 ** i * r for i, r in enumerate(rel))
    assert name == "bpref"
    nonrel_judged = sum(1 for v in qrels[q].values() if 0 <= v < level)
    total, above = 0.0, 0
    for d, r in zip(ranked, rel, strict=True):
        if r:
            total += 1 - min(above, n_rel) / min(nonrel_judged, n_rel) if above else 1.0
        elif _judged(qrels, q, d):
            above += 1
    return total / n_rel if n_rel else 0.0


MEASURES = ["nDCG", "nDCG@5", "nDCG(gain=exp)@10", "ERR@20", "ERR(max=3)@5", "P@5",
            "P(rel=2)@5", "R@10", "Success@3", "AP", "AP@5", "RR", "RR@3", "R-Prec", "bpref",
            "RBP(p=0.8)", "RBP(p=0.8,rel=2)"]


def test_the_collection_is_fractional() -> None:
    _, qrels, _, _ = _collection()
    assert qrels.fractional and qrels.relevance.dtype == np.float64
    assert np.count_nonzero(qrels.relevance != np.round(qrels.relevance)) > 10


@pytest.mark.parametrize("name", MEASURES)
def test_every_measure_on_fractional_grades_is_its_definition(name: str) -> None:
    run, qrels, run_dict, qrels_dict = _collection()
    got = evaluate(run, qrels, [name])[name].per_query
    assert len(got) == 12
    for q, value in got.items():
        assert value == pytest.approx(direct(name, run_dict, qrels_dict, q), abs=1e-12), q


def test_the_per_document_split_still_sums_to_the_value_on_fractional_grades() -> None:
    run, qrels, _, _ = _collection()
    for name in ("nDCG@10", "ERR@20", "AP"):
        values = evaluate(run, qrels, [name])[name].per_query
        for q in ("q0", "q5"):
            parts = contributions(run, qrels, name, q)
            assert float(np.sum(parts.contribution)) == pytest.approx(values[q], abs=1e-12)


def test_tie_averaged_ndcg_uses_the_mean_fractional_gain_of_a_tie() -> None:
    run = Run.from_columns(["q"] * 3, ["a", "b", "c"], [2.0, 1.0, 1.0])
    qrels = Qrels.from_columns(["q"] * 3, ["a", "b", "c"], [0.5, 2.5, 0.0])
    got = evaluate(run, qrels, ["nDCG(ties=average)@3"])["nDCG(ties=average)@3"].per_query["q"]
    ideal = 2.5 + 0.5 / math.log2(3)
    assert got == pytest.approx((0.5 + 1.25 / math.log2(3) + 1.25 / 2) / ideal, abs=1e-12)


def test_a_grade_is_relevant_from_the_level_up_not_below_it() -> None:
    run = Run.from_columns(["q"] * 4, ["a", "b", "c", "d"], [4.0, 3.0, 2.0, 1.0])
    qrels = Qrels.from_columns(["q"] * 4, ["a", "b", "c", "d"], [0.99, 1.0, 1.99, 2.0])
    found = evaluate(run, qrels, ["P@1", "P@2", "RR", "P(rel=2)@4", "RR(rel=2)", "AP"])
    assert found["P@1"].per_query["q"] == 0.0  # 0.99 is not relevant at level 1
    assert found["P@2"].per_query["q"] == 0.5  # 1.0 is
    assert found["RR"].per_query["q"] == 0.5
    assert found["P(rel=2)@4"].per_query["q"] == 0.25  # 1.99 is not at level 2, 2.0 is
    assert found["RR(rel=2)"].per_query["q"] == 0.25
    assert found["AP"].per_query["q"] == pytest.approx((1 / 2 + 2 / 3 + 3 / 4) / 3, abs=1e-12)


def test_whole_grades_keep_the_integer_dtype_and_fractional_ones_are_float() -> None:
    assert grade_array(np.array([0.0, 1.0, 2.0])).dtype == np.int64
    assert grade_array(np.array([0, 1, 3])).dtype == np.int64
    assert grade_array(np.array([0.0, 0.73])).dtype == np.float64
    assert not Qrels.from_columns(["q"], ["a"], [2.0]).fractional
    with pytest.raises(ValueError, match="not a finite number"):
        Qrels.from_columns(["q"], ["a"], [float("nan")])


def test_the_rule_is_said_in_one_sentence() -> None:
    grades = np.array([0.73, 2.5, 1.0, 0.0, 2.5, 0.5])
    assert fractional_rule(grades, 1) == (
        "4 of 6 judgements have fractional grades (0.5, 0.73, …): read as gains for nDCG and "
        "ERR; relevant when grade >= 1 for P, recall, AP, RR, R-Prec, bpref, success and RBP")
    assert "grade >= the relevance level (1 unless set)" in str(fractional_rule(grades))
    assert fractional_rule(np.array([0, 1, 2])) is None


def test_err_names_a_scale_that_holds_a_fractional_top_grade() -> None:
    run = Run.from_columns(["q"], ["a"], [1.0])
    qrels = Qrels.from_columns(["q"], ["a"], [3.5])
    with pytest.raises(ValueError, match=r"grade 3\.5; name the top grade, e\.g\. ERR\(max=4\)"):
        evaluate(run, qrels, ["ERR(max=3)@20"])
    assert evaluate(run, qrels, ["ERR@20"])["ERR@20"].per_query["q"] == pytest.approx(
        (2 ** 3.5 - 1) / 16, abs=1e-12)


def test_the_trec_eval_lines_refuse_fractional_judgements() -> None:
    run, qrels, _, _ = _collection()
    with pytest.raises(ValueError, match=r"trec_eval reads integer grades only.*atol"):
        trec_eval_output(run, qrels, plan_measures(["P.5"]))


def test_proxy_labels_fill_holes_keeping_their_fractional_grades() -> None:
    from ranklens.metrics.holes import fill_holes

    trusted = Qrels.from_columns(["q", "q"], ["a", "b"], [2, -1])
    proxy = Qrels.from_columns(["q", "q", "q"], ["a", "b", "c"], [0.25, 0.73, 1.5])
    filled = fill_holes(trusted, proxy).qrels
    assert filled.fractional
    assert filled.to_dict() == {"q": {"a": 2.0, "b": 0.73, "c": 1.5}}
    whole = fill_holes(trusted, Qrels.from_columns(["q"], ["c"], [1])).qrels
    assert whole.relevance.dtype == np.int64 and whole.to_dict() == {"q": {"a": 2, "b": -1,
                                                                         "c": 1}}


def test_what_moved_and_the_side_by_side_write_fractional_grades_as_given() -> None:
    from ranklens.compare.rankings import side_by_side
    from ranklens.metrics import explain_difference

    a = Run.from_columns(["q"] * 3, ["a", "b", "c"], [3.0, 2.0, 1.0])
    b = Run.from_columns(["q"] * 3, ["a", "b", "c"], [1.0, 2.0, 3.0])
    qrels = Qrels.from_columns(["q"] * 3, ["a", "b", "c"], [0.73, 2.0, 1.5])
    assert side_by_side(a, b, qrels, "q").a["label"].tolist() == ["0.73", "2", "1.5"]
    moves = explain_difference(a, b, qrels, "nDCG@10", "q").moves
    ideal = 2 + 1.5 / math.log2(3) + 0.73 / 2
    assert [(m.doc_id, m.grade) for m in moves] == [("c", 1.5), ("a", 0.73)]
    assert moves[0].delta == pytest.approx((1.5 - 1.5 / 2) / ideal, abs=1e-12)
    assert moves[1].describe().startswith("a, grade 0.73, fell from 1 to 3")
