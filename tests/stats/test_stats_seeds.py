"""Several training seeds per system: compare_seeds, the random-effects interval, planning."""

from __future__ import annotations

import math
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as scipy_stats

from ranklens.data import MetricResult
from ranklens.stats import (
    compare,
    compare_seeds,
    holm,
    new_run_estimate,
    new_run_family,
    new_run_mde,
    new_run_variance,
    paired_t_test,
    seeds_needed,
    variance_components,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from validity import seed_validity

IDS = [f"q{i:02d}" for i in range(30)]


def _runs(matrix: np.ndarray, name: str, ids: list[str] = IDS) -> list[MetricResult]:
    return [MetricResult.from_arrays("nDCG@10", ids, matrix[:, k], run=f"{name}{k + 1}")
            for k in range(matrix.shape[1])]


def _direct(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    """The random-effects estimate written out with loops over queries and seeds."""
    n = a.shape[0]
    variance_of_mean, df_denominator, ms_over_k = 0.0, 0.0, []
    for y in (a, b):
        k = y.shape[1]
        grand = sum(y[i, j] for i in range(n) for j in range(k)) / (n * k)
        row = [sum(y[i, :]) / k for i in range(n)]
        col = [sum(y[:, j]) / n for j in range(k)]
        ss_res = sum((y[i, j] - row[i] - col[j] + grand) ** 2 for i in range(n) for j in range(k))
        ms_res = ss_res / ((n - 1) * (k - 1))
        seed_term = sum((c - grand) ** 2 for c in col) / (k - 1) / k
        variance_of_mean += seed_term
        df_denominator += seed_term**2 / (k - 1)
        ms_over_k.append((ms_res / k, (n - 1) * (k - 1)))
    d = [sum(b[i, :]) / b.shape[1] - sum(a[i, :]) / a.shape[1] for i in range(n)]
    mean_d = sum(d) / n
    s2d = sum((x - mean_d) ** 2 for x in d) / (n - 1)
    query_raw = s2d - sum(m for m, _ in ms_over_k)
    query_part = max(query_raw, 0.0) / n
    query_den = (s2d**2 / (n - 1) + sum(m**2 / f for m, f in ms_over_k))
    variance = query_part + variance_of_mean
    df = variance**2 / ((query_den / n**2 if query_part > 0 else 0.0) + df_denominator)
    se = math.sqrt(variance)
    half = scipy_stats.t.ppf(0.975, df) * se
    return {"estimate": mean_d, "se": se, "df": df, "low": mean_d - half, "high": mean_d + half,
            "p": 2 * scipy_stats.t.sf(abs(mean_d) / se, df), "query_part": query_part,
            "seed_part": variance_of_mean, "s2d": s2d, "ms_over_k": ms_over_k,
            "seed_terms": [float(np.var(y.mean(axis=0), ddof=1)) for y in (a, b)]}


def _direct_pivots(a: np.ndarray, b: np.ndarray, draws: int = 400_000) -> dict[str, float]:
    """The generalized pivotal interval by brute force: R = D - Z sqrt(V*) drawn whole (Z too),
    its 2.5% and 97.5% quantiles, and p = 2 min(P(R <= 0), P(R >= 0))."""
    direct = _direct(a, b)
    n = a.shape[0]
    rng = np.random.default_rng(2024)
    query = direct["s2d"] * (n - 1) / rng.chisquare(n - 1, draws)
    seed = np.zeros(draws)
    for (m_over_k, res_df), col_var, y in zip(direct["ms_over_k"], direct["seed_terms"], (a, b),
                                              strict=True):
        k = y.shape[1]
        query -= m_over_k * res_df / rng.chisquare(res_df, draws)
        seed += col_var * (k - 1) / rng.chisquare(k - 1, draws) / k
    r = direct["estimate"] - rng.standard_normal(draws) * np.sqrt(
        np.maximum(query, 0.0) / n + seed)
    low, high = np.quantile(r, [0.025, 0.975])
    return {"low": float(low), "high": float(high),
            "p": float(2 * min(np.mean(r <= 0), np.mean(r >= 0)))}


@pytest.fixture
def seeded(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    query = rng.normal(0.5, 0.2, (30, 1))
    a = query + rng.normal(0, 0.07, (30, 1)) + rng.normal(0, 0.01, (1, 3)) + rng.normal(
        0, 0.05, (30, 3))
    b = query + 0.02 + rng.normal(0, 0.07, (30, 1)) + rng.normal(0, 0.01, (1, 4)) + rng.normal(
        0, 0.05, (30, 4))
    return a, b


def test_new_run_against_a_direct_computation(seeded: tuple[np.ndarray, np.ndarray]) -> None:
    a, b = seeded
    direct = _direct(a, b)
    result = new_run_estimate(a, b)
    assert result.estimate == pytest.approx(direct["estimate"], rel=1e-12)
    assert result.standard_error == pytest.approx(direct["se"], rel=1e-10)
    # the interval and p (0.3, issue 45): the generalized pivots, against R drawn whole; the
    # library's 4,000 draws of V* against 400,000 of R: within 2% of the half-width
    pivots = _direct_pivots(a, b)
    half = (pivots["high"] - pivots["low"]) / 2
    assert result.low == pytest.approx(pivots["low"], abs=0.02 * half)
    assert result.high == pytest.approx(pivots["high"], abs=0.02 * half)
    assert result.p_value == pytest.approx(pivots["p"], abs=0.01)
    # wider than Satterthwaite's t here: 3 and 4 seeds carry the seed part's 2 and 3 df
    assert result.high - result.low > direct["high"] - direct["low"]
    # df: the effective one, whose t quantile gives the half-width
    assert scipy_stats.t.ppf(0.975, result.df) * result.standard_error == pytest.approx(
        (result.high - result.low) / 2, rel=1e-9)
    assert (result.low > 0 or result.high < 0) == (result.p_value <= 0.05)
    assert new_run_estimate(a, b) == result  # one seed, one answer
    assert result.interval.level == 0.95
    assert result.interval.method == "random-effects, generalized pivots"
    components = variance_components(a, b)
    assert components.query_part == pytest.approx(direct["query_part"], rel=1e-10)
    assert components.seed_part == pytest.approx(direct["seed_part"], rel=1e-10)
    # per-system components: query x seed is MS_res; the three add up to the spread of one run
    assert components.b.query_seed == pytest.approx(
        np.var(b - b.mean(1, keepdims=True) - b.mean(0) + b.mean(), ddof=0) * 30 * 4 / (29 * 3))
    assert components.a.n_seeds == 3 and components.b.n_seeds == 4


def test_compare_seeds_gives_both_answers(seeded: tuple[np.ndarray, np.ndarray]) -> None:
    a, b = seeded
    result = compare_seeds(_runs(a, "a"), _runs(b, "b"), n_resamples=2000, n_permutations=2000)
    means = [MetricResult.from_arrays("nDCG@10", IDS, m.mean(axis=1)) for m in (a, b)]
    assert result.these_runs == compare(*means, n_resamples=2000, n_permutations=2000)
    assert result.new_run == new_run_estimate(a, b)
    assert result.components == variance_components(a, b)
    assert [c.delta for c in result.per_seed] == pytest.approx(
        [float(np.mean(b[:, k] - a.mean(axis=1))) for k in range(4)], rel=1e-12)
    assert len({c.interval.low for c in result.per_seed}) == 4  # own random streams
    assert (result.n_seeds_a, result.n_seeds_b, result.dropped, result.notes) == (3, 4, (), ())
    # the new-run interval is wider: it counts the seeds too
    assert result.new_run is not None
    assert result.new_run.high - result.new_run.low > (
        result.these_runs.t_test.high - result.these_runs.t_test.low)


def test_identical_seeds_give_the_paired_t_interval(rng: np.random.Generator) -> None:
    base = rng.normal(0.5, 0.2, (30, 1))
    a = np.repeat(base, 3, axis=1)
    b = np.repeat(base + 0.03 + rng.normal(0, 0.08, (30, 1)), 3, axis=1)
    result = new_run_estimate(a, b)
    paired = paired_t_test(b[:, 0] - a[:, 0])
    # no seed or query x seed spread: the pivot is exactly Student's t with n - 1 df, up to
    # the Monte Carlo error of 4,000 draws of V*
    half = (paired.high - paired.low) / 2
    assert result.df == pytest.approx(29, rel=0.15)
    assert result.low == pytest.approx(paired.low, abs=0.01 * half)
    assert result.high == pytest.approx(paired.high, abs=0.01 * half)
    assert result.p_value == pytest.approx(paired.p_value, abs=0.005)


def test_one_run_per_system_says_the_seed_variance_cannot_be_measured(
    seeded: tuple[np.ndarray, np.ndarray],
) -> None:
    a, b = seeded
    result = compare_seeds(_runs(a[:, :1], "a"), _runs(b[:, :1], "b"), n_resamples=500,
                           n_permutations=500)
    assert result.new_run is None and not result.answers_disagree
    assert "seed variance cannot be measured" in result.notes[0]
    assert result.components.seed is None and result.components.a.query_seed is None


def test_a_deterministic_baseline_adds_no_seed_part(seeded: tuple[np.ndarray, np.ndarray]) -> None:
    a, b = seeded
    result = compare_seeds(_runs(a[:, :1], "bm25"), _runs(b, "n"), n_resamples=500,
                           n_permutations=500)
    assert result.new_run is not None
    assert "A has one run: it is taken as deterministic" in result.notes[0]
    col_var = float(np.var(b.mean(axis=0), ddof=1))
    assert result.components.seed_part == pytest.approx(col_var / 4, rel=1e-12)
    assert result.components.a.seed is None and result.components.b.seed is not None


def test_queries_missing_from_a_seed_are_dropped_and_named(
    seeded: tuple[np.ndarray, np.ndarray],
) -> None:
    a, b = seeded
    runs_b = _runs(b, "n")
    keep = np.ones(30, dtype=bool)
    keep[[3, 7]] = False
    runs_b[1] = runs_b[1].restrict(keep)
    with pytest.warns(UserWarning, match="dropped 2 queries not scored by every run"):
        result = compare_seeds(_runs(a, "a"), runs_b, n_resamples=500, n_permutations=500)
    assert [(d.query, d.missing_from) for d in result.dropped] == [
        ("q03", ("n2",)), ("q07", ("n2",))]
    assert result.dropped[0].reason == "not scored by n2"
    assert result.these_runs.n_queries == 28
    assert result.new_run == new_run_estimate(a[keep], b[keep])
    assert "2 queries were left out" in result.notes[-1]


def test_bad_inputs_are_refused(seeded: tuple[np.ndarray, np.ndarray]) -> None:
    a, b = seeded
    with pytest.raises(ValueError, match="at least one run"):
        compare_seeds([], _runs(b, "b"))
    other = [MetricResult.from_arrays("MAP", IDS, a[:, 0])]
    with pytest.raises(ValueError, match="one metric"):
        compare_seeds(other, _runs(b, "b"))


def test_planning_from_components(seeded: tuple[np.ndarray, np.ndarray]) -> None:
    a, b = seeded
    components = variance_components(a, b)
    seeds = [s for s in (components.a, components.b) if s.seed is not None]
    direct = components.difference / 200 + sum(
        (s.seed + s.query_seed / 200) / 5 for s in seeds)  # type: ignore[operator]
    assert new_run_variance(components, 5, 200) == pytest.approx(direct, rel=1e-12)
    mde = new_run_mde(components, 5, 200)
    assert mde == pytest.approx((1.959963984540054 + 0.8416212335729143) * math.sqrt(direct),
                                rel=1e-9)
    assert new_run_mde(components, 3, 200, method="t") > new_run_mde(components, 3, 200)
    target = new_run_mde(components, 6, 200) * 1.0001
    assert seeds_needed(components, target, 200) == 6
    assert new_run_mde(components, 5, 200) > target
    floor = (1.959963984540054 + 0.8416212335729143) * math.sqrt(components.difference / 200)
    with pytest.raises(ValueError, match="no number of seeds"):
        seeds_needed(components, floor * 0.99, 200)
    with pytest.raises(ValueError, match="n_seeds must be >= 2"):
        new_run_mde(components, 1, 200)


def test_components_of_a_pure_seed_shift() -> None:
    components = variance_components(np.zeros((5, 2)) + np.arange(2), np.zeros((5, 2)))
    assert components.a.seed == pytest.approx(0.5)  # run means 0 and 1: variance 0.5
    assert components.a.query_seed == 0.0 and components.b.seed == 0.0
    assert components.seed_part == pytest.approx(0.25)  # 0.5 / 2 seeds


@pytest.mark.slow
@pytest.mark.parametrize(("layout", "ratio"), [
    ("one-run baseline", 0.5), ("one-run baseline", 2.0), ("stable baseline", 2.0),
    ("equal", 0.5), ("equal", 0.0)])
def test_new_run_interval_holds_its_level_when_one_system_carries_the_seeds(
        layout: str, ratio: float) -> None:
    # issue 45: a one-run BM25 baseline against 3 seeds, Satterthwaite's t covered .92; the
    # generalized pivots hold .94 (600 samples, Monte Carlo error +-.009; docs/validity.md has
    # the full grid at 2,000)
    row = seed_validity(600, 3, 50, ratio, layout=layout)
    assert row["coverage"] >= 0.94 and row["type_i"] <= 0.06
    if ratio == 0.0:
        # the price: 3 seeds cannot rule out a seed variance they did not see; measured 1.39
        assert row["width"] / row["paired_width"] < 1.5
    else:
        assert row["paired_coverage"] < 0.94  # these runs' interval does not hold


def test_warnings_of_compare_reach_the_caller_once(seeded: tuple[np.ndarray, np.ndarray]) -> None:
    a, b = seeded
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compare_seeds(_runs(a[:10], "a", IDS[:10]), _runs(b[:10], "b", IDS[:10]),
                      n_resamples=200, n_permutations=200)
    assert sum("10 paired queries" in str(w.message) for w in caught) == 1


def test_several_seeded_candidates_get_holm_adjusted_new_run_p_values(
    seeded: tuple[np.ndarray, np.ndarray], rng: np.random.Generator,
) -> None:
    a, b = seeded
    other = b + rng.normal(0.0, 0.03, b.shape)
    options = {"n_resamples": 300, "n_permutations": 300}
    family = [compare_seeds(_runs(a, "a"), _runs(b, "b"), **options),
              compare_seeds(_runs(a[:, :1], "a"), _runs(b[:, :1], "b"), **options),
              compare_seeds(_runs(a, "a"), _runs(other, "c"), **options)]
    adjusted = new_run_family(family)
    expected = holm([family[0].new_run.p_value, family[2].new_run.p_value])  # type: ignore[union-attr]
    assert adjusted == (expected[0], None, expected[1])
