"""Altair charts of comparison results: the forest plot, the histogram of per-query deltas and
the leaderboard of several candidates against a baseline.

Each chart has a ``*_data`` function that answers "what exactly does the chart draw" (one row
per mark, formatted tooltip texts included), so tests can check it without a browser, and a
builder that only encodes that data. No Streamlit here: the pages call these and draw.
"""

from __future__ import annotations

import math

import altair as alt
import numpy as np
import pandas as pd

from ranklens.compare.fcr import IntervalChoice
from ranklens.compare.fcr_words import level_text
from ranklens.compare.report_tables import TOO_SMALL, describe_row, finding_labels, shown_intervals
from ranklens.document.chart_style import BASELINE_COLOUR, FIT_WIDTH, run_colour
from ranklens.formats import format_delta, format_interval, format_p, level_number
from ranklens.health.check_words import NO_VERDICT

ROW_HEIGHT = 24
"""Pixels per forest-plot row: 40 segments stay readable, one metric fits a screen."""

COLOURS = ("#1a7f37", "#8c959f", "#cf222e", "#d0d7de", "#57606a")
"""Better, no reliable difference, worse, too small, no verdict (finding_labels order)."""


def forest_data(table: pd.DataFrame, run_names: tuple[str, str],
                intervals: IntervalChoice = "fcr") -> pd.DataFrame:
    """The forest plot's rows, top to bottom, from a `ranklens.compare.report_tables.segment_table`.

    Adds ``row`` (the y label: segment and n), ``position`` (0 = top), ``kind`` ("overall" or
    "segment"), the drawn interval ``bar_low``/``bar_high`` (`views.shown_intervals`: the
    FCR-adjusted one by default, ``intervals="marginal"`` the marginal one; an unbounded end
    drawn to the edge of the others) and the tooltip texts ``interval`` (the drawn one, with
    its kind and level), ``marginal``, ``p``, ``q``, ``mean_a_text``, ``mean_b_text``,
    ``delta_text``. The row order is the table's (overall, then segments by difference); rows
    without a result keep NaN numbers and carry their note.
    """
    data = shown_intervals(table, intervals)
    ends = pd.concat([data["shown_low"], data["shown_high"], data["ci_low"], data["ci_high"]])
    finite = ends[np.isfinite(ends.astype(float))]
    edge_low = float(finite.min()) if finite.size else 0.0
    edge_high = float(finite.max()) if finite.size else 0.0
    data["bar_low"] = data["shown_low"].astype(float).clip(lower=edge_low)
    data["bar_high"] = data["shown_high"].astype(float).clip(upper=edge_high)
    # an end past the others' (unbounded, at a handful of queries) is drawn as an arrow at the
    # edge, so an interval that spans the axis still reads as an interval
    data["open_low"] = ~np.isfinite(data["shown_low"].astype(float))
    data["open_high"] = ~np.isfinite(data["shown_high"].astype(float))
    data["row"] = [f"{seg}  (n={n:,})" for seg, n in zip(data["segment"], data["n_queries"],
                                                         strict=True)]
    data["position"] = range(len(data))
    data["kind"] = ["overall" if o else "segment" for o in data["overall"]]
    texts = [describe_row(record) for record in data.to_dict("records")]
    data["marginal"] = [t["interval"] for t in texts]
    data["interval"] = [
        "" if math.isnan(float(lo)) else
        f"{describe_row({'ci_low': lo, 'ci_high': hi})['interval']} ({kind}, "
        f"{level_text(float(level))})"
        for lo, hi, kind, level in zip(data["shown_low"], data["shown_high"],
                                       data["shown_kind"], data["shown_level"], strict=True)]
    data["p"] = [t["p"] for t in texts]
    data["q"] = [t["q"] for t in texts]
    for column in ("mean_a", "mean_b"):
        data[f"{column}_text"] = [("" if math.isnan(v) else f"{v:.4f}")
                                  for v in data[column].astype(float)]
    data["delta_text"] = [("" if math.isnan(v) else f"{v:+.4f}".replace("-", "\u2212"))
                          for v in data["delta"].astype(float)]
    return data.replace([np.inf, -np.inf], np.nan)  # the chart's JSON holds no infinity


