"""What the PPI page shows, in words, cards and tables: one source for the page and its HTML.

The page (``pages/ppi.py``) draws these with Streamlit; its HTML report (``ranklens.ppi.html``)
writes the same cards, tables and sentences into a file, so a number reads the same in both.
Sentences, labels and help texts are the Markdown dialect of ``ranklens.formats`` (user strings
through ``literal``); the verdict's sentences are ``ranklens.ppi.verdict_words``'s, as in the CLI.

One number is worked out here for the page with one library call: the gold-budget planner's
widths (``gold_budget``). Everything else only formats what ``ranklens.ppi.analysis``
returned; nothing here draws.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ranklens import formats
from ranklens.compare.sections.inputs import set_aside_lines
from ranklens.document.blocks import Items, Section, section
from ranklens.formats import (
    Card,
    format_delta,
    format_interval,
    format_p,
    format_value,
    literal,
)
from ranklens.methods import methods_link
from ranklens.ppi import verdict_words
from ranklens.ppi.analysis import (
    RANDOM_SAMPLE_ASSUMPTION,
    PPIAnalysis,
    ProxyBias,
    VarianceModel,
)
from ranklens.stats import MIN_GOLD

RANDOM_SAMPLE_WARNING = f"**Gold queries must be a random sample.** {RANDOM_SAMPLE_ASSUMPTION}"
INTERVALS_CAPTION = (
    "The uncorrected proxy interval is narrow around the wrong number when the proxy is "
    "biased: resampling queries cannot see a labelling error. Gold only is unbiased but wide; "
    "PPI++ keeps gold's unbiasedness and borrows the proxy's precision as far as the two agree."
)

FILL_OR_CORRECT = (
    "Fill holes or correct on gold? When a run retrieves documents nobody judged, the Compare "
    "page can fill those holes with proxy labels, as a second opinion on its verdict (the "
    "proxy's bias comes along); to estimate B \u2212 A itself with an honest interval, correct "
    "the proxy on a random gold sample, here."
)
"""The one sentence that tells the two uses of proxy labels apart (the PPI page links to the
Compare page's robustness view after it)."""
FILL_LINK_LABEL = "Compare runs: “Unjudged documents three ways”"


def ppi_title(analysis: PPIAnalysis) -> str:
    """The verdict box's heading: which run is better after the correction, or neither."""
    return verdict_words.conclusion(analysis)


def ppi_cards(analysis: PPIAnalysis) -> tuple[Card, ...]:
    """PPI++ difference, interval, p, weight lambda and the gold / proxy-only counts."""
    best = analysis.estimate("ppi++").result
    level = formats.level_number(1 - best.alpha)
    return (
        Card(f"PPI++ {literal(analysis.metric)}, B − A", format_delta(best.delta), best.delta),
        Card(f"{level}% interval",
             format_interval(best.ci_low, best.ci_high), None,
             f"PPI++ variance, {verdict_words.interval_words(best)}."),
        Card("p", format_p(best.p_value), best.p_value,
             f"Two-sided, {verdict_words.interval_words(best)}."),
        Card("Weight λ", f"{best.lam:.2f}", best.lam, weight_help(best.method)),
        Card("Gold / proxy-only", f"{best.n_gold:,} / {best.n_proxy:,}", None,
             "Queries with gold labels (and proxy labels) / queries with proxy labels only."),
    )


def weight_help(method: str) -> str:
    """What the weight λ is and how it was estimated (the λ card's tooltip)."""
    what = ("Weight of the proxy part: 0 is gold only, 1 is classic PPI; estimated to minimise "
            "the variance, clipped to [0, 1].")
    if method == "asymptotic":
        how = ("As in ppi_py, but with the covariance divided by n − 1, not n: see the "
               f"{methods_link('choices')}.")
    else:
        how = ("Fitted on the gold queries (the slope of gold on proxy differences, divided by "
               "1 + n/N), which costs the interval a degree of freedom: see the "
               f"{methods_link('ppi')}.")
    return f"{what} {how}"


def ppi_warnings(analysis: PPIAnalysis) -> tuple[str, ...]:
    """The analysis's warnings except the random-sample assumption (stated on its own), and
    the rows a reader set aside, as Compare lists them (`set_aside_lines`)."""
    return (*(m for m in analysis.warnings if m != RANDOM_SAMPLE_ASSUMPTION),
            *set_aside_lines(analysis.inputs))


def warnings_section(analysis: PPIAnalysis) -> Section | None:
    """The Warnings section of every face (`ppi_warnings`); None when there are none."""
    return section("warnings", "Warnings", [Items(ppi_warnings(analysis), "warning")])


def enough_gold_note(analysis: PPIAnalysis) -> str | None:
    """Said when there is no warning and the gold sample is at or above ``MIN_GOLD``."""
    n_gold = analysis.estimate("ppi++").result.n_gold
    if ppi_warnings(analysis) or n_gold < MIN_GOLD:
        return None
    return (f"{n_gold:,} gold queries: at or above the {MIN_GOLD} below which the correction "
            "is too noisy to rely on.")


def intervals_table(analysis: PPIAnalysis, data: pd.DataFrame) -> pd.DataFrame:
    """The four estimates as the page's table shows them, from ``intervals_data``'s rows:
    each with its interval and how that interval is computed (normal or paired t)."""
    return pd.DataFrame({
        "estimate": data["label"],
        "B − A": [format_delta(v) for v in data["delta"]],
        "interval": [format_interval(lo, hi)
                     for lo, hi in zip(data["low"], data["high"], strict=True)],
        "interval from": [verdict_words.interval_method(analysis.estimate(k).result, k)
                          for k in data["key"]],
        "p": [format_p(analysis.estimate(k).result.p_value) for k in data["key"]],
        "λ": ["—" if pd.isna(v) else f"{v:.2f}" for v in data["lam"]],
        "measured on": data["queries"],
    })


def lambda_note(analysis: PPIAnalysis) -> str | None:
    """Said when lambda sits on a bound, so PPI++ equals classic PPI or gold only."""
    lam = analysis.estimate("ppi++").result.lam
    if lam not in (0.0, 1.0):
        return None
    twin = "classic PPI" if lam == 1.0 else "gold only"
    return (f"λ was estimated at {lam:.2f} (the estimate is kept within [0, 1]), so PPI++ and "
            f"{twin} coincide here.")


def bias_cards(bias: ProxyBias) -> tuple[Card, ...]:
    """The proxy's bias on B − A measured on the gold queries: value, interval and p."""
    level = formats.level_number(1 - bias.alpha)
    return (
        Card("Proxy − gold, on gold queries", format_delta(bias.bias), bias.bias,
             f"Mean proxy delta minus mean gold delta over the {bias.n_gold:,} gold "
             "queries."),
        Card(f"{level}% interval (paired t)", format_interval(bias.low, bias.high), None),
        Card("p (no bias)", format_p(bias.p_value), bias.p_value,
             "Paired t-test of proxy − gold = 0 on the gold queries."),
    )


def bias_sentence(analysis: PPIAnalysis) -> str | None:
    """The proxy's bias in words, as the verdict says it (``verdict_words.bias_statement``)."""
    if analysis.bias is None:
        return None
    return verdict_words.bias_statement(analysis.bias, analysis.run_names)


@dataclass(frozen=True)
class GoldBudget:
    """The gold-budget planner at one choice: ``planned`` gold queries out of ``pool``.

    ``expected`` is the PPI++ interval width ``VarianceModel.width`` predicts, ``gold_only``
    the width with gold labels alone, ``realised`` today's width. A prediction, not a promise.
    """

    planned: int
    pool: int
    expected: float
    gold_only: float
    realised: float

    @property
    def change(self) -> float:
        """Expected width minus today's: negative is narrower."""
        return self.expected - self.realised


def default_planned(model: VarianceModel) -> int:
    """The planner's starting choice: twice today's gold queries, at most the whole pool."""
    return min(model.n_gold + model.n_proxy_only, 2 * model.n_gold)


def gold_budget(model: VarianceModel, planned: int) -> GoldBudget:
    """Expected widths with ``planned`` gold queries out of the queries measured now."""
    pool = model.n_gold + model.n_proxy_only
    return GoldBudget(planned, pool, model.width(planned, pool - planned),
                      model.width(planned, pool - planned, lam=0.0), model.realised_width)


def budget_cards(budget: GoldBudget) -> tuple[Card, ...]:
    """Expected PPI++ width (with its change against today) and the gold-only width."""
    return (
        Card(f"Expected PPI++ width with {budget.planned:,} gold",
             format_value(budget.expected), budget.expected,
             delta=f"{format_delta(budget.change)} vs now", trend=budget.change,
             better="down"),
        Card(f"Gold only with {budget.planned:,} gold", format_value(budget.gold_only),
             budget.gold_only),
    )


def correlation_note(model: VarianceModel) -> str:
    return (f"Correlation of gold and proxy deltas so far: "
            f"**{format_value(model.correlation, 2)}** on "
            f"{model.n_gold:,} gold queries. The higher it is, the more each proxy label is "
            "worth.")


def budget_caption(model: VarianceModel, plan: bool = False) -> str:
    """What the gold-budget chart draws, and that it is a prediction; with ``plan``, what
    its labelling plan's curve is (`ranklens.ppi.analysis.with_plan`)."""
    pool = model.n_gold + model.n_proxy_only
    return (f"Expected width of the {formats.level_number(1 - model.alpha)}% interval if n of the "
            f"{pool:,} queries had gold labels (the PPI++ variance of the "
            f"{methods_link('ppi')}, with the "
            "spreads and correlation observed so far, pinned to today's interval at the red "
            f"point, never above gold only). Dotted grey: the {MIN_GOLD}-gold-query warning "
            "line. A prediction, not a promise." + (PLAN_CURVE_WORDS if plan else ""))


PLAN_CURVE_WORDS = (
    " Long dashes: the same n queries drawn by the labelling plan (below) instead of "
    "uniformly: the PPI++ width times the ratio of the plan's expected width to a uniform "
    "sample's of as many queries, under the plan's model of the proxy's error (its "
    "uncertainties); missing where the plan labels every query that can move B − A.")
"""What `budget_caption` adds when the chart draws the labelling plan's curve."""
