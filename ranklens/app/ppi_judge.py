"""The PPI page's judge check: the segment map control and the section that shows the check.

`choose_segments` draws the sidebar control (a segment map and its column; the demo's by
default); `show_judge` draws ``analysis.judge`` (``ranklens.ppi.judge``) with the tables and
sentences of ``ranklens.ppi.judge_views``. No statistics here.
"""

from __future__ import annotations

import streamlit as st

from ranklens.app import markup
from ranklens.app import state as app_state
from ranklens.io import InputError, InputFile
from ranklens.ppi import judge_views
from ranklens.ppi.analysis import PPIAnalysis, segment_columns

NO_SEGMENTS = "(none)"


def choose_segments(demo: bool) -> tuple[InputFile | None, str | None]:
    """Sidebar: the segment map of the judge check per segment and its column (the demo's
    map, by ``length``, for the demo). (None, None) for no segments."""
    if demo:
        segments: InputFile | None = app_state.demo_files()["segments"]
    else:
        upload = st.file_uploader(
            "Segment map (optional)", key="ppi_segments",
            help="query_id and one or more segment columns: the judge's bias and PPI++ per "
                 "segment.")
        segments = None if upload is None else app_state.input_file("segments", upload)
    if segments is None:
        return None, None
    try:
        columns = segment_columns(segments)
    except InputError as error:
        st.error(f"**The segment map cannot be read.** {markup.text(error)}",
                 icon=":material/error:")
        return None, None
    options = (NO_SEGMENTS, *columns)
    default = options.index("length") if "length" in options else 1
    column = st.selectbox("Judge per segment of", options, index=default,
                          key=f"ppi_segment:{segments.sha256[:16]}",
                          help="The proxy's bias on B \u2212 A and PPI++ for each value of "
                               "this column (PPI++ only where a segment has enough gold "
                               "queries).")
    return (None, None) if column == NO_SEGMENTS else (segments, str(column))


def show_judge(analysis: PPIAnalysis) -> None:
    """The judge check: agreement of grades (confusion matrix, weighted kappas, mean proxy
    - gold grade per gold grade) and, with segments, the bias and PPI++ per segment."""
    check = analysis.judge
    if check is None:
        return
    st.subheader(judge_views.JUDGE_TITLE, anchor="judge")
    st.markdown(markup.text(judge_views.agreement_sentence(check)))
    if check.agreement is not None:
        left, right = st.columns([3, 2], gap="large")
        with left:
            st.markdown("**Documents by gold grade (rows) and proxy grade (columns)**")
            st.dataframe(judge_views.confusion_table(check), hide_index=True,
                         key="judge_confusion")
            st.markdown("**Mean proxy \u2212 gold grade, per gold grade**")
            st.dataframe(judge_views.grade_bias_table(check), hide_index=True,
                         key="judge_grades")
        with right:
            st.markdown("**Weighted kappa**")
            st.dataframe(judge_views.kappa_table(check)[["weights", "kappa", "interval"]],
                         hide_index=True, key="judge_kappa")
            st.caption(judge_views.KAPPA_MEANING)
    if check.segments:
        st.markdown(f"**Per segment of {markup.text(check.segment_column or '')}**")
        st.markdown(markup.text(judge_views.segments_sentence(check)))
        st.dataframe(judge_views.segment_table(check), hide_index=True, key="judge_segments")
        st.caption(judge_views.REFUSAL_REASON)
    for note in check.notes if check.agreement is not None else ():
        st.caption(markup.text(note))
