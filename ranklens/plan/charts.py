"""Altair charts of the MDE page. No Streamlit here: the page draws them.

``mde_chart`` (MDE against the number of queries, the current choice marked, the target
differences as horizontal rules) and ``power_chart`` (power against the true difference).
Each ``*_data`` function answers what exactly a chart draws, so tests can check it without a
browser.
"""

from __future__ import annotations

import math

import altair as alt
import pandas as pd

from ranklens.document.chart_style import (
    CHOSEN,
    CURVE,
    FIT_WIDTH,
    MUTED,
    TARGET,
    log_ticks,
    width_ticks,
)
from ranklens.formats import format_delta, format_percent, format_value
from ranklens.plan.analysis import QueryPlan

LABEL_ABOVE, LABEL_BELOW = -10, 14
"""Vertical offsets (pixels) of the chosen point's label: above the point, or below it."""
LABEL_CLEARANCE = 18
"""Pixels a target rule must keep from the label's middle line not to run through its text."""


def mde_chart(curve: pd.DataFrame, plan: QueryPlan, *, height: int = 320) -> alt.LayerChart:
    """MDE against the number of queries (log x), the chosen n as a red point with its MDE.

    ``curve`` has columns ``n_queries`` and ``mde`` (``ranklens.plan.analysis.mde_curve``); the
    plan's target differences are dashed horizontal rules, each labelled with the queries it
    needs (where the curve crosses it).
    """
    targets = target_rules_data(plan)
    # the data's own range, not log "nice" decades: most of a decade would be empty
    n_range = [int(curve["n_queries"].min()), int(curve["n_queries"].max())]
    lowest = min(float(curve["mde"].min()), *(t * 0.9 for t in targets["target"]))
    y_range = [lowest, float(curve["mde"].max()) * 1.1]
    base = alt.Chart(curve).encode(
        x=alt.X("n_queries:Q", title="number of queries",
                scale=alt.Scale(type="log", domain=n_range, nice=False),
                axis=alt.Axis(format="~s", values=log_ticks(n_range[0], n_range[1]))),
    )
    line = base.mark_line(color=CURVE, strokeWidth=2).encode(
        y=alt.Y("mde:Q", title="minimum detectable effect",
                scale=alt.Scale(type="log", domain=y_range, nice=False),
                axis=alt.Axis(format=".3~f", values=width_ticks(y_range))),
        tooltip=[alt.Tooltip("n_queries:Q", title="queries", format=","),
                 alt.Tooltip("mde:Q", title="MDE", format=".4f")],
    )
    layers: list[alt.Chart] = [line]
    if len(targets):
        rules = alt.Chart(targets).mark_rule(color=TARGET, strokeDash=[4, 3]).encode(
            y="target:Q",
            tooltip=[alt.Tooltip("label:N", title="target")],
        )
        labels = alt.Chart(targets).mark_text(
            align="left", baseline="bottom", dx=4, dy=-2, color=TARGET, fontSize=11,
        ).encode(x=alt.value(0), y="target:Q", text="label:N")
        layers += [rules, labels]
    if plan.mde is not None and plan.n_queries is not None:
        chosen = pd.DataFrame({
            "n_queries": [plan.n_queries], "mde": [plan.mde],
            "label": [f"{plan.n_queries:,} queries → MDE {format_value(plan.mde)}"]})
        point = alt.Chart(chosen).mark_point(
            color=CHOSEN, filled=True, size=90).encode(
            x="n_queries:Q", y="mde:Q",
            tooltip=[alt.Tooltip("label:N", title="your choice")])
        offset = point_label_offset(plan.mde, list(targets["target"]), y_range, height)
        text = alt.Chart(chosen).mark_text(
            align="left", dx=8, dy=offset, color=CHOSEN, fontWeight="bold", fontSize=12,
        ).encode(x="n_queries:Q", y="mde:Q", text="label:N")
        layers += [point, text]
    return alt.LayerChart(layer=layers, height=height, width="container", autosize=FIT_WIDTH)


def point_label_offset(mde: float, targets: list[float], y_range: list[float],
                       height: int) -> int:
    """Where the chosen point's label goes: above the point, or below when a target rule
    would run through the text above (and the side below is clearer).

    Positions are compared in pixels on the chart's log y scale (``y_range`` over
    ``height``); a rule closer than ``LABEL_CLEARANCE`` to the label's middle line crosses
    its letters.
    """
    low, high = (math.log(value) for value in y_range)
    span = high - low
    if span <= 0 or mde <= 0:
        return LABEL_ABOVE

    def pixels(value: float) -> float:  # distance above the point, in pixels
        return height * (math.log(value) - math.log(mde)) / span

    def clearance(offset: int) -> float:
        middle = -offset  # the label's middle, in pixels above the point
        return min((abs(pixels(t) - middle) for t in targets if t > 0), default=math.inf)

    above, below = clearance(LABEL_ABOVE), clearance(LABEL_BELOW)
    if above >= LABEL_CLEARANCE or above >= below:
        return LABEL_ABOVE
    return LABEL_BELOW


def target_rules_data(plan: QueryPlan) -> pd.DataFrame:
    """One row per target difference: ``target`` and its ``label`` ("+0.0100 needs 785")."""
    return pd.DataFrame({
        "target": [row.delta for row in plan.rows],
        "label": [f"{format_delta(row.delta)} needs {row.queries_needed:,} queries"
                  for row in plan.rows],
    })


def power_chart(curve: pd.DataFrame, plan: QueryPlan, *, height: int = 320) -> alt.LayerChart:
    """Power of the test on the chosen n against the true difference.

    ``curve`` has ``true_difference`` and ``power`` (``ranklens.plan.analysis.power_curve``). A
    dashed rule marks the wanted power and a red rule the MDE, where the two meet.
    """
    line = alt.Chart(curve).mark_line(color=CURVE, strokeWidth=2).encode(
        x=alt.X("true_difference:Q", title="true difference B − A",
                axis=alt.Axis(format=".3~f")),
        y=alt.Y("power:Q", title="power (chance of a significant result)",
                scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
        tooltip=[alt.Tooltip("true_difference:Q", title="true difference", format=".4f"),
                 alt.Tooltip("power:Q", title="power", format=".1%")],
    )
    wanted = alt.Chart(pd.DataFrame({"power": [plan.power]})).mark_rule(
        color=MUTED, strokeDash=[4, 3]).encode(y="power:Q")
    layers: list[alt.Chart] = [line, wanted]
    if plan.mde is not None:
        mde = pd.DataFrame({"mde": [plan.mde], "power": [plan.power],
                            "label": [f"MDE {format_value(plan.mde)}: "
                                      f"{format_percent(plan.power)} power"]})
        layers.append(alt.Chart(mde).mark_rule(color=CHOSEN).encode(x="mde:Q"))
        layers.append(alt.Chart(mde).mark_text(
            align="left", dx=6, dy=14, color=CHOSEN, fontWeight="bold", fontSize=12,
        ).encode(x="mde:Q", y="power:Q", text="label:N"))
    return alt.LayerChart(layer=layers, height=height, width="container", autosize=FIT_WIDTH)
