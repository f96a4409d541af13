"""A PPI++ analysis in words: the sentences the page, ``ranklens ppi`` and the HTML export share.

One module writes them, so the three faces never disagree. Every claim follows the evidence:

- the proxy is called biased (upward or downward) only when the interval of its bias on the
  gold queries excludes zero; otherwise the words say no bias is detectable and how large a
  bias the interval still allows; a proxy that matches gold exactly is said to;
- a direction is said in words with an unsigned size ("overstates B − A by 0.0120"), never a
  sign that doubles it ("understates by −0.0120");
- the effective gold sample is capped at the number of queries measured;
- each of the four estimates says how its interval is computed (normal or t).

Sentences are the pages' Markdown dialect (``ranklens.formats``): run names and the metric are
`literal`, the CLI prints them through ``formats.plain``. Nothing here computes a statistic
beyond reading the analysis's numbers (a width ratio, a maximum).
"""

from __future__ import annotations

import math
from enum import Enum

from ranklens.formats import (
    format_delta,
    format_interval,
    format_p,
    format_value,
    level_number,
    literal,
)
from ranklens.methods import methods_link
from ranklens.ppi.analysis import PPIAnalysis, ProxyBias
from ranklens.stats import PPIComparison

BIAS_MEANING = (
    "Proxy − gold is the mean proxy difference B − A minus the mean gold difference over the "
    "queries that have both labels, with a paired t-interval. It is the bias of the "
    "difference, not of the labels: a proxy can over-rate both runs and still get B − A "
    "right."
)


class BiasFinding(Enum):
    """What the gold queries show about the proxy's bias on B − A."""

    UPWARD = "biased upward"
    DOWNWARD = "biased downward"
    UNDETECTED = "no detectable bias"
    EXACT = "agrees exactly"


def bias_finding(bias: ProxyBias) -> BiasFinding:
    """Upward or downward when the bias interval excludes zero, exact when proxy and gold
    differences are equal on every gold query, otherwise undetected."""
    if bias.low == bias.high == bias.bias == 0.0:
        return BiasFinding.EXACT
    return {"above": BiasFinding.UPWARD, "below": BiasFinding.DOWNWARD,
            "around": BiasFinding.UNDETECTED}[bias.interval.reading]


def _level(alpha: float) -> str:
    return level_number(1 - alpha)


def _names(analysis: PPIAnalysis) -> tuple[str, str, str]:
    name_a, name_b = analysis.run_names
    return literal(name_a), literal(name_b), literal(analysis.metric)


def conclusion(analysis: PPIAnalysis) -> str:
    """The verdict's heading: which run is better after the correction, or that neither is."""
    name_a, name_b, metric = _names(analysis)
    best = analysis.estimate("ppi++").result
    after = f"after correcting the proxy on {best.n_gold:,} gold queries"
    if best.significant:
        better, worse = (name_b, name_a) if best.delta > 0 else (name_a, name_b)
        return f"{better} is better than {worse} on {metric} {after}."
    return f"No reliable difference between {name_a} and {name_b} on {metric} {after}."


def verdict(analysis: PPIAnalysis) -> str:
    """The heading with the PPI++ numbers: difference, interval, p and the proxy weight."""
    name_a, name_b, _ = _names(analysis)
    best = analysis.estimate("ppi++").result
    measured = (f"{format_delta(best.delta)} ({_level(best.alpha)}% CI "
                f"{format_interval(best.ci_low, best.ci_high)}, p {format_p(best.p_value)}, "
                f"proxy weight {best.lam:.2f})")
    return f"{conclusion(analysis).removesuffix('.')}: {name_b} − {name_a} = {measured}."


def bias_statement(bias: ProxyBias, run_names: tuple[str, str]) -> str:
    """The proxy's bias on B − A, from its interval on the gold queries, in words."""
    name_a, name_b = (literal(name) for name in run_names)
    difference = f"{name_b} − {name_a}"
    level = _level(bias.alpha)
    finding = bias_finding(bias)
    if finding is BiasFinding.EXACT:
        return (f"On all {bias.n_gold:,} gold queries the proxy's difference {difference} "
                "equals gold's exactly: no bias shows in this sample.")
    if finding is BiasFinding.UNDETECTED:
        return (f"No bias of the proxy on {difference} is detectable on the {bias.n_gold:,} "
                f"gold queries (proxy − gold {format_delta(bias.bias)}, {level}% interval "
                f"{format_interval(bias.low, bias.high)}, p {format_p(bias.p_value)}): it "
                f"could still overstate the difference by up to {format_value(bias.high)} or "
                f"understate it by up to {format_value(-bias.low)}.")
    verb = "overstates" if finding is BiasFinding.UPWARD else "understates"
    low, high = sorted((abs(bias.low), abs(bias.high)))
    return (f"The proxy is {finding.value}: on the {bias.n_gold:,} gold queries it {verb} "
            f"{difference} by {format_value(abs(bias.bias))} ({level}% interval "
            f"{format_value(low)} to {format_value(high)}, p {format_p(bias.p_value)}), an "
            "error its own interval cannot show.")


