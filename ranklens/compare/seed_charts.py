"""Charts of the seeds section: both answers and each seed as a forest, the variance components.

`seeds_forest_data` answers "what does the seeds forest draw": a row for each answer (these
trained runs, a new training run) and one per run of the candidate against the baseline's
mean, with its interval; `components_data` the variance components of each system as bars.
The builders only encode that data; no Streamlit here (the page and the HTML export draw them).
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from ranklens.compare.seed_section import NEW_RUN, THESE_RUNS, SeedAnswer
from ranklens.document.chart_style import BASELINE_COLOUR, FIT_WIDTH
from ranklens.formats import format_delta, format_interval, format_p, level_number

ANSWER_COLOUR = "#0969da"
SEED_COLOUR = "#8c959f"
NEW_RUN_COLOUR = "#bf8700"


def seeds_forest_data(answer: SeedAnswer) -> pd.DataFrame:
    """One row per mark: the two answers first, then each run of B against A's mean."""
    c = answer.comparison
    rows = [(THESE_RUNS, "answer", c.these_runs.delta, c.these_runs.interval.low,
             c.these_runs.interval.high, c.these_runs.p_value, ANSWER_COLOUR)]
    if c.new_run is not None:
        rows.append((NEW_RUN, "answer", c.new_run.estimate, c.new_run.low, c.new_run.high,
                     c.new_run.p_value, NEW_RUN_COLOUR))
    rows += [(f"seed run: {name}", "seed", r.delta, r.interval.low, r.interval.high,
              r.p_value, SEED_COLOUR)
             for name, r in zip(answer.seed_names, c.per_seed, strict=True)]
    data = pd.DataFrame(rows, columns=["label", "kind", "delta", "ci_low", "ci_high", "p",
                                       "colour"])
    data["delta_text"] = [format_delta(d) for d in data["delta"]]
    data["interval"] = [format_interval(lo, hi) for lo, hi in zip(data["ci_low"],
                                                                   data["ci_high"],
                                                                   strict=True)]
    data["p_text"] = [format_p(p) for p in data["p"]]
    return data


def seeds_forest(answer: SeedAnswer, *, metric: str, names: tuple[str, str],
                 alpha: float) -> alt.LayerChart:
    """Forest plot of the two answers and of each seed: point = B - A, bar = its interval,
    the dashed zero line is the baseline."""
    data = seeds_forest_data(answer)
    order = list(data["label"])
    y = alt.Y("label:N", sort=order, title=None,
              axis=alt.Axis(labelLimit=320, labelFontSize=12, ticks=False, domain=False))
    colour = alt.Color("label:N", scale=alt.Scale(domain=order, range=list(data["colour"])),
                       legend=None)
    tooltip = [alt.Tooltip("label:N", title="Row"),
               alt.Tooltip("delta_text:N", title=f"{names[1]} \u2212 {names[0]}"),
               alt.Tooltip("interval:N", title=f"{level_number(1 - alpha)}% interval"),
               alt.Tooltip("p_text:N", title="p")]
    base = alt.Chart(data).encode(y=y, color=colour, tooltip=tooltip)
    bars = base.mark_rule(strokeWidth=2.5).encode(
        x=alt.X("ci_low:Q", title=f"{metric}: {names[1]} \u2212 {names[0]}"), x2="ci_high:Q")
    points = base.mark_point(filled=True, size=100, opacity=1).encode(x="delta:Q")
    zero = alt.Chart(pd.DataFrame({"zero": [0.0]})).mark_rule(
        strokeDash=[5, 4], color=BASELINE_COLOUR).encode(x="zero:Q")
    return alt.LayerChart(layer=[zero, bars, points], height=alt.Step(26),
                          width="container", autosize=FIT_WIDTH).configure_view(stroke=None)


def components_data(answer: SeedAnswer, names: tuple[str, str]) -> pd.DataFrame:
    """Where the new-run estimate's variance comes from: one bar for the query part (the
    paired differences over n queries) and one for the seed part (the runs' means over K
    seeds), with each one's share."""
    c = answer.comparison.components
    total = c.query_part + c.seed_part
    rows = [("queries", c.query_part), ("seeds", c.seed_part)]
    return pd.DataFrame(
        [(source, value, f"{100 * value / total:.0f}%" if total else "0%")
         for source, value in rows], columns=["source", "variance", "share"])


def components_chart(answer: SeedAnswer, names: tuple[str, str]) -> alt.LayerChart:
    """Bars of the query and seed parts of the new-run estimate's variance, with their
    share: which of more queries or more seeds would narrow the interval."""
    data = components_data(answer, names)
    base = alt.Chart(data).encode(
        y=alt.Y("source:N", title=None, sort=["queries", "seeds"]),
        x=alt.X("variance:Q", title="variance of the new-run estimate"),
        tooltip=[alt.Tooltip("source:N"), alt.Tooltip("variance:Q", format=".3g"),
                 alt.Tooltip("share:N")])
    bars = base.mark_bar(color=NEW_RUN_COLOUR)
    labels = base.mark_text(align="left", dx=4, fontSize=12).encode(text="share:N")
    return alt.LayerChart(layer=[bars, labels], height=alt.Step(28), width="container",
                          autosize=FIT_WIDTH)
