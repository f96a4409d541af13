"""ranklens.ppi.analysis: four intervals that are ppi_compare's, the bias, the budget planner."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from ranklens.compare.analysis import demo_files
from ranklens.data import MetricResult
from ranklens.ppi.analysis import (
    RANDOM_SAMPLE_ASSUMPTION,
    PPIAnalysis,
    analyse_ppi,
    budget_curve,
    compare_ppi,
    proxy_bias,
    variance_model,
)
from ranklens.ppi.text import render_ppi
from ranklens.stats import MIN_GOLD, paired_t_test, ppi_compare
from ranklens.stats.distributions import t_quantile


@pytest.fixture(scope="module")
def demo() -> PPIAnalysis:
    files = demo_files()
    return analyse_ppi(files["run_a"], files["run_b"], files["qrels_proxy"],
                       files["qrels_gold"], "nDCG@10")


def synthetic(n_all: int, n_gold: int, *, rho: float = 0.8, bias: float = 0.01,
              seed: int = 7) -> tuple[MetricResult, ...]:
    """Proxy results on ``n_all`` queries, gold on a random ``n_gold`` of them."""
    rng = np.random.default_rng(seed)
    queries = [f"q{i:04d}" for i in range(n_all)]
    base = rng.uniform(0.2, 0.8, n_all)
    gold_delta = rng.normal(0.02, 0.1, n_all)
    proxy_delta = bias + rho * gold_delta + math.sqrt(1 - rho**2) * rng.normal(0, 0.1, n_all)
    gold_ids = set(rng.choice(n_all, n_gold, replace=False).tolist())
    proxy_a = MetricResult("m", dict(zip(queries, base, strict=True)))
    proxy_b = MetricResult("m", dict(zip(queries, base + proxy_delta, strict=True)))
    gold_a = MetricResult("m", {queries[i]: base[i] for i in gold_ids})
    gold_b = MetricResult("m", {queries[i]: base[i] + gold_delta[i] for i in gold_ids})
    return proxy_a, proxy_b, gold_a, gold_b


def test_four_estimates_are_ppi_compare_at_lambda_none_0_1(demo: PPIAnalysis) -> None:
    proxy_a, proxy_b, gold_a, gold_b = synthetic(400, 80)
    analysis = compare_ppi(proxy_a, proxy_b, gold_a, gold_b)
    assert [e.key for e in analysis.estimates] == ["ppi++", "ppi", "gold", "proxy"]
    for key, lam in (("ppi++", None), ("ppi", 1.0), ("gold", 0.0)):
        assert analysis.estimate(key).result == ppi_compare(proxy_a, proxy_b, gold_a, gold_b,
                                                            lam=lam)
    assert analysis.estimate("gold").result.lam == 0.0
    assert analysis.estimate("ppi").result.lam == 1.0
    assert 0.0 < analysis.estimate("ppi++").result.lam < 1.0


def test_uncorrected_proxy_is_a_t_interval_over_all_queries(demo: PPIAnalysis) -> None:
    proxy_a, proxy_b, gold_a, gold_b = synthetic(300, 60)
    proxy = compare_ppi(proxy_a, proxy_b, gold_a, gold_b).estimate("proxy").result
    deltas = np.array([proxy_b.per_query[q] - proxy_a.per_query[q]
                       for q in sorted(proxy_a.per_query)])
    test = paired_t_test(deltas)
    assert (proxy.delta, proxy.ci_low, proxy.ci_high) == pytest.approx(
        (test.delta, test.low, test.high))
    assert proxy.n_proxy == 300 and proxy.n_gold == 0


def test_demo_numbers(demo: PPIAnalysis) -> None:
    best = demo.estimate("ppi++").result
    assert (best.n_gold, best.n_proxy) == (60, 340)
    assert demo.metric == "nDCG@10"
    assert demo.run_names == ("bm25_baseline", "neural_reranker")
    assert RANDOM_SAMPLE_ASSUMPTION in demo.warnings


def test_bias_is_mean_proxy_minus_mean_gold_on_gold_queries() -> None:
    proxy_a, proxy_b, gold_a, gold_b = synthetic(500, 100, bias=0.03)
    bias = proxy_bias(proxy_a, proxy_b, gold_a, gold_b)
    gold_ids = sorted(gold_a.per_query)
    proxy = np.array([proxy_b.per_query[q] - proxy_a.per_query[q] for q in gold_ids])
    gold = np.array([gold_b.per_query[q] - gold_a.per_query[q] for q in gold_ids])
    assert bias.bias == pytest.approx(float(proxy.mean() - gold.mean()))
    assert bias.low < bias.bias < bias.high
    assert bias.n_gold == 100
    assert bias.low > 0  # a bias of 0.03 on 100 queries with these spreads is visible


def test_fewer_than_min_gold_is_a_warning_in_words() -> None:
    analysis = compare_ppi(*synthetic(200, MIN_GOLD - 10))
    assert any(f"{MIN_GOLD - 10} gold queries" in message and "too noisy" in message
               for message in analysis.warnings)


def test_gold_queries_without_proxy_measurement_are_the_library_error() -> None:
    proxy_a, proxy_b, gold_a, gold_b = synthetic(200, 40)
    lone = next(iter(gold_a.per_query))
    proxy_a = MetricResult("m", {q: v for q, v in proxy_a.per_query.items() if q != lone})
    with pytest.raises(ValueError, match="gold queries have no proxy measurement"):
        compare_ppi(proxy_a, proxy_b, gold_a, gold_b)
    with pytest.raises(ValueError, match="gold queries have no proxy measurement"):
        variance_model(proxy_a, proxy_b, gold_a, gold_b)


def test_budget_width_equals_the_realised_width_now(demo: PPIAnalysis) -> None:
    model = demo.model
    assert model is not None
    best = demo.estimate("ppi++").result
    gold = demo.estimate("gold").result
    now = model.width(model.n_gold, model.n_proxy_only)
    assert now == pytest.approx(best.ci_high - best.ci_low, rel=1e-12)
    assert model.width(model.n_gold, model.n_proxy_only, lam=0.0) == pytest.approx(
        gold.ci_high - gold.ci_low, rel=1e-12)
    curve = budget_curve(model)
    row = curve[curve["n_gold"] == model.n_gold]
    assert float(row["ppi"].iloc[0]) == pytest.approx(best.ci_high - best.ci_low, rel=1e-12)


@pytest.mark.parametrize(("rho", "n_gold", "seed"),
                         [(0.0, 60, 3), (0.5, 60, 3), (0.9, 60, 3), (0.99, 60, 3),
                          (0.9, 12, 5), (0.7, 12, 8), (0.95, 8, 2)])
def test_budget_width_decreases_with_more_gold(rho: float, n_gold: int, seed: int) -> None:
    proxy_a, proxy_b, gold_a, gold_b = synthetic(600, n_gold, rho=rho, seed=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = variance_model(proxy_a, proxy_b, gold_a, gold_b)
    curve = budget_curve(model)
    assert (np.diff(curve["n_gold"]) > 0).all()
    assert (np.diff(curve["ppi"]) < 0).all()
    assert (np.diff(curve["gold_only"]) < 0).all()
    assert (curve["ppi"] <= curve["gold_only"] + 1e-12).all()  # PPI++ can fall back to gold


def test_budget_curve_uses_the_methods_page_variance() -> None:
    proxy_a, proxy_b, gold_a, gold_b = synthetic(1000, 100, rho=0.7)
    model = variance_model(proxy_a, proxy_b, gold_a, gold_b)
    n, big_n = 250, 750
    sigma_g2, sigma_p2, c = model.var_gold, model.var_proxy, model.covariance
    lam = min(1.0, max(0.0, c / ((1 + n / big_n) * sigma_p2)))
    expected = lam**2 * sigma_p2 / big_n + (sigma_g2 - 2 * lam * c + lam**2 * sigma_p2) / n
    assert model.variance(n, big_n) == pytest.approx(expected)
    # the quantile of ppi_compare's finite-sample interval: t with n - 1 df for a fixed weight
    t = t_quantile(0.975, n - 1)
    assert model.width(n, big_n, lam=0.0) == pytest.approx(2 * t * math.sqrt(sigma_g2 / n))


def test_a_useless_proxy_gets_no_weight_and_no_gain() -> None:
    analysis = compare_ppi(*synthetic(800, 100, rho=0.0, seed=11))
    best = analysis.estimate("ppi++").result
    gold = analysis.estimate("gold").result
    assert best.lam < 0.15
    assert best.ci_high - best.ci_low == pytest.approx(gold.ci_high - gold.ci_low, rel=0.05)


def test_gold_on_every_query_is_gold_only_and_the_budget_ends_there() -> None:
    proxy_a, proxy_b, gold_a, gold_b = synthetic(120, 120)
    analysis = compare_ppi(proxy_a, proxy_b, gold_a, gold_b)
    best = analysis.estimate("ppi++").result
    assert best.lam == 0.0 and best.n_proxy == 0
    assert any("ignored" in message for message in analysis.warnings)  # lam=1 asked, 0 used
    assert analysis.model is not None
    curve = budget_curve(analysis.model)
    assert curve["n_gold"].max() == 120
    last = curve.iloc[-1]
    assert last["ppi"] == pytest.approx(last["gold_only"])
    assert last["ppi"] == pytest.approx(best.ci_high - best.ci_low)
    # fewer gold queries and the rest proxy-only: never wider than gold alone on as many
    assert (curve["ppi"] <= curve["gold_only"] + 1e-12).all()


def test_gold_queries_measured_in_one_run_only_are_counted_and_shown() -> None:
    # issue 15: ppi_compare dropped them silently; now the warning reaches the page, the
    # HTML export and `ranklens ppi` (all show analysis.warnings) and the result lists them
    proxy_a, proxy_b, gold_a, gold_b = synthetic(400, 80)
    lost = sorted(gold_b.per_query)[:5]
    kept_b = MetricResult("m", {q: v for q, v in gold_b.per_query.items() if q not in lost})
    analysis = compare_ppi(proxy_a, proxy_b, gold_a, kept_b)
    best = analysis.estimate("ppi++").result
    assert best.unpaired_gold_a == tuple(lost) and best.n_unpaired_gold == 5
    assert best.n_gold == 75
    expected = f"dropped 5 gold queries only in run A ({', '.join(map(repr, lost[:3]))}, ...)"
    assert [m for m in analysis.warnings if m.startswith(expected)]
    shown = render_ppi(analysis, width=1000)
    assert expected in shown
    assert "Student's t with 73 degrees of freedom" in shown


def test_judge_segments_with_unpaired_gold_queries_warn_nothing() -> None:
    # the segment's PPI++ is ppi_compare on its queries; what that would warn (its unpaired
    # gold queries) the analysis's own notes already say, so no Python warning escapes
    from ranklens.data import Qrels
    from ranklens.ppi.judge import judge_check

    proxy_a, proxy_b, gold_a, gold_b = synthetic(400, 120)
    lost = sorted(gold_b.per_query)[:4]
    kept_b = MetricResult("m", {q: v for q, v in gold_b.per_query.items() if q not in lost})
    segments = {q: "even" if int(q[1:]) % 2 == 0 else "odd" for q in proxy_a.per_query}
    labels = Qrels.from_dict({q: {"d1": 1, "d2": i % 2} for i, q in enumerate(gold_a.per_query)})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check = judge_check(labels, labels, (proxy_a, proxy_b, gold_a, kept_b),
                            segments=segments, segment_column="parity")
    rows = {row.segment: row for row in check.segments}
    assert sorted(rows) == ["even", "odd"]
    for name, row in rows.items():
        assert row.ppi is not None

        def within(result: MetricResult, name: str = name) -> MetricResult:
            return MetricResult("m", {q: v for q, v in result.per_query.items()
                                      if segments[q] == name})

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            expected = ppi_compare(within(proxy_a), within(proxy_b), within(gold_a),
                                   within(kept_b))
        assert row.ppi == expected
        lost_here = [q for q in lost if segments[q] == name]
        assert row.ppi.n_unpaired_gold == len(lost_here)
        assert bool(lost_here) == any("dropped" in str(w.message) for w in caught)
