"""The page's charts through the app's cache (issue 51): the same chart as st.altair_chart
sends, built once per content."""

from __future__ import annotations

import uuid

from streamlit.testing.v1 import AppTest


def _two_ways(token: str) -> None:
    import altair as alt
    import pandas as pd
    import streamlit as st

    from ranklens.app import chart_cache

    frame = pd.DataFrame({"delta": [0.012, -0.3, float("nan")], "row": ["a", "b", "c"]})

    def build() -> alt.Chart:
        return alt.Chart(frame).mark_point().encode(x="delta:Q", y=alt.Y("row:N", sort=None))

    def counted() -> alt.Chart:
        st.session_state["builds"] = st.session_state.get("builds", 0) + 1
        return build()

    st.altair_chart(build(), width="stretch", key="plain")
    chart_cache.show_altair(counted, (frame,), ("test", token), key="cached")


def test_a_cached_chart_sends_what_altair_chart_sends_and_is_built_once() -> None:
    at = AppTest.from_function(_two_ways, args=(uuid.uuid4().hex,), default_timeout=60).run()
    assert not at.exception
    plain, cached = (e.proto for e in at.get("vega_lite_chart"))
    assert cached.spec == plain.spec and '"mark"' in plain.spec
    assert [(d.name, d.data) for d in cached.datasets] == [(d.name, d.data)
                                                           for d in plain.datasets]
    assert len(plain.datasets) == 1 and plain.datasets[0].data  # Arrow bytes, not empty
    assert cached.theme == plain.theme
    at.run()  # a rerun draws it again from the cache: the builder is not called again
    assert not at.exception
    assert at.session_state["builds"] == 1
    assert at.get("vega_lite_chart")[1].proto.spec == plain.spec


def test_a_change_of_data_or_parameters_is_another_chart() -> None:
    import pandas as pd

    from ranklens.app.chart_cache import digest

    frame = pd.DataFrame({"delta": [0.1, 0.2]})
    assert digest((frame,), ("forest", "AP")) == digest((frame.copy(),), ("forest", "AP"))
    assert digest((frame,), ("forest", "AP")) != digest((frame,), ("forest", "nDCG@10"))
    changed = frame.assign(delta=[0.1, 0.2000001])
    assert digest((frame,), ("forest", "AP")) != digest((changed,), ("forest", "AP"))


def _block_two_ways(token: str) -> None:
    from functools import partial

    import altair as alt
    import pandas as pd
    import streamlit as st

    from ranklens.app.blocks import show_chart
    from ranklens.document.blocks import Chart

    def panels(frame: pd.DataFrame, title: str) -> alt.HConcatChart:
        point = alt.Chart(frame).mark_point().encode(x="x:Q")
        return alt.hconcat(point, point.mark_tick(), title=title)

    frame = pd.DataFrame({"x": [0.5, 1.5]})
    st.altair_chart(panels(frame, token), width="content", key="plain")
    show_chart(Chart("panels", partial(panels, frame, token), "two panels"), key="block")


def test_a_chart_block_of_a_partial_is_cached_by_its_function_and_data() -> None:
    at = AppTest.from_function(_block_two_ways, args=(uuid.uuid4().hex,),
                               default_timeout=60).run()
    assert not at.exception
    plain, block = (e.proto for e in at.get("vega_lite_chart"))
    assert block.spec == plain.spec and '"hconcat"' in plain.spec
    assert [d.data for d in block.datasets] == [d.data for d in plain.datasets]
