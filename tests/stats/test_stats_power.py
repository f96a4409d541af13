"""MDE, required queries and power: the methods page's numbers and the t-based variant."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.power import TTestPower

from ranklens.stats import (
    MIN_POWER_QUERIES,
    mde,
    minimum_detectable_effect,
    power,
    required_queries,
    standard_deviation,
)


def test_methods_page_numbers() -> None:
    assert f"{mde(sd=0.1, n_queries=200):.4f}" == "0.0198"
    assert [required_queries(delta, sd=0.1) for delta in (0.02, 0.01, 0.005)] == [197, 785, 3140]
    assert mde is minimum_detectable_effect


def test_z_power_at_the_mde_is_the_target_power() -> None:
    # the closed form ignores the far tail, which adds about 1e-8 here
    effect = mde(sd=0.1, n_queries=200)
    assert power(effect, 0.1, 200) == pytest.approx(0.8, abs=1e-6)
    assert power(0.0, 0.1, 200) == pytest.approx(0.05)


@pytest.mark.parametrize("n_queries", [2, 5, 20, 50, 200, 3000])
def test_t_power_matches_the_noncentral_t(n_queries: int) -> None:
    critical = stats.t.ppf(0.975, n_queries - 1)
    for delta in (0.0, 0.005, 0.02, 0.06):
        ncp = delta / 0.1 * np.sqrt(n_queries)
        expected = stats.nct.sf(critical, n_queries - 1, ncp) + stats.nct.cdf(
            -critical, n_queries - 1, ncp
        )
        if np.isnan(expected):  # scipy's nct gives NaN this far out (noncentrality ~33)
            assert power(delta, 0.1, n_queries, method="t") > 1 - 1e-12
            continue
        assert power(delta, 0.1, n_queries, method="t") == pytest.approx(expected, abs=1e-7)
        if n_queries <= 200:  # statsmodels returns NaN for the largest noncentrality
            by_statsmodels = TTestPower().power(effect_size=delta / 0.1, nobs=n_queries, alpha=0.05)
            assert power(delta, 0.1, n_queries, method="t") == pytest.approx(
                by_statsmodels, abs=1e-7
            )


@pytest.mark.parametrize("n_queries", [3, 10, 25, 200])
def test_t_mde_reaches_the_target_power_exactly(n_queries: int) -> None:
    effect = mde(sd=0.1, n_queries=n_queries, method="t")
    assert power(effect, 0.1, n_queries, method="t") == pytest.approx(0.8, abs=1e-9)
    # the t-test needs a larger effect than the z formula
    assert effect > mde(sd=0.1, n_queries=n_queries, method="z")


def test_t_required_queries_is_the_smallest_sufficient_n() -> None:
    for delta in (0.02, 0.05, 0.1):
        n = required_queries(delta, sd=0.1, method="t")
        assert power(delta, 0.1, n, method="t") >= 0.8
        assert n == 2 or power(delta, 0.1, n - 1, method="t") < 0.8
        assert n >= required_queries(delta, sd=0.1)
    solved = TTestPower().solve_power(effect_size=0.2, alpha=0.05, power=0.8)
    assert required_queries(0.02, sd=0.1, method="t") == int(np.ceil(solved))


def test_power_rises_with_delta_and_n() -> None:
    by_delta = [power(d, 0.1, 100, method="t") for d in np.linspace(0, 0.05, 11)]
    by_n = [power(0.01, 0.1, n) for n in (10, 100, 1000, 10_000)]
    assert by_delta == sorted(by_delta) and by_n == sorted(by_n)


def test_zero_spread_and_floor_of_two_queries() -> None:
    assert required_queries(0.01, sd=0.0) == 2
    assert power(0.01, 0.0, 10) == 1.0
    assert mde(sd=0.0, n_queries=10, method="t") == 0.0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: mde(sd=-1, n_queries=10), "sd"),
        (lambda: mde(sd=0.1, n_queries=0), "n_queries"),
        (lambda: mde(sd=0.1, n_queries=10, power=1.0), "power"),
        (lambda: mde(sd=0.1, n_queries=10, method="exact"), "method"),
        (lambda: required_queries(0.0, sd=0.1), "delta"),
        (lambda: required_queries(0.01, sd=0.1, alpha=0.0), "alpha"),
        (lambda: power(0.01, 0.1, 1), "n_queries"),
        (lambda: standard_deviation([0.1]), "two differences"),
    ],
)
def test_invalid_arguments(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=message):
        call()


def test_mde_and_power_accept_the_same_smallest_number_of_queries() -> None:
    # issue 15: mde(sd, 1) returned 0.28 while power(..., n=1) raised
    assert MIN_POWER_QUERIES == 2
    for method in ("z", "t"):
        with pytest.raises(ValueError, match="n_queries must be >= 2, got 1"):
            mde(sd=0.1, n_queries=1, method=method)
        with pytest.raises(ValueError, match="n_queries must be >= 2, got 1"):
            power(0.01, 0.1, 1, method=method)
        assert mde(sd=0.1, n_queries=2, method=method) > 0
        assert 0 < power(0.01, 0.1, 2, method=method) < 1
    assert required_queries(10.0, sd=0.1) == MIN_POWER_QUERIES


def test_standard_deviation_is_the_sample_sd() -> None:
    assert standard_deviation([0.1, 0.3, 0.2]) == pytest.approx(0.1)


# --- method="auto", the default since 0.3 (issue 45) ---------------------------------------

def test_auto_gives_t_where_z_would_overpromise_and_z_where_they_agree() -> None:
    from ranklens.stats.power import AUTO_TOLERANCE, power

    # at 10 queries the z MDE has 70% real power under the t-test: auto answers with t
    z10 = minimum_detectable_effect(0.1, 10, method="z")
    assert power(z10, 0.1, 10, method="t") == pytest.approx(0.7038, abs=1e-4)
    assert minimum_detectable_effect(0.1, 10) == minimum_detectable_effect(0.1, 10, method="t")
    assert minimum_detectable_effect(0.1, 6) == pytest.approx(0.14345, abs=1e-5)  # z: 0.11437
    # from about 80 queries z's real power is within one point: the methods page's numbers
    for n in (78, 200, 1000):  # z's real power .7900 at 78, .7899 at 77
        assert minimum_detectable_effect(0.1, n) == minimum_detectable_effect(0.1, n, method="z")
    assert minimum_detectable_effect(0.1, 77) == minimum_detectable_effect(0.1, 77, method="t")
    assert round(minimum_detectable_effect(0.1, 200), 4) == 0.0198
    assert [required_queries(d, 0.1) for d in (0.02, 0.01, 0.005)] == [197, 785, 3140]
    assert required_queries(0.1, 0.1) == 10 and required_queries(0.1, 0.1, method="z") == 8
    # wherever auto keeps z, the t power of its answer is within the tolerance
    for n in range(2, 400, 7):
        mde = minimum_detectable_effect(0.1, n)
        assert power(mde, 0.1, n, method="t") >= 0.8 - AUTO_TOLERANCE - 1e-9
    assert power(z10, 0.1, 10) == power(z10, 0.1, 10, method="t")
    assert power(0.02, 0.1, 200) == power(0.02, 0.1, 200, method="z")


def test_auto_rule_moves_to_z_at_78_queries_and_stays() -> None:
    from ranklens.stats.power import auto_method, z_kept_from

    assert z_kept_from() == 78
    assert [auto_method(n) for n in (2, 10, 77, 78, 79, 200)] == ["t", "t", "t", "z", "z", "z"]
    assert all(auto_method(n) == "z" for n in range(78, 2000, 13))
    # the rule is in sd units: the auto MDE is the t one below 78 at any spread
    for sd in (0.05, 0.3):
        assert minimum_detectable_effect(sd, 77) == minimum_detectable_effect(sd, 77, method="t")
        assert minimum_detectable_effect(sd, 78) == minimum_detectable_effect(sd, 78, method="z")
    # stricter alpha and higher power keep t longer
    assert z_kept_from(alpha=0.01, power=0.9) == 118


def test_t_queries_needed_search_equals_counting_one_by_one() -> None:
    from ranklens.stats.power import _power_t

    for delta, sd in ((0.2, 0.3), (0.05, 0.1), (0.5, 0.4), (0.01, 0.1)):
        n = 2
        while _power_t(delta, sd, n, 0.05) < 0.8:
            n += 1
        assert required_queries(delta, sd, method="t") == n


def test_power_against_no_spread_to_speak_of_is_one() -> None:
    # a difference of 0.02 against an sd of float noise: scipy's noncentral t gives NaN there
    # (noncentrality ~ 1e15), which read as power 0 and sent the t search counting to millions
    assert power(0.02, 1e-17, 3, method="t") == 1.0
    assert required_queries(0.02, 1e-17) == 2
    assert power(0.02, 1e-17, 3, method="t") == power(0.02, 1e-17, 3, method="z")
