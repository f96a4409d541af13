"""A PPI++ analysis as text a person reads: what ``ranklens ppi`` prints, and the verdict
sentences the page and its HTML export share.

It formats a ``PPIAnalysis``; it computes nothing (that is ``ranklens.ppi.analysis``).
"""

from __future__ import annotations

import textwrap

from ranklens.formats import DASH, format_delta, format_interval, format_p, plain_table
from ranklens.ppi.analysis import PPIAnalysis
from ranklens.stats import PPIComparison


def _ppi_queries(result: PPIComparison) -> str:
    if result.n_gold == 0:
        return f"{result.n_proxy:,} proxy"
    if result.lam == 0.0:
        return f"{result.n_gold:,} gold"
    return f"{result.n_gold:,} gold + {result.n_proxy:,} proxy-only"


def interval_words(result: PPIComparison) -> str:
    """How the interval and p-value of one PPI estimate were computed, in a phrase."""
    if result.method == "asymptotic" or result.df == float("inf"):
        return "normal approximation (asymptotic PPI++)"
    return f"Student's t with {result.df:,.0f} degrees of freedom"


def render_ppi(analysis: PPIAnalysis, width: int = 100) -> str:
    """What ``ranklens ppi`` prints: the four estimates, then what they say, warnings last."""
    name_a, name_b = analysis.run_names
    best = analysis.estimate("ppi++").result
    level = round(100 * (1 - best.alpha))
    header = ["estimate", "B \u2212 A", f"{level}% CI", "p", "proxy weight", "queries"]
    rows = []
    for item in analysis.estimates:
        r = item.result
        weight = DASH if item.key == "proxy" else f"{r.lam:.2f}"
        rows.append([item.label, format_delta(r.delta),
                     f"[{format_delta(r.ci_low)}, {format_delta(r.ci_high)}]",
                     format_p(r.p_value), weight, _ppi_queries(r)])
    out = [f"{analysis.metric}: B = {name_b}, A = {name_a}; proxy judgements corrected on a "
           "gold sample (PPI++)", ""]
    out += plain_table(header, rows, {1, 3, 4})
    out += ["", f"Intervals and p-values: {interval_words(best)} for PPI++ (its weight is "
            "fitted on the gold queries, which costs a degree of freedom), one more for the "
            "fixed weights and the uncorrected proxy.", ""]
    for sentence in ppi_sentences(analysis):
        out.extend(textwrap.wrap(sentence, width))
        out.append("")
    if analysis.warnings:
        out.append("Warnings:")
        for message in analysis.warnings:
            out.extend(textwrap.wrap(message, width, initial_indent="  - ",
                                     subsequent_indent="    "))
    return "\n".join(out).rstrip("\n") + "\n"


def ppi_sentences(analysis: PPIAnalysis) -> list[str]:
    """The PPI verdict in words: the corrected difference, the proxy's bias, the gain."""
    name_a, name_b = analysis.run_names
    best = analysis.estimate("ppi++").result
    gold = analysis.estimate("gold").result
    proxy = analysis.estimate("proxy").result
    level = round(100 * (1 - best.alpha))
    measured = (f"{format_delta(best.delta)} ({level}% CI "
                f"{format_interval(best.ci_low, best.ci_high)}, p {format_p(best.p_value)}, "
                f"proxy weight {best.lam:.2f})")
    if best.significant:
        better, worse = (name_b, name_a) if best.delta > 0 else (name_a, name_b)
        first = (f"{better} is better than {worse} on {analysis.metric} after correcting the "
                 f"proxy on {best.n_gold:,} gold queries: {name_b} \u2212 {name_a} = "
                 f"{measured}.")
    else:
        first = (f"No reliable difference between {name_a} and {name_b} on {analysis.metric} "
                 f"after correcting the proxy on {best.n_gold:,} gold queries: "
                 f"{name_b} \u2212 {name_a} = {measured}.")
    bias = proxy.delta - best.delta
    second = (f"The proxy alone says {format_delta(proxy.delta)}: on this difference it is off "
              f"by about {format_delta(bias)} (proxy \u2212 PPI++), an error its own interval "
              "cannot show.")
    sentences = [first, second]
    width_best, width_gold = best.ci_high - best.ci_low, gold.ci_high - gold.ci_low
    if width_best > 0 and width_gold > 0:
        equivalent = best.n_gold * (width_gold / width_best) ** 2
        sentences.append(
            f"The PPI++ interval is {width_best:.4f} wide against {width_gold:.4f} for the gold "
            f"queries alone: as precise as about {equivalent:,.0f} gold queries.")
    return sentences
