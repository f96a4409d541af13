"""The page's "Where B differs most": slices found on half the queries, confirmed on the rest.

Draws the report section ``ranklens.compare.sections.discovered`` (the same words and numbers
as the CLI's ``--discover`` and the exports), computed when the reader asks for it (a search
over every column and pair of columns costs a fraction of a second on the demo, more on big
runs) and kept in the app's cache by inputs and settings. It computes nothing itself.
"""

from __future__ import annotations

import streamlit as st

from ranklens.app.blocks import show_blocks
from ranklens.app.state import cached, input_key
from ranklens.compare.discovery import with_discovery
from ranklens.compare.loaded import LoadedInputs
from ranklens.compare.report import Report
from ranklens.compare.sections.discovered import TITLE, discovered_section
from ranklens.compare.settings import CompareSettings


def show_discovery(report: Report, inputs: LoadedInputs, settings: CompareSettings) -> None:
    """An expander that, when its toggle is on, shows the slices of ``report``'s first metric
    where B - A differs from the rest's (B: the first candidate)."""
    if len(report.run_names) < 2 or report.seeds is not None:
        return
    # open while the search is on: the toggle's rerun would otherwise fold it shut and hide
    # the results the reader just asked for
    with st.expander(TITLE, icon=":material/travel_explore:",
                     expanded=bool(st.session_state.get("discover_slices", False))):
        st.caption("Search every segment column, their pairs, the judged relevant documents, "
                   "the top-10 overlap and the baseline's own score for queries whose B − A "
                   "differs from the rest's: on a random half of the queries, then confirmed "
                   "on the other half, which the search never saw.")
        if not st.toggle("Search for slices", key="discover_slices"):
            return
        key = (input_key(inputs.files), repr(settings), report.metrics[0])
        found = cached("discovery", key,
                       lambda: with_discovery(report, inputs, settings.seed),
                       label="Searching for slices…")
        show_blocks(discovered_section(found))


__all__ = ["show_discovery"]
