"""The relative lift and its sign-flip interval (`ranklens.stats.lift`, issue 51): the demo's
numbers, agreement with B − A's p at no lift, coverage where the test is exact, None near 0."""

from __future__ import annotations

import numpy as np
import pytest

from ranklens import demo
from ranklens.compare.leaderboard import score_runs
from ranklens.stats import permutation_test
from ranklens.stats.lift import relative_lift


def test_the_demo_lift_and_the_p_of_b_minus_a():
    paths = demo.paths()
    scored = score_runs([paths["run_a"], paths["run_b"]], paths["qrels"], ["nDCG@10"])
    ids = sorted(set(scored[0]["nDCG@10"]) & set(scored[1]["nDCG@10"]))
    a = np.array([scored[0]["nDCG@10"][q] for q in ids])
    b = np.array([scored[1]["nDCG@10"][q] for q in ids])
    lift = relative_lift(a, b)
    assert lift is not None
    assert lift.estimate == pytest.approx(b.mean() / a.mean() - 1)
    assert round(lift.estimate, 4) == 0.0485
    assert (round(lift.low, 4), round(lift.high, 4)) == (0.0235, 0.0744)
    assert lift.p_value == permutation_test(b - a)


@pytest.mark.parametrize("n", [8, 30, 120])
def test_the_interval_excludes_no_lift_exactly_when_b_minus_a_is_rejected(n):
    rng = np.random.default_rng(n)
    for rep in range(60):
        a = rng.uniform(0.1, 0.9, n)
        b = np.clip(a * rng.choice([0.95, 1.0, 1.05]) + rng.normal(0, 0.08, n), 0, 1)
        tied = rng.random(n) < 0.3  # queries the change left alone: B - A exactly 0
        b[tied] = a[tied]
        lift = relative_lift(a, b, n_permutations=2000, seed=rep)
        p = permutation_test(b - a, n_permutations=2000, seed=rep)
        assert lift is not None and lift.p_value == pytest.approx(p)
        assert (lift.low > 0 or lift.high < 0) == (p <= 0.05), (rep, lift, p)
        assert lift.low <= lift.estimate <= lift.high


def test_coverage_where_the_test_is_exact():
    """b = r a + symmetric noise: the test of b - r a is exact, so the interval of the lift
    r - 1 covers at least 95% (400 samples of 25 queries; Monte Carlo sd .011)."""
    rng = np.random.default_rng(51)
    ratio, covered, samples = 1.08, 0, 400
    for rep in range(samples):
        a = rng.beta(2.0, 2.5, 25)
        b = ratio * a + rng.normal(0.0, 0.12, 25)
        lift = relative_lift(a, b, n_permutations=1000, seed=rep)
        assert lift is not None
        covered += lift.low <= ratio - 1 <= lift.high
    assert covered / samples >= 0.93


def test_no_lift_where_the_baseline_is_near_zero():
    assert relative_lift([0.0, 0.01, 0.0], [0.2, 0.3, 0.1]) is None
    assert relative_lift([0.5], [0.6]) is None
