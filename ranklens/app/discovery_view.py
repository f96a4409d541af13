"""The page's "Where B differs most": slices found on each half of the queries, confirmed on the
other.

Draws the report section ``ranklens.compare.sections.discovered`` (the same words and numbers
as the CLI's ``--discover`` and the exports), computed when the reader asks for it (a search
over every column and pair of columns costs a fraction of a second on the demo, more on big
runs) and kept in the app's cache by inputs and settings; then lists a picked slice's
queries, each a click away from the drill-down. It computes nothing itself.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ranklens.app.blocks import show_blocks
from ranklens.app.compare_queries import rankings_section, row_picker
from ranklens.app.state import cached, input_key
from ranklens.compare.discovery import with_discovery
from ranklens.compare.family import run_key
from ranklens.compare.loaded import LoadedInputs
from ranklens.compare.query_texts import Texts
from ranklens.compare.report import Report
from ranklens.compare.sections.discovered import TITLE, discovered_section
from ranklens.compare.settings import CompareSettings


def show_discovery(report: Report, inputs: LoadedInputs, settings: CompareSettings,
                   texts: Texts | None = None) -> None:
    """An expander that, when its toggle is on, shows the slices of ``report``'s first metric
    where B - A differs from the rest's (B: the first candidate); with ``texts``, the
    queries' length is searched too."""
    if len(report.run_names) < 2 or report.seeds is not None:
        return
    # open while the search is on: the toggle's rerun would otherwise fold it shut and hide
    # the results the reader just asked for
    with st.expander(TITLE, icon=":material/travel_explore:",
                     expanded=bool(st.session_state.get("discover_slices", False))):
        st.caption("Search every segment column, their pairs, the judged relevant documents, "
                   "each run's judged@10, the top-10 overlap, the query's length (with query "
                   "texts) and the baseline's own score for queries whose B − A "
                   "differs from the rest's: each half of a random split searches, the other "
                   "half, which that search never saw, confirms.")
        if not st.toggle("Search for slices", key="discover_slices"):
            return
        query_texts = None if texts is None else texts.queries
        key = (input_key(inputs.files), repr(settings), report.metrics[0],
               input_key(texts.files) if texts is not None else ())
        found = cached("discovery", key,
                       lambda: with_discovery(report, inputs, settings.seed,
                                              query_texts=query_texts),
                       label="Searching for slices…")
        show_blocks(discovered_section(found))
        show_slice_queries(found)


def show_slice_queries(report: Report) -> None:
    """A found slice's queries (its A, B and B − A on the searched metric, biggest losses
    first); a click on a row opens that query in "One query, both rankings" below."""
    if not report.discovered:
        return
    chosen = report.params.get("segment_column")
    labels = {s.label(chosen): s for s in report.discovered}
    picked = st.selectbox("Look into a slice", list(labels), index=None,
                          key="discover_slice_pick",
                          placeholder="pick a slice to list its queries")
    if picked is None:
        return
    found = labels[picked]
    metric = report.params["discover"]["metric"]
    values = report.per_query.get(metric, {})
    a, b = (values[k] for k in list(values)[:2])
    frame = pd.DataFrame({"query_id": list(found.queries),
                          "a": [a[q] for q in found.queries],
                          "b": [b[q] for q in found.queries]})
    frame["delta"] = frame["b"] - frame["a"]
    frame = frame.sort_values(["delta", "query_id"]).reset_index(drop=True)
    name_a, name_b = report.run_names[0], report.run_names[1]
    scope = "" if len(report.run_names) == 2 else f":{run_key(1)}"
    pick_key = f"query:{metric}{scope}"
    table_key = "discover_slice_queries"
    st.caption(f"{len(frame):,} queries ({found.n_queries:,} of them held out for the "
               "estimate above). Click a row to open the query in “One query, both "
               "rankings” below.")
    st.dataframe(frame, hide_index=True, key=table_key,
                 on_select=row_picker(table_key, frame, pick_key,
                                        rankings_section(metric, scope)),
                 selection_mode="single-row", height=min(360, 38 + 35 * len(frame)),
                 column_config={
                     "query_id": st.column_config.TextColumn("Query"),
                     "a": st.column_config.NumberColumn(name_a, format="%.4f"),
                     "b": st.column_config.NumberColumn(name_b, format="%.4f"),
                     "delta": st.column_config.NumberColumn("B − A", format="%+.4f")})


__all__ = ["show_discovery"]