def forest_plot(
    table: pd.DataFrame,
    *,
    metric: str,
    run_names: tuple[str, str],
    alpha: float,
    intervals: IntervalChoice = "fcr",
) -> alt.LayerChart:
    """Forest plot: a row per segment and the overall row (top, diamond, bold label).

    Point = mean difference B - A, bar = the segment's interval (FCR-adjusted by default where
    the report has one, ``intervals="marginal"``: the marginal one; the overall row's is
    always marginal), dashed line at 0, colour = the row's finding at ``alpha`` (q for
    segments), legend in words; the axis title says which intervals are drawn; tooltip with
    n, means, delta, the drawn and the marginal interval, p and q. Each row gets
    ``ROW_HEIGHT`` pixels, so 40 segments stay readable.
    """
    data = forest_data(table, run_names, intervals)
    name_a, name_b = run_names
    order = list(data["row"])
    colour = _finding_colour(set(data["finding"]), run_names, alpha)
    y = alt.Y(
        "row:N", sort=order, title=None,
        axis=alt.Axis(
            labelLimit=320, labelFontSize=12, ticks=False, domain=False,
            labelFontWeight=alt.ExprRef(f"datum.value === {order[0]!r} ? 'bold' : 'normal'"),
        ),
    )
    tooltip = _forest_tooltip(run_names, alpha)
    adjusted = data.loc[data["shown_kind"] == "FCR-adjusted", "shown_level"]
    which = (f"segments: FCR-adjusted {level_text(float(adjusted.iloc[0]))} intervals"
             if len(adjusted) else f"marginal {level_text(1 - alpha)} intervals")
    x_title = f"{metric}: {name_b} \u2212 {name_a} (mean difference; {which})"
    base = alt.Chart(data).encode(y=y)
    scored = base.transform_filter("isValid(datum.delta)")
    bars = scored.mark_rule(strokeWidth=2.5).encode(
        x=alt.X("bar_low:Q", title=x_title), x2="bar_high:Q", color=colour, tooltip=tooltip,
    )
    points = scored.mark_point(filled=True, opacity=1).encode(
        x="delta:Q",
        color=colour,
        shape=alt.Shape("kind:N", scale=alt.Scale(domain=["overall", "segment"],
                                                   range=["diamond", "circle"]), legend=None),
        size=alt.Size("kind:N", scale=alt.Scale(domain=["overall", "segment"],
                                                range=[180, 70]), legend=None),
        tooltip=tooltip,
    )
    # caps at each end; an open end (past the others, unbounded) an arrow at the edge instead
    caps = [scored.transform_filter(f"!datum.open_{side}").mark_tick(thickness=2, size=10)
            .encode(x=f"bar_{side}:Q", color=colour, tooltip=tooltip)
            for side in ("low", "high")]
    arrows = [scored.transform_filter(f"datum.open_{side}").mark_point(
        filled=True, opacity=1, size=90,
        shape=f"triangle-{'left' if side == 'low' else 'right'}").encode(
        x=f"bar_{side}:Q", color=colour, tooltip=tooltip) for side in ("low", "high")]
    notes = base.transform_filter("!isValid(datum.delta)").mark_text(
        align="left", dx=4, fontStyle="italic", color="#57606a",
    ).encode(x=alt.datum(0), text="note:N", tooltip=tooltip)
    zero = alt.Chart(pd.DataFrame({"zero": [0.0]})).mark_rule(
        strokeDash=[5, 4], color="#57606a").encode(x="zero:Q")
    # A thin rule under the overall row sets it apart from the segments.
    separator = alt.Chart(pd.DataFrame({"row": [order[0]]})).mark_rule(
        color="#d0d7de", yOffset=ROW_HEIGHT / 2).encode(y=alt.Y("row:N", sort=order))
    layers = [zero, bars, *caps, *arrows, points, notes]
    if len(order) > 1:
        layers.insert(0, separator)
    return alt.LayerChart(
        layer=layers, height=alt.Step(ROW_HEIGHT), width="container", autosize=FIT_WIDTH,
    ).configure_view(stroke=None)


def _finding_colour(present: set[str], run_names: tuple[str, str], alpha: float) -> alt.Color:
    """The forest plot's colour by finding: only the findings ``present``, the legend on top
    in words (no verdict when the health checks withheld it)."""
    shown = [(label, colour) for label, colour in zip(finding_labels(run_names), COLOURS,
                                                      strict=True) if label in present]
    return alt.Color(
        "finding:N",
        title=(f"At q \u2264 {alpha:g} (overall row: p)" if present - {NO_VERDICT, TOO_SMALL}
               else "No verdict: see the health checks"),
        scale=alt.Scale(domain=[label for label, _ in shown],
                        range=[colour for _, colour in shown]),
        legend=alt.Legend(orient="top", direction="horizontal", labelLimit=320,
                          titleLimit=400),
    )


