"""The judge check: confusion of grades, weighted kappa with a query-bootstrap interval, bias."""

from __future__ import annotations

import numpy as np
import pytest

from ranklens.stats import (
    InsufficientSampleError,
    SmallSampleWarning,
    confusion_matrix,
    judge_agreement,
    weighted_kappa,
)
from ranklens.stats.agreement import _AGREEMENT_STREAM
from ranklens.stats.chunking import block_generators
from ranklens.stats.draws import fill_uniform_indices


def _direct_kappa(gold: list[int], proxy: list[int], weights: str, k: int) -> float:
    """Cohen (1968) with agreement weights w_ij = 1 - |i - j| / (k - 1) (or squared), by loops."""
    n = len(gold)
    p = [[0.0] * k for _ in range(k)]
    for g, q in zip(gold, proxy, strict=True):
        p[g][q] += 1.0 / n
    rows = [sum(p[i]) for i in range(k)]
    cols = [sum(p[i][j] for i in range(k)) for j in range(k)]

    def w(i: int, j: int) -> float:
        d = abs(i - j) / (k - 1)
        return 1.0 - (d if weights == "linear" else d * d)

    observed = sum(w(i, j) * p[i][j] for i in range(k) for j in range(k))
    expected = sum(w(i, j) * rows[i] * cols[j] for i in range(k) for j in range(k))
    return (observed - expected) / (1.0 - expected)


def _judged(rng: np.random.Generator, n_queries: int = 40, docs: int = 15) -> tuple:
    queries = np.repeat([f"q{i:02d}" for i in range(n_queries)], docs)
    gold = rng.integers(0, 4, queries.size)
    offset = np.repeat(rng.normal(0.0, 0.7, n_queries), docs)  # the judge's reading per query
    proxy = np.clip(np.rint(gold + 0.3 + offset + rng.normal(0, 0.6, queries.size)), 0, 3)
    return queries, gold, proxy.astype(int)


def test_kappa_of_a_small_table_against_cohens_formula() -> None:
    gold = [0, 1, 2, 2, 3, 1, 0, 3, 2, 1]
    proxy = [0, 2, 2, 1, 3, 1, 1, 2, 2, 0]
    for weights in ("linear", "quadratic"):
        assert weighted_kappa(gold, proxy, weights=weights) == pytest.approx(
            _direct_kappa(gold, proxy, weights, 4), rel=1e-12)
    confusion = confusion_matrix(gold, proxy)
    assert confusion.grades == (0.0, 1.0, 2.0, 3.0) and confusion.n_documents == 10
    assert confusion.counts.tolist() == [[1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 2, 0], [0, 0, 1, 1]]
    assert weighted_kappa(gold, gold) == 1.0
    # a grade scale declared wider than what occurs changes nothing for these values
    assert weighted_kappa(gold, proxy, grades=[0, 1, 2, 3, 4]) == pytest.approx(
        _direct_kappa(gold, proxy, "linear", 4), rel=1e-12)
    with pytest.raises(ValueError, match="not in grades"):
        confusion_matrix(gold, proxy, grades=[0, 1, 2])


