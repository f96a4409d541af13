"""What the MDE and PPI pages show, in words and cards: one source for the page and its HTML.

The pages (``pages/mde.py``, ``pages/ppi.py``) draw these with Streamlit; their HTML reports
(``ranklens.html_plan``, ``ranklens.html_ppi``) write the same cards, tables and sentences
into a file, so a number reads the same in both. Sentences are Markdown with ``**bold**``
only. ``Card`` is one metric card: its label, the value as shown, the exact number behind it
and the help text.

Two numbers are worked out here for the pages, each with one library call: the MDE under the
other method (``other_method_mde``) and the gold-budget planner's widths (``gold_budget``).
Everything else only formats what ``ranklens.planning`` and ``ranklens.ppi_analysis``
returned; nothing here draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import pandas as pd

from ranklens.planning import NON_SIGNIFICANT_MEANING, PlanRow, QueryPlan
from ranklens.ppi_analysis import (
    RANDOM_SAMPLE_ASSUMPTION,
    PPIAnalysis,
    ProxyBias,
    VarianceModel,
)
from ranklens.render import ppi_sentences
from ranklens.stats import MIN_GOLD, minimum_detectable_effect
from ranklens.verdict import format_delta, format_interval, format_p


class Card(NamedTuple):
    """One metric card: ``label``, ``value`` as shown, ``exact`` number (None for words),
    ``help`` (the card's tooltip) and ``delta`` (a change shown under the value)."""

    label: str
    value: str
    exact: float | int | None
    help: str = ""
    delta: str = ""


# ---- MDE page -------------------------------------------------------------------------------

MDE_CHART_CAPTION = ("Red: your choice. Dashed: target differences; the curve crosses each at "
                     "the number of queries it needs.")
NO_SPREAD = ("The per-query differences have no spread (every query moved by the same amount), "
             "so there is no curve to draw: any true difference would be detected.")


def other_method(method: str) -> str:
    """The method the plan did not use: "t" for "z", "z" for "t"."""
    return "t" if method == "z" else "z"


def other_method_mde(plan: QueryPlan) -> float:
    """The plan's MDE under the other method (z or t), for the headline's comparison."""
    assert plan.n_queries is not None
    return minimum_detectable_effect(plan.sd, plan.n_queries, alpha=plan.alpha,
                                     power=plan.power, method=other_method(plan.method))


def spread_caption(sd: float, note: str | None, mean_delta: float | None) -> str:
    """Where the spread came from: a pilot's ``note`` and mean difference, or typed in."""
    if note is None or mean_delta is None:
        return f"Spread: **sd {sd:.4f}**, typed in."
    return (f"Spread: **sd {sd:.4f}** — {note}. Mean difference on the pilot "
            f"{format_delta(mean_delta)}; the plan uses only the spread, not this difference.")


def mde_cards(plan: QueryPlan, target_row: PlanRow, other_mde: float) -> tuple[Card, ...]:
    """The four headline cards: MDE at n, queries needed and power now for the target, sd."""
    assert plan.mde is not None and plan.n_queries is not None
    other = other_method(plan.method)
    target = format_delta(target_row.delta)
    power_now = target_row.power_at_n
    return (
        Card(f"MDE with {plan.n_queries:,} queries", f"{plan.mde:.4f}", plan.mde,
             f"Smallest true difference detected with {plan.power:.0%} power at alpha "
             f"{plan.alpha:g}. With the {other}-method: {other_mde:.4f}."),
        Card(f"Queries needed for {target}", f"{target_row.queries_needed:,}",
             target_row.queries_needed, "The target difference is set in the sidebar."),
        Card(f"Power for {target} now", "—" if power_now is None else f"{power_now:.0%}",
             power_now, f"Chance that {plan.n_queries:,} queries show a true {target} as "
                        "significant."),
        Card("sd of differences", f"{plan.sd:.4f}", plan.sd),
    )


def mde_sentence(plan: QueryPlan, other_mde: float) -> str:
    """What the MDE means for a non-significant result, with the z- and t-based MDE."""
    assert plan.mde is not None and plan.n_queries is not None
    z_and_t = {plan.method: plan.mde, other_method(plan.method): other_mde}
    return (f"With {plan.n_queries:,} queries, a true difference smaller than "
            f"**{plan.mde:.4f}** will often come out non-significant "
            f"(z-based MDE {z_and_t['z']:.4f}, t-based {z_and_t['t']:.4f}). "
            f"{NON_SIGNIFICANT_MEANING}")


def plan_table(plan: QueryPlan) -> pd.DataFrame:
    """The queries-needed table as the page shows it: one row per target difference.

    Columns: "target difference" (signed text), "queries needed", "power with N queries"
    (a fraction) and "detectable with N?" (yes/no).
    """
    assert plan.n_queries is not None
    return pd.DataFrame([
        {"target difference": format_delta(row.delta),
         "queries needed": row.queries_needed,
         f"power with {plan.n_queries:,} queries": row.power_at_n,
         f"detectable with {plan.n_queries:,}?":
             "yes" if row.queries_needed <= plan.n_queries else "no"}
        for row in plan.rows])


def power_chart_caption(alpha: float) -> str:
    """The caption under the power curve."""
    return (f"Chance of a significant result at alpha {alpha:g} for each true difference. "
            "At 0 it is alpha: a false alarm.")


# ---- PPI page -------------------------------------------------------------------------------

RANDOM_SAMPLE_WARNING = f"**Gold queries must be a random sample.** {RANDOM_SAMPLE_ASSUMPTION}"
INTERVALS_CAPTION = (
    "The uncorrected proxy interval is narrow around the wrong number when the proxy is "
    "biased: resampling queries cannot see a labelling error. Gold only is unbiased but wide; "
    "PPI++ keeps gold's unbiasedness and borrows the proxy's precision as far as the two agree."
)


def ppi_title(analysis: PPIAnalysis) -> str:
    """The verdict box's heading: the first sentence up to its colon."""
    return ppi_sentences(analysis)[0].split(":")[0] + "."


def ppi_cards(analysis: PPIAnalysis) -> tuple[Card, ...]:
    """PPI++ difference, interval, p, weight lambda and the gold / proxy-only counts."""
    best = analysis.estimate("ppi++").result
    level = round(100 * (1 - best.alpha))
    return (
        Card(f"PPI++ {analysis.metric}, B − A", format_delta(best.delta), best.delta),
        Card(f"{level}% interval",
             format_interval(best.ci_low, best.ci_high), None,
             "Normal approximation with the PPI++ variance."),
        Card("p", format_p(best.p_value), best.p_value, "Two-sided, normal approximation."),
        Card("Weight λ", f"{best.lam:.2f}", best.lam,
             "Weight of the proxy part: 0 is gold only, 1 is classic PPI; estimated to "
             "minimise the variance (clipped to [0, 1])."),
        Card("Gold / proxy-only", f"{best.n_gold:,} / {best.n_proxy:,}", None,
             "Queries with gold labels (and proxy labels) / queries with proxy labels only."),
    )


def ppi_warnings(analysis: PPIAnalysis) -> tuple[str, ...]:
    """The analysis's warnings except the random-sample assumption (stated on its own)."""
    return tuple(m for m in analysis.warnings if m != RANDOM_SAMPLE_ASSUMPTION)


def enough_gold_note(analysis: PPIAnalysis) -> str | None:
    """Said when there is no warning and the gold sample is at or above ``MIN_GOLD``."""
    n_gold = analysis.estimate("ppi++").result.n_gold
    if ppi_warnings(analysis) or n_gold < MIN_GOLD:
        return None
    return (f"{n_gold:,} gold queries: at or above the {MIN_GOLD} below which the correction "
            "is too noisy to rely on.")


def intervals_table(analysis: PPIAnalysis, data: pd.DataFrame) -> pd.DataFrame:
    """The four estimates as the page's table shows them, from ``intervals_data``'s rows."""
    return pd.DataFrame({
        "estimate": data["label"],
        "B − A": [format_delta(v) for v in data["delta"]],
        "interval": [format_interval(lo, hi)
                     for lo, hi in zip(data["low"], data["high"], strict=True)],
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


def bias_card(bias: ProxyBias) -> Card:
    return Card("Proxy − gold, on gold queries", format_delta(bias.bias), bias.bias,
                f"Mean proxy delta minus mean gold delta over the {bias.n_gold:,} gold "
                "queries; paired t-interval.")


def bias_sentence(bias: ProxyBias) -> str:
    """The proxy's bias on B - A in words, and how it differs from the proxy-vs-PPI++ gap."""
    level = round(100 * (1 - bias.alpha))
    direction = "overstates" if bias.bias > 0 else "understates"
    return (f"On the {bias.n_gold:,} queries with both labels the proxy {direction} B − A by "
            f"**{format_delta(bias.bias)}** ({level}% interval "
            f"{format_interval(bias.low, bias.high)}, p {format_p(bias.p_value)}). This is the "
            "bias of the "
            "difference, not of the labels: a proxy can over-rate both runs and still get "
            "B − A right. The proxy-vs-PPI++ gap in the box above is a different number: the "
            "proxy over all queries against the corrected estimate.")


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
        Card(f"Expected PPI++ width with {budget.planned:,} gold", f"{budget.expected:.4f}",
             budget.expected, delta=f"{budget.change:+.4f} vs now"),
        Card(f"Gold only with {budget.planned:,} gold", f"{budget.gold_only:.4f}",
             budget.gold_only),
    )


def correlation_note(model: VarianceModel) -> str:
    return (f"Correlation of gold and proxy deltas so far: **{model.correlation:.2f}** on "
            f"{model.n_gold:,} gold queries. The higher it is, the more each proxy label is "
            "worth.")


def budget_caption(model: VarianceModel) -> str:
    """What the gold-budget chart draws, and that it is a prediction."""
    pool = model.n_gold + model.n_proxy_only
    return (f"Expected width of the {round(100 * (1 - model.alpha))}% interval if n of the "
            f"{pool:,} queries had gold labels (the methods page's PPI++ variance with the "
            "spreads and correlation observed so far, pinned to today's interval at the red "
            f"point, never above gold only). Dotted grey: the {MIN_GOLD}-gold-query warning "
            "line. A prediction, not a promise.")


def card_dict(card: Card) -> dict[str, Any]:
    """A card as a JSON object: its label, the value as shown and the exact value."""
    return {"label": card.label, "shown": card.value, "value": card.exact}
