"""What the MDE page shows, in words, cards and tables: one source for the page and its HTML.

The page (``pages/mde.py``) draws these with Streamlit; its HTML report (``ranklens.plan.html``)
writes the same cards, tables and sentences into a file, so a number reads the same in both.
Sentences are the Markdown dialect of ``ranklens.formats``: ``**bold**``, links to the Methods
page, user strings (the metric, column names) through ``literal``.

One number is worked out here for the page with one library call: the MDE under the other
method (``other_method_mde``), shown only when a method was asked for by name (the reason for
two: the other one is what the reader did not pick); with ``method="auto"`` the page shows one
MDE and the plan's ``method_reason``. Everything else only formats what
``ranklens.plan.analysis`` returned; nothing here draws.
"""

from __future__ import annotations

import pandas as pd

from ranklens.formats import Card, format_delta, format_percent, format_value, literal
from ranklens.plan.analysis import NON_SIGNIFICANT_MEANING, PlanRow, QueryPlan
from ranklens.stats import minimum_detectable_effect

MDE_CHART_CAPTION = ("Red: your choice. Dashed: target differences; the curve crosses each at "
                     "the number of queries it needs.")


def other_method(method: str) -> str:
    """The method the plan did not use: "t" for "z", "z" for "t"."""
    return "t" if method == "z" else "z"


def method_words(plan: QueryPlan, other_mde: float) -> str:
    """Which MDE this is and why, in one sentence: the rule's reason when ``method="auto"``
    chose it, else the method asked for with the other one's MDE beside it (the reader picked
    one; the other is there to compare)."""
    if plan.method_reason:
        return f"Method: {plan.method_reason}."
    return (f"Method: {plan.method}-based, as chosen in the settings; with the "
            f"{other_method(plan.method)}-method: {format_value(other_mde)}.")


def other_method_mde(plan: QueryPlan) -> float:
    """The plan's MDE under the other method (z or t), for the headline's comparison."""
    assert plan.n_queries is not None
    return minimum_detectable_effect(plan.sd, plan.n_queries, alpha=plan.alpha,
                                     power=plan.power, method=other_method(plan.method))


def spread_caption(sd: float, note: str | None, mean_delta: float | None) -> str:
    """Where the spread came from: a pilot's ``note`` and mean difference, or typed in."""
    if note is None or mean_delta is None:
        return f"Spread: **sd {format_value(sd)}**, typed in."
    return (f"Spread: **sd {format_value(sd)}** — {literal(note)}. Mean difference on the "
            f"pilot {format_delta(mean_delta)}; the plan uses only the spread, not this "
            "difference.")


def mde_cards(plan: QueryPlan, target_row: PlanRow, other_mde: float) -> tuple[Card, ...]:
    """The four headline cards: MDE at n, queries needed and power now for the target, sd."""
    assert plan.mde is not None and plan.n_queries is not None
    target = format_delta(target_row.delta)
    power_now = target_row.power_at_n
    return (
        Card(f"MDE with {plan.n_queries:,} queries", format_value(plan.mde), plan.mde,
             f"Smallest true difference detected with {format_percent(plan.power)} power at "
             f"alpha {plan.alpha:g}. {method_words(plan, other_mde)}"),
        Card(f"Queries needed for {target}", f"{target_row.queries_needed:,}",
             target_row.queries_needed, "The target difference is set in the sidebar."),
        Card(f"Power for {target} now",
             "—" if power_now is None else format_percent(power_now),
             power_now, f"Chance that {plan.n_queries:,} queries show a true {target} as "
                        "significant."),
        Card("sd of differences", format_value(plan.sd), plan.sd),
    )


def mde_sentence(plan: QueryPlan, other_mde: float) -> str:
    """What the MDE means for a non-significant result, with which MDE it is and why
    (`method_words`)."""
    assert plan.mde is not None and plan.n_queries is not None
    return (f"With {plan.n_queries:,} queries, a true difference smaller than "
            f"**{format_value(plan.mde)}** will often come out non-significant. "
            f"{method_words(plan, other_mde)} {NON_SIGNIFICANT_MEANING}")


def plan_table(plan: QueryPlan) -> pd.DataFrame:
    """The queries-needed table as the page shows it: one row per target difference.

    Columns: "target difference" (signed text), "queries needed", "power with N queries"
    (in percent, 0 to 100: the page shows it with one decimal, as everywhere) and
    "detectable with N?" (yes/no).
    """
    assert plan.n_queries is not None
    return pd.DataFrame([
        {"target difference": format_delta(row.delta),
         "queries needed": row.queries_needed,
         power_column(plan): None if row.power_at_n is None else 100.0 * row.power_at_n,
         f"detectable with {plan.n_queries:,}?":
             "yes" if row.queries_needed <= plan.n_queries else "no"}
        for row in plan.rows])


def power_column(plan: QueryPlan) -> str:
    """The name of the queries-needed table's power column."""
    assert plan.n_queries is not None
    return f"power with {plan.n_queries:,} queries"


def power_chart_caption(alpha: float) -> str:
    """The caption under the power curve."""
    return (f"Chance of a significant result at alpha {alpha:g} for each true difference. "
            "At 0 it is alpha: a false alarm.")
