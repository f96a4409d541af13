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
from validity import SEED_COUNTS, SEED_QUERIES, SEED_RATIOS, seed_validity

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
            "seed_part": variance_of_mean}


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
    assert result.df == pytest.approx(direct["df"], rel=1e-10)
    assert (result.low, result.high) == pytest.approx((direct["low"], direct["high"]), rel=1e-9)
    assert result.p_value == pytest.approx(direct["p"], rel=1e-8)
    assert result.interval.level == 0.95
    assert result.interval.method.startswith("random-effects t")
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
    assert result.df == pytest.approx(29, rel=1e-12)
    assert (result.low, result.high) == pytest.approx((paired.low, paired.high), rel=1e-12)
    assert result.p_value == pytest.approx(paired.p_value, rel=1e-9)


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
def test_new_run_interval_holds_its_level_on_the_issue_grid() -> None:
    worst_coverage, worst_type_i = 1.0, 0.0
    for scale in ("mean", "query"):
        for k in SEED_COUNTS:
            for n in SEED_QUERIES:
                for ratio in SEED_RATIOS:
                    row = seed_validity(2000, k, n, ratio, scale=scale)
                    worst_coverage = min(worst_coverage, row["coverage"])
                    worst_type_i = max(worst_type_i, row["type_i"])
                    if ratio == 0.0:
                        # agrees with the paired interval to Monte Carlo error (+-.005 each)
                        assert abs(row["coverage"] - row["paired_coverage"]) <= 0.01
                        assert row["width"] / row["paired_width"] < 1.03
                    else:
                        assert row["paired_coverage"] < 0.94  # these runs' interval does not
    assert worst_coverage >= 0.94
    assert worst_type_i <= 0.06


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
