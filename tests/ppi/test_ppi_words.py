"""The PPI verdict's words follow the evidence: biased, unbiased and perfect proxies.

Each proxy is simulated with a fixed seed on 600 queries (60 with gold labels): the proxy's
difference B - A is gold's shifted by +0.05 (biased upward), -0.05 (downward), unshifted with
noise (no bias to find) or equal to gold's (a perfect proxy). The sentences must claim a
direction only when the bias interval excludes zero, write the size without a doubled sign,
cap the effective gold sample at the 600 queries, and read the same in the CLI text and the
HTML export.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

from ranklens.data import MetricResult
from ranklens.formats import format_delta, format_interval, format_p, plain
from ranklens.ppi import html as html_ppi
from ranklens.ppi import verdict_words
from ranklens.ppi.analysis import PPIAnalysis, compare_ppi
from ranklens.ppi.settings import PPISettings
from ranklens.ppi.text import render_ppi
from ranklens.ppi.verdict_words import BiasFinding

N_QUERIES, N_GOLD = 600, 60
NAMES = ("bm25", "neural")


def simulated(shift: float, noise: float, seed: int = 0) -> PPIAnalysis:
    """Gold per-query values of A and B on every query, gold labels on 60 random queries;
    the proxy adds ``shift`` to B and independent noise of sd ``noise`` to both."""
    rng = np.random.default_rng(seed)
    gold_a = rng.uniform(0.2, 0.8, N_QUERIES)
    gold_b = gold_a + rng.normal(0.02, 0.1, N_QUERIES)
    proxy_a = gold_a + rng.normal(0.0, noise, N_QUERIES)
    proxy_b = gold_b + shift + rng.normal(0.0, noise, N_QUERIES)
    ids = [f"q{i:03d}" for i in range(N_QUERIES)]
    sample = sorted(rng.choice(N_QUERIES, N_GOLD, replace=False))

    def result(values: np.ndarray, rows: range | list[int]) -> MetricResult:
        return MetricResult("nDCG@10", {ids[i]: float(values[i]) for i in rows})

    everyone = range(N_QUERIES)
    return compare_ppi(result(proxy_a, everyone), result(proxy_b, everyone),
                       result(gold_a, sample), result(gold_b, sample), run_names=NAMES)


@pytest.fixture(scope="module")
def upward() -> PPIAnalysis:
    return simulated(+0.05, 0.02)


@pytest.fixture(scope="module")
def downward() -> PPIAnalysis:
    return simulated(-0.05, 0.02)


@pytest.fixture(scope="module")
def unbiased() -> PPIAnalysis:
    return simulated(0.0, 0.03)


@pytest.fixture(scope="module")
def perfect() -> PPIAnalysis:
    return simulated(0.0, 0.0)


def proxy_said(analysis: PPIAnalysis) -> str:
    proxy = analysis.estimate("proxy").result
    return (f"Uncorrected, the proxy says {format_delta(proxy.delta)} (95% t-interval "
            f"{format_interval(proxy.ci_low, proxy.ci_high)}).")


def test_a_biased_proxy_is_called_biased_with_the_size_in_words(upward: PPIAnalysis,
                                                                 downward: PPIAnalysis) -> None:
    for analysis, finding, verb in ((upward, BiasFinding.UPWARD, "overstates"),
                                    (downward, BiasFinding.DOWNWARD, "understates")):
        bias = analysis.bias
        assert bias is not None and verdict_words.bias_finding(bias) is finding
        low, high = sorted((abs(bias.low), abs(bias.high)))
        assert plain(verdict_words.proxy_sentence(analysis)) == (
            f"{proxy_said(analysis)} The proxy is {finding.value}: on the 60 gold queries it "
            f"{verb} neural − bm25 by {abs(bias.bias):.4f} (95% interval {low:.4f} to "
            f"{high:.4f}, p < 0.001), an error its own interval cannot show.")
        label = verdict_words.estimate_label(analysis, "proxy")
        assert label == f"proxy, uncorrected ({finding.value})"
    # the seed's numbers: about +0.05 and -0.05, unsigned in the words
    assert "overstates neural − bm25 by 0.0472 (95% interval 0.0400 to 0.0543" in \
        verdict_words.proxy_sentence(upward)
    assert "understates neural − bm25 by 0.0528 (95% interval 0.0457 to 0.0600" in \
        verdict_words.proxy_sentence(downward)
    for text in (verdict_words.proxy_sentence(upward), verdict_words.proxy_sentence(downward)):
        assert not re.search(r"(overstates|understates) \S+ \S+ \S+ by [−+-]", text)


def test_an_unbiased_proxy_is_not_called_biased(unbiased: PPIAnalysis) -> None:
    bias = unbiased.bias
    assert bias is not None and bias.low < 0 < bias.high and bias.p_value > 0.05
    assert verdict_words.bias_finding(bias) is BiasFinding.UNDETECTED
    assert plain(verdict_words.proxy_sentence(unbiased)) == (
        f"{proxy_said(unbiased)} No bias of the proxy on neural − bm25 is detectable on the 60 "
        f"gold queries (proxy − gold {format_delta(bias.bias)}, 95% interval "
        f"{format_interval(bias.low, bias.high)}, p {format_p(bias.p_value)}): it could still "
        f"overstate the difference by up to {bias.high:.4f} or understate it by up to "
        f"{-bias.low:.4f}.")
    assert ("−0.0043, 95% interval −0.0150 to +0.0065, p 0.430"
            in verdict_words.proxy_sentence(unbiased))
    assert "biased" not in " ".join(verdict_words.ppi_sentences(unbiased))
    assert verdict_words.estimate_label(unbiased, "proxy") == "proxy, uncorrected"


def test_a_perfect_proxy_is_said_to_agree(perfect: PPIAnalysis) -> None:
    bias = perfect.bias
    assert bias is not None and (bias.bias, bias.low, bias.high) == (0.0, 0.0, 0.0)
    assert verdict_words.bias_finding(bias) is BiasFinding.EXACT
    assert plain(verdict_words.proxy_sentence(perfect)) == (
        f"{proxy_said(perfect)} On all 60 gold queries the proxy's difference neural − bm25 "
        "equals gold's exactly: no bias shows in this sample.")
    said = " ".join(verdict_words.ppi_sentences(perfect))
    assert "error" not in said and "off by" not in said and "biased" not in said


def test_the_effective_gold_sample_is_capped_at_all_queries(perfect: PPIAnalysis,
                                                            upward: PPIAnalysis) -> None:
    best, gold = perfect.estimate("ppi++").result, perfect.estimate("gold").result
    uncapped = N_GOLD * ((gold.ci_high - gold.ci_low) / (best.ci_high - best.ci_low)) ** 2
    assert uncapped > N_QUERIES  # noise in the spreads: more than all the queries there are
    assert verdict_words.precision_sentence(perfect) == (
        f"The PPI++ interval is {best.ci_high - best.ci_low:.4f} wide against "
        f"{gold.ci_high - gold.ci_low:.4f} for the gold queries alone: as precise as gold "
        "labels on all 600 queries.")
    best, gold = upward.estimate("ppi++").result, upward.estimate("gold").result
    equivalent = N_GOLD * ((gold.ci_high - gold.ci_low) / (best.ci_high - best.ci_low)) ** 2
    assert N_GOLD < equivalent < N_QUERIES  # below the cap, the number is the formula's
    assert (verdict_words.precision_sentence(upward) or "").endswith(
        f"as precise as gold labels on about {equivalent:,.0f} queries.")


def test_each_estimate_says_how_its_interval_is_computed(upward: PPIAnalysis) -> None:
    # finite-sample PPI: Student t on the gold queries, one more degree of freedom spent on
    # the fitted weight of PPI++; the uncorrected proxy is a paired t-interval
    n_gold = upward.estimate("ppi++").result.n_gold
    shown = {key: verdict_words.interval_method(upward.estimate(key).result, key)
             for key in ("ppi++", "ppi", "gold", "proxy")}
    assert shown == {"ppi++": f"t, {n_gold - 2:,} df", "ppi": f"t, {n_gold - 1:,} df",
                     "gold": f"t, {n_gold - 1:,} df", "proxy": "paired t"}


@pytest.mark.parametrize("which", ["upward", "unbiased", "perfect"])
def test_cli_and_html_say_the_same_sentences(which: str, request: pytest.FixtureRequest) -> None:
    analysis: PPIAnalysis = request.getfixturevalue(which)
    cli = " ".join(render_ppi(analysis).split())
    document = html_ppi.render(html_ppi.PPIExport(analysis, PPISettings("nDCG@10", 0.05, "score")))
    body = document.split("</header>")[1].split('<script type="application/json"')[0]
    shown = " ".join(html.unescape(re.sub(r"<[^>]+>", "", body)).split())
    # the page and the file head the verdict with its conclusion, the numbers go to the cards
    assert plain(verdict_words.conclusion(analysis)).removesuffix(".") in cli
    assert plain(verdict_words.conclusion(analysis)) in shown
    for sentence in verdict_words.ppi_sentences(analysis)[1:]:
        said = " ".join(plain(sentence).split())
        assert said in cli
        assert said in shown
    for key in ("ppi++", "ppi", "gold", "proxy"):
        line = next(line for line in render_ppi(analysis).splitlines()
                    if line.startswith(verdict_words.estimate_label(analysis, key)))
        method = verdict_words.interval_method(analysis.estimate(key).result, key)
        assert f"  {method}  " in line