def proxy_sentence(analysis: PPIAnalysis) -> str:
    """What the proxy alone says, and what the gold queries show about its bias."""
    proxy = analysis.estimate("proxy").result
    said = (f"Uncorrected, the proxy says {format_delta(proxy.delta)} "
            f"({_level(proxy.alpha)}% t-interval "
            f"{format_interval(proxy.ci_low, proxy.ci_high)}).")
    if analysis.bias is None:
        return said
    return f"{said} {bias_statement(analysis.bias, analysis.run_names)}"


def precision_sentence(analysis: PPIAnalysis) -> str | None:
    """How much precision the proxy adds: the widths, and the gold sample that would match.

    The equivalent gold sample, n (w_gold / w_PPI++)^2, is capped at the queries measured:
    gold labels on all of them are as precise as any correction can be.
    """
    best = analysis.estimate("ppi++").result
    gold = analysis.estimate("gold").result
    width_best, width_gold = best.ci_high - best.ci_low, gold.ci_high - gold.ci_low
    if width_best <= 0 or width_gold <= 0:
        return None
    widths = (f"The PPI++ interval is {format_value(width_best)} wide against "
              f"{format_value(width_gold)} for the gold queries alone")
    if best.lam == 0.0 or width_best >= width_gold:
        return f"{widths}: the proxy adds no precision here (weight {best.lam:.2f})."
    total = best.n_gold + best.n_proxy
    equivalent = best.n_gold * (width_gold / width_best) ** 2
    if equivalent >= total:
        return f"{widths}: as precise as gold labels on all {total:,} queries."
    return f"{widths}: as precise as gold labels on about {equivalent:,.0f} queries."


def ppi_sentences(analysis: PPIAnalysis) -> list[str]:
    """The verdict in words: the corrected difference, the proxy and its bias, the precision."""
    sentences = [verdict(analysis), proxy_sentence(analysis)]
    precision = precision_sentence(analysis)
    if precision is not None:
        sentences.append(precision)
    return sentences


def estimate_label(analysis: PPIAnalysis, key: str) -> str:
    """The four estimates' row labels; the proxy's says "biased" only when the bias shows."""
    labels = {"ppi++": "PPI++ (λ estimated)", "gold": "gold only (λ = 0)",
              "ppi": "classic PPI (λ = 1)", "proxy": "proxy, uncorrected"}
    label = labels[key]
    if key == "proxy" and analysis.bias is not None:
        finding = bias_finding(analysis.bias)
        if finding in (BiasFinding.UPWARD, BiasFinding.DOWNWARD):
            label += f" ({finding.value})"
    return label


def interval_method(result: PPIComparison, key: str) -> str:
    """How the interval of estimate ``key`` was computed, as its table row says: "paired t"
    for the uncorrected proxy, "t, N df" for a finite-sample PPI estimate, "normal" for an
    asymptotic one (read from the result, not assumed)."""
    if key == "proxy":
        return "paired t"
    if result.method == "asymptotic" or math.isinf(result.df):
        return "normal"
    return f"t, {result.df:,.0f} df"


def interval_words(result: PPIComparison) -> str:
    """How the interval and p-value of one PPI estimate were computed, in a phrase."""
    if result.method == "asymptotic" or math.isinf(result.df):
        return "normal approximation (asymptotic PPI++)"
    return f"Student's t with {result.df:,.0f} degrees of freedom"


def measured_on(result: PPIComparison, key: str) -> str:
    """The queries an estimate was measured on, as its table row says."""
    if key == "proxy":
        return f"{result.n_proxy:,} queries, proxy labels"
    if key == "gold":
        return f"{result.n_gold:,} gold queries"
    return f"{result.n_gold:,} gold + {result.n_proxy:,} proxy-only"


def intervals_note(analysis: PPIAnalysis) -> str:
    """How the four intervals were computed, in one note under the table."""
    best = analysis.estimate("ppi++").result
    return (f"Intervals: PPI++ uses {interval_words(best)} (its weight is fitted on the gold "
            "queries, which costs a degree of freedom); classic PPI and gold only the same "
            "finite-sample form with their fixed weights; the uncorrected proxy is a paired "
            f"t-interval over every proxy query. Formulas on the {methods_link('ppi')}.")
