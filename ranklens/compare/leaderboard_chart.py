"""The leaderboard's picture: each run's rank interval beside its mean, one row per run.

`rank_interval_chart` answers "where could each run really stand" for a board of up to 500
runs at a glance: runs from the highest mean down, on the left a bar from the best to the
worst rank the run could hold (a dot at the rank its mean got), on the right its mean. A run
whose interval reaches rank 1 is drawn in the "could be best" colour. It replaces a table of
hundreds of rows; the table stays beside it for the exact numbers. Altair only, no Streamlit.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from ranklens.compare.leaderboard import RankRow
from ranklens.document.chart_style import CHOSEN, MUTED

ROW_PX = 14
"""Height of one run's row: 200 runs make a 2,800 px chart whose every name reads."""
LEFT_PX, RIGHT_PX = 470, 250
"""Panel widths: with the run names, about 850 px, the page's width beside its sidebar."""
COULD_BE_BEST = "could be the best"
TOLD_APART = "found below the best"


def rank_data(rows: Sequence[RankRow]) -> pd.DataFrame:
    """One row per run, from the highest mean down: its place, rank interval, tier, mean and
    whether the interval reaches rank 1."""
    return pd.DataFrame({
        "run": [r.run for r in rows],
        "place": range(1, len(rows) + 1),
        "rank_low": [r.rank_low for r in rows],
        "rank_high": [r.rank_high for r in rows],
        "tier": [r.tier for r in rows],
        "mean": [r.mean for r in rows],
        "best": [COULD_BE_BEST if r.rank_low == 1 else TOLD_APART for r in rows],
    })


BAR_HALF = 0.35
"""Half a rank on each side of an interval's bar, so a rank known exactly still shows a bar."""


def rank_interval_chart(rows: Sequence[RankRow], metric: str) -> alt.HConcatChart:
    """Rank intervals (left) beside means (right), sharing one row per run (see the module)."""
    data = rank_data(rows)
    order = list(data["run"])
    height = max(120, ROW_PX * len(data))
    data = data.assign(bar_low=data["rank_low"] - BAR_HALF,
                       bar_high=data["rank_high"] + BAR_HALF)
    y = alt.Y("run:N", sort=order, title=None,
              axis=alt.Axis(labelFontSize=10, labelLimit=170, ticks=False,
                            labelOverlap=False))
    unlabelled = alt.Y("run:N", sort=order, title=None, axis=None)
    colour = alt.Color("best:N", title=None,
                       scale=alt.Scale(domain=[COULD_BE_BEST, TOLD_APART],
                                       range=[CHOSEN, MUTED]),
                       legend=alt.Legend(orient="top"))
    tooltip = [alt.Tooltip("run:N", title="Run"), alt.Tooltip("mean:Q", format=".4f",
                                                               title=metric),
               alt.Tooltip("rank_low:Q", title="Best rank"),
               alt.Tooltip("rank_high:Q", title="Worst rank"),
               alt.Tooltip("tier:N", title="Tier")]
    ranks = alt.Scale(domain=[0.5, len(data) + 0.5], reverse=False, nice=False)
    base = alt.Chart(data).encode(y=y, tooltip=tooltip)
    interval = base.mark_bar(height=max(3, ROW_PX - 5), opacity=0.85).encode(
        x=alt.X("bar_low:Q", scale=ranks,
                axis=alt.Axis(title="Rank interval (1 = best)", format="d", tickMinStep=1,
                              orient="top")),
        x2="bar_high:Q", color=colour)
    observed = base.mark_tick(thickness=2, size=max(4, ROW_PX - 3), color="black").encode(
        x=alt.X("place:Q", scale=ranks))
    means = alt.Chart(data).mark_point(filled=True, size=24).encode(
        y=unlabelled, tooltip=tooltip,
        x=alt.X("mean:Q", scale=alt.Scale(zero=False, padding=8),
                axis=alt.Axis(title=f"Mean {metric}", orient="top", format=".3f",
                              tickCount=5)),
        color=colour)
    left = (interval + observed).properties(width=LEFT_PX, height=height)
    right = means.properties(width=RIGHT_PX, height=height)
    return alt.hconcat(left, right, spacing=12).resolve_scale(y="shared")


__all__ = ["COULD_BE_BEST", "rank_data", "rank_interval_chart"]