def _forest_tooltip(run_names: tuple[str, str], alpha: float) -> list[alt.Tooltip]:
    """A forest-plot row's tooltip: n, both means, B - A, the drawn and the marginal interval,
    p, q, the finding and the note."""
    name_a, name_b = run_names
    return [
        alt.Tooltip("segment:N", title="Segment"),
        alt.Tooltip("n_queries:Q", title="Queries (n)", format=","),
        alt.Tooltip("mean_a_text:N", title=f"Mean {name_a} (A)"),
        alt.Tooltip("mean_b_text:N", title=f"Mean {name_b} (B)"),
        alt.Tooltip("delta_text:N", title="Difference B \u2212 A"),
        alt.Tooltip("interval:N", title="Interval drawn"),
        alt.Tooltip("marginal:N", title=f"Marginal {level_text(1 - alpha)} interval"),
        alt.Tooltip("p:N", title="p"),
        alt.Tooltip("q:N", title="q (BH)"),
        alt.Tooltip("finding:N", title="Finding"),
        alt.Tooltip("note:N", title="Note"),
    ]


def bin_step(span: float, bins: int) -> float:
    """A readable bin width (1, 2 or 5 times a power of ten) giving at most ~``bins`` bins."""
    if not span > 0:
        return 0.01
    raw = span / bins
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9))


def histogram_data(per_query: pd.DataFrame, run_names: tuple[str, str],
                   bins: int = 40) -> pd.DataFrame:
    """The histogram's bars: per-query differences counted in bins, split by outcome.

    One row per (bin, outcome) with at least one query: ``bin_start``, ``bin_end`` (bins of a
    readable width with an edge at 0, a bin holds ``start <= delta < end``), ``outcome``
    ("<B> wins", "tie", "<B> loses") and ``queries``. Counting here rather than in the browser
    keeps the chart small however many queries there are.
    """
    name_b = run_names[1]
    words = {"B wins": f"{name_b} wins", "tie": "tie", "B loses": f"{name_b} loses"}
    deltas = per_query["delta"].to_numpy(dtype=float)
    columns = ["bin_start", "bin_end", "outcome", "queries"]
    if deltas.size == 0:
        return pd.DataFrame(columns=columns)
    low, high = float(deltas.min()), float(deltas.max())
    step = bin_step(max(high, 0.0) - min(low, 0.0), bins)
    # The nudge keeps a difference that is a multiple of the step (P@10 moves by 0.1) in the
    # bin that starts at it, despite 0.3 / 0.05 == 5.999...
    index = np.floor(deltas / step + 1e-9).astype(np.int64)
    outcome_rank = per_query["outcome"].map({"B wins": 0, "tie": 1, "B loses": 2})
    counted = (pd.DataFrame({"index": index, "rank": outcome_rank.to_numpy()})
               .groupby(["index", "rank"], sort=True).size().reset_index(name="queries"))
    counted["bin_start"] = (counted["index"] * step).round(12)
    counted["bin_end"] = ((counted["index"] + 1) * step).round(12)
    names = [words["B wins"], words["tie"], words["B loses"]]
    counted["outcome"] = [names[r] for r in counted["rank"]]
    return counted[columns]


def delta_histogram(
    per_query: pd.DataFrame,
    *,
    metric: str,
    run_names: tuple[str, str],
    bins: int = 40,
) -> alt.LayerChart:
    """Histogram of per-query differences B - A, stacked by outcome, dashed line at 0."""
    data = histogram_data(per_query, run_names, bins)
    name_a, name_b = run_names
    outcomes = [f"{name_b} wins", "tie", f"{name_b} loses"]
    bars = alt.Chart(data).mark_bar(binSpacing=1).encode(
        x=alt.X("bin_start:Q", bin="binned",
                title=f"{metric}: {name_b} \u2212 {name_a} per query"),
        x2="bin_end:Q",
        # counts: whole ticks only (six queries read 0.0, 0.2 ... 1.0 on a default axis)
        y=alt.Y("sum(queries):Q", title="Queries", stack="zero",
                axis=alt.Axis(format="d", tickMinStep=1)),
        color=alt.Color("outcome:N", title=None,
                        scale=alt.Scale(domain=outcomes, range=list(COLOURS[:3])),
                        legend=alt.Legend(orient="top")),
        order=alt.Order("outcome_order:Q"),
        tooltip=[alt.Tooltip("outcome:N", title="Outcome"),
                 alt.Tooltip("sum(queries):Q", title="Queries"),
                 alt.Tooltip("bin_start:Q", title="From", format="+.3f"),
                 alt.Tooltip("bin_end:Q", title="To (excluded)", format="+.3f")],
    ).transform_calculate(
        outcome_order=f"indexof({outcomes!r}, datum.outcome)",
    )
    zero = alt.Chart(pd.DataFrame({"zero": [0.0]})).mark_rule(
        strokeDash=[5, 4], color="#57606a").encode(x="zero:Q")
    return alt.LayerChart(layer=[bars, zero], height=220, width="container", autosize=FIT_WIDTH)


