"""paired_deltas: which queries are compared, and refusing values that cannot be compared."""

from __future__ import annotations

import math
import pickle
import warnings

import numpy as np
import pytest

from ranklens.data import MetricResult
from ranklens.stats import (
    InsufficientSampleError,
    SmallSampleWarning,
    compare,
    paired_bootstrap,
    paired_deltas,
    permutation_test,
)


def _runs(n: int = 30) -> tuple[dict[str, float], dict[str, float]]:
    a = {f"q{i:02d}": i / 100 for i in range(n)}
    b = {f"q{i:02d}": i / 100 + 0.01 * (i % 3) for i in range(n)}
    return a, b


def test_deltas_are_b_minus_a_on_sorted_common_queries() -> None:
    a = {"q2": 0.5, "q1": 0.2, "q3": 0.1}
    b = {"q3": 0.4, "q2": 0.5, "q1": 0.0}
    with pytest.warns(SmallSampleWarning):
        queries, deltas = paired_deltas(a, b)
    assert queries == ("q1", "q2", "q3")
    np.testing.assert_allclose(deltas, [-0.2, 0.0, 0.3])


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_values_are_rejected_naming_the_queries(bad: float) -> None:
    # seed: a NaN delta compared False in every flip, giving p ~ 1e-4 next to a NaN interval
    a, b = _runs()
    b["q07"] = bad
    b["q11"] = bad
    with pytest.raises(ValueError, match=r"run B .* 2 queries: 'q07'=.*'q11'="):
        paired_deltas(a, b)
    with pytest.raises(ValueError, match="'q07'"):
        compare(MetricResult("m", a), MetricResult("m", b))


def test_non_finite_in_run_a_is_named_as_run_a() -> None:
    a, b = _runs()
    a["q03"] = math.nan
    with pytest.raises(ValueError, match=r"run A .*'q03'=nan"):
        paired_deltas(a, b)


@pytest.mark.parametrize("function", [paired_bootstrap, permutation_test])
def test_non_finite_deltas_are_rejected_by_the_array_functions(function) -> None:  # type: ignore[no-untyped-def]
    deltas = np.linspace(-0.1, 0.3, 40)
    deltas[[4, 9]] = [np.nan, np.inf]
    with pytest.raises(ValueError, match=r"positions \[4, 9\]"):
        function(deltas)


def test_drop_warns_with_counts_and_ids_of_each_side() -> None:
    a, b = _runs()
    a["only_a1"] = a["only_a2"] = 0.3
    b["only_b"] = 0.9
    with pytest.warns(
        UserWarning,
        match=r"2 queries only in run A \('only_a1', 'only_a2'\) "
        r"and 1 only in run B \('only_b'\)",
    ):
        queries, _ = paired_deltas(a, b)
    assert len(queries) == 30 and "only_b" not in queries


def test_drop_shows_only_a_few_ids() -> None:
    a, b = _runs()
    for i in range(10):
        a[f"x{i}"] = 0.1
    with pytest.warns(UserWarning, match=r"10 queries only in run A \('x0', 'x1', 'x2', \.\.\.\)"):
        paired_deltas(a, b)


def test_no_warning_when_every_query_is_paired() -> None:
    a, b = _runs()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paired_deltas(a, b)


def test_zero_scores_a_missing_query_zero_like_trec_eval_c() -> None:
    a, b = _runs()
    a["lost"] = 0.4  # B returned nothing for this query: it scores 0 there
    b["new"] = 0.7
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        queries, deltas = paired_deltas(a, b, missing="zero")
    by_query = dict(zip(queries, deltas, strict=True))
    assert len(queries) == 32
    assert by_query["lost"] == pytest.approx(-0.4)
    assert by_query["new"] == pytest.approx(0.7)


def test_error_refuses_unpaired_queries() -> None:
    a, b = _runs()
    b["extra"] = 0.1
    with pytest.raises(ValueError, match=r"0 queries only in run A \(none\) and 1 only in run B"):
        paired_deltas(a, b, missing="error")


def test_unknown_missing_policy_is_an_error() -> None:
    a, b = _runs()
    with pytest.raises(ValueError, match="missing must be one of"):
        paired_deltas(a, b, missing="ignore")


def test_no_common_query_is_insufficient_sample() -> None:
    with pytest.warns(UserWarning), pytest.raises(InsufficientSampleError) as raised:
        paired_deltas({"a": 1.0}, {"b": 1.0})
    assert raised.value.n == 0
    assert "0 paired queries" in str(raised.value)
    # a paired comparison needs 2 queries, not 1 (issue 15)
    assert raised.value.needed == 2 and "at least 2 are needed" in str(raised.value)


def test_small_sample_warning_below_min_queries_only() -> None:
    a, b = _runs(19)
    with pytest.warns(SmallSampleWarning, match="19 paired queries"):
        paired_deltas(a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paired_deltas(a, b, min_queries=19)


def test_insufficient_sample_error_is_a_value_error_and_pickles() -> None:
    error = InsufficientSampleError(1, 2, unit="gold queries")
    assert isinstance(error, ValueError)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.n, copy.needed, copy.unit) == (1, 2, "gold queries")
    assert str(copy) == str(error)
