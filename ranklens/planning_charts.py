"""Altair charts of the MDE page and the PPI page. No Streamlit here: the pages draw them.

MDE page: ``mde_chart`` (MDE against the number of queries, the current choice marked, the
target differences as horizontal rules) and ``power_chart`` (power against the true
difference). PPI page: ``intervals_chart`` (the four intervals of one difference on one axis,
the uncorrected proxy marked biased) and ``budget_chart`` (expected interval width against the
number of gold queries). Each ``*_data`` function answers what exactly a chart draws, so tests
can check it without a browser.
"""

from __future__ import annotations

import math

import altair as alt
import pandas as pd

from ranklens.planning import QueryPlan
from ranklens.ppi_analysis import PPIAnalysis

FIT_WIDTH = alt.AutoSizeParams(type="fit-x", contains="padding")
CURVE = "#0969da"
CHOSEN = "#cf222e"
MUTED = "#8c959f"
TARGET = "#9a6700"
MINUS = "\u2212"


def log_ticks(low: float, high: float, steps: tuple[int, ...] = (1, 2, 5)) -> list[float]:
    """Tick values between ``low`` and ``high`` at ``steps`` times each power of ten.

    A log axis gets a grid line at every unit otherwise (2, 3, ..., 9, 20, 30 ...).
    """
    ticks = []
    decade = 10.0 ** math.floor(math.log10(low))
    while decade <= high:
        ticks += [m * decade for m in steps if low <= m * decade <= high]
        decade *= 10
    return ticks


def _width_ticks(bounds: list[float]) -> list[float]:
    return log_ticks(bounds[0], bounds[1], steps=(1, 2, 3, 5))


def _signed(value: float) -> str:
    return f"{value:+.4f}".replace("-", MINUS)


# --- MDE page ----------------------------------------------------------------------------------


def mde_chart(curve: pd.DataFrame, plan: QueryPlan, *, height: int = 320) -> alt.LayerChart:
    """MDE against the number of queries (log x), the chosen n as a red point with its MDE.

    ``curve`` has columns ``n_queries`` and ``mde`` (``ranklens.planning.mde_curve``); the
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
                axis=alt.Axis(format=".3~f", values=_width_ticks(y_range))),
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
        chosen = pd.DataFrame({"n_queries": [plan.n_queries], "mde": [plan.mde],
                               "label": [f"{plan.n_queries:,} queries → MDE {plan.mde:.4f}"]})
        point = alt.Chart(chosen).mark_point(
            color=CHOSEN, filled=True, size=90).encode(
            x="n_queries:Q", y="mde:Q",
            tooltip=[alt.Tooltip("label:N", title="your choice")])
        text = alt.Chart(chosen).mark_text(
            align="left", dx=8, dy=-10, color=CHOSEN, fontWeight="bold", fontSize=12,
        ).encode(x="n_queries:Q", y="mde:Q", text="label:N")
        layers += [point, text]
    return alt.LayerChart(layer=layers, height=height, width="container", autosize=FIT_WIDTH)


def target_rules_data(plan: QueryPlan) -> pd.DataFrame:
    """One row per target difference: ``target`` and its ``label`` ("+0.0100 needs 785")."""
    return pd.DataFrame({
        "target": [row.delta for row in plan.rows],
        "label": [f"{_signed(row.delta)} needs {row.queries_needed:,} queries"
                  for row in plan.rows],
    })


def power_chart(curve: pd.DataFrame, plan: QueryPlan, *, height: int = 320) -> alt.LayerChart:
    """Power of the test on the chosen n against the true difference.

    ``curve`` has ``true_difference`` and ``power`` (``ranklens.planning.power_curve``). A
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
                            "label": [f"MDE {plan.mde:.4f}: {plan.power:.0%} power"]})
        layers.append(alt.Chart(mde).mark_rule(color=CHOSEN).encode(x="mde:Q"))
        layers.append(alt.Chart(mde).mark_text(
            align="left", dx=6, dy=14, color=CHOSEN, fontWeight="bold", fontSize=12,
        ).encode(x="mde:Q", y="power:Q", text="label:N"))
    return alt.LayerChart(layer=layers, height=height, width="container", autosize=FIT_WIDTH)


# --- PPI page ----------------------------------------------------------------------------------

ESTIMATE_COLOURS = {"ppi++": "#0969da", "gold": "#1a7f37", "ppi": "#8250df",
                    "proxy": "#cf222e"}


