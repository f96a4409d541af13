"""RBO against the paper's formula written out depth by depth, and its known properties."""

from __future__ import annotations

import numpy as np
import pytest

from ranklens.data import Run
from ranklens.metrics import rbo
from tests.support.metrics_reference import rbo_ext, trec_order


def run_of(rankings: dict[str, list[str]], name: str = "run") -> Run:
    """A run whose scores reproduce the given rankings exactly (no ties)."""
    return Run.from_dict({q: {d: float(len(docs) - i) for i, d in enumerate(docs)}
                          for q, docs in rankings.items()}, name=name)


def random_rankings(rng: np.random.Generator, n_queries: int) -> dict[str, list[str]]:
    out = {}
    for q in range(n_queries):
        size = int(rng.integers(1, 30))
        out[f"q{q}"] = [f"d{i}" for i in rng.choice(40, size=size, replace=False)]
    return out


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("p", [0.5, 0.9, 0.98])
def test_equals_the_papers_formula_on_tie_free_lists(seed, p):
    rng = np.random.default_rng(seed)
    a, b = random_rankings(rng, 5), random_rankings(rng, 5)
    result = rbo(run_of(a, "a"), run_of(b, "b"), p=p)
    assert set(result.per_query) == set(a) & set(b)
    for query, value in result.per_query.items():
        assert value == pytest.approx(rbo_ext(a[query], b[query], p), abs=1e-12)


@pytest.mark.parametrize("depth", [1, 3, 10])
def test_depth_compares_prefixes(depth):
    rng = np.random.default_rng(depth)
    a, b = random_rankings(rng, 6), random_rankings(rng, 6)
    result = rbo(run_of(a), run_of(b), p=0.8, depth=depth)
    assert result.metric == f"RBO(p=0.8)@{depth}"
    for query, value in result.per_query.items():
        expected = rbo_ext(a[query][:depth], b[query][:depth], 0.8)
        assert value == pytest.approx(expected, abs=1e-12)


def test_identical_disjoint_and_symmetric():
    rng = np.random.default_rng(3)
    a = random_rankings(rng, 8)
    b = random_rankings(rng, 8)
    same = rbo(run_of(a), run_of(a))
    assert all(v == pytest.approx(1.0, abs=1e-12) for v in same.per_query.values())
    disjoint = {q: [f"x{d}" for d in docs] for q, docs in a.items()}
    assert all(v == 0.0 for v in rbo(run_of(a), run_of(disjoint)).per_query.values())
    ab, ba = rbo(run_of(a), run_of(b)), rbo(run_of(b), run_of(a))
    for query in ab.per_query:
        assert ab.per_query[query] == pytest.approx(ba.per_query[query], abs=1e-12)
    assert 0.0 <= ab.mean <= 1.0


def test_ties_are_broken_by_document_id_descending():
    tied = Run.from_dict({"q": {"a": 1.0, "b": 1.0, "c": 1.0}})
    explicit = run_of({"q": trec_order({"a": 1.0, "b": 1.0, "c": 1.0})})
    assert trec_order({"a": 1.0, "b": 1.0, "c": 1.0}) == ["c", "b", "a"]
    other = run_of({"q": ["c", "a", "b"]})
    assert rbo(tied, other).per_query["q"] == pytest.approx(
        rbo(explicit, other).per_query["q"], abs=1e-12)


def test_only_queries_ranked_by_both_runs_and_bad_arguments():
    a = run_of({"q1": ["a", "b"], "q2": ["c"]})
    b = run_of({"q2": ["c"], "q3": ["d"]})
    assert dict(rbo(a, b).per_query) == {"q2": pytest.approx(1.0)}
    with pytest.raises(ValueError, match="p must"):
        rbo(a, b, p=1.0)
    with pytest.raises(ValueError, match="depth"):
        rbo(a, b, depth=0)