def leaderboard_data(table: pd.DataFrame) -> pd.DataFrame:
    """The leaderboard plot's rows, top to bottom, from a `views.leaderboard_table`: one per
    candidate (the baseline is the zero line), in the table's order, with ``label`` (the y
    label: name and mean), ``colour`` (the run's own) and the tooltip texts."""
    data = table[~table["baseline"]].copy()
    data["label"] = [f"{run}  ({mean:.4f})" for run, mean in zip(data["run"], data["mean"],
                                                                 strict=True)]
    data["colour"] = [run_colour(int(p)) for p in data["position"]]
    data["delta_text"] = [format_delta(float(d)) for d in data["delta"]]
    data["interval"] = [format_interval(float(lo), float(hi))
                        for lo, hi in zip(data["ci_low"], data["ci_high"], strict=True)]
    data["p"] = [format_p(float(p)) for p in data["p_value"]]
    data["adjusted"] = [format_p(float(p)) for p in data["adjusted_p"]]
    data["mean_text"] = [f"{float(m):.4f}" for m in data["mean"]]
    data["record"] = [f"{int(w):,} / {int(t):,} / {int(v):,}"
                      for w, t, v in zip(data["wins"], data["ties"], data["losses"], strict=True)]
    return data.reset_index(drop=True)


def leaderboard_plot(
    table: pd.DataFrame,
    *,
    metric: str,
    baseline: str,
    alpha: float,
) -> alt.LayerChart:
    """Forest plot of the candidates against the baseline: a row per candidate, point = mean
    difference to the baseline, bar = its interval, in the run's own colour; a filled point
    where the family-adjusted p is at most ``alpha``, a hollow one where it is not. The
    dashed zero line is the baseline. Tooltip: mean, difference, interval, p, adjusted p,
    W/T/L."""
    data = leaderboard_data(table)
    order = list(data["label"])
    base_mean = float(table.loc[table["baseline"], "mean"].iloc[0])
    colour = alt.Color("label:N", scale=alt.Scale(domain=order, range=list(data["colour"])),
                       legend=None)
    y = alt.Y("label:N", sort=order, title=None,
              axis=alt.Axis(labelLimit=320, labelFontSize=12, ticks=False, domain=False))
    tooltip = [
        alt.Tooltip("run:N", title="Run"),
        alt.Tooltip("mean_text:N", title=f"Mean {metric}"),
        alt.Tooltip("delta_text:N", title=f"Difference to {baseline}"),
        alt.Tooltip("interval:N", title=f"{level_number(1 - alpha)}% interval"),
        alt.Tooltip("p:N", title="p"),
        alt.Tooltip("adjusted:N", title="Adjusted p (family)"),
        alt.Tooltip("record:N", title="Won / tied / lost"),
        alt.Tooltip("finding:N", title="Finding"),
    ]
    x_title = (f"{metric}: candidate \u2212 {baseline} (filled: adjusted p \u2264 {alpha:g})")
    base = alt.Chart(data).encode(y=y, color=colour, tooltip=tooltip)
    bars = base.mark_rule(strokeWidth=2.5).encode(x=alt.X("ci_low:Q", title=x_title),
                                                  x2="ci_high:Q")
    found = base.transform_filter("datum.significant").mark_point(
        filled=True, size=110, opacity=1).encode(x="delta:Q")
    open_points = base.transform_filter("!datum.significant").mark_point(
        filled=False, size=110, strokeWidth=2, fill="white", opacity=1).encode(x="delta:Q")
    zero = alt.Chart(pd.DataFrame({"zero": [0.0], "text": [
        f"{baseline} (baseline) {base_mean:.4f}"]})).encode(x="zero:Q")
    line = zero.mark_rule(strokeDash=[5, 4], color=BASELINE_COLOUR)
    label = zero.mark_text(align="left", dx=4, dy=-6, color=BASELINE_COLOUR, fontSize=11,
                           ).encode(y=alt.value(0), text="text:N")
    return alt.LayerChart(
        layer=[line, label, bars, found, open_points], height=alt.Step(ROW_HEIGHT + 8),
        width="container", autosize=FIT_WIDTH,
    ).configure_view(stroke=None)