def test_judge_agreement_against_a_direct_query_bootstrap(rng: np.random.Generator) -> None:
    queries, gold, proxy = _judged(rng)
    result = judge_agreement(queries, gold, proxy, n_resamples=60, seed=5)
    assert result.n_queries == 40 and result.confusion.n_documents == 600
    assert result.kappa_linear.estimate == pytest.approx(
        _direct_kappa(gold.tolist(), proxy.tolist(), "linear", 4), rel=1e-12)
    assert result.kappa_quadratic.estimate == pytest.approx(
        _direct_kappa(gold.tolist(), proxy.tolist(), "quadratic", 4), rel=1e-12)
    # the same query draws, but each resample rebuilt from its documents and scored directly
    generator = block_generators(5, _AGREEMENT_STREAM, 1, np.random.SFC64)[0]
    drawn = fill_uniform_indices(generator, 40, np.empty(60 * 40, dtype=np.uint32)).reshape(60, 40)
    names = np.unique(queries)
    direct, bias_at_0 = [], []
    for row in drawn:
        picked = np.concatenate([np.flatnonzero(queries == names[q]) for q in row])
        direct.append(_direct_kappa(gold[picked].tolist(), proxy[picked].tolist(), "linear", 4))
        zero = picked[gold[picked] == 0]
        bias_at_0.append(float(np.mean(proxy[zero] - gold[zero])))
    low, high = np.quantile(direct, [0.025, 0.975])
    kappa = result.kappa_linear.interval
    assert (kappa.low, kappa.high) == pytest.approx((low, high), rel=1e-10)
    first = result.bias_by_grade[0]
    assert first.grade == 0.0 and first.n_documents == int(np.sum(gold == 0))
    assert first.mean_difference.estimate == pytest.approx(float(np.mean(proxy[gold == 0])))
    bias = first.mean_difference.interval
    assert (bias.low, bias.high) == pytest.approx(
        tuple(np.quantile(bias_at_0, [0.025, 0.975])), rel=1e-10)
    # lenient judge (+0.3 offset), clipped at the top grade: over-grades the bottom grades
    assert first.mean_difference.estimate > 0 > result.bias_by_grade[-1].mean_difference.estimate


def test_query_resampling_is_wider_than_pretending_documents_are_independent(
    rng: np.random.Generator,
) -> None:
    queries, gold, proxy = _judged(rng, n_queries=60, docs=20)
    by_query = judge_agreement(queries, gold, proxy, n_resamples=1000, seed=1).kappa_linear
    one_query_per_document = np.array([f"d{i}" for i in range(queries.size)])
    by_document = judge_agreement(one_query_per_document, gold, proxy, n_resamples=1000,
                                  seed=1).kappa_linear
    assert by_query.estimate == by_document.estimate
    # measured 1.50x here (a per-query judge offset of sd 0.7); 1.0x if documents were independent
    assert by_query.interval.width > 1.3 * by_document.interval.width


def test_degenerate_inputs() -> None:
    with pytest.raises(InsufficientSampleError):
        judge_agreement(["q1", "q1"], [1, 2], [1, 2])
    with pytest.raises(ValueError, match="aligned"):
        judge_agreement(["q1", "q2"], [1, 2], [1])
    assert np.isnan(weighted_kappa([1, 1, 1], [1, 1, 1]))
    with pytest.warns(SmallSampleWarning, match="undefined"):
        result = judge_agreement(["q1", "q2", "q3"], [0, 1, 1], [0, 1, 1], n_resamples=200)
    assert result.kappa_linear.estimate == 1.0


# --- the weight rule (issue 45) -----------------------------------------------------------

def test_kappa_weights_by_grade_values_and_by_positions_as_sklearn() -> None:
    from sklearn.metrics import cohen_kappa_score

    from ranklens.stats.agreement import weighted_kappa

    gold = [0, 1, 3, 3, 1, 0, 3, 1]  # grade 2 never occurs
    proxy = [0, 3, 3, 1, 1, 0, 3, 0]
    for weights in ("linear", "quadratic"):
        positions = weighted_kappa(gold, proxy, weights=weights, distance="positions")
        assert positions == pytest.approx(cohen_kappa_score(gold, proxy, weights=weights),
                                          abs=1e-12)
    # by values (default) a 1 graded 3 is two steps off: 6/11, against sklearn's 17/29
    assert weighted_kappa(gold, proxy) == pytest.approx(6 / 11, abs=1e-12)
    assert weighted_kappa(gold, proxy, distance="positions") == pytest.approx(17 / 29, abs=1e-12)
    # the default does not move when the scale names the grade that did not occur
    assert weighted_kappa(gold, proxy, grades=[0, 1, 2, 3]) == weighted_kappa(gold, proxy)
    assert weighted_kappa(gold, proxy, grades=[0, 1, 2, 3], distance="positions") == \
        pytest.approx(6 / 11, abs=1e-12)
    with pytest.raises(ValueError, match="distance must be one of"):
        weighted_kappa(gold, proxy, distance="ranks")
