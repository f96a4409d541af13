"""Altair charts of the PPI page. No Streamlit here: the page draws them.

``intervals_chart`` (the four intervals of one difference on one axis, the uncorrected proxy
marked) and ``budget_chart`` (expected interval width against the number of gold queries).
Each ``*_data`` function answers what exactly a chart draws, so tests can check it without a
browser.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from ranklens.document.chart_style import CHOSEN, CURVE, FIT_WIDTH, MUTED, log_ticks, width_ticks
from ranklens.formats import format_delta, format_interval, format_value, level_number
from ranklens.ppi import verdict_words
from ranklens.ppi.analysis import PPIAnalysis

PLAN_CURVE = "PPI++, queries drawn by the labelling plan"
"""The budget chart's name of the labelling plan's curve (``ranklens.ppi.analysis.with_plan``)."""

ESTIMATE_COLOURS = {"ppi++": "#0969da", "gold": "#1a7f37", "ppi": "#8250df",
                    "proxy": "#cf222e"}


def intervals_data(analysis: PPIAnalysis) -> pd.DataFrame:
    """One row per estimate, top to bottom: PPI++, gold only, classic PPI, proxy uncorrected.

    Columns: ``key``, ``label`` (the y label; the proxy's says "biased" only when its bias
    on the gold queries shows, ``verdict_words.estimate_label``), ``delta``, ``low``, ``high``,
    ``lam`` (NaN for the proxy), ``queries`` (what it was measured on), ``method`` (how the
    interval is computed) and ``text`` (the label drawn beside the point).
    """
    rows = []
    for key in ("ppi++", "gold", "ppi", "proxy"):
        result = analysis.estimate(key).result
        rows.append({
            "key": key, "label": verdict_words.estimate_label(analysis, key), "delta": result.delta,
            "low": result.ci_low, "high": result.ci_high,
            "lam": float("nan") if key == "proxy" else result.lam,
            "queries": verdict_words.measured_on(result, key),
            "method": verdict_words.interval_method(result, key),
            "text": f"{format_delta(result.delta)} "
                    f"({format_interval(result.ci_low, result.ci_high)})",
        })
    return pd.DataFrame(rows)


def intervals_chart(analysis: PPIAnalysis, *, row_height: int = 44) -> alt.LayerChart:
    """The four intervals of B - A on one axis, a dashed rule at 0, the proxy in red."""
    data = intervals_data(analysis)
    order = list(data["label"])
    level = level_number(1 - analysis.estimate("ppi++").result.alpha)
    y = alt.Y("label:N", sort=order, title=None,
              axis=alt.Axis(labelLimit=260, labelFontSize=12, ticks=False, domain=False))
    colour = alt.Color("key:N", legend=None,
                       scale=alt.Scale(domain=list(ESTIMATE_COLOURS),
                                       range=list(ESTIMATE_COLOURS.values())))
    tooltip = [alt.Tooltip("label:N", title="estimate"),
               alt.Tooltip("text:N", title=f"B − A [{level}% CI]"),
               alt.Tooltip("queries:N", title="measured on"),
               alt.Tooltip("method:N", title="interval")]
    base = alt.Chart(data).encode(y=y, color=colour, tooltip=tooltip)
    bars = base.mark_rule(strokeWidth=3).encode(
        x=alt.X("low:Q", title=f"{analysis.metric}: B − A with {level}% interval",
                axis=alt.Axis(labelExpr="datum.value == 0 ? '0' : format(datum.value, '+.3~f')")),
        x2="high:Q",
    )
    points = base.mark_point(filled=True, size=80).encode(x="delta:Q")
    text = base.mark_text(align="left", dx=8, dy=-12, fontSize=11).encode(
        x="delta:Q", text="text:N")
    zero = alt.Chart(pd.DataFrame({"x": [0.0]})).mark_rule(
        color=MUTED, strokeDash=[4, 3]).encode(x="x:Q")
    return alt.LayerChart(layer=[zero, bars, points, text], height=row_height * len(data),
                          width="container", autosize=FIT_WIDTH)


def budget_chart(curve: pd.DataFrame, current_n: int, current_width: float,
                 *, min_gold: int | None = None, height: int = 320) -> alt.LayerChart:
    """Expected interval width against the number of gold queries (log x).

    ``curve`` has ``n_gold``, ``ppi`` and ``gold_only`` (``ranklens.ppi.analysis
    .budget_curve``): PPI++ solid, gold only dashed; with a ``plan`` column
    (``ranklens.ppi.analysis.with_plan``) the labelling plan's, long dashes; the current gold
    sample is a red point with its realised width; ``min_gold`` a grey rule where the warning stops.
    """
    names = {"ppi": "PPI++ (gold + proxy)", "gold_only": "gold only"}
    colours, dashes = [CURVE, "#1a7f37"], [[1, 0], [5, 3]]
    if "plan" in curve.columns:
        names["plan"] = PLAN_CURVE
        colours.append("#8250df")
        dashes.append([8, 2])
    long = curve.melt(id_vars="n_gold", value_vars=list(names), var_name="estimate",
                      value_name="width").dropna(subset=["width"])
    long["estimate"] = long["estimate"].map(names)
    n_range = [int(curve["n_gold"].min()), int(curve["n_gold"].max())]
    y_range = [float(long["width"].min()) * 0.9, float(long["width"].max()) * 1.1]
    lines = alt.Chart(long).mark_line(strokeWidth=2).encode(
        x=alt.X("n_gold:Q", title="number of gold queries",
                scale=alt.Scale(type="log", domain=n_range, nice=False),
                axis=alt.Axis(format="~s", values=log_ticks(n_range[0], n_range[1]))),
        y=alt.Y("width:Q", title="expected interval width",
                scale=alt.Scale(type="log", domain=y_range, nice=False),
                axis=alt.Axis(format=".3~f", values=width_ticks(y_range))),
        color=alt.Color("estimate:N", title=None,
                        scale=alt.Scale(domain=list(names.values()), range=colours),
                        legend=alt.Legend(orient="top", direction="horizontal",
                                          labelLimit=0)),  # names whole, not cut at 160 px
        strokeDash=alt.StrokeDash("estimate:N", legend=None,
                                  scale=alt.Scale(domain=list(names.values()),
                                                  range=dashes)),
        tooltip=[alt.Tooltip("estimate:N"), alt.Tooltip("n_gold:Q", title="gold queries"),
                 alt.Tooltip("width:Q", title="width", format=".4f")],
    )
    layers: list[alt.Chart] = [lines]
    if min_gold is not None:
        layers.append(alt.Chart(pd.DataFrame({"n_gold": [min_gold]})).mark_rule(
            color=MUTED, strokeDash=[2, 2]).encode(x="n_gold:Q"))
    here = pd.DataFrame({"n_gold": [current_n], "width": [current_width],
                         "label": [f"now: {current_n:,} gold → {format_value(current_width)}"]})
    layers.append(alt.Chart(here).mark_point(color=CHOSEN, filled=True, size=90).encode(
        x="n_gold:Q", y="width:Q", tooltip=[alt.Tooltip("label:N", title="your sample")]))
    layers.append(alt.Chart(here).mark_text(
        align="right", dx=-8, dy=16, color=CHOSEN, fontWeight="bold", fontSize=12,
    ).encode(x="n_gold:Q", y="width:Q", text="label:N"))
    return alt.LayerChart(layer=layers, height=height, width="container", autosize=FIT_WIDTH)