def intervals_data(analysis: PPIAnalysis) -> pd.DataFrame:
    """One row per estimate, top to bottom: PPI++, gold only, classic PPI, proxy uncorrected.

    Columns: ``key``, ``label`` (the y label; the proxy's says "biased"), ``delta``, ``low``,
    ``high``, ``lam`` (NaN for the proxy), ``queries`` (what it was measured on), ``text``.
    """
    order = ("ppi++", "gold", "ppi", "proxy")
    labels = {"ppi++": "PPI++ (λ estimated)", "gold": "gold only (λ = 0)",
              "ppi": "classic PPI (λ = 1)", "proxy": "proxy, uncorrected (biased)"}
    rows = []
    for key in order:
        result = analysis.estimate(key).result
        if key == "proxy":
            queries = f"{result.n_proxy:,} queries, proxy labels"
        elif key == "gold":
            queries = f"{result.n_gold:,} gold queries"
        else:
            queries = f"{result.n_gold:,} gold + {result.n_proxy:,} proxy-only"
        rows.append({
            "key": key, "label": labels[key], "delta": result.delta,
            "low": result.ci_low, "high": result.ci_high,
            "lam": float("nan") if key == "proxy" else result.lam,
            "queries": queries,
            "text": f"{_signed(result.delta)} [{_signed(result.ci_low)}, "
                    f"{_signed(result.ci_high)}]",
        })
    return pd.DataFrame(rows)


def intervals_chart(analysis: PPIAnalysis, *, row_height: int = 44) -> alt.LayerChart:
    """The four intervals of B - A on one axis, a dashed rule at 0, the biased one in red."""
    data = intervals_data(analysis)
    order = list(data["label"])
    level = round(100 * (1 - analysis.estimate("ppi++").result.alpha))
    y = alt.Y("label:N", sort=order, title=None,
              axis=alt.Axis(labelLimit=260, labelFontSize=12, ticks=False, domain=False))
    colour = alt.Color("key:N", legend=None,
                       scale=alt.Scale(domain=list(ESTIMATE_COLOURS),
                                       range=list(ESTIMATE_COLOURS.values())))
    tooltip = [alt.Tooltip("label:N", title="estimate"),
               alt.Tooltip("text:N", title=f"B − A [{level}% CI]"),
               alt.Tooltip("queries:N", title="measured on")]
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

    ``curve`` has ``n_gold``, ``ppi`` and ``gold_only`` (``ranklens.ppi_analysis
    .budget_curve``): PPI++ solid, gold only dashed; the current gold sample is a red point
    with its realised width; ``min_gold`` a grey rule where the warning stops.
    """
    long = curve.melt(id_vars="n_gold", value_vars=["ppi", "gold_only"],
                      var_name="estimate", value_name="width")
    long["estimate"] = long["estimate"].map({"ppi": "PPI++ (gold + proxy)",
                                             "gold_only": "gold only"})
    n_range = [int(curve["n_gold"].min()), int(curve["n_gold"].max())]
    y_range = [float(long["width"].min()) * 0.9, float(long["width"].max()) * 1.1]
    lines = alt.Chart(long).mark_line(strokeWidth=2).encode(
        x=alt.X("n_gold:Q", title="number of gold queries",
                scale=alt.Scale(type="log", domain=n_range, nice=False),
                axis=alt.Axis(format="~s", values=log_ticks(n_range[0], n_range[1]))),
        y=alt.Y("width:Q", title="expected interval width",
                scale=alt.Scale(type="log", domain=y_range, nice=False),
                axis=alt.Axis(format=".3~f", values=_width_ticks(y_range))),
        color=alt.Color("estimate:N", title=None,
                        scale=alt.Scale(domain=["PPI++ (gold + proxy)", "gold only"],
                                        range=[CURVE, "#1a7f37"]),
                        legend=alt.Legend(orient="top", direction="horizontal")),
        strokeDash=alt.StrokeDash("estimate:N", legend=None,
                                  scale=alt.Scale(domain=["PPI++ (gold + proxy)", "gold only"],
                                                  range=[[1, 0], [5, 3]])),
        tooltip=[alt.Tooltip("estimate:N"), alt.Tooltip("n_gold:Q", title="gold queries"),
                 alt.Tooltip("width:Q", title="width", format=".4f")],
    )
    layers: list[alt.Chart] = [lines]
    if min_gold is not None:
        layers.append(alt.Chart(pd.DataFrame({"n_gold": [min_gold]})).mark_rule(
            color=MUTED, strokeDash=[2, 2]).encode(x="n_gold:Q"))
    here = pd.DataFrame({"n_gold": [current_n], "width": [current_width],
                         "label": [f"now: {current_n:,} gold → {current_width:.4f}"]})
    layers.append(alt.Chart(here).mark_point(color=CHOSEN, filled=True, size=90).encode(
        x="n_gold:Q", y="width:Q", tooltip=[alt.Tooltip("label:N", title="your sample")]))
    layers.append(alt.Chart(here).mark_text(
        align="right", dx=-8, dy=16, color=CHOSEN, fontWeight="bold", fontSize=12,
    ).encode(x="n_gold:Q", y="width:Q", text="label:N"))
    return alt.LayerChart(layer=layers, height=height, width="container", autosize=FIT_WIDTH)

