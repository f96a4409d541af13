"""Benjamini-Hochberg, Benjamini-Yekutieli and Holm: numbers, decisions and adjust()."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

from ranklens.stats import (
    PPIComparison,
    adjust,
    adjusted_p_values,
    benjamini_hochberg,
    benjamini_yekutieli,
    compare,
    holm,
    rejected,
)
from tests.support.stats_helpers import results_from

STATSMODELS = {"bh": "fdr_bh", "by": "fdr_by", "holm": "holm"}


def test_methods_page_example() -> None:
    assert benjamini_hochberg([0.01, 0.04, 0.5]) == (0.03, 0.06, 0.5)


def test_boundary_is_not_decided_by_floating_point() -> None:
    p_values = [0.01, 0.02, 0.03, 0.04, 0.05]
    assert rejected(p_values, alpha=0.05) == (True,) * 5
    assert tuple(multipletests(p_values, alpha=0.05, method="fdr_bh")[0]) == (True,) * 5


def _check_against_statsmodels(method: str, p_values: list[float], alpha: float) -> None:
    expected_reject, expected_q, _, _ = multipletests(
        p_values, alpha=alpha, method=STATSMODELS[method]
    )
    np.testing.assert_allclose(
        adjusted_p_values(p_values, method), expected_q, rtol=1e-12, atol=1e-300
    )
    assert rejected(p_values, alpha=alpha, method=method) == tuple(bool(r) for r in expected_reject)


P_VALUES = st.lists(st.floats(0.0, 1.0), min_size=1, max_size=40)
ALPHAS = st.sampled_from([0.01, 0.05, 0.1, 0.2])


@pytest.mark.parametrize("method", ["bh", "by"])
@settings(max_examples=60, deadline=None)
@given(p_values=P_VALUES, alpha=ALPHAS)
def test_agrees_with_statsmodels(method: str, p_values: list[float], alpha: float) -> None:
    _check_against_statsmodels(method, p_values, alpha)


@settings(max_examples=15, deadline=None)  # statsmodels' holm runs gc.collect() on every call
@given(p_values=P_VALUES, alpha=ALPHAS)
def test_holm_agrees_with_statsmodels(p_values: list[float], alpha: float) -> None:
    _check_against_statsmodels("holm", p_values, alpha)


def _exact_decisions(p_values: list[Fraction], alpha: Fraction, method: str) -> tuple[bool, ...]:
    """Reference decisions in exact rational arithmetic: step-up BH or step-down Holm."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    decisions = [False] * m
    if method == "bh":
        passing = [k for k in range(1, m + 1) if p_values[order[k - 1]] <= alpha * k / m]
        for k in range(max(passing, default=0)):
            decisions[order[k]] = True
    else:
        for k, index in enumerate(order):
            if p_values[index] > alpha / (m - k):
                break
            decisions[index] = True
    return tuple(decisions)


@pytest.mark.parametrize("method", ["bh", "holm"])
@settings(max_examples=100, deadline=None)
@given(
    numerators=st.lists(st.integers(1, 20), min_size=1, max_size=20),
    alpha=st.sampled_from(["0.05", "0.1"]),
)
def test_ties_with_the_threshold_are_rejected(
    method: str, numerators: list[int], alpha: str
) -> None:
    # p-values on the grid k / m * alpha (BH) or alpha / k (Holm): every one ties with a
    # threshold in exact arithmetic, which floating point could break either way
    m = len(numerators)
    if method == "bh":
        exact = [min(Fraction(1), Fraction(k, m) * Fraction(alpha)) for k in numerators]
    else:
        exact = [Fraction(alpha) / k for k in numerators]
    expected = _exact_decisions(exact, Fraction(alpha), method)
    assert rejected([float(p) for p in exact], alpha=float(alpha), method=method) == expected


def test_q_values_keep_the_input_order_and_never_decrease_with_p() -> None:
    p_values = [0.5, 0.001, 0.04, 0.03, 0.2]
    q_values = benjamini_hochberg(p_values)
    order = np.argsort(p_values)
    assert list(np.array(q_values)[order]) == sorted(q_values)
    assert q_values[1] == pytest.approx(0.005)


def test_by_is_bh_times_the_harmonic_number_and_holm_is_step_down() -> None:
    p_values = [0.01, 0.02, 0.5]
    harmonic = 1 + 1 / 2 + 1 / 3
    np.testing.assert_allclose(
        benjamini_yekutieli(p_values), [0.03 * harmonic, 0.03 * harmonic, 0.5 * harmonic]
    )
    np.testing.assert_allclose(holm(p_values), [0.03, 0.04, 0.5])


def test_empty_and_invalid_inputs() -> None:
    assert benjamini_hochberg([]) == ()
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        benjamini_hochberg([0.2, 1.5])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        holm([float("nan")])
    with pytest.raises(ValueError, match="method"):
        adjusted_p_values([0.1], "bonferroni")


def test_adjust_fills_q_values_and_significant_uses_them(rng: np.random.Generator) -> None:
    comparisons = []
    for shift in (0.0, 0.0, 0.03):
        a = rng.uniform(0, 1, 200)
        comparisons.append(
            compare(
                *results_from(a, a + rng.normal(shift, 0.1, 200)),
                n_resamples=500,
                n_permutations=999,
            )
        )
    assert all(c.q_value is None for c in comparisons)
    adjusted = adjust(comparisons)
    assert [c.q_value for c in adjusted] == list(
        benjamini_hochberg([c.p_value for c in comparisons])
    )
    assert [c.p_value for c in adjusted] == [c.p_value for c in comparisons]
    for result in adjusted:
        assert result.q_value is not None
        assert result.significant == (result.q_value <= result.alpha)
    holm_adjusted = adjust(comparisons, method="holm")
    assert [c.q_value for c in holm_adjusted] == list(holm([c.p_value for c in comparisons]))


def _ppi(p_value: float) -> PPIComparison:
    return PPIComparison("m", 0.5, 0.52, 0.02, 0.0, 0.04, 0.05, p_value, 0.5, 1000, 100)


def test_significant_uses_q_when_set_else_p() -> None:
    lone = _ppi(0.04)
    assert lone.significant
    adjusted = adjust([_ppi(0.04), _ppi(0.01), _ppi(0.5)])
    assert [c.q_value for c in adjusted] == [0.06, 0.03, 0.5]
    assert [c.significant for c in adjusted] == [False, True, False]


def test_a_p_value_equal_to_alpha_is_significant() -> None:
    assert _ppi(0.05).significant
    assert not _ppi(0.0500001).significant
